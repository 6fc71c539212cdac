// The hand form's niceties (hands/_form.html); the form works without them. The server scores
// the hand (never this script): counters change in place, the card counter fills in points, the
// page's parts marked data-preview are asked of the server as one types, Enter moves on, Save
// posts in the background so that a lost connection leaves the hand as typed, and the notice of
// a hand saved on another phone meanwhile (#elsewhere) follows the game's state.
import { setUp as setUpPage } from "./page.js";
import { follow, unfollow } from "./follow.js";
import { ask, latest, swap } from "./parts.js";

export function setUp() {
  const form = document.querySelector("form.hand-form");
  if (!form) return;
  counters(form);
  previewAsTyped(form);
  enterMovesOn(form);
  saveInBackground(form);
  const elsewhere = document.getElementById("elsewhere");
  if (elsewhere) follow(elsewhere.dataset.state, (response) => response.json().then(told));
}

const toNumber = (input) => parseInt(input.value, 10) || 0;

// Not form.action: the buttons named "action" hide that property.
const address = (form) => form.getAttribute("action") || location.href.split("#")[0];

// A new hand's form as the server drew it (data-blank), nothing typed or tapped into it since.
function untouched(form) {
  if (!form || !("blank" in form.dataset)) return false;
  return [...form.querySelectorAll("input, select, textarea")].every((field) => {
    if (field.type === "checkbox" || field.type === "radio") {
      return field.checked === field.defaultChecked;
    }
    if (field.options) return [...field.options].every((o) => o.selected === o.defaultSelected);
    return field.value === field.defaultValue;
  });
}

// The game's state, in words: a hand recorded elsewhere since this form was opened, or the
// table playing again.
function told(state) {
  const elsewhere = document.getElementById("elsewhere");
  if (!elsewhere) return;
  if (state.next) return playedOn(elsewhere, state.next);
  const after = document.querySelector("form.hand-form input[name=after]");
  if (!after || after.value === "") return;
  if (state.last <= parseInt(after.value, 10)) {
    elsewhere.textContent = "";
    delete elsewhere.dataset.shown;
    return;
  }
  const number = String(state.hands);
  const text = elsewhere.dataset.text.replace("{number}", number).replace("{next}", String(state.hands + 1));
  if (elsewhere.dataset.shown === text) return;
  elsewhere.dataset.shown = text;
  elsewhere.textContent = text + " ";
  if (state.see) {
    // In a new tab, so that what is typed here stays.
    const see = document.createElement("a");
    see.href = state.see;
    see.target = "_blank";
    see.rel = "noopener";
    see.textContent = elsewhere.dataset.see.replace("{number}", number);
    elsewhere.appendChild(see);
  }
}

// The table played again: a form with nothing typed goes to the new game as the table's other
// pages do; one with a hand typed in says so and keeps it.
function playedOn(elsewhere, next) {
  if (untouched(document.querySelector("form.hand-form"))) return location.assign(next);
  if (elsewhere.dataset.shown === next) return;
  elsewhere.dataset.shown = next;
  const go = document.createElement("a");
  go.href = next;
  go.textContent = elsewhere.dataset.playedOn;
  elsewhere.textContent = "";
  elsewhere.appendChild(go);
}

function counters(form) {
  // − / + change the counter in place instead of posting the form.
  form.addEventListener("click", (event) => {
    const button = event.target.closest("button[name=bump]");
    if (!button) return;
    event.preventDefault();
    const [name, step] = button.value.split(":");
    const input = form.elements[name];
    if (!input) return;
    input.value = Math.max(0, toNumber(input) + parseInt(step, 10));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });
  // The card counter fills in the points as the cards are counted. What a card is worth comes
  // from the page (data-points, written from the engine's CARD_POINTS), never from here.
  form.addEventListener("input", (event) => {
    const match = /^(sides-\d+-(melded|hand))_cards-\w+$/.exec(event.target.name || "");
    if (!match) return;
    let total = 0;
    form.querySelectorAll(`input[data-points][name^="${match[1]}_cards-"]`).forEach((input) => {
      total += parseInt(input.dataset.points, 10) * toNumber(input);
    });
    const points = form.elements[`${match[1]}_points`];
    if (points) {
      points.value = total;
      points.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
  form.querySelectorAll("button[name=count]").forEach((button) => {
    button.hidden = true;
  });
}

// As one types, the server answers with the page it would show for Preview: its parts marked
// data-preview (the summary, the breakdown, the problem next to each control) replace those
// here; what is typed is left alone.
function previewAsTyped(form) {
  const asking = latest((r) => r.status < 500);
  let timer = null;
  form.classList.add("previewing");
  form.querySelectorAll(".preview-button").forEach((button) => {
    button.hidden = true;
  });
  function refresh() {
    if (!form.isConnected) return; // replaced meanwhile by Save's answer
    const data = new FormData(form);
    data.set("action", "preview");
    asking(address(form), { method: "POST", body: data })
      .then((page) => {
        // A newer answer is on its way, or Save's answer already took the page's place.
        if (!page || !form.isConnected) return;
        page.querySelectorAll("[data-preview]").forEach((fresh) => {
          const here = document.getElementById(fresh.id);
          const folded = here && here.closest("details.more");
          if (swap(here, fresh) && folded && fresh.textContent.trim()) folded.open = true;
        });
      })
      .catch(() => {
        // offline or server gone: Save says so when pressed
      });
  }
  const schedule = () => {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  };
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
  // The summary's "N problems" leads to the first, and a refused Save's list at the top to
  // each; one folded away is unfolded first.
  document.addEventListener("click", (event) => {
    const link = event.target.closest("a.problems, .refusals a[href^='#']");
    const target = link && document.getElementById(link.hash.slice(1));
    const folded = target && target.closest("details");
    if (folded) folded.open = true;
  });
}

// Enter (a phone's Go key) moves to the next field; on the last one it does nothing. It never
// submits the form, so it never presses a − / + button.
function enterMovesOn(form) {
  const fields = () =>
    [...form.elements].filter(
      (element) =>
        element.tagName === "INPUT" &&
        element.type !== "hidden" &&
        !element.disabled &&
        !element.closest("details:not([open])") &&
        element.getClientRects().length > 0,
    );
  const shown = fields();
  shown.forEach((field, index) => {
    field.enterKeyHint = index === shown.length - 1 ? "done" : "next";
  });
  form.addEventListener("keydown", (event) => {
    const field = event.target;
    if (event.key !== "Enter" || field.tagName !== "INPUT" || event.isComposing) return;
    event.preventDefault();
    const all = fields();
    const next = all
      .slice(all.indexOf(field) + 1)
      .find((other) => !(other.type === "radio" && other.name === field.name));
    if (next) next.focus();
  });
}

// Save posts in the background, so that a lost connection leaves the hand as it was typed,
// "not saved yet", until Save is tapped again once the phone is back online (the page says when).
// Pressing Save again is safe: the form's one-time token makes the server record the hand once.
function saveInBackground(form) {
  const problem = document.getElementById("save-problem");
  let sending = false;
  if (!problem) return;
  const back = () => {
    if (problem.isConnected && problem.textContent === problem.dataset.offline) {
      problem.textContent = problem.dataset.back;
    }
  };
  window.addEventListener("online", back);
  form.addEventListener("submit", (event) => {
    const button = event.submitter;
    if (!button || button.name !== "action" || button.value !== "save") return;
    event.preventDefault();
    if (sending) return;
    sending = true;
    problem.textContent = "";
    const data = new FormData(form);
    data.append(button.name, button.value);
    ask(address(form), { method: "POST", body: data })
      .then((response) => {
        if (response.redirected) return location.assign(response.url);
        if (response.status >= 500) {
          sending = false;
          problem.textContent = problem.dataset.failed;
          return;
        }
        // Refused (422), taken meanwhile (409), session expired (400): the server's page,
        // with its messages next to the fields and everything typed still there.
        window.removeEventListener("online", back);
        return response.text().then(show);
      })
      .catch(() => {
        sending = false;
        problem.textContent = problem.dataset.offline;
      });
  });
}

// Save's answer takes the page's place, and is set up as a page loaded afresh.
function show(html) {
  const page = new DOMParser().parseFromString(html, "text/html");
  document.title = page.title;
  document.body.replaceWith(page.body);
  window.scrollTo(0, 0);
  unfollow();
  setUpPage();
  setUp();
}

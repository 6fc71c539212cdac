// Samba Scorekeeper: the forms' niceties only. Every form works without this file. Loaded after
// static/follow.js (local times, following the game), whose `follow` it calls again when Save's
// answer takes the page's place, and to which it gives the hand form's notice of a hand saved
// elsewhere (`told`).
(function () {
  "use strict";

  function toNumber(input) {
    var n = parseInt(input.value, 10);
    return isNaN(n) ? 0 : n;
  }

  function setUp() {
    dealerNames();
    searchAsYouType();
    var form = document.querySelector("form.hand-form");
    if (!form) return;
    counters(form);
    previewAsTyped(form);
    enterMovesOn(form);
    saveInBackground(form);
    toldOfOthers();
  }

  // The hand form's notice of a hand saved on another phone meanwhile (#elsewhere): follow.js
  // follows the game's state (state.json) once it is given `told`, which words each state.
  function toldOfOthers() {
    var pages = window.scorekeeper;
    if (!pages || !document.getElementById("elsewhere") || pages.told === told) return;
    pages.told = told;
    pages.follow();
  }

  // A new hand's form as the server drew it (data-blank), nothing typed or tapped into it since.
  function untouched(form) {
    if (!form || !("blank" in form.dataset)) return false;
    var every = Array.prototype.every;
    return every.call(form.querySelectorAll("input, select, textarea"), function (field) {
      if (field.type === "checkbox" || field.type === "radio") {
        return field.checked === field.defaultChecked;
      }
      if (field.options) {
        return every.call(field.options, function (o) { return o.selected === o.defaultSelected; });
      }
      return field.value === field.defaultValue;
    });
  }

  function told(state) {
    var elsewhere = document.getElementById("elsewhere");
    if (state.next && elsewhere) return playedOn(elsewhere, state.next);
    var after = document.querySelector("form.hand-form input[name=after]");
    if (!elsewhere || !after || after.value === "") return;
    if (state.last <= parseInt(after.value, 10)) {
      elsewhere.textContent = "";
      delete elsewhere.dataset.shown;
      return;
    }
    var number = String(state.hands);
    var text = elsewhere.dataset.text.replace("{number}", number).replace("{next}", String(state.hands + 1));
    if (elsewhere.dataset.shown === text) return;
    elsewhere.dataset.shown = text;
    elsewhere.textContent = text + " ";
    if (state.see) {
      // In a new tab, so that what is typed here stays.
      var see = document.createElement("a");
      see.href = state.see;
      see.target = "_blank";
      see.rel = "noopener";
      see.textContent = elsewhere.dataset.see.replace("{number}", number);
      elsewhere.appendChild(see);
    }
  }

  // The table played again (another phone's "Play again"): a form with nothing typed goes to
  // the new game as the table's other pages do; one with a hand typed in says so and keeps it.
  function playedOn(elsewhere, next) {
    if (untouched(document.querySelector("form.hand-form"))) return location.assign(next);
    if (elsewhere.dataset.shown === next) return;
    elsewhere.dataset.shown = next;
    var go = document.createElement("a");
    go.href = next;
    go.textContent = elsewhere.dataset.playedOn;
    elsewhere.textContent = "";
    elsewhere.appendChild(go);
  }

  function searchAsYouType() {
    // The rules search answers as one types: the same GET the form sends, its results shown
    // under the field. Without this file the form sends it and the answer is a page.
    var form = document.querySelector("form[data-search]");
    var results = document.getElementById("search-results");
    if (!form || !results) return;
    var field = form.elements.q;
    var timer = null;
    var asked = 0;
    // On a phone the keyboard takes the lower half of the screen: the field goes to the top, so
    // that the answers under it are seen above the keyboard.
    field.addEventListener("focus", function () {
      form.scrollIntoView({ block: "start" });
    });
    field.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        var query = field.value.trim();
        var mine = ++asked;
        if (!query) { results.innerHTML = ""; return; }
        // The whole form: from a system's page it also names the system (and the game).
        var asking = new URLSearchParams(new FormData(form)).toString();
        fetch(form.action + "?" + asking, { credentials: "same-origin" })
          .then(function (response) { return response.ok ? response.text() : null; })
          .then(function (text) {
            if (text === null || mine !== asked) return;  // an older answer arriving late
            var page = new DOMParser().parseFromString(text, "text/html");
            var found = page.getElementById("search-results");
            if (found) results.innerHTML = found.innerHTML;
          })
          .catch(function () { /* offline: the form still works once the Wi-Fi is back */ });
      }, 200);
    });
  }

  // "Who deals first" names each seat by the names being typed above it, as the server does
  // once they are sent; the wording comes from the page (data-named, data-numbered).
  function dealerNames() {
    var dealer = document.querySelector("fieldset.dealer");
    if (!dealer) return;
    function typed(id) {
      var input = id && document.getElementById(id);
      return input ? input.value.trim() : "";
    }
    function fill(template, values) {
      // split and join, not replace: a name may hold "$&", which replace would expand.
      Object.keys(values).forEach(function (key) {
        template = template.split("{" + key + "}").join(values[key]);
      });
      return template;
    }
    function name() {
      dealer.querySelectorAll(".seat").forEach(function (seat) {
        var side = typed(seat.dataset.side) || seat.dataset.unnamed;
        var player = typed(seat.dataset.player);
        if (!seat.dataset.player) seat.textContent = side;
        else if (player) seat.textContent = fill(dealer.dataset.named, { player: player, side: side });
        else seat.textContent = fill(dealer.dataset.numbered, { side: side, number: seat.dataset.number });
      });
    }
    dealer.form.addEventListener("input", name);
  }

  function counters(form) {
    // − / + change the counter in place instead of posting the form.
    form.addEventListener("click", function (event) {
      var button = event.target.closest("button[name=bump]");
      if (!button) return;
      event.preventDefault();
      var parts = button.value.split(":");
      var input = form.elements[parts[0]];
      if (!input) return;
      input.value = Math.max(0, toNumber(input) + parseInt(parts[1], 10));
      input.dispatchEvent(new Event("input", { bubbles: true }));
    });

    // The card counter fills in the points as the cards are counted. What a card is worth comes
    // from the page (data-points, written from the engine's CARD_POINTS), never from this script.
    form.addEventListener("input", function (event) {
      var match = /^(sides-\d+-(melded|hand))_cards-\w+$/.exec(event.target.name || "");
      if (!match) return;
      var total = 0;
      form.querySelectorAll('input[data-points][name^="' + match[1] + '_cards-"]').forEach(function (input) {
        total += parseInt(input.dataset.points, 10) * toNumber(input);
      });
      var points = form.elements[match[1] + "_points"];
      if (points) {
        points.value = total;
        points.dispatchEvent(new Event("input", { bubbles: true }));
      }
    });
    form.querySelectorAll("button[name=count]").forEach(function (button) { button.hidden = true; });
  }

  // As you type, the server scores the hand (never this script) and answers with the page it
  // would show for Preview: its parts marked data-preview (the summary, the breakdown, the problem
  // next to each control) replace those here; what is typed is left alone.
  function previewAsTyped(form) {
    var timer = null;
    var asked = 0;
    form.classList.add("previewing");
    form.querySelectorAll(".preview-button").forEach(function (button) { button.hidden = true; });
    function refresh() {
      // A form replaced meanwhile (Save's answer shown in its place) asks nothing.
      if (!form.isConnected) return;
      var data = new FormData(form);
      data.set("action", "preview");
      var mine = ++asked;
      fetch(address(form), { method: "POST", body: data, credentials: "same-origin" })
        .then(function (response) { return response.status < 500 ? response.text() : null; })
        .then(function (html) {
          // A newer answer is on its way, or Save's answer already replaced the page: this
          // one would overwrite what Save said (e.g. "This hand was not saved").
          if (html === null || mine !== asked || !form.isConnected) return;
          var page = new DOMParser().parseFromString(html, "text/html");
          page.querySelectorAll("[data-preview]").forEach(function (fresh) {
            var here = document.getElementById(fresh.id);
            if (!here || here.innerHTML === fresh.innerHTML) return;
            here.innerHTML = fresh.innerHTML;
            var folded = here.closest("details.more");
            if (folded && fresh.textContent.trim()) folded.open = true; // a problem inside
          });
        })
        .catch(function () { /* offline or server gone: Save says so when pressed */ });
    }
    function schedule() {
      clearTimeout(timer);
      timer = setTimeout(refresh, 250);
    }
    form.addEventListener("input", schedule);
    form.addEventListener("change", schedule);
    // The summary's "N problems" leads to the first, and a refused Save's list at the top to
    // each; one folded away is unfolded first.
    document.addEventListener("click", function (event) {
      var link = event.target.closest("a.problems, .refusals a[href^='#']");
      var target = link && document.getElementById(link.hash.slice(1));
      var folded = target && target.closest("details");
      if (folded) folded.open = true;
    });
  }

  // Not form.action: the buttons named "action" hide that property.
  function address(form) {
    return form.getAttribute("action") || location.href.split("#")[0];
  }

  // Enter (a phone's Go key) moves to the next field; on the last one it does nothing. It never
  // submits the form, so it never presses a − / + button.
  function enterMovesOn(form) {
    function fields() {
      return Array.prototype.filter.call(form.elements, function (element) {
        return element.tagName === "INPUT" && element.type !== "hidden" && !element.disabled &&
          !element.closest("details:not([open])") && element.getClientRects().length > 0;
      });
    }
    var shown = fields();
    shown.forEach(function (field, index) {
      field.enterKeyHint = index === shown.length - 1 ? "done" : "next";
    });
    form.addEventListener("keydown", function (event) {
      var field = event.target;
      if (event.key !== "Enter" || field.tagName !== "INPUT" || event.isComposing) return;
      event.preventDefault();
      var all = fields();
      var next = all.slice(all.indexOf(field) + 1).filter(function (other) {
        return !(other.type === "radio" && other.name === field.name);
      })[0];
      if (next) next.focus();
    });
  }

  // Save posts in the background, so that a lost connection leaves the hand as it was typed.
  // Pressing Save again is safe: the form's token makes the server record the hand once.
  function saveInBackground(form) {
    var problem = document.getElementById("save-problem");
    var sending = false;
    if (!problem || !window.fetch) return;
    form.addEventListener("submit", function (event) {
      var button = event.submitter;
      if (!button || button.name !== "action" || button.value !== "save") return;
      event.preventDefault();
      if (sending) return;
      sending = true;
      problem.textContent = "";
      var data = new FormData(form);
      data.append(button.name, button.value);
      fetch(address(form), { method: "POST", body: data, credentials: "same-origin" })
        .then(function (response) {
          if (response.redirected) {
            location.assign(response.url);
          } else if (response.status >= 500) {
            sending = false;
            problem.textContent = problem.dataset.failed;
          } else {
            // Refused (422), taken meanwhile (409), session expired (400): the server's page,
            // with its messages next to the fields and everything typed still there.
            return response.text().then(show);
          }
        })
        .catch(function () {
          sending = false;
          problem.textContent = problem.dataset.offline;
        });
    });
  }

  function show(html) {
    var page = new DOMParser().parseFromString(html, "text/html");
    document.title = page.title;
    document.body.replaceWith(page.body);
    window.scrollTo(0, 0);
    var pages = window.scorekeeper;
    if (pages) {
      pages.localTimes(document);
      pages.follow();
    }
    setUp();
  }

  // Send the result (result/result.html): the phone's share sheet where there is one, with the
  // scoreboard's picture where it takes files, and Copy. Without this script the text is on the
  // page to copy by hand.
  function shareResult() {
    var share = document.querySelector("[data-share-result]");
    var copy = document.querySelector("[data-copy-result]");
    var text = document.getElementById("result-text");
    var said = document.getElementById("result-said");
    if (!share || !copy || !text || !said) return;
    var files = [];
    if (navigator.share) {
      share.hidden = false;
      // Made now, not on the tap: the share sheet opens only straight after a tap.
      picture(share.dataset.picture, share.dataset.file, function (file) {
        if (navigator.canShare && navigator.canShare({ files: [file] })) files = [file];
      });
      share.addEventListener("click", function () {
        var data = { title: document.title, text: text.value };
        if (files.length) data.files = files;
        navigator.share(data).then(function () { said.textContent = said.dataset.shared; },
          function () { /* closed without sending */ });
      });
    }
    copy.hidden = false;
    copy.addEventListener("click", function () {
      function copied() { said.textContent = said.dataset.copied; }
      function byHand() {
        text.select();
        if (document.execCommand("copy")) copied();
      }
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text.value).then(copied, byHand);
      } else {
        byHand();
      }
    });
  }

  // The scoreboard's picture as a PNG, drawn by the browser from the server's SVG: chat apps
  // take a PNG where many refuse an SVG.
  function picture(address, name, then) {
    var image = new Image();
    image.onload = function () {
      var canvas = document.createElement("canvas");
      canvas.width = image.naturalWidth * 2;
      canvas.height = image.naturalHeight * 2;
      var context = canvas.getContext("2d");
      context.scale(2, 2);
      context.drawImage(image, 0, 0);
      canvas.toBlob(function (blob) {
        if (blob) then(new File([blob], name, { type: "image/png" }));
      }, "image/png");
    };
    image.src = address;
  }

  // A night's round clock ([data-ends], the standings): the minutes left, and a warning in
  // the last five; again when follow.js swaps the standings in.
  var clockTimer = null;
  function roundClock() {
    clearTimeout(clockTimer);
    var clock = document.querySelector("[data-ends]");
    if (!clock) return;
    var left = (new Date(clock.dataset.ends).getTime() - Date.now()) / 60000;
    if (isNaN(left)) return;
    var warn = clock.querySelector(".clock-left") || clock.appendChild(document.createElement("strong"));
    warn.className = "clock-left";
    warn.textContent = " " + clock.dataset.warn.replace("{minutes}", String(Math.max(0, Math.ceil(left))));
    clock.classList.toggle("warning", left <= 5);
    clockTimer = setTimeout(roundClock, 15000);
  }

  shareResult();
  setUp();
  roundClock();
  document.addEventListener("scorekeeper:swapped", roundClock);
})();

// "Keep the screen on" (docs/scripts.md): the switch, remembered by this phone; screen.js, loaded
// once the screen is to stay on, keeps it on.
const KEY = "scorekeeper.keep-awake";
const bound = new WeakSet(); // the switches set up (a following page swaps in new ones)
let screen = null;

export function keepAwake() {
  const toggle = document.getElementById("keep-awake");
  if (!toggle) return;
  if (!bound.has(toggle)) {
    if (!screen) {
      document.addEventListener("visibilitychange", keep);
      document.addEventListener("scorekeeper:swapped", keepAwake);
    }
    bound.add(toggle);
    const holder = toggle.closest(".keep-awake");
    holder.hidden = onItsOwn() || "elsewhere" in holder.dataset;
    toggle.checked = chosen();
    toggle.addEventListener("change", () => {
      remember(toggle.checked);
      keep();
    });
  }
  keep();
}

// The table display keeps itself on.
const onItsOwn = () => Boolean(document.querySelector(".table-display"));

function keep() {
  const on = onItsOwn() || chosen();
  if (on || screen) {
    screen = screen || import("./screen.js");
    screen.then((module) => module.keep(on));
  }
}

function chosen() {
  try {
    return localStorage.getItem(KEY) === "on";
  } catch {
    return false; // no storage (a private window): the switch starts off
  }
}

function remember(on) {
  try {
    if (on) localStorage.setItem(KEY, "on");
    else localStorage.removeItem(KEY);
  } catch {
    // not remembered, still switched
  }
}

// "Keep the screen on" (shared/_status.html): off until this phone switches it on, remembered by
// this phone, and asked for again whenever the page is shown (the browser lets go of it when the
// page is hidden). The table display keeps itself on without a switch; the hand form keeps this
// phone's choice without showing it. Over https (or on the phone running the server) the Screen
// Wake Lock API does it; elsewhere, as over a family's plain http://, a muted looping video
// (video.js), loaded only when it is needed. Where neither works the page says so in one line.
const KEY = "scorekeeper.keep-awake";
let lock = null;
let asking = false;
let video = null; // video.js, once loaded
const bound = new WeakSet(); // the switches set up
let listening = false;

export function keepAwake() {
  const toggle = document.getElementById("keep-awake");
  if (!toggle) return;
  if (!listening) {
    listening = true;
    document.addEventListener("visibilitychange", hold);
    // The switch sits in a part that a following page swaps: the new one is set up again.
    document.addEventListener("scorekeeper:swapped", keepAwake);
  }
  if (!bound.has(toggle)) {
    bound.add(toggle);
    const holder = toggle.closest(".keep-awake");
    holder.hidden = onItsOwn() || "elsewhere" in holder.dataset;
    toggle.checked = chosen();
    toggle.addEventListener("change", () => {
      remember(toggle.checked);
      if (toggle.checked) hold();
      else release();
    });
  }
  hold();
}

const onItsOwn = () => Boolean(document.querySelector(".table-display"));
const wanted = () => onItsOwn() || chosen();

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

function hold() {
  if (!wanted() || document.visibilityState !== "visible") return;
  if (window.isSecureContext && "wakeLock" in navigator) lockScreen();
  else playVideo();
}

function lockScreen() {
  if (lock || asking) return;
  asking = true;
  navigator.wakeLock.request("screen").then(
    (sentinel) => {
      asking = false;
      lock = sentinel;
      sentinel.addEventListener("release", () => {
        if (lock === sentinel) lock = null;
      });
      if (!wanted()) release(); // switched off while the browser was asked
    },
    () => {
      asking = false; // refused (a battery saver, say): the video may still do it
      playVideo();
    },
  );
}

function playVideo() {
  import("./video.js")
    .then((module) => {
      video = module;
      return wanted() ? module.play() : true;
    })
    .then((playing) => say(!playing), () => say(true));
}

function release() {
  if (lock) lock.release();
  lock = null;
  if (video) video.pause();
  say(false);
}

// The one line that says this browser can keep the screen on neither way.
function say(cannot) {
  const said = document.getElementById("keep-awake-said");
  if (!said) return;
  said.textContent = cannot ? said.dataset.cannot : "";
  said.hidden = !cannot;
}

// The screen kept on (docs/scripts.md): by the Screen Wake Lock API where the browser offers it
// (https, or the phone running the server), asked for again whenever the page is shown; else, as
// over plain http://, by a muted video looping inline, as NoSleep.js does. Chromium counts a
// playing muted video as watched, and keeps the screen on, only when it covers a fifth of the
// screen or more: this one covers it all, transparent, behind the page. Where neither works the
// page says so in one line.
let lock = null;
let asking = false;
let wanted = false;
let video = null;

export function keep(on) {
  wanted = on;
  if (!on) return release();
  if (document.visibilityState !== "visible") return;
  if (window.isSecureContext && "wakeLock" in navigator) lockScreen();
  else play();
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
      if (!wanted) release(); // switched off while the browser was asked
    },
    () => {
      asking = false; // refused (a battery saver, say): the video may still do it
      play();
    },
  );
}

function play() {
  if (!video) {
    video = document.createElement("video");
    // The whole screen, so that Chromium counts it as watched; never seen nor touched.
    video.style.cssText =
      "position:fixed;inset:0;width:100%;height:100%;opacity:0;pointer-events:none;z-index:-1";
    video.muted = true; // muted and inline: it may play without a tap
    video.loop = true;
    video.playsInline = true;
    video.setAttribute("aria-hidden", "true");
    video.tabIndex = -1;
    for (const type of ["webm", "mp4"]) {
      const source = document.createElement("source");
      source.src = new URL(`../media/awake.${type}`, import.meta.url).href;
      source.type = `video/${type}`;
      video.append(source);
    }
  }
  if (!video.isConnected) document.body.append(video); // Save's answer replaces the body
  video.play().then(() => say(false), () => say(true));
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

// Every page: local times, the game followed, the screen kept on, copies kept for offline.
import { follow } from "./follow.js";
import { keepAwake } from "./awake.js";
import { localTimes } from "./parts.js";

// Again when Save's answer takes the page's place (forms.js).
export function setUp() {
  localTimes(document);
  keepAwake();
  if (document.querySelector("[data-follow]")) follow(location.href.split("#")[0]);
}

// Pages seen stay readable offline (sw.js); a worker needs https or this machine.
function keepCopies() {
  const script = document.querySelector("script[data-worker]");
  const worker = script && script.dataset.worker;
  if (!worker || !("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register(worker).catch(() => {
    // then simply none
  });
}

setUp();
keepCopies();

// Every page: its times in the phone's own clock, the game followed on a following page, the
// screen kept on where asked, and the pages seen kept for when the Wi-Fi drops. Every page works
// without this; forms.js adds the forms' niceties on the pages that have forms.
import { follow } from "./follow.js";
import { keepAwake } from "./awake.js";
import { localTimes } from "./times.js";

// Again when Save's answer takes the page's place (forms.js).
export function setUp() {
  localTimes(document);
  keepAwake();
  if (document.querySelector("[data-follow]")) follow(location.href.split("#")[0]);
}

// The installable app: pages already seen stay readable when the Wi-Fi drops (sw.js). Browsers
// allow a worker only over https or from this machine.
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

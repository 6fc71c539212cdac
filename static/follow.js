// Samba Scorekeeper's following pages: a game followed as it is played, local times, the screen
// kept on, pages kept for offline. Every page works without this file; static/app.js (the
// forms' niceties) is loaded only on pages with forms, and calls `follow` again when it replaces
// a page or gives the hand form's notice its words (`told`).
(function () {
  "use strict";

  // The server writes times in UTC and says so; the phone shows them in its own time zone, in
  // the page's language.
  function localTimes(root) {
    if (!window.Intl || !Intl.DateTimeFormat) return;
    var format = new Intl.DateTimeFormat(document.documentElement.lang || undefined,
      { dateStyle: "medium", timeStyle: "short" });
    root.querySelectorAll("time[datetime]").forEach(function (time) {
      var when = new Date(time.getAttribute("datetime"));
      if (!isNaN(when.getTime())) time.textContent = format.format(when);
    });
  }

  // "Keep the screen on" (shared/_following.html): a switch shown only where the browser offers the Screen
  // Wake Lock API (a secure context: the phone running the server, or HTTPS), off until switched
  // on, and remembered by this phone; the table display keeps itself on without a switch, and
  // the hand form keeps the choice made on the other pages without showing the switch. The
  // browser drops the lock whenever the page is hidden, so it is asked for again each time the
  // page is shown. Over plain http:// the page names the phone's own setting instead.
  function keepAwake() {
    var toggle = document.getElementById("keep-awake");
    if (!toggle) return;
    if (!("wakeLock" in navigator)) {
      var hint = document.querySelector(".keep-awake-hint");
      if (hint && !window.isSecureContext) hint.hidden = false;
      return;
    }
    var display = !!document.querySelector(".table-display");
    var key = "scorekeeper.keep-awake";
    var lock = null;
    var asking = false;
    function acquire() {
      if (!(display || toggle.checked) || lock || asking || document.visibilityState !== "visible") return;
      asking = true;
      navigator.wakeLock.request("screen").then(function (sentinel) {
        asking = false;
        lock = sentinel;
        sentinel.addEventListener("release", function () { if (lock === sentinel) lock = null; });
        if (!display && !toggle.checked) release(); // switched off while the browser was asked
      }, function () {
        asking = false; // refused (a battery saver, say): the screen sleeps as it always did
      });
    }
    function release() {
      if (lock) lock.release();
      lock = null;
    }
    try {
      toggle.checked = localStorage.getItem(key) === "on";
    } catch (blocked) { /* no storage (a private window): the switch starts off */ }
    var holder = toggle.closest(".keep-awake");
    holder.hidden = display || "elsewhere" in holder.dataset; // the hand form: as chosen elsewhere
    toggle.addEventListener("change", function () {
      try {
        if (toggle.checked) localStorage.setItem(key, "on"); else localStorage.removeItem(key);
      } catch (blocked) { /* not remembered, still switched */ }
      if (toggle.checked) acquire(); else release();
    });
    document.addEventListener("visibilitychange", acquire);
    acquire();
  }


  // Following the game from another phone. While the page is visible it holds one event stream
  // (#following's data-stream) that names the game's revision at once and at each change; on a change
  // the page asks for its own address, or the hand form for the game's state, with the ETag of
  // what it has, as a poll does. Where no stream can be held (an old browser, the server's cap
  // answered 204, a proxy holding events back) it polls every ~2 s instead; an unchanged game
  // costs the server a 304. A changed scoreboard or hand is swapped in ([data-follow]) and says
  // what changed ([data-announce]); a deleted game says so (#gone); a phone out of reach says
  // since when (#offline) and catches up when it is back.
  var EVERY = 2000;
  var ANNOUNCED = 90000; // how long "Hand 4: Abuelos +1,530" stays up
  var current = null; // the following of the page shown now (a page swapped by Save gets a new one)

  function follow() {
    var followed = document.querySelector("[data-follow]");
    // The hand form follows the game's state for its notice of a hand saved elsewhere, which
    // app.js (loaded with the form) words: `told`, given when app.js calls this again.
    var elsewhere = document.getElementById("elsewhere");
    var told = window.scorekeeper && window.scorekeeper.told;
    var hub = document.getElementById("following");
    if (current) current.stop();
    current = null;
    if (!window.fetch || !(followed || (elsewhere && told))) return;
    var url = followed ? location.href.split("#")[0] : elsewhere.dataset.state;
    var known = hub ? hub.dataset.revision : "";
    var etag = null;
    var timer = null;
    var asking = false;
    var again = false;
    var stopped = false;
    var source = null; // the event stream, while the page is visible
    var streaming = false; // an event came on it: no poll needed
    var noStream = !hub || !window.EventSource;
    var offlineSince = null;
    function ask() {
      clearTimeout(timer);
      if (stopped || document.visibilityState === "hidden") return;
      if (asking) { again = true; return; }
      asking = true;
      // The first time, the browser revalidates the page it holds with that page's own ETag.
      var options = etag
        ? { headers: { "If-None-Match": etag }, cache: "no-store", credentials: "same-origin" }
        : { cache: "no-cache", credentials: "same-origin" };
      fetch(url, options)
        .then(function (response) {
          online();
          if (response.status === 404) return gone();
          // A page that now leads elsewhere (a night's table card when its round starts) goes.
          if (response.redirected && followed) return carryOn(response.url);
          if (response.status !== 200 && response.status !== 410) return; // 410: a night ended
          etag = response.headers.get("ETag") || etag;
          return followed ? response.text().then(swap) : response.json().then(told);
        })
        .catch(offline)
        .then(function () {
          asking = false;
          if (again) { again = false; ask(); } else schedule();
        });
    }
    function schedule() {
      clearTimeout(timer);
      if (!stopped && !streaming) timer = setTimeout(ask, EVERY); // a poll
    }
    function open() {
      if (noStream || source || stopped || document.visibilityState === "hidden") return;
      var heard = false;
      source = new EventSource(hub.dataset.stream + "?since=" + encodeURIComponent(known));
      // A proxy that holds events back never lets the first one through: poll instead.
      var waited = setTimeout(function () { if (!heard) refuse(); }, 10000);
      source.onmessage = function (event) {
        heard = true;
        clearTimeout(waited);
        streaming = true;
        hub.dataset.by = "stream"; // how the page follows the game, for whoever looks
        clearTimeout(timer);
        online();
        if (event.data !== known) { known = event.data; ask(); }
      };
      source.addEventListener("gone", function () { close(); gone(); });
      // This phone may no longer follow the game (its link renewed, another PIN): a page that
      // follows it shows why and how to get in again; the hand form keeps what is typed, and
      // its Save asks for the PIN and keeps the hand.
      source.addEventListener("refused", function () {
        close();
        stopped = true;
        if (followed) location.reload();
      });
      source.onerror = function () {
        streaming = false;
        if (!source) return;
        if (source.readyState === 2) refuse(); // refused for good (over the cap: 204)
        else ask(); // coming back by itself; meanwhile asking says whether we are online
      };
    }
    function refuse() {
      close();
      noStream = true;
      if (hub) hub.dataset.by = "poll";
      schedule();
    }
    function close() {
      if (source) source.close();
      source = null;
      streaming = false;
    }
    function gone() {
      stopped = true;
      close();
      var notice = document.getElementById("gone");
      if (notice) notice.hidden = false;
    }
    function offline() {
      var notice = document.getElementById("offline");
      if (offlineSince || !notice) return;
      offlineSince = new Date();
      var at = offlineSince.toLocaleTimeString(document.documentElement.lang || undefined,
        { hour: "2-digit", minute: "2-digit" });
      notice.textContent = notice.dataset.text.replace("{time}", at);
      notice.hidden = false;
    }
    function online() {
      var notice = document.getElementById("offline");
      if (!offlineSince || !notice) return;
      offlineSince = null;
      notice.hidden = true;
    }
    function swap(html) {
      var page = new DOMParser().parseFromString(html, "text/html");
      var fresh = page.querySelector("[data-follow]");
      var freshHub = page.getElementById("following");
      // The table played again while this page was shown: the phone goes along, to the new
      // game's page of this kind, by its own kind of link (the server says where).
      if (freshHub && freshHub.dataset.next) return carryOn(freshHub.dataset.next);
      if (freshHub) known = freshHub.dataset.revision;
      if (fresh) localTimes(fresh); // as the page shown has them, or every answer would differ
      if (!fresh || !followed.isConnected || fresh.innerHTML === followed.innerHTML) return;
      var focused = followed.contains(document.activeElement) ? document.activeElement.id : "";
      followed.innerHTML = fresh.innerHTML;
      document.title = page.title;
      // A night's game whose table moved on to the next round: the phone follows its table.
      var go = followed.querySelector("a[data-go]");
      if (go) return carryOn(go.href);
      document.dispatchEvent(new Event("scorekeeper:swapped")); // app.js: a night's round clock
      // The hand this phone saved is no news once the game moved on: its address forgets it.
      if (/[?&]saved=/.test(location.search) && window.history && history.replaceState) {
        url = location.pathname;
        history.replaceState(null, "", url + location.hash);
      }
      announce();
      var back = focused && document.getElementById(focused);
      if (back) back.focus({ preventScroll: true });
    }
    function carryOn(next) {
      stopped = true;
      close();
      location.assign(next);
    }
    function shown() {
      if (document.visibilityState === "hidden") {
        close(); // a hidden page holds no stream
        clearTimeout(timer);
      } else {
        ask();
        open();
      }
    }
    document.addEventListener("visibilitychange", shown);
    current = {
      stop: function () {
        stopped = true;
        close();
        clearTimeout(timer);
        document.removeEventListener("visibilitychange", shown);
      },
    };
    if (noStream) schedule(); else open();
  }

  // What another phone's hand changed, in one line big enough to read across the table, for a
  // while; the next change replaces it, and the game's end takes its place.
  var announced = null;
  function announce() {
    var line = document.querySelector("[data-announce]");
    if (!line) return;
    line.hidden = false;
    clearTimeout(announced);
    announced = setTimeout(function () { if (line.isConnected) line.hidden = true; }, ANNOUNCED);
  }


  // The installable app (issue 21): pages already seen stay readable when the Wi-Fi drops
  // (static/sw.js). Browsers allow a worker only over HTTPS or from this machine.
  function keepCopies() {
    var script = document.querySelector("script[data-worker]");
    var worker = script && script.dataset.worker;
    if (!worker || !("serviceWorker" in navigator) || !window.isSecureContext) return;
    navigator.serviceWorker.register(worker).catch(function () { /* then simply none */ });
  }

  window.scorekeeper = { follow: follow, localTimes: localTimes };
  localTimes(document);
  keepAwake();
  follow();
  keepCopies();
})();

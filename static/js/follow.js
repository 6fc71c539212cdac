// Following a game or a night as it is played on other phones (docs/scripts.md).
import { ask, clockTime, read, swap } from "./parts.js";

const EVERY = 2000; // ms between polls
const ANNOUNCED = 90000; // how long another phone's hand stays lit up
let current = null;

// `url` asked; `take` what a changed answer does (by default: swap in its [data-follow] parts).
export function follow(url, take) {
  unfollow();
  current = new Following(url, take);
  current.start();
}

export function unfollow() {
  if (current) current.stop();
  current = null;
}

class Following {
  constructor(url, take) {
    this.url = url;
    this.page = !take;
    this.take = take || ((response) => read(response).then((page) => this.swap(page)));
    this.hub = document.getElementById("following");
    this.known = this.hub ? this.hub.dataset.revision : "";
    this.quiet = 1000 * (2 * Number((this.hub && this.hub.dataset.beat) || 15) + 5);
    this.etag = null;
    this.timer = null; // the next poll
    this.silence = null; // the stream's watchdog
    this.asking = false;
    this.again = false;
    this.stopped = false;
    this.source = null; // the event stream, while the page is shown
    this.streaming = false; // an event came on it: no poll needed
    this.suspect = null; // the stream held when the phone went out of reach
    this.noStream = !this.hub || !window.EventSource;
    this.since = null; // out of reach since
    this.shown = () => (document.visibilityState === "hidden" ? this.pause() : this.resume());
    this.back = () => this.resume();
    this.lost = () => this.offline();
  }

  start() {
    document.addEventListener("visibilitychange", this.shown);
    window.addEventListener("online", this.back);
    window.addEventListener("offline", this.lost);
    if (!navigator.onLine) this.offline();
    if (this.noStream) this.schedule();
    else this.open();
  }

  stop() {
    this.stopped = true;
    this.close();
    clearTimeout(this.timer);
    document.removeEventListener("visibilitychange", this.shown);
    window.removeEventListener("online", this.back);
    window.removeEventListener("offline", this.lost);
  }

  // The first time, the browser revalidates the page it holds.
  ask() {
    clearTimeout(this.timer);
    if (this.stopped || document.visibilityState === "hidden") return;
    if (this.asking) {
      this.again = true;
      return;
    }
    this.asking = true;
    const options = this.etag
      ? { headers: { "If-None-Match": this.etag }, cache: "no-store" }
      : { cache: "no-cache" };
    ask(this.url, options)
      .then((response) => {
        this.online();
        if (response.status === 404) return this.gone();
        // A night's table card leads to its game once the round starts.
        if (response.redirected && this.page) return this.carryOn(response.url);
        if (response.status !== 200 && response.status !== 410) return; // 410: a night ended
        this.etag = response.headers.get("ETag") || this.etag;
        return this.take(response);
      }, () => this.offline())
      .finally(() => {
        this.asking = false;
        if (this.again) {
          this.again = false;
          this.ask();
        } else this.schedule();
      });
  }

  // The next poll: without a stream, and while out of reach.
  schedule() {
    clearTimeout(this.timer);
    if (!this.stopped && (!this.streaming || this.since)) {
      this.timer = setTimeout(() => this.ask(), EVERY);
    }
  }

  open() {
    if (this.noStream || this.source || this.stopped || document.visibilityState === "hidden") {
      return;
    }
    const address = new URL(this.hub.dataset.stream, location.href);
    address.searchParams.set("since", this.known);
    const source = new EventSource(address);
    let heard = false;
    this.source = source;
    // A proxy that holds events back: poll instead.
    const waited = setTimeout(() => {
      if (!heard && this.source === source && !this.since) this.refuse();
    }, 10000);
    source.onmessage = (event) => {
      heard = true;
      clearTimeout(waited);
      this.heard(event.data);
    };
    source.addEventListener("beat", () => this.listen());
    source.addEventListener("gone", () => this.gone());
    // No longer allowed (a renewed link): a page shows how to get in; a hand form stays.
    source.addEventListener("refused", () => {
      this.stop();
      if (this.page) location.reload();
    });
    source.onerror = () => {
      if (this.source !== source) return;
      this.streaming = false;
      if (source.readyState === EventSource.CLOSED) this.refuse(); // for good: over the cap
      else this.ask(); // coming back by itself; asking says whether we are online
    };
    this.listen();
  }

  // A revision named by the stream (or what changed: news.js).
  heard(data) {
    this.streaming = true;
    this.suspect = null;
    this.hub.dataset.by = "stream";
    this.listen();
    this.online();
    clearTimeout(this.timer);
    if (data[0] === "{") import("./news.js").then((news) => news.takeIn(data, this));
    else if (data !== this.known) {
      this.known = data;
      this.ask();
    }
  }

  listen() {
    clearTimeout(this.silence);
    this.silence = setTimeout(() => this.resume(), this.quiet);
  }

  // Shown again, back online, or a stream gone silent: ask now, and hold a new stream.
  resume() {
    if (this.stopped || document.visibilityState === "hidden") return;
    this.close();
    this.ask();
    this.open();
  }

  pause() {
    this.close();
    clearTimeout(this.timer);
  }

  refuse() {
    this.close();
    this.noStream = true;
    if (this.hub) this.hub.dataset.by = "poll";
    this.schedule();
  }

  close() {
    if (this.source) this.source.close();
    this.source = null;
    this.streaming = false;
    clearTimeout(this.silence);
  }

  gone() {
    this.stop();
    const notice = document.getElementById("gone");
    if (notice) notice.hidden = false;
  }

  offline() {
    if (this.since || this.stopped) return;
    this.since = new Date();
    this.suspect = this.source;
    const notice = document.getElementById("offline");
    if (notice) {
      notice.querySelector("summary").textContent = notice.dataset.text.replace("{time}", clockTime(this.since));
      notice.hidden = false;
    }
    this.schedule();
  }

  online() {
    if (!this.since) return;
    this.since = null;
    const notice = document.getElementById("offline");
    if (notice) notice.hidden = true;
    if (this.source === this.suspect) {
      this.close();
      this.open();
    }
    this.suspect = null;
  }

  swap(page) {
    const hub = page.getElementById("following");
    // The table played again: on to the new game's page of this kind.
    if (hub && hub.dataset.next) return this.carryOn(hub.dataset.next);
    if (hub) this.known = hub.dataset.revision;
    const fresh = page.querySelectorAll("[data-follow]");
    const here = document.querySelectorAll("[data-follow]");
    const focused = [...here].some((part) => part.contains(document.activeElement))
      ? document.activeElement.id
      : "";
    let changed = false;
    here.forEach((part, index) => {
      changed = swap(part, fresh[index]) || changed;
    });
    if (changed) this.swapped(page.title, focused);
  }

  swapped(title, focused) {
    document.title = title;
    // A night's table moved on to the next round: so does its phone.
    const go = document.querySelector("[data-follow] a[data-go]");
    if (go) return this.carryOn(go.href);
    document.dispatchEvent(new Event("scorekeeper:swapped")); // the switch, a night's clock
    // The hand this phone saved is no news now: its address forgets it.
    if (/[?&]saved=/.test(location.search)) {
      this.url = location.pathname;
      history.replaceState(null, "", this.url + location.hash);
    }
    announce();
    const back = focused && document.getElementById(focused);
    if (back) back.focus({ preventScroll: true });
  }

  carryOn(next) {
    this.stop();
    location.assign(next);
  }
}

// What another phone's hand changed, lit up for a while; the next change replaces it.
let announced = null;
function announce() {
  const line = document.querySelector("[data-announce]");
  if (!line) return;
  line.classList.add("announced");
  clearTimeout(announced);
  announced = setTimeout(() => line.classList.remove("announced"), ANNOUNCED);
}

// Pages and their parts as this phone shows them: asked of the server, read with their times in
// the phone's clock, swapped into the page shown (docs/scripts.md).
const lang = () => document.documentElement.lang || undefined;

export function ask(url, options) {
  return fetch(url, { credentials: "same-origin", ...options });
}

export function read(response) {
  return response.text().then((html) => {
    const page = new DOMParser().parseFromString(html, "text/html");
    localTimes(page); // as shown here, or every answer would differ from what is shown
    return page;
  });
}

// The server writes UTC (<time datetime>); the phone shows its own time zone.
export function localTimes(root) {
  const format = new Intl.DateTimeFormat(lang(), { dateStyle: "medium", timeStyle: "short" });
  root.querySelectorAll("time[datetime]").forEach((time) => {
    const when = new Date(time.getAttribute("datetime"));
    if (!isNaN(when.getTime())) time.textContent = format.format(when);
  });
}

// "14:41" on a Spanish page, "2:41 PM" on an American one.
export function clockTime(when) {
  return new Intl.DateTimeFormat(lang(), { timeStyle: "short" }).format(when);
}

// `here` takes `fresh`'s content (the same part of a newer page); whether it changed.
export function swap(here, fresh) {
  if (!here || !fresh || here.innerHTML === fresh.innerHTML) return false;
  here.innerHTML = fresh.innerHTML;
  return true;
}

// Asked again as one types: the page of the latest question alone counts (else null).
export function latest(accept = (r) => r.ok) {
  let asked = 0;
  const asking = (url, options) => {
    const mine = ++asked;
    const still = (found) => (mine === asked ? found : null);
    return ask(url, options).then((r) => (still(r) && accept(r) ? read(r) : null)).then(still);
  };
  asking.forget = () => {
    asked += 1;
  };
  return asking;
}

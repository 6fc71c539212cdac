// Asking the server for a page and putting parts of it in this one's place: the one way the
// following pages, the hand form (its preview, its Save) and the rules search do it.

export function ask(url, options) {
  return fetch(url, { credentials: "same-origin", ...options });
}

export function read(response) {
  return response.text().then((html) => new DOMParser().parseFromString(html, "text/html"));
}

// `here` takes the content of `fresh`, the same part of a newer page; whether it changed.
export function swap(here, fresh) {
  if (!here || !fresh || here.innerHTML === fresh.innerHTML) return false;
  here.innerHTML = fresh.innerHTML;
  return true;
}

// A question asked again as one types: only the latest one's answer counts (an older one that
// arrives late, or one forgotten, resolves to null, never to what was already replaced).
export function latest() {
  let asked = 0;
  const asking = (url, options) => {
    const mine = ++asked;
    return ask(url, options).then((response) => (mine === asked ? response : null));
  };
  asking.forget = () => {
    asked += 1;
  };
  return asking;
}

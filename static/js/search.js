// The rules search answers as one types (rules/_search_form.html): the same GET the form sends,
// its results shown under the field. Without this the form sends it and the answer is a page.
import { latest, swap } from "./parts.js";

export function searchAsYouType() {
  const form = document.querySelector("form[data-search]");
  const results = document.getElementById("search-results");
  if (!form || !results) return;
  const field = form.elements.q;
  const asking = latest();
  let timer = null;
  // On a phone the keyboard takes the lower half of the screen: the field goes to the top, so
  // that the answers under it are seen above the keyboard.
  field.addEventListener("focus", () => form.scrollIntoView({ block: "start" }));
  field.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      // The whole form: from a system's page it also names the system (and the game).
      const query = new URLSearchParams(new FormData(form)).toString();
      if (!field.value.trim()) {
        asking.forget(); // an answer still on its way is no longer wanted
        results.innerHTML = "";
        return;
      }
      asking(`${form.action}?${query}`)
        .then((page) => page && swap(results, page.getElementById("search-results")))
        .catch(() => {
          // offline: the form still works once the Wi-Fi is back
        });
    }, 200);
  });
}

// A night's round clock ([data-ends], the standings): the minutes left, and a warning in the
// last five; again when the standings are swapped in (follow.js).
let timer = null;

export function roundClock() {
  clearTimeout(timer);
  const clock = document.querySelector("[data-ends]");
  if (!clock) return;
  const left = (new Date(clock.dataset.ends).getTime() - Date.now()) / 60000;
  if (isNaN(left)) return;
  const warn = clock.querySelector(".clock-left") || clock.appendChild(document.createElement("strong"));
  warn.className = "clock-left";
  warn.textContent = " " + clock.dataset.warn.replace("{minutes}", String(Math.max(0, Math.ceil(left))));
  clock.classList.toggle("warning", left <= 5);
  timer = setTimeout(roundClock, 15000);
}

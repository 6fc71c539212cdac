// Times as this phone says them: in the page's language and the phone's own time zone.

const lang = () => document.documentElement.lang || undefined;

// The server writes times in UTC and says so (<time datetime>).
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

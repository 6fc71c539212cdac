// What a following page's stream carried of a new revision, put in place (docs/scripts.md):
// loaded with the first such news, so that the page's first load stays small.
import { localTimes } from "./parts.js";

// The page's new body (its one [data-follow] part): whole, or the marked parts that changed
// since the revision it shows, each between its <!--p--> and <!--/p--> marks; else (another
// revision shown, other marks than counted, a question under way) it asks for itself.
// A browser that says it is offline may still hold a stream that speaks (Chromium's offline
// emulation does): the page then asks, and catches up once the browser says it is back.
export function takeIn(data, following) {
  const news = JSON.parse(data);
  if (news.revision === following.known) return;
  const focused = document.activeElement && document.activeElement.id;
  const taken = following.page && navigator.onLine && !following.asking && put(news, following.known);
  following.known = news.revision;
  if (!taken) return following.ask();
  following.etag = null; // the copy it would revalidate is older than what is shown
  following.swapped(news.title, focused);
}

function put(news, shown) {
  const body = document.querySelectorAll("[data-follow]");
  if (body.length !== 1) return false;
  if (news.whole !== undefined) {
    body[0].replaceChildren(fragment(news.whole));
    return true;
  }
  const starts = [];
  const walker = document.createTreeWalker(body[0], NodeFilter.SHOW_COMMENT);
  while (walker.nextNode()) if (walker.currentNode.data === "p") starts.push(walker.currentNode);
  if (news.base !== shown || !news.parts || starts.length !== news.count) return false;
  Object.entries(news.parts).forEach(([index, html]) => {
    const start = starts[index];
    while (start.nextSibling && start.nextSibling.data !== "/p") start.nextSibling.remove();
    start.after(fragment(html));
  });
  return true;
}

// Some HTML of the server's, ready to put in place (its times in the phone's clock).
function fragment(html) {
  const holder = document.createElement("template");
  holder.innerHTML = html;
  localTimes(holder.content);
  return holder.content;
}

// A club night's standings on the room's screen (a TV or a projector: wide, landscape, nobody to
// scroll it): set in as many columns as fit the screen's width and as many rows as fit its
// height, at a size readable across the room; a night with more pairs than that is shown a page
// at a time, each page turning by itself (#pager says "Page 2 of 3"). On a phone, and without
// this script, the standings are one list that scrolls. Loaded by the standings pages alone: a
// night's (its pairs) and a season's (its players).
const TURN = 8000; // ms a page of the standings stays up
const screen = window.matchMedia("(min-width: 60em) and (orientation: landscape)");
let shown = 0; // the page up now, kept when the standings are swapped in anew
let timer = null;

// The rows as the server sent them: one table, or the columns this script made of it.
function rowsOf(board) {
  return Array.from(board.querySelectorAll("tbody tr"));
}

// The standings back as one table (for measuring, or for a phone).
function asOneTable(board) {
  const first = board.querySelector("table.standings");
  if (!board.querySelector(".board-page")) return first;
  const body = first.tBodies[0];
  for (const row of rowsOf(board)) body.appendChild(row);
  board.textContent = "";
  board.appendChild(first);
  return first;
}

function height(element) {
  return element.getBoundingClientRect().height; // not rounded, as offsetHeight is
}

// How many rows fit a column, and columns a page, with the table as wide as its widest row.
function fit(board, table) {
  const head = height(table.tHead);
  const rows = rowsOf(board);
  const tallest = Math.max(...rows.map(height));
  const gap = parseFloat(getComputedStyle(board).columnGap) || 0;
  const down = Math.max(1, Math.floor((height(board) - head) / tallest));
  const wide = table.getBoundingClientRect().width;
  const across = Math.max(1, Math.floor((board.clientWidth + gap) / (wide + gap)));
  return { down, across, pages: Math.ceil(rows.length / (down * across)) };
}

// The layout with the fewest pages: the rounds' and the difference's columns go when keeping
// them would take more (place, pair, score, wins and points stay).
function layOut(board, table) {
  board.classList.add("measuring");
  let layout = fit(board, table);
  if (layout.pages > 1) {
    board.classList.add("narrow");
    const narrower = fit(board, table);
    if (narrower.pages < layout.pages) layout = narrower;
    else board.classList.remove("narrow");
  }
  board.classList.remove("measuring");
  return layout;
}

function arrange() {
  const board = document.querySelector(".standings-board");
  const pager = document.getElementById("pager");
  clearTimeout(timer);
  if (!board || !pager) return;
  const table = asOneTable(board);
  const room = screen.matches;
  document.documentElement.classList.toggle("room", room);
  board.classList.remove("narrow");
  pager.hidden = !room; // measured with the line it takes, hidden again if one page is all
  pager.textContent = pager.dataset.words.replace("{page}", "1").replace("{pages}", "1");
  if (!room || !table || !table.tBodies[0].rows.length) return;
  const layout = layOut(board, table);
  const rows = rowsOf(board);
  const perPage = Math.ceil(rows.length / layout.pages); // pages as even as they can be
  const across = Math.min(layout.across, Math.ceil(perPage / layout.down));
  const down = Math.ceil(perPage / across);
  board.textContent = "";
  for (let p = 0; p < layout.pages; p++) {
    const page = document.createElement("div");
    page.className = "board-page";
    page.style.gridTemplateColumns = `repeat(${across}, minmax(0, 1fr))`;
    const onPage = rows.slice(p * perPage, (p + 1) * perPage);
    for (let c = 0; c * down < onPage.length; c++) {
      const column = p === 0 && c === 0 ? table : table.cloneNode(false);
      const body = document.createElement("tbody");
      for (const row of onPage.slice(c * down, (c + 1) * down)) body.appendChild(row);
      if (column === table) {
        column.replaceChild(body, table.tBodies[0]);
      } else {
        column.appendChild(table.tHead.cloneNode(true));
        column.appendChild(body);
      }
      page.appendChild(column);
    }
    board.appendChild(page);
  }
  turnTo(board, pager, shown);
  board.dataset.fitted = `${board.clientWidth}x${board.clientHeight}`; // what it was fitted to
}

function turnTo(board, pager, number) {
  const pages = board.querySelectorAll(".board-page");
  shown = number % pages.length;
  pages.forEach((page, index) => {
    page.hidden = index !== shown;
  });
  pager.hidden = pages.length < 2;
  pager.textContent = pager.dataset.words
    .replace("{page}", String(shown + 1))
    .replace("{pages}", String(pages.length));
  if (pages.length > 1) timer = setTimeout(() => turnTo(board, pager, shown + 1), TURN);
}

let resized = null;
window.addEventListener("resize", () => {
  clearTimeout(resized);
  resized = setTimeout(arrange, 200);
});
document.addEventListener("scorekeeper:swapped", arrange); // follow.js: the night changed
arrange();

// Samba Scorekeeper: a club night's standings on the room's screen (a TV or a projector: wide,
// landscape, nobody to scroll it). The standings are set in as many columns as fit the screen's
// width and as many rows as fit its height, at a size readable across the room; a night with
// more pairs than that is shown a page at a time, each page turning by itself (#pager says
// "Page 2 of 3"). On a phone, and without this script, the standings are one list that scrolls.
(function () {
  "use strict";

  var TURN = 8000; // ms a page of the standings stays up
  var screen = window.matchMedia("(min-width: 60em) and (orientation: landscape)");
  var shown = 0; // the page up now, kept when the standings are swapped in anew
  var timer = null;

  // The rows as the server sent them: one table, or the columns this script made of it.
  function rowsOf(board) {
    return Array.prototype.slice.call(board.querySelectorAll("tbody tr"));
  }

  // The standings back as one table (for measuring, or for a phone).
  function asOneTable(board) {
    var first = board.querySelector("table.standings");
    if (!board.querySelector(".board-page")) return first;
    var body = first.tBodies[0];
    rowsOf(board).forEach(function (row) { body.appendChild(row); });
    board.textContent = "";
    board.appendChild(first);
    return first;
  }

  function height(element) { return element.getBoundingClientRect().height; } // not rounded

  // How many rows fit a column, and columns a page, with the table as wide as its widest row.
  function fit(board, table) {
    var head = height(table.tHead);
    var rows = rowsOf(board);
    var tallest = Math.max.apply(null, rows.map(height));
    var gap = parseFloat(getComputedStyle(board).columnGap) || 0;
    var down = Math.max(1, Math.floor((height(board) - head) / tallest));
    var wide = table.getBoundingClientRect().width;
    var across = Math.max(1, Math.floor((board.clientWidth + gap) / (wide + gap)));
    var pages = Math.ceil(rows.length / (down * across));
    return { down: down, across: across, pages: pages };
  }

  function arrange() {
    var board = document.querySelector(".standings-board");
    var pager = document.getElementById("pager");
    clearTimeout(timer);
    if (!board || !pager) return;
    var table = asOneTable(board);
    var room = screen.matches;
    document.documentElement.classList.toggle("room", room);
    board.classList.remove("without-rounds");
    pager.hidden = !room; // measured with the line it takes, hidden again if one page is all
    pager.textContent = pager.dataset.words.replace("{page}", "1").replace("{pages}", "1");
    if (!room || !table || !table.tBodies[0].rows.length) return;
    // The rounds' columns go when keeping them would take more pages.
    board.classList.add("measuring");
    var layout = fit(board, table);
    if (layout.pages > 1) {
      board.classList.add("without-rounds");
      var narrower = fit(board, table);
      if (narrower.pages < layout.pages) layout = narrower;
      else board.classList.remove("without-rounds");
    }
    board.classList.remove("measuring");
    var rows = rowsOf(board);
    var perPage = Math.ceil(rows.length / layout.pages); // pages as even as they can be
    var across = Math.min(layout.across, Math.ceil(perPage / layout.down));
    var down = Math.ceil(perPage / across);
    board.textContent = "";
    for (var p = 0; p < layout.pages; p++) {
      var page = document.createElement("div");
      page.className = "board-page";
      page.style.gridTemplateColumns = "repeat(" + across + ", minmax(0, 1fr))";
      var onPage = rows.slice(p * perPage, (p + 1) * perPage);
      for (var c = 0; c * down < onPage.length; c++) {
        var column = p === 0 && c === 0 ? table : table.cloneNode(false);
        if (column !== table) column.appendChild(table.tHead.cloneNode(true));
        var body = document.createElement("tbody");
        onPage.slice(c * down, (c + 1) * down).forEach(function (row) { body.appendChild(row); });
        if (column === table) column.replaceChild(body, table.tBodies[0]);
        else column.appendChild(body);
        page.appendChild(column);
      }
      board.appendChild(page);
    }
    turnTo(board, pager, shown);
    board.dataset.fitted = board.clientWidth + "x" + board.clientHeight; // what it was fitted to
  }

  function turnTo(board, pager, number) {
    var pages = board.querySelectorAll(".board-page");
    shown = number % pages.length;
    Array.prototype.forEach.call(pages, function (page, index) { page.hidden = index !== shown; });
    pager.hidden = pages.length < 2;
    pager.textContent = pager.dataset.words
      .replace("{page}", String(shown + 1)).replace("{pages}", String(pages.length));
    if (pages.length > 1) timer = setTimeout(function () { turnTo(board, pager, shown + 1); }, TURN);
  }

  var resized = null;
  window.addEventListener("resize", function () {
    clearTimeout(resized);
    resized = setTimeout(arrange, 200);
  });
  document.addEventListener("scorekeeper:swapped", arrange); // follow.js: the night changed
  arrange();
})();

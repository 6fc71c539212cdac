// Samba Scorekeeper: niceties only. Every form works without this file.
(function () {
  "use strict";
  var form = document.querySelector("form.hand-form");
  if (!form) return;

  function toNumber(input) {
    var n = parseInt(input.value, 10);
    return isNaN(n) ? 0 : n;
  }

  // − / + change the counter in place instead of posting the form.
  form.addEventListener("click", function (event) {
    var button = event.target.closest("button[name=bump]");
    if (!button) return;
    event.preventDefault();
    var parts = button.value.split(":");
    var input = form.elements[parts[0]];
    if (!input) return;
    input.value = Math.max(0, toNumber(input) + parseInt(parts[1], 10));
    input.dispatchEvent(new Event("input", { bubbles: true }));
  });

  // The card counter fills in the points as the cards are counted.
  var values = { jokers: 50, twos: 20, aces: 20, eights_to_kings: 10, fours_to_sevens: 5, black_threes: 5 };
  form.addEventListener("input", function (event) {
    var match = /^(sides-\d+-(melded|hand))_cards-(\w+)$/.exec(event.target.name || "");
    if (!match) return;
    var total = 0;
    Object.keys(values).forEach(function (card) {
      var input = form.elements[match[1] + "_cards-" + card];
      if (input) total += values[card] * toNumber(input);
    });
    var points = form.elements[match[1] + "_points"];
    if (points) {
      points.value = total;
      points.dispatchEvent(new Event("input", { bubbles: true }));
    }
  });
  form.querySelectorAll("button[name=count]").forEach(function (button) { button.hidden = true; });

  // Live preview of the scores while typing: the server scores, never this script.
  var preview = document.getElementById("preview");
  var timer = null;
  function refresh() {
    var data = new FormData(form);
    fetch(form.dataset.preview, { method: "POST", body: data, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return;
        var body = preview.querySelector(".preview-body");
        if (!body) {
          body = document.createElement("div");
          body.className = "preview-body";
          Array.prototype.slice.call(preview.children, 1).forEach(function (child) { child.remove(); });
          preview.appendChild(body);
        }
        body.innerHTML = html;
      })
      .catch(function () { /* offline or server gone: the Preview button still works */ });
  }
  function schedule() {
    clearTimeout(timer);
    timer = setTimeout(refresh, 250);
  }
  form.addEventListener("input", schedule);
  form.addEventListener("change", schedule);
})();

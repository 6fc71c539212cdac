// "Who deals first" (games/new) names each seat by the names being typed above it, as the server
// does once they are sent; the wording comes from the page (data-named, data-numbered).
export function dealerNames() {
  const dealer = document.querySelector("fieldset.dealer");
  if (!dealer) return;
  const typed = (id) => {
    const input = id && document.getElementById(id);
    return input ? input.value.trim() : "";
  };
  // split and join, not replace: a name may hold "$&", which replace would expand.
  const fill = (template, values) =>
    Object.entries(values).reduce((text, [key, value]) => text.split(`{${key}}`).join(value), template);
  dealer.form.addEventListener("input", () => {
    dealer.querySelectorAll(".seat").forEach((seat) => {
      const side = typed(seat.dataset.side) || seat.dataset.unnamed;
      const player = typed(seat.dataset.player);
      if (!seat.dataset.player) seat.textContent = side;
      else if (player) seat.textContent = fill(dealer.dataset.named, { player, side });
      else seat.textContent = fill(dealer.dataset.numbered, { side, number: seat.dataset.number });
    });
  });
}

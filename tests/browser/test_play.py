"""Whole games of every system, played on a phone the way a person at the table does.

Each game: a hand refused for a broken rule (the message by its field, everything typed still
there), fixed and saved; an earlier hand corrected; a hand's breakdown read; played to the winner.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import Player, new_page

# (phone size, JavaScript on): counters change in place with it, post the form without.
PHONES = [("360x740", True), ("390x844", True), ("360x740", False)]
LARGER_PHONE = PHONES[1]


def phone_id(phone: tuple[str, bool]) -> str:
    size, javascript = phone
    return f"{size}-{'js' if javascript else 'no-js'}"


@pytest.fixture(params=PHONES, ids=phone_id)
def player(request: pytest.FixtureRequest, browser: Any, server: str) -> Iterator[Player]:
    size, javascript = request.param
    page = new_page(browser, size, javascript=javascript)
    yield Player(page, server, javascript=javascript)
    page.context.close()


@dataclass(frozen=True)
class TargetGame:
    """A system played to 10,000, where Us wins the second hand by going out again."""

    system: str
    name: str
    table: str | None
    us_start: int
    sets_to_go_out: tuple[str, ...]  # the counter rows Us needs to go out
    melded: int  # Us's card points melded
    us_hand: int  # Us's score for going out with those sets and melded points
    citation: str


TARGET_GAMES = [
    TargetGame(
        "classic",
        "Samba (classic, 2–6 players)",
        "2 teams of 2",
        7000,
        ("Natural canasta", "Samba"),
        260,
        260 + 500 + 1500 + 200,
        "Samba Rules (classic), Going Out",
    ),
    TargetGame(
        "denexa",
        "Samba (Denexa)",
        None,
        8000,
        ("Natural canasta", "Samba"),
        260,
        260 + 500 + 500 + 200,
        "Denexa Games, Samba, Going out",
    ),
    TargetGame(
        "black-samba",
        "Black Samba",
        "2 players, each on their own",
        7500,
        ("Natural canasta", "Black samba"),
        200,
        200 + 500 + 1000 + 200,
        "The Rules of Black Samba (D. Mallen, V17), Going Out",
    ),
    TargetGame(
        "fournier",
        "Samba (Fournier)",
        "2 teams of 2",
        9000,
        ("Natural canasta",),
        100,
        100 + 500 + 200,
        "Fournier, Reglamento de la Samba, “Para que un jugador pueda terminar un juego”",
    ),
]
THEM_START = 9000
THEM_HAND = 60 - 40  # melded 60, 40 left in hand


def fill_sides(player: Player, us_melded: int | None) -> None:
    """Us's melded points (if any), Them's melded points and points left in hand."""
    if us_melded is not None:
        player.fill(player.page.locator("#sides-0-melded_points"), str(us_melded))
    player.fill(player.page.locator("#sides-1-melded_points"), "60")
    player.fill(player.page.locator("#sides-1-hand_points"), "40")


def one_more(player: Player, row: str, side: str = "Us") -> None:
    button = player.button(f"One more: {row} for {side}")
    folded = player.page.locator(
        f'details.more:not([open]):has(button[aria-label="One more: {row} for {side}"])'
    )
    if folded.count():  # a set rare at the table is folded under "More sets": unfold it first
        player.tap(folded.locator("summary"), navigates=False)
    player.count(button)


def expect_hand(player: Player, number: int, side: int, score: str, total_after: str) -> None:
    """The scoreboard's row of a hand shows the side's score, the total after it beneath."""
    cell = player.page.locator("table.hands tbody tr").nth(number - 1).locator("td").nth(side)
    expect(cell.locator("small")).to_have_text(total_after)
    expect(cell).to_have_text(score + total_after)


def total(player: Player, side: int) -> Any:
    return player.page.locator(".totals .total").nth(side).locator(".big-number")


def open_hand(player: Player, number: int) -> None:
    player.tap(player.page.locator("table.hands").get_by_role("link", name=str(number), exact=True))


def correct_us_melded_points(player: Player, number: int, before: int, after: int) -> None:
    """From the scoreboard: open the hand, correct Us's melded points, save."""
    open_hand(player, number)
    player.tap(player.link("Correct this hand"))
    expect(player.page.locator("#sides-0-melded_points")).to_have_value(str(before))
    player.fill(player.page.locator("#sides-0-melded_points"), str(after))
    player.tap(player.button("Save the correction"))


def assert_won(player: Player, banner: str) -> None:
    expect(player.page.locator(".banner")).to_have_text(banner)
    expect(player.page.get_by_role("link", name="Record hand")).to_have_count(0)


def number(points: int) -> str:
    return f"{points:,}"


PLAYED = [
    pytest.param(phone, game, id=f"{phone_id(phone)}-{game.system}")
    for game in TARGET_GAMES
    for phone in PHONES
    if phone != LARGER_PHONE or game.system == "classic"
]
"""Each system to 10,000 on the smaller phone with JavaScript and without it, and the classic
game on the larger phone too: what differs between the systems is the rules (the server's, the
same with and without the scripts), and what differs between the phones is the layout, which
test_every_page.py checks on every page at both sizes. (Every system at both sizes played the
same screens three games more, some 20 s of Chromium's and the server's CPU.)"""


@pytest.mark.parametrize(("player", "game"), PLAYED, indirect=["player"])
def test_a_game_to_10000_is_refused_fixed_corrected_and_won_on_a_phone(
    player: Player, game: TargetGame
) -> None:
    page = player.page
    player.start_game(game.name, game.table, start_scores=(game.us_start, THEM_START))
    expect(page.locator("h1")).to_have_text(game.name)

    # Hand 1: Us goes out before having the sets for it.
    player.tap(player.link("Record hand 1"))
    player.tap(page.get_by_label("Us went out"), navigates=False)
    fill_sides(player, game.melded)
    # Refused: with JavaScript the form is saved in the background and the answer shown in place.
    player.tap(player.button("Save hand"), navigates=not player.javascript)
    expect(page.get_by_text("This hand was not saved.")).to_be_visible()
    expect(page.locator("#ending-errors")).to_contain_text(
        f"Us went out with 0 sets, but {game.name} needs"
    )
    expect(page.locator("#sides-0-melded_points-errors")).to_have_count(0)
    expect(page.get_by_label("Us went out")).to_be_checked()
    expect(page.locator("#sides-0-melded_points")).to_have_value(str(game.melded))
    expect(page.locator("#sides-1-melded_points")).to_have_value("60")
    expect(page.locator("#sides-1-hand_points")).to_have_value("40")

    # Fixed: the sets were there, they just were not counted.
    for row in game.sets_to_go_out:
        one_more(player, row)
    expect(page.get_by_label("Us went out")).to_be_checked()
    expect(page.locator("#sides-0-melded_points")).to_have_value(str(game.melded))
    player.tap(player.button("Save hand"))
    after_first = game.us_start + game.us_hand
    expect_hand(player, 1, 0, f"+{number(game.us_hand)}", number(after_first))
    expect_hand(player, 1, 1, f"+{THEM_HAND}", number(THEM_START + THEM_HAND))
    expect(total(player, 0)).to_have_text(number(after_first))
    expect(player.link("Record hand 2")).to_be_visible()

    # Hand 1 is corrected: Us melded 40 more than was typed.
    correct_us_melded_points(player, 1, game.melded, game.melded + 40)
    expect(total(player, 0)).to_have_text(number(after_first + 40))
    expect_hand(player, 1, 0, f"+{number(game.us_hand + 40)}", number(after_first + 40))
    expect(page.locator("ul.corrections")).to_contain_text(
        f"Us · Card points melded: {game.melded} → {game.melded + 40}"
    )

    # Why hand 1 scored what it did.
    open_hand(player, 1)
    lines = page.locator(".side-score").first.locator(".lines li")
    expect(lines.filter(has_text="Cards melded")).to_contain_text(f"+{game.melded + 40}")
    expect(lines.filter(has_text="1 × natural canasta, 500")).to_contain_text("+500")
    going_out = lines.filter(has_text="Going out")
    expect(going_out).to_contain_text("+200")
    expect(going_out.locator("cite")).to_contain_text(game.citation)
    expect(page.locator(".side-score").first.locator(".score")).to_have_text(
        f"+{number(game.us_hand + 40)}"
    )
    player.tap(player.link("← Scoreboard"))

    # Hand 2: Us goes out the same way again and reaches 10,000.
    player.tap(player.link("Record hand 2"))
    player.tap(page.get_by_label("Us went out"), navigates=False)
    for row in game.sets_to_go_out:
        one_more(player, row)
    fill_sides(player, game.melded)
    player.tap(player.button("Save hand"))
    winner_total = after_first + 40 + game.us_hand
    assert winner_total >= 10_000 > after_first + 40
    assert_won(player, f"Us won with {number(winner_total)}.")
    expect(total(player, 1)).to_have_text(number(THEM_START + 2 * THEM_HAND))


# Super-samba stops a hand on an empty stock, while no side has its book (rules/play.py, going out).
NOBODY_OUT_WITHOUT_BOOK = "Nobody went out (the stock ran out before any side had its book)"


def test_a_super_samba_game_is_refused_fixed_corrected_and_won_after_four_hands_on_a_phone(
    player: Player,
) -> None:
    page = player.page
    name = "Samba with Super Sambas (six decks, four hands)"
    player.start_game(name, "2 teams of 2")
    expect(page.get_by_text("Hand 1 of 4.")).to_be_visible()

    # Hand 1: a natural canasta recorded with fewer card points than it holds.
    player.tap(player.link("Record hand 1"))
    player.tap(page.get_by_label(NOBODY_OUT_WITHOUT_BOOK), navigates=False)
    one_more(player, "Natural canasta")
    player.fill(page.locator("#sides-0-melded_points"), "20")
    player.fill(page.locator("#sides-1-melded_points"), "50")
    # Refused: with JavaScript the form is saved in the background and the answer shown in place.
    player.tap(player.button("Save hand"), navigates=not player.javascript)
    expect(page.get_by_text("This hand was not saved.")).to_be_visible()
    expect(page.locator("#sides-0-melded_points-errors")).to_contain_text(
        "Us: the sets recorded hold at least 35 card points, but melded points are 20"
    )
    expect(page.locator("#ending-errors")).to_have_count(0)
    expect(page.get_by_label(NOBODY_OUT_WITHOUT_BOOK)).to_be_checked()
    expect(page.locator("#sides-0-set_natural_canasta")).to_have_value("1")
    expect(page.locator("#sides-0-melded_points")).to_have_value("20")
    expect(page.locator("#sides-1-melded_points")).to_have_value("50")

    player.fill(page.locator("#sides-0-melded_points"), "100")
    player.tap(player.button("Save hand"))
    expect_hand(player, 1, 0, "+600", "600")
    expect_hand(player, 1, 1, "+50", "50")
    expect(page.get_by_text("Hand 2 of 4.")).to_be_visible()

    # Hand 1 is corrected: Us melded 140, not 100.
    correct_us_melded_points(player, 1, 100, 140)
    expect(total(player, 0)).to_have_text("640")
    expect(page.locator("ul.corrections")).to_contain_text("Us · Card points melded: 100 → 140")

    open_hand(player, 1)
    lines = page.locator(".side-score").first.locator(".lines li")
    expect(lines.filter(has_text="Cards melded")).to_contain_text("+140")
    canasta = lines.filter(has_text="1 × natural canasta, 500")
    expect(canasta).to_contain_text("+500")
    expect(canasta.locator("cite")).to_contain_text("Samba with Super Sambas rule sheet")
    expect(lines.filter(has_text="Going out")).to_have_count(0)
    player.tap(player.link("← Scoreboard"))

    # Hands 2 to 4: the stock runs out each time, a few points each.
    for hand in (2, 3, 4):
        player.tap(player.link(f"Record hand {hand}"))
        player.tap(page.get_by_label(NOBODY_OUT_WITHOUT_BOOK), navigates=False)
        player.fill(page.locator("#sides-0-melded_points"), "100")
        player.fill(page.locator("#sides-1-melded_points"), "50")
        player.tap(player.button("Save hand"))
    assert_won(player, "Us won with 940.")
    expect(total(player, 1)).to_have_text("200")

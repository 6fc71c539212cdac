"""A club night's record as played, in a real browser (issue 34: the record as played, no
phantom results): nine pairs over three rounds, a pair leaving after round 1 and another
arriving for round 3, one table recording no hand in round 2 and another stopped unfinished.
The director does it all on the director's pages; the tables' hands are sent as their phones
send them. The seating, the results, the CSV and the standings show every round as it was
played, the unplayed game counts for nobody and the unfinished one as the director chose, the
standings say so, and each pair's points are the sums of its games as played."""

from __future__ import annotations

import csv
import io
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from scorekeeper import nights
from tests.web.helpers import GOES_OUT, STAYS_IN, hand_fields

from .helpers import new_page, served, set_up_night

PAIRS = [(f"Ana{n}", f"Ben{n}") for n in range(1, 10)]
LEAVES = 7  # an east-west pair, after round 1
NO_HAND, UNFINISHED = 2, 4  # round 2's tables: one records no hand, one only one of two
# (round 2's table 1 meets the ghost and table 3 the pair that left: no game there)
MOVEMENT = nights.mitchell(10, 3)  # nine pairs and the ghost (10), whose place pair 10 takes


def tap(director: Any, name: str) -> None:
    with director.expect_event("load"):
        director.get_by_role("button", name=name, exact=True).first.tap()


def ask(director: Any, name: str) -> None:
    """A control of the director's page that ends something: a link to the page that asks."""
    with director.expect_event("load"):
        director.get_by_role("link", name=name, exact=True).first.tap()


def games_now(director: Any, base: str, cards: dict[int, str]) -> dict[int, str]:
    """The game each table card leads to now (tables without one left out)."""
    games = {}
    for table, url in cards.items():
        answer = director.request.get(url, max_redirects=0)
        if answer.status == 302:
            games[table] = answer.headers["location"].rsplit("/", 1)[1]
    return games


def record(director: Any, base: str, game_id: str, hands: int, table: int) -> None:
    """Hands as a table's phone sends them: at odd tables north-south go out, at even ones
    east-west."""
    sides, ending = (
        ([GOES_OUT, STAYS_IN], "out-0") if table % 2 else ([STAYS_IN, GOES_OUT], "out-1")
    )
    for _ in range(hands):
        saved = director.request.post(
            f"{base}/games/{game_id}/hands/new",
            form=hand_fields(sides, ending=ending),
            max_redirects=0,
        )
        assert saved.status == 302, saved.text()


def play(director: Any, base: str, night_id: str, number: int, cards: dict[int, str],
         hands: dict[int, int]) -> dict[int, str]:  # fmt: skip
    """Round `number` started from the director's page, `hands` saved at each table (2 unless
    said), its games by table."""
    director.goto(f"{base}/nights/{night_id}")
    tap(director, f"Start round {number}")
    games = games_now(director, base, cards)
    for table, game_id in games.items():
        record(director, base, game_id, hands.get(table, 2), table)
    return games


def end_round(director: Any, base: str, night_id: str, number: int) -> None:
    director.goto(f"{base}/nights/{night_id}")
    ask(director, f"End round {number}")
    tap(director, f"End round {number}")


def rounds_shown(page: str) -> dict[int, dict[str, list[Any]]]:
    shown: dict[int, dict[str, list[Any]]] = {}
    for section in re.findall(r'<section class="night-round".*?</section>', page, re.S):
        number = int(re.search(r'id="round-(\d+)"', section).group(1))  # type: ignore[union-attr]
        tables = re.findall(r'data-table="(\d+)" data-ns="(\d+)" data-ew="(\d+)"', section)
        shown[number] = {"tables": [tuple(map(int, t)) for t in tables]}
        for name in ("sitting-out", "absent", "not-arrived"):
            line = re.search(rf"<p data-{name}[^>]*>(.*?)</p>", section, re.S)
            shown[number][name] = (
                [int(n) for n in re.findall(r"(\d+)\. ", line.group(1))] if line else []
            )
    return shown


def test_a_night_of_nine_pairs_keeps_every_round_as_it_was_played(
    browser: Any, tmp_path: Path
) -> None:
    server = served(tmp_path, WTF_CSRF_ENABLED=False)  # the tables' hands are sent as forms
    base = next(server)
    director = new_page(browser, "390x844")
    try:
        night_id = set_up_night(director, base, PAIRS, "Thursday club")
        director.goto(f"{base}/nights/{night_id}/cards")
        cards = {
            int(link.get_attribute("data-card") or 0): link.get_attribute("href") or ""
            for link in director.locator("a[data-card]").all()
        }
        standings = director.locator("#standings-link").get_attribute("href") or ""
        played: dict[int, dict[int, str]] = {}

        played[1] = play(director, base, night_id, 1, cards, {})
        end_round(director, base, night_id, 1)
        director.goto(f"{base}/nights/{night_id}")
        director.locator("ul.pairs li").nth(LEAVES - 1).get_by_role("link", name="Leaves").tap()
        tap(director, f"Pair {LEAVES} leaves")  # asked once
        director.wait_for_url(re.compile(rf"/nights/{night_id}$"))
        expect(director.locator("body")).to_contain_text(f"Pair {LEAVES} has left")

        played[2] = play(director, base, night_id, 2, cards, {NO_HAND: 0, UNFINISHED: 1})
        director.goto(f"{base}/nights/{night_id}")
        ask(director, "End round 2")
        asked = director.locator("[data-unfinished]")
        expect(asked).to_have_count(2)
        expect(director.locator(f"[data-unfinished='{NO_HAND}']")).to_contain_text("No hand")
        unfinished = director.locator(f"[data-unfinished='{UNFINISHED}']")
        expect(unfinished.get_by_label("As it stands: its totals decide it")).to_be_checked()
        unfinished.get_by_label("As it stands: its totals decide it").check()  # the choice
        tap(director, "End round 2")
        expect(director.locator("body")).to_contain_text(
            f"Table {NO_HAND} stopped unfinished: its game counts as not played."
        )

        director.locator("#arriving-first").fill("Quique")
        director.locator("#arriving-second").fill("Rosa")
        tap(director, "A pair arrives")
        expect(director.locator("body")).to_contain_text("Pair 10 has arrived")
        played[3] = play(director, base, night_id, 3, cards, {})
        end_round(director, base, night_id, 3)

        check_every_round(director, base, night_id, standings)
        check_the_standings(director, base, standings, played)
        check_the_text(director, standings)
        check_a_restored_backup(director, base, tmp_path, night_id, standings)
    finally:
        director.context.close()
        next(server, None)


def check_every_round(director: Any, base: str, night_id: str, standings: str) -> None:
    """The seating and the results' every round: as played, whoever left or came since."""
    for page in (f"{base}/nights/{night_id}/seating", f"{standings}/results"):
        director.goto(page)
        shown = rounds_shown(director.content())
        first = nights.as_played(MOVEMENT[0], range(1, 10), range(1, 10))  # no ghost's table
        assert shown[1] == {
            "tables": [(s.table, s.ns, s.ew) for s in first.seats],
            "sitting-out": list(first.sitting_out),
            "absent": [],
            "not-arrived": [10],
        }, page
        assert shown[2]["absent"] == [LEAVES] and shown[2]["not-arrived"] == [10], page
        assert shown[3]["absent"] == [LEAVES] and shown[3]["not-arrived"] == [], page
        for number in (2, 3):
            seated = [p for _t, ns, ew in shown[number]["tables"] for p in (ns, ew)]
            everyone = sorted([*seated, *shown[number]["sitting-out"], *shown[number]["absent"]])
            expected = list(range(1, 10)) if number == 2 else list(range(1, 11))
            assert everyone == expected, (page, number)
        assert 10 in [p for _t, ns, ew in shown[3]["tables"] for p in (ns, ew)]


def check_the_standings(
    director: Any, base: str, standings: str, played: dict[int, dict[int, str]]
) -> None:
    """Each pair's points are the sums of its games that count; the game without a hand counts
    for nobody; the score is the wins with the average for each round without a game."""
    points: dict[int, int] = {}
    for number, games in played.items():
        for table, game_id in games.items():
            result = director.request.get(f"{base}/games/{game_id}/result.json").json()
            if not result["hands"]:
                assert (number, table) == (2, NO_HAND)
                continue
            sides = director.request.get(f"{base}/games/{game_id}/export.json").json()["sides"]
            pairs = [int(side["name"].split(".")[0]) for side in sides]
            for pair, total in zip(pairs, result["totals"], strict=True):
                points[pair] = points.get(pair, 0) + total
    director.goto(standings)
    expect(director.locator("#counting")).to_contain_text("A game with no hand counts for nobody")
    rows = director.locator("tr[data-pair]")
    for i in range(rows.count()):
        row = rows.nth(i)
        pair = int(row.get_attribute("data-pair") or 0)
        assert int(row.get_attribute("data-points") or 0) == points.get(pair, 0), pair
        outcomes = [c.get_attribute("data-outcome") for c in row.locator("td[data-outcome]").all()]
        games = int(row.get_attribute("data-games") or 0)
        assert games == sum(o in ("win", "draw", "loss") for o in outcomes), pair
        credited = sum(o in ("sat-out", "not-played") for o in outcomes)
        wins = Fraction(row.get_attribute("data-wins") or "0")
        expected = wins * (games + credited) / games if games else 0
        assert Fraction(row.get_attribute("data-score") or "0") == expected, pair
    table = list(csv.reader(io.StringIO(director.request.get(f"{standings}/results.csv").text())))
    by_pair = {row[1]: row[-3:] for row in table[1:]}
    assert by_pair[str(LEAVES)][1:] == ["had left", "had left"]
    assert by_pair["10"][:2] == ["had not arrived", "had not arrived"]
    no_hand = next(s for s in MOVEMENT[1].seats if s.table == NO_HAND)
    for pair in (no_hand.ns, no_hand.ew):
        assert by_pair[str(pair)][1] == "not played", pair
    unfinished = next(s for s in MOVEMENT[1].seats if s.table == UNFINISHED)
    chosen = {  # as the director chose: as it stands, its one hand decides it
        director.locator(f"tr[data-pair='{pair}'] td[data-outcome]")
        .nth(1)
        .get_attribute("data-outcome")
        for pair in (unfinished.ns, unfinished.ew)
    }
    assert chosen == {"win", "loss"}
    for pair in (unfinished.ns, unfinished.ew):
        assert by_pair[str(pair)][1].lstrip("-").isdigit(), pair


def check_the_text(director: Any, standings: str) -> None:
    """The results as text: each round as played, whoever left or came since."""
    text = director.request.get(f"{standings}/results.txt").text()
    rounds = re.split(r"\n\nRound (\d+)", text)[1:]
    said = {int(number): body for number, body in zip(rounds[::2], rounds[1::2], strict=True)}
    assert set(said) == {1, 2, 3}
    first = nights.as_played(MOVEMENT[0], range(1, 10), range(1, 10))
    for seat in first.seats:
        assert re.search(rf"^Table {seat.table}: {seat.ns}\. .* — {seat.ew}\. ", said[1], re.M)
    assert "Table 5:" not in said[1]  # pair 5 met pair 10, who had not arrived yet
    assert re.search(r"^Had not arrived yet: 10\. Quique & Rosa$", said[1], re.M)
    assert re.search(rf"^Had left: {LEAVES}\. ", said[2], re.M)
    assert "Had not arrived" not in said[3]


def check_a_restored_backup(
    director: Any, base: str, tmp_path: Path, night_id: str, standings: str
) -> None:
    """The backup, restored through the restore page into another scorekeeper, shows every
    round as played there too."""
    backup = tmp_path / "backup.json"
    backup.write_bytes(director.request.get(f"{base}/backup.json").body())
    (tmp_path / "restored").mkdir()
    server = served(tmp_path / "restored", WTF_CSRF_ENABLED=False)
    other = next(server)
    try:
        director.goto(f"{other}/restore")
        director.locator("#backup_file").set_input_files(backup)
        tap(director, "Restore")
        expect(director.locator("body")).to_contain_text("Restored")
        check_every_round(director, other, night_id, standings.replace(base, other))
    finally:
        next(server, None)

"""A game as a spreadsheet: one row per side per hand, scored as result.json scores it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.web.pages.game_files import csv_columns

from .helpers import GOES_OUT, STAYS_IN, Actions

CASES = Path(__file__).resolve().parents[1] / "cases"
FIRST = ["hand", "ended_by", "side", "players", "went_out", "concealed", "opening_meld"]
MIDDLE = [
    "melded_points",
    "hand_points",
    "red_threes",
    "red_threes_in_hand",
    "players_holding_red_threes",
]
LAST = ["hand_score", "total"]


def names(client: FlaskClient) -> dict[str, str]:
    """Each English heading of the CSV (of every system) and the column's name in a game file."""
    with client.application.test_request_context():
        return {
            heading: name
            for system in rules.SYSTEMS.values()
            for name, heading in csv_columns(system)
        }


def download(client: FlaskClient, game_id: str) -> list[dict[str, str]]:
    """The game's CSV, checked as a download and read back with the csv module, each cell under
    its column's name."""
    response = client.get(f"/games/{game_id}/export.csv")
    assert response.status_code == 200
    assert response.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert response.headers["Content-Disposition"] == (
        f'attachment; filename="samba-{game_id}.csv"'
    )
    assert response.data.startswith(b"\xef\xbb\xbf")  # the BOM: Excel then reads UTF-8
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    columns = [names(client)[heading] for heading in rows[0]]
    return [dict(zip(columns, row, strict=True)) for row in rows[1:]]


def header(client: FlaskClient, game_id: str) -> list[str]:
    """The CSV's columns, by their names in a game file."""
    text = client.get(f"/games/{game_id}/export.csv").data.decode("utf-8-sig")
    return [names(client)[heading] for heading in next(csv.reader(io.StringIO(text)))]


def test_the_headings_are_words_in_the_pages_language(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("black-samba")
    english = client.get(f"/games/{game_id}/export.csv").data.decode("utf-8-sig")
    assert english.startswith("Hand,How the hand ended,Side,Players,Went out,")
    assert ",Black samba," in english and ",Card points left in hand," in english
    assert "set_samba" not in english and "hand_points" not in english
    client.set_cookie("lang", "es")
    spanish = client.get(f"/games/{game_id}/export.csv").data.decode("utf-8-sig")
    assert spanish.startswith("Mano,Cómo terminó la mano,Equipo,Jugadores,")
    assert "Samba negra" in spanish.splitlines()[0]


def test_the_json_export_keeps_its_keys(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    client.set_cookie("lang", "es")
    entry = client.get(f"/games/{game_id}/export.json").get_json()["hands"][0]["entries"][0]
    assert "went_out" in entry and "melded_points" in entry


def import_case(client: FlaskClient, name: str) -> str:
    response = client.post("/games/import", json=json.loads((CASES / name).read_text()))
    assert response.status_code == 201, response.text
    game_id: str = response.get_json()["id"]
    return game_id


@pytest.mark.parametrize(
    ("system", "sets", "penalties"),
    [
        ("classic", ["natural_canasta", "mixed_canasta", "samba"], []),
        ("black-samba", ["natural_canasta", "mixed_canasta", "samba", "black_samba"], []),
        (
            "denexa",
            ["natural_canasta", "mixed_canasta", "samba"],
            ["went_out_after_refusal", "could_not_go_out_after_asking", "took_unusable_upcard"],
        ),
    ],
)
def test_the_columns_are_the_sets_and_penalties_of_the_games_system(
    client: FlaskClient, actions: Actions, system: str, sets: list[str], penalties: list[str]
) -> None:
    game_id = actions.new_game(system)
    assert header(client, game_id) == [
        *FIRST,
        *(f"set_{kind}" for kind in sets),
        *MIDDLE,
        *(f"penalty_{code}" for code in penalties),
        *LAST,
    ]


def test_a_game_without_hands_is_just_the_header(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    assert download(client, game_id) == []
    assert header(client, game_id)[0] == "hand"


@pytest.mark.parametrize(
    "case",
    [
        "classic-game-won.json",
        "classic-individual-three-players.json",
        "black-samba-black-samba-bonus.json",
        "denexa-penalties.json",
        "super-samba-four-hands.json",
    ],
)
def test_each_side_of_each_hand_is_a_row_scored_as_result_json_scores_it(
    client: FlaskClient, actions: Actions, case: str
) -> None:
    data = json.loads((CASES / case).read_text())
    game_id = import_case(client, case)
    rows = download(client, game_id)
    result = actions.result(game_id)
    sides = len(data["sides"])
    assert len(rows) == sides * len(data["hands"]) == sides * len(result["hands"])
    for index, row in enumerate(rows):
        number, side = divmod(index, sides)
        hand = data["hands"][number]
        entry = hand["entries"][side]
        scored = result["hands"][number]["sides"][side]
        assert row["hand"] == str(number + 1)
        assert row["ended_by"] == hand.get("ended_by", "going_out")
        assert row["side"] == data["sides"][side]["name"]
        assert row["went_out"] == ("true" if entry.get("went_out") else "false")
        assert row["melded_points"] == str(entry.get("melded_points", 0))
        for kind, count in entry.get("sets", {}).items():
            assert row[f"set_{kind}"] == str(count)
        for code, count in entry.get("penalties", {}).items():
            assert row[f"penalty_{code}"] == str(count)
        assert row["hand_score"] == str(scored["hand_score"])
        assert row["total"] == str(scored["total"])
    assert [int(row["total"]) for row in rows[-sides:]] == result["totals"]


def test_deleted_hands_are_left_out_and_later_hands_renumbered(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")
    first_id, _second_id = actions.hand_ids(game_id)
    deleted = client.post(f"/games/{game_id}/hands/{first_id}/delete", data={"version": "1"})
    assert deleted.status_code == 302
    rows = download(client, game_id)
    assert [(row["hand"], row["ended_by"]) for row in rows] == [("1", "stock_exhausted")] * 2
    assert [int(row["total"]) for row in rows] == actions.result(game_id)["totals"] == [420, 420]


def test_names_keep_their_accents_and_never_become_formulas(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(
        names=("Peñarol", "=1+1"),
        players={"side_list-0-players-0": "José", "side_list-0-players-1": "Zoë, Jr."},
    )
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    rows = download(client, game_id)
    assert [row["side"] for row in rows] == ["Peñarol", "'=1+1"]
    assert rows[0]["players"] == "José, Zoë, Jr."
    assert rows[0]["opening_meld"] == ""
    assert rows[1]["players"] == ""


def test_an_unknown_game_has_no_csv(client: FlaskClient) -> None:
    assert client.get("/games/nothing-here/export.csv").status_code == 404


# Every sign a spreadsheet reads as the start of a formula (or of one after a tab or return).
FORMULA_SIGNS = ["=", "+", "-", "@", "\t", "\r"]


@pytest.mark.parametrize("sign", FORMULA_SIGNS, ids=repr)
def test_a_name_that_starts_like_a_formula_is_written_as_text(
    client: FlaskClient, sign: str
) -> None:
    data = json.loads((CASES / "classic-stock-exhausted.json").read_text())
    data["sides"][0]["name"] = f"{sign}HYPERLINK(1)"
    data["sides"][1]["player_names"] = [f"{sign}cmd|' /C calc'!A0", "Bob"]
    response = client.post("/games/import", json=data)
    assert response.status_code == 201, response.text
    rows = download(client, response.get_json()["id"])
    assert rows[0]["side"] == f"'{sign}HYPERLINK(1)"
    assert rows[1]["players"] == f"'{sign}cmd|' /C calc'!A0, Bob"


def test_a_negative_total_stays_a_number(client: FlaskClient) -> None:
    data = json.loads((CASES / "classic-stock-exhausted.json").read_text())
    data["sides"][0]["start_score"] = -5000
    response = client.post("/games/import", json=data)
    assert response.status_code == 201, response.text
    rows = download(client, response.get_json()["id"])
    assert int(rows[0]["total"]) < 0
    assert rows[0]["total"] == str(int(rows[0]["total"]))  # -4310, not '-4310

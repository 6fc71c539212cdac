"""What a person at the table does through the test client, and what the pages show: the hand
form's fields, the `Actions` of the flaskr-style fixture, game files to import, house rules,
and readers of a page's inputs, errors, sections and statistics cards."""

from __future__ import annotations

import html
import io
import json
import re
from collections.abc import Mapping, Sequence
from datetime import datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import FileStorage
from werkzeug.test import TestResponse, encode_multipart

from scorekeeper.rules import SYSTEMS
from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import HouseRule

CASES = Path(__file__).resolve().parents[1] / "cases"


def hidden(page: str, name: str) -> str:
    """The value of a hidden input on a page."""
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert found, f"no input {name!r} on the page"
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else ""


def input_value(page: str, field_id: str) -> str | None:
    """The value an input shows, found by its id; a group of radio buttons', the one checked."""
    found = re.search(rf'<input[^>]*id="{re.escape(field_id)}"[^>]*>', page) or re.search(
        rf'<input checked[^>]*name="{re.escape(field_id)}"[^>]*>', page
    )
    assert found, f"no input #{field_id} on the page"
    value = re.search(r'value="([^"]*)"', found.group(0))
    return value.group(1) if value else None


def errors_of(page: str, field_id: str) -> str:
    """The messages shown next to a field ('' when none)."""
    found = re.search(
        rf'<ul class="errors" id="{re.escape(field_id)}-errors">(.*?)</ul>', page, re.S
    )
    return found.group(1) if found else ""


def hand_fields(
    sides: Sequence[Mapping[str, Any]], ending: str = "out-0", **extra: Any
) -> dict[str, Any]:
    """Hand-form data: one mapping per side of field name (without the prefix) → value."""
    data: dict[str, Any] = {"ending": ending, **extra}
    for index, side in enumerate(sides):
        for name, value in side.items():
            data[f"sides-{index}-{name}"] = value
    return data


class Actions:
    """What a person at the table does: set up a game, record and correct hands."""

    def __init__(self, client: FlaskClient) -> None:
        self._client = client

    def new_game(
        self,
        system: str = "classic",
        table: str = "2x2",
        names: Sequence[str] = ("Us", "Them"),
        start_scores: Sequence[int] = (),
        options: Sequence[str] = (),
        players: Mapping[str, str] | None = None,
    ) -> str:
        """Set up a game through the form and return its id."""
        response = self.post_new_game(system, table, names, start_scores, options, players)
        assert response.status_code == 302, response.text
        location = response.headers["Location"]
        assert location.startswith("/games/")
        return location.removeprefix("/games/")

    def post_new_game(
        self,
        system: str = "classic",
        table: str = "2x2",
        names: Sequence[str] = ("Us", "Them"),
        start_scores: Sequence[int] = (),
        options: Sequence[str] = (),
        players: Mapping[str, str] | None = None,
    ) -> TestResponse:
        data: dict[str, Any] = {f"side_list-{i}-name": name for i, name in enumerate(names)}
        for i, score in enumerate(start_scores):
            data[f"side_list-{i}-start_score"] = str(score)
        for option in options:
            data[f"option_{option}"] = "y"
        data.update(players or {})
        return self._client.post(f"/games/new?system={system}&table={table}", data=data)

    def post_hand(
        self,
        game_id: str,
        sides: Sequence[Mapping[str, Any]],
        ending: str = "out-0",
        **extra: Any,
    ) -> TestResponse:
        return self._client.post(
            f"/games/{game_id}/hands/new", data=hand_fields(sides, ending, **extra)
        )

    def record_hand(
        self, game_id: str, sides: Sequence[Mapping[str, Any]], ending: str = "out-0"
    ) -> None:
        response = self.post_hand(game_id, sides, ending)
        assert response.status_code == 302, response.text
        assert response.headers["Location"].startswith(f"/games/{game_id}")

    def scoreboard(self, game_id: str) -> str:
        response = self._client.get(f"/games/{game_id}")
        assert response.status_code == 200
        return response.text

    def result(self, game_id: str) -> dict[str, Any]:
        response = self._client.get(f"/games/{game_id}/result.json")
        assert response.status_code == 200
        data: dict[str, Any] = response.get_json()
        return data

    def hand_ids(self, game_id: str) -> list[int]:
        """The recorded hands' ids, in order, as the scoreboard links them."""
        return linked_hands(self.scoreboard(game_id))


def linked_hands(scoreboard: str) -> list[int]:
    """The recorded hands' ids, in order, as a scoreboard page links them."""
    return [int(n) for n in re.findall(r'<tr id="hand-(\d+)">', scoreboard)]


# Two sides that go out legally in classic/denexa: Us goes out with a samba and a canasta.
GOES_OUT = {"set_samba": "1", "set_natural_canasta": "1", "melded_points": "260"}


STAYS_IN = {"set_mixed_canasta": "1", "melded_points": "150", "hand_points": "30"}


def a_game_with_a_hand(client: FlaskClient, actions: Actions) -> tuple[str, int]:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = client.get(f"/games/{game_id}").text
    return game_id, int(page.split('<tr id="hand-', 1)[1].split('"', 1)[0])


def section(page: str, topic: str) -> str:
    """The text of one section of a rules page, tags removed."""
    found = re.search(rf'<section id="{topic}".*?</section>', page, re.S)
    assert found is not None, topic
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


def cards(page: str) -> dict[str, dict[str, str]]:
    """Each statistics card on a page: its title → {number's label → number as shown}."""
    found = {}
    for card in re.findall(r'<article class="stat-card[^"]*"[^>]*>(.*?)</article>', page, re.S):
        title = re.search(r"<h3>(.*?)</h3>", card, re.S)
        name = html.unescape(re.sub(r"<[^>]+>", "", title.group(1))).strip() if title else ""
        numbers = {}
        for label, shown in re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", card):
            number, _small, system = shown.partition('<small class="best-system">')
            numbers[label] = number
            if system:
                numbers[f"{label}: system"] = html.unescape(re.sub(r"<[^>]+>", "", system))
        sets = re.findall(r'<span class="set-made">(.*?) <b>(.*?)</b></span>', card)
        found[name] = {**numbers, **{f"set: {kind}": made for kind, made in sets}}
    return found


def stats(client: FlaskClient) -> dict[str, dict[str, str]]:
    response = client.get("/stats")
    assert response.status_code == 200
    return cards(response.text)


class Forms(HTMLParser):
    """What a browser would send for each POST form of a page: action → field → values.

    As a browser does, a control with `form="ID"` belongs to the form of that id wherever it
    stands, and a button with `formaction` sends its form to that address instead.
    """

    def __init__(self, page: str) -> None:
        super().__init__()
        self.found: dict[str, list[tuple[str, str]]] = {}
        self._fields: dict[str, list[tuple[str, str]]] = {}  # form id (or a made one) → fields
        self._actions: list[tuple[str, str]] = []  # (address, form id), in the order found
        self._form: str | None = None
        self._select: tuple[str, str] | None = None
        self.feed(page)
        for action, form in self._actions:
            self.found.setdefault(action, self._fields.setdefault(form, []))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {name: value or "" for name, value in attrs}
        if tag == "form":
            self._form = a.get("id") or f"form-{len(self._fields)}"
            self._fields.setdefault(self._form, [])
            if a.get("method") == "post":
                self._actions.append((a.get("action", ""), self._form))
            return
        owner = a.get("form") or self._form
        if owner is None or "disabled" in a:
            return
        fields = self._fields.setdefault(owner, [])
        if tag == "button" and "formaction" in a:
            self._actions.append((a["formaction"], owner))
        elif tag == "input" and a.get("name"):
            if a.get("type") not in ("checkbox", "radio", "file") or "checked" in a:
                fields.append((a["name"], a.get("value", "")))
        elif tag == "select":
            self._select = (owner, a.get("name", ""))
        elif tag == "option" and self._select and "selected" in a:
            self._fields[self._select[0]].append((self._select[1], a.get("value", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "form":
            self._form = None
        elif tag == "select":
            self._select = None


def upload(client: FlaskClient, body: bytes) -> TestResponse:
    """A game file sent from the import form (encoded here: the test client would leave a large
    one in a temporary file it never closes)."""
    head = b'--b\r\nContent-Disposition: form-data; name="game_file"; filename="game.json"\r\n\r\n'
    return client.post(
        "/games/import",
        data=head + body + b"\r\n--b--\r\n",
        content_type="multipart/form-data; boundary=b",
    )


# Classic, hand by hand (docs/scoring.md): Us goes out with a samba, a natural canasta and two red
# threes: 310 + 1500 + 500 + 200 + 200 = 2710; Them, one mixed canasta and one red three,
# 150 − 85 + 300 − 100 = 265.
FIRST_HAND = {
    "ended_by": "going_out",
    "entries": [
        {
            "went_out": True,
            "sets": {"natural_canasta": 1, "samba": 1},
            "melded_points": 310,
            "red_threes": 2,
        },
        {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 85, "red_threes": 1},
    ],
}


# Them goes out with two natural canastas: 250 + 1000 + 200 = 1450; Us, 70 − 40 = 30.
SECOND_HAND = {
    "ended_by": "going_out",
    "entries": [
        {"melded_points": 70, "hand_points": 40},
        {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 250},
    ],
}


# Us goes out with three sambas and a natural canasta: 400 + 4500 + 500 + 200 = 5600;
# Them, 50 − 100 = −50. Twice is 11,200: Us wins.
BIG_HAND = {
    "ended_by": "going_out",
    "entries": [
        {"went_out": True, "sets": {"samba": 3, "natural_canasta": 1}, "melded_points": 400},
        {"melded_points": 50, "hand_points": 100},
    ],
}


def game_file(
    players: Sequence[Sequence[str]] = (("Ana", "Bo"), ("Cy", "Di")),
    hands: Sequence[dict[str, Any]] = (FIRST_HAND,),
    system: str = "classic",
    names: Sequence[str] = ("Us", "Them"),
) -> dict[str, Any]:
    return {
        "variant": system,
        "sides": [
            {"name": name, "players": len(side), "player_names": list(side)}
            for name, side in zip(names, players, strict=True)
        ],
        "hands": list(hands),
    }


def import_game(client: FlaskClient, data: dict[str, Any]) -> str:
    response = client.post("/games/import", json=data)
    assert response.status_code == 201, response.text
    game_id: str = response.get_json()["id"]
    return game_id


def listed(page: str) -> list[str]:
    """The ids of the games a page lists, in order."""
    return re.findall(r'href="/games/([\w-]+)"', page)


def games_page(client: FlaskClient, query: str = "") -> str:
    response = client.get(f"/games{query}")
    assert response.status_code == 200
    return response.text


def a_night(client: FlaskClient) -> str:
    """A club night of two pairs, set up through its form; its id."""
    data = {"name": "Martes", "system": "classic", "movement": "mitchell", "ranking": "wins"}
    data.update({"round_count": "1", "pairs-0-first": "Ana", "pairs-0-second": "Bo"})
    data.update({"pairs-1-first": "Cy", "pairs-1-second": "Di"})
    made = client.post("/nights/new?pairs=2", data=data)
    assert made.status_code == 302, made.text
    return made.headers["Location"].split("/")[2]


def game_of(client: FlaskClient, hands: int) -> str:
    """A classic game with `hands` hands and one correction, imported; its id."""
    # Us goes out and Them are caught holding many points, then the other way round: a game of
    # any length is still being played.
    goes_out = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
    caught = {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 2900}
    data: dict[str, Any] = {
        "variant": "classic",
        "sides": [
            {"name": "Us", "players": 2, "player_names": ["Ana", "Bo"]},
            {"name": "Them", "players": 2, "player_names": ["Carla", "Dani"]},
        ],
        "hands": [
            {"entries": [goes_out, caught] if n % 2 == 0 else [caught, goes_out]}
            for n in range(hands)
        ],
    }
    response = client.post("/games/import", json=data)
    assert response.status_code == 201, response.text
    game_id: str = response.get_json()["id"]
    return game_id


def house_rule_form(
    system: str = "denexa", name: str = "Samba 1500", **changed: Any
) -> dict[str, Any]:
    """The house-rule form as it opens for a system, with `changed` fields typed over."""
    data: dict[str, Any] = {"name": name}
    if system != "super-samba":
        rows = [*SYSTEMS[system].opening_minimums, (None, None), (None, None)]
        for index, (lowest, minimum) in enumerate(rows):
            data[f"first_meld-{index}-lowest"] = "" if lowest is None else str(lowest)
            data[f"first_meld-{index}-minimum"] = "" if minimum is None else str(minimum)
    data.update(changed)
    return data


def save_house_rule(client: FlaskClient, data: dict[str, Any], system: str = "denexa") -> int:
    """Post the new-house-rule form and return the new house rule's id."""
    response = client.post(f"/house-rules/new?system={system}", data=data)
    assert response.status_code == 302, response.text
    found = re.search(r"#house-rule-(\d+)$", response.headers["Location"])
    assert found, response.headers["Location"]
    return int(found.group(1))


def stored_house_rule(app: Flask, rule_id: int) -> HouseRule:
    with app.app_context():
        house_rule = db.session.get(HouseRule, rule_id)
        assert house_rule is not None
        db.session.expunge(house_rule)
        return house_rule


def new_house_game(client: FlaskClient, rule_id: int, table: str = "2x2") -> str:
    response = client.post(
        f"/games/new?house={rule_id}&table={table}",
        data={"side_list-0-name": "Us", "side_list-1-name": "Them"},
    )
    assert response.status_code == 302, response.text
    return response.headers["Location"].removeprefix("/games/")


HOUSE_GAME = {
    "variant": "classic",
    "house_rules": {"name": "Casa Núñez", "going_out_bonus": 400, "set_bonuses": {"samba": 1000}},
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["Ana", "Bo"]},
        {"name": "Them", "players": 2},
    ],
    "hands": [
        {
            "entries": [
                {
                    "went_out": True,
                    "sets": {"samba": 1, "natural_canasta": 1},
                    "melded_points": 260,
                },
                {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30},
            ]
        }
    ],
}


def games_of_every_kind(app: Flask, client: FlaskClient, actions: Actions) -> list[str]:
    """Games of every kind: finished, under house rules, corrected, with a deleted hand."""
    finished = json.loads((CASES / "classic-game-won.json").read_text())
    games = [client.post("/games/import", json=data).get_json()["id"] for data in (finished,)]
    games.append(client.post("/games/import", json=HOUSE_GAME).get_json()["id"])
    played = actions.new_game(
        "black-samba", names=("Peñarol", "Them"), players={"side_list-0-players-0": "José"}
    )
    actions.record_hand(played, [GOES_OUT, STAYS_IN])
    actions.record_hand(played, [STAYS_IN, STAYS_IN], ending="stock")
    actions.record_hand(played, [STAYS_IN, GOES_OUT], ending="out-1")
    first, second, _third = actions.hand_ids(played)
    corrected = {
        "ending": "stock",
        "version": "1",
        **{
            f"sides-{i}-{k}": v
            for i in range(2)
            for k, v in {**STAYS_IN, "hand_points": "0"}.items()
        },
    }
    assert client.post(f"/games/{played}/hands/{second}/edit", data=corrected).status_code == 302
    assert (
        client.post(f"/games/{played}/hands/{first}/delete", data={"version": "1"}).status_code
        == 302
    )
    games.append(played)
    # Named, archived, dealt first by seat 2, its form's one-time token kept.
    started = actions.post_new_game("denexa", players={"first_dealer": "2", "token": "one-time"})
    named = started.headers["Location"].removeprefix("/games/")
    assert (
        client.post(f"/games/{named}/rename", data={"game-name": "Los jueves"}).status_code == 302
    )
    assert client.post(f"/games/{named}/archive").status_code == 302
    games.append(named)
    with app.app_context():
        db.session.add(
            HouseRule(
                name="Los jueves",
                system_id="classic",
                options=[],
                rules={"going_out_bonus": 300},
                created_at=datetime(2024, 5, 2, 20, 15, 1, 123456),
                updated_at=datetime(2024, 6, 1, 9, 0),
            )
        )
        db.session.commit()
    return games


def restored(client: FlaskClient, content: bytes, name: str = "backup.json") -> TestResponse:
    """The restore form sent with this file (the body made here: werkzeug's own would spool a
    large file to a temporary file that the test client leaves open)."""
    boundary, body = encode_multipart({"backup_file": FileStorage(io.BytesIO(content), name)})
    return client.post(
        "/restore", data=body, content_type=f"multipart/form-data; boundary={boundary}"
    )


def without_tokens(page: str) -> str:
    """A page without what differs per visitor (its CSRF and one-time tokens)."""
    return re.sub(r'(name="(?:csrf_token|token)"[^>]*value=")[^"]*"', r'\1"', page)

"""Whatever someone typed reaches every page as text, never as markup.

A game is set up with hostile names everywhere a person types one (sides, players, the game's
name, a house rule's name), then every route of the app that shows a game, a hand, a player, a
house rule or a system is read from the app's own url_map: no page holds the name unescaped. The
forms that show what was typed again (a refused hand, whose messages name the side; a refused
game file; the rename and house-rule forms) are posted too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.test import TestResponse

from scorekeeper.web.store.models import player_key

from .helpers import (
    GOES_OUT,
    STAYS_IN,
    Actions,
    hand_fields,
    house_rule_form,
    save_house_rule,
    upload,
)
from .nights import end

CASES = Path(__file__).resolve().parents[1] / "cases"

HOSTILE = ["<script>alert(1)</script>", '"><img src=x onerror=alert(1)>']


def shown_as_text(response: TestResponse, hostile: str, where: str) -> None:
    """The response holds `hostile` only escaped, or is not something a browser renders."""
    assert response.status_code < 500, f"{where}: {response.status_code}"
    if response.mimetype == "application/json":
        response.get_json()  # data for a program, which holds the name as typed
        return
    if response.mimetype == "text/csv":
        assert response.headers["Content-Disposition"].startswith("attachment;"), where
        return
    download = response.headers.get("Content-Disposition", "").startswith("attachment;")
    if response.mimetype == "text/plain" and download:  # a text to send, saved, not shown
        return
    unescaped = hostile in response.text
    assert not unescaped, f"{where} shows {hostile!r} unescaped"


def new_hostile_game(client: FlaskClient, hostile: str) -> tuple[str, int]:
    """A game whose sides, players and name are `hostile`, with a hand and a corrected hand;
    and a house rule of that name. Returns the game's id and the house rule's id."""
    rule_id = save_house_rule(client, house_rule_form("classic", name=hostile), system="classic")
    response = client.post(
        f"/games/new?house={rule_id}&table=2x2",
        data={
            "side_list-0-name": hostile,
            "side_list-1-name": f"{hostile}2",
            "side_list-0-players-0": hostile,
            "side_list-0-players-1": f"{hostile} B",
            "side_list-1-players-0": f"{hostile} C",
            "side_list-1-players-1": f"{hostile} D",
        },
    )
    assert response.status_code == 302, response.text
    game_id = response.headers["Location"].removeprefix("/games/")
    actions = Actions(client)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")
    renamed = client.post(f"/games/{game_id}/rename", data={"game-name": hostile})
    assert renamed.status_code == 302, renamed.text
    first = actions.hand_ids(game_id)[0]
    corrected = client.post(
        f"/games/{game_id}/hands/{first}/edit",
        data=hand_fields([{**GOES_OUT, "melded_points": "270"}, STAYS_IN], version="1"),
    )
    assert corrected.status_code == 302, corrected.text
    return game_id, rule_id


def new_hostile_night(client: FlaskClient, hostile: str) -> tuple[str, str]:
    """A club night named `hostile`, its pairs' players too, its round 1 started; its id and
    its standings' address."""
    data = {"name": hostile, "system": "classic", "movement": "mitchell", "ranking": "wins"}
    data["round_count"] = "1"
    for i in range(2):
        data.update({f"pairs-{i}-first": f"{hostile}{i}", f"pairs-{i}-second": f"{hostile}-{i}"})
    made = client.post("/nights/new?pairs=2", data=data)
    assert made.status_code == 302, made.text
    night_id = made.headers["Location"].split("/")[2]
    assert client.post(f"/nights/{night_id}/start", data={"round": "1"}).status_code == 302
    cards = client.get(f"/nights/{night_id}/cards").text
    found = re.search(r'id="standings-link" href="http://[^/]+([^"]+)"', cards)
    assert found
    return night_id, found.group(1)


def new_hostile_season(client: FlaskClient, hostile: str, night_id: str) -> tuple[str, str]:
    """A season named `hostile` of that night, a hand played at its table; its id and its
    standings' token."""
    cards = client.get(f"/nights/{night_id}/cards").text
    card = re.search(r'data-card="1" href="http://[^/]+([^"]+)"', cards)
    assert card
    game_id = client.get(card[1]).headers["Location"].split("/")[2]
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = client.get("/seasons/new").text
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', page)
    assert token
    data = {"name": hostile, "measure": "places", "minimum": "1", "token": token[1]}
    made = client.post("/seasons/new", data={**data, "nights": night_id})
    assert made.status_code == 302, made.text
    season_id = made.headers["Location"].split("/")[2]
    link = re.search(r'id="season-standings" href="http://[^/]+/season/([^"]+)"',
                     client.get(f"/seasons/{season_id}/edit").text)  # fmt: skip
    assert link
    return season_id, link[1]


def route_values(client: FlaskClient, game_id: str, rule_id: int) -> dict[str, str]:
    """A value for every argument a route of the app takes (a player's key: each player's)."""
    hand_id = Actions(client).hand_ids(game_id)[0]
    return {
        "night_id": "no-such-night",  # a test with a night gives its own
        "game_id": game_id,
        "hand_id": str(hand_id),
        "rule_id": str(rule_id),
        "system_id": "classic",
        "key": "",
        "token": "no-such-link",  # a share link's landing (a real one leads to the scoreboard)
        "standings_token": "no-such-link",  # a test with a night gives its own
        "card_token": "no-such-card",  # a real one leads to its table's game
        "season_id": "no-such-season",  # a test with a season gives its own
        "season_token": "no-such-link",
    }


@pytest.mark.parametrize("hostile", HOSTILE)
def test_no_page_shows_a_typed_name_unescaped(
    app: Flask, client: FlaskClient, hostile: str
) -> None:
    game_id, rule_id = new_hostile_game(client, hostile)
    night_id, standings = new_hostile_night(client, hostile)
    values = {**route_values(client, game_id, rule_id), "night_id": night_id}
    values["standings_token"] = standings.split("/")[2]
    values["season_id"], values["season_token"] = new_hostile_season(client, hostile, night_id)
    players = [hostile, f"{hostile} B", f"{hostile} C", f"{hostile} D"]
    read = 0
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint == "static":
            continue
        unknown = set(rule.arguments) - set(values)
        assert not unknown, f"{rule.rule} takes {unknown}: give this test a value for it"
        keys = [quote(player_key(p), safe="") for p in players] if "key" in rule.arguments else [""]
        for key in keys:
            url = rule.rule
            for name, value in {**values, "key": key}.items():
                url = re.sub(rf"<(?:\w+:)?{name}>", value, url)
            for language in ("en", "es"):
                response = client.get(url, headers={"Accept-Language": language})
                shown_as_text(response, hostile, f"GET {url} ({language})")
                read += 1
    assert read > 40  # every route with a game, a hand, a player or a house rule was read
    typed = quote(hostile, safe="")
    for url in (
        f"/games/{game_id}?saved=1",
        f"/games/new?house={rule_id}",
        f"/games/new?house={rule_id}&table=2x2",
        f"/games?player={typed}&system={typed}&status={typed}",
        f"/games?player={quote(player_key(hostile), safe='')}",
        f"/house-rules/new?system=classic&name={typed}&target={typed}",
        f"/rules/{typed}",
        standings,
        f"{standings}/results",
        f"{standings}/results.txt",
        f"{standings}/results.csv",
        f"/nights/{night_id}/seating?round=1",
        f"/nights/{night_id}/end-round?round=1",
        "/nights/new?pairs=4",  # the seasons a night may count in, by name
    ):
        shown_as_text(client.get(url), hostile, f"GET {url}")
    # Between rounds: a pair's leaving asked (it names the pair) and a table card, waiting.
    end(client, night_id, 1)
    card = re.search(
        r'data-card="1" href="http://[^/]+([^"]+)"', client.get(f"/nights/{night_id}/cards").text
    )
    assert card
    for url in (f"/nights/{night_id}/leaves?pair=1", f"/nights/{night_id}/end", card.group(1)):
        response = client.get(url)
        assert response.status_code in (200, 410), f"GET {url}: {response.status_code}"
        shown_as_text(response, hostile, f"GET {url}")


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_refused_hand_names_the_side_as_text(
    client: FlaskClient, actions: Actions, hostile: str
) -> None:
    game_id = actions.new_game(names=(hostile, f"{hostile}2"))
    # A first meld below the minimum: the message names the side ("<name>: a first meld …").
    low = {**GOES_OUT, "opening_meld": "45"}
    new = f"/games/{game_id}/hands/new"
    refused = client.post(new, data=hand_fields([low, STAYS_IN]))
    assert refused.status_code == 422
    assert "first meld of 45 is too low" in refused.text
    shown_as_text(refused, hostile, f"POST {new}")
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    first = actions.hand_ids(game_id)[0]
    edit = f"/games/{game_id}/hands/{first}/edit"
    refused = client.post(edit, data=hand_fields([low, STAYS_IN], version="1"))
    assert refused.status_code == 422
    shown_as_text(refused, hostile, f"POST {edit}")


@pytest.mark.parametrize("hostile", HOSTILE)
def test_refused_forms_show_what_was_typed_as_text(
    client: FlaskClient, actions: Actions, hostile: str
) -> None:
    game_id = actions.new_game(names=(hostile, f"{hostile}2"))
    too_long = hostile + "x" * 41
    posts = {
        f"/games/{game_id}/rename": {"game-name": too_long},
        "/house-rules/new?system=classic": house_rule_form("classic", name=too_long),
        "/games/new?system=classic&table=2x2": {
            "side_list-0-name": hostile,
            "side_list-1-name": hostile,  # the same name twice
            "side_list-0-players-0": too_long,
        },
        f"/players/{quote(player_key('Ana'), safe='')}/rename": {"name": too_long},
    }
    for url, data in posts.items():
        response = client.post(url, data=data)
        shown_as_text(response, hostile, f"POST {url}")


@pytest.mark.parametrize("hostile", HOSTILE)
def test_a_refused_game_file_names_its_sides_as_text(client: FlaskClient, hostile: str) -> None:
    data = json.loads((CASES / "classic-opening-meld-too-low.json").read_text())
    data["sides"][0]["name"] = hostile
    data["house_rules"] = {"name": hostile, "target": 5000}
    sent = client.post("/games/import", json=data)
    assert sent.status_code == 422
    assert hostile in sent.get_json()["violations"][0]["message"]  # JSON is data, not a page
    assert sent.mimetype == "application/json"
    uploaded = upload(client, json.dumps(data).encode())
    assert uploaded.status_code == 422
    shown_as_text(uploaded, hostile, "the import form")


def test_a_name_like_a_template_is_shown_as_typed(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game(names=("{{7*7}}", "{% raw %}"))
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = actions.scoreboard(game_id)
    assert "{{7*7}}" in page and "{% raw %}" in page

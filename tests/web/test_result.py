"""The result for the family chat: the game in a few lines of text, and the scoreboard as a
picture drawn on the server."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from xml.etree import ElementTree

from flask.testing import FlaskClient

from .helpers import GOES_OUT, STAYS_IN, Actions

CASES = Path(__file__).resolve().parents[1] / "cases"
SVG = "{http://www.w3.org/2000/svg}"


def won_game(client: FlaskClient, **changes: object) -> str:
    """Classic, won by Us with 10,260 to Them's 8,520 in one hand."""
    data = json.loads((CASES / "classic-game-won.json").read_text())
    data.update(changes)
    response = client.post("/games/import", json=data)
    assert response.status_code == 201, response.text
    game_id: str = response.get_json()["id"]
    return game_id


def result_text(client: FlaskClient, game_id: str) -> str:
    response = client.get(f"/games/{game_id}/result")
    assert response.status_code == 200
    found = re.search(r"<textarea[^>]*readonly[^>]*>(.*?)</textarea>", response.text, re.S)
    assert found, "the text is on the page to copy by hand"
    return html.unescape(found.group(1))


def picture_texts(client: FlaskClient, game_id: str) -> list[str]:
    response = client.get(f"/games/{game_id}/scoreboard.svg")
    assert response.status_code == 200
    assert response.mimetype == "image/svg+xml"
    root = ElementTree.fromstring(response.data)  # well-formed XML, or this raises
    assert root.tag == f"{SVG}svg"
    return [text.text or "" for text in root.iter(f"{SVG}text")]


def test_the_text_says_the_system_each_sides_total_the_winner_and_the_hands(
    client: FlaskClient,
) -> None:
    text = result_text(client, won_game(client))
    assert text.splitlines() == [
        "Samba (classic, 2–6 players)",
        "Us: 10,260",
        "Them: 8,520",
        "Us won with 10,260.",
        "1 hand played.",
    ]


def test_the_text_is_in_the_pages_language(client: FlaskClient) -> None:
    game_id = won_game(client)
    client.set_cookie("lang", "es")
    text = result_text(client, game_id)
    assert "Victoria de Us con 10.260." in text and "1 mano jugada." in text


def test_a_game_going_on_says_so_with_the_players_names(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(players={"side_list-0-players-0": "Ana"})
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    text = result_text(client, game_id)
    assert "Us (Ana): " in text
    assert "The game goes on." in text and "won" not in text


def test_the_picture_shows_the_totals_and_the_winner(client: FlaskClient) -> None:
    texts = picture_texts(client, won_game(client))
    assert "10,260" in texts and "8,520" in texts
    assert "Us won with 10,260." in texts


def test_the_picture_escapes_names_and_loads_nothing_from_elsewhere(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(names=("Tom & Jerry <3", "<svg onload=x>"))
    texts = picture_texts(client, game_id)
    assert "Tom & Jerry <3" in texts and "<svg onload=x>" in texts
    root = ElementTree.fromstring(client.get(f"/games/{game_id}/scoreboard.svg").data)
    drawn = {element.tag.removeprefix(SVG) for element in root.iter()}
    assert drawn <= {"svg", "title", "rect", "text", "line", "polyline", "circle"}
    attributes = {name for element in root.iter() for name in element.attrib}
    assert not [name for name in attributes if "href" in name or name.startswith("on")]


def test_the_picture_is_kept_by_the_phone_until_the_game_changes(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    first = client.get(f"/games/{game_id}/scoreboard.svg")
    tag = first.headers["ETag"]
    assert tag.startswith('W/"')
    again = client.get(f"/games/{game_id}/scoreboard.svg", headers={"If-None-Match": tag})
    assert again.status_code == 304
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = client.get(f"/games/{game_id}/scoreboard.svg", headers={"If-None-Match": tag})
    assert changed.status_code == 200


def test_the_scoreboard_and_the_follow_page_lead_to_the_result(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    for page in (f"/games/{game_id}", f"/games/{game_id}/follow"):
        assert f'href="/games/{game_id}/result"' in client.get(page).text


def test_an_unknown_game_has_no_result(client: FlaskClient) -> None:
    assert client.get("/games/nothing-here/result").status_code == 404
    assert client.get("/games/nothing-here/scoreboard.svg").status_code == 404

"""A club night's pages through the same door, access and 304 path as a game's (issue 34,
point 6): the night in the address (its id, its standings link or a table card) read by the
door, never by a page; the ETag and the kept part made in one place of what the night is at
its revision, the session, what the phone may do there, the language and the ranking asked
for; and the director's forms tried out of order each refused in words, changing nothing."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import nights
from scorekeeper.web import create_app
from scorekeeper.web.services import nights as service
from scorekeeper.web.services.nights import NightRefused

from .apps import TEST_CONFIG, built_app, statements
from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields
from .nights import (
    PAIRS,
    PIN,
    asked_for,
    cards,
    end,
    night_state,
    seats,
    set_up,
    standings_link,
    start,
    table_game,
)

PAGES = Path(__file__).resolve().parents[2] / "scorekeeper" / "web" / "pages"
NIGHT_IN_ADDRESS = re.compile(r"^/(nights|standings|tables)/<(?:[a-z]+:)?(\w+)>")
DOOR_NAMES = {"nights": "night_id", "standings": "standings_token", "tables": "card_token"}


def bypassing_the_door(app: Flask) -> list[str]:
    """The routes whose address names a night that would not come in through the door: under
    another name than the door's, or a view still taking it itself (it would read the night on
    its own)."""
    found = []
    for rule in app.url_map.iter_rules():
        named = NIGHT_IN_ADDRESS.match(rule.rule)
        if named is None:
            continue
        name = DOOR_NAMES[named.group(1)]
        parameters = inspect.signature(app.view_functions[rule.endpoint]).parameters
        if named.group(2) != name or name in parameters:
            found.append(rule.endpoint)
    return found


def test_every_route_of_a_night_comes_in_through_the_door(app: Flask) -> None:
    routes = [r for r in app.url_map.iter_rules() if NIGHT_IN_ADDRESS.match(r.rule)]
    assert len(routes) >= 18  # the director's, the seating, the cards, the standings, a card
    assert bypassing_the_door(app) == []


def test_a_route_that_reads_the_night_on_its_own_is_found() -> None:
    app = create_app(dict(TEST_CONFIG))

    @app.get("/nights/<night_id>/sideways")
    def sideways(night_id: str) -> str:
        return night_id

    @app.get("/standings/<token>/renamed")
    def renamed(token: str) -> str:
        return token

    assert bypassing_the_door(app) == ["sideways", "renamed"]


@pytest.mark.parametrize("page", ["nights.py", "director.py", "standings.py"])
def test_no_night_page_makes_an_etag_or_reads_a_night_itself(page: str) -> None:
    source = (PAGES / page).read_text(encoding="utf-8")
    for made_by_hand in ("etag", "if_none_match", "tagged(", "db.session", "night_of(", "select("):
        assert made_by_hand not in source, (page, made_by_hand)


def test_every_route_of_a_night_that_is_not_there_answers_404(
    app: Flask, client: FlaskClient
) -> None:
    set_up(client, PAIRS[:4], round_count="2")  # a night there, not the one asked for
    for rule in app.url_map.iter_rules():
        named = NIGHT_IN_ADDRESS.match(rule.rule)
        if named is None:
            continue
        url = re.sub(r"<(?:\w+:)?\w+>", "no-such-night", rule.rule)
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            answer = client.open(url, method=method, data={"round": "1", "pair": "1"})
            if (rule.endpoint, method) == ("nights.delete", "POST"):
                assert answer.status_code == 302  # pressed again after it deleted the night
            else:
                assert answer.status_code == 404, (method, url, answer.status_code)


def test_a_night_page_reads_the_night_once_and_answers_304_while_it_is_unchanged(
    app: Flask, client: FlaskClient
) -> None:
    night_id = set_up(client, PAIRS[:4], round_count="2")
    link = standings_link(client, night_id)
    card = cards(client, night_id)[1]
    for page in (f"/nights/{night_id}", f"/nights/{night_id}/seating", link, card):
        first = client.get(page)
        assert first.status_code == 200 and first.headers["ETag"].startswith('W/"night:')
        with statements(app) as seen:
            again = client.get(page, headers={"If-None-Match": first.headers["ETag"]})
        assert again.status_code == 304, page
        assert len(seen) <= 2, seen  # the door's one read (a peek and its BEGIN on PostgreSQL)
    start(client, night_id, 1)
    changed = client.get(link, headers={"If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200


def test_another_sessions_copy_of_a_night_page_is_never_answered_304(csrf_app: Flask) -> None:
    director, other = csrf_app.test_client(), csrf_app.test_client()
    page = f"/nights/{night_with_a_form(director)}"
    for visitor in (director, other):
        visitor.get(page)  # each session gets its token
    etag = director.get(page).headers["ETag"]
    assert director.get(page, headers={"If-None-Match": etag}).status_code == 304
    answer = other.get(page, headers={"If-None-Match": etag})
    assert answer.status_code == 200 and answer.headers["ETag"] != etag


def night_with_a_form(client: FlaskClient) -> str:
    """A night set up through the form with its token (a CSRF-checking app)."""
    path = "/nights/new?pairs=2"
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', client.get(path).text)
    assert token
    data = {"csrf_token": token.group(1), "name": "Martes", "system": "classic"}
    data.update({"movement": "mitchell", "ranking": "wins", "round_count": "1"})
    data.update({f"pairs-{i}-{k}": f"{k}{i}" for i in range(2) for k in ("first", "second")})
    made = client.post(path, data=data)
    assert made.status_code == 302, made.text
    return made.headers["Location"].split("/")[2]


def test_the_standings_asked_by_another_ranking_are_never_answered_304(
    client: FlaskClient,
) -> None:
    link = standings_link(client, set_up(client, PAIRS[:4], round_count="2"))
    by_wins = client.get(f"{link}?by=wins")
    by_points = client.get(f"{link}?by=points", headers={"If-None-Match": by_wins.headers["ETag"]})
    assert by_points.status_code == 200
    assert "Ranked by score: the points scored." in by_points.text


def test_a_night_page_kept_before_the_pin_is_drawn_again_after_it() -> None:
    """What the phone may do is in the ETag: the director's copy (with its Sign out) never
    answers a phone without the PIN, nor the other way round."""
    app = built_app({**TEST_CONFIG, "PIN": PIN})
    director = app.test_client()
    assert director.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    night_id = set_up(director, PAIRS[:4], round_count="2")
    link, card = standings_link(director, night_id), cards(director, night_id)[1]
    for page in (link, f"{link}/results", card):
        phone = app.test_client()
        public = phone.get(page)
        assert public.status_code == 200 and "Sign out" not in public.text, page
        assert phone.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
        signed_in = phone.get(page, headers={"If-None-Match": public.headers["ETag"]})
        assert signed_in.status_code == 200 and "Sign out" in signed_in.text, page


def test_the_standings_kept_in_one_language_are_not_shown_in_another(client: FlaskClient) -> None:
    link = standings_link(client, set_up(client, PAIRS[:4], round_count="2"))
    english = client.get(link, headers={"Accept-Language": "en"})
    assert "Ranked by score" in english.text
    spanish = client.get(link, headers={"Accept-Language": "es"})
    assert "Por puntuación" in spanish.text and "Ranked by score" not in spanish.text
    assert spanish.headers["ETag"] != english.headers["ETag"]


def test_between_rounds_a_table_card_leads_to_no_game_and_gives_no_join_link() -> None:
    app = built_app({**TEST_CONFIG, "PIN": PIN})
    director = app.test_client()
    assert director.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    night_id = set_up(director, PAIRS[:4], round_count="2")
    card = cards(director, night_id)[1]
    start(director, night_id, 1)
    game_id = table_game(app.test_client(), card)
    assert game_id is not None  # during the round: its game, and its join link
    end(director, night_id, 1)
    phone = app.test_client()
    waiting = phone.get(card)
    assert waiting.status_code == 200 and "Waiting for round 2" in waiting.text
    late = phone.post(f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN]))
    assert late.status_code == 403  # the card gave this phone no link to the ended round's game


def refused(client: FlaskClient, answer: object, words: str) -> None:
    """The director's form was refused in words, on the page it leads to."""
    assert getattr(answer, "status_code", None) in (302, 422)
    location = getattr(answer, "headers", {}).get("Location")
    page = client.get(location).text if location else getattr(answer, "text", "")
    assert words in page, page


def test_a_round_started_while_one_is_played_is_refused(app: Flask, client: FlaskClient) -> None:
    night_id = set_up(client, PAIRS[:4], round_count="2")
    start(client, night_id, 1)
    before = night_state(app, night_id)
    answer = client.post(f"/nights/{night_id}/start", data={"round": "2"})
    refused(client, answer, "Round 1 is still being played: end it first.")
    assert night_state(app, night_id) == before


def test_ending_round_2_during_round_3_is_refused_and_round_3_goes_on(
    app: Flask, client: FlaskClient
) -> None:
    night_id = set_up(client, round_hands="1")
    for number in (1, 2):
        start(client, night_id, number)
        end(client, night_id, number)
    start(client, night_id, 3)
    before = night_state(app, night_id)
    answers = asked_for(client.get(f"/nights/{night_id}/end-round?round=3").text)
    for method, sent in (("GET", {"round": "2"}), ("POST", {"round": "2", **answers})):
        if method == "GET":
            answer = client.get(f"/nights/{night_id}/end-round", query_string=sent)
        else:
            answer = client.post(f"/nights/{night_id}/end-round", data=sent)
        refused(client, answer, "Round 2 is not being played: it ended already, or has not")
        assert night_state(app, night_id) == before


def test_a_round_in_play_is_not_seated_again(app: Flask, client: FlaskClient) -> None:
    night_id = set_up(client, PAIRS[:4], round_count="2")
    start(client, night_id, 1)
    before = night_state(app, night_id)
    swapped = {"seats-0-ns": "1", "seats-0-ew": "4", "seats-1-ns": "2", "seats-1-ew": "3"}
    assert 'id="seats-0-ns"' not in client.get(f"/nights/{night_id}/seating?round=1").text
    answer = client.post(f"/nights/{night_id}/seating?round=1", data=swapped)  # an old page
    assert answer.status_code == 422
    assert "Round 1 has started: its seating can no longer change." in answer.text
    assert night_state(app, night_id) == before
    assert seats(app, night_id, 1) == [(1, 1, 3), (2, 2, 4)]


def test_the_services_refuse_a_round_in_play_seated_again_or_another_round_ended(
    app: Flask, client: FlaskClient
) -> None:
    """The services hold what the director's pages hold, for a page that would not."""
    night_id = set_up(client, PAIRS[:4], round_count="2")
    start(client, night_id, 1)
    before = night_state(app, night_id)
    with app.app_context():
        with pytest.raises(NightRefused, match="round-started"):
            service.change_seating(night_id, 1, [nights.Seat(1, 1, 4), nights.Seat(2, 2, 3)])
        with pytest.raises(NightRefused, match="round-not-in-play"):
            service.end_round(night_id, 2)
        with pytest.raises(NightRefused, match="round-in-play"):
            service.start_round(night_id, 2)
    assert night_state(app, night_id) == before


def test_a_table_card_after_its_round_ended_waits_for_the_next(client: FlaskClient) -> None:
    night_id = set_up(client, PAIRS[:4], round_count="2")
    card = cards(client, night_id)[2]
    start(client, night_id, 1)
    first = table_game(client, card)
    Actions(client).record_hand(first or "", [GOES_OUT, STAYS_IN])
    end(client, night_id, 1)
    assert table_game(client, card) is None
    start(client, night_id, 2)
    second = table_game(client, card)
    assert second is not None and second != first

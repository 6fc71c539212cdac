"""Who may see and change what: without a PIN everything is open; with one, a phone needs the
PIN, or a game's join link (its hands) or follow link (to watch it)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.extensions import db
from scorekeeper.web.http.access import LINKS_KEPT, Access, needed
from scorekeeper.web.store.models import PinAttempt

from .apps import ACCESS_READ, TEST_CONFIG, built_app, statements
from .helpers import GOES_OUT, STAYS_IN, Actions, a_night, game_of, hand_fields, hidden

PIN = "2468"


@pytest.fixture
def pin_app() -> Iterator[Flask]:
    yield built_app({**TEST_CONFIG, "PIN": PIN})


def imported(client: FlaskClient) -> str:
    """A game of one hand, imported as a game file (the import is the table's too)."""
    return game_of(client, 1)


def at_the_table(app: Flask) -> FlaskClient:
    """A phone that entered the PIN."""
    client = app.test_client()
    entered = client.post("/pin", data={"pin": PIN, "next": "/"})
    assert entered.status_code == 302, entered.text
    return client


def tokens(app: Flask, game_id: str) -> tuple[str, str]:
    from scorekeeper.web.store.models import Game

    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        return game.follow_token, game.join_token


NOTHING_THERE = {
    "house_rules.rules_page",
    "house_rules.edit",
    "history.player",
    "history.merge",
    "seasons.edit",
}
"""Pages whose sample address (`sample`) names a house rule, a player or a season that is not
there."""
PUBLIC_ANSWERS = {
    ("POST", "sharing.enter_pin"): 422,  # sent without a PIN
    ("POST", "sharing.sign_out"): 302,
    ("POST", "games.language"): 302,
    ("GET", "sharing.follow"): 404,  # no such token
    ("GET", "sharing.join"): 404,
    ("GET", "nights.table_card"): 404,
    ("GET", "standings.standings"): 404,
    ("GET", "standings.state"): 404,
    ("GET", "standings.events"): 404,
    ("GET", "standings.results"): 404,
    ("GET", "standings.results_csv"): 404,
    ("GET", "standings.results_text"): 404,
    ("GET", "seasons.standings"): 404,
    ("GET", "seasons.events"): 404,
    ("GET", "seasons.results_csv"): 404,
    ("GET", "seasons.results_text"): 404,
}
"""What a fresh phone gets from the public addresses other than a page (200)."""
NOT_A_PAGE = {
    "nights.next_game": 302,
    "events.game_events": 204,
    "games.display_before": 308,
    "director.end_round": 302,
    "director.pair_leaves": 302,
}
"""Addresses without a PIN that answer other than with a page: a game of no club night leads
from its next game back to its own scoreboard; a game's event stream answers 204 under the
tests' app, which was told of no thread to hold one on (`STREAMS`), so that the page polls;
the display's old address leads to the new one; the confirmation of ending a round or of a
pair leaving, asked without naming one in play, leads back to the director's page, which says
why."""


def sample(rule: str, game_id: str, hand_id: int, night_id: str = "no-such-night") -> str:
    url = rule.replace("<game_id>", game_id).replace("<night_id>", night_id)
    url = re.sub(r"<id:hand_id>", str(hand_id), url)
    url = re.sub(r"<id:(rule_id|merge_id)>", "1", url)
    url = re.sub(r"<path:key>", "ana", url)
    url = re.sub(r"<system_id>", "classic", url)
    url = url.replace("<season_id>", "no-such-season")
    url = re.sub(r"<path:filename>", "style.css", url)
    return re.sub(r"<(\w+_)?token>", "no-such-token", url)


def first_hand(client: FlaskClient, game_id: str) -> int:
    page = client.get(f"/games/{game_id}").text
    return int(page.split('<tr id="hand-', 1)[1].split('"', 1)[0])


def test_every_route_says_who_may_use_it(app: Flask) -> None:
    with app.test_request_context():
        undecided = [r.endpoint for r in app.url_map.iter_rules() if needed(r.endpoint) is None]
    assert undecided == []


def test_without_a_pin_every_page_is_open_as_before(app: Flask, client: FlaskClient) -> None:
    game_id = imported(client)
    hand_id = first_hand(client, game_id)
    night_id = a_night(client)
    for rule in app.url_map.iter_rules():
        if "GET" in (rule.methods or ()) and "token>" not in rule.rule:
            response = client.get(sample(rule.rule, game_id, hand_id, night_id))
            response.close()  # a static file is sent from an open file
            expected = 404 if rule.endpoint in NOTHING_THERE else 200
            expected = NOT_A_PAGE.get(rule.endpoint, expected)
            assert response.status_code == expected, (rule.rule, response.status_code)


def test_with_a_pin_a_fresh_phone_gets_nothing_but_what_is_public(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    game_id = imported(table)
    hand_id = first_hand(table, game_id)
    night_id = a_night(table)  # the door finds it: the refusal is the PIN's, not a 404
    fresh = pin_app.test_client()
    refused = opened = 0
    for rule in pin_app.url_map.iter_rules():
        with pin_app.test_request_context():
            wanted = needed(rule.endpoint)
        for method in sorted((rule.methods or set()) & {"GET", "POST"}):
            response = fresh.open(sample(rule.rule, game_id, hand_id, night_id), method=method)
            response.close()
            if wanted is Access.PUBLIC:
                opened += 1
                expected = PUBLIC_ANSWERS.get((method, rule.endpoint), 200)
                assert response.status_code == expected, (method, rule.rule, response.status_code)
            else:
                refused += 1
                assert response.status_code == 403, (method, rule.rule, response.status_code)
                assert "This table has a PIN" in response.text
    assert refused > 30 and opened >= 5
    assert fresh.get(f"/games/{game_id}").status_code == 403
    assert table.get(f"/games/{game_id}").status_code == 200
    assert table.get("/stats").status_code == 200


def test_a_wrong_pin_is_refused_and_the_next_ones_wait_longer(pin_app: Flask) -> None:
    phone = pin_app.test_client()
    for _ in range(3):
        wrong = phone.post("/pin", data={"pin": "1111", "next": "/"})
        assert wrong.status_code == 422 and "That is not the table&#39;s PIN." in wrong.text
    waiting = phone.post("/pin", data={"pin": PIN, "next": "/"})  # even the right one waits
    assert waiting.status_code == 429 and "Too many wrong PINs: wait 2 seconds" in waiting.text
    with pin_app.app_context():
        attempt = db.session.get(PinAttempt, "127.0.0.1")
        assert attempt is not None and attempt.failures == 3
    assert phone.get("/").status_code == 403


def test_wrong_pins_are_counted_in_the_database_for_every_server_process(
    tmp_path: Path,
) -> None:
    url = f"sqlite:///{tmp_path / 'two.db'}"
    first, second = (
        built_app({**TEST_CONFIG, "PIN": PIN, "SQLALCHEMY_DATABASE_URI": url}) for _ in range(2)
    )
    for _ in range(3):
        first.test_client().post("/pin", data={"pin": "0000", "next": "/"})
    answer = second.test_client().post("/pin", data={"pin": PIN, "next": "/"})
    assert answer.status_code == 429


def test_a_join_link_records_hands_of_its_game_only(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    game_id, other = imported(table), imported(table)
    _follow, join = tokens(pin_app, game_id)
    phone = pin_app.test_client()
    assert phone.get(f"/join/{join}").status_code == 302
    saved = phone.post(f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN]))
    assert saved.status_code == 302, saved.text
    assert phone.get(f"/games/{game_id}").status_code == 200
    assert (
        phone.post(f"/games/{other}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN])).status_code
        == 403
    )
    for page in (
        "/",
        "/games",
        "/stats",
        f"/games/{game_id}/manage",
        f"/games/{game_id}/export.json",
    ):
        assert phone.get(page).status_code == 403, page


def test_a_follow_link_watches_and_changes_nothing(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    game_id = imported(table)
    hand_id = first_hand(table, game_id)
    follow, _join = tokens(pin_app, game_id)
    phone = pin_app.test_client()
    landing = phone.get(f"/follow/{follow}")
    assert landing.headers["Location"] == f"/games/{game_id}/follow"
    watched = [
        f"/games/{game_id}/follow",
        f"/games/{game_id}/display",
        f"/games/{game_id}/state.json",
        f"/games/{game_id}/hands/{hand_id}",
        f"/games/{game_id}/rules",
        f"/games/{game_id}/what-if",
        f"/games/{game_id}/result",
        f"/games/{game_id}/scoreboard.svg",
    ]
    for page in watched:
        assert phone.get(page).status_code == 200, page
    assert "<form" not in phone.get(f"/games/{game_id}/follow").text.split("<main>")[1]
    assert "Correct this hand" not in phone.get(f"/games/{game_id}/hands/{hand_id}").text
    assert phone.get(f"/games/{game_id}").headers["Location"] == f"/games/{game_id}/follow"
    assert phone.get(f"/games/{game_id}/hands/new").status_code == 403
    refused = phone.post(f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN]))
    assert refused.status_code == 403
    assert phone.get("/follow/not-a-token").status_code == 404


def test_new_links_make_the_old_ones_stop_working(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    game_id = imported(table)
    _follow, join = tokens(pin_app, game_id)
    phone = pin_app.test_client()
    phone.get(f"/join/{join}")
    assert phone.get(f"/games/{game_id}/hands/new").status_code == 200
    share = table.get(f"/games/{game_id}/share").text
    assert f'data-share="join" href="http://localhost/join/{join}"' in share
    assert 'data-share="follow"' in share and "<svg" in share
    # One code on screen at a time: join's first, follow's folded under it.
    assert share.index('data-share="join"') < share.index('<details class="share-fold">')
    assert share.index('<details class="share-fold">') < share.index('data-share="follow"')
    assert table.post(f"/games/{game_id}/share/renew").status_code == 302
    assert phone.get(f"/games/{game_id}/hands/new").status_code == 403
    assert phone.get(f"/join/{join}").status_code == 404
    _follow, renewed = tokens(pin_app, game_id)
    assert renewed != join and renewed in table.get(f"/games/{game_id}/share").text


def test_the_share_page_warns_when_phones_would_open_localhost(client: FlaskClient) -> None:
    game_id = imported(client)
    assert "which other phones cannot reach" in client.get(f"/games/{game_id}/share").text
    elsewhere = client.get(f"/games/{game_id}/share", base_url="http://192.168.1.20:5000")
    assert "which other phones cannot reach" not in elsewhere.text
    assert 'href="http://192.168.1.20:5000/follow/' in elsewhere.text


def test_a_hand_refused_for_want_of_the_pin_is_saved_once_it_is_entered(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    game_id = imported(table)
    phone = pin_app.test_client()
    typed = hand_fields([STAYS_IN, GOES_OUT], ending="out-1", action="save")
    refused = phone.post(f"/games/{game_id}/hands/new", data=typed)
    assert refused.status_code == 403
    assert hidden(refused.text, "sides-1-melded_points") == "260"
    sent = {name: hidden(refused.text, name) for name in typed} | {"pin": PIN}
    sent["next"] = hidden(refused.text, "next")
    answer = phone.post("/pin", data=sent)
    assert answer.status_code == 307
    assert answer.headers["Location"] == f"/games/{game_id}/hands/new"
    saved = phone.post(answer.headers["Location"], data=sent)
    assert saved.status_code == 302 and "saved=2" in saved.headers["Location"]


def test_the_pin_is_changed_only_with_the_current_one_and_old_phones_are_out(app: Flask) -> None:
    phone, other = app.test_client(), app.test_client()
    assert other.get("/stats").status_code == 200  # no PIN yet
    assert phone.post("/settings/pin", data={"new": "1357", "again": "1357"}).status_code == 302
    assert other.get("/stats").status_code == 403
    assert phone.get("/stats").status_code == 200  # the phone that set it knows it
    wrong = phone.post("/settings/pin", data={"current": "0000", "new": "9999", "again": "9999"})
    assert wrong.status_code == 422 and "That is not the PIN now." in wrong.text
    for blank in ({"current": ""}, {}):  # the current PIN left out is not the PIN either
        for new in ("9999", ""):  # neither to change it nor to remove it
            sent = {**blank, "new": new, "again": new}
            refused = phone.post("/settings/pin", data=sent)
            assert refused.status_code == 422 and "That is not the PIN now." in refused.text
    assert other.get("/stats").status_code == 403  # still the same PIN
    assert other.post("/pin", data={"pin": "1357", "next": "/"}).status_code == 302
    changed = phone.post("/settings/pin", data={"current": "1357", "new": "8642", "again": "8642"})
    assert changed.status_code == 302
    assert other.get("/stats").status_code == 403  # the old PIN no longer counts
    removed = phone.post("/settings/pin", data={"current": "8642", "new": "", "again": ""})
    assert removed.status_code == 302 and other.get("/stats").status_code == 200


def test_a_pin_the_server_sets_cannot_be_changed_on_the_page(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    assert "The server sets this table's PIN" in table.get("/settings/pin").text
    table.post("/settings/pin", data={"current": PIN, "new": "", "again": ""})
    assert pin_app.test_client().get("/stats").status_code == 403


def test_a_phone_that_signs_out_needs_the_pin_again(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    assert table.get("/stats").status_code == 200
    assert table.post("/pin/forget").status_code == 302
    assert table.get("/stats").status_code == 403


def test_serve_shows_the_first_phone_a_qr_code_of_the_address_it_can_reach() -> None:
    from scorekeeper.web.serving import first_phone_qr

    drawn = first_phone_qr(["http://192.168.1.20:5000/", "http://127.0.0.1:5000/"])
    assert "http://192.168.1.20:5000/" in drawn and drawn.count("\n") > 10
    assert "█" in drawn or "▀" in drawn
    assert first_phone_qr(["http://127.0.0.1:5000/"]) == ""


def test_the_access_check_costs_one_statement_outside_a_game_and_none_inside(
    app: Flask, client: FlaskClient
) -> None:
    game_id = imported(client)
    client.get(f"/games/{game_id}")
    for page, reads in (("/stats", 1), (f"/games/{game_id}", 0)):
        with statements(app, with_access=True) as seen:
            assert client.get(page).status_code == 200
        pin_reads = [s for s in seen if s.lstrip().upper().startswith(ACCESS_READ)]
        assert len(pin_reads) == reads, (page, seen)


def test_a_phone_remembers_its_newest_share_links(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    games = [imported(table) for _ in range(LINKS_KEPT + 1)]
    phone = pin_app.test_client()
    for game_id in games:
        phone.get(f"/join/{tokens(pin_app, game_id)[1]}")
    assert phone.get(f"/games/{games[0]}/hands/new").status_code == 403  # the oldest went
    assert phone.get(f"/games/{games[-1]}/hands/new").status_code == 200
    assert phone.get(f"/games/{games[1]}/hands/new").status_code == 200


def test_a_joined_phone_sees_no_control_it_cannot_use_and_can_leave(pin_app: Flask) -> None:
    table = at_the_table(pin_app)
    game_id = imported(table)
    follow, join = tokens(pin_app, game_id)
    mine = table.get(f"/games/{game_id}").text
    assert "Play again" in mine and "Manage this game" in mine and "Share this game" in mine
    assert "Leave this game" not in mine and ">Sign out<" in mine  # one tap, in the header
    joined = pin_app.test_client()
    joined.get(f"/join/{join}")
    theirs = joined.get(f"/games/{game_id}").text
    assert "Record hand 2" in theirs
    for needs_the_pin in ("Play again", "Manage this game", "Share this game", "export.json"):
        assert needs_the_pin not in theirs, needs_the_pin
    assert "Leave this game on this phone" in theirs
    # The table's phone still gets its own controls (the two are kept apart, not mixed up).
    assert "Play again" in table.get(f"/games/{game_id}").text
    left = joined.post("/pin/forget")
    assert left.status_code == 302
    assert joined.get(f"/games/{game_id}").status_code == 403
    # A follower leaves by the header's Sign out (its page has no form: it changes nothing).
    follower = pin_app.test_client()
    follower.get(f"/follow/{follow}")
    assert ">Sign out<" in follower.get(f"/games/{game_id}/follow").text


def test_without_a_pin_there_is_nothing_to_sign_out_of(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    page = client.get(f"/games/{game_id}").text
    assert ">Sign out<" not in page and "Leave this game" not in page
    assert "Play again" in page

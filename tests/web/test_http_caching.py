"""Game pages are cached as HTTP does it: a weak ETag from the game's revision, and 304."""

from __future__ import annotations

import re
import threading
from collections.abc import Hashable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from flask import Flask, template_rendered
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.web.presenters import parts

from .apps import statements
from .helpers import GOES_OUT, STAYS_IN, Actions, a_game_with_a_hand, game_of, hidden
from .streams import WITHIN

GAME_PAGES = [
    "/games/{game}",
    "/games/{game}/hands/new",
    "/games/{game}/hands/{hand}",
    "/games/{game}/rules",
    "/games/{game}/result.json",
    # What phones that follow the game poll (test_following.py):
    "/games/{game}/follow",
    "/games/{game}/display",
    "/games/{game}/state.json",
]


@contextmanager
def rendered(app: Flask) -> Iterator[list[str]]:
    names: list[str] = []

    def seen(_sender: Flask, template: object, **_extra: object) -> None:
        names.append(str(getattr(template, "name", template)))

    template_rendered.connect(seen, app)
    try:
        yield names
    finally:
        template_rendered.disconnect(seen, app)


@pytest.mark.parametrize("page", GAME_PAGES)
def test_a_game_page_unchanged_is_answered_304_without_replaying_or_drawing(
    app: Flask,
    client: FlaskClient,
    actions: Actions,
    monkeypatch: pytest.MonkeyPatch,
    page: str,
) -> None:
    game_id, hand_id = a_game_with_a_hand(client, actions)
    url = page.format(game=game_id, hand=hand_id)
    first = client.get(url)
    etag = first.headers["ETag"]
    assert etag.startswith('W/"') and "no-cache" in first.headers["Cache-Control"]

    def no_replay(*_args: object) -> None:
        raise AssertionError("a 304 replays nothing")

    monkeypatch.setattr(rules, "replay", no_replay)
    monkeypatch.setattr(rules, "extend", no_replay)
    with statements(app) as seen, rendered(app) as drawn:
        again = client.get(url, headers={"If-None-Match": etag})
    assert again.status_code == 304 and again.data == b""
    assert again.headers["ETag"] == etag
    assert drawn == []
    assert len([s for s in seen if s.lstrip().upper().startswith("SELECT")]) == 1


def test_a_hand_recorded_elsewhere_changes_the_etag(client: FlaskClient, actions: Actions) -> None:
    game_id, _hand = a_game_with_a_hand(client, actions)
    etag = client.get(f"/games/{game_id}").headers["ETag"]
    actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    after = client.get(f"/games/{game_id}", headers={"If-None-Match": etag})
    assert after.status_code == 200 and after.headers["ETag"] != etag
    assert "Hand 3" in after.text


def test_the_etag_differs_by_language(client: FlaskClient, actions: Actions) -> None:
    game_id, _hand = a_game_with_a_hand(client, actions)
    english = client.get(f"/games/{game_id}").headers["ETag"]
    spanish = client.get(f"/games/{game_id}", headers={"Accept-Language": "es"})
    assert spanish.headers["ETag"] != english
    answer = client.get(
        f"/games/{game_id}", headers={"Accept-Language": "es", "If-None-Match": english}
    )
    assert answer.status_code == 200 and "Mano" in answer.text


def test_a_page_with_a_notice_shown_once_is_never_answered_304(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    renamed = client.post(f"/games/{game_id}/rename", data={"game-name": "Friday"})
    assert renamed.status_code == 302
    page = client.get(f"/games/{game_id}/manage")
    assert "Renamed." in page.text and "ETag" not in page.headers
    assert "Renamed." not in client.get(f"/games/{game_id}/manage").text


def test_errors_and_redirects_carry_no_etag(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game(start_scores=(9000, 0))
    assert "ETag" not in client.get("/games/no-such-game").headers
    saved = actions.post_hand(game_id, [GOES_OUT, STAYS_IN], "out-0")  # Us win
    assert saved.status_code == 302 and "ETag" not in saved.headers
    # A read of the game that sends the phone on is no page to keep: a browser that kept it
    # under the game's revision would be sent on again without asking.
    for page in ("hands/new", "next"):  # the game is over; it is of no club night
        sent_on = client.get(f"/games/{game_id}/{page}")
        assert sent_on.status_code == 302, page
        assert sent_on.headers["Location"] == f"/games/{game_id}", page
        assert "ETag" not in sent_on.headers, page


def test_each_visitor_gets_the_kept_hand_form_with_tokens_of_their_own(csrf_app: Flask) -> None:
    first, second = csrf_app.test_client(), csrf_app.test_client()
    game_id = game_of(first, 5)
    pages = [client.get(f"/games/{game_id}/hands/new").text for client in (first, second)]
    tokens = [(hidden(p, "csrf_token"), hidden(p, "token")) for p in pages]
    assert tokens[0][0] != tokens[1][0] and tokens[0][1] != tokens[1][1]
    again = first.get(f"/games/{game_id}/hands/new").text
    assert hidden(again, "token") not in {tokens[0][1], tokens[1][1]}  # one-time: fresh each time

    def without_tokens(page: str) -> str:
        for csrf, token in tokens:
            page = page.replace(csrf, "").replace(token, "")
        return page.replace(hidden(again, "token"), "")

    assert without_tokens(pages[0]) == without_tokens(pages[1])


def test_a_blank_hand_form_is_drawn_once_per_game_and_its_rows_once_per_set_up(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    # Classic asks 120 from 3,000 to 6,995: a hand here moves no side out of that band.
    game_id = actions.new_game(start_scores=(3500, 3500))
    with rendered(app) as drawn:
        first = client.get(f"/games/{game_id}/hands/new").text
    assert "hands/_rows.html" in drawn and "Hand 1" in first
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    other = actions.new_game(start_scores=(3500, 3500))
    for game, number, form in ((game_id, 2, []), (other, 1, ["hands/_form.html"])):
        with rendered(app) as drawn:
            page = client.get(f"/games/{game}/hands/new").text
        # A hand recorded draws nothing of its game's form again (its title, the last hand's
        # place and the totals are holes); another game of the same set-up draws all but rows.
        assert [name for name in drawn if name.startswith("hands/_")] == form, drawn
        assert f"<title>Hand {number}" in page and f"<h1>Hand {number}</h1>" in page
        assert "≥ 120" in page and f'name="after" type="hidden" value="{number - 1}"' in page
        board = client.get(f"/games/{game}").text
        totals = re.findall(r'class="big-number">([^<]*)<', board)
        assert re.findall(r'class="new-total">([^<]*)<', page) == totals and len(totals) == 2
    named = actions.new_game(names=("Ana", "Bo"), start_scores=(3500, 3500))
    with rendered(app) as drawn:
        page = client.get(f"/games/{named}/hands/new").text
    assert "hands/_rows.html" in drawn and 'title="Ana"' in page and 'title="Us"' not in page


def test_a_blank_hand_form_shows_a_first_meld_minimum_changed_by_the_last_hand(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(start_scores=(1400, 0))
    before = client.get(f"/games/{game_id}/hands/new").text
    assert before.count("≥ 50") == 2 and "≥ 120" not in before
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])  # Us pass 3,000: 120 from now on
    after = client.get(f"/games/{game_id}/hands/new").text
    assert after.count("≥ 120") == 1 and after.count("≥ 50") == 1


class Asking(dict[Hashable, Any]):
    """Parts' locks of parts being drawn, counting who came to wait for one."""

    def __init__(self) -> None:
        super().__init__()
        self.came = threading.Semaphore(0)

    def setdefault(self, key: Hashable, default: Any = None) -> Any:
        self.came.release()
        return super().setdefault(key, default)


def test_a_part_asked_for_by_many_at_once_is_drawn_once(app: Flask) -> None:
    """A save makes every screen following the game or the night ask at the same moment: one
    draws, the others wait for it rather than each drawing it again."""
    kept = app.extensions[parts.EXTENSION]
    kept.drawing = asking = Asking()
    release = threading.Event()
    drawn: list[str] = []

    def draw() -> str:
        drawn.append("drawn")
        assert release.wait(WITHIN)
        return "the standings"

    got: list[str] = []

    def screen() -> None:
        with app.app_context():
            got.append(parts.kept(("standings", "rev"), draw))

    screens = [threading.Thread(target=screen) for _ in range(5)]
    for thread in screens:
        thread.start()
    for _ in screens:  # every screen has come to the part while the first draws it
        assert asking.came.acquire(timeout=WITHIN)
    release.set()
    for thread in screens:
        thread.join(WITHIN)
    assert got == ["the standings"] * 5
    assert drawn == ["drawn"]
    assert not asking  # nothing left behind

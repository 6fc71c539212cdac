"""A following page's stream carries the page's new body (pages/events.py): the marked parts
that changed since the revision it told the page before, which put in place of the page's own
make the page a fetch would bring; or the body whole when more than those parts changed; or
the revision alone, for the page to ask for itself, when it cannot use a body (the table played
on). What a browser does with them is tests/browser/test_push.py's."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.presenters import parts
from scorekeeper.web.services import kept, push

from .apps import TEST_CONFIG, built_app, database_url
from .helpers import GOES_OUT, STAYS_IN, Actions, game_of
from .sharing import a_game, links, with_a_pin
from .sharing import opened as sharing_opened
from .streams import Stream

PAGES = ("", "/follow", "/display")
BODY = re.compile(r'<div data-follow[^>]*>\n(.*)\n</div>\n<p class="(?:follow|table)-links"', re.S)
TITLE = re.compile(r"<title>(.*)</title>")
HUB = re.compile(r'data-stream="([^"]+)" data-revision="([^"]+)"')


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return built_app(
        {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "news.sqlite3"),
            "STREAMS": 6,
            "STREAM_SECONDS": 60,
        }
    )


def body_of(page: str) -> str:
    found = BODY.search(page)
    assert found, page[:2000]
    return found.group(1)


def follow(client: FlaskClient, page: str) -> tuple[Stream, str, str]:
    """The page's stream once it named the page's revision (it ends by its lifetime), the page's
    body and revision as a phone opened it."""
    shown = client.get(page).text
    address, revision = HUB.search(shown).groups()  # type: ignore[union-attr]
    stream = Stream(client, f"{address.replace('&amp;', '&')}&since={revision}")
    first = stream.next_event()
    assert first is not None and first["data"] == revision
    return stream, body_of(shown), revision


def told(stream: Stream) -> dict[str, object]:
    event = stream.next_event()
    assert event is not None and event["data"].startswith("{"), event
    news: dict[str, object] = json.loads(event["data"])
    assert news["revision"] == event["id"]
    return news


def taken_in(shown: str, news: dict[str, object]) -> str:
    """`shown` (a page's body) with what the stream told put in, as the page's script does."""
    if "whole" in news:
        return str(news["whole"])
    cut = parts.chunks(shown)
    assert news["count"] == len(cut.parts)
    changed = {int(index): html for index, html in news["parts"].items()}  # type: ignore[attr-defined]
    return parts.Chunks(cut.glue, tuple(changed.get(i, p) for i, p in enumerate(cut.parts))).text


@pytest.mark.parametrize("page", PAGES)
def test_what_the_stream_carries_put_in_place_makes_the_page_a_fetch_brings(
    app: Flask, page: str
) -> None:
    client = app.test_client()
    game_id = game_of(client, 19)
    address = f"/games/{game_id}{page}"
    stream, shown, revision = follow(client, address)
    for hand in (20, 21, 22):
        Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
        news = told(stream)
        fetched = client.get(address).text
        assert taken_in(shown, news) == body_of(fetched)
        assert news["title"] == html.unescape(TITLE.search(fetched).group(1))  # type: ignore[union-attr]
        # The display is a few lines, unmarked: whole. Hand 21 begins the scoreboard's second
        # block of rows: more than its parts changed, whole too.
        if page == "/display" or hand == 21:
            assert "whole" in news
        else:  # the scoreboard's parts that changed, on the revision told before
            assert "whole" not in news and news["base"] == revision
            assert 0 < len(news["parts"]) < len(parts.chunks(shown).parts)  # type: ignore[arg-type]
        shown, revision = body_of(fetched), str(news["revision"])


def test_a_stream_carries_no_page_the_phone_would_not_be_shown(app: Flask) -> None:
    """A phone that came in by the follow link is sent from the scoreboard to the follow page:
    its stream asked for the scoreboard names the revision alone (the scoreboard of a phone
    that records hands is not for it); so does one asked for a page that carries nothing."""
    table = with_a_pin(app.test_client())
    game_id = a_game(table, 3)
    follower = sharing_opened(app, "follow", links(table, game_id)["follow"])
    board = f"/games/{game_id}"
    revision = HUB.search(follower.get(f"{board}/follow").text).group(2)  # type: ignore[union-attr]
    streams = {
        page: Stream(follower, f"{board}/events?page={page}&since={revision}")
        for page in ("games.scoreboard", "games.follow", "hands.new", "games.index", "nonsense")
    }
    for stream in streams.values():
        first = stream.next_event()
        assert first is not None and first["data"] == revision
    Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])
    told_each = {page: stream.next_event() for page, stream in streams.items()}
    new = told_each["games.follow"]
    assert new is not None and new["data"].startswith("{")  # the follow page's body
    assert {page: event and event["data"] for page, event in told_each.items()} == {
        **{page: new["id"] for page in streams},
        "games.follow": new["data"],
    }


def test_the_followers_hear_of_a_saved_hand_once_this_process_keeps_the_game_at_it(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save keeps the game at its new revision (with the hand) before its commit wakes the
    streams: a stream woken first would draw its page from a game kept at the revision before,
    and read the whole game again (a race a busy machine loses now and then)."""
    client = app.test_client()
    game_id = game_of(client, 3)
    follow(client, f"/games/{game_id}")  # its stream makes the game a followed key
    heard_first: list[bool] = []
    recorded = kept.recorded

    def recording(game: str, before: str, revision: str, hand: Any) -> None:
        heard_first.append(push.hub().revision(push.game_key(game)) == revision)
        recorded(game, before, revision, hand)

    monkeypatch.setattr(kept, "recorded", recording)
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert heard_first == [False]

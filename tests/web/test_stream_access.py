"""A following page's stream that carries the page's body reads nothing at a revision made by
hands recorded alone, each phone told its page as it sees it; and it still ends when its phone
may no longer follow: every phone signed out, its phone signed out in another process (before
a hand recorded here or there), its link renewed (pages/events.py; the access stamp,
services/push.py). The streams without a body (`allowed`, http/stream.py) are test_push.py's."""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.pages import events
from scorekeeper.web.presenters import parts
from scorekeeper.web.services import push

from .apps import TEST_CONFIG, built_app, database_url, statements
from .helpers import GOES_OUT, STAYS_IN, Actions
from .sharing import a_game, links, opened, with_a_pin
from .streams import WITHIN, Stream

HUB = re.compile(r'data-stream="([^"]+)" data-revision="([^"]+)"')
BODY = re.compile(r'<div data-follow[^>]*>\n(.*)\n</div>\n<p class="(?:follow|table)-links"', re.S)


def pin_app(uri: str) -> Flask:
    return built_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": uri, "STREAMS": 6, "STREAM_SECONDS": 60}
    )


@pytest.fixture
def uri(tmp_path: Path) -> str:
    return database_url(tmp_path, "stream-access.sqlite3")


@pytest.fixture
def streams() -> Iterator[list[Stream]]:
    held: list[Stream] = []
    yield held
    for stream in held:
        stream.close()


def following(held: list[Stream], phone: FlaskClient, page: str, address: str) -> Stream:
    """The stream of `page` as the phone's page opens it (from `address`, which names it for
    `InTurn`), once it named the page's revision."""
    shown = phone.get(page).text
    found = HUB.search(shown)
    assert found, shown[:2000]
    hub, revision = found.groups()
    url = f"{hub.replace('&amp;', '&')}&since={revision}"
    stream = Stream(phone, url, {"REMOTE_ADDR": address})
    held.append(stream)
    first = stream.next_event()
    assert first is not None and first["data"] == revision
    return stream


class InTurn:
    """The streams' news worked out one at a time, in the order of their phones' addresses (a
    stream named later waits for the ones before): what one stream leaves for the others is then
    always there for them."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.order: list[str] = []
        self.turn = threading.Condition()
        tell = events.News.tell

        def in_turn(news: events.News, revision: str, again: bool) -> Any:
            who = news.environ.get("REMOTE_ADDR")
            with self.turn:
                self.turn.wait_for(lambda: who not in self.order or self.order[0] == who, WITHIN)
            try:
                return tell(news, revision, again)
            finally:
                with self.turn:
                    if who in self.order:
                        self.order.remove(who)
                    self.turn.notify_all()

        monkeypatch.setattr(events.News, "tell", in_turn)

    def next(self, *addresses: str) -> None:
        with self.turn:
            self.order = list(addresses)


def told(stream: Stream) -> dict[str, Any]:
    event = stream.next_event()
    assert event is not None and event["data"].startswith("{"), event
    news: dict[str, Any] = json.loads(event["data"])
    return news


def taken_in(shown: str, news: dict[str, Any]) -> str:
    """A page's body with what its stream told put in, as the page's script does."""
    if "whole" in news:
        return str(news["whole"])
    cut = parts.chunks(shown)
    changed = {int(index): html for index, html in news["parts"].items()}
    return parts.Chunks(cut.glue, tuple(changed.get(i, p) for i, p in enumerate(cut.parts))).text


def body(phone: FlaskClient, page: str) -> str:
    found = BODY.search(phone.get(page).text)
    assert found
    return found.group(1)


def refused(stream: Stream) -> bool:
    event = stream.next_event()
    return event is not None and event.get("event") == "refused" and stream.ended()


def test_a_hand_reaches_each_following_page_as_its_phone_sees_it_without_a_statement(
    uri: str, streams: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table (its PIN), a phone with the join link (no control that needs the PIN) and one
    with the follow link: at a hand recorded, none of their streams reads anything, and each
    page taken in is the page a fetch brings that phone (the hand that ends the game changes
    what the table may do there alone). Then every phone is signed out: every stream ends."""
    app = pin_app(uri)
    turns = InTurn(monkeypatch)
    table = with_a_pin(app.test_client())
    game_id = a_game(table, 3)  # over at the second hand: what the table may do changes
    tokens = links(table, game_id)
    joined, watching = opened(app, "join", tokens["join"]), opened(app, "follow", tokens["follow"])
    board = f"/games/{game_id}"
    pages = {
        "10.0.0.1": (table, board),
        "10.0.0.2": (joined, board),
        "10.0.0.3": (watching, f"{board}/follow"),
    }
    shown = {address: body(phone, page) for address, (phone, page) in pages.items()}
    held = {address: following(streams, *pages[address], address) for address in pages}
    for _ in range(2):  # the first hand is the first the process reads the access stamp at;
        # the second ends the game: the table's page (its "Play again") changes, not the others'
        turns.next(*pages)
        with ExitStack() as counting:
            seen = {
                address: counting.enter_context(statements(app, thread=stream.reader.ident))
                for address, stream in held.items()
            }
            Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])
            news = {address: told(stream) for address, stream in held.items()}
        assert {address: len(found) for address, found in seen.items()} == dict.fromkeys(pages, 0)
        for address, (phone, page) in pages.items():
            shown[address] = taken_in(shown[address], news[address])
            assert shown[address] == body(phone, page), address
    # Every phone signed out, the table's too (its session names a new phone): each ends.
    assert table.post("/settings/pin/sign-out-everyone").status_code == 302
    assert all(refused(stream) for stream in held.values())


def carried(phone: FlaskClient, to: Flask) -> FlaskClient:
    """The same phone (its session) asking another process, `to`."""
    cookie = phone.get_cookie("session")
    assert cookie is not None
    there = to.test_client()
    there.set_cookie("session", cookie.value)
    return there


def signed_out_elsewhere(elsewhere: Flask, phone: FlaskClient) -> None:
    """`phone` signed out through another process."""
    assert carried(phone, elsewhere).post("/pin/forget").status_code == 302


@pytest.mark.parametrize("known", [True, False], ids=["stamp known", "no stamp read yet"])
def test_a_phone_signed_out_in_another_process_hears_no_hand_recorded_here_after(
    uri: str, streams: list[Stream], monkeypatch: pytest.MonkeyPatch, known: bool
) -> None:
    """On SQLite no notice comes from the other process, and the watcher is kept away here: the
    hand's write reads the access stamp with the game it locks, and the stream, checked at
    another stamp, asks again: whether this process read one before (a stamp that changes
    wakes the streams) or not (each compares it with its own). (On PostgreSQL the notice may
    end the stream first.)"""
    monkeypatch.setattr(push, "WATCH_EVERY", 3600.0)
    app, elsewhere = pin_app(uri), pin_app(uri)
    table = carried(with_a_pin(elsewhere.test_client()), app)  # no stamp told here
    game_id = a_game(table, 3)
    watching = opened(app, "follow", links(table, game_id)["follow"])
    stream = following(streams, watching, f"/games/{game_id}/follow", "10.0.0.3")
    if known:
        Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])  # the stamp read here
        told(stream)
    signed_out_elsewhere(elsewhere, watching)
    Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert refused(stream)


def two_streams(
    app: Flask, streams: list[Stream]
) -> tuple[FlaskClient, str, FlaskClient, Stream, Stream]:
    """The table (its PIN) with a game on its scoreboard, and a phone with the follow link on
    the follow page: the phones, the game and their streams (`InTurn`: the table's first)."""
    table = with_a_pin(app.test_client())
    game_id = a_game(table, 3)
    watching = opened(app, "follow", links(table, game_id)["follow"])
    board = following(streams, table, f"/games/{game_id}", "10.0.0.1")
    follow = following(streams, watching, f"/games/{game_id}/follow", "10.0.0.3")
    return table, game_id, watching, board, follow


def test_a_phone_signed_out_in_another_process_hears_no_hand_recorded_there(
    uri: str, streams: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The watcher reads the access stamp after the revisions it reads: the table's stream draws
    the hand's page first (this process keeps the game at it then), and the signed-out phone's,
    checked at another stamp, asks again."""
    app, elsewhere = pin_app(uri), pin_app(uri)
    turns = InTurn(monkeypatch)
    table, game_id, watching, board, follow = two_streams(app, streams)
    turns.next("10.0.0.1", "10.0.0.3")
    Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])  # this process reads the stamp
    told(board), told(follow)
    signed_out_elsewhere(elsewhere, watching)
    turns.next("10.0.0.1", "10.0.0.3")
    Actions(carried(table, elsewhere)).record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert refused(follow)
    state = table.get(f"/games/{game_id}/state.json").json
    assert state is not None and told(board)["revision"] == state["revision"]


def test_a_renewed_link_ends_the_stream_of_a_page_that_carries_its_body(
    uri: str, streams: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A renewed link gives the game a revision no hand derives: the table's stream draws its
    page first (this process keeps the game at it), and the follow link's, whose access was
    checked at the old link, asks again."""
    app = pin_app(uri)
    turns = InTurn(monkeypatch)
    table, game_id, _, board, follow = two_streams(app, streams)
    turns.next("10.0.0.1", "10.0.0.3")
    assert table.post(f"/games/{game_id}/share/renew").status_code == 302
    told(board)
    assert refused(follow)


def test_the_streams_that_see_a_page_alike_work_its_news_out_once(
    uri: str, streams: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three phones on the scoreboard of a table without a PIN: at a hand, the first stream that
    works the news out does so only once the two others came to wait for it (or, were they not
    made to wait, worked it out too), and they take it."""
    app = pin_app(uri)
    phones = [app.test_client() for _ in range(3)]
    game_id = a_game(phones[0], 3)
    board = f"/games/{game_id}"
    held = [following(streams, phone, board, f"10.0.0.{n}") for n, phone in enumerate(phones)]
    arrived = threading.Condition()
    waiting: list[str] = []
    worked_out: list[str] = []
    one_at_a_time, told_for = events.one_at_a_time, events.News._told

    @contextmanager
    def counted(shared: dict[Any, Any], key: Any) -> Iterator[None]:
        with arrived:
            waiting.append("came")
            arrived.notify_all()
        with one_at_a_time(shared, key):
            yield

    def working_out(news: events.News, given: Any) -> Any:
        with arrived:
            worked_out.append(str(news.environ["REMOTE_ADDR"]))
            arrived.notify_all()
            arrived.wait_for(lambda: len(waiting) + len(worked_out) > len(held), WITHIN)
        return told_for(news, given)

    monkeypatch.setattr(events, "one_at_a_time", counted)
    Actions(phones[0]).record_hand(game_id, [GOES_OUT, STAYS_IN])  # the stamp read here
    news = [told(stream) for stream in held]
    waiting.clear()
    worked_out.clear()
    monkeypatch.setattr(events.News, "_told", working_out)
    Actions(phones[0]).record_hand(game_id, [GOES_OUT, STAYS_IN])
    again = [told(stream) for stream in held]
    assert (len(waiting), len(worked_out)) == (3, 1), (waiting, worked_out)
    assert again[0] == again[1] == again[2] and again[0]["revision"] != news[0]["revision"]


def test_the_watcher_reads_the_followed_games_then_the_access_stamp_two_statements_a_look(
    uri: str,
) -> None:
    app = pin_app(uri)
    table = app.test_client()
    games = [a_game(table) for _ in range(3)]
    hub = push.hub_of(app)
    with ExitStack() as following_them:
        for game_id in games:
            following_them.enter_context(hub.watching(push.game_key(game_id), "before"))
        with app.app_context(), statements(app) as seen:
            hub.look()
        assert len([read for read in seen if read != "BEGIN"]) == 2, seen  # SQLite's BEGINs
        assert hub.stamp is None  # no one changed who may follow yet: no stamp
        assert "before" not in hub.followed().values()
    with_a_pin(table)  # a PIN set: the stamp written
    assert hub.stamp is not None

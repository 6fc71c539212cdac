"""A following page's event stream: the game's revision at once and at each change, told by the
saving process at once, by PostgreSQL's NOTIFY across processes and by the watcher otherwise;
the end of a deleted game; an end when the phone may no longer follow; a cap, over which the
page polls."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from scorekeeper.web.extensions import db
from scorekeeper.web.http import stream as event_stream
from scorekeeper.web.services import push

from .apps import TEST_CONFIG, built_app, database_url
from .helpers import GOES_OUT, STAYS_IN, Actions, hidden
from .sharing import with_a_pin
from .streams import ENDS_WITHIN, WITHIN, Stream


def streaming_app(tmp_path: Path, stream_seconds: int = 60) -> Flask:
    """An app holding up to 3 streams that last from half of `stream_seconds` to all of it
    (long enough that no test's stream ends by its lifetime but the lifetime's test), on a
    database file other apps may share."""
    return built_app(
        {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "push.sqlite3"),
            "STREAMS": 3,
            "STREAM_SECONDS": stream_seconds,
        }
    )


@pytest.fixture
def streaming(tmp_path: Path) -> Iterator[Flask]:
    yield streaming_app(tmp_path)


@pytest.fixture
def opened() -> Iterator[list[Stream]]:
    streams: list[Stream] = []
    yield streams
    for stream in streams:
        stream.close()


def open_stream(
    opened: list[Stream],
    client: FlaskClient,
    game_id: str,
    environ: dict[str, Any] | None = None,
    **headers: str,
) -> Stream:
    found = Stream(client, f"/games/{game_id}/events", environ, **headers)
    opened.append(found)
    return found


def places_taken(app: Flask) -> int:
    """The streams the app holds a place for."""
    return int(app.extensions[event_stream.EXTENSION].open)


def revision_of(client: FlaskClient, game_id: str) -> str:
    state = client.get(f"/games/{game_id}/state.json").json
    assert state is not None
    return str(state["revision"])


def test_a_stream_names_the_revision_at_once_then_each_new_one(
    streaming: Flask, opened: list[Stream]
) -> None:
    client, phone = streaming.test_client(), streaming.test_client()
    game_id = Actions(client).new_game()
    stream = open_stream(opened, phone, game_id)
    assert stream.response.mimetype == "text/event-stream"
    assert stream.response.headers["X-Accel-Buffering"] == "no"
    assert stream.response.headers["Cache-Control"] == "no-store"
    first = stream.next()
    assert first is not None and 2_000 <= int(first["retry"]) <= 6_000
    assert first["id"] == first["data"] == revision_of(client, game_id)
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = stream.next_event()
    assert changed is not None and changed["data"] == revision_of(client, game_id)
    assert changed["data"] != first["data"]


def test_the_saving_process_wakes_its_streams_without_waiting_for_the_watcher(
    streaming: Flask, opened: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(push, "WATCH_EVERY", 3600.0)
    client = streaming.test_client()
    game_id = Actions(client).new_game()
    stream = open_stream(opened, streaming.test_client(), game_id)
    assert stream.next() is not None
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = stream.next_event()
    assert changed is not None and changed["data"] == revision_of(client, game_id)


def test_a_stopped_app_ends_its_streams_at_once(streaming: Flask, opened: list[Stream]) -> None:
    """A test's app is stopped before its database goes: a stream left open would wake to draw
    its page from a database that is gone (it failed a later test on PostgreSQL)."""
    client = streaming.test_client()
    game_id = Actions(client).new_game()
    stream = open_stream(opened, streaming.test_client(), game_id)
    assert stream.next() is not None
    push.stop(streaming)
    assert stream.ended()


def test_a_write_of_another_process_reaches_the_stream(
    streaming: Flask, opened: list[Stream]
) -> None:
    """The watcher reads the followed revisions once a second (on PostgreSQL NOTIFY comes too)."""
    elsewhere = built_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": streaming.config["SQLALCHEMY_DATABASE_URI"]}
    )
    game_id = Actions(elsewhere.test_client()).new_game()
    stream = open_stream(opened, streaming.test_client(), game_id)
    assert stream.next() is not None
    Actions(elsewhere.test_client()).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = stream.next_event()
    assert changed is not None and changed["data"] == revision_of(elsewhere.test_client(), game_id)


def test_a_stopped_app_s_watcher_and_listener_end(streaming: Flask, opened: list[Stream]) -> None:
    game_id = Actions(streaming.test_client()).new_game()
    assert open_stream(opened, streaming.test_client(), game_id).next() is not None
    with streaming.app_context():
        hub = push.hub()
    assert "push-watcher" in {thread.name for thread in hub.threads}  # and on PostgreSQL LISTEN
    push.stop(streaming)
    for thread in hub.threads:
        thread.join(WITHIN)
        assert not thread.is_alive(), thread.name


def test_a_deleted_game_ends_its_stream(streaming: Flask, opened: list[Stream]) -> None:
    client = streaming.test_client()
    game_id = Actions(client).new_game()
    stream = open_stream(opened, streaming.test_client(), game_id)
    assert stream.next() is not None
    assert client.post(f"/games/{game_id}/delete").status_code == 302
    gone = stream.next_event()
    assert gone is not None and gone["event"] == "gone"
    assert stream.ended()


class CommitRefused(Exception):
    """What the database answers a commit when its disk is full."""


@contextmanager
def next_commit_refused(app: Flask) -> Iterator[None]:
    """The database refuses the next commit of this thread, after every statement of its
    transaction ran (the hand and the game's new revision written, then undone)."""
    engine, thread, refused = _engine(app), threading.get_ident(), []

    def refuse(_connection: Any) -> None:
        if threading.get_ident() == thread and not refused:
            refused.append(True)
            raise CommitRefused("disk full")

    event.listen(engine, "commit", refuse)
    try:
        yield
    finally:
        event.remove(engine, "commit", refuse)
    assert refused, "no commit was refused"


def _engine(app: Flask) -> Any:
    with app.app_context():
        return db.engine


def test_a_write_rolled_back_tells_no_one(streaming: Flask, opened: list[Stream]) -> None:
    client = streaming.test_client()
    game_id = Actions(client).new_game()
    stream = open_stream(opened, streaming.test_client(), game_id)
    first = stream.next()
    assert first is not None
    with next_commit_refused(streaming), pytest.raises(CommitRefused):
        Actions(client).post_hand(game_id, [GOES_OUT, STAYS_IN])
    assert revision_of(client, game_id) == first["data"]  # nothing of the hand was kept
    with streaming.app_context():
        assert push.hub().followed() == {push.game_key(game_id): first["data"]}
    # The next event the stream names is the next hand kept, not the one undone.
    Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = stream.next_event()
    assert changed is not None and changed["data"] == revision_of(client, game_id)
    assert len(Actions(client).hand_ids(game_id)) == 1


def test_a_stream_ends_after_its_lifetime_and_gives_back_its_place(
    tmp_path: Path, opened: list[Stream]
) -> None:
    app = streaming_app(tmp_path, stream_seconds=2)
    game_id = Actions(app.test_client()).new_game()
    streams = [open_stream(opened, app.test_client(), game_id) for _ in range(3)]
    over = open_stream(opened, app.test_client(), game_id)
    assert over.response.status_code == 204  # over the cap: the page polls
    assert all(stream.next() is not None for stream in streams)  # the revision, at once
    # Next, within its lifetime (1-2 s, against a heartbeat of 15), each ends.
    assert all(stream.ended(2 + ENDS_WITHIN) for stream in streams)
    again = open_stream(opened, app.test_client(), game_id)
    assert again.response.status_code == 200
    with app.app_context():
        assert list(push.hub().followed()) == [push.game_key(game_id)]


def test_a_stream_whose_phone_left_gives_back_its_place_at_its_next_heartbeat(
    streaming: Flask, opened: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    """As waitress tells (`waitress.client_disconnected`) that the phone closed its connection:
    the stream asks at its next wake, and ends without writing."""
    monkeypatch.setattr(event_stream, "HEARTBEAT", 0.2)
    game_id = Actions(streaming.test_client()).new_game()
    left = threading.Event()
    phone = open_stream(
        opened, streaming.test_client(), game_id, {"waitress.client_disconnected": left.is_set}
    )
    assert phone.next() is not None
    # A heartbeat while the phone is there: an event, which a page sees (a comment it would not).
    assert phone.next() == {"event": "beat", "data": "beat"}
    left.set()
    assert phone.ended()
    assert places_taken(streaming) == 0


def test_a_head_of_a_stream_holds_no_place(streaming: Flask, opened: list[Stream]) -> None:
    """werkzeug answers a HEAD without asking the stream for a first event: its place is given
    back when the answer is closed (a generator that never began runs no `finally`)."""
    client = streaming.test_client()
    game_id = Actions(client).new_game()
    for _ in range(4):  # more than the cap of 3
        assert client.head(f"/games/{game_id}/events").status_code == 200
    assert places_taken(streaming) == 0
    assert open_stream(opened, client, game_id).response.status_code == 200


def test_without_streams_allowed_the_stream_is_answered_204(
    client: FlaskClient, actions: Actions
) -> None:
    """Under a WSGI server that was not told it can hold streams (gunicorn's sync workers
    cannot): the page polls."""
    game_id = actions.new_game()
    assert client.get(f"/games/{game_id}/events").status_code == 204


def pin_app(tmp_path: Path) -> Flask:
    return built_app(
        {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "pin.sqlite3"),
            "STREAMS": 3,
            "STREAM_SECONDS": 60,
        }
    )


def table_with_pin(app: Flask) -> tuple[FlaskClient, str]:
    """A phone that set the table's PIN on the settings page, and a game it started that
    another phone may not see without the PIN or a link."""
    table = with_a_pin(app.test_client())
    game_id = Actions(table).new_game()
    assert app.test_client().get(f"/games/{game_id}").status_code == 403
    return table, game_id


def link(table: FlaskClient, game_id: str, kind: str) -> str:
    found = re.search(rf"(/{kind}/[\w-]+)", table.get(f"/games/{game_id}/share").text)
    assert found, f"no {kind} link on the share page"
    return found.group(1)


def test_a_stream_is_only_for_a_phone_that_may_follow_the_game(tmp_path: Path) -> None:
    app = pin_app(tmp_path)
    _, game_id = table_with_pin(app)
    stranger = app.test_client()
    assert stranger.get(f"/games/{game_id}/events").status_code == 403


def test_a_renewed_link_ends_its_stream(tmp_path: Path, opened: list[Stream]) -> None:
    app = pin_app(tmp_path)
    table, game_id = table_with_pin(app)
    follower = app.test_client()
    follower.get(link(table, game_id, "follow"))
    stream = open_stream(opened, follower, game_id)
    assert stream.next() is not None
    Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = stream.next_event()
    assert changed is not None and "event" not in changed  # still allowed: a new revision
    assert table.post(f"/games/{game_id}/share/renew").status_code == 302
    refused = stream.next_event()
    assert refused is not None and refused["event"] == "refused"
    assert stream.ended()
    assert follower.get(f"/games/{game_id}/events").status_code == 403


def test_a_new_pin_ends_the_stream_of_a_phone_that_entered_the_old_one(
    tmp_path: Path, opened: list[Stream]
) -> None:
    app = pin_app(tmp_path)
    table, game_id = table_with_pin(app)
    other = app.test_client()
    assert other.post("/pin", data={"pin": "2468"}).status_code == 302
    stream = open_stream(opened, other, game_id)
    assert stream.next() is not None
    changed = table.post("/settings/pin", data={"current": "2468", "new": "1357", "again": "1357"})
    assert changed.status_code == 302, changed.text
    refused = stream.next_event()
    assert refused is not None and refused["event"] == "refused"
    assert stream.ended()


def test_signing_a_phone_out_ends_its_stream_and_no_other(
    tmp_path: Path, opened: list[Stream]
) -> None:
    app = pin_app(tmp_path)
    table, game_id = table_with_pin(app)
    follower, other = app.test_client(), app.test_client()
    follower.get(link(table, game_id, "follow"))
    assert other.post("/pin", data={"pin": "2468"}).status_code == 302
    leaving, staying = open_stream(opened, follower, game_id), open_stream(opened, other, game_id)
    assert leaving.next() is not None and staying.next() is not None
    assert follower.post("/pin/forget").status_code == 302
    refused = leaving.next_event()
    assert refused is not None and refused["event"] == "refused"
    assert leaving.ended()
    Actions(table).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = staying.next_event()
    assert changed is not None and changed["data"] == revision_of(table, game_id)


def test_signing_every_other_phone_out_ends_their_streams(
    tmp_path: Path, opened: list[Stream]
) -> None:
    app = pin_app(tmp_path)
    table, game_id = table_with_pin(app)
    joined, other = app.test_client(), app.test_client()
    joined.get(link(table, game_id, "join"))
    assert other.post("/pin", data={"pin": "2468"}).status_code == 302
    streams = [open_stream(opened, phone, game_id) for phone in (joined, other)]
    assert all(stream.next() is not None for stream in streams)
    assert table.post("/settings/pin/sign-out-everyone").status_code == 302
    for stream in streams:
        refused = stream.next_event()
        assert refused is not None and refused["event"] == "refused"
        assert stream.ended()
    assert other.get(f"/games/{game_id}/events").status_code == 403


def test_a_copy_of_a_signed_out_cookie_opens_no_stream(tmp_path: Path) -> None:
    app = pin_app(tmp_path)
    _, game_id = table_with_pin(app)
    phone = app.test_client()
    assert phone.post("/pin", data={"pin": "2468"}).status_code == 302
    cookie = phone.get_cookie("session")
    assert cookie is not None
    copy = app.test_client()
    copy.set_cookie("session", cookie.value)
    assert phone.post("/pin/forget").status_code == 302
    assert copy.get(f"/games/{game_id}/events").status_code == 403


def play_again(table: FlaskClient, game_id: str) -> str:
    """The table's phone taps "Play again" on the game's scoreboard; the new game's id."""
    page = table.get(f"/games/{game_id}").text
    again = table.post(f"/games/{game_id}/again", data={"token": hidden(page, "token")})
    assert again.status_code == 302
    return str(again.headers["Location"]).removeprefix("/games/")


def next_of(client: FlaskClient, path: str) -> str | None:
    """Where the following page at `path` sends this phone once the table played again."""
    response = client.get(path)
    assert response.status_code == 200, (path, response.status_code)
    found = re.search(r'<div id="following"[^>]*data-next="([^"]*)"', response.text)
    return found.group(1).replace("&amp;", "&") if found else None


def test_playing_again_sends_each_phone_to_the_new_game_by_its_own_way_in(
    tmp_path: Path, opened: list[Stream]
) -> None:
    app = pin_app(tmp_path)
    table, old = table_with_pin(app)
    joined, follower = app.test_client(), app.test_client()
    joined.get(link(table, old, "join"))
    follower.get(link(table, old, "follow"))
    stream = open_stream(opened, follower, old)
    first = stream.next()
    assert first is not None
    assert next_of(joined, f"/games/{old}") is None  # still played
    new = play_again(table, old)
    told = stream.next_event()  # the old game moved on: its page is fetched again
    assert told is not None and "event" not in told and told["data"] != first["data"]
    join_new, follow_new = link(table, new, "join"), link(table, new, "follow")
    # Each phone goes on the way it came in, to the kind of page it was on.
    assert next_of(joined, f"/games/{old}") == join_new
    assert next_of(joined, f"/games/{old}/display") == f"{join_new}?to=display"
    assert next_of(follower, f"/games/{old}/follow") == f"{follow_new}?to=follow"
    assert next_of(follower, f"/games/{old}/display") == f"{follow_new}?to=display"
    assert next_of(table, f"/games/{old}/display") == f"/games/{new}/display"
    assert next_of(table, f"/games/{old}") == f"/games/{new}"
    # The hand form's phone learns it from the state it follows.
    state = joined.get(f"/games/{old}/state.json").json
    assert state is not None and state["next"] == join_new
    # The links let them in at the level they had: the joined phone may record hands.
    landed = joined.get(join_new)
    assert landed.headers["Location"] == f"/games/{new}"
    assert joined.get(f"/games/{new}/hands/new").status_code == 200
    shown = follower.get(f"{follow_new}?to=display")
    assert shown.headers["Location"] == f"/games/{new}/display"
    assert follower.get(f"/games/{new}/display").status_code == 200
    assert follower.get(f"/games/{new}/hands/new").status_code == 403
    # A stranger learns nothing of the new game from the old one.
    assert app.test_client().get(f"/games/{old}").status_code == 403


def test_without_a_pin_the_old_game_names_the_new_one_and_says_so_without_script(
    client: FlaskClient, actions: Actions
) -> None:
    old = actions.new_game()
    new = play_again(client, old)
    assert next_of(client, f"/games/{old}/follow") == f"/games/{new}/follow"
    page = client.get(f"/games/{old}").text
    assert f'<a class="button" href="/games/{new}">This table plays on' in page
    assert next_of(client, f"/games/{new}") is None


def test_the_old_game_names_no_new_game_that_was_deleted(
    client: FlaskClient, actions: Actions
) -> None:
    old = actions.new_game()
    new = play_again(client, old)
    assert client.post(f"/games/{new}/delete").status_code == 302
    assert next_of(client, f"/games/{old}") is None


def test_every_following_page_names_its_stream_and_revision(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    hand = re.search(r'<tr id="hand-(\d+)">', actions.scoreboard(game_id))
    assert hand
    revision = revision_of(client, game_id)
    for page, endpoint in (
        ("", "games.scoreboard"),
        ("/follow", "games.follow"),
        ("/display", "games.display"),
        (f"/hands/{hand.group(1)}", "hands.show"),
        ("/hands/new", "hands.new"),
    ):
        text = client.get(f"/games/{game_id}{page}").text
        # The stream is told which page it follows: it may carry the page's body (events.py).
        assert f'data-stream="/games/{game_id}/events?page={endpoint}"' in text, page
        assert f'data-revision="{revision}"' in text, page


def test_a_waiter_wakes_for_its_own_key_only() -> None:
    hub = push.Hub()
    with hub.watching("game:a", "1"), hub.watching("game:b", "1"):
        hub.tell("game:b", "2")
        assert hub.wait("game:a", "1", hub.access, 0.01) == ("1", 0)
        hub.heard("game:a 3")
        assert hub.wait("game:a", "1", hub.access, 0.01) == ("3", 0)
        hub.heard("game:a")
        assert hub.revision("game:a") == push.GONE
        hub.heard("*")
        assert hub.wait("game:b", "2", 0, 0.01) == ("2", 1)
    assert hub.followed() == {}


def test_on_postgresql_another_process_is_told_by_notify(
    postgresql_url: str, opened: list[Stream], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two apps (two server processes) on one PostgreSQL: a hand saved by one reaches the
    other's stream by LISTEN/NOTIFY, with the watcher out of the way."""
    monkeypatch.setattr(push, "WATCH_EVERY", 3600.0)
    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": postgresql_url, "STREAMS": 2}
    here, there = built_app({**config, "STREAM_SECONDS": 30}), built_app(config)
    game_id = Actions(there.test_client()).new_game()
    stream = open_stream(opened, here.test_client(), game_id)
    assert stream.next() is not None
    with here.app_context():
        listening = wait_for(lambda: _listening(here))
    assert listening, "no LISTEN on the server"
    Actions(there.test_client()).record_hand(game_id, [GOES_OUT, STAYS_IN])
    changed = stream.next_event()
    assert changed is not None and changed["data"] == revision_of(there.test_client(), game_id)
    with here.app_context():
        hub = push.hub()
    assert {thread.name for thread in hub.threads} == {"push-watcher", "push-listener"}
    push.stop(here)  # a test's app is done: its database goes next (tests/web/apps.py)
    for thread in hub.threads:
        thread.join(WITHIN)
        assert not thread.is_alive(), thread.name


def _listening(app: Flask) -> bool:
    from sqlalchemy import text

    query = "SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN %'"
    with db.engine.connect() as connection:
        return bool(connection.scalar(text(query)))


def wait_for(condition: Any, timeout: float = WITHIN) -> bool:
    """Whether `condition()` holds within `timeout` seconds (asked every 50 ms)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return bool(condition())

"""Every live page follows the game by its event stream: another phone's hand is on screen within
a second (within three when the server refuses streams and the page polls), a page put away
holds no stream, a renewed link's stream ends. Each phone is a browser context of its own."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect
from werkzeug.serving import make_server

from scorekeeper.web.http import stream
from tests.web.conftest import _built

from .conftest import new_page
from .pages import correct_first_hand, game_file, hand_paths, import_game
from .test_following import HIDE, Phones, totals_on

AT_ONCE = 1_000  # ms: with streams, a hand saved elsewhere is on screen within a second
POLLED = 3_000  # ms: with streams refused, the 2 s poll's


class Served:
    """The app served on 127.0.0.1 (werkzeug, a thread per connection), and the app itself."""

    def __init__(self, tmp_path: Path, streams: int) -> None:
        self.app: Flask = _built(
            {
                "SECRET_KEY": "browser-tests",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'games.sqlite3'}",
                "STREAMS": streams,
            }
        )
        self.http = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.thread = threading.Thread(target=self.http.serve_forever, daemon=True)
        self.thread.start()
        self.url = f"http://127.0.0.1:{self.http.server_port}"

    def streams_open(self) -> int:
        return int(self.app.extensions[stream.EXTENSION].open)

    def stop(self) -> None:
        self.http.shutdown()
        self.thread.join(timeout=5)


@pytest.fixture
def streaming(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Served]:
    # A heartbeat every 0.3 s: the server notices a closed stream at its next heartbeat, so that
    # a test sees its place given back at once.
    monkeypatch.setattr(stream, "HEARTBEAT", 0.3)
    served = Served(tmp_path, streams=20)
    yield served
    served.stop()


@pytest.fixture
def polling(tmp_path: Path) -> Iterator[Served]:
    served = Served(tmp_path, streams=0)
    yield served
    served.stop()


@pytest.fixture
def streamed_table(browser: Any, streaming: Served) -> Iterator[Phones]:
    table = Phones(browser, streaming.url)
    yield table
    table.close()


@pytest.fixture
def polled_table(browser: Any, polling: Served) -> Iterator[Phones]:
    table = Phones(browser, polling.url)
    yield table
    table.close()


def streaming_on(page: Any) -> None:
    """Wait until the page's stream has told it the revision (the page then polls no more)."""
    page.wait_for_selector("#live[data-by=stream]", state="attached")


def every_live_page_sees_a_hand_saved_elsewhere(phones: Phones, within: int) -> None:
    hand = hand_paths(phones.recorder, phones.server, phones.game)[0]
    watchers = {suffix: phones.watching(suffix) for suffix in ("", "/follow", "/table")}
    hand_page = phones.watching(hand.removeprefix(phones.game))
    form = phones.watching("/hands/new")
    loads = {suffix: 0 for suffix in watchers}
    for suffix, page in watchers.items():
        page.on("load", lambda _event, suffix=suffix: loads.__setitem__(suffix, 1))
    totals = phones.record_a_hand()
    for page in watchers.values():
        expect(totals_on(page)).to_have_text(totals, timeout=within)
    # The other phones are told what the hand did, big enough to read across the table.
    for suffix in ("", "/follow"):
        expect(watchers[suffix].locator("[data-announce]")).to_be_visible(timeout=within)
        expect(watchers[suffix].locator("[data-announce]")).to_contain_text("Hand 3: Us")
    expect(form.locator("#elsewhere")).to_contain_text("Hand 3 was just recorded", timeout=within)
    correct_first_hand(phones.recorder, phones.server, phones.game)
    expect(hand_page.locator(".corrections")).to_contain_text("corrected", timeout=within)
    assert loads == {suffix: 0 for suffix in watchers}  # none of them reloaded


def test_with_streams_every_live_page_sees_another_phones_hand_within_a_second(
    streamed_table: Phones, streaming: Served
) -> None:
    every_live_page_sees_a_hand_saved_elsewhere(streamed_table, AT_ONCE)
    assert streaming.streams_open() >= 5  # they were told by their streams


def test_with_streams_refused_every_live_page_polls_and_sees_it_within_three_seconds(
    polled_table: Phones, polling: Served
) -> None:
    every_live_page_sees_a_hand_saved_elsewhere(polled_table, POLLED)
    assert polling.streams_open() == 0


def test_a_page_put_away_holds_no_stream_and_catches_up_when_shown(
    streamed_table: Phones, streaming: Served
) -> None:
    page = streamed_table.watching("/follow")
    streaming_on(page)
    expect_streams(streaming, 1)
    page.evaluate(HIDE, True)
    expect_streams(streaming, 0)
    totals = streamed_table.record_a_hand()
    page.evaluate(HIDE, False)
    expect(totals_on(page)).to_have_text(totals, timeout=AT_ONCE)
    expect_streams(streaming, 2)  # its own again, and the recording phone's scoreboard's


def expect_streams(served: Served, count: int, timeout: float = 5.0) -> None:
    """Wait (on the server's own count) until it holds `count` streams."""
    import time

    deadline = time.monotonic() + timeout
    while served.streams_open() != count and time.monotonic() < deadline:
        time.sleep(0.05)
    assert served.streams_open() == count


def test_a_renewed_link_ends_the_stream_of_a_phone_that_followed_by_it(
    browser: Any, streaming: Served
) -> None:
    table = new_page(browser)
    table.goto(streaming.url + "/settings/pin")
    table.locator("#new").fill("2468")
    table.locator("#again").fill("2468")
    with table.expect_navigation():
        table.locator("main form button[type=submit]").first.click()
    game = import_game(table, streaming.url, game_file())
    table.goto(streaming.url + game + "/share")
    follow_link = table.locator("a[href*='/follow/']").first.get_attribute("href")
    follower = new_page(browser)
    follower.goto(follow_link if follow_link.startswith("http") else streaming.url + follow_link)
    streaming_on(follower)
    expect_streams(streaming, 1)
    with table.expect_navigation():
        table.locator(f"form[action='{game}/share/renew'] button").click()
    # The stream ends, and the page says how to get in again.
    expect_streams(streaming, 0)
    expect(follower.get_by_role("heading", level=1)).not_to_contain_text("Us", timeout=AT_ONCE * 3)
    expect(follower.locator("main")).to_contain_text("PIN")
    table.context.close()
    follower.context.close()

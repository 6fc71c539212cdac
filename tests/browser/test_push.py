"""Every following page follows the game by its event stream: another phone's hand is on screen with
the page's clock stopped, so that no poll can have brought it (with streams refused, by the
page's next poll), a page put away holds no stream, a renewed link's stream ends, and "Play
again" takes every phone of the table to the new game (a hand form with a hand typed in offers
it and keeps what is typed). Each phone is a browser context of its
own."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from playwright.sync_api import expect

from scorekeeper.web.http import stream
from tests.web.apps import built_app

from .helpers import (
    EVERY,
    HIDE,
    PATIENCE,
    STOPPED_WITHIN,
    Phones,
    http_server,
    new_page,
    totals_on,
    type_a_hand,
)
from .pages import correct_first_hand, finished_game_file, game_file, hand_paths, import_game


class Served:
    """The app served on 127.0.0.1 (werkzeug, a thread per connection), the app itself, and
    each address it was asked for, counted as the server answered it (`asked`)."""

    def __init__(self, tmp_path: Path, streams: int) -> None:
        self.app: Flask = built_app(
            {
                "SECRET_KEY": "browser-tests",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'games.sqlite3'}",
                "STREAMS": streams,
            }
        )
        self.asked: Counter[str] = Counter()
        wsgi_app = self.app.wsgi_app

        def counted(environ: dict[str, Any], start_response: Any) -> Any:
            self.asked[environ.get("PATH_INFO", "")] += 1
            return wsgi_app(environ, start_response)

        self.app.wsgi_app = counted  # type: ignore[method-assign]
        self.http = http_server(self.app)
        self.thread = threading.Thread(
            target=self.http.serve_forever, args=(STOPPED_WITHIN,), daemon=True
        )
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
    # Every phone here comes from one address, whose streams hold a quarter of the cap: 40 holds
    # a table's seven pages and the new stream each opens when its clock is stopped, before the
    # server has given the old one's place back (a page refused a stream would poll, and a
    # stopped clock never polls).
    served = Served(tmp_path, streams=40)
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
    page.wait_for_selector("#following[data-by=stream]", state="attached")


def polling_on(page: Any) -> None:
    """Wait until the page, its stream refused (204), has gone back to polling."""
    page.wait_for_selector("#following[data-by=poll]", state="attached")


def stop_the_clock(page: Any) -> None:
    """Stop the page's clock (Playwright's, `Phones.watching`): no timer of the page runs from
    now on, so no poll either; what it shows next was brought by its stream."""
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)


def every_following_page_sees_a_hand_saved_elsewhere(phones: Phones, *, streamed: bool) -> None:
    hand = hand_paths(phones.recorder, phones.server, phones.game)[0]
    watchers = {suffix: phones.watching(suffix) for suffix in ("", "/follow", "/display")}
    hand_page = phones.watching(hand.removeprefix(phones.game))
    form = phones.watching("/hands/new")
    every_page = [*watchers.values(), hand_page, form]
    for page in every_page:
        if streamed:
            streaming_on(page)
            stop_the_clock(page)
        else:
            polling_on(page)
    loads = {suffix: 0 for suffix in watchers}
    for suffix, page in watchers.items():
        page.on("load", lambda _event, suffix=suffix: loads.__setitem__(suffix, 1))
    totals = phones.record_a_hand()
    if not streamed:
        for page in every_page:
            page.clock.run_for(EVERY)  # the next poll
    for page in watchers.values():
        expect(totals_on(page)).to_have_text(totals)
    # The other phones are told what the hand did, big enough to read across the table.
    for suffix in ("", "/follow"):
        expect(watchers[suffix].locator("[data-announce]")).to_be_visible()
        expect(watchers[suffix].locator("[data-announce]")).to_contain_text("Hand 3: Us")
    expect(form.locator("#elsewhere")).to_contain_text("Hand 3 was just recorded")
    correct_first_hand(phones.recorder, phones.server, phones.game)
    if not streamed:
        hand_page.clock.run_for(EVERY)
    expect(hand_page.locator(".corrections")).to_contain_text("corrected")
    assert loads == {suffix: 0 for suffix in watchers}  # none of them reloaded


def test_with_streams_every_following_page_sees_another_phones_hand_with_no_poll(
    streamed_table: Phones, streaming: Served
) -> None:
    every_following_page_sees_a_hand_saved_elsewhere(streamed_table, streamed=True)
    assert streaming.streams_open() >= 5  # they were told by their streams


def test_a_following_page_shows_the_new_hand_its_stream_carried_without_asking_the_server(
    streamed_table: Phones, streaming: Served
) -> None:
    watchers = {suffix: streamed_table.watching(suffix) for suffix in ("", "/follow", "/display")}
    for page in watchers.values():
        streaming_on(page)  # its clock runs: a page that did not hear would ask
    # Pages no other phone opens: the server counts who asks for them (the recording phone asks
    # for the scoreboard); the pages' own scripts count their fetches (`window.polls`).
    pages = [streamed_table.game + suffix for suffix in ("/follow", "/display")]
    asked = {path: streaming.asked[path] for path in pages}
    fetched = {suffix: page.evaluate("window.polls.made") for suffix, page in watchers.items()}
    loads = dict.fromkeys(watchers, 0)
    for suffix, page in watchers.items():
        page.on("load", lambda _event, suffix=suffix: loads.__setitem__(suffix, 1))
    for hand in (3, 4):
        totals = streamed_table.record_a_hand()
        for suffix, page in watchers.items():
            expect(totals_on(page)).to_have_text(totals)
            if suffix != "/display":
                expect(page.locator("[data-announce]")).to_contain_text(f"Hand {hand}: Us")
                expect(page.locator(".hands tbody tr")).to_have_count(hand)
                expect(page.get_by_role("heading", name=f"Hand {hand + 1}")).to_be_visible()
    assert {path: streaming.asked[path] - asked[path] for path in pages} == dict.fromkeys(pages, 0)
    assert {suffix: page.evaluate("window.polls.made") for suffix, page in watchers.items()} == (
        fetched
    )
    assert loads == dict.fromkeys(watchers, 0)  # none of them reloaded


def test_with_streams_refused_every_following_page_sees_it_at_its_next_poll(
    polled_table: Phones, polling: Served
) -> None:
    every_following_page_sees_a_hand_saved_elsewhere(polled_table, streamed=False)
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
    expect(totals_on(page)).to_have_text(totals)
    expect_streams(streaming, 2)  # its own again, and the recording phone's scoreboard's


def expect_streams(served: Served, count: int) -> None:
    """Wait (on the server's own count) until it holds `count` streams: as long as a step may
    take (PATIENCE), however soon it does."""
    deadline = time.monotonic() + PATIENCE / 1000
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
    with table.expect_event("load"):
        table.locator("main form button[type=submit]").first.click()
    game = import_game(table, streaming.url, game_file())
    table.goto(streaming.url + game + "/share")
    follow_link = table.locator("a[href*='/follow/']").first.get_attribute("href")
    follower = new_page(browser)
    follower.goto(follow_link if follow_link.startswith("http") else streaming.url + follow_link)
    streaming_on(follower)
    expect_streams(streaming, 1)
    with table.expect_event("load"):
        table.locator(f"form[action='{game}/share/renew'] button").click()
    # The stream ends, and the page says how to get in again.
    expect_streams(streaming, 0)
    expect(follower.get_by_role("heading", level=1)).not_to_contain_text("Us")
    expect(follower.locator("main")).to_contain_text("PIN")
    table.context.close()
    follower.context.close()


def test_a_renewed_link_keeps_the_hand_typed_on_the_form_and_save_asks_for_the_pin(
    browser: Any, streaming: Served
) -> None:
    table = table_with_pin(browser, streaming)
    game = import_game(table, streaming.url, game_file())
    table.goto(streaming.url + game + "/share")
    join_link = table.locator("a[data-share=join]").get_attribute("href") or ""
    joiner = new_page(browser)
    joiner.goto(join_link)
    joiner.goto(streaming.url + game + "/hands/new")
    streaming_on(joiner)
    type_a_hand(joiner)
    joiner.evaluate("window.typedHere = true")  # gone if the page were drawn again
    expect_streams(streaming, 1)
    table.goto(streaming.url + game + "/share")
    with table.expect_event("load"):
        table.locator(f"form[action='{game}/share/renew'] button").click()
    # The form's stream ends; the page and what is typed on it stay.
    expect_streams(streaming, 0)
    assert joiner.evaluate("window.typedHere") is True
    expect(joiner.locator("#sides-0-melded_points")).to_have_value("400")
    joiner.get_by_role("button", name="Save hand", exact=True).click()
    expect(joiner.locator("h1")).to_have_text("This table has a PIN")
    expect(joiner.get_by_text("What you typed is kept")).to_be_visible()
    table.context.close()
    joiner.context.close()


def table_with_pin(browser: Any, served: Served) -> Any:
    """The table's phone, which set the PIN on the settings page."""
    table = new_page(browser)
    table.goto(served.url + "/settings/pin")
    table.locator("#new").fill("2468")
    table.locator("#again").fill("2468")
    with table.expect_event("load"):
        table.locator("main form button[type=submit]").first.click()
    return table


def play_again(table: Any, url: str, old: str) -> str:
    """Press "Play again" on the old game's scoreboard; the new game's address.

    Not `expect_navigation`: the scoreboard follows its own stream too, and when the news that
    the table played on comes before the answer to the press it goes to the new game itself, which
    ends the form's navigation (net::ERR_ABORTED) on the way to the same page.
    """
    table.goto(url + old)
    table.get_by_role("button", name="Play again").click()
    expect(table).not_to_have_url(url + old)
    table.wait_for_load_state()
    new = table.url.removeprefix(url)
    assert new != old and new.startswith("/games/")
    return new


def every_phone_goes_on_to_the_game_played_next(
    browser: Any, served: Served, *, streamed: bool
) -> None:
    table = table_with_pin(browser, served)
    old = import_game(table, served.url, finished_game_file())
    table.goto(served.url + old + "/share")
    links = {
        kind: table.locator(f"a[data-share={kind}]").get_attribute("href")
        for kind in ("join", "follow")
    }
    phones = {}
    for name, link, then in (
        ("joined", links["join"], ""),  # opens the scoreboard
        ("following", links["follow"], ""),  # opens the follow page
        ("display", links["follow"], old + "/display"),  # a tablet in the middle of the table
    ):
        phone = new_page(browser)
        phone.clock.install()
        phone.goto(link)
        if then:
            phone.goto(served.url + then)
        if streamed:
            streaming_on(phone)
            stop_the_clock(phone)  # what comes next, comes by the stream
        else:
            polling_on(phone)
        phones[name] = phone
    expect(phones["joined"]).to_have_url(served.url + old)
    expect(phones["following"]).to_have_url(served.url + old + "/follow")
    new = play_again(table, served.url, old)
    if not streamed:
        for phone in phones.values():
            phone.clock.run_for(EVERY)  # the next poll
    expect(phones["joined"]).to_have_url(served.url + new)
    expect(phones["following"]).to_have_url(served.url + new + "/follow")
    expect(phones["display"]).to_have_url(served.url + new + "/display")
    # Each came in as it had: the joined phone records hands, the others only watch.
    expect(phones["joined"].get_by_role("link", name="Record hand 1")).to_be_visible()
    for name in ("following", "display"):
        assert phones[name].get_by_role("link", name="Record hand 1").count() == 0
        assert phones[name].request.get(served.url + new + "/hands/new").status == 403
    for page in (table, *phones.values()):
        page.context.close()


def test_play_again_takes_every_phone_of_the_table_to_the_new_game_by_its_stream(
    browser: Any, streaming: Served
) -> None:
    every_phone_goes_on_to_the_game_played_next(browser, streaming, streamed=True)


def test_play_again_takes_every_phone_to_the_new_game_at_its_next_poll(
    browser: Any, polling: Served
) -> None:
    every_phone_goes_on_to_the_game_played_next(browser, polling, streamed=False)


def test_play_again_takes_a_blank_hand_form_to_the_new_game_and_offers_it_to_a_typed_one(
    browser: Any, streaming: Served
) -> None:
    table = new_page(browser)
    unfinished = finished_game_file()
    unfinished["hands"] = []  # its one hand is the one that wins
    old = import_game(table, streaming.url, unfinished)
    blank, typing = new_page(browser), new_page(browser)
    for phone in (blank, typing):
        phone.goto(streaming.url + old + "/hands/new")
        streaming_on(phone)
    typing.locator("#sides-0-melded_points").fill("400")
    new = play_again(table, streaming.url, old)
    expect(blank).to_have_url(streaming.url + new)
    offered = typing.locator("#elsewhere a", has_text="This table plays on")
    expect(offered).to_have_attribute("href", new)
    expect(typing).to_have_url(streaming.url + old + "/hands/new")
    expect(typing.locator("#sides-0-melded_points")).to_have_value("400")
    for page in (table, blank, typing):
        page.context.close()

"""A phone whose connection drops says since when, in its language and clock, and is caught up
at once when the connection returns: by the browser's word (`online`), or, where the browser
keeps a dead connection open and says nothing, once the stream's heartbeats stop coming. With
Chromium's offline emulation (Playwright's `set_offline`), which keeps the old stream's
connection open. A hand typed while offline stays on the form, "not saved yet", and one tap
sends it once the phone is back."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from scorekeeper.web.http import stream

from .helpers import expect_as_typed, new_page, served, totals_on, type_a_hand
from .pages import game_file, import_game

SILENT = """() => {
  for (const name of ["online", "offline"]) {
    window.addEventListener(name, event => event.stopImmediatePropagation(), true);
  }
}"""
"""A browser that never says it went offline or came back: only the stream's silence tells."""


@pytest.fixture
def streaming(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    # Heartbeats every 0.5 s: a stream silent for two of them (and 5 s) is taken for dead.
    monkeypatch.setattr(stream, "HEARTBEAT", 0.5)
    yield from served(tmp_path, STREAMS=20)


def save_two_hands(browser: Any, server: str, game: str, language: str = "en-US") -> list[str]:
    """Hands 3 and 4, saved on another phone; the totals its scoreboard shows then."""
    recorder = new_page(browser, language=language)
    for _ in range(2):
        recorder.goto(server + game + "/hands/new")
        type_a_hand(recorder)
        with recorder.expect_event("load"):
            recorder.locator("button[name=action][value=save]").tap()
    totals = [str(t) for t in recorder.locator(".totals .big-number").all_inner_texts()]
    recorder.context.close()
    return totals


def watching(browser: Any, server: str, language: str, init: str = "") -> tuple[Any, str]:
    page = new_page(browser, language=language)
    page.clock.install()
    if init:
        page.add_init_script(script=f"({init})()")
    game = import_game(page, server, game_file())
    page.goto(server + game + "/follow")
    page.wait_for_selector("#following[data-by=stream]", state="attached")
    return page, game


@pytest.mark.parametrize(
    ("language", "offline"), [("en-US", "Offline since"), ("es", "Sin conexión desde")]
)
def test_back_online_the_phone_is_caught_up_at_once(
    browser: Any, streaming: str, language: str, offline: str
) -> None:
    page, game = watching(browser, streaming, language)
    before = totals_on(page).all_inner_texts()
    page.context.set_offline(True)
    notice = page.locator("#offline summary")
    expect(notice).to_be_visible()
    since = page.evaluate("() => new Date()")
    said = notice.inner_text()
    assert said.startswith(offline)
    # The phone's clock in the page's language: "2:41 PM" in English, "14:41" in Spanish.
    clock = page.evaluate(
        "since => new Intl.DateTimeFormat(document.documentElement.lang,"
        " {timeStyle: 'short'}).format(new Date(since))",
        since,
    )
    assert said.endswith(clock) or said.endswith(clock.replace(":", "\u200e:"))
    assert ("M" in clock) == (language == "en-US")  # AM/PM for the US only
    totals = save_two_hands(browser, streaming, game, language)
    assert totals != before
    assert totals_on(page).all_inner_texts() == before  # nothing reached it meanwhile
    # From now on no timer of the page runs (no poll, no retry): what follows is the return's.
    page.clock.pause_at(page.evaluate("() => Date.now()") + 1)
    back = time.monotonic()
    page.context.set_offline(False)
    expect(totals_on(page)).to_have_text(totals)
    print(f"caught up {time.monotonic() - back:.2f} s after the connection returned")
    expect(page.locator("#offline")).to_be_hidden()
    page.context.close()


def test_a_dead_connection_the_browser_keeps_open_is_noticed_by_its_silence(
    browser: Any, streaming: str
) -> None:
    page, game = watching(browser, streaming, "en-US", SILENT)
    page.context.set_offline(True)
    assert page.evaluate("() => navigator.onLine") is False
    # Two heartbeats and 5 s of silence: the page asks, and cannot reach the server.
    page.clock.run_for(7_000)
    expect(page.locator("#offline summary")).to_contain_text("Offline since")
    totals = save_two_hands(browser, streaming, game)
    page.context.set_offline(False)
    page.clock.run_for(2_000)  # the next question, every 2 s while out of reach
    expect(totals_on(page)).to_have_text(totals)
    expect(page.locator("#offline")).to_be_hidden()
    page.context.close()


def test_a_hand_typed_offline_stays_not_saved_yet_and_one_tap_sends_it_once(
    browser: Any, streaming: str
) -> None:
    page = new_page(browser)
    game = import_game(page, streaming, game_file())
    page.goto(streaming + game + "/hands/new")
    type_a_hand(page)
    page.context.set_offline(True)
    save = page.get_by_role("button", name="Save hand", exact=True)
    save.tap()
    problem = page.locator("#save-problem")
    expect(problem).to_contain_text("Not saved yet")
    expect_as_typed(page)
    page.context.set_offline(False)
    expect(problem).to_contain_text("Back online: tap Save")
    with page.expect_event("load"):
        save.tap()
    with urllib.request.urlopen(f"{streaming}{game}/result.json") as answer:
        assert len(json.load(answer)["hands"]) == 3
    page.context.close()

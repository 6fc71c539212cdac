"""Sending the result to the family chat and installing the app, on a phone at 360×740 in both
languages: the share sheet gets the text and the picture, Copy puts the text on the clipboard,
the text is there without JavaScript; the manifest is one Chromium reads without an error, the
worker is registered on this machine and keeps a page seen readable offline, never stale online;
the statistics come folded."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import PATIENCE, axe_violations, new_page
from .pages import finished_game_file, game_file, import_game

LANGUAGES = ["en-US", "es"]
WORDS = {
    "en-US": {
        "send": "Send the result",
        "share": "Share",
        "copy": "Copy the text",
        "won": "Us won with 10,260.",
        "copied": "Copied: paste it into the chat.",
        "players": "Players",
        "partnerships": "Partnerships",
    },
    "es": {
        "send": "Enviar el resultado",
        "share": "Compartir",
        "copy": "Copiar el texto",
        "won": "Victoria de Us con 10.260.",
        "copied": "Copiado: pégalo en el chat.",
        "players": "Jugadores",
        "partnerships": "Parejas",
    },
}

# A share sheet the test can watch: what it was given, and which files it was asked about.
WATCHED_SHARE = """
window.sharing = {asked: [], sent: []};
Object.defineProperty(Navigator.prototype, "share", {configurable: true, value(data) {
  const files = (data.files || []).map(f => ({name: f.name, type: f.type, size: f.size}));
  sharing.sent.push({text: data.text, title: data.title, files: files});
  return Promise.resolve();
}});
Object.defineProperty(Navigator.prototype, "canShare", {configurable: true, value(data) {
  sharing.asked.push((data.files || []).map(f => f.type));
  return true;
}});
"""
KEPT = "address => caches.match(address).then(kept => kept !== undefined)"
FORGOTTEN = """async ([address, patience]) => {
  const until = Date.now() + patience;
  while (await caches.match(address) !== undefined) {
    if (Date.now() > until) return false;
    await new Promise(again => setTimeout(again, 100));
  }
  return true;
}"""
"""Whether the phone's copy of `address` is gone, waited for as it goes (the worker forgets it
once told), for at most `patience` milliseconds."""
NO_SHARE = "delete Navigator.prototype.share; delete Navigator.prototype.canShare;"


def result_page(browser: Any, server: str, language: str, script: str, **options: Any) -> Any:
    """A phone on a finished game's scoreboard that taps "Send the result"."""
    page = new_page(browser, language=language, **options)
    if script:
        page.context.add_init_script(script=script)
    page.goto(server + import_game(page, server, finished_game_file()))
    page.get_by_role("link", name=WORDS[language]["send"]).click()
    expect(page.locator("h1")).to_have_text(WORDS[language]["send"])
    return page


@pytest.mark.parametrize("language", LANGUAGES)
def test_share_sends_the_text_and_the_scoreboard_as_a_picture(
    browser: Any, server: str, axe: str, language: str
) -> None:
    page = result_page(browser, server, language, WATCHED_SHARE)
    text = page.locator("#result-text")
    expect(text).to_be_visible()
    assert WORDS[language]["won"] in text.input_value()
    # The picture is made into a PNG as the page opens, so that the tap opens the sheet at once.
    page.wait_for_function("() => sharing.asked.length > 0")
    assert page.evaluate("sharing.asked") == [["image/png"]]
    page.get_by_role("button", name=WORDS[language]["share"], exact=True).click()
    page.wait_for_function("() => sharing.sent.length > 0")
    sent = page.evaluate("sharing.sent[0]")
    assert sent["text"] == text.input_value()
    assert [(f["type"], f["size"] > 1000) for f in sent["files"]] == [("image/png", True)]
    picture = page.locator("img.result-picture")
    assert picture.evaluate("image => image.complete && image.naturalWidth") == 600
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert axe_violations(page, axe) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_a_share_sheet_copy_puts_the_text_on_the_clipboard(
    browser: Any, server: str, language: str
) -> None:
    page = result_page(browser, server, language, NO_SHARE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    expect(page.get_by_role("button", name=WORDS[language]["share"], exact=True)).to_be_hidden()
    page.get_by_role("button", name=WORDS[language]["copy"]).click()
    expect(page.locator("#result-said")).to_have_text(WORDS[language]["copied"])
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.locator("#result-text").input_value()
    assert WORDS[language]["won"] in copied


@pytest.mark.parametrize("language", LANGUAGES)
def test_without_javascript_the_text_is_there_to_copy_by_hand(
    browser: Any, server: str, language: str
) -> None:
    page = result_page(browser, server, language, "", javascript=False)
    text = page.locator("#result-text")
    expect(text).to_be_visible()
    expect(text).to_have_attribute("readonly", "")
    expect(text).to_contain_text(WORDS[language]["won"])
    expect(page.get_by_role("button", name=WORDS[language]["share"], exact=True)).to_be_hidden()
    expect(page.get_by_role("button", name=WORDS[language]["copy"])).to_be_hidden()
    expect(page.locator("img.result-picture")).to_be_visible()


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_manifest_is_linked_fetched_and_read_without_an_error(
    whole_browser: Any, server: str, language: str
) -> None:
    # The whole browser: what an installed app is named by (its App ID) is no part of the shell.
    page = new_page(whole_browser, language=language)
    page.goto(server + "/")
    devtools = page.context.new_cdp_session(page)
    manifest = devtools.send("Page.getAppManifest")
    assert manifest["url"] == server + "/manifest.webmanifest"
    assert manifest["errors"] == []
    read = devtools.send("Page.getAppId")
    assert read["appId"] == server + "/"
    data = page.request.get(manifest["url"]).json()
    assert data["lang"] == language.split("-")[0]
    assert data["display"] == "standalone" and data["start_url"] == "/"
    for icon in data["icons"]:
        assert page.request.get(server + icon["src"]).ok, icon["src"]


def test_the_worker_keeps_a_page_seen_readable_offline_and_never_stale_online(
    browser: Any, server: str
) -> None:
    page = new_page(browser)
    scoreboard = server + import_game(page, server, game_file())
    page.goto(server + "/")
    page.evaluate("() => navigator.serviceWorker.ready.then(() => true)")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.goto(scoreboard)  # seen: the worker keeps a copy
    expect(page.locator(".game-name")).to_have_count(0)

    # The game changes while this phone is elsewhere: its copy is now out of date.
    page.goto(scoreboard + "/manage")
    page.locator("#game-name").fill("Sunday")
    page.get_by_role("button", name="Keep the name").click()
    expect(page.get_by_role("status")).to_have_text("Renamed.")

    page.context.set_offline(True)
    page.goto(scoreboard)  # the copy it kept, as it was seen
    expect(page.locator(".totals")).to_be_visible()
    expect(page.locator(".game-name")).to_have_count(0)
    with pytest.raises(Exception, match=re.compile("ERR_INTERNET_DISCONNECTED|ERR_FAILED")):
        page.goto(server + "/rules")  # never seen: nothing to show

    page.context.set_offline(False)
    page.goto(scoreboard)  # online: the game as it is now
    expect(page.locator(".game-name")).to_have_text("Sunday")

    # Signed out, a shared phone keeps nothing of what it saw.
    assert page.evaluate(KEPT, scoreboard)
    page.goto(server + "/settings/pin")
    page.get_by_role("button", name="Sign this phone out").click()
    assert page.evaluate(FORGOTTEN, [scoreboard, PATIENCE])


def test_no_worker_where_the_browser_allows_none(browser: Any, server: str) -> None:
    """Not over plain HTTP from another machine: seen here as a page that is not a secure
    context (this test's server is on 127.0.0.1, which browsers count as secure)."""
    page = new_page(browser)
    page.context.add_init_script(
        script="Object.defineProperty(window, 'isSecureContext', {value: false})"
    )
    page.goto(server + "/")
    page.wait_for_load_state("load")
    assert page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)") == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_statistics_come_folded_with_the_players_open(
    browser: Any, server: str, axe: str, language: str
) -> None:
    page = new_page(browser, language=language)
    import_game(page, server, game_file())
    page.goto(server + "/stats")
    players = page.locator("details.section").nth(0)
    partnerships = page.locator("details.section").nth(1)
    expect(players.locator("summary")).to_contain_text(WORDS[language]["players"])
    expect(players).to_have_attribute("open", "")
    expect(partnerships.locator(".stat-card").first).to_be_hidden()
    partnerships.locator("summary").click()
    expect(partnerships.locator(".stat-card").first).to_be_visible()
    expect(partnerships.locator("summary")).to_contain_text(WORDS[language]["partnerships"])
    assert axe_violations(page, axe) == []

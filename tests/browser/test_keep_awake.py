"""Keep the screen on: a switch near the top of every following page, right under the score, off
until this phone switches it on, kept by this phone, asked for again whenever the page is shown;
the table display keeps itself on, and the hand form keeps the phone's choice without showing the
switch. The Screen Wake Lock API does it where the browser offers it (https, or this machine);
over plain http:// a muted video looping inline (static/js/screen.js, static/media/); where
neither works the page says so in one line. Nothing without JavaScript."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import expect

from .helpers import new_page
from .pages import game_file, hand_paths, import_game

# A Screen Wake Lock the test can watch: each request is counted and gives a lock that the test
# can take away, as the browser does when the page is hidden.
WATCHED_WAKE_LOCK = """
window.locks = {asked: 0, released: 0, held: []};
Object.defineProperty(Navigator.prototype, "wakeLock", {configurable: true, get: () => ({
  request(type) {
    locks.asked += 1;
    const lock = new EventTarget();
    lock.type = type;
    lock.release = () => { locks.released += 1; lock.dispatchEvent(new Event("release"));
                           return Promise.resolve(); };
    locks.held.push(lock);
    return Promise.resolve(lock);
  },
})});
"""
NO_WAKE_LOCK = 'delete Navigator.prototype.wakeLock; delete Navigator.prototype["wakeLock"];'


def scoreboard(
    browser: Any, server: str, script: str | None, javascript: bool = True, suffix: str = ""
) -> Any:
    page = new_page(browser, javascript=javascript)
    if script:
        page.context.add_init_script(script=script)
    page.goto(server + import_game(page, server, game_file()) + suffix)
    return page


def asked(page: Any) -> int:
    return int(page.evaluate("locks.asked"))


def test_the_switch_starts_off_and_keeps_the_screen_on_once_switched(
    browser: Any, server: str
) -> None:
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK)
    switch = page.get_by_role("switch", name="Keep the screen on")
    assert switch.is_visible()
    assert not switch.is_checked()
    assert asked(page) == 0
    switch.check()
    page.wait_for_function("() => locks.asked === 1")
    switch.uncheck()
    page.wait_for_function("() => locks.released === 1")
    page.context.close()


def test_the_phone_remembers_the_switch_and_asks_again_when_shown(
    browser: Any, server: str
) -> None:
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK)
    page.get_by_role("switch").check()
    page.wait_for_function("() => locks.asked === 1")
    page.reload()
    assert page.get_by_role("switch").is_checked()
    page.wait_for_function("() => locks.asked === 1")  # a new page: counted afresh
    # Hidden, the browser drops the lock; shown again, the page asks for it again.
    page.evaluate("locks.held[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => locks.asked === 2")
    page.context.close()


def test_the_switch_is_hidden_without_javascript(browser: Any, server: str) -> None:
    page = scoreboard(browser, server, None, javascript=False)
    assert not page.locator("#keep-awake").is_visible()
    page.context.close()


def test_the_switch_is_near_the_top_of_every_following_page_right_under_the_score(
    browser: Any, server: str
) -> None:
    for suffix in ("", "/follow", "hand"):
        page = scoreboard(
            browser, server, WATCHED_WAKE_LOCK, suffix="" if suffix == "hand" else suffix
        )
        if suffix == "hand":
            page.goto(server + hand_paths(page, server, page.url.removeprefix(server))[0])
        switch = page.get_by_role("switch", name="Keep the screen on")
        box = switch.bounding_box()
        score = page.locator(".totals").bounding_box()
        assert box is not None and score is not None
        assert score["y"] + score["height"] <= box["y"], suffix  # under the score ...
        assert box["y"] + box["height"] <= 740 / 2 + 48, (suffix, box)  # ... high on the screen
        page.context.close()


def test_the_hand_form_keeps_the_screen_on_as_switched_elsewhere_without_the_switch(
    browser: Any, server: str
) -> None:
    """One types on the hand form, whose rows need the height (two screens at most): it shows no
    switch, and keeps the screen on when this phone switched it on on another page."""
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK)
    page.get_by_role("switch", name="Keep the screen on").check()
    page.wait_for_function("() => locks.asked === 1")
    page.goto(page.url + "/hands/new")
    page.wait_for_function("() => locks.asked === 1")  # asked again on this page, as chosen
    assert not page.get_by_role("switch").is_visible()
    assert not page.locator(".keep-awake-hint").count()
    page.context.close()


def test_the_table_display_keeps_itself_on(browser: Any, server: str) -> None:
    page = scoreboard(browser, server, WATCHED_WAKE_LOCK, suffix="/display")
    page.wait_for_function("() => locks.asked === 1")
    assert not page.get_by_role("switch").is_visible()  # nothing to switch: it stays on
    page.evaluate("locks.held[0].release()")
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("() => locks.asked === 2")
    page.context.close()


PLAIN_HTTP = NO_WAKE_LOCK + "Object.defineProperty(window, 'isSecureContext', {value: false});"
"""No browser offers the Wake Lock API to a page that is not a secure context (a family's server
on its Wi-Fi, http://192.168.…); the test makes 127.0.0.1 look like one."""

PLAYING = """() => {
  const video = document.querySelector("video");
  if (!video || video.paused || video.readyState < 2) return null;
  window.looped = window.looped || 0;
  if (!window.watching) {
    window.watching = true;
    let last = video.currentTime;
    video.addEventListener("timeupdate", () => {
      if (video.currentTime < last) window.looped += 1;
      last = video.currentTime;
    });
  }
  const box = video.getBoundingClientRect();
  return {muted: video.muted, loop: video.loop, inline: video.playsInline,
          audio: video.webkitAudioDecodedByteCount, opacity: getComputedStyle(video).opacity,
          covers: box.width * box.height / (innerWidth * innerHeight), duration: video.duration,
          source: video.currentSrc.split("/").slice(-2).join("/")};
}"""
"""The video that keeps the screen on, while it plays: what it is and how much of the screen it
covers (Chromium keeps the screen on for a playing muted video that covers a fifth of it)."""


def test_over_plain_http_the_switch_starts_a_muted_looping_video(browser: Any, server: str) -> None:
    page = scoreboard(browser, server, PLAIN_HTTP)
    switch = page.get_by_role("switch", name="Keep the screen on")
    assert switch.is_visible()
    assert page.locator("video").count() == 0  # nothing loaded until it is switched on
    switch.check()
    playing = page.wait_for_function(PLAYING).json_value()
    assert playing["muted"] and playing["loop"] and playing["inline"]
    assert playing["audio"] == 0  # silent: it has no sound to play
    assert playing["opacity"] == "0" and playing["covers"] >= 0.99
    assert playing["source"] == "media/awake.webm" and playing["duration"] <= 2.5
    page.wait_for_function("() => window.looped >= 1")  # it loops
    assert not page.locator("#keep-awake-said").is_visible()
    switch.uncheck()
    page.wait_for_function("() => document.querySelector('video').paused")
    page.context.close()


def test_over_plain_http_the_table_display_starts_the_video_by_itself(
    browser: Any, server: str
) -> None:
    page = scoreboard(browser, server, PLAIN_HTTP, suffix="/display")
    page.wait_for_function(PLAYING)
    assert not page.get_by_role("switch").is_visible()
    page.context.close()


def test_where_neither_way_works_the_switch_says_so_in_one_line(browser: Any, server: str) -> None:
    refused = PLAIN_HTTP + (
        "HTMLMediaElement.prototype.play = function () {"
        " return Promise.reject(new DOMException('no', 'NotAllowedError')); };"
    )
    page = scoreboard(browser, server, refused)
    page.get_by_role("switch", name="Keep the screen on").check()
    said = page.locator("#keep-awake-said")
    expect(said).to_have_text("Not possible in this browser.")
    lines = said.evaluate(
        "el => el.getBoundingClientRect().height / parseFloat(getComputedStyle(el).lineHeight)"
    )
    assert lines < 1.5  # one line
    page.context.close()


def test_the_video_is_small_and_has_no_sound() -> None:
    media = Path(__file__).resolve().parents[2] / "static" / "media"
    sizes = {path.name: path.stat().st_size for path in media.iterdir()}
    assert sorted(sizes) == ["awake.mp4", "awake.webm"]
    assert max(sizes.values()) < 4096, sizes
    webm = (media / "awake.webm").read_bytes()
    # Matroska's track type: 1 for video, 2 for audio (the TrackType element, 0x83).
    assert b"\x83\x81\x01" in webm and b"\x83\x81\x02" not in webm

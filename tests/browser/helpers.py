"""What the browser tests share besides their fixtures: the app served on 127.0.0.1, phone-sized
pages, a Player who counts every tap, axe-core's findings, pictures, a hand typed into the
hand form, and the phones of one table following its game.

Pictures go to a temporary folder, so that a test run changes no file of the repository;
`python3 dev.py screenshots` sets SCOREKEEPER_SCREENSHOTS to docs/screenshots/ to take the
README's pictures again.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from flask import Flask
from playwright.sync_api import expect
from werkzeug.serving import BaseWSGIServer, WSGIRequestHandler, make_server

from tests.helpers import unavailable
from tests.web.apps import built_app

from .pages import game_file, import_game

ROOT = Path(__file__).resolve().parents[2]


REFRESHING = bool(os.environ.get("SCOREKEEPER_SCREENSHOTS"))


SCREENSHOTS = Path(
    os.environ.get("SCOREKEEPER_SCREENSHOTS")
    or Path(tempfile.gettempdir()) / f"scorekeeper-screenshots-{os.getpid()}"
)


AXE = Path(os.environ.get("SCOREKEEPER_AXE", ROOT / ".venv/npm/node_modules/axe-core/axe.min.js"))


WHOLE_CHROMIUM = shutil.which("chromium")
"""Debian's Chromium (apt-get install chromium), the whole browser."""

CHROMIUM = shutil.which("chromium-headless-shell") or WHOLE_CHROMIUM
"""What the browser tests drive: Debian's build of the same Chromium's headless shell (apt-get
install chromium-headless-shell), which Playwright's own headless runs use, when it is there:
the same Blink, V8 and layout without the whole browser around them, for about 40 % less CPU a
page (here, every page of the app drawn once: 11.9 CPU-s in the whole browser, 7.1 in the
shell). Else the whole browser. What only the whole browser has (the identity an installed web
app is known by, a profile's text size) is tested in it (the `whole_browser` fixture,
test_large_text.py)."""

CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]


def launched(playwright: Any, program: str | None) -> Iterator[Any]:
    """Chromium from `program`, headless, until the fixture that asked for it ends."""
    if program is None:
        unavailable("Chromium is not installed (apt-get install chromium)", required=REFRESHING)
    browser = playwright.chromium.launch(executable_path=program, args=CHROMIUM_FLAGS)
    yield browser
    browser.close()


PHONES = {"360x740": (360, 740), "390x844": (390, 844)}

SMALLER_PHONE, LARGER_PHONE = PHONES
"""A page drawn at the smaller phone is laid out again at the larger (`laid_out_at`)."""


@contextmanager
def laid_out_at(page: Any, size: str) -> Iterator[None]:
    """The page as drawn, laid out again at another phone's size (as turning a phone's width
    does: its media queries apply again; nothing is drawn again), and put back afterwards. The
    same as drawing it at that size: no script of a phone's page lays it out by the screen's
    size (only the room's screen's, room.js)."""
    width, height = PHONES[size]
    before = page.viewport_size
    page.set_viewport_size({"width": width, "height": height})
    try:
        yield
    finally:
        page.set_viewport_size(before)


PATIENCE = 30_000
"""Milliseconds a step waits at most for what it waits on (an element, a page loaded, an
expectation): generous, so that a machine busy with a second test run beside this one still
passes. It is a bound, not a wait: a step goes on as soon as its condition holds."""


TEXT_SIZE = 32
"""Chromium's default font size at 200% of its usual 16 px (Settings → Appearance → Font size,
the setting a person with weaker eyes changes)."""

LANDSCAPE = {"740x360": (740, 360)}  # a phone on its side: the form's rows share its height

ROOMS = {"1920x1080": (1920, 1080), "1280x720": (1280, 720)}
"""A club night's room's screen: a TV, a projector; no touch, nobody scrolls it."""


def served(tmp_path: Path, **settings: Any) -> Iterator[str]:
    """The app with these settings on a free port of 127.0.0.1 and a database of its own; its
    address, until the test is done."""
    yield from serving(browser_app(tmp_path, **settings))


def browser_app(tmp_path: Path, **settings: Any) -> Flask:
    """The app a browser test serves, on a database of its own in `tmp_path`."""
    return built_app(
        {
            "SECRET_KEY": "browser-tests",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'games.sqlite3'}",
            **settings,
        }
    )


ANSWER = "tests.answer"
"""Where a request's environ keeps the app's answer, for `_Handler` to close."""


class _Handler(WSGIRequestHandler):
    """werkzeug's, closing the answer of a request whose browser hung up: werkzeug's own skips
    the close when the connection breaks while it drains the request after the answer (a
    browser dropping a video's range request), and the file left open then fails a later test
    with its ResourceWarning."""

    def connection_dropped(self, error: BaseException, environ: Any = None) -> None:
        answer = environ.get(ANSWER) if environ else None
        if hasattr(answer, "close"):
            answer.close()


def http_server(app: Flask) -> BaseWSGIServer:
    """`app` served on a free port of 127.0.0.1 by threads, each answer closed."""

    def answering(environ: dict[str, Any], start_response: Any) -> Any:
        environ[ANSWER] = answer = app(environ, start_response)
        return answer

    return make_server("127.0.0.1", 0, answering, threaded=True, request_handler=_Handler)


def serving(app: Flask) -> Iterator[str]:
    """`app` on a free port of 127.0.0.1 (a test may set things up through its test client
    first); its address, until the test is done."""
    http = http_server(app)
    thread = threading.Thread(target=http.serve_forever, args=(STOPPED_WITHIN,), daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{http.server_port}"
    http.shutdown()
    thread.join(timeout=5)


STOPPED_WITHIN = 0.05
"""Seconds a test's server takes at most to notice it is asked to stop (serve_forever's poll
interval): werkzeug's 0.5 added a quarter of a second, on average, to the end of every browser
test; an idle server waking twenty times a second costs nothing to speak of."""


def new_page(
    browser: Any,
    size: str = "360x740",
    *,
    javascript: bool = True,
    dark: bool = False,
    language: str = "en-US",
) -> Any:
    """A page in a fresh phone-sized, touch-enabled browser context (or a room's screen's)."""
    width, height = {**PHONES, **LANDSCAPE, **ROOMS}[size]
    phone = size not in ROOMS
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=phone,
        is_mobile=phone,
        java_script_enabled=javascript,
        color_scheme="dark" if dark else "light",
        locale=language,
        extra_http_headers={"Accept-Language": language},
    )
    return patient(context).new_page()


def patient(context: Any) -> Any:
    """The browser context, waiting up to PATIENCE for each step, twice that for a page to load
    (a save in the background then the page it leads to: two round trips)."""
    context.set_default_timeout(PATIENCE)
    context.set_default_navigation_timeout(2 * PATIENCE)
    return context


ON_SCREEN = """selector => {
  const found = document.querySelector(selector);
  if (!found) return null;
  const box = found.getBoundingClientRect();
  return [box.top, box.bottom, window.innerHeight];
}"""


CUT_OFF = """() => {
  const width = document.documentElement.clientWidth;
  const name = el =>
      `${el.tagName.toLowerCase()}.${el.className} "${el.textContent.trim().slice(0, 30)}"`;
  const found = [];
  if (document.scrollingElement.scrollWidth > width) {
    const wide = [...document.querySelectorAll('body *')].filter(el =>
        el.getBoundingClientRect().right > width + 1 || (el.scrollWidth > el.clientWidth + 1
            && getComputedStyle(el).overflowX === 'visible' && !el.closest('svg')));
    found.push(`the page scrolls sideways: ${document.scrollingElement.scrollWidth} > ${width}`
        + ` (${wide.slice(-3).map(name).join(', ')})`);
  }
  for (const el of document.querySelectorAll('body *')) {
    // The file chooser draws its own text (the chosen file's name) and elides it itself, and a
    // field scrolls what was typed into it; a placeholder must fit.
    // Text for screen readers only (.sr-only) is never seen, so never cut off.
    if (el.getClientRects().length === 0 || el.matches('input[type=file], .sr-only')) continue;
    if (el.matches('input') && el.value !== '') continue;
    const style = getComputedStyle(el);
    const control = el.matches('button, .button, input, select');
    const clips = control || style.overflowX !== 'visible';
    if (el.scrollWidth <= el.clientWidth + 1 || !clips) continue;
    const titled = el.closest('[title]');
    const elided = style.textOverflow === 'ellipsis' && titled
        && titled.title.replace(/\\s+/g, ' ').includes(el.textContent.trim().replace(/\\s+/g, ' '));
    if (!elided) found.push(`cut off: ${name(el)} ${el.scrollWidth} > ${el.clientWidth}`);
  }
  return found;
}"""
"""What a page at a larger text size shows wrong: scrolling sideways (with the widest elements),
and anything cut off other than a word too long for its line, which ends in "…" with the whole
of it in a title."""


def summary_at_the_bottom(page: Any) -> None:
    """On a hand form, its summary and Save are on screen at its bottom, where the thumb is:
    checked after every step a player takes there (not merely that they are on the page)."""
    for selector in ("#summary", ".bar button[value=save]"):
        box = page.evaluate(ON_SCREEN, selector)
        if box is None:
            return  # not a hand form
        top, bottom, height = box
        assert height / 2 < top and bottom <= height + 1, f"{selector} at {top}-{bottom}/{height}"


class Player:
    """A person at the table with one thumb: every tap and every filled field is counted."""

    def __init__(self, page: Any, base_url: str, javascript: bool = True) -> None:
        self.page = page
        self.base_url = base_url
        self.javascript = javascript
        self.interactions = 0

    def open(self, path: str) -> None:
        self.page.goto(self.base_url + path)

    def tap(self, locator: Any, *, navigates: bool = True) -> None:
        """Tap a link or button; by default wait for the page it leads to: its load, not merely
        a navigation, which the page being left also makes when its script drops `?saved=` from
        its address (history.replaceState) as its stream's news arrives, at any moment on a busy
        machine (the step after it then found its page gone: test_play failed so)."""
        self.interactions += 1
        if navigates:
            with self.page.expect_event("load"):
                locator.tap()
        else:
            locator.tap()
        summary_at_the_bottom(self.page)

    def count(self, locator: Any) -> None:
        """Tap a − / + counter button: in place with JavaScript, a form post without."""
        self.tap(locator, navigates=not self.javascript)

    def fill(self, locator: Any, value: str) -> None:
        self.interactions += 1
        locator.fill(value)
        summary_at_the_bottom(self.page)

    def button(self, name: str) -> Any:
        return self.page.get_by_role("button", name=name, exact=True)

    def link(self, name: str) -> Any:
        return self.page.get_by_role("link", name=name, exact=True)

    def start_game(
        self,
        system_name: str,
        table: str | None,
        names: tuple[str, ...] = ("Us", "Them"),
        start_scores: tuple[int, ...] = (),
    ) -> str:
        """New game through the pages; returns the scoreboard's path."""
        self.open("/")
        self.tap(self.link("New game"))
        self.tap(self.page.get_by_role("link", name=system_name))
        if table is not None:
            self.tap(self.page.get_by_role("link", name=table))
        for index, name in enumerate(names):
            self.fill(self.page.locator(f"#side_list-{index}-name"), name)
        for index, score in enumerate(start_scores):
            self.fill(self.page.locator(f"#side_list-{index}-start_score"), str(score))
        self.tap(self.button("Start the game"))
        return self.page.url.removeprefix(self.base_url)


def axe_violations(page: Any, script: str) -> list[str]:
    """What axe-core finds wrong on the page, one readable line per rule and element."""
    page.wait_for_load_state()  # its stylesheet applied: axe reads the colours
    if not page.evaluate("() => typeof axe === 'object'"):
        # From now on every page of this browser context gets it as it loads, without sending
        # half a megabyte of script again for each page.
        page.context.add_init_script(script=script)
        # Run through the DevTools protocol rather than as a <script> in the page, which the
        # app's Content-Security-Policy rightly blocks (no inline script).
        page.evaluate(script)
    result = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {node['target']}"
        for v in result["violations"]
        for node in v["nodes"]
    ]


def screenshot(page: Any, name: str) -> None:
    """Keep the page as it looks (for docs/screenshots/ and the README when refreshing)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=True)


def type_a_hand(page: Any) -> None:
    """Us goes out with a samba and two natural canastas; Them holds a mixed canasta."""
    page.locator("#ending-0").check()
    page.locator("#sides-0-set_samba").fill("1")
    page.locator("#sides-0-set_natural_canasta").fill("2")
    page.locator("#sides-0-melded_points").fill("400")
    page.locator("#sides-1-set_mixed_canasta").fill("1")
    page.locator("#sides-1-melded_points").fill("150")
    page.locator("#sides-1-hand_points").fill("30")


def expect_as_typed(page: Any) -> None:
    expect(page.locator("#ending-0")).to_be_checked()
    expect(page.locator("#sides-0-set_samba")).to_have_value("1")
    expect(page.locator("#sides-0-set_natural_canasta")).to_have_value("2")
    expect(page.locator("#sides-0-melded_points")).to_have_value("400")
    expect(page.locator("#sides-1-set_mixed_canasta")).to_have_value("1")
    expect(page.locator("#sides-1-melded_points")).to_have_value("150")
    expect(page.locator("#sides-1-hand_points")).to_have_value("30")


EVERY = 2_000
"""Milliseconds between a following page's polls (static/js/follow.js): within the issue's
"3 seconds" of a hand recorded on another phone. A test runs the page's clock that far
(Playwright's clock, which otherwise keeps time with the real one) and then waits for what the
poll brings, however long a busy machine takes to answer it: one poll, not a number of seconds,
is what it asserts."""

POLLS = """() => {
  window.polls = {made: 0, answered: 0};
  const fetch = window.fetch;
  window.fetch = (...args) => {
    window.polls.made += 1;
    return fetch(...args).finally(() => { window.polls.answered += 1; });
  };
}"""
"""The page's polls (its fetches), counted as the page makes them and as they are answered."""

HIDE = """hidden => {
  const state = hidden ? "hidden" : "visible";
  Object.defineProperty(document, "visibilityState", {configurable: true, get: () => state});
  document.dispatchEvent(new Event("visibilitychange"));
}"""
"""Put the page away (another tab, the phone locked) or bring it back, as the browser says so."""


class Phones:
    """Phones at one table, each a browser context of its own, and the game they play."""

    def __init__(self, browser: Any, server: str) -> None:
        self.browser = browser
        self.server = server
        self.pages: list[Any] = []
        self.recorder = self.phone()
        self.game = import_game(self.recorder, server, game_file())

    def phone(self) -> Any:
        page = new_page(self.browser)
        self.pages.append(page)
        return page

    def watching(self, suffix: str) -> Any:
        """A phone with one of the game's pages open, its clock Playwright's and its polls
        counted (`POLLS`)."""
        page = self.phone()
        page.clock.install()
        page.add_init_script(script=f"({POLLS})()")
        page.goto(self.server + self.game + suffix)
        return page

    def record_a_hand(self) -> list[str]:
        """Hand 3, typed and saved on the recording phone; the totals its scoreboard shows."""
        page = self.recorder
        page.goto(self.server + self.game + "/hands/new")
        type_a_hand(page)
        with page.expect_event("load"):
            page.get_by_role("button", name="Save hand", exact=True).tap()
        return [str(t) for t in page.locator(".totals .big-number").all_inner_texts()]

    def close(self) -> None:
        for page in self.pages:
            page.context.close()


def totals_on(page: Any) -> Any:
    return page.locator(".totals .big-number, .table-total")


ROOM_TURN = 8_000
"""Milliseconds a page of the standings stays up on the room's screen (static/js/room.js)."""


def room_pages(room: Any, on_screen: str) -> Iterator[tuple[int, int, Any]]:
    """Each page of the standings on the room's screen (its clock Playwright's, installed before
    it loaded), turned to as the page turns it: its number, how many there are, and what the
    script `on_screen` reads of it (which says the pager's text as `pager`)."""
    first = room.evaluate(on_screen)
    pages = int(first["pager"].rsplit(" ", 1)[1]) if first["pager"] else 1
    for page in range(1, pages + 1):
        if page > 1:
            room.clock.run_for(ROOM_TURN)
            expect(room.locator("#pager")).to_have_text(re.compile(rf"^\D+ {page} \D+ {pages}$"))
        yield page, pages, room.evaluate(on_screen)


def set_up_night(
    director: Any,
    base: str,
    pairs: list[tuple[str, str]],
    name: str,
    *,
    rounds: int = 3,
    hands: int = 2,
    minutes: int | None = None,
) -> str:
    """A club night set up on its two pages, as its director does (how many pairs, then the
    night): its id."""
    director.goto(f"{base}/nights/new")
    director.locator("#pairs").fill(str(len(pairs)))
    director.get_by_role("button", name="Next").tap()
    director.locator("#name").fill(name)
    director.locator("#round_count").fill(str(rounds))
    director.locator("#round_hands").fill(str(hands))
    if minutes is not None:
        director.locator("#round_minutes").fill(str(minutes))
    for i, (first, second) in enumerate(pairs):
        director.locator(f"#pairs-{i}-first").fill(first)
        director.locator(f"#pairs-{i}-second").fill(second)
    with director.expect_event("load"):
        director.get_by_role("button", name="Set up the night").tap()
    found = re.search(r"/nights/([^/]+)/seating", director.url)
    assert found, director.url
    return found.group(1)


def record(phone: Any, table: int) -> None:
    """One hand: at odd tables north-south go out, at even ones east-west."""
    game = phone.url.split("#")[0].split("?")[0]
    phone.goto(game + "/hands/new")
    out, other = (0, 1) if table % 2 else (1, 0)
    phone.locator(f"#ending-{out}").check()
    phone.locator(f"#sides-{out}-set_samba").fill("1")
    phone.locator(f"#sides-{out}-set_natural_canasta").fill("2")
    phone.locator(f"#sides-{out}-melded_points").fill(str(300 + 50 * table))
    phone.locator(f"#sides-{other}-set_mixed_canasta").fill("1")
    phone.locator(f"#sides-{other}-melded_points").fill("150")
    phone.locator(f"#sides-{other}-hand_points").fill("30")
    with phone.expect_event("load"):
        phone.get_by_role("button", name="Save hand", exact=True).tap()
    phone.goto(game)  # the scoreboard, which follows the night from here

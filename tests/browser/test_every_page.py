"""Every page the app shows, each drawn once for each phone setting and then checked for all that a
page must be: axe-core finds nothing wrong (in both languages and both colour schemes), every field
has a visible label, nothing jumps the tab order, nothing comes from another site, no page scrolls
sideways even with long names, every control is thumb-sized, and at a 200% root font size (a
reader's own style sheet) and at Chromium's own text size at 200% nothing scrolls sideways or is
cut off.

Drawing a page costs far more than a check of it, so the checks share their walks: a walk of
every page for each setting (size, language, colour scheme), on a server of its own, made the
first time a test of this file asks for it and kept for the others.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from .helpers import (
    AXE,
    CUT_OFF,
    LARGER_PHONE,
    PHONES,
    TEXT_SIZE,
    axe_violations,
    laid_out_at,
    new_page,
    served,
)
from .pages import NO_JS_PAGES, OPEN_ALL_DETAILS, every_state

STATIC = Path(__file__).resolve().parents[2] / "static"
TEMPLATES = STATIC.parent / "templates"


@dataclass(frozen=True)
class Setting:
    """A phone's settings for a walk of every page."""

    size: str
    language: str
    dark: bool

    def page(self, browser: Any) -> Any:
        return new_page(browser, self.size, dark=self.dark, language=self.language)


SETTINGS = {
    "en-US-light": Setting("360x740", "en-US", dark=False),
    "es-dark": Setting("360x740", "es", dark=True),
}
"""Each theme and each language once, at the smaller phone: colours (contrast) come with the
theme, words and their lengths with the language, and neither depends on the other (the dark
theme changes colours only, never a size). What depends on the width is measured at the larger
phone too, on the same pages laid out again at its size (`laid_out_at`)."""


def evaluate(script: str) -> Callable[[Any], Any]:
    return lambda page: page.evaluate(script)


@functools.cache
def axe_script() -> str:
    return AXE.read_text(encoding="utf-8")


UNLABELLED = """() => {
  const shown = el => { const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden'; };
  const column = input => {
      const cell = input.closest('.cells > .cell');
      const heads = input.closest('form')?.querySelector('.side-names');
      if (!cell || !heads) return null;
      const head = heads.children[[...cell.parentElement.children].indexOf(cell)];
      const legend = cell.closest('fieldset').querySelector('legend');
      return head && shown(head) && shown(legend) ? head.textContent.trim() : null;
  };
  const labelled = input => [...input.labels].some(label =>
      label.textContent.trim().length > 0 && (shown(label)
          || (column(input) && label.textContent.trim().startsWith(column(input)))));
  return [...document.querySelectorAll('input:not([type=hidden])')]
    .filter(shown)
    .filter(input => !labelled(input))
    .map(input => input.id || input.name);
}"""
"""The fields shown without a label shown. On the hand form's sheet a cell's field is labelled by
its row's legend and its side's name heading the column; the field's own label says that name
to a screen reader."""

JUMPING = "() => [...document.querySelectorAll('[tabindex]')].filter(e => e.tabIndex > 0).length"
"""How many elements take a place in the tab order before the page's own order."""

SMALL_TARGETS = """() => {
  const shown = el => el.getClientRects().length > 0
      && getComputedStyle(el).visibility !== 'hidden';
  const box = el => el.getBoundingClientRect();
  const name = el => `${el.tagName.toLowerCase()}${el.id ? '#' + el.id : ''} `
      + `"${(el.textContent || el.value || '').trim().slice(0, 30)}"`;
  const small = [];
  for (const el of document.querySelectorAll('button, summary, input:not([type=hidden])')) {
    if (!shown(el)) continue;
    if (el.type === 'radio' || el.type === 'checkbox') {
      const label = el.closest('label');
      if (!label || box(label).height < 44) small.push(`${name(el)}: its label is too short`);
    } else if (box(el).height < 44 || box(el).width < 44) {
      small.push(`${name(el)}: ${Math.round(box(el).width)}x${Math.round(box(el).height)}`);
    }
  }
  for (const a of document.querySelectorAll('a[href]')) {
    if (!shown(a)) continue;
    // A link inside a sentence is read, not aimed at; a link standing on its own is a button.
    const inSentence = getComputedStyle(a).display === 'inline'
        && a.parentElement.textContent.trim() !== a.textContent.trim();
    if (!inSentence && (box(a).height < 44 || box(a).width < 44)) {
      small.push(`${name(a)}: ${Math.round(box(a).width)}x${Math.round(box(a).height)}`);
    }
  }
  return small;
}"""

OFF_SITE_HTML = re.compile(
    r"<(?:link|script|img|iframe|source|video|audio)\b[^>]*\b(?:href|src)=\"((?:[a-z]+:)?//[^\"]*)",
    re.IGNORECASE,
)
"""An element that loads an address of another site, or of this one written in full (a
script's `new URL(…, import.meta.url)`: the keep-awake video's sources), told apart by
`off_site`."""
OFF_SITE_CSS = re.compile(r"@import|url\(\s*['\"]?(?:[a-z]+:)?//", re.IGNORECASE)

ROOT_AT_200 = (
    """() => document.documentElement.style.setProperty('font-size', '200%', 'important')"""
)
"""A root font size of 200% (a reader's own style sheet), which media queries' em do not see."""


def cut_off_at_a_200_percent_root_font_size(page: Any) -> list[str]:
    """CUT_OFF with the root font size at 200%, put back afterwards for the checks after it."""
    page.evaluate(ROOT_AT_200)
    found: list[str] = page.evaluate(CUT_OFF)
    page.evaluate("() => document.documentElement.style.removeProperty('font-size')")
    return found


WIDTHS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


def widths_at_the_larger_phone(page: Any) -> list[int]:
    """WIDTHS with the page laid out again at the larger phone, and put back afterwards."""
    with laid_out_at(page, LARGER_PHONE):
        found: list[int] = page.evaluate(WIDTHS)
    return found


TEXT_SIZE_IN_FORCE = "() => parseFloat(getComputedStyle(document.body).fontSize)"


def off_site(page: Any) -> list[str]:
    """The elements of the page as drawn that load something from another site."""
    here = page.evaluate("location.origin") + "/"
    found = OFF_SITE_HTML.finditer(page.content())
    return [m.group(0) for m in found if not m.group(1).startswith(here)]


def cut_off_at_a_200_percent_text_size(page: Any) -> list[str]:
    """CUT_OFF with Chromium's own text size at 200%, set on the page as it is drawn (the
    preference test_large_text.py's profile sets, here through DevTools: the page is laid out
    again, not drawn again), and put back afterwards."""
    fonts = page.context.new_cdp_session(page)
    try:
        fonts.send("Page.setFontSizes", {"fontSizes": {"standard": TEXT_SIZE}})
        body = page.evaluate(TEXT_SIZE_IN_FORCE)
        found: list[str] = page.evaluate(CUT_OFF)
    finally:
        fonts.send("Page.setFontSizes", {"fontSizes": {"standard": 16}})
        fonts.detach()
    if body < TEXT_SIZE:
        found.append(f"the text size setting is not in force: the body's text is {body} px")
    return found


@dataclass(frozen=True)
class Check:
    """What a check finds on a page, and where it runs."""

    find: Callable[[Any], Any]
    settings: tuple[str, ...]
    opened: bool = False
    """Run with every <details> of the page opened (else on the page as it is drawn, first)."""
    scripts: tuple[bool, ...] = (True,)
    """On the pages drawn with their scripts (True), without them (False: NO_JS_PAGES), or both."""


CHECKS = {
    "lang": Check(
        lambda page: page.locator("html").get_attribute("lang"), ("en-US-light", "es-dark")
    ),
    "axe": Check(
        lambda page: axe_violations(page, axe_script()),
        ("en-US-light", "es-dark"),
        scripts=(True, False),
    ),
    "count buttons": Check(
        lambda page: page.locator("button[name=count]").count(),
        ("en-US-light", "es-dark"),
        scripts=(False,),
    ),
    "tab order": Check(evaluate(JUMPING), ("en-US-light",)),
    "off-site": Check(off_site, ("en-US-light",)),
    "root font 200%": Check(cut_off_at_a_200_percent_root_font_size, ("en-US-light", "es-dark")),
    "labels": Check(evaluate(UNLABELLED), ("en-US-light",), opened=True),
    "widths": Check(evaluate(WIDTHS), ("en-US-light",), opened=True),
    "small targets": Check(evaluate(SMALL_TARGETS), ("en-US-light",), opened=True),
    "text size 200%": Check(
        cut_off_at_a_200_percent_text_size, ("en-US-light", "es-dark"), opened=True
    ),
    f"widths at {LARGER_PHONE}": Check(widths_at_the_larger_phone, ("en-US-light",), opened=True),
}
"""Every check of every page, by name. The dark theme's walk is in Spanish, so that the checks
of both languages need one walk each."""


@dataclass
class Walk:
    """What each check found on each page of one walk, and the server walked."""

    server: str
    found: dict[str, dict[str, Any]]


def walk(browser: Any, server: str, setting: str) -> Walk:
    """Every page drawn once in the setting, each check of the setting run on it in turn."""
    phone = SETTINGS[setting]
    checks = {
        name: check
        for name, check in CHECKS.items()
        if setting in check.settings and (name != "axe" or AXE.exists())
    }
    found: dict[str, dict[str, Any]] = {name: {} for name in checks}
    page = phone.page(browser)
    # A page on which the scripts (static/js/) never arrive: what a browser without
    # JavaScript shows (axe itself needs JavaScript, so the scripts are kept out instead of
    # switched off).
    plain = phone.page(browser) if any(False in c.scripts for c in checks.values()) else None
    if plain is not None:
        plain.route("**/static/**/*.js", lambda route: route.abort())
    for state, shown in every_state(page, server, plain):
        scripts = shown is page
        for opened in (False, True):
            if opened:
                shown.evaluate(OPEN_ALL_DETAILS)
            for name, check in checks.items():
                if check.opened == opened and scripts in check.scripts:
                    found[name][state] = check.find(shown)
    for shown in (page, plain):
        if shown is not None:
            shown.context.close()
    return Walk(server, found)


@pytest.fixture(scope="module")
def walked(
    browser: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Callable[[str], Walk]]:
    """The walk of every page in a setting, made when a test first asks for it, each on a server
    of its own (it starts from an empty database)."""
    walks: dict[str, Walk] = {}
    servers: list[Iterator[str]] = []

    def walk_of(setting: str) -> Walk:
        if setting not in walks:
            server = served(tmp_path_factory.mktemp(setting))
            servers.append(server)
            walks[setting] = walk(browser, next(server), setting)
        return walks[setting]

    yield walk_of
    for server in servers:
        next(server, None)


def problems(found: dict[str, list[str]]) -> str:
    """Every line a check found, with its page, one a line ('' for none)."""
    return "\n".join(f"{page}: {line}" for page, lines in found.items() for line in lines)


@pytest.mark.parametrize("setting", ["en-US-light", "es-dark"])
def test_axe_finds_nothing_wrong_on_any_page(
    walked: Callable[[str], Walk], axe: str, setting: str
) -> None:
    found = walked(setting).found
    language = SETTINGS[setting].language.split("-")[0]
    assert set(found["lang"].values()) == {language}
    assert found["count buttons"] == {
        f"{name}-without-js": 4 if "hand" in name else 0 for name in NO_JS_PAGES
    }
    assert not problems(found["axe"]), problems(found["axe"])


def test_every_visible_field_has_a_visible_label(walked: Callable[[str], Walk]) -> None:
    unlabelled = {page: ids for page, ids in walked("en-US-light").found["labels"].items() if ids}
    assert unlabelled == {}


def test_no_element_jumps_the_tab_order(walked: Callable[[str], Walk]) -> None:
    jumping = {page: n for page, n in walked("en-US-light").found["tab order"].items() if n}
    assert jumping == {}


@pytest.mark.parametrize(
    ("size", "check"),
    [
        pytest.param("360x740", "widths", id="360x740"),
        pytest.param(LARGER_PHONE, f"widths at {LARGER_PHONE}", id=LARGER_PHONE),
    ],
)
def test_no_page_scrolls_sideways_even_with_long_names(
    walked: Callable[[str], Walk], size: str, check: str
) -> None:
    found = walked("en-US-light").found[check]
    # A phone lays out a page too wide for it on a wider viewport (innerWidth grows with it),
    # so the page is measured against the phone's own width.
    width = PHONES[size][0]
    wide = {name: sizes for name, sizes in found.items() if max(sizes) > width}
    assert {"home-empty", "scoreboard", "hand-form", "stats", "house-rule-form"} <= found.keys()
    assert wide == {}


def test_every_button_field_and_standalone_link_is_thumb_sized(
    walked: Callable[[str], Walk],
) -> None:
    found = walked("en-US-light").found["small targets"]
    assert not problems(found), problems(found)


def test_no_page_or_stylesheet_points_to_another_site(
    walked: Callable[[str], Walk], browser: Any
) -> None:
    done = walked("en-US-light")
    pointing = [f"{page}: {tag}" for page, tags in done.found["off-site"].items() for tag in tags]
    stylesheets = sorted(STATIC.glob("*.css"))
    assert stylesheets
    page = new_page(browser)
    for stylesheet in stylesheets:
        text = page.request.get(f"{done.server}/static/{stylesheet.name}").text()
        assert text.strip()
        pointing += [f"{stylesheet.name}: {m.group(0)}" for m in OFF_SITE_CSS.finditer(text)]
    page.context.close()
    assert pointing == []


@pytest.mark.parametrize("check", ["root font 200%", "text size 200%"])
@pytest.mark.parametrize(
    ("language", "setting"),
    [pytest.param("en-US", "en-US-light", id="en-US"), pytest.param("es", "es-dark", id="es")],
)
def test_nothing_scrolls_sideways_or_is_cut_off_at_200_percent(
    walked: Callable[[str], Walk], language: str, setting: str, check: str
) -> None:
    """At a root font size of 200% (a reader's own style sheet, on the page as drawn) and at
    Chromium's own text size of 200% (every <details> opened), except a word too long for its
    line, which ends in "…" with the whole of it in a title (CUT_OFF)."""
    assert SETTINGS[setting].language == language
    found = walked(setting).found[check]
    drawn = {"home", "scoreboard", "hand-form", "hand-form-refused", "stats", "rules"}
    assert drawn <= found.keys()
    assert not problems(found), problems(found)


SIZE_READ = re.compile(
    r"inner(?:Width|Height)|outer(?:Width|Height)|client(?:Width|Height)|offset(?:Width|Height)"
    r"|getBoundingClientRect|matchMedia|visualViewport|screen\.(?:width|height|avail)"
    r"|orientation|\bresize\b"
)
"""How a script reads a size (`getClientRects().length`, whether an element is shown at all,
is no size)."""


def test_no_script_of_a_phones_page_reads_the_screens_size() -> None:
    """What makes a page laid out again at another phone's size (`laid_out_at`, as the checks at
    the larger phone here, in test_after_save.py and test_rules_search.py do) the same as the
    page drawn at that size: only the room's screen (room.js, not a phone's page) is arranged
    by a script reading the size of the screen or of what is on it."""
    scripts = [*STATIC.glob("js/*.js"), *TEMPLATES.rglob("*.html")]
    assert len(scripts) > 10
    reading = sorted(path.name for path in scripts if SIZE_READ.search(path.read_text("utf-8")))
    assert reading == ["room.js"]

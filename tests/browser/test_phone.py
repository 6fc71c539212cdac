"""On a phone at the table: nothing scrolls sideways, everything is big enough for a thumb,
the totals read at arm's length, dark mode follows the phone, and nothing comes from elsewhere."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from .helpers import PHONES, Player, new_page
from .pages import pages, set_up_games, walk_page

STATIC = Path(__file__).resolve().parents[2] / "static"


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


def walk(browser: Any, server: str, size: str, check: str) -> dict[str, Any]:
    """Run a check on every page (sides with 40-letter names), open details included."""
    return walk_page(new_page(browser, size), server, check)


@pytest.mark.parametrize("size", PHONES)
def test_no_page_scrolls_sideways_even_with_long_names(
    browser: Any, server: str, size: str
) -> None:
    found = walk(
        browser,
        server,
        size,
        "() => [document.documentElement.scrollWidth, window.innerWidth]",
    )
    # A phone lays out a page too wide for it on a wider viewport (innerWidth grows with it),
    # so the page is measured against the phone's own width.
    width = PHONES[size][0]
    wide = {name: sizes for name, sizes in found.items() if max(sizes) > width}
    assert {"home-empty", "scoreboard", "hand-form", "stats", "house-rule-form"} <= found.keys()
    assert wide == {}


def test_every_button_field_and_standalone_link_is_thumb_sized(browser: Any, server: str) -> None:
    found = walk(browser, server, "360x740", SMALL_TARGETS)
    problems = [f"{name}: {line}" for name, lines in found.items() for line in lines]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", PHONES)
def test_the_totals_are_readable_at_arms_length(browser: Any, server: str, size: str) -> None:
    page = new_page(browser, size)
    games = set_up_games(page, server)
    page.goto(server + games.finished)
    totals = page.locator(".big-number").evaluate_all(
        """els => els.map(el => ({text: el.textContent.trim(),
            size: parseFloat(getComputedStyle(el).fontSize),
            lines: Math.round(el.getBoundingClientRect().height
                / parseFloat(getComputedStyle(el).lineHeight)),
            fits: el.getBoundingClientRect().right
                <= el.parentElement.getBoundingClientRect().right}))"""
    )
    assert [total["text"] for total in totals] == ["10,260", "8,520"]
    for total in totals:
        assert total["size"] >= 32, total
        assert total["lines"] == 1, total  # never "10,5" over "60"
        assert total["fits"], total
    page.context.close()


def test_dark_mode_follows_the_phone(browser: Any, server: str) -> None:
    backgrounds = []
    for dark in (False, True):
        page = new_page(browser, dark=dark)
        page.goto(server + "/")
        backgrounds.append(page.evaluate("getComputedStyle(document.body).backgroundColor"))
        page.context.close()
    light, dark_background = backgrounds
    assert light != dark_background
    assert light != "rgba(0, 0, 0, 0)"


def test_a_whole_game_loads_nothing_from_another_site(browser: Any, server: str) -> None:
    page = new_page(browser)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    player = Player(page, server)
    scoreboard = player.start_game("Samba (classic", "2 teams of 2")
    player.tap(player.link("Record hand 1"))
    page.locator("#ending-0").check()
    player.fill(page.locator("#sides-0-set_samba"), "1")
    player.fill(page.locator("#sides-0-set_natural_canasta"), "1")
    player.fill(page.locator("#sides-0-melded_points"), "260")
    player.fill(page.locator("#sides-1-melded_points"), "150")
    # The summary scores the hand as it is typed: the form asked its own address for it.
    page.locator("#summary .hand-score", has_text="+").first.wait_for()
    assert any(url.endswith("/hands/new") for url in requested)
    player.tap(player.button("Save hand"))
    assert page.url.startswith(server + scoreboard)
    assert page.locator("table.hands tbody tr").count() == 1
    assert any(url.endswith(".css") for url in requested)
    elsewhere = [url for url in requested if not url.startswith(server + "/")]
    assert elsewhere == []
    page.context.close()


OFF_SITE_HTML = re.compile(
    r"<(?:link|script|img|iframe|source|video|audio)\b[^>]*\b(?:href|src)=\"(?:[a-z]+:)?//",
    re.IGNORECASE,
)
OFF_SITE_CSS = re.compile(r"@import|url\(\s*['\"]?(?:[a-z]+:)?//", re.IGNORECASE)


def test_no_page_or_stylesheet_points_to_another_site(browser: Any, server: str) -> None:
    page = new_page(browser)
    pointing = []
    for name, open_page in pages(set_up_games(page, server)).items():
        open_page(page, server)
        pointing += [f"{name}: {m.group(0)}" for m in OFF_SITE_HTML.finditer(page.content())]
    stylesheets = sorted(STATIC.glob("*.css"))
    assert stylesheets
    for stylesheet in stylesheets:
        text = page.request.get(f"{server}/static/{stylesheet.name}").text()
        assert text.strip()
        pointing += [f"{stylesheet.name}: {m.group(0)}" for m in OFF_SITE_CSS.finditer(text)]
    assert pointing == []
    page.context.close()

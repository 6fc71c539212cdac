"""Settling a dispute at the table, at 360x740 in both languages: a rules page's first screen is
its search and every one of its topics, at each phone size; the rules search finds the
black-samba going-out answer as one types (and by its form without JavaScript), the comparison
breaks no word, and a game's page shows its totals read the other way in one tap."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from .helpers import LARGER_PHONE, PHONES, SMALLER_PHONE, laid_out_at, new_page
from .pages import SYSTEM_IDS, import_game

LANGUAGES = {
    "en-US": {
        "typed": "go out with a red samba and a black samba",
        "question": "Can we go out with one ‘red’ samba and one ‘black’ samba?",
        "answer": "Yes: any two sets count",
        "search": "Search",
        "what if": "A samba earns 1,500, as in the other texts.",
        "totals": ["Us", "1,460", "2,460"],
    },
    "es": {
        "typed": "cerrar con una samba roja y una samba negra",
        "question": "¿Podemos cerrar con una samba ‘roja’ y una samba ‘negra’?",
        "answer": "Sí: cuentan dos jugadas cualesquiera",
        "search": "Buscar",
        "what if": None,  # the reading's own words, in Spanish: found by the link's address
        "totals": ["Us", "1.460", "2.460"],
    },
}

BROKEN_WORDS = """selector => {
  // Every word of the comparison on one line: a word whose letters fall on two lines has
  // two boxes (the letters one per line of "C/l/a/s/s/i/c" had seven).
  const broken = [];
  for (const list of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(list, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map(r => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""

SIDEWAYS = "() => document.documentElement.scrollWidth"

FIRST_SCREEN = """() => {
  // The search field and each topic: whether it is whole on the first screen, and its size.
  const box = el => el.getBoundingClientRect();
  const seen = el => box(el).top >= 0 && box(el).bottom <= window.innerHeight
      && box(el).height > 0;
  const topics = [...document.querySelectorAll('nav.topics a')];
  return {
    search: seen(document.getElementById('rules-q')),
    topics: topics.length,
    unseen: topics.filter(a => !seen(a)).map(a => a.textContent.trim()),
    small: topics.filter(a => box(a).height < 48 || box(a).width < 48)
        .map(a => `${a.textContent.trim()}: ${box(a).width}x${box(a).height}`),
  };
}"""

# Us goes out with a samba and a natural canasta: 500 a samba as Denexa's text reads, or 1,500.
DENEXA_GAME = {
    "variant": "denexa",
    "options": {},
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [
        {
            "ended_by": "going_out",
            "entries": [
                {
                    "went_out": True,
                    "sets": {"samba": 1, "natural_canasta": 1},
                    "melded_points": 260,
                },
                {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30},
            ],
        }
    ],
}


def first_screen_is_the_search_and_every_topic(page: Any, path: str, size: str) -> None:
    shown = page.evaluate(FIRST_SCREEN)
    assert shown["search"], f"{path}: the search is not on the first screen"
    assert shown["topics"] >= 10, path
    assert shown["unseen"] == [], path
    assert shown["small"] == [], path
    assert page.evaluate(BROKEN_WORDS, "nav.topics") == [], path
    assert page.evaluate(SIDEWAYS) <= PHONES[size][0], path


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_a_rules_pages_first_screen_is_its_search_and_every_topic(
    browser: Any, server: str, language: str
) -> None:
    """On every system's page, alone and as a game's rules (under the way back to its
    scoreboard), so that a topic's answer is two taps from the scoreboard without scrolling
    (issue 35): each topic whole on the screen, a large target, no word of it broken. At each
    phone's size: drawn at the smaller phone, then laid out again at the larger (`laid_out_at`:
    the same as drawing it at that size)."""
    page = new_page(browser, SMALLER_PHONE, language=language)
    paths = []
    for system_id in SYSTEM_IDS:
        game = {"variant": system_id, "sides": [{"name": n, "players": 2} for n in ("Us", "Them")]}
        paths += [f"/rules/{system_id}", import_game(page, server, game) + "/rules"]
    for path in paths:
        page.goto(server + path)
        first_screen_is_the_search_and_every_topic(page, path, SMALLER_PHONE)
        with laid_out_at(page, LARGER_PHONE):
            first_screen_is_the_search_and_every_topic(page, path, LARGER_PHONE)
    page.context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_typing_a_question_shows_the_black_samba_answer(
    browser: Any, server: str, language: str
) -> None:
    words = LANGUAGES[language]
    page = new_page(browser, "360x740", language=language)
    page.goto(server + "/rules/black-samba")
    page.locator("#rules-q").press_sequentially(words["typed"])
    first = page.locator("#search-results ol.found li a").first
    # Answers to the first letters typed may show before the whole question's: wait for it.
    # The first search of a server reads every system's page in both languages: on a loaded
    # machine that takes a few seconds.
    expect(first).to_contain_text(words["question"], timeout=30_000)
    assert first.get_attribute("href") == "/rules/black-samba#q-red-and-black-samba"
    with page.expect_navigation():  # within the page: no load
        first.tap()
    answer = page.locator("#q-red-and-black-samba")
    assert words["answer"] in answer.inner_text()
    assert answer.is_visible()
    assert page.evaluate(SIDEWAYS) <= PHONES["360x740"][0]
    page.context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_without_javascript_the_search_form_answers_with_a_page(
    browser: Any, server: str, language: str
) -> None:
    words = LANGUAGES[language]
    page = new_page(browser, "360x740", javascript=False, language=language)
    page.goto(server + "/rules")
    page.locator("#rules-q").fill(words["typed"])
    with page.expect_event("load"):
        page.get_by_role("button", name=words["search"], exact=True).tap()
    assert "/rules/search?q=" in page.url
    first = page.locator("#search-results ol.found li a").first
    assert words["question"] in first.inner_text()
    page.context.close()


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_the_comparison_breaks_no_word_and_never_scrolls_sideways(
    browser: Any, server: str, language: str
) -> None:
    page = new_page(browser, "360x740", language=language)
    page.goto(server + "/rules")
    assert page.evaluate(BROKEN_WORDS, "dl.compare") == []
    assert page.evaluate(SIDEWAYS) <= PHONES["360x740"][0]
    page.context.close()


@pytest.mark.parametrize("javascript", [True, False], ids=["js", "no-js"])
@pytest.mark.parametrize("language", list(LANGUAGES))
def test_one_tap_shows_the_totals_read_the_other_way(
    browser: Any, server: str, language: str, javascript: bool
) -> None:
    page = new_page(browser, "360x740", javascript=javascript, language=language)
    scoreboard = import_game(page, server, DENEXA_GAME)
    page.goto(server + scoreboard)
    link = page.locator(f'a[href="{scoreboard}/what-if#reading-1"]')
    if LANGUAGES[language]["what if"]:
        assert link.inner_text() == LANGUAGES[language]["what if"]
    with page.expect_event("load"):
        link.tap()
    table = page.locator("#reading-1 table")
    assert table.is_visible()
    rows = table.locator("tbody tr").all_inner_texts()
    # As played 1,460 for Us (a samba 500); read the other way 2,460 (a samba 1,500).
    assert rows[0].split() == LANGUAGES[language]["totals"]
    assert page.evaluate(SIDEWAYS) <= PHONES["360x740"][0]
    page.context.close()

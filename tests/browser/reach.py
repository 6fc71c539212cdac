"""How far a dispute's answer is from a game's scoreboard, for a person with one thumb at 360 × 740:
the cheapest way, either two taps without scrolling (Rules, then a topic of the rules page, and
the answering passage is on the screen) or two taps and a few typed words (Rules, the search
field, the words) with the answering passage starting above where a phone's keyboard opens.

Shared by the browser test (tests/browser/test_disputes.py, which fails on any dispute out of
reach) and benchmarks/referee_reach.py (which prints every dispute's way)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tests.disputes import Dispute

from .pages import import_game

SCREEN = (360, 740)
KEYBOARD_TOP = 370
"""Where an open phone keyboard begins, in px from the top of a 360 × 740 screen."""
MOST_WORDS = 4
"""The most words a person types to settle a dispute."""

PASSAGES = ".question, .rule-section p, .rule-section tr, .rule-section li, .reading"
"""What a rules page says things in: a question and its answer, a paragraph, a table's row, a
list's item, one of our readings (as the search reads them: presenters/rules_passages.py)."""
OURS = "#search-results > div > ol.found > li"
"""The passages a search shows for the game's own system (the other systems' are folded away)."""

ANSWERING = """([selector, says]) => {
  // The passages holding the words of the answer, the smallest of them (an answer rather than
  // the section around it), with where each is on the screen. A table's row reads as the
  // search shows it: its heading, a colon, its value.
  const words = el => el.tagName === 'TR'
      ? [...el.cells].map(cell => cell.textContent.trim()).join(': ')
      : el.textContent;
  const found = [...document.querySelectorAll(selector)].filter(el =>
      words(el).replace(/\\s+/g, ' ').includes(says));
  return found.filter(el => !found.some(other => other !== el && el.contains(other)))
      .map(el => {
        const box = el.getBoundingClientRect();
        const section = el.closest('section[id]');
        return {top: box.top, bottom: box.bottom, section: section ? section.id : null};
      });
}"""

ON_FIRST_SCREEN = """selector => [...document.querySelectorAll(selector)].filter(el => {
  const box = el.getBoundingClientRect();
  return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
}).map(el => el.getAttribute('href') || el.id)"""

FRESH = """() => {
  document.activeElement && document.activeElement.blur();
  history.replaceState(null, '', location.pathname);
  window.scrollTo(0, 0);
}"""


@dataclass(frozen=True)
class Reach:
    """The cheapest way found to a dispute's answer, in one language."""

    dispute: Dispute
    language: str
    topic: str | None = None  # the topic tapped, when two taps reach it without scrolling
    words: int | None = None  # how many of its typed words the search needed
    top: float | None = None  # where the answering passage then starts, px from the top

    @property
    def within(self) -> bool:
        """Within reach: two taps, or two taps and at most four words above the keyboard."""
        if self.topic is not None:
            return True
        return (
            self.words is not None
            and self.words <= MOST_WORDS
            and self.top is not None
            and 0 <= self.top < KEYBOARD_TOP
        )

    @property
    def typed(self) -> str:
        return " ".join(self.dispute.typed[self.language].split()[: self.words or 0])

    def __str__(self) -> str:
        if self.topic is not None:
            return f"2 taps: Rules, {self.topic}"
        if self.words is None:
            return "OUT OF REACH"
        top = "not found" if self.top is None else f"at {self.top:.0f} px"
        return f"2 taps and {self.words} words, “{self.typed}”: the answer {top}"


def game_of(system_id: str) -> dict[str, Any]:
    """A fresh game of a system: two sides of two, no hand played."""
    return {
        "variant": system_id,
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        "hands": [],
    }


class Referee:
    """A phone at a fresh game's scoreboard, asking the rules of its system."""

    def __init__(self, page: Any, server: str, system_id: str, language: str) -> None:
        self.page = page
        self.server = server
        self.language = language
        self.scoreboard = import_game(page, server, game_of(system_id))
        self.rules = ""

    def open_rules(self) -> None:
        """From the scoreboard, tap one: the header's Rules, on the first screen, to this game's
        rules."""
        self.page.goto(self.server + self.scoreboard)
        rules = f"{self.scoreboard}/rules"
        assert rules in self.page.evaluate(ON_FIRST_SCREEN, "header a"), "no Rules on screen"
        with self.page.expect_event("load"):
            self.page.locator(f'header a[href="{rules}"]').tap()
        self.rules = self.page.url

    def first_screen(self) -> None:
        """The rules page as tap one left it: at its top, nothing searched, nothing focused."""
        if self.page.url.split("#")[0] != self.rules:
            self.page.goto(self.rules)
        self.page.evaluate(FRESH)

    def by_taps(self, dispute: Dispute) -> str | None:
        """Tap two: a topic on the first screen whose section shows the answer without
        scrolling; the topic, or None."""
        says = dispute.says[self.language]
        self.first_screen()
        topics = self.page.evaluate(ON_FIRST_SCREEN, "nav.topics a")
        sections = {a["section"] for a in self.page.evaluate(ANSWERING, [PASSAGES, says])}
        for href in topics:
            if href.removeprefix("#") not in sections:
                continue
            self.page.locator(f'nav.topics a[href="{href}"]').tap()
            self.page.wait_for_function("hash => location.hash === hash", arg=href)
            height = self.page.viewport_size["height"]
            shown = [
                a
                for a in self.page.evaluate(ANSWERING, [PASSAGES, says])
                if a["section"] == href[1:] and a["top"] >= 0 and a["bottom"] <= height
            ]
            self.first_screen()
            if shown:
                return href[1:]
        return None

    def by_typing(self, dispute: Dispute) -> tuple[int, float | None]:
        """Tap two: the search field, then its words one by one until the answer shows above
        the keyboard; how many words, and where the answer starts (None: not found)."""
        says = dispute.says[self.language]
        words = dispute.typed[self.language].split()
        self.first_screen()
        assert self.page.evaluate(ON_FIRST_SCREEN, "#rules-q"), "no search on the first screen"
        field = self.page.locator("#rules-q")
        field.tap()
        top = None
        for count in range(1, len(words) + 1):
            typed = " ".join(words[:count])
            field.fill(typed)
            self.page.locator(f'#search-results [data-query="{typed}"]').wait_for()
            found = self.page.evaluate(ANSWERING, [OURS, says])
            top = found[0]["top"] if found else None
            if top is not None and 0 <= top < KEYBOARD_TOP:
                break
        field.fill("")  # and the page as it was: the results go once the field is empty
        self.page.wait_for_function("() => !document.getElementById('search-results').firstChild")
        return count, top

    def reach(self, dispute: Dispute) -> Reach:
        """The cheapest way to a dispute's answer: by taps if they do, else by typing."""
        topic = self.by_taps(dispute)
        if topic is not None:
            return Reach(dispute, self.language, topic=topic)
        words, top = self.by_typing(dispute)
        return Reach(dispute, self.language, words=words, top=top)

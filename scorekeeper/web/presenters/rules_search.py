"""Searching the rules: every passage of every system's page (rules_passages.py), ranked for a
query and shown with the words found marked.

A search made from a system's page or a game's rules answers for that system first, the other
systems after it. Within each, the passages holding the most of the words typed come first,
and among those the one that says them itself (an answer, a table's row) before one that is
only under a heading holding them; every passage holding enough of the words is shown, so that
an answer spread over two places shows both. Either language's words find a passage; it is
shown in the page's."""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import quote

from flask import url_for
from flask_babel import get_locale

from ... import rules
from ..wording import say
from .rules_passages import LANGUAGES, UNASKED, Passage, folded, passages, token, tokens

Marked = list[tuple[str, bool]]
"""Words as shown, each piece with whether it is one of the words found."""

WORD = re.compile(r"(\W*)(.*?)(\W*)", re.S)
"""A word as the page shows it: what comes before it, the word itself, and what follows."""


def marked(text: str, asked: frozenset[str]) -> Marked:
    """`text` in pieces, the words whose token was asked marked (their punctuation not)."""
    pieces: Marked = []
    for lead, core, trail, said in _words(text):
        found = not said.isdisjoint(asked)
        for piece, mark in ((lead, False), (core, found), (trail, False)):
            if not piece:
                continue
            if pieces and pieces[-1][1] == mark:
                pieces[-1] = (pieces[-1][0] + piece, mark)
            else:
                pieces.append((piece, mark))
    return pieces


Word = tuple[str, str, str, frozenset[str]]
"""A word of a passage as `marked` shows it: what comes before it, the word itself, what
follows it, and the tokens the search finds it by."""


@lru_cache(maxsize=8192)
def _words(text: str) -> tuple[Word, ...]:
    """`text` cut into words, each with its tokens: worked out once a process for each
    passage's title and words (a few thousand), not for every passage of every search that
    shows it (a search for one word showed a thousand, at 40 ms)."""
    cut = []
    for word in re.split(r"(\s+)", text):
        match = WORD.fullmatch(word)
        assert match is not None  # any text at all is (\W*)(.*?)(\W*)
        lead, core, trail = match.groups()
        said = frozenset(token(w) for w in folded(core).split()) if core else frozenset()
        cut.append((lead, core, trail, said))
    return tuple(cut)


ANCHOR_SAFE = "%!#$&'()*+,/:;=?@"
"""What `url_for` leaves unquoted in an anchor (Flask's `_anchor`)."""


@dataclass(frozen=True)
class Found:
    """A passage found: where it leads, and its title and words with those asked marked."""

    passage: Passage
    url: str
    title: Marked
    text: Marked

    @property
    def system(self) -> str:
        return self.passage.system

    @property
    def cite(self) -> str:
        return self.passage.cite


@dataclass(frozen=True)
class Results:
    """What a search found: in the system searched first (`ours`), and in the other systems."""

    ours: list[Found]
    others: list[Found]
    system: str | None  # the name of the system searched first, if any

    def __len__(self) -> int:
        return len(self.ours) + len(self.others)

    def __bool__(self) -> bool:
        return bool(self.ours or self.others)


def _rank(passage: Passage, asked: list[str], needed: int, phrase: str) -> tuple[float, ...] | None:
    """How well a passage answers (lower is better), or None when it holds too few words.

    A word counts most in the question a passage answers (it is what the player asks), then in
    what the passage says itself, least in the heading above it; two words typed side by side
    count more where the passage has them side by side too ("canasta of sevens"); among equals,
    the passage most about them (the most of its words asked: a question on just that, a table's
    row) comes first, then one holding all of them side by side as typed ("red samba")."""
    said = [w for w in asked if w in passage.asked or w in passage.words]
    around = [w for w in asked if w not in said and w in passage.around]
    if len(said) + len(around) < needed:
        return None
    weight = sum(4 if w in passage.asked else 3 for w in said) + len(around)
    weight += 2 * sum(f" {a} {b} " in passage.said for a, b in itertools.pairwise(asked))
    return (-weight, -len(set(said)) / max(passage.size, 1), phrase not in passage.said)


def search_rules(query: str, system_id: str | None = None, game_id: str | None = None) -> Results:
    """The passages that hold most of the query's words, the best first, in the system searched
    first and in the others."""
    asked = [w for w in tokens(query) if w not in UNASKED] or tokens(query)
    if not asked:
        return Results([], [], None)
    needed = max(1, round(len(asked) * 0.6 + 0.001))
    phrase = " " + " ".join(asked) + " "
    language = str(get_locale())
    shown = passages(language)
    best: dict[int, tuple[float, ...]] = {}
    for other in (language, *(lang for lang in LANGUAGES if lang != language)):
        for order, passage in enumerate(passages(other)):
            rank = _rank(passage, asked, needed, phrase)
            if rank is not None and order < len(shown):
                rank = (*rank, order)
                best[order] = min(best.get(order, rank), rank)
    ordered = [shown[order] for order, _ in sorted(best.items(), key=lambda item: item[1])]
    wanted = frozenset(asked)

    pages: dict[str, str] = {}

    def page_of(passage: Passage) -> str:
        """The address of the page a passage is on: the game's rules for its own system."""
        if passage.system_id not in pages:
            if game_id and passage.system_id == system_id:
                pages[passage.system_id] = url_for("rules.game_rules", game_id=game_id)
            else:
                pages[passage.system_id] = url_for("rules.system_page", system_id=passage.system_id)
        return pages[passage.system_id]

    def found(passage: Passage) -> Found:
        # The page's address built once a search, each passage's anchor added as url_for does.
        url = f"{page_of(passage)}#{quote(passage.anchor, safe=ANCHOR_SAFE)}"
        return Found(passage, url, marked(passage.title, wanted), marked(passage.text, wanted))

    ours = [found(p) for p in ordered if p.system_id == system_id]
    others = [found(p) for p in ordered if p.system_id != system_id]
    searched = rules.SYSTEMS.get(system_id or "")
    return Results(ours, others, say(searched.name) if searched else None)

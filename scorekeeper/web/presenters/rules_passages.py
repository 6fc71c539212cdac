"""What the rules search reads: every system's page, drawn in both languages, cut into the
passages a page says things in (each question with its answer, each paragraph of a section,
each row of its tables, each item of its lists, each of our readings), with the words of each
as the search compares them (`tokens`: numbers written as words or digits, plurals, accents and
case are all one)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from threading import Lock
from typing import NamedTuple

from flask import request
from flask_babel import force_locale

from ... import rules
from ..wording import say
from .rulebook import render_rules

LANGUAGES = ("en", "es")

NUMBERS = {
    word: str(n)
    for n, words in enumerate(
        [
            ("zero", "cero"),
            ("one", "uno"),
            ("two", "twos", "dos", "doses"),
            ("three", "threes", "tres", "treses"),
            ("four", "fours", "cuatro", "cuatros"),
            ("five", "fives", "cinco", "cincos"),
            ("six", "sixes", "seis", "seises"),
            ("seven", "sevens", "siete", "sietes"),
            ("eight", "eights", "ocho", "ochos"),
            ("nine", "nines", "nueve", "nueves"),
            ("ten", "tens", "diez", "dieces"),
            ("eleven",),  # not Spanish "once": English has it too
            ("twelve", "doce"),
        ]
    )
    for word in words
}
"""Numbers as words, in both languages: "five players" finds "5 players"."""


UNASKED = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "in",
        "on",
        "at",
        "is",
        "are",
        "do",
        "does",
        "i",
        "we",
        "my",
        "our",
        "it",
        "its",
        "and",
        "or",
        "for",
        "with",
        "what",
        "how",
        "can",
        "may",
        "must",
        "el",
        "la",
        "los",
        "las",
        "un",
        "una",
        "de",
        "del",
        "al",
        "en",
        "y",
        "o",
        "que",
        "se",
        "mi",
        "mis",
        "con",
        "por",
        "para",
        "es",
    ]
)
"""Words a question is asked with that say nothing of what is asked."""


def folded(text: str) -> str:
    """Text as the search compares it: lower case, without accents or punctuation, a number's
    thousands kept together ("1,500" and "1.500" as "1500")."""
    text = re.sub(r"(?<=\d)[.,](?=\d{3}\b)", "", text)
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return re.sub(r"[\W_]+", " ", text).strip()


def token(word: str) -> str:
    """A folded word as the search matches it: a number as digits, a word without the endings
    that make it plural, past or ongoing (so "threes" and "three", "penalties" and "penalty",
    "comodines" and "comodín", "melded" and "meld", "sola" and "solo" meet)."""
    number = NUMBERS.get(word)
    if number is not None:
        return number
    if word.isdigit():
        return word
    for ending in ("ing", "ed"):
        if len(word) >= len(ending) + 2 and word.endswith(ending):
            word = word[: -len(ending)]
            break
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    # Plurals and, in Spanish, gender too: "sola" and "solo", "canastas" and "canasta".
    while len(word) > 3 and word[-1] in "seao":
        word = word[:-1]
    return word


def tokens(text: str) -> list[str]:
    return [token(w) for w in folded(text).split()]


@dataclass(frozen=True)
class Passage:
    """One thing a rules page says, as the search finds and shows it."""

    system_id: str
    system: str  # the system's name, in the page's language
    anchor: str  # where it is on the page: q-… for a question's answer, else its section
    title: str  # the question it answers, or the heading of its section
    text: str  # what it says, as the page says it
    cite: str  # the place of the text it comes from, if the passage cites one
    question: bool  # a question and its answer
    asked: frozenset[str]  # the words of the question it answers, as tokens (`tokens`)
    words: frozenset[str]  # its own words: the answer's, the paragraph's, the row's
    around: frozenset[str]  # the words around it: its section's heading, the system's name
    said: str  # its question's and its own tokens in order, between spaces, but for the words
    # any question is asked with (UNASKED): to find words typed side by side
    size: int  # how many different words it says (its question's and its own, as in `said`)


class _Read(NamedTuple):
    """A passage as read from a page, before its words are made tokens."""

    anchor: str
    heading: str  # its section's
    title: str  # the question it answers, the caption of its table, or its section's heading
    text: str
    cite: str
    question: bool
    named: bool  # the title says what the passage is (a question, a table's caption)


class _Reader(HTMLParser):
    """The passages of one drawn rules page, in its order.

    A passage is a question (`div.question`: its `dt` the title, its `dd` the text), one of our
    readings (`div.reading`), or a paragraph, a table row or a list item of a section; only the
    sections of the rules (`.rule-section`) and the variations are read."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "meter", "wbr", "source"})
    STARTS = frozenset({"p", "tr", "li"})

    def __init__(self) -> None:
        super().__init__()
        self.found: list[_Read] = []
        self._open: list[str] = []  # every tag open, from the page's root
        self._section: int | None = None  # how deep the section being read opens
        self._anchor = ""
        self._around: dict[str, list[str]] = {"heading": [], "caption": [], "source": []}
        self._first = 0  # the first passage of the section being read
        self._passage: int | None = None  # how deep the passage being read opens
        self._question = False
        self._question_anchor = ""
        self._parts: dict[str, list[str]] = {}
        self._into = "text"  # which part the words go to: of the passage, or around it
        self._quiet: int | None = None  # how deep a part left out opens (a button)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        found = dict(attrs)
        classes = set((found.get("class") or "").split())
        self._open.append(tag)
        depth = len(self._open)
        if self._section is None:
            if tag == "section" and {"rule-section", "variations"} & classes:
                self._section, self._anchor = depth, found.get("id") or ""
                self._around = {"heading": [], "caption": [], "source": []}
                self._first = len(self.found)
        elif self._passage is None:
            self._outside(tag, depth, found.get("id"), classes)
        elif self._quiet is None and ("button" in classes or tag == "code"):
            self._quiet = depth  # a button's words, a house-rule key's name: not what it says
        elif tag in ("dt", "cite"):
            self._into = "title" if tag == "dt" else "cite"
        elif tag in ("td", "th") and self._parts["text"]:
            self._parts["text"].append(": " if tag == "td" else " ")  # a row: its heading: value

    def _outside(self, tag: str, depth: int, anchor: str | None, classes: set[str]) -> None:
        """A tag of a section outside its passages: a heading, a table, or a passage's start."""
        if tag in ("h2", "caption", "cite"):
            self._into = {"h2": "heading", "caption": "caption", "cite": "source"}[tag]
        elif tag == "table":
            self._around["caption"] = []
        elif tag in self.STARTS or {"question", "reading"} & classes:
            self._passage, self._question = depth, "question" in classes
            self._parts = {"title": [], "text": [], "cite": []}
            self._into = "text"
            self._question_anchor = anchor or self._anchor

    def handle_endtag(self, tag: str) -> None:
        if not self._open or tag in self.VOID:
            return
        depth = len(self._open)
        self._open.pop()
        if self._quiet is not None and depth <= self._quiet:
            self._quiet = None
        if self._passage is not None and depth == self._passage:
            self._passage = None
            self._emit(tag)
        elif tag in ("dt", "cite", "h2", "caption"):
            self._into = "text"
        if self._section is not None and depth == self._section:
            self._section = None
            self._cite_section()

    def handle_data(self, data: str) -> None:
        if self._section is None or self._quiet is not None:
            return
        if self._passage is None:
            if self._into in self._around:
                self._around[self._into].append(data)
            return
        self._parts[self._into].append(data)

    def _cite_section(self) -> None:
        """The passages of a section that cite nothing themselves cite the section's source."""
        source = " ".join("".join(self._around["source"]).split())
        for index in range(self._first, len(self.found)):
            if not self.found[index].cite:
                self.found[index] = self.found[index]._replace(cite=source)

    def _emit(self, tag: str) -> None:
        def joined(words: list[str]) -> str:
            return " ".join("".join(words).split())

        heading, caption = joined(self._around["heading"]), joined(self._around["caption"])
        text = re.sub(r" ([:,.;])", r"\1", joined(self._parts["text"]))
        text = re.sub(r" ?\( ?\)", "", text)  # what held only a left-out part, a key's name
        if not text:
            return
        if self._question:
            title, named = joined(self._parts["title"]), True
        else:
            named = tag == "tr" and bool(caption)
            title = caption if named else heading
        anchor = self._question_anchor if self._question else self._anchor
        cite = joined(self._parts["cite"])
        self.found.append(_Read(anchor, heading, title, text, cite, self._question, named))


PASSAGES: dict[tuple[str, str], list[Passage]] = {}
"""Every system's passages, by language and the app's address: the pages change only with the
code, so each is drawn once per process."""
PASSAGES_LOCK = Lock()


def passages(language: str) -> list[Passage]:
    """The passages of all five systems' pages, drawn in a language, in the pages' order (the
    same in every language: the n-th passage of one is the n-th of the other)."""
    key = (language, request.script_root)
    with PASSAGES_LOCK:
        found = PASSAGES.get(key)
    if found is None:
        found = []
        with force_locale(language):
            for system in rules.SYSTEMS.values():
                reader = _Reader()
                reader.feed(render_rules(system))
                name = say(system.name)
                for read in reader.found:
                    # A question is what is asked; a table's caption, what its row says too.
                    asked = tokens(read.title) if read.question else []
                    own = tokens(read.text) + (
                        tokens(read.title) if read.named and not asked else []
                    )
                    around = tokens(f"{read.heading} {name}")
                    found.append(
                        Passage(
                            system.id,
                            name,
                            read.anchor,
                            read.title,
                            read.text,
                            read.cite,
                            read.question,
                            frozenset(asked),
                            frozenset(own),
                            frozenset(around),
                            " " + " ".join(w for w in asked + own if w not in UNASKED) + " ",
                            len(set(asked + own) - UNASKED),
                        )
                    )
        with PASSAGES_LOCK:
            PASSAGES[key] = found
    return found

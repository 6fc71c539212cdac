"""Searching the rules: every system's page, drawn in both languages, read into the places an
answer can be found (each question's answer, each topic's section), and ranked for a query.

A search made from a system's page or a game's rules answers for that system first, the other
systems after it; numbers written as words or digits, plurals, accents and either language find
the same places (`tokens`)."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from threading import Lock

from flask import request, url_for
from flask_babel import force_locale, get_locale

from ... import rules
from ..wording import say
from .rulebook import render_rules

LANGUAGES = ("en", "es")


@dataclass(frozen=True)
class Place:
    """A place of a rules page that the search can find: an answer or a topic's section."""

    system_id: str
    system: str  # the system's name, in the page's language
    anchor: str  # q-… for an answer, the topic for a section
    title: str
    excerpt: str
    words: frozenset[str]  # what it says, as tokens (`tokens`)
    title_words: frozenset[str]
    text: str  # what it says, its tokens in order, to find words typed side by side

    @property
    def answer(self) -> bool:
        return self.anchor.startswith("q-")


@dataclass(frozen=True)
class Found:
    """A place found, with where it leads."""

    place: Place
    url: str

    # What the results template reads.
    @property
    def system(self) -> str:
        return self.place.system

    @property
    def title(self) -> str:
        return self.place.title

    @property
    def excerpt(self) -> str:
        return self.place.excerpt


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


NUMBERS = {
    word: str(n)
    for n, words in enumerate(
        [
            (),
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
    that make it plural, past or ongoing (so "threes" and "three", "comodines" and "comodín",
    "melded" and "meld", "sola" and "solo" meet)."""
    number = NUMBERS.get(word)
    if number is not None:
        return number
    if word.isdigit():
        return word
    for ending in ("ing", "ed"):
        if len(word) >= len(ending) + 2 and word.endswith(ending):
            word = word[: -len(ending)]
            break
    # Plurals and, in Spanish, gender too: "sola" and "solo", "canastas" and "canasta".
    while len(word) > 3 and word[-1] in "seao":
        word = word[:-1]
    return word


def tokens(text: str) -> list[str]:
    return [token(w) for w in folded(text).split()]


class _Places(HTMLParser):
    """The places of one drawn rules page: each answer (`q-…`) and each topic's section, with
    its title (the question, or the section's heading) and its text."""

    VOID = frozenset({"br", "img", "input", "meta", "link", "hr", "meter", "wbr", "source"})

    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[str, str, str]] = []  # (anchor, title, text)
        self._open: list[str] = []  # the tags open inside the place being read
        self._anchor = ""
        self._title: list[str] = []
        self._text: list[str] = []
        self._in_title = False
        self._skip_depth: int | None = None  # how deep the play-rules list being passed opens

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.VOID:
            return
        found = dict(attrs)
        anchor, classes = found.get("id") or "", (found.get("class") or "").split()
        if not self._open and ("question" in classes or "rule-section" in classes):
            self._anchor, self._title, self._text = anchor, [], []
        elif not self._open:
            return
        self._open.append(tag)
        if "play-rules" in classes and self._skip_depth is None:
            self._skip_depth = len(self._open) - 1
        if tag in ("dt", "h2") and len(self._open) == 2:
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if not self._open or tag in self.VOID:
            return
        self._open.pop()
        if self._skip_depth is not None and len(self._open) <= self._skip_depth:
            self._skip_depth = None
        if tag in ("dt", "h2"):
            self._in_title = False
        if not self._open:
            title, text = " ".join("".join(self._title).split()), " ".join(self._text)
            self.found.append((self._anchor, title, " ".join(text.split())))

    def handle_data(self, data: str) -> None:
        if self._open and not self._skipping:
            (self._title if self._in_title else self._text).append(data)

    @property
    def _skipping(self) -> bool:
        """Inside a section's list of the rules of play: each is found as its own answer."""
        return self._skip_depth is not None and len(self._open) > self._skip_depth


PLACES: dict[tuple[str, str], list[Place]] = {}
"""Every system's places, by language and the app's address: the pages change only with the
code, so each is drawn once per process."""
PLACES_LOCK = Lock()


def places(language: str) -> list[Place]:
    """The places of all five systems' pages, drawn in a language."""
    key = (language, request.script_root)
    with PLACES_LOCK:
        found = PLACES.get(key)
    if found is None:
        found = []
        with force_locale(language):
            for system in rules.SYSTEMS.values():
                reader = _Places()
                reader.feed(render_rules(system))
                name = say(system.name)
                for anchor, title, text in reader.found:
                    # An answer is one sentence and its citation, shown whole; a section is cut.
                    short = anchor.startswith("q-") or len(text) <= 280
                    excerpt = text if short else text[:280].rsplit(" ", 1)[0] + " …"
                    said = tokens(f"{title} {text}")
                    found.append(
                        Place(
                            system.id,
                            name,
                            anchor,
                            title,
                            excerpt,
                            frozenset(said + tokens(name)),
                            frozenset(tokens(title)),
                            " " + " ".join(said) + " ",
                        )
                    )
        with PLACES_LOCK:
            PLACES[key] = found
    return found


SHOWN = 8
"""The most places a search shows for the system searched first, and for the others."""


def search_rules(query: str, system_id: str | None = None, game_id: str | None = None) -> Results:
    """The places that match most of the query's words, the best first, in the system searched
    first and in the others: at equal matches answers before sections (they settle a question in
    one sentence), then the places whose question holds more of the words, then those holding
    them side by side as typed ("red samba"). Either language's words find a place; it is shown
    in the page's."""
    asked = [w for w in tokens(query) if w not in UNASKED] or tokens(query)
    if not asked:
        return Results([], [], None)
    needed = max(1, round(len(asked) * 0.6 + 0.001))
    phrase = " " + " ".join(asked) + " "
    language = str(get_locale())
    shown = {(p.system_id, p.anchor): p for p in places(language)}
    best: dict[tuple[str, str], tuple[bool, int, bool, int]] = {}
    for other in (language, *(lang for lang in LANGUAGES if lang != language)):
        for order, place in enumerate(places(other)):
            matched = sum(w in place.words for w in asked)
            if matched < needed:
                continue
            title_hits = sum(w in place.title_words for w in asked)
            # Words of the question itself count twice: it is what the player is asking.
            rank = (not place.answer, -matched - title_hits, phrase not in place.text, order)
            where = (place.system_id, place.anchor)
            if where in shown and (where not in best or rank < best[where]):
                best[where] = rank
    ordered = [shown[where] for where, _ in sorted(best.items(), key=lambda item: item[1])]

    def url(place: Place) -> str:
        if game_id and place.system_id == system_id:
            return url_for("rules.game_rules", game_id=game_id, _anchor=place.anchor)
        return url_for("rules.system_page", system_id=place.system_id, _anchor=place.anchor)

    ours = [Found(p, url(p)) for p in ordered if p.system_id == system_id][:SHOWN]
    others = [Found(p, url(p)) for p in ordered if p.system_id != system_id][:SHOWN]
    searched = rules.SYSTEMS.get(system_id or "")
    name = say(searched.name) if searched else None
    return Results(ours, others, name)

"""Searching the rules: every system's page, drawn in the page's language, read into the places
an answer can be found (each question's answer, each topic's section), and ranked for a query."""

from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass
from html.parser import HTMLParser
from threading import Lock

from flask import request, url_for
from flask_babel import get_locale

from ... import rules
from ..http.i18n import say
from .rulebook import render_rules


@dataclass(frozen=True)
class Place:
    """A place of a rules page that the search can find: an answer or a topic's section."""

    system: str  # the system's name, in the page's language
    title: str
    excerpt: str
    url: str
    words: str  # everything it says, folded for matching (`folded`)


def folded(text: str) -> str:
    """Text as the search compares it: lower case, without accents or punctuation, so that
    "salir" finds "Salir" and "canasta" finds "cánasta" typed either way."""
    text = unicodedata.normalize("NFKD", text.casefold())
    text = "".join(c for c in text if not unicodedata.combining(c))
    return " " + re.sub(r"[\W_]+", " ", text).strip() + " "


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
        if tag in ("dt", "h2") and len(self._open) == 2:
            self._in_title = True

    def handle_endtag(self, tag: str) -> None:
        if not self._open or tag in self.VOID:
            return
        self._open.pop()
        if tag in ("dt", "h2"):
            self._in_title = False
        if not self._open:
            title, text = " ".join("".join(self._title).split()), " ".join(self._text)
            self.found.append((self._anchor, title, " ".join(text.split())))

    def handle_data(self, data: str) -> None:
        if self._open:
            (self._title if self._in_title else self._text).append(data)


PLACES: dict[tuple[str, str], list[Place]] = {}
"""Every system's places, by language and the app's address: the pages change only with the
code, so each is drawn once per process."""
PLACES_LOCK = Lock()


def places() -> list[Place]:
    """The places of all five systems' pages, drawn in this request's language."""
    key = (str(get_locale()), request.script_root)
    with PLACES_LOCK:
        found = PLACES.get(key)
    if found is None:
        found = []
        for system in rules.SYSTEMS.values():
            reader = _Places()
            reader.feed(render_rules(system))
            url = url_for("rules.system_page", system_id=system.id)
            name = say(system.name)
            for anchor, title, text in reader.found:
                excerpt = text if len(text) <= 240 else text[:240].rsplit(" ", 1)[0] + " …"
                words = folded(f"{name} {title} {text}")
                found.append(Place(name, title, excerpt, f"{url}#{anchor}", words))
        with PLACES_LOCK:
            PLACES[key] = found
    return found


SHOWN = 12
"""The most places a search shows: enough for a question asked of every system."""


def search_rules(query: str) -> list[Place]:
    """The places that match most of the query's words, the best first: at equal matches those
    holding the words as they were typed, side by side ("red samba"), then answers before
    sections, as they settle a question in one sentence."""
    words = folded(query).split()
    if not words:
        return []
    needed = max(1, math.ceil(len(words) * 0.6))
    phrase = " " + " ".join(words)
    scored = []
    for order, place in enumerate(places()):
        matched = sum(f" {w}" in place.words for w in words)
        if matched >= needed:
            answer = "#q-" in place.url
            scored.append((-matched, phrase not in place.words, not answer, order, place))
    return [place for *_, place in sorted(scored, key=lambda s: s[:4])[:SHOWN]]

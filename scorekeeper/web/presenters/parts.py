"""Kept parts: what costs to draw and is the same for every visitor (a scoreboard, the hand
form's rows, a night's standings), drawn once and kept in memory under a key that names
everything the drawing reads (for a game's page, `http.caching.part_key`: its revision), never
who asks. What depends on the visitor is written around a part by the page's own template on
every request."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from threading import Lock
from typing import NamedTuple, TypeVar, cast

from cachetools import LRUCache
from flask import Flask, current_app
from markupsafe import Markup


class Drawn(NamedTuple):
    """A part of a page that is the same for every visitor: the page's title and its body."""

    title: str
    body: Markup


class Parts:
    """The parts kept (`kept`); each app keeps its own."""

    def __init__(self) -> None:
        self.kept: LRUCache[Hashable, object] = LRUCache(512)
        self.lock = Lock()
        self.drawing: dict[Hashable, Lock] = {}
        """A lock per part being drawn: who asks for it meanwhile waits for that drawing."""


Kept = TypeVar("Kept")
EXTENSION = "scorekeeper.parts"


def kept(key: Hashable | None, draw: Callable[[], Kept]) -> Kept:
    """What `draw` draws, kept under `key`: a key that names everything the drawing reads; with
    no key (a posted form, drawn as it was sent), drawn afresh.

    Drawn once however many ask at once: a save makes every screen that follows the game or
    the night ask for it together, and each drawing it again would make all of them wait for
    as many drawings, sharing the same interpreter."""
    if key is None:
        return draw()
    parts: Parts = current_app.extensions[EXTENSION]
    with parts.lock:
        drawn = parts.kept.get(key)
        if drawn is not None:
            return cast(Kept, drawn)
        drawing = parts.drawing.setdefault(key, Lock())
    with drawing:
        with parts.lock:
            drawn = parts.kept.get(key)
        if drawn is None:
            try:
                drawn = draw()
                with parts.lock:
                    parts.kept[key] = drawn
            finally:
                with parts.lock:
                    parts.drawing.pop(key, None)
    return cast(Kept, drawn)


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Parts()

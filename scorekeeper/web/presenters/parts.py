"""Kept parts: what costs to draw and is the same for every visitor (a scoreboard, the hand
form's rows, a night's standings, a whole following page), drawn once and kept in memory under a
key that names everything the drawing reads (for a game's page, `http.caching.part_key`: its
revision), never who asks.

A part is kept as **pieces** (`Kept`) of text. An answer sent gzipped is the filled text
compressed whole, once per answer (`Kept.gzipped`: about 0.15 ms for a scoreboard): pieces
compressed once each and strung together could not refer back across their joins, which cost a
scoreboard's first load a kilobyte over its 12 KiB budget. What differs
per visitor is a **hole** between the pieces (`hole`: the CSRF token, a form's one-time
token), drawn as a marker and filled in for each answer (`Kept.text`, `Kept.gzipped`). A kept
part drawn inside another (`{{ drawn.body }}`, a block of a scoreboard's rows) is taken in
whole, its pieces shared, not copied: a scoreboard drawn for the phone that saved a hand and
the one drawn for its followers share every piece but the few lines that differ.
"""

from __future__ import annotations

import gzip
import re
import secrets
from collections.abc import Callable, Hashable, Iterable, Mapping
from threading import Lock
from typing import NamedTuple, TypeVar, cast

from flask import Flask, current_app, g
from markupsafe import Markup

from ..services import keeping

LEVEL = 6
"""How hard an answer is compressed: as gzip does by default."""


class Piece:
    """Some text of a kept part, as it is sent (UTF-8)."""

    __slots__ = ("text",)

    def __init__(self, text: bytes) -> None:
        self.text = text


Pieces = tuple[Piece | str, ...]
"""A kept part's pieces in order; a str is the name of a hole."""


class Kept:
    """A kept part: its pieces, and the holes among them."""

    __slots__ = ("holes", "pieces", "size")

    def __init__(self, pieces: Iterable[Piece | str]) -> None:
        self.pieces: Pieces = tuple(pieces)
        self.holes = frozenset(p for p in self.pieces if isinstance(p, str))
        self.size = sum(len(p.text) for p in self.pieces if isinstance(p, Piece))
        """Bytes of text kept (a hole's not counted)."""

    def __html__(self) -> str:
        """Inside a drawing, the mark of this part, taken in whole; outside, its text (a part
        with holes is only ever sent, never drawn into another outside a drawing)."""
        drawing = _drawing()
        if drawing is not None:
            drawing.append(self)
            return f"{MARK}part:{len(drawing) - 1}{END}"
        if self.holes:
            raise ValueError(f"a part with holes ({sorted(self.holes)}) drawn outside a drawing")
        return self.text({}).decode()

    def text(self, values: Mapping[str, str]) -> bytes:
        """The part as sent uncompressed, its holes filled with `values`."""
        return b"".join(p.text if isinstance(p, Piece) else values[p].encode() for p in self.pieces)

    def gzipped(self, values: Mapping[str, str]) -> bytes:
        """The part as a gzip member, its holes filled with `values`."""
        return gzip.compress(self.text(values), LEVEL, mtime=0)


MARK = f"\ue000{secrets.token_hex(6)}:"
"""How a hole or a part taken in whole is marked in a drawing's text: a private-use character and
a nonce of this process, which no visitor's text can hold."""
END = "\ue001"
MARKED = re.compile(re.escape(MARK) + r"(hole|part):([^\ue001]*)" + END)
DRAWING = "scorekeeper.drawing"


def _drawing() -> list[Kept] | None:
    """The parts taken in whole by the drawing under way in this request, if any."""
    stack: list[list[Kept]] | None = g.get(DRAWING)
    return stack[-1] if stack else None


def drawing() -> bool:
    """Whether a part is being drawn: what differs per visitor goes in as a hole."""
    return _drawing() is not None


def hole(name: str) -> Markup:
    """Where a visitor's `name` goes in the part being drawn (its value given per answer)."""
    if not drawing():
        raise ValueError(f"a hole ({name}) outside a drawing")
    return Markup(f"{MARK}hole:{name}{END}")


def draw(render: Callable[[], str]) -> Kept:
    """What `render` draws (a template), kept as pieces: its holes, and the parts it took in
    whole (`{{ drawn.body }}`) as theirs."""
    stack: list[list[Kept]] = g.setdefault(DRAWING, [])
    stack.append([])
    try:
        text = render()
    finally:
        taken = stack.pop()
    # A visitor's CSRF token (Flask-WTF keeps the one it made in `g`) drawn into what every
    # visitor gets would let them all post as this one: a hole must take its place.
    made = g.get("csrf_token")
    if made and made in text:
        raise ValueError("a visitor's CSRF token drawn into a kept part")
    pieces: list[Piece | str] = []
    start = 0
    for found in MARKED.finditer(text):
        _add(pieces, text[start : found.start()])
        kind, name = found.groups()
        if kind == "hole":
            pieces.append(name)
        else:
            pieces.extend(taken[int(name)].pieces)
        start = found.end()
    _add(pieces, text[start:])
    return Kept(pieces)


def _add(pieces: list[Piece | str], text: str) -> None:
    if text:
        pieces.append(Piece(text.encode()))


class Drawn(NamedTuple):
    """A part of a page that is the same for every visitor: the page's title and its body."""

    title: str
    body: Markup | Kept


PARTS_A_GAME = 64
"""The most parts kept of one game: a revision's dozen pages and parts in two languages, and the
blocks of rows of a long game; the parts of earlier revisions go first."""


class Parts:
    """The parts kept (`kept`), by the game or night that each is of (`services/keeping.py`);
    each app keeps its own."""

    def __init__(self) -> None:
        self.kept: keeping.Keeping[Hashable, object] = keeping.Keeping(PARTS_A_GAME)
        self.lock = Lock()
        self.drawing: dict[Hashable, Lock] = {}
        """A lock per part being drawn: who asks for it meanwhile waits for that drawing."""


Drawing = TypeVar("Drawing")
EXTENSION = "scorekeeper.parts"


Key = Hashable | None | Callable[[], Hashable | None]
"""What a part is kept under, or how to name it: named again once the part is drawn, when the
drawing read the game at a later revision than the one asked for (the door's settle)."""


def kept(key: Key, make: Callable[[], Drawing]) -> Drawing:
    """What `make` draws, kept under `key`: a key that names everything the drawing reads;
    with no key (a posted form, drawn as it was sent), drawn afresh.

    Drawn once however many ask at once: a save makes every screen that follows the game or
    the night ask for it together, and each drawing it again would make all of them wait for
    as many drawings, sharing the same interpreter."""
    asked = key() if callable(key) else key
    if asked is None:
        return make()
    parts: Parts = current_app.extensions[EXTENSION]
    with parts.lock:
        drawn = parts.kept.get(asked)
        if drawn is not None:
            return cast(Drawing, drawn)
        being_drawn = parts.drawing.setdefault(asked, Lock())
    with being_drawn:
        drawn = parts.kept.get(asked, again=True)
        if drawn is None:
            try:
                drawn = make()
                drawn_at = key() if callable(key) else asked
                parts.kept.keep(drawn_at, drawn, keeping.whose())
            finally:
                with parts.lock:
                    parts.drawing.pop(asked, None)
    return cast(Drawing, drawn)


def kept_page(key: Key, render: Callable[[], str]) -> Kept:
    """A whole page, drawn by `render` once for every visitor and kept under `key`: what
    differs per visitor in it is a hole, the CSRF token (`csrf_token()`) and each `hole` it
    draws (`http.compress.respond` fills them for each answer). With no key, drawn afresh."""
    return kept(key, lambda: draw(render))


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Parts()
    keeping.kept_by(app, app.extensions[EXTENSION].kept)

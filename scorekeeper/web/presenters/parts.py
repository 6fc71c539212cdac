"""Kept parts: what costs to draw and is the same for every visitor (a scoreboard, the hand
form's rows, a night's standings, a whole following page), drawn once and kept in memory under a
key that names everything the drawing reads (for a game's page, `http.caching.part_key`: its
revision), never who asks.

A part is kept as **pieces** (`Kept`) of text. An answer sent gzipped is the filled text
compressed per answer but for its longest run without a hole, compressed once (`Kept.gzipped`:
0.3 ms -> 0.06 for the scoreboard of a game of 100 hands), with the few kilobytes either side of
it that it and what follows refer back into kept the same in every answer: pieces compressed
once each and strung together could not refer back across their joins, which cost a
scoreboard's first load a kilobyte over its 12 KiB budget. A long piece of that run (a block of
a scoreboard's rows) is compressed once after the text before it, so that a page drawn again at
each hand compresses only what it draws anew (`Piece.deflated_after`). What differs
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
import struct
import zlib
from collections.abc import Callable, Hashable, Iterable, Mapping
from threading import Lock
from typing import NamedTuple, TypeVar, cast

from flask import Flask, current_app, g
from markupsafe import Markup

from ..services import keeping
from ..wording import one_language

LEVEL = 6
"""How hard an answer is compressed: as gzip does by default."""


class Piece:
    """Some text of a kept part, as it is sent (UTF-8); a long one also compressed, once, after
    the text it came after (`deflated_after`)."""

    __slots__ = ("deflated", "text")

    def __init__(self, text: bytes) -> None:
        self.text = text
        self.deflated: tuple[bytes, bytes] | None = None
        """The text before it that it was compressed after, and what that gave."""

    def deflated_after(self, before: bytes) -> bytes:
        """The text as raw deflate that may refer back into `before` (what precedes it in the
        answer), ending on a full flush: compressed once while it follows the same text (a
        block of a scoreboard's rows, in every page drawn at each hand after it)."""
        done = self.deflated
        if done is None or done[0] != before:
            done = self.deflated = (before, _deflated(self.text, before))
        return done[1]


Pieces = tuple[Piece | str, ...]
"""A kept part's pieces in order; a str is the name of a hole."""


LONG_RUN = 8192
"""Bytes of text without a hole, at the least, that a part compresses once for every answer."""
GZIP_HEADER = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03"
"""A gzip member's header as `gzip.compress(…, mtime=0)` writes it at level 6: no name, no time."""


class Kept:
    """A kept part: its pieces, and the holes among them."""

    __slots__ = ("_run", "cut", "holes", "pieces", "size")

    def __init__(self, pieces: Iterable[Piece | str]) -> None:
        self.pieces: Pieces = tuple(pieces)
        self.holes = frozenset(p for p in self.pieces if isinstance(p, str))
        self.size = sum(len(p.text) for p in self.pieces if isinstance(p, Piece))
        """Bytes of text kept (a hole's not counted)."""
        self._run: _Run | bool | None = False
        self.cut: Chunks | None = None
        """Its text as its followers' streams carry it (`followed`), once one asked."""

    @property
    def run(self) -> _Run | None:
        """Its longest text without a hole, compressed once (`gzipped`), if long enough: worked
        out when it is first sent gzipped, for a part taken into a page (a scoreboard's body in
        its page, its streams' news) is never sent alone. Two answers at once may each work
        it out: the same."""
        if self._run is False:
            self._run = _longest_run(self.pieces) if self.holes else None
        return cast(_Run | None, self._run)

    def followed(self) -> Chunks:
        """The part as a follower is shown it, its holes (what only the phone that saved sees)
        empty, cut in its marked parts: worked out once, however many follow."""
        if self.cut is None:
            self.cut = chunks(self.text(dict.fromkeys(self.holes, "")).decode())
        return self.cut

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
        return _filled(self.pieces, values)

    def gzipped(self, values: Mapping[str, str]) -> bytes:
        """The part as a gzip member, its holes filled with `values`.

        Its longest text without a hole (most of a scoreboard: the hands between the head's
        holes and the foot's) is compressed once but for its first bytes (its lead), as a
        deflate stream that may refer back into its lead (the same in every answer) and that
        ends on a full flush; what comes before it, holes filled, and its lead are compressed
        per answer, as is what comes after it, which may refer back into the run's end (the
        same in every answer): a few dozen bytes more than the page compressed whole."""
        run = self.run
        if run is None:
            return gzip.compress(self.text(values), LEVEL, mtime=0)
        before = _filled(self.pieces[: run.start], values) + run.lead
        after = _filled(self.pieces[run.end :], values)
        head = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS)
        foot = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=run.end_text)
        crc = zlib.crc32(after, zlib.crc32(run.text, zlib.crc32(before)))
        size = len(before) + len(run.text) + len(after)
        return b"".join(
            (
                GZIP_HEADER,
                head.compress(before),
                head.flush(zlib.Z_FULL_FLUSH),
                run.deflated,
                foot.compress(after),
                foot.flush(),
                struct.pack("<II", crc, size & 0xFFFFFFFF),
            )
        )


LEAD = 2048
"""Bytes at the start of a long run compressed per answer, into which the rest may refer."""
WINDOW = 4096
"""Bytes at the end of a long run into which what follows it may refer."""


class _Run(NamedTuple):
    """Pieces `start` to `end` of a part, without a hole: their first `LEAD` bytes (`lead`),
    the rest (`text`) and that rest as raw deflate that refers back at most into the lead and
    ends on a full flush (byte-aligned); and its last bytes, into which what follows refers."""

    start: int
    end: int
    lead: bytes
    text: bytes
    deflated: bytes
    end_text: bytes


def _longest_run(pieces: Pieces) -> _Run | None:
    """The longest run of pieces without a hole, compressed, if it is `LONG_RUN` or more."""
    best, start = (0, 0, 0), 0
    for index, piece in enumerate((*pieces, "")):
        if isinstance(piece, str):
            size = sum(len(p.text) for p in pieces[start:index] if isinstance(p, Piece))
            best = max(best, (size, start, index))
            start = index + 1
    size, start, end = best
    if size < LONG_RUN:
        return None
    whole = _filled(pieces[start:end], {})
    lead, text = whole[:LEAD], whole[LEAD:]
    return _Run(start, end, lead, text, _chained(pieces[start:end], whole), whole[-WINDOW:])


SEGMENT = 2048
"""Bytes of a piece, at the least, that is compressed on its own (`Piece.deflated_after`)."""


def _chained(run: Pieces, whole: bytes) -> bytes:
    """The text of the pieces `run` (`whole`) but for its lead, as raw deflate ending on a full
    flush: its long pieces each compressed on their own after the `WINDOW` bytes before them
    (kept, so a page drawn again at each hand compresses only what it draws anew), the text
    between them together. Nothing refers back further than the run's start."""
    found, begun, offset = [], LEAD, 0
    for piece in run:
        start = offset
        offset += len(piece.text) if isinstance(piece, Piece) else 0
        if not isinstance(piece, Piece) or start < LEAD or len(piece.text) < SEGMENT:
            continue
        if start > begun:
            found.append(_deflated(whole[begun:start], whole[max(0, begun - WINDOW) : begun]))
        found.append(piece.deflated_after(whole[max(0, start - WINDOW) : start]))
        begun = offset
    if offset > begun:
        found.append(_deflated(whole[begun:offset], whole[max(0, begun - WINDOW) : begun]))
    return b"".join(found)


def _deflated(text: bytes, before: bytes) -> bytes:
    """`text` as raw deflate that may refer back into `before`, ending on a full flush."""
    compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, -zlib.MAX_WBITS, zdict=before)
    return compressor.compress(text) + compressor.flush(zlib.Z_FULL_FLUSH)


def _filled(pieces: Pieces, values: Mapping[str, str]) -> bytes:
    return b"".join(p.text if isinstance(p, Piece) else values[p].encode() for p in pieces)


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
        with one_language():
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


def already(key: Hashable) -> object | None:
    """What is kept under `key`, if anything (nothing is drawn)."""
    parts: Parts = current_app.extensions[EXTENSION]
    return parts.kept.get(key)


def kept_page(key: Key, render: Callable[[], str]) -> Kept:
    """A whole page, drawn by `render` once for every visitor and kept under `key`: what
    differs per visitor in it is a hole, the CSRF token (`csrf_token()`) and each `hole` it
    draws (`http.compress.respond` fills them for each answer). With no key, drawn afresh."""
    return kept(key, lambda: draw(render))


BODY = "body"
"""The hole of a following page's frame where its body goes (`kept_around`)."""


def kept_around(
    key: Key,
    frame_key: Callable[[Drawn], Key],
    frame: Callable[[Drawn], str],
    body: Callable[[], Drawn],
) -> Kept:
    """A following page whose body changes with each revision and whose frame (the header, the
    links, the forms around it) seldom does: the frame, drawn by `frame` around the hole
    `BODY`, kept under `frame_key(body)` (which names what the frame shows of the body: its
    title, never the revision), and the page, the frame with the body's pieces in that hole,
    kept under `key`. So a hand recorded draws the body alone."""

    def page() -> Kept:
        drawn = body()
        around = kept(
            frame_key(drawn), lambda: draw(lambda: frame(drawn._replace(body=hole(BODY))))
        )
        inside = drawn.body
        pieces = inside.pieces if isinstance(inside, Kept) else (Piece(str(inside).encode()),)
        return Kept(p for piece in around.pieces for p in (pieces if piece == BODY else (piece,)))

    return kept(key, page)


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Parts()
    keeping.kept_by(app, EXTENSION, app.extensions[EXTENSION].kept)


# --- what a following page is told of its new revision (pages/events.py) ---------------------

OPENS, CLOSES = "<!--p-->", "<!--/p-->"
"""The marks around a part of a following page's body that changes on its own (the totals, the
next hand, a block of the hands' rows), in its template: the event stream sends the parts that
changed, and the page's script swaps each between its marks (static/js/follow.js)."""


View = TypeVar("View", bound=Callable[..., object])
CARRIED = "carried_by_stream"


def carried(body: Callable[[], Drawn | None]) -> Callable[[View], View]:
    """A following page whose event stream carries its new body (pages/events.py): `body()`,
    in the page's own request, is what every follower of it is drawn (its title and body; the
    holes in it are what only the phone that saved sees, left empty for a follower), or None
    for a phone the page would send elsewhere."""

    def mark(view: View) -> View:
        setattr(view, CARRIED, body)
        return view

    return mark


def carrier(view: Callable[..., object] | None) -> Callable[[], Drawn | None] | None:
    """What the stream of `view`'s page carries, if it carries anything."""
    found: Callable[[], Drawn | None] | None = getattr(view, CARRIED, None)
    return found


class Chunks(NamedTuple):
    """A following page's body cut at its marks: what lies between the marked parts (`glue`,
    one more than the parts) and the parts themselves."""

    glue: tuple[str, ...]
    parts: tuple[str, ...]

    @property
    def text(self) -> str:
        """The body whole, its marks in it (the page's script finds the parts by them)."""
        joined = [self.glue[0]]
        for part, glue in zip(self.parts, self.glue[1:], strict=True):
            joined += (OPENS, part, CLOSES, glue)
        return "".join(joined)


def chunks(text: str) -> Chunks:
    """`text` (a body drawn with its marks) cut into its marked parts and what lies between."""
    first, *rest = text.split(OPENS)
    cut = [piece.partition(CLOSES) for piece in rest]
    return Chunks((first, *(glue for _, _, glue in cut)), tuple(part for part, _, _ in cut))


def changed(before: Chunks, after: Chunks) -> dict[int, str] | None:
    """The parts of `after` that differ from `before`, by their place; None when what lies
    between them changed (a section that came or went, a block of rows more): then the whole."""
    if before.glue != after.glue:
        return None
    pairs = enumerate(zip(before.parts, after.parts, strict=True))
    return {i: part for i, (was, part) in pairs if was != part}

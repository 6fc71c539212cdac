"""An event stream that tells a page the revision of what it shows, as it changes.

A following page (the scoreboard, the follow page, the table display, a hand, the hand form's
notice) opens one stream while it is visible (static/js/follow.js) and fetches itself when an
event names another revision than the one it was drawn at, as its poll does, unless the event
carries what changed on the page (`News`: pages/events.py). What is sent:

- at once, `retry:` (a few seconds, spread at random so that phones do not come back in step
  after a restart) and the revision now, as `id:` and `data:`, so that the page knows the
  stream works and, had it missed a change, fetches itself;
- each new revision the same way, its data the page's new body for a stream with `News`
  (JSON: the parts that changed, or the body whole); `event: gone` when the thing is deleted;
  `event: refused` when this phone may no longer follow it (a renewed link, another PIN); the
  stream then ends;
- a heartbeat every `HEARTBEAT` seconds (`event: beat`), so that a proxy does not cut a quiet
  stream and the page, which sees events but never comments, can tell a stream that went quiet
  from one whose connection died without a word (a phone's Wi-Fi gone, the browser still
  holding the old connection): a page that heard nothing for a while asks for itself;
- an end after a lifetime spread at random (`STREAM_SECONDS`, from half of it to all of it):
  the browser comes back after `retry:` with `Last-Event-ID`, and a frozen phone's stream does
  not stay forever.

Each process holds at most `STREAMS` streams (each holds a thread under waitress or gthread);
over that, or with 0, a stream is answered `204 No Content`, which tells the browser not to try
again, and the page polls as it did before streams. The stream reads nothing from the database
while it waits: `services/push.py` wakes it.

The cap is the table's to use, not a stranger's: the streams of one address, and those of one
share link (a game's join or follow link, a night's standings link, which every table card
prints), hold at most a share of it (`SHARE`), so that whoever holds a link, or sends from one
address, leaves the phones that record hands their streams. And a stream gives its place back
at its next wake (a heartbeat at the latest) once its phone has gone: it asks the server before
it writes (`_gone`), rather than waiting for a write to fail, which under waitress and gunicorn
takes two or three heartbeats (a write into a connection the phone closed still succeeds once).
"""

from __future__ import annotations

import enum
import random
import select
import socket
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, Protocol

from flask import Flask, Response, current_app, request

from ..services import push
from .access import client_address

HEARTBEAT = 15.0
"""Seconds between heartbeats on a quiet stream: under nginx's 60 s `proxy_read_timeout`, the
longest a stream whose phone left holds its place (it looks at every wake), and what a page
waits for before it takes a silent stream for a dead one (`#following`'s data-beat)."""
BEAT = "event: beat\ndata: beat\n\n"
"""A heartbeat: an event (a page never sees a comment) with some data (an event without any is
not dispatched), of its own type, so that no page takes it for a revision."""
SHARE = 4
"""The streams of one address, or of one share link, hold at most a quarter of the cap…"""
SHARE_AT_LEAST = 8
"""…and never fewer than a table's phones and its display (a cap this small is a test's)."""
RETRY_MS = (2_000, 6_000)
"""How long the browser waits before coming back, spread at random between these."""
EXTENSION = "scorekeeper.streams"


Claim = tuple[str, str]
"""What a stream is counted under besides the cap: ("address", its client's address) and
("link", the share link it came by)."""


class Streams:
    """The streams this process holds, up to its cap, and what each address and link holds."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0
        self.by_claim: Counter[Claim] = Counter()
        self.lock = threading.Lock()

    @property
    def share(self) -> int:
        """The most streams one address or one link may hold."""
        return max(self.cap // SHARE, SHARE_AT_LEAST)

    def take(self, claims: tuple[Claim, ...]) -> Place | None:
        """A place for a stream counted under `claims`, if the cap and their shares have one."""
        with self.lock:
            if self.open >= self.cap or any(self.by_claim[claim] >= self.share for claim in claims):
                return None
            self.open += 1
            self.by_claim.update(claims)
            return Place(self, claims)


@dataclass
class Place:
    """One stream's place, held until it is given back (once, whoever asks first)."""

    streams: Streams
    claims: tuple[Claim, ...]
    held: bool = True

    def give_back(self) -> None:
        streams = self.streams
        with streams.lock:
            if not self.held:
                return
            self.held = False
            streams.open -= 1
            streams.by_claim.subtract(self.claims)
            for claim in self.claims:
                if not streams.by_claim[claim]:
                    del streams.by_claim[claim]


def held() -> Streams:
    streams: Streams = current_app.extensions[EXTENSION]
    return streams


REFUSED_EVENT = "event: refused\ndata: \n\n"


def event(revision: str, data: str = "") -> str:
    return f"id: {revision}\ndata: {data or revision}\n\n"


class Refused(enum.Enum):
    REFUSED = "refused"


REFUSED = Refused.REFUSED
"""What `News.tell` says when the phone may no longer follow (its page's access check)."""


class News(Protocol):
    """What a stream tells its page of each new revision besides its name (pages/events.py):
    the page's new body, so that it need not ask for itself. Drawing it asks whether the phone
    may still follow, as its page does: the stream then need not ask apart."""

    def opened(self, revision: str) -> None:
        """The stream names `revision` first."""

    def tell(self, revision: str, again: bool) -> tuple[str, str] | Refused | None:
        """The revision now (`revision`, heard, or later) and what the page is told of it (one
        line); None: the name alone; `REFUSED`: this phone may no longer follow (asked `again`
        when who may follow changed since it was last asked)."""


def respond(
    key: str,
    revision: str,
    allowed: Callable[[], bool],
    link: str = "",
    news: News | None = None,
) -> Response:
    """The stream of `key`, read at `revision` by this request; `allowed` says again whether
    this phone may follow it (called when who may follow may have changed); `link`, the share
    link the phone came by, if any, whose streams hold only a share of the cap; `news`, what it
    tells of each new revision besides its name."""
    streams = held()
    claims: tuple[Claim, ...] = (("address", client_address()),)
    if link:
        claims += (("link", link),)
    place = streams.take(claims)
    if place is None:
        return Response(status=204)  # over the cap, or over its share: the page polls
    gone = _gone(request.environ)
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    hub = push.hub()
    hub.start(app)
    lifetime = float(app.config["STREAM_SECONDS"]) * random.uniform(0.5, 1.0)
    retry = random.randint(*RETRY_MS)

    def events() -> Iterator[str]:
        try:
            with hub.watching(key, revision):
                yield from _follow(app, hub, key, allowed, gone, lifetime, retry, news)
        finally:
            place.give_back()

    response = Response(events(), mimetype="text/event-stream")
    # And when the answer is closed without a first event (a HEAD, whose body werkzeug never
    # asks for): a generator that never began runs no `finally`.
    response.call_on_close(place.give_back)
    response.headers["Cache-Control"] = "no-store"
    # nginx passes each event on at once instead of buffering the answer.
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _follow(
    app: Flask,
    hub: push.Hub,
    key: str,
    allowed: Callable[[], bool],
    gone: Callable[[], bool],
    lifetime: float,
    retry: int,
    news: News | None = None,
) -> Iterator[str]:
    ends = time.monotonic() + lifetime
    access = hub.access
    sent = hub.revision(key)
    if sent == push.GONE:
        yield "event: gone\ndata: \n\n"
        return
    if news is not None:
        news.opened(sent)
    yield f"retry: {retry}\n" + event(sent)
    while (left := ends - time.monotonic()) > 0:
        revision, now_access = hub.wait(key, sent, access, min(HEARTBEAT, left))
        # The phone left (its place is free now, not after a write fails), or the app is done.
        if gone() or hub.stopped.is_set():
            return
        if revision == push.GONE:
            yield "event: gone\ndata: \n\n"
            return
        # The page's body for this phone, if its stream carries it, asks whether it may still
        # follow; else the stream asks.
        again = now_access != access
        told = news.tell(revision, again) if news is not None and revision != sent else None
        if told is REFUSED:
            yield REFUSED_EVENT
            return
        if told is None and (revision != sent or now_access != access):
            with app.app_context():
                if not allowed():
                    yield REFUSED_EVENT
                    return
        access = now_access
        if revision != sent:
            sent = revision
            # What the page is told may be of a later revision than this process heard of.
            yield event(*(told or (revision, "")))
        elif time.monotonic() < ends:  # a quiet stream: a heartbeat, unless it ends now
            yield BEAT


def _gone(environ: dict[str, Any]) -> Callable[[], bool]:
    """Whether the phone of this request has gone, as the server tells without a write:
    waitress reads its connection while the stream runs (`channel_request_lookahead`,
    serving.py) and says so; gunicorn gives the connection, which reads as ended. Under
    another server, a write that fails ends the stream."""
    told: Callable[[], bool] | None = environ.get("waitress.client_disconnected")
    if told is not None:
        return told
    connection: socket.socket | None = environ.get("gunicorn.socket")
    if connection is not None:
        return lambda: _hung_up(connection)
    return lambda: False


def _hung_up(connection: socket.socket) -> bool:
    """Whether the phone closed `connection` (or reset it): it reads as ended. Nothing is read
    away: a phone sends nothing more on a stream's connection, and if it did it would stay."""
    try:
        readable, _, _ = select.select([connection], [], [], 0)
        return bool(readable) and not connection.recv(1, socket.MSG_PEEK)
    except ValueError:  # TLS (no peeking) or a closed socket: the next write tells
        return False
    except OSError:  # reset
        return True


def allow(app: Flask, cap: int) -> None:
    """Let the app hold `cap` streams at once (the server gives it the threads for them)."""
    app.extensions[EXTENSION].cap = cap


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Streams(int(app.config["STREAMS"] or 0))

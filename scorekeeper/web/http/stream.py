"""An event stream that tells a page the revision of what it shows, as it changes.

A following page (the scoreboard, the follow page, the table display, a hand, the hand form's
notice) opens one stream while it is visible (static/push.js) and fetches itself when an event
names another revision than the one it was drawn at, as its poll does. What is sent:

- at once, `retry:` (a few seconds, spread at random so that phones do not come back in step
  after a restart) and the revision now, as `id:` and `data:`, so that the page knows the
  stream works and, had it missed a change, fetches itself;
- each new revision the same way; `event: gone` when the thing is deleted; `event: refused`
  when this phone may no longer follow it (a renewed link, another PIN); the stream then ends;
- a comment every `HEARTBEAT` seconds, so that a proxy does not cut a quiet stream and a WSGI
  server notices a phone that left;
- an end after a lifetime spread at random (`STREAM_SECONDS`, from half of it to all of it):
  the browser comes back after `retry:` with `Last-Event-ID`, and a frozen phone's stream does
  not stay forever.

Each process holds at most `STREAMS` streams (each holds a thread under waitress or gthread);
over that, or with 0, a stream is answered `204 No Content`, which tells the browser not to try
again, and the page polls as it did before streams. The stream reads nothing from the database
while it waits: `services/push.py` wakes it.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable, Iterator

from flask import Flask, Response, current_app

from ..services import push

HEARTBEAT = 15.0
"""Seconds between comments on a quiet stream: under nginx's 60 s `proxy_read_timeout`, and
the longest a WSGI server holds the thread of a phone that left."""
RETRY_MS = (2_000, 6_000)
"""How long the browser waits before coming back, spread at random between these."""
EXTENSION = "scorekeeper.streams"


class Streams:
    """The streams this process holds, up to its cap."""

    def __init__(self, cap: int) -> None:
        self.cap = cap
        self.open = 0
        self.lock = threading.Lock()

    def take(self) -> bool:
        with self.lock:
            if self.open >= self.cap:
                return False
            self.open += 1
            return True

    def give_back(self) -> None:
        with self.lock:
            self.open -= 1


def held() -> Streams:
    streams: Streams = current_app.extensions[EXTENSION]
    return streams


def event(revision: str) -> str:
    return f"id: {revision}\ndata: {revision}\n\n"


def respond(key: str, revision: str, allowed: Callable[[], bool]) -> Response:
    """The stream of `key`, read at `revision` by this request; `allowed` says again whether
    this phone may follow it (called when who may follow may have changed)."""
    streams = held()
    if not streams.take():
        return Response(status=204)  # over the cap: the page polls
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    hub = push.hub()
    hub.start(app)
    lifetime = float(app.config["STREAM_SECONDS"]) * random.uniform(0.5, 1.0)
    retry = random.randint(*RETRY_MS)

    def events() -> Iterator[str]:
        try:
            with hub.watching(key, revision):
                yield from _follow(app, hub, key, allowed, lifetime, retry)
        finally:
            streams.give_back()

    response = Response(events(), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-store"
    # nginx passes each event on at once instead of buffering the answer.
    response.headers["X-Accel-Buffering"] = "no"
    return response


def _follow(
    app: Flask,
    hub: push.Hub,
    key: str,
    allowed: Callable[[], bool],
    lifetime: float,
    retry: int,
) -> Iterator[str]:
    ends = time.monotonic() + lifetime
    access = hub.access
    sent = hub.revision(key)
    if sent == push.GONE:
        yield "event: gone\ndata: \n\n"
        return
    yield f"retry: {retry}\n" + event(sent)
    while (left := ends - time.monotonic()) > 0:
        revision, now_access = hub.wait(key, sent, access, min(HEARTBEAT, left))
        if revision == push.GONE:
            yield "event: gone\ndata: \n\n"
            return
        if revision != sent or now_access != access:
            access = now_access
            with app.app_context():
                if not allowed():
                    yield "event: refused\ndata: \n\n"
                    return
        if revision != sent:
            sent = revision
            yield event(revision)
        else:
            yield ": still here\n\n"


def allow(app: Flask, cap: int) -> None:
    """Let the app hold `cap` streams at once (the server gives it the threads for them)."""
    app.extensions[EXTENSION].cap = cap


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Streams(int(app.config["STREAMS"] or 0))

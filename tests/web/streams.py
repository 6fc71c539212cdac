"""An event stream read by a test client, event by event (tests/web/test_push.py, the nights'
stream in tests/web/test_nights.py)."""

from __future__ import annotations

import queue
import threading
import time
import weakref
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

WITHIN = 60.0
"""Seconds an event may take on a loaded machine before a test gives up: a bound, not a wait
(a test goes on as soon as the event is there; what a phone sees is measured in
tests/browser/test_push.py and benchmarks/club_night.py)."""
ENDS_WITHIN = 5.0
"""Seconds a stream that must end now may take to end: its end comes right after its last
event, in the same thread, so a stream still open this long was kept open by a fault (and its
test fails now rather than after WITHIN, or after a lifetime or a heartbeat ended it)."""


class Stream:
    """An event stream opened by a test client, read in a thread of its own, event by event."""

    def __init__(
        self, client: FlaskClient, url: str, environ: dict[str, Any] | None = None, **headers: str
    ) -> None:
        self.response = client.get(
            url, buffered=False, headers=headers, environ_overrides=environ or {}
        )
        self.events: queue.Queue[dict[str, str] | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        if self.response.status_code == 200:
            self.reader.start()
            _reading.setdefault(client.application, []).append(self.reader)

    def _read(self) -> None:
        pending = ""
        try:
            for chunk in self.response.response:
                pending += chunk.decode() if isinstance(chunk, bytes) else chunk
                while "\n\n" in pending:
                    block, pending = pending.split("\n\n", 1)
                    fields: dict[str, str] = {}
                    for line in block.split("\n"):
                        name, _, value = line.partition(":")
                        fields[name or "comment"] = value.strip()
                    self.events.put(fields)
        finally:
            self.events.put(None)  # the stream ended

    def next(self, timeout: float = WITHIN) -> dict[str, str] | None:
        """The next event or heartbeat; None when the stream ended."""
        return self.events.get(timeout=timeout)

    def next_event(self, timeout: float = WITHIN) -> dict[str, str] | None:
        """The next event, past any heartbeat; None when the stream ended."""
        deadline = time.monotonic() + timeout
        while True:
            found = self.next(max(0.01, deadline - time.monotonic()))
            if found is None or found.get("event") != "beat":
                return found

    def ended(self, timeout: float = ENDS_WITHIN) -> bool:
        """Whether the next thing on the stream is its end, within `timeout`: an event or a
        heartbeat first, or nothing by then, is a stream still open."""
        try:
            return self.next(timeout) is None
        except queue.Empty:
            return False

    def close(self) -> None:
        """Closed once read to its end; one still open ends by itself within its lifetime."""
        if not self.reader.is_alive():
            self.response.close()


_reading: weakref.WeakKeyDictionary[Flask, list[threading.Thread]] = weakref.WeakKeyDictionary()
"""The reader threads of the streams opened on each app."""


def end_all(app: Flask) -> None:
    """Wait until every stream opened on `app`, which is done (`push.stop`), has ended: one
    that drew its page after its test would call on the test's database when it is gone."""
    for reader in _reading.pop(app, []):
        reader.join(WITHIN)
        assert not reader.is_alive(), "a stream went on after its app was stopped"

"""Phones at once, without sleeps: requests that start together on a barrier, and a save that
goes on only once every other phone is inside a save too (waiting for the game's lock, or about
to ask for it)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from flask import Flask
from sqlalchemy import event, text

from scorekeeper.web.extensions import db

WAITING_AT_MOST = 10
"""Seconds a write holds the lock for the other phones: past it, one of them never asked for the
lock (it was answered without writing), and the write goes on."""


class Lock:
    """The phones (threads) that have asked for the game's write lock (SQLite's
    `BEGIN IMMEDIATE`) or wait in `wait_for_the_others`."""

    def __init__(self, phones: int) -> None:
        self.phones = phones
        self.asked: set[int] = set()
        self.changed = threading.Condition()

    def saw(self, _conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if statement.startswith("BEGIN IMMEDIATE"):
            with self.changed:
                self.asked.add(threading.get_ident())
                self.changed.notify_all()

    def wait_for_the_others(self) -> None:
        """Called inside a save: returns once every phone has asked for the lock or is waiting
        here too (a save that replays before it writes)."""
        with self.changed:
            self.asked.add(threading.get_ident())
            self.changed.notify_all()
            self.changed.wait_for(lambda: len(self.asked) >= self.phones, WAITING_AT_MOST)


@contextmanager
def watched_lock(app: Flask, phones: int) -> Iterator[Lock]:
    """The app's write lock, watched while the phones send their requests."""
    lock = Lock(phones)
    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", lock.saw)
    try:
        yield lock
    finally:
        event.remove(engine, "before_cursor_execute", lock.saw)


def together(sends: Sequence[Callable[[], Any]]) -> list[Any]:
    """Each send from a thread of its own, all released at once by a barrier."""
    start = threading.Barrier(len(sends))
    answers: list[Any] = [None] * len(sends)

    def run(index: int) -> None:
        start.wait()
        answers[index] = sends[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(sends))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


WAITING_FOR_A_LOCK = text(
    "SELECT count(*) FROM pg_stat_activity"
    " WHERE datname = current_database() AND wait_event_type = 'Lock'"
)


def wait_for_a_write_waiting_for_a_lock(
    app: Flask, unless: threading.Event | None = None, writes: int = 1
) -> bool:
    """On PostgreSQL: returns True once another connection (`writes` others) waits for a lock
    (each look in a transaction of its own: PostgreSQL keeps what a transaction saw of
    pg_stat_activity), False once `unless` is set (the other write went through without
    waiting); fails when neither comes."""
    with app.app_context():
        engine = db.engine
    deadline = time.monotonic() + WAITING_AT_MOST
    while time.monotonic() < deadline:
        with engine.connect() as connection:
            if (connection.scalar(WAITING_FOR_A_LOCK) or 0) >= writes:
                return True
        if unless is not None and unless.is_set():
            return False
        time.sleep(0.01)
    raise AssertionError("no write waited for a lock")


def at_once(
    first: Callable[[], object], second: Callable[[], object], holding: threading.Event
) -> dict[str, Any]:
    """`first` from a thread named "first"; `second` once `first` holds on (`holding`)."""
    answers: dict[str, Any] = {}

    def run_first() -> None:
        answers["first"] = first()

    def run_second() -> None:
        assert holding.wait(WAITING_AT_MOST)
        answers["second"] = second()

    threads = [
        threading.Thread(target=run_first, name="first"),
        threading.Thread(target=run_second),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


def held_after(
    app: Flask, function: Callable[..., Any], holding: threading.Event, done: threading.Event
) -> Callable[..., Any]:
    """`function`, which in the thread "first", once, holds on after it ran until another write
    waits for a lock or is `done`."""

    def then_hold(*args: Any) -> Any:
        found = function(*args)
        if threading.current_thread().name == "first" and not holding.is_set():
            holding.set()
            wait_for_a_write_waiting_for_a_lock(app, unless=done)
        return found

    return then_hold

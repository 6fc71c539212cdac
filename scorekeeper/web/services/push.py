"""Push: every page that follows a thing with a revision hears of its change at once.

A **key** names a thing with a revision: `game:<id>`, `night:<id>` (a club night: its standings,
director's page and table cards between rounds), `season:<id>` (a season's standings), any
other kind once it registers a reader of its revisions (`Hub.kind`) and its model (`KEYS`). A
page follows a key through an event stream (`http/stream.py`); this module knows nothing of
HTTP.

A season's revision is made of others (its own and its nights': `store.seasons`), so it is
never told: a kind so **made** (`Hub.kind(made_of=…)`) is read again instead, in one statement,
when a write that changed a kind it is made of commits in this process while one of its keys
is followed here (a hand saved at a night's table, a round, a season changed); in the other
processes, by the watcher, at once when PostgreSQL's notice names such a kind, else within a
second.

How a change is heard, in each process:

- A write names the keys it changed (`changed`; a game's or night's new revision or end is noted
  by itself, from the session's flush) and, on PostgreSQL, sends `pg_notify` in its own
  transaction, so the notice leaves when, and only if, the write commits. After the commit the
  saving process tells its own waiters at once (`Hub.tell`).
- On PostgreSQL one listener per process (`LISTEN scorekeeper`, on a connection of its own,
  reconnecting) tells the waiters of every other process.
- A watcher per process reads the revisions of every key followed there once a second, in one
  statement per kind: the net under both, and all there is on SQLite when another process
  writes (a restore from the command line, a second server).
- `changed_access` wakes every waiter to check again who may follow (the table's PIN changed,
  phones signed out); a game's new links come with a new revision that no hand recorded
  derives, so its own waiters check on that.

Who may follow has an **access stamp** (`ACCESS_STAMP`, a row of `table_setting`): a new random
one is written by every write that changes who may follow (`changed_access`). Each process
knows the latest it read (`Hub.stamp`): a write there tells it; a hand saved reads it with the
locked game, and the watcher after the revisions it reads; a new one wakes every waiter to
check again. So a waiter told of a revision knows the stamp as of at least that revision's
commit: one whose check was made at the same stamp, and whose new revision is its last one and
hands recorded (`services/kept.py`), knows its check still holds without reading it again
(pages/events.py).
"""

from __future__ import annotations

import contextlib
import logging
import secrets
import threading
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from flask import Flask, current_app, has_app_context
from sqlalchemy import event, inspect, select, text
from sqlalchemy.orm import Session

from ..extensions import db
from ..store.models import Game, Night, TableSetting
from ..store.seasons import Season, season_revisions
from ..store.settings import keep_setting

GONE = ""
"""The revision of a thing that is no more (a deleted game)."""
CHANNEL = "scorekeeper"
"""PostgreSQL's channel of the notices: `key revision`, or `* stamp` when access changed (the
new access stamp)."""
EVERYONE = "*"
ACCESS_STAMP = "access"
"""The key of the access stamp's row in `table_setting` (the module says what it is for)."""
UNKNOWN = object()
"""The stamp of a process that has not read one yet (no row is read as None)."""
WATCH_EVERY = 1.0
"""Seconds between the watcher's reads of the followed revisions."""
LISTEN_EVERY = 1.0
"""Seconds the listener waits for a notice before it looks whether the app is done."""
EXTENSION = "scorekeeper.push"
NOTED = "scorekeeper.push.noted"
LOG = logging.getLogger(__name__)

Reader = Callable[[list[str]], dict[str, str]]
"""Reads the revisions of some things of one kind, by id; a thing not there is left out."""


@dataclass
class Watched:
    """A key followed in this process: its latest revision heard, and who waits on it."""

    revision: str
    changed: threading.Condition
    waiting: int = 0
    shared: dict[Any, Any] = field(default_factory=dict)
    """What the waiters work out alike of the revision heard (pages/events.py: the news of a
    page), for the others: emptied when the revision changes."""


@dataclass
class Hub:
    """The keys followed in one process, and what tells them of a change."""

    readers: dict[str, Reader] = field(default_factory=dict)
    made: dict[str, frozenset[str]] = field(default_factory=dict)
    """The kinds whose revision is made of others' (a season's: of seasons' and nights'), with
    the kinds they are made of: read again, never told."""
    lock: threading.Lock = field(default_factory=threading.Lock)
    watched: dict[str, Watched] = field(default_factory=dict)
    access: int = 0
    """Counts the changes of who may follow (a waiter that saw another count checks again)."""
    stamp: object = UNKNOWN
    """The latest access stamp read in this process (the module says what it is for)."""
    started: bool = False
    stopped: threading.Event = field(default_factory=threading.Event)
    """Set when the app is done (`stop`): its watcher and listener end."""
    nudged: threading.Event = field(default_factory=threading.Event)
    """Set when the watcher is to look now (a notice of a kind a followed kind is made of)."""
    threads: list[threading.Thread] = field(default_factory=list)
    """The watcher and the listener, once started."""

    def kind(self, name: str, reader: Reader, *, made_of: Collection[str] = ()) -> None:
        """Register how the watcher reads the revisions of the keys `name:<id>`; `made_of`: the
        kinds their revision is made of, whose change has them read again (`look_again`)."""
        self.readers[name] = reader
        if made_of:
            self.made[name] = frozenset(made_of)

    @contextlib.contextmanager
    def watching(self, key: str, revision: str) -> Iterator[None]:
        """Follow `key`, as of `revision` if no one here follows it yet."""
        with self.lock:
            watched = self.watched.get(key)
            if watched is None:
                watched = self.watched[key] = Watched(revision, threading.Condition(self.lock))
            watched.waiting += 1
        try:
            yield
        finally:
            with self.lock:
                watched.waiting -= 1
                if watched.waiting == 0 and self.watched.get(key) is watched:
                    del self.watched[key]

    def revision(self, key: str) -> str:
        """The latest revision of `key` heard here (a followed key only)."""
        with self.lock:
            return self.watched[key].revision

    def wait(self, key: str, since: str, access: int, timeout: float) -> tuple[str, int]:
        """Wait up to `timeout` seconds for `key` to leave revision `since` or for who may
        follow to change from `access`; the revision and the access count then."""
        with self.lock:
            watched = self.watched[key]
            if watched.revision == since and self.access == access and not self.stopped.is_set():
                watched.changed.wait(timeout)
            return watched.revision, self.access

    def tell(self, key: str, revision: str) -> None:
        """`key` is at `revision` now: its waiters here wake. (A made kind's key is read again
        instead: `look_again`, or the watcher in another process.)"""
        if key.partition(":")[0] in self.made:
            return
        self._heard(key, revision)

    def _heard(self, key: str, revision: str) -> None:
        with self.lock:
            watched = self.watched.get(key)
            if watched is None or watched.revision == revision:
                return
            watched.revision = revision
            watched.shared.clear()
            watched.changed.notify_all()

    def tell_everyone(self) -> None:
        """Who may follow changed (the PIN): every waiter wakes to check again."""
        with self.lock:
            self._everyone()

    def _everyone(self) -> None:
        self.access += 1
        for watched in self.watched.values():
            watched.changed.notify_all()

    def stamped(self, stamp: str | None, *, changed: bool = False) -> None:
        """The access stamp read now (by a write, or the watcher), or written (`changed`: who
        may follow changed, told by a write or a notice): a stamp other than the one known
        wakes every waiter to check again (the first one read changes nothing: a waiter
        compares it with the one it was checked at)."""
        with self.lock:
            if changed or (stamp != self.stamp and self.stamp is not UNKNOWN):
                self._everyone()
            self.stamp = stamp

    def shared(self, key: str, revision: str) -> dict[Any, Any] | None:
        """What the waiters of `key` share of `revision`, while it is the revision heard."""
        with self.lock:
            watched = self.watched.get(key)
            return watched.shared if watched is not None and watched.revision == revision else None

    def stop(self) -> None:
        """The app is done: its watcher and listener end, and so does every stream that
        follows here (`stopped`), woken now rather than at its next heartbeat."""
        with self.lock:
            self.stopped.set()
            self.nudged.set()
            for watched in self.watched.values():
                watched.changed.notify_all()

    def followed(self) -> dict[str, str]:
        """Every key followed here, with the revision heard."""
        with self.lock:
            return {key: watched.revision for key, watched in self.watched.items()}

    def heard(self, payload: str) -> None:
        """A notice from another process: `key revision` (a bare key: gone), or `* stamp`
        (who may follow changed: the new access stamp)."""
        key, _, revision = payload.partition(" ")
        if key == EVERYONE:
            if revision:
                self.stamped(revision, changed=True)
            else:
                self.tell_everyone()
            return
        self.tell(key, revision)
        if self._again([key]):
            self.nudged.set()  # the watcher reads them: this thread has no app to read with

    def look(self, kinds: Collection[str] | None = None) -> None:
        """The watcher's one look: every followed key's revision read (of `kinds`, if given),
        in a statement a kind."""
        by_kind: dict[str, list[str]] = {}
        for key in self.followed():
            kind, _, thing = key.partition(":")
            if kind in self.readers and (kinds is None or kind in kinds):
                by_kind.setdefault(kind, []).append(thing)
        found = {kind: self.readers[kind](things) for kind, things in by_kind.items()}
        if "game" in by_kind:  # read after the revisions: as of their commits at least
            self.stamped(access_stamp())
        for kind, things in by_kind.items():
            for thing in things:
                self._heard(f"{kind}:{thing}", found[kind].get(thing, GONE))

    def look_again(self, changed: Collection[str]) -> None:
        """After a write that `changed` these keys: the followed keys of the kinds made of
        theirs read again (nothing read when none is followed here)."""
        again = self._again(changed)
        if again:
            self.look(again)

    def _again(self, changed: Collection[str]) -> set[str]:
        """The made kinds followed here that are made of the kinds of the keys `changed`."""
        kinds = {key.partition(":")[0] for key in changed}
        again = {made for made, of in self.made.items() if of & kinds}
        followed = {key.partition(":")[0] for key in self.followed()}
        return again & followed

    def start(self, app: Flask) -> None:
        """The watcher, and on PostgreSQL the listener: started with the first follower."""
        with self.lock:
            if self.started:
                return
            self.started = True
        with app.app_context():
            url = db.engine.url
        if url.get_backend_name() == "sqlite" and url.database in (None, "", ":memory:"):
            return  # a database in this process's memory: no one else writes it
        self.threads.append(
            threading.Thread(target=_watch, args=(app, self), name="push-watcher", daemon=True)
        )
        if url.get_backend_name() == "postgresql":
            conninfo = url.set(drivername="postgresql").render_as_string(hide_password=False)
            self.threads.append(
                threading.Thread(
                    target=_listen, args=(conninfo, self), name="push-listener", daemon=True
                )
            )
        for thread in self.threads:
            thread.start()


def _watch(app: Flask, hub: Hub) -> None:
    """Once a second, or at once when nudged, the followed revisions read again: the net under
    every other way."""
    while True:
        hub.nudged.wait(WATCH_EVERY)
        hub.nudged.clear()
        if hub.stopped.is_set():
            return
        if not hub.watched:
            continue
        try:
            with app.app_context():
                hub.look()
        except Exception as error:  # the database away for a moment: the next look tries again
            LOG.warning("the push watcher could not read the revisions (%s)", error)


def _listen(conninfo: str, hub: Hub) -> None:
    """LISTEN on a connection of this process's own, again after any failure (the watcher
    covers the gap), until the app is done."""
    import psycopg

    pause = 1.0
    while not hub.stopped.is_set():
        try:
            with psycopg.connect(conninfo, autocommit=True) as connection:
                connection.execute(f"LISTEN {CHANNEL}")
                pause = 1.0
                while not hub.stopped.is_set():
                    # A second at a time, so that a stopped app's listener ends; a notice that
                    # arrives between two waits is kept by the connection for the next.
                    for notice in connection.notifies(timeout=LISTEN_EVERY):
                        hub.heard(notice.payload)
        except Exception as error:
            if hub.stopped.is_set():
                return
            LOG.warning("the push listener lost PostgreSQL (%s); listening again", error)
        if hub.stopped.wait(pause):
            return
        pause = min(pause * 2, 30.0)


def hub() -> Hub:
    """This app's hub (one per process, as each process has its own app)."""
    return hub_of(current_app)


def hub_of(app: Flask) -> Hub:
    """`app`'s hub, outside its context (an event stream's thread)."""
    found: Hub = app.extensions[EXTENSION]
    return found


def game_revisions(ids: list[str]) -> dict[str, str]:
    """The watcher's reader of games: the revision of each game not deleted."""
    statement = select(Game.id, Game.revision).where(Game.id.in_(ids), Game.deleted_at.is_(None))
    with db.engine.connect() as connection:
        return {row.id: row.revision for row in connection.execute(statement)}


def game_key(game_id: str) -> str:
    return f"game:{game_id}"


def night_revisions(ids: list[str]) -> dict[str, str]:
    """The watcher's reader of nights: the revision of each night not deleted."""
    statement = select(Night.id, Night.revision).where(
        Night.id.in_(ids), Night.deleted_at.is_(None)
    )
    with db.engine.connect() as connection:
        return {row.id: row.revision for row in connection.execute(statement)}


def night_key(night_id: str) -> str:
    return f"night:{night_id}"


def season_key(season_id: str) -> str:
    return f"season:{season_id}"


KEYS: dict[type[Game] | type[Night], Callable[[str], str]] = {Game: game_key, Night: night_key}
"""The models whose rows are followed, and the key of a row: a flush notes their changes."""


# --- what a write changed -------------------------------------------------------------------------


def changed(key: str, revision: str) -> None:
    """This write's transaction moves `key` to `revision` (GONE: it is no more): told to every
    process when it commits, and never if it does not."""
    _note(db.session(), key, revision)


def changed_access() -> None:
    """This write's transaction changes who may follow (the table's PIN, phones signed out): a
    new access stamp, and every follower checks again."""
    stamp = secrets.token_hex(8)
    keep_setting(ACCESS_STAMP, stamp)
    _note(db.session(), EVERYONE, stamp)


STAMP = select(TableSetting.value).where(TableSetting.key == ACCESS_STAMP)


def access_stamp() -> str | None:
    """The access stamp now (the watcher's read)."""
    with db.engine.connect() as connection:
        found: str | None = connection.execute(STAMP).scalar()
        return found


def stamp_column() -> Any:
    """The access stamp, as a column a statement reads with what else it reads."""
    return STAMP.scalar_subquery().label("access_stamp")


def stamp_read(stamp: str | None) -> None:
    """A write read the access stamp (`stamp_column`) with what it locked."""
    if has_app_context() and EXTENSION in current_app.extensions:
        hub().stamped(stamp)


def _note(session: Session, key: str, revision: str) -> None:
    session.info.setdefault(NOTED, {})[key] = revision
    if session.get_bind().dialect.name == "postgresql":
        payload = key if revision == GONE else f"{key} {revision}"
        session.connection().execute(
            text("SELECT pg_notify(:channel, :payload)"),
            {"channel": CHANNEL, "payload": payload},
        )


def _followed_changed(session: Session, _context: Any) -> None:
    """After a flush: each game or night whose revision changed, or that was deleted or brought
    back."""
    rows: Iterable[Any] = (
        *((row, False) for row in session.new),
        *((row, False) for row in session.dirty),
        *((row, True) for row in session.deleted),
    )
    for row, deleted in rows:
        if isinstance(row, Season):  # its followers read its revision again (`look_again`)
            _note(session, season_key(row.id), GONE)
            continue
        key_of = KEYS.get(type(row))
        if key_of is None:
            continue
        state = inspect(row).attrs
        if deleted or row.deleted_at is not None:
            if deleted or state.deleted_at.history.has_changes():
                _note(session, key_of(row.id), GONE)
        elif state.revision.history.has_changes() or state.deleted_at.history.has_changes():
            _note(session, key_of(row.id), row.revision)


def _committed(session: Session) -> None:
    noted = session.info.pop(NOTED, None)
    if not noted or not has_app_context() or EXTENSION not in current_app.extensions:
        return
    here = hub()
    for key, revision in noted.items():
        if key == EVERYONE:
            here.stamped(revision, changed=True)  # the new access stamp
        else:
            here.tell(key, revision)
    here.look_again(noted)


def _forgotten(session: Session) -> None:
    session.info.pop(NOTED, None)


def stop(app: Flask) -> None:
    """This app is done (a test's, whose database goes next): its streams end now, its watcher
    and listener within a second. A server's run as long as its process."""
    found: Hub | None = app.extensions.get(EXTENSION)
    if found is not None:
        found.stop()


def init_app(app: Flask) -> None:
    """Give the app its hub, and have every write of the app's session note what it changed."""
    made = Hub()
    made.kind("game", game_revisions)
    made.kind("night", night_revisions)
    made.kind("season", season_revisions, made_of=("season", "night"))
    app.extensions[EXTENSION] = made
    for name, listener in (
        ("after_flush", _followed_changed),
        ("after_commit", _committed),
        ("after_rollback", _forgotten),
    ):
        if not event.contains(db.session, name, listener):
            event.listen(db.session, name, listener)

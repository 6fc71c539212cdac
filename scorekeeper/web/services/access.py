"""The table's PIN and the games' share links: setting them, signing phones in and out, and
checking and counting PIN guesses."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, exists, func, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.sql import Insert
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..store.database import writing
from ..store.models import (
    Game,
    Phone,
    PinAttempt,
    TableSetting,
    new_phone_id,
    new_revision,
    new_share_token,
    now,
)
from ..store.settings import keep_setting
from . import push
from .loading import lock_game

PIN = "pin"
"""The key of the PIN's hash among the table's settings."""
FREE_TRIES = 3
"""Wrong PINs an address may send before it has to wait."""
LONGEST_WAIT = timedelta(minutes=10)


class PinRefused(ValueError):
    """A PIN that cannot be set: the current one is wrong, or the new one too short or long."""


def stored_pin_hash() -> str | None:
    """The hash of the PIN set on the settings page, if any."""
    return db.session.scalar(select(TableSetting.value).where(TableSetting.key == PIN))


def stored_pin_and_phone(phone_id: str) -> tuple[str | None, bool]:
    """The hash of the PIN set on the settings page (None without one) and whether the phone
    is signed in, in one statement."""
    pin = select(TableSetting.value).where(TableSetting.key == PIN).scalar_subquery()
    row = db.session.execute(select(pin, exists().where(Phone.id == phone_id))).one()
    return row[0], bool(row[1])


def remove_stored_pin() -> bool:
    """Remove the PIN set on the settings page, whatever it was, and forget the wrong guesses
    counted (for whoever holds the server: `scorekeeper clear-pin`, or a phone that entered
    SCOREKEEPER_PIN); whether there was one."""
    with writing():
        removed = db.session.execute(delete(TableSetting).where(TableSetting.key == PIN))
        db.session.execute(delete(PinAttempt))
        push.changed_access()
    return bool(getattr(removed, "rowcount", 0))


def signed_in(phone_id: str | None) -> str | None:
    """The phone's id if it is signed in (its row is there), else None."""
    if not phone_id:
        return None
    return db.session.scalar(select(Phone.id).where(Phone.id == phone_id))


def sign_in(phone_id: str | None) -> str:
    """The id of a signed-in phone: this one's if it is still signed in, else a new one."""
    with writing():
        if phone_id and db.session.get(Phone, phone_id) is not None:
            return phone_id
        phone = Phone(id=new_phone_id())
        db.session.add(phone)
    return phone.id


def sign_out(phone_id: str | None) -> None:
    """This phone is signed out: its session counts for nothing any more, copies included."""
    if phone_id:
        with writing():
            db.session.execute(delete(Phone).where(Phone.id == phone_id))
            push.changed_access()  # its streams end


def sign_out_every_phone() -> int:
    """Every phone is signed out (each must enter the PIN or open its link again); how many."""
    with writing():
        count = db.session.scalar(select(func.count()).select_from(Phone)) or 0
        db.session.execute(delete(Phone))
        push.changed_access()
    return count


def set_pin(new: str, current: str | None) -> None:
    """Set, change (`current` must be the PIN now) or, with an empty `new`, remove the PIN."""
    new = new.strip()
    if new and not (4 <= len(new) <= 40):
        raise PinRefused("a PIN has 4 to 40 characters")
    with writing():
        stored = db.session.get(TableSetting, PIN)
        if stored is not None and not check_password_hash(stored.value, current or ""):
            raise PinRefused("the current PIN is not right")
        if not new:
            if stored is not None:
                db.session.delete(stored)
        else:
            keep_setting(PIN, generate_password_hash(new))
        push.changed_access()


@dataclass(frozen=True)
class Wait:
    """How long an address must wait before its next PIN is even read (zero: not at all)."""

    seconds: int


def _wait(attempt: PinAttempt | None, at: datetime) -> Wait:
    """Whether this address sent too many guesses lately: each one past the free tries doubles
    the wait, up to ten minutes."""
    if attempt is None or attempt.failures < FREE_TRIES:
        return Wait(0)
    wait = min(timedelta(seconds=2 ** (attempt.failures - FREE_TRIES + 1)), LONGEST_WAIT)
    left = attempt.last_at + wait - at
    return Wait(max(0, int(left.total_seconds() + 0.999)))


def wait_for(address: str, at: datetime | None = None) -> Wait:
    """How long this address must wait before its next guess is read (a page that says so)."""
    return _wait(db.session.get(PinAttempt, address), at or now())


def _insert_if_new(values: dict[str, object]) -> Insert:
    """An INSERT of a PIN guess's row that does nothing when the address has one already: two
    first guesses at once from one address both find a row, neither fails on the key."""
    if db.session.get_bind().dialect.name == "postgresql":
        return postgresql.insert(PinAttempt).values(values).on_conflict_do_nothing()
    return sqlite.insert(PinAttempt).values(values).on_conflict_do_nothing()


@dataclass(frozen=True)
class Guess:
    """What came of a PIN guess: right or wrong, or not checked at all (`wait`)."""

    right: bool
    wait: Wait = Wait(0)


class Turns:
    """The guesses this process is checking, one at a time for each address: a burst from one
    address is checked guess by guess, and once it has used the free tries, the rest of it waits
    without being checked (a check is a slow hash, on purpose)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.of: dict[str, tuple[threading.Lock, int]] = {}

    @contextlib.contextmanager
    def taken(self, address: str) -> Iterator[None]:
        """This address's turn, once the guesses before it have had theirs."""
        with self.lock:
            turn, queued = self.of.get(address, (threading.Lock(), 0))
            self.of[address] = (turn, queued + 1)
        try:
            with turn:
                yield
        finally:
            with self.lock:
                turn, queued = self.of[address]
                if queued == 1:
                    del self.of[address]
                else:
                    self.of[address] = (turn, queued - 1)


TURNS = Turns()


def guess_pin(address: str, entered: str, hashed: str) -> Guess:
    """A PIN guess from this address, checked against the PIN's `hashed` unless the address
    must wait (then it is not checked at all), and counted only if it is wrong.

    Checked first and counted after, so that a right PIN never counts against the limit of
    wrong ones: four phones behind one address typing it at once all come in. A race of wrong
    guesses is held by two things. In this process an address's guesses take turns (`Turns`),
    so the free tries are used up before the next guess is even looked at. Across processes
    (and against a wrong guess settled meanwhile in another one), a guess is settled in one
    transaction holding the address's row: one that finds the address waiting by then is
    answered as waiting, right or wrong, so that no more than the free tries are ever answered,
    and a right PIN among forty guesses at once lets its sender in only if it came within them.
    Kept in the database, so every server process counts the same.
    """
    with TURNS.taken(address):
        wait = wait_for(address)
        db.session.rollback()  # the connection goes back to the pool while the hash is checked
        if wait.seconds:
            return Guess(right=False, wait=wait)
        return _settle(address, check_password_hash(hashed, entered))


def _settle(address: str, right: bool) -> Guess:
    """Count a guess checked: a wrong one adds to the address's count (the wait runs from now,
    when the phone hears so), a right one clears it; unless the address must wait by now."""
    at = now()
    with writing():
        if not right:
            db.session.execute(_insert_if_new({"address": address, "failures": 0, "last_at": at}))
        attempt = db.session.get(PinAttempt, address, with_for_update=True, populate_existing=True)
        wait = _wait(attempt, at)
        if wait.seconds:
            return Guess(right=False, wait=wait)
        if attempt is not None and right:
            db.session.delete(attempt)
        elif attempt is not None:
            attempt.failures += 1
            attempt.last_at = at
    return Guess(right=right)


def share_tokens(game_id: str) -> tuple[str, str] | None:
    """A game's follow and join tokens, None if there is no such game (or it was deleted)."""
    row = db.session.execute(
        select(Game.follow_token, Game.join_token).where(
            Game.id == game_id, Game.deleted_at.is_(None)
        )
    ).one_or_none()
    return None if row is None else (row.follow_token, row.join_token)


def renew_links(game_id: str) -> None:
    """New follow and join links for a game: the old ones stop working at once."""
    with writing():
        game = lock_game(game_id, everything=False)
        game.follow_token, game.join_token = new_share_token(), new_share_token()
        game.revision = new_revision()

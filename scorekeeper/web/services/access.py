"""The table's PIN and the games' share links: setting them, and counting wrong PINs."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, select
from werkzeug.security import check_password_hash, generate_password_hash

from ..extensions import db
from ..store.database import writing
from ..store.models import PinAttempt, TableSetting, new_revision, new_share_token, now
from . import live
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
        elif stored is None:
            db.session.add(TableSetting(key=PIN, value=generate_password_hash(new)))
        else:
            stored.value = generate_password_hash(new)
        live.changed_access()


@dataclass(frozen=True)
class Wait:
    """How long an address must wait before its next PIN is even read (zero: not at all)."""

    seconds: int


def wait_for(address: str, at: datetime | None = None) -> Wait:
    """Whether this address sent too many wrong PINs lately: each one past the free tries
    doubles the wait, up to ten minutes."""
    attempt = db.session.get(PinAttempt, address)
    if attempt is None or attempt.failures < FREE_TRIES:
        return Wait(0)
    wait = min(timedelta(seconds=2 ** (attempt.failures - FREE_TRIES + 1)), LONGEST_WAIT)
    left = attempt.last_at + wait - (at or now())
    return Wait(max(0, int(left.total_seconds() + 0.999)))


def wrong_pin(address: str) -> None:
    """Count a wrong PIN from this address (in the database: every server process sees it)."""
    with writing():
        attempt = db.session.get(PinAttempt, address, with_for_update=True)
        if attempt is None:
            db.session.add(PinAttempt(address=address, failures=1, last_at=now()))
        else:
            attempt.failures += 1
            attempt.last_at = now()


def right_pin(address: str) -> None:
    """The PIN was right: the address starts afresh."""
    with writing():
        db.session.execute(delete(PinAttempt).where(PinAttempt.address == address))


def renew_links(game_id: str) -> None:
    """New follow and join links for a game: the old ones stop working at once."""
    with writing():
        game = lock_game(game_id, everything=False)
        game.follow_token, game.join_token = new_share_token(), new_share_token()
        game.revision = new_revision()

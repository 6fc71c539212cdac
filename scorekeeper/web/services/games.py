"""Games: set one up, play again at the same table, rename, archive, delete and bring back."""

from __future__ import annotations

import copy
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from ... import rules
from ..extensions import db
from ..store.database import writing
from ..store.models import (
    NAME_LENGTH,
    Game,
    Night,
    Player,
    Seating,
    Side,
    new_revision,
    now,
    player_key,
)
from ..store.seasons import NightOutcome
from .engine import engine_game, game_changed, replay_of
from .errors import GameRefused, NotFound, PartOfANight
from .figures import store_figures
from .loading import game_with_sides, lock_game
from .ratings import forget_games


@dataclass(frozen=True)
class NewSide:
    """A side as the new-game form gives it."""

    name: str
    players: Sequence[str]
    start_score: int = 0


def side_rows(sides: Sequence[NewSide]) -> list[Side]:
    """The rows of a new game's sides and players, in seating order."""
    return [
        Side(
            position=i,
            name=side.name,
            start_score=side.start_score,
            players=[
                Player(position=j, name=name, key=player_key(name))
                for j, name in enumerate(side.players)
            ],
        )
        for i, side in enumerate(sides)
    ]


def create_game(
    system_id: str,
    options: Sequence[str],
    sides: Sequence[NewSide],
    house_rules: dict[str, Any] | None = None,
    *,
    first_dealer: int = 0,
    token: str | None = None,
    after: str | None = None,
) -> str:
    """Set up a new game and return its id; refuses a table the system does not allow.

    `token`: the form's one-time token. A token already used starts nothing: the answer is the
    game it started, so a form sent twice (a double tap) starts one game. `after`: the game the
    table played before this one (`play_again`).
    """
    game = Game(
        system_id=system_id,
        options=sorted(options),
        house_rules=house_rules,
        first_dealer=first_dealer,
        token=token,
    )
    game.sides = side_rows(sides)
    result = rules.replay(engine_game(game, []))
    if result.game_violations:
        raise GameRefused(result.game_violations)
    store_figures(game, result)
    return _start(game, token, after)


def _start(game: Game, token: str | None, after: str | None = None) -> str:
    """Store a new game, unless its form's token started one already; the game's id.

    `after`: the game the table played before it, which names it from now on (in the same
    transaction, at a new revision), so that the phones following that one come here.
    """
    played_on: tuple[str, str, rules.GameResult] | None = None
    try:
        with writing():
            if token is not None:
                started = _started_by(token)
                if started is not None:
                    return started
            before = lock_game(after, everything=False) if after is not None else None
            db.session.add(game)
            db.session.flush()
            game_id = game.id  # read now: after the commit it would begin another transaction
            if before is not None:
                result = replay_of(before)
                before.next_game_id = game_id
                before.revision = new_revision()
                played_on = (before.id, before.revision, result)
    except IntegrityError:
        # Only a token taken between the check and the insert (on a server database): it won.
        db.session.rollback()
        started = _started_by(token) if token is not None else None
        if started is None:
            raise
        return started
    if played_on is not None:
        game_changed(*played_on)
    return game_id


def _started_by(token: str) -> str | None:
    """The game a form's one-time token started, if any."""
    return db.session.scalar(select(Game.id).where(Game.token == token))


def play_again(game_id: str, token: str) -> str:
    """A new game for the same table: the same system, options, house rules (the game's own
    copy), sides, players and seats, every score back to 0; its id. NotFound if there is none.

    The deal goes on round the table: whoever would have dealt the next hand deals the first.
    The old game names the new one, and its phones come along (a new revision tells them).
    """
    old = game_with_sides(game_id)
    seats = rules.seating(engine_game(old, []).sides)
    sides = [NewSide(side.name, [p.name for p in side.players]) for side in old.sides]
    return create_game(
        old.system_id,
        old.options,
        sides,
        copy.deepcopy(old.house_rules),
        first_dealer=seats.index(replay_of(old).next_dealer),
        token=token,
        after=game_id,
    )


@contextmanager
def _game_change(game_id: str) -> Iterator[Game]:
    """One change to how a game is shown (its name, whether archived), not to its hands: the
    game locked, then a new revision, under which its replay is cached as it was."""
    with writing():
        game = lock_game(game_id, everything=False)
        result = replay_of(game)
        yield game
        game.revision = new_revision()
        revision = game.revision
    game_changed(game_id, revision, result)


def rename_game(game_id: str, name: str) -> None:
    """Give a game a name; an empty one takes the name away (the game goes by its players)."""
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH:
        raise ValueError(f"names are at most {NAME_LENGTH} characters: {name!r}")
    with _game_change(game_id) as game:
        game.name = name or None


def archive_game(game_id: str, archived: bool = True) -> None:
    """Put a game away from the home page (it stays in the history), or bring it back."""
    with _game_change(game_id) as game:
        if archived and game.archived_at is None:
            game.archived_at = now()
        elif not archived:
            game.archived_at = None


KEPT_DELETED = timedelta(days=30)
"""How long a deleted game can be brought back; then it is purged for good."""


def night_keeping(game_id: str) -> str | None:
    """The name of the club night whose record holds this game (a game of one of its rounds,
    the night not deleted); None for any other game."""
    night: str | None = db.session.scalar(
        select(Night.name)
        .join(Game, Game.night_id == Night.id)
        .where(Game.id == game_id, Night.deleted_at.is_(None))
    )
    return night


def delete_game(game_id: str) -> bool:
    """Take a game out of every list, page and statistic, to be brought back (`bring_back`)
    until KEPT_DELETED has passed; False if there is no such game (deleted already, by a double
    tap or on another phone). A club night's game is refused (`PartOfANight`): its night's
    standings count it."""
    with writing():
        try:
            game = lock_game(game_id, everything=False)
        except NotFound:
            return False
        night = None if game.night_id is None else night_keeping(game_id)
        if night is not None:
            raise PartOfANight(night)
        game.deleted_at = now()
        # A form sent again after this (its token kept) starts a game rather than answer with
        # one that is gone.
        game.token = None
        game.revision = new_revision()
    return True


def bring_back(game_id: str) -> bool:
    """Put a deleted game back where it was; False if it is not deleted (brought back already,
    or purged: then it is not there at all)."""
    with writing():
        game = db.session.scalar(
            select(Game).where(Game.id == game_id, Game.deleted_at.is_not(None)).with_for_update()
        )
        if game is None:
            return False
        game.deleted_at = None
        game.revision = new_revision()
    return True


def purge_deleted(at: datetime | None = None) -> bool:
    """Delete for good the games (and club nights) deleted longer than KEPT_DELETED before `at`
    (now), with their sides, players, hands and corrections; whether any deleted game is still
    kept (to be brought back). Two reads when there is nothing to purge."""
    before = (at or now()) - KEPT_DELETED
    first = db.session.scalar(select(func.min(Game.deleted_at)))
    first_night = db.session.scalar(select(func.min(Night.deleted_at)))
    expired_first = [when for when in (first, first_night) if when is not None and when < before]
    if not expired_first:
        return first is not None
    with writing():
        expired = select(Game).where(Game.deleted_at < before).with_for_update()
        games = db.session.scalars(expired).all()
        forget_games([game.id for game in games])
        # A night's seating names its game: the seat stays, its game gone.
        db.session.execute(
            update(Seating)
            .where(Seating.game_id.in_([game.id for game in games]))
            .values(game_id=None)
            .execution_options(synchronize_session=False)
        )
        for game in games:
            db.session.delete(game)
        db.session.flush()
        for night in db.session.scalars(select(Night).where(Night.deleted_at < before)).all():
            # A game brought back on its own stays, a game of no night now.
            db.session.execute(
                update(Game)
                .where(Game.night_id == night.id)
                .values(night_id=None)
                .execution_options(synchronize_session=False)
            )
            db.session.execute(delete(NightOutcome).where(NightOutcome.night_id == night.id))
            db.session.delete(night)
        kept = db.session.scalar(select(Game.id).where(Game.deleted_at.is_not(None)).limit(1))
    return kept is not None

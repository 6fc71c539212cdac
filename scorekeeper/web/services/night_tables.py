"""A club night's tables: the check every hand saved, corrected, deleted or brought back at one
of them passes (`hand_at_table`, inside the hand's write: services.hands), and where a table's
card leads now.

The order of locks is nights.py's: a hand saved at a table locks its game (services.hands) and
then bumps the night's revision.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import Select, select, update

from ..extensions import db
from ..store.models import Game, Night, NightRound, Seating, new_revision
from . import push
from .nights import numbered_round


class TableClosed(Exception):
    """A hand for a night's game that takes no more: its round is over (`ended`), or it has
    all the hands a round has (`complete`); nothing was recorded."""

    def __init__(self, code: str, round_number: int, hands: int | None = None) -> None:
        super().__init__(code)
        self.code, self.round, self.hands = code, round_number, hands


class ForTheDirector(Exception):
    """A change to a hand of a night's round that is over (or of a night that ended): the table
    card's link recorded the table's hands while the round was played, and after it only the
    director, behind the table's PIN, may correct, delete or bring one back; nothing changed."""

    def __init__(self, round_number: int) -> None:
        super().__init__(round_number)
        self.round = round_number


def hand_at_table(game: Game, hands: int, *, new: bool, director: bool = False) -> None:
    """Inside a hand's write to a night's game (locked): the night's revision moves on; a new
    hand is refused (TableClosed) when its round is over or has all its hands, and a correction,
    deletion or bringing back once its round is over unless the director makes it
    (ForTheDirector)."""
    if game.night_id is None:
        return
    revision = new_revision()
    db.session.execute(update(Night).where(Night.id == game.night_id).values(revision=revision))
    push.changed(push.night_key(game.night_id), revision)  # a statement the flush does not see
    if not new and director:
        return
    row = db.session.execute(_round_of(game.id)).one_or_none()
    if row is None:
        return
    number, ended_at, round_hands, night_ended = row
    if ended_at is not None or night_ended is not None:
        if not new:
            raise ForTheDirector(number)
        raise TableClosed("ended", number)
    if new and round_hands is not None and hands >= round_hands:
        raise TableClosed("complete", number, round_hands)


def _round_of(game_id: str) -> Select[int, datetime | None, int | None, datetime | None]:
    """The round a night's game is played in: its number, when it ended, its number of hands
    and when the night ended."""
    return (
        select(NightRound.number, NightRound.ended_at, Night.round_hands, Night.ended_at)
        .join(Seating, Seating.round_id == NightRound.id)
        .join(Night, Night.id == NightRound.night_id)
        .where(Seating.game_id == game_id)
    )


def round_over(game: Game) -> int | None:
    """The number of the round a night's game was played in, once that round (or the night)
    is over: its hands are the director's now. None for a game of no night, or while its round
    is played."""
    if game.night_id is None:
        return None
    row = db.session.execute(_round_of(game.id)).one_or_none()
    if row is None:
        return None
    number, ended_at, _hands, night_ended = row
    return number if ended_at is not None or night_ended is not None else None


@dataclass(frozen=True)
class AtTable:
    """Where a table card leads now: the night (and its standings link), the table, and the game
    of the round in play (None while no round is in play, or when the table sits out)."""

    night_id: str
    table: int
    round: int
    game_id: str | None
    ended: bool
    sitting_out: bool
    """A round is being played, and this table has no game in it (a sit-out's table)."""
    follow_token: str = ""
    """The night's standings link."""
    card_token: str = ""
    """The table card's link: where a phone that records this table's hands waits while its
    table sits out."""


def table_now(night: Night, number: int) -> AtTable:
    """Where table `number`'s card leads now: the game of the round in play at it, none between
    rounds (an ended round's game takes no more hands: the card never leads back to it)."""
    game_id = None
    in_play = False
    if night.current_round and night.ended_at is None:
        played = numbered_round(night, night.current_round)
        in_play = played.ended_at is None
        seat = next((s for s in played.seats if s.table == number), None)
        if seat is not None and in_play:
            game_id = seat.game_id
    ended = night.ended_at is not None
    return AtTable(
        night.id,
        number,
        night.current_round,
        game_id,
        ended,
        in_play and game_id is None,
        night.follow_token,
        next((t.token for t in night.tables if t.number == number), ""),
    )


def table_of_game(game_id: str) -> tuple[Night, int, int] | None:
    """The night, round and table whose game this is; None for a game of its own."""
    row = db.session.execute(
        select(NightRound.night_id, NightRound.number, Seating.table)
        .join(Seating, Seating.round_id == NightRound.id)
        .where(Seating.game_id == game_id)
    ).one_or_none()
    if row is None:
        return None
    night = db.session.get(Night, row.night_id)
    if night is None or night.deleted_at is not None:
        return None
    return night, row.number, row.table


def next_at_table(game_id: str) -> AtTable | None:
    """Where the table of this game plays now; None for a game of no night."""
    found = table_of_game(game_id)
    if found is None:
        return None
    night, _number, table = found
    return table_now(night, table)

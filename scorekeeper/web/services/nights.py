"""Club nights: change the seating, start and end rounds, pairs leaving and arriving, end,
delete and bring back (setting one up: night_setup.py; a night's tables, their hands and cards:
night_tables.py).

The order of locks is the same in every write that takes both: a night's games first, then the
night's row. A hand saved at a table locks its game (services.hands) and then bumps the night's
revision; the director's writes that change games (starting or ending a round, deleting a night)
lock those games before the night, so two writes never wait for each other in a circle.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select, update

from ... import nights, rules
from ..extensions import db
from ..store.columns import NIGHT_PAIRS
from ..store.database import writing
from ..store.models import (
    NAME_LENGTH,
    Game,
    Night,
    NightRound,
    NightTable,
    Pair,
    Seating,
    Side,
    new_revision,
    new_share_token,
    now,
)
from . import push
from .engine import engine_game
from .errors import NotFound
from .figures import store_figures
from .games import NewSide, side_rows
from .outcomes import store_outcomes
from .ratings import rate_game
from .rounds import planned, round_as_played


class NightRefused(ValueError):
    """A night's write that cannot be done; nothing was changed. `code` says why (the pages
    word it), `field` what it is about, `values` what the words need."""

    def __init__(self, code: str, field: str | None = None, **values: Any) -> None:
        super().__init__(code)
        self.code, self.field, self.values = code, field, values


class SeatingRefused(ValueError):
    """A seating with problems (`nights.seating_problems`); nothing was changed."""

    def __init__(self, problems: Sequence[nights.SeatingProblem]) -> None:
        super().__init__(", ".join(p.code for p in problems))
        self.problems = list(problems)


def slots(pairs: int) -> int:
    """The pair numbers a movement seats: an odd night has a ghost, one number past the last."""
    return pairs + pairs % 2


def _night(night_id: str, lock: bool = True) -> Night:
    query = select(Night).where(Night.id == night_id, Night.deleted_at.is_(None))
    if lock:
        # Read again once locked, whatever this transaction read of it before the lock.
        query = query.with_for_update().execution_options(populate_existing=True)
    night = db.session.scalar(query)
    if night is None:
        raise NotFound(f"no night {night_id!r}")
    return night


def night_of(night_id: str) -> Night:
    """A night as the pages read it; NotFound if there is none (or it was deleted)."""
    return _night(night_id, lock=False)


def _changed(night: Night) -> None:
    """The night changed by the director: a new revision and, unless a round is being played
    (the night is worked out live then), what it gave each pair kept at it (`outcomes`)."""
    night.revision = new_revision()
    if _in_play(night) is None:
        store_outcomes([night.id])


def numbered_round(night: Night, number: int) -> NightRound:
    """A night's round by its number; NightRefused when it has none."""
    for played in night.rounds:
        if played.number == number:
            return played
    raise NightRefused("no-such-round", "round", round=number)


def _in_play(night: Night) -> NightRound | None:
    """The round being played now, if any."""
    if night.current_round == 0:
        return None
    played = numbered_round(night, night.current_round)
    return played if played.ended_at is None else None


def _lock_games(game_ids: Sequence[str]) -> None:
    """Lock games (in order of id) before their night: the order every write takes."""
    ids = sorted(set(game_ids))
    if ids:
        db.session.execute(
            select(Game.id).where(Game.id.in_(ids)).order_by(Game.id).with_for_update()
        )
        revision = new_revision()
        db.session.execute(
            update(Game)
            .where(Game.id.in_(ids))
            .values(revision=revision)
            # Each game's page shows its round's state: a new revision draws it again.
            .execution_options(synchronize_session=False)
        )
        for game_id in ids:  # a statement the session's flush does not see: told by name
            push.changed(push.game_key(game_id), revision)


def _round_games(night_id: str, number: int) -> list[str]:
    query = (
        select(Seating.game_id)
        .join(NightRound, Seating.round_id == NightRound.id)
        .where(
            NightRound.night_id == night_id,
            NightRound.number == number,
            Seating.game_id.is_not(None),
        )
    )
    return [game_id for game_id in db.session.scalars(query) if game_id is not None]


def change_seating(night_id: str, number: int, seats: Sequence[nights.Seat]) -> None:
    """The director's seating of a round not started yet; SeatingRefused with every problem."""
    with writing():
        night = _night(night_id)
        played = numbered_round(night, number)
        if night.ended_at is not None:
            raise NightRefused("night-over")
        if played.started_at is not None:
            raise NightRefused("round-started", "round", round=number)
        numbers = range(1, slots(len(night.pairs)) + 1)
        problems = nights.seating_problems([nights.Round(number, tuple(seats))], numbers)
        if problems:
            raise SeatingRefused(problems)
        played.seats = []
        db.session.flush()  # the old seats go before the new ones take their tables
        played.seats = [Seating(table=s.table, ns=s.ns, ew=s.ew) for s in seats]
        _changed(night)


def start_round(night_id: str, number: int) -> int:
    """Start round `number` (the next one): a game at each table whose two pairs are here; the
    last round's games show that the table moved on. How many games started."""
    with writing():
        night = _night(night_id, lock=False)
        previous = _round_games(night_id, night.current_round)
        _lock_games(previous)
        night = _night(night_id)
        if night.ended_at is not None:
            raise NightRefused("night-over")
        if number != night.current_round + 1 or number > night.round_count:
            raise NightRefused("not-next-round", "round", round=number)
        if _in_play(night) is not None:
            raise NightRefused("round-in-play", "round", round=night.current_round)
        played = numbered_round(night, number)
        record = round_as_played(night, played)
        if not record.seats:
            raise NightRefused("no-tables", "round", round=number)
        pairs = {pair.number: pair for pair in night.pairs}
        tables = {seat.table for seat in record.seats}
        for seat in played.seats:
            if seat.table in tables:  # else a ghost or a pair that left: the other sits out
                seat.game_id = _new_game(night, number, seat.table, pairs[seat.ns], pairs[seat.ew])
        played.sitting_out = list(record.sitting_out)
        played.absent = list(record.absent)
        played.started_at = now()
        night.current_round = number
        _changed(night)
    return len(record.seats)


def _new_game(night: Night, number: int, table: int, ns: Pair, ew: Pair) -> str:
    """One table's game of one round: an ordinary game, marked with its night."""
    name = f"{night.name} · {number}/{table}"
    game = Game(
        system_id=night.system_id,
        options=list(night.options),
        house_rules=copy.deepcopy(night.house_rules),
        night_id=night.id,
        name=name[:NAME_LENGTH],
    )
    game.sides = side_rows(
        [NewSide(pair_name(pair)[:NAME_LENGTH], [pair.first, pair.second]) for pair in (ns, ew)]
    )
    store_figures(game, rules.replay(engine_game(game, [])))
    db.session.add(game)
    db.session.flush()
    return game.id


def pair_name(pair: Pair) -> str:
    """How a pair is named on its game's side: its number and its players."""
    return f"{pair.number}. {pair.first} & {pair.second}"


@dataclass(frozen=True)
class Stopped:
    """A table whose game the end of its round stopped unfinished: its hands played, and what
    it counts as."""

    table: int
    hands: int
    counting: nights.Counting


def end_round(
    night_id: str,
    number: int,
    counts: Mapping[int, nights.Counting] | None = None,
    seen: Mapping[int, int] | None = None,
) -> list[Stopped]:
    """End round `number`, the round in play: its tables take no more hands, and each table
    unfinished counts as `counts` says for it (by table number), else as
    `nights.default_counting` says. With `seen`, the hands each table had played when the
    director chose: a table that has played another since, or is unfinished unseen, is
    refused ("table-changed"), to be asked about again. NightRefused, changing nothing, for
    another round than the one in play, or a table without a hand counted as it stands. The
    tables stopped, in order."""
    with writing():
        _lock_games(_round_games(night_id, number))
        night = _night(night_id)
        played = _in_play(night)
        if played is None or played.number != number:
            raise NightRefused("round-not-in-play", "round", round=number)
        stopped = _stop(night, played, counts or {}, seen)
        played.ended_at = now()
        _rate_round(played)
        _changed(night)
    return stopped


def unfinished(night: Night, played: NightRound) -> list[tuple[Seating, int]]:
    """The seats of a round whose games are not finished, each with its hands played."""
    seats = {seat.game_id: seat for seat in played.seats if seat.game_id is not None}
    state = db.session.execute(
        select(Side.game_id, Side.hands, Game.over)
        .join(Game, Game.id == Side.game_id)
        .where(Side.game_id.in_(seats), Side.position == 0)
    )
    found = [
        (seats[game_id], hands or 0)
        for game_id, hands, over in state
        if not nights.finished(hands or 0, over, night.round_hands)
    ]
    return sorted(found, key=lambda seat_hands: seat_hands[0].table)


def _stop(
    night: Night,
    played: NightRound,
    counts: Mapping[int, nights.Counting],
    seen: Mapping[int, int] | None,
) -> list[Stopped]:
    """What each unfinished game of the round counts as, kept on its seat."""
    stopped = []
    for seat, hands in unfinished(night, played):
        if seen is not None and seen.get(seat.table) != hands:
            raise NightRefused("table-changed", "table", table=seat.table)
        counting = counts.get(seat.table, nights.default_counting(hands))
        if counting is nights.Counting.AS_IT_STANDS and not hands:
            raise NightRefused("nothing-to-count", "table", table=seat.table)
        seat.counting = counting.value
        stopped.append(Stopped(seat.table, hands, counting))
    return stopped


def _rate_round(played: NightRound) -> None:
    """A round's games end with it: each that counts is rated as it stands (a game over
    before was rated then; `services.ratings`)."""
    for seat in played.seats:
        if seat.game_id is None or seat.counting == nights.Counting.NOT_PLAYED.value:
            continue
        game = db.session.get(Game, seat.game_id)
        if game is not None and game.deleted_at is None and game.sides[0].hands:
            rate_game(game)


def end_night(
    night_id: str,
    counts: Mapping[int, nights.Counting] | None = None,
    seen: Mapping[int, int] | None = None,
) -> list[Stopped]:
    """End the night, and the round in play as `end_round` does: its table cards open no game
    any more. The tables stopped unfinished (none for a night ended already)."""
    with writing():
        _lock_games(_round_games(night_id, night_of(night_id).current_round))
        night = _night(night_id)
        if night.ended_at is not None:
            return []
        played = _in_play(night)
        stopped = []
        if played is not None:
            stopped = _stop(night, played, counts or {}, seen)
            played.ended_at = now()
            _rate_round(played)
        night.ended_at = now()
        _changed(night)
    return stopped


def set_ranking(night_id: str, ranking: nights.Ranking) -> None:
    with writing():
        night = _night(night_id)
        night.ranking = ranking.value
        _changed(night)


def _between_rounds(night: Night) -> None:
    if night.ended_at is not None:
        raise NightRefused("night-over")
    played = _in_play(night)
    if played is not None:
        raise NightRefused("round-in-play", "round", round=played.number)


def may_leave(night: Night, number: int) -> Pair:
    """Pair `number`, which may leave now (between rounds, and there): what the director's
    page asks about before it leaves; NightRefused, saying why, otherwise."""
    _between_rounds(night)
    pair = next((p for p in night.pairs if p.number == number), None)
    if pair is None:
        raise NightRefused("no-such-pair", "pair", pair=number)
    if not pair.present:
        raise NightRefused("pair-left", "pair", pair=number)
    return pair


def set_present(night_id: str, number: int, present: bool) -> None:
    """A pair that leaves (its later opponents sit out) or comes back, between rounds."""
    with writing():
        night = _night(night_id)
        if not present:
            may_leave(night, number).present = False
            _changed(night)
            return
        _between_rounds(night)
        pair = next((p for p in night.pairs if p.number == number), None)
        if pair is None:
            raise NightRefused("no-such-pair", "pair", pair=number)
        pair.present = present
        _changed(night)


def add_pair(night_id: str, first: str, second: str) -> int:
    """A pair that arrives between rounds; its number. In an odd night it takes the ghost's
    place (the ghost's opponent sits out no more); in an even one the night becomes odd: a
    table more, the ghost's, and the rounds not started seated again (`nights.with_arrival`:
    the new pair plays every round, a pair meeting the ghost sits out in its place)."""
    with writing():
        night = _night(night_id)
        _between_rounds(night)
        if len(night.pairs) >= NIGHT_PAIRS:
            raise NightRefused("no-free-place", "pair")
        number = len(night.pairs) + 1
        names = {" ".join(n.split()).casefold() for p in night.pairs for n in (p.first, p.second)}
        for name in (first, second):
            if " ".join(name.split()).casefold() in names:
                raise NightRefused("player-twice", "pair", name=name, first=0, pair=number)
        if len(night.pairs) % 2 == 0:
            _seat_arrival(night)
        night.pairs.append(Pair(number=number, first=first, second=second))
        _changed(night)
    return number


def _seat_arrival(night: Night) -> None:
    """An even night becoming odd: the ghost's table, and the rounds not started seated again
    for the pair that arrives (its number and the ghost's are the next two)."""
    pairs = len(night.pairs)
    night.tables.append(NightTable(number=len(night.tables) + 1))
    coming = [played for played in night.rounds if played.started_at is None]
    absent = {pair.number for pair in night.pairs if not pair.present}
    rounds = [planned(played) for played in coming]
    seated = nights.with_arrival(rounds, pairs, absent)
    for played in coming:
        played.seats = []
    db.session.flush()  # the old seats go before the new ones take their tables
    for played, again in zip(coming, seated, strict=True):
        played.seats = [Seating(table=s.table, ns=s.ns, ew=s.ew) for s in again.seats]


def delete_night(night_id: str) -> bool:
    """Take a night and its games out of every list and page, to be brought back as a deleted
    game is (`services.games.KEPT_DELETED`); False if there is no such night."""
    with writing():
        games = list(db.session.scalars(select(Game.id).where(Game.night_id == night_id)))
        _lock_games(games)
        try:
            night = _night(night_id)
        except NotFound:
            return False
        at = now()
        night.deleted_at = at
        night.token = None
        still_there = Game.night_id == night_id, Game.deleted_at.is_(None)
        for game_id in db.session.scalars(select(Game.id).where(*still_there)):
            push.changed(push.game_key(game_id), push.GONE)  # their pages say they are gone
        db.session.execute(
            update(Game)
            .where(*still_there)
            .values(deleted_at=at, token=None)
            .execution_options(synchronize_session=False)
        )
    return True


def bring_back_night(night_id: str) -> bool:
    """A deleted night back, with the games deleted with it; False if it is not deleted."""
    with writing():
        night = db.session.scalar(
            select(Night).where(Night.id == night_id, Night.deleted_at.is_not(None))
        )
        if night is None:
            return False
        db.session.execute(
            update(Game)
            .where(Game.night_id == night_id, Game.deleted_at == night.deleted_at)
            .values(deleted_at=None, revision=new_revision())
            .execution_options(synchronize_session=False)
        )
        night.deleted_at = None
        _changed(night)
    return True


def renew_cards(night_id: str) -> None:
    """New table cards: the old ones stop working at once."""
    with writing():
        night = _night(night_id)
        for table in night.tables:
            table.token = new_share_token()
        _changed(night)

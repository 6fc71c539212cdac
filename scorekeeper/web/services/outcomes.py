"""What each night gave its pairs (`nights.Outcome`), worked out from its tables as they stand
and kept on rows (`NightOutcome`) under the night's revision, so that a season's standings and
a player's nights read a few small rows a night instead of working out every night's standings
again on every page view.

- **Written** inside the write that ends a round or the night, that changes its ranking, or
  that corrects a game of a round that is over (`store_outcomes`); a restore and an upgrade
  work out the nights that lack them (`refresh_outcomes`).
- **Read** only where their revision is their night's (`as_the_season_reads`): a write that
  moves a night's revision on without writing them (a hand saved while a round is played)
  leaves them stale, and the night is worked out from its tables, as it always was. So a night
  in play is worked out live, one night, and nothing stale is ever shown.
- **Players merged** (or renamed, or a merge undone) take their rows with them: the pairs'
  keys are read again as the games' rows name them now (`rekey`).
- **Kept in the process** as read (`season_reads`), with the pairs' names, under the night's
  revision (each write to a night gives it a new one): a season's standings drawn again after
  one of its nights changed read only that night. A night's read is kept while its night is
  followed (`services/keeping.py`), the latest revision only.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from flask import Flask, current_app
from sqlalchemy import Select, delete, insert, or_, select, update

from ... import nights
from ...nights.seasons import Night as SeasonNight
from ..extensions import db
from ..store.database import writing
from ..store.models import Game, Night, Pair, Player, Side
from ..store.queries import TableRow, nights_tables
from ..store.seasons import NightOutcome, pair_names, pair_players, with_rounds_and_pairs
from . import keeping, push
from .rounds import round_as_played

BATCH = 25
"""Nights worked out together: their tables, rounds and seats are read a batch at a time."""


def counted_as(row: TableRow) -> nights.Counting | None:
    """What the director counted a table's game as, stopped unfinished; None: as played."""
    return None if row.counting is None else nights.Counting(row.counting)


def games(rows: list[TableRow]) -> list[nights.Game]:
    """The games of the rounds started (not deleted), as they stand: the rankings count those
    with a hand, unless counted as not played."""
    return [
        nights.Game(
            r.round, r.table, r.ns, r.ew, r.ns_total or 0, r.ew_total or 0, r.hands or 0,
            counted_as(r),
        )
        for r in rows
        if r.game_id is not None
    ]  # fmt: skip


def in_play(night: Night) -> int | None:
    """The number of the round being played, None between rounds."""
    current = next((r for r in night.rounds if r.number == night.current_round), None)
    if current is None or current.started_at is None or current.ended_at is not None:
        return None
    return current.number


def placed(
    night: Night, rows: list[TableRow], by: nights.Ranking
) -> tuple[list[nights.Standing], dict[int, nights.Round]]:
    """A night's pairs placed by `by` as its tables stand now (`nights.standings`), and its
    rounds as played."""
    records = {
        r.number: round_as_played(night, r) for r in night.rounds if r.started_at is not None
    }
    playing = in_play(night)
    return nights.standings(
        [pair.number for pair in night.pairs], games(rows), by, records.values(), playing
    ), records


def worked_out(played: Sequence[Night]) -> list[SeasonNight]:
    """Each night as the season reads it, worked out from its tables as they stand now: its
    pairs' players and what it gave each pair (a fixed number of statements however many)."""
    if not played:
        return []
    ids = [night.id for night in played]
    players, tables = pair_players(ids), nights_tables(ids)
    with_rounds_and_pairs(ids)
    return [
        SeasonNight(
            night.id,
            players[night.id],
            nights.outcomes(placed(night, tables[night.id], nights.Ranking(night.ranking))[0]),
            night.ended_at is not None,
        )
        for night in played
    ]


FIGURES = tuple(NightOutcome.__table__.c[name] for name in nights.Outcome._fields)
"""The columns of a row that are the night's `nights.Outcome`, in its order."""


@dataclass(frozen=True)
class SeasonRead:
    """A night as a season's standings read it: what it gave its pairs, and their names as the
    night spells them (by pair number)."""

    night: SeasonNight
    names: Mapping[int, tuple[str, str]]


ByPair = dict[int, tuple[str, str]]
"""Two of each pair's (their keys, or their names), by pair number."""


def _kept_reads(played: Sequence[Night]) -> dict[str, SeasonRead]:
    """The nights whose rows are at their revision, read from them, with their pairs' names:
    one statement, each row with its pair's (a year's season: 3,000 rows, not twice as many)."""
    revisions = {night.id: night.revision for night in played}
    found: dict[str, tuple[ByPair, list[nights.Outcome], ByPair]] = {}
    columns = (NightOutcome.night_id, NightOutcome.revision, NightOutcome.first,
               NightOutcome.second, Pair.first, Pair.second, *FIGURES)  # fmt: skip
    its_pair = (Pair.night_id == NightOutcome.night_id) & (Pair.number == NightOutcome.pair)
    query = select(*columns).outerjoin(Pair, its_pair).where(NightOutcome.night_id.in_(revisions))
    # Plain rows from the connection: the ORM's handling of each of 3,000 is not needed here.
    rows = db.session.connection().execute(query)
    for night_id, revision, first, second, named, partner, *figures in rows:
        if revision != revisions[night_id]:
            continue  # a write since: stale
        if night_id not in found:  # not a setdefault: three containers made for each row
            found[night_id] = ({}, [], {})
        pairs, given, names = found[night_id]
        outcome = nights.Outcome(*figures)
        pairs[outcome.pair] = (first, second)
        given.append(outcome)
        if named is not None:
            names[outcome.pair] = (named, partner)
    reads = {}
    for night in played:
        if night.id in found:
            pairs, given, names = found[night.id]
            reads[night.id] = SeasonRead(
                SeasonNight(night.id, pairs, given, night.ended_at is not None), names
            )
    return reads


def _kept(played: Sequence[Night]) -> dict[str, SeasonNight]:
    """The nights whose rows are at their revision, read from them."""
    return {night_id: read.night for night_id, read in _kept_reads(played).items()}


def as_the_season_reads(played: Sequence[Night]) -> list[SeasonRead]:
    """Each night as the season reads it, with its pairs' names: from its rows where they are at
    its revision, else worked out from its tables (a night in play, or changed since its rows
    were written), their names read apart."""
    kept = _kept_reads(played)
    live = [night for night in played if night.id not in kept]
    names = pair_names([night.id for night in live]) if live else {}
    worked = iter(worked_out(live))
    return [
        kept[night.id] if night.id in kept else SeasonRead(next(worked), names[night.id])
        for night in played
    ]


EXTENSION = "scorekeeper.outcomes"


def init_app(app: Flask) -> None:
    """The nights' reads this app keeps: one revision of each night (its latest read)."""
    app.extensions[EXTENSION] = keeping.Keeping[tuple[str, str], SeasonRead](1)
    keeping.kept_by(app, EXTENSION, app.extensions[EXTENSION])


def season_reads(played: Sequence[Night]) -> list[SeasonRead]:
    """Each night as `as_the_season_reads` reads it: kept by the process under the night's
    revision, so only the nights changed since they were last read are read (their rows, their
    names, and for one in play its tables). The revision is the one read
    with the night, before what is read of it: a night changed meanwhile is kept under the
    revision before with what is newer, never the other way round."""
    reads: keeping.Keeping[tuple[str, str], SeasonRead] = current_app.extensions[EXTENSION]
    found = {night.id: reads.get((night.id, night.revision)) for night in played}
    missing = [night for night in played if found[night.id] is None]
    for night, new in zip(missing, as_the_season_reads(missing) if missing else [], strict=True):
        found[night.id] = new
        reads.keep((night.id, night.revision), new, push.night_key(night.id))
    return [read for night in played if (read := found[night.id]) is not None]


def kept_of_player(
    key: str, played: Sequence[Night]
) -> dict[str, tuple[nights.Outcome, tuple[str, str], tuple[str, str]]]:
    """Of the nights `played` whose rows are at their revision, what each gave the player's
    pair there, with the pair's keys and names (one statement, the player's rows only)."""
    revisions = {night.id: night.revision for night in played}
    query = (
        select(NightOutcome.night_id, NightOutcome.revision, NightOutcome.first,
               NightOutcome.second, Pair.first, Pair.second, *FIGURES)
        .join(Pair, (Pair.night_id == NightOutcome.night_id) & (Pair.number == NightOutcome.pair))
        .where(or_(NightOutcome.first == key, NightOutcome.second == key))
        .where(NightOutcome.night_id.in_(revisions))
    )  # fmt: skip
    return {
        night_id: (nights.Outcome(*figures), (first, second), (named, partner))
        for night_id, revision, first, second, named, partner, *figures in db.session.execute(query)
        if revision == revisions[night_id]
    }


def store_outcomes(night_ids: Collection[str]) -> None:
    """Inside a write, once it has changed the nights: their rows written again, at the
    revision each night has now, from their tables as they stand."""
    ids = sorted(set(night_ids))
    for start in range(0, len(ids), BATCH):
        batch = ids[start : start + BATCH]
        db.session.flush()
        found = db.session.scalars(
            select(Night).where(Night.id.in_(batch)).execution_options(populate_existing=True)
        ).all()
        db.session.execute(delete(NightOutcome).where(NightOutcome.night_id.in_(batch)))
        rows = [
            {
                "night_id": read.id,
                "revision": night.revision,
                "first": read.pairs[outcome.pair][0],
                "second": read.pairs[outcome.pair][1],
                **outcome._asdict(),
            }
            for night, read in zip(found, worked_out(found), strict=True)
            for outcome in read.outcomes
            if outcome.pair in read.pairs
        ]
        if rows:
            db.session.execute(insert(NightOutcome), rows)


def carry(night_ids: Collection[str], revision: str) -> None:
    """Inside a write that gives these nights a new `revision` without changing what they gave
    (a player renamed or merged: `rekey` then moves the keys): their rows at the revision
    they had take the new one, so that a season still reads them."""
    db.session.execute(
        update(NightOutcome)
        .where(
            NightOutcome.night_id.in_(night_ids),
            NightOutcome.revision
            == select(Night.revision).where(Night.id == NightOutcome.night_id).scalar_subquery(),
        )
        .values(revision=revision)
        .execution_options(synchronize_session=False)
    )


def rekey(players: Select[int]) -> None:
    """Inside a write that changed the keys of the player rows whose ids `players` selects (a
    merge, a rename, a merge undone): the rows of their nights take the pairs' keys as the
    games' rows name them now."""
    query = (
        select(Game.night_id)
        .join(Side, Side.game_id == Game.id)
        .join(Player, Player.side_id == Side.id)
        .where(Player.id.in_(players), Game.night_id.is_not(None))
        .distinct()
    )
    ids = [night_id for night_id in db.session.scalars(query) if night_id is not None]
    if not ids:
        return
    keys = pair_players(ids)
    for row in db.session.scalars(select(NightOutcome).where(NightOutcome.night_id.in_(ids))):
        pair = keys[row.night_id].get(row.pair)
        if pair is not None:
            row.first, row.second = pair


def _in_order(night: SeasonNight) -> SeasonNight:
    return SeasonNight(
        night.id, night.pairs, sorted(night.outcomes, key=lambda o: o.pair), night.finished
    )


def differing() -> list[str]:
    """The nights whose rows, at their revision, are not what working them out again gives:
    none, if every write that changes a night keeps its rows right (the tests' invariant)."""
    played = db.session.scalars(select(Night).order_by(Night.id)).all()
    kept = _kept(played)
    fresh = worked_out([night for night in played if night.id in kept])
    return [read.id for read in fresh if _in_order(read) != _in_order(kept[read.id])]


def refresh_outcomes() -> int:
    """Write the rows of the nights (not deleted) that have none at their revision (after an
    upgrade); how many nights."""
    with writing():
        every = db.session.scalars(select(Night).where(Night.deleted_at.is_(None))).all()
        kept = _kept(every)
        stale = [night.id for night in every if night.id not in kept]
        store_outcomes(stale)
    return len(stale)

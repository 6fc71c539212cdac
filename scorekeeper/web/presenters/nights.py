"""What a night's pages show: the standings (every pair's place and score by round), each
table's progress, the seating of every round, the round clock; and the results as CSV and text.

Worked out from one read of the night's tables (`queries.night_tables`) and kept under the
night's revision by the page (drawn once per change, not per viewer)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta
from fractions import Fraction

from flask_babel import gettext as _

from ... import nights
from ..services.outcomes import counted_as, in_play, placed
from ..services.rounds import round_as_played
from ..store.models import Night, Pair
from ..store.queries import TableRow, night_of_game
from ..store.reads import GameRead


@dataclass(frozen=True)
class PairShown:
    number: int
    names: str
    present: bool


@dataclass(frozen=True)
class RoundScore:
    """A pair's round: its points and how the game went (win, draw, loss), or why it had none
    that counts; and, for a round it was there without one, the average it is credited."""

    points: int | None
    outcome: str
    """"win", "draw", "loss"; "not-played" (a game without a hand, or counted so); else where
    the pair was (`nights.Presence`: "sat-out", "left", "not-arrived"); "" for a round not
    started, or a game of the round in play without a hand yet."""
    playing: bool
    credit: Fraction | None = None
    """Its average per game (wins, or points), credited for this round."""


@dataclass(frozen=True)
class StandingRow:
    place: int
    pair: PairShown
    points: int
    wins: float
    difference: int
    rounds: list[RoundScore]
    score: Fraction
    """What it is ranked by: its wins (or points) with its average for each round credited."""
    games: int
    """The games that counted."""


@dataclass(frozen=True)
class TableProgress:
    """A table of the round being shown: its pairs and their totals, hands played of how many,
    finished; or stopped unfinished when its round ended, and what its game counts as then."""

    table: int
    ns: PairShown | None
    ew: PairShown | None
    game_id: str | None
    hands: int
    of: int | None
    finished: bool
    ns_total: int = 0
    ew_total: int = 0
    stopped: bool = False
    counting: nights.Counting | None = None


@dataclass(frozen=True)
class UnfinishedTable:
    """A table of the round in play whose game is not finished: what ending the round asks the
    director to count it as (`services.nights.end_round`), and the answer unless chosen."""

    table: int
    ns: PairShown | None
    ew: PairShown | None
    hands: int
    of: int | None
    ns_total: int
    ew_total: int
    default: nights.Counting
    choices: tuple[nights.Counting, ...]
    """As it stands only once a hand was played: a game without one is not played."""


@dataclass(frozen=True)
class SeatShown:
    table: int
    ns: PairShown | None
    ew: PairShown | None


@dataclass(frozen=True)
class RoundSeating:
    """A round's tables and who sat out, had left or had not arrived: as played once it
    started (what it kept then), as it would be played by the pairs here now before."""

    number: int
    seats: list[SeatShown]
    sitting_out: list[PairShown]
    absent: list[PairShown]
    not_arrived: list[PairShown]
    started: bool


@dataclass(frozen=True)
class Standings:
    name: str
    ranking: nights.Ranking
    shown_by: nights.Ranking
    round: int
    round_count: int
    in_play: bool
    ended: bool
    rows: list[StandingRow]
    tables: list[TableProgress]
    playing: int
    """Tables of the round in play still playing."""
    clock_ends: datetime | None
    """When the round in play's clock runs out (UTC), None without a clock."""


def _pairs(night: Night) -> dict[int, PairShown]:
    return {p.number: PairShown(p.number, _names(p), p.present) for p in night.pairs}


def _names(pair: Pair) -> str:
    return f"{pair.first} & {pair.second}"


def _finished(row: TableRow, round_hands: int | None) -> bool:
    return nights.finished(row.hands or 0, bool(row.over), round_hands)


def standings(night: Night, rows: list[TableRow], by: nights.Ranking | None = None) -> Standings:
    """The standings of a night as its tables stand now."""
    ranking = nights.Ranking(night.ranking)
    shown_by = by or ranking
    pairs = _pairs(night)
    current = next((r for r in night.rounds if r.number == night.current_round), None)
    in_play = current is not None and current.ended_at is None and current.started_at is not None
    placed_now, records = placed(night, rows, shown_by)
    at_table = {(r.round, p): r for r in rows if r.game_id is not None for p in (r.ns, r.ew)}
    table_rows = []
    for standing in placed_now:
        average = standing.score / (standing.games + len(standing.credited) or 1)
        scores = []
        for number in range(1, night.round_count + 1):
            score = standing.by_round.get(number)
            row = at_table.get((number, standing.pair))
            if score is not None and row is not None:
                outcome = ("loss", "draw", "win")[score.half_wins]
                playing = (
                    in_play
                    and number == night.current_round
                    and not _finished(row, night.round_hands)
                )
                scores.append(RoundScore(score.points, outcome, playing))
            elif number not in records:
                scores.append(RoundScore(None, "", False))
            elif number in standing.credited:
                outcome = "not-played" if row is not None else "sat-out"
                scores.append(RoundScore(None, outcome, False, average))
            elif row is not None:  # the round in play: its first hand is still to come
                scores.append(RoundScore(None, "", True))
            else:
                where = nights.presence(records[number], standing.pair)
                scores.append(RoundScore(None, where.value, False))
        table_rows.append(
            StandingRow(
                standing.place,
                pairs[standing.pair],
                standing.points,
                standing.wins,
                standing.difference,
                scores,
                standing.score,
                standing.games,
            )
        )
    progress = [
        TableProgress(
            r.table,
            pairs.get(r.ns),
            pairs.get(r.ew),
            r.game_id,
            r.hands or 0,
            night.round_hands,
            _finished(r, night.round_hands),
            r.ns_total or 0,
            r.ew_total or 0,
            not in_play and not _finished(r, night.round_hands),
            counted_as(r),
        )
        for r in rows
        if r.round == night.current_round and r.game_id is not None
    ]
    clock = None
    if in_play and current is not None and current.started_at and night.round_minutes:
        clock = current.started_at + timedelta(minutes=night.round_minutes)
    return Standings(
        name=night.name,
        ranking=ranking,
        shown_by=shown_by,
        round=night.current_round,
        round_count=night.round_count,
        in_play=in_play,
        ended=night.ended_at is not None,
        rows=table_rows,
        tables=progress,
        playing=sum(1 for t in progress if not t.finished) if in_play else 0,
        clock_ends=clock,
    )


def unfinished(night: Night, rows: list[TableRow]) -> list[UnfinishedTable]:
    """The tables of the round in play whose games are not finished, in order: what ending the
    round asks about (none between rounds)."""
    if in_play(night) is None:
        return []
    pairs = _pairs(night)
    return [
        UnfinishedTable(
            r.table,
            pairs.get(r.ns),
            pairs.get(r.ew),
            r.hands or 0,
            night.round_hands,
            r.ns_total or 0,
            r.ew_total or 0,
            nights.default_counting(r.hands or 0),
            nights.countings(r.hands or 0),
        )
        for r in rows
        if r.round == night.current_round
        and r.game_id is not None
        and not _finished(r, night.round_hands)
    ]


def seating(night: Night) -> list[RoundSeating]:
    """Who sits where in every round: as played once it started, with who sat out, had left or
    had not arrived (`services.nights.round_as_played`); a round to come as the pairs here now
    would play it."""
    pairs = _pairs(night)
    shown = []
    for played in night.rounds:
        record = round_as_played(night, played)
        started = played.started_at is not None
        there = {p for seat in record.seats for p in (seat.ns, seat.ew)}
        there |= {*record.sitting_out, *record.absent}
        shown.append(
            RoundSeating(
                played.number,
                [SeatShown(s.table, pairs.get(s.ns), pairs.get(s.ew)) for s in record.seats],
                [pairs[n] for n in record.sitting_out if n in pairs],
                [pairs[n] for n in record.absent if n in pairs],
                [p for n, p in pairs.items() if started and n not in there],
                started,
            )
        )
    return shown


@dataclass(frozen=True)
class TableRound:
    """One round at one table: who sits north-south and east-west, or nobody plays there."""

    number: int
    seat: SeatShown | None
    started: bool


def table_rounds(rounds: list[RoundSeating], table: int) -> list[TableRound]:
    """One table's seating round after round (who comes to this table next), from every
    round's seating (`seating`)."""
    return [
        TableRound(r.number, next((s for s in r.seats if s.table == table), None), r.started)
        for r in rounds
    ]


def results_csv(shown: Standings, headings: list[str]) -> str:
    """The standings as CSV: place, pair, players, score, points, wins, difference, and each
    round's points, or why the pair had none (not played, sat out, had left, had not
    arrived)."""
    where = {
        "not-played": _("not played"),
        "sat-out": _("sat out"),
        "left": _("had left"),
        "not-arrived": _("had not arrived"),
    }
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headings + [str(n) for n in range(1, shown.round_count + 1)])
    for row in shown.rows:
        writer.writerow(
            [
                row.place,
                row.pair.number,
                row.pair.names,
                float(round(row.score, 2)),
                row.points,
                row.wins,
                row.difference,
                *(where.get(r.outcome, "") if r.points is None else r.points for r in row.rounds),
            ]
        )
    return out.getvalue()


@dataclass(frozen=True)
class NightSeat:
    """What a night's game says of its night: the round and table, whether the round ended,
    and whether its table has moved on to a later round (`now`)."""

    game_id: str
    name: str
    round: int
    table: int
    ended: bool
    moved_on: bool
    now: int
    complete: bool
    """The round is a number of hands, all played here: the table waits for the next round."""


def night_seat(game: GameRead) -> NightSeat | None:
    """The night of a game of a night's round (one statement); None for any other game."""
    if game.night_id is None:
        return None
    found = night_of_game(game.id)
    if found is None:
        return None
    ended = found.round_ended_at is not None or found.night_ended_at is not None
    moved_on = found.current_round > found.round and found.night_ended_at is None
    played = len(game.live_hands)
    complete = found.round_hands is not None and played >= found.round_hands
    return NightSeat(
        game.id,
        found.name,
        found.round,
        found.table,
        ended,
        moved_on,
        found.current_round,
        complete,
    )

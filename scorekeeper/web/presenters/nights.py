"""What a night's pages show: the standings (every pair's place and score by round), each
table's progress, the seating of every round, the round clock; and the results as CSV and text.

Worked out from one read of the night's tables (`queries.night_tables`) and kept under the
night's revision by the page (drawn once per change, not per viewer)."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from datetime import datetime, timedelta

from ... import nights
from ..store.models import Game, Night, Pair
from ..store.queries import TableRow, night_of_game


@dataclass(frozen=True)
class PairShown:
    number: int
    names: str
    present: bool


@dataclass(frozen=True)
class RoundScore:
    """A pair's round: its points and how the game went (win, draw, loss), or it sat out."""

    points: int | None
    outcome: str  # "win", "draw", "loss", "out" (sat out), "" (not played yet)
    playing: bool


@dataclass(frozen=True)
class StandingRow:
    place: int
    pair: PairShown
    points: int
    wins: float
    difference: int
    rounds: list[RoundScore]


@dataclass(frozen=True)
class TableProgress:
    """A table of the round being shown: its pairs and their totals, hands played of how many,
    finished; or stopped unfinished when its round ended."""

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


@dataclass(frozen=True)
class SeatShown:
    table: int
    ns: PairShown | None
    ew: PairShown | None


@dataclass(frozen=True)
class RoundSeating:
    number: int
    seats: list[SeatShown]
    sitting_out: list[PairShown]
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
    if row.over:
        return True
    return round_hands is not None and (row.hands or 0) >= round_hands


def games(rows: list[TableRow]) -> list[nights.Game]:
    """The games played so far (started, not deleted), as the rankings add them up."""
    return [
        nights.Game(r.round, r.table, r.ns, r.ew, r.ns_total or 0, r.ew_total or 0)
        for r in rows
        if r.game_id is not None
    ]


def standings(night: Night, rows: list[TableRow], by: nights.Ranking | None = None) -> Standings:
    """The standings of a night as its tables stand now."""
    ranking = nights.Ranking(night.ranking)
    shown_by = by or ranking
    pairs = _pairs(night)
    played = games(rows)
    placed = nights.standings(pairs, played, shown_by)
    current = next((r for r in night.rounds if r.number == night.current_round), None)
    in_play = current is not None and current.ended_at is None and current.started_at is not None
    started = {r.number for r in night.rounds if r.started_at is not None}
    playing_now: dict[tuple[int, int], bool] = {}
    for r in rows:
        if r.game_id is not None:
            playing_now[r.round, r.ns] = playing_now[r.round, r.ew] = in_play and (
                r.round == night.current_round and not _finished(r, night.round_hands)
            )
    table_rows = []
    for standing in placed:
        scores = []
        for number in range(1, night.round_count + 1):
            score = standing.by_round.get(number)
            if score is not None:
                outcome = ("loss", "draw", "win")[score.half_wins]
                playing = playing_now.get((number, standing.pair), False)
                scores.append(RoundScore(score.points, outcome, playing))
            else:
                scores.append(RoundScore(None, "out" if number in started else "", False))
        table_rows.append(
            StandingRow(
                standing.place,
                pairs[standing.pair],
                standing.points,
                standing.wins,
                standing.difference,
                scores,
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
            stopped=not in_play and not _finished(r, night.round_hands),
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


def seating(night: Night) -> list[RoundSeating]:
    """Who sits where in every round (a pair that left, or the ghost, leaves its opponent
    sitting out)."""
    pairs = _pairs(night)
    shown = []
    for played in night.rounds:
        seats = []
        out: list[PairShown] = []
        for seat in played.seats:
            ns, ew = pairs.get(seat.ns), pairs.get(seat.ew)
            if ns is None or ew is None or not (ns.present and ew.present):
                out.extend(p for p in (ns, ew) if p is not None and p.present)
                continue
            seats.append(SeatShown(seat.table, ns, ew))
        seated = {p for seat in played.seats for p in (seat.ns, seat.ew)}
        out.extend(p for n, p in pairs.items() if n not in seated and p.present)
        shown.append(
            RoundSeating(
                played.number, seats, sorted(out, key=lambda p: p.number), bool(played.started_at)
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
    """The standings as CSV: place, pair, players, points, wins, difference, each round."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headings + [str(n) for n in range(1, shown.round_count + 1)])
    for row in shown.rows:
        writer.writerow(
            [
                row.place,
                row.pair.number,
                row.pair.names,
                row.points,
                row.wins,
                row.difference,
                *("" if r.points is None else r.points for r in row.rounds),
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


def night_seat(game: Game) -> NightSeat | None:
    """The night of a game of a night's round (one statement); None for any other game."""
    if game.night_id is None:
        return None
    found = night_of_game(game.id)
    if found is None:
        return None
    ended = found.round_ended_at is not None or found.night_ended_at is not None
    moved_on = found.current_round > found.round and found.night_ended_at is None
    played = game.sides[0].hands or 0 if game.sides else 0
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

"""A club night read from a backup (restore.py): whole, as the app plays one, or refused with
the place in the file that is wrong, before anything is written."""

from __future__ import annotations

from collections.abc import Mapping

from ... import nights as movements
from ..store.models import Game, Night, NightRound
from .rounds import planned


class NightNotWhole(ValueError):
    """A night of a backup that the app could not have played; the message places it."""


def _show(value: object) -> str:
    return " ".join(str(value).split())


def check_nights(nights: list[Night], games: list[Game], places: Mapping[int, str]) -> None:
    """Each night whole (`_check_night`); each night's games among the games and marked with
    it, each in one seat; a game marked with a night is one of that night's."""
    night_ids = {night.id for night in nights}
    seated: dict[str, str] = {}
    for night in nights:
        _check_night(night, places)
        for played in night.rounds:
            for seat in played.seats:
                if seat.game_id is None:
                    continue
                where = f"{places[id(seat)]}.game_id"
                if seat.game_id in seated:
                    raise NightNotWhole(f"{where}: the game {seat.game_id!r} has another seat")
                seated[seat.game_id] = night.id
    for index, game in enumerate(games):
        if game.night_id is not None and game.night_id not in night_ids:
            raise NightNotWhole(f"games[{index}].night_id: no night {game.night_id!r}")
        if game.id in seated and game.night_id != seated[game.id]:
            raise NightNotWhole(f"games[{index}].night_id: not the night it is seated in")
    known = {game.id for game in games}
    missing = sorted(set(seated) - known)
    if missing:
        raise NightNotWhole(f"nights: no game {missing[0]!r} among the games")


def _check_night(night: Night, places: Mapping[int, str]) -> None:
    """A night as the app plays it: its pairs numbered 1 to n, its rounds 1 to its round
    count, the rounds up to its current one started and none after it, and each seat at one of
    its tables, naming its pairs (or the ghost of an odd number of pairs) once a round."""
    where = places[id(night)]
    numbers = [pair.number for pair in night.pairs]
    if sorted(numbers) != list(range(1, len(numbers) + 1)):
        raise NightNotWhole(f"{where}.pairs: numbered {_show(numbers)}, not 1 to {len(numbers)}")
    rounds = [played.number for played in night.rounds]
    if rounds != list(range(1, night.round_count + 1)):
        raise NightNotWhole(f"{where}.rounds: numbered {_show(rounds)}, not 1 to round_count")
    if night.current_round > night.round_count:
        raise NightNotWhole(
            f"{where}.current_round: {night.current_round} is past its last round,"
            f" {night.round_count}"
        )
    seated = range(1, len(numbers) + len(numbers) % 2 + 1)  # an odd night's ghost: one past
    tables = {table.number for table in night.tables}
    for played in night.rounds:
        place = places[id(played)]
        _check_record(played, len(numbers), place)
        started = played.number <= night.current_round
        if started != (played.started_at is not None) or (
            played.ended_at is not None and played.started_at is None
        ):
            state = "started" if played.started_at is not None else "not started"
            raise NightNotWhole(
                f"{place}.started_at: round {played.number} {state}, the current being"
                f" {night.current_round}"
            )
        _check_seats(played, seated, tables, places)


def _check_seats(
    played: NightRound, seated: range, tables: set[int], places: Mapping[int, str]
) -> None:
    """Each seat of a round at one of the night's tables, naming its pairs once, a game only
    once the round started, and what it counts as only once it ended."""
    started = played.started_at is not None
    for problem in movements.seating_problems([planned(played)], seated):
        if problem.code == "no-tables" or problem.table is None or problem.place is None:
            continue
        seat = next(s for s in played.seats if s.table == problem.table)
        raise NightNotWhole(
            f"{places[id(seat)]}.{problem.place.value}: pair {problem.pair} is"
            f" {_SEAT_PROBLEMS[problem.code]}"
        )
    for seat in played.seats:
        if seat.table not in tables:
            raise NightNotWhole(f"{places[id(seat)]}.table: the night has no table {seat.table}")
        if seat.game_id is not None and not started:
            raise NightNotWhole(f"{places[id(seat)]}.game_id: a game in a round not started")
        if seat.counting is not None and (seat.game_id is None or played.ended_at is None):
            raise NightNotWhole(f"{places[id(seat)]}.counting: no game stopped by its round")


def _check_record(played: NightRound, pairs: int, place: str) -> None:
    """What a round kept when it started: pairs of the night, each in one place (a table
    with a game, sitting out, gone); a round of version 1 gets what can be told of it."""
    if played.started_at is None:
        for name in ("sitting_out", "absent"):
            if getattr(played, name) is not None:
                raise NightNotWhole(f"{place}.{name}: a round not started has none")
        return
    if played.sitting_out is None and played.absent is None:
        tables = [seat.table for seat in played.seats if seat.game_id is not None]
        record = movements.recorded_before(planned(played), tables, pairs)
        played.sitting_out, played.absent = list(record.sitting_out), list(record.absent)
        return
    seen = {p for s in played.seats if s.game_id is not None for p in (s.ns, s.ew)}
    for name in ("sitting_out", "absent"):
        for pair in getattr(played, name) or ():
            if pair > pairs or pair in seen:
                why = "not one of the night's pairs" if pair > pairs else "in two places"
                raise NightNotWhole(f"{place}.{name}: pair {pair} is {why}")
            seen.add(pair)


_SEAT_PROBLEMS = {
    "unknown": "not one of the night's pairs",
    "twice": "seated twice in the round",
    "itself": "seated against itself",
}

"""What each column may hold on its own: the checks of every column of every model, each raising
`SchemaError` with the column and the problem (schema.py checks a row with what its game says).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import inspect

from ... import nights, rules
from ...rules.fields import ENTRY_FIELDS, EntryField, FieldKind
from ...rules.house import LARGEST
from .models import (
    ADDRESS_LENGTH,
    KEY_LENGTH,
    LARGEST_ID,
    NAME_LENGTH,
    PHONE_ID_LENGTH,
    REVISION_LENGTH,
    SET_COLUMNS,
    SHARE_TOKEN_LENGTH,
    START_SCORE_LIMIT,
    TOKEN_LENGTH,
    Correction,
    Entry,
    Game,
    Hand,
    HouseRule,
    Night,
    NightRound,
    NightTable,
    Pair,
    Phone,
    PinAttempt,
    Player,
    PlayerMerge,
    Seating,
    Side,
    TableSetting,
)
from .seasons import POOL_LENGTH, NightOutcome, RatedGame, Rating, Season

NIGHT_PAIRS = 200
"""Pairs in one night: a hundred tables, more than any club room holds."""
NIGHT_ROUNDS = 199
ROUND_HANDS = 50
ROUND_MINUTES = 600
SEASON_NIGHTS = 1000
"""The most nights a season counts (its best N and its minimum): a club's twenty years."""
GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,24}")
"""A game id goes into URLs as it is: the letters `new_game_id` uses."""
TOKEN = re.compile(r"[A-Za-z0-9_-]+")
TEAM = re.compile(r"[0-9A-F]+:[0-9A-F]*(,[0-9A-F]+:[0-9A-F]*)*")
"""`Side.team`: each named player's key and name in hexadecimal (`services.figures.team_of`)."""
"""A form's one-time token, as `models.new_token` makes them."""


def one_time_token(value: object) -> str | None:
    """A one-time token as `models.new_token` makes them (a form's, sent back), or None."""
    if isinstance(value, str) and len(value) <= TOKEN_LENGTH and TOKEN.fullmatch(value):
        return value
    return None


PROBLEM_LENGTH = 160


class SchemaError(ValueError):
    """A value the database must not keep; `where` is the column (and the place inside it)."""

    def __init__(self, where: str, problem: str) -> None:
        problem = " ".join(problem.split())
        if len(problem) > PROBLEM_LENGTH:  # the engine quotes what it got, which may be huge
            problem = problem[: PROBLEM_LENGTH - 3] + "..."
        super().__init__(f"{where}: {problem}" if where else problem)
        self.where = where
        self.problem = problem

    def inside(self, where: str) -> SchemaError:
        """The same problem, placed inside `where` (a row's place, or a column)."""
        if not self.where:
            return SchemaError(where, self.problem)
        joiner = "" if self.where.startswith("[") else "."
        return SchemaError(f"{where}{joiner}{self.where}" if where else self.where, self.problem)


def _show(value: object) -> str:
    """A value as the message quotes it, cut short so that the message stays one short line."""
    try:
        shown = repr(value)
    except ValueError:  # an integer of more digits than Python will print
        return "a number too large to show"
    return shown if len(shown) <= 40 else shown[:37] + "..."


# --- one value -----------------------------------------------------------------------------------

Check = Callable[[object], None]


def text(
    length: int, pattern: re.Pattern[str] | None = None, empty: bool = True, none: bool = False
) -> Check:
    """A string of at most `length` characters that any database can keep."""

    def check(value: object) -> None:
        if value is None and none:
            return
        if not isinstance(value, str):
            raise SchemaError("", f"expected a string, got {_show(value)}")
        if len(value) > length:
            raise SchemaError("", f"expected at most {length} characters, got {len(value):,}")
        if not value and not empty:
            raise SchemaError("", "must not be empty")
        if not _encodes(value):
            raise SchemaError("", f"not a string a database can keep: {_show(value)}")
        if pattern is not None and not pattern.fullmatch(value):
            raise SchemaError("", f"not a valid value: {_show(value)}")

    return check


def _encodes(value: str) -> bool:
    if "\x00" in value:  # PostgreSQL keeps no NUL in text (SQLite does): refused on both
        return False
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, which JSON can spell but UTF-8 cannot
        return False
    return True


def whole(least: int, most: int, none: bool = False) -> Check:
    """A whole number (not a bool, not a float) from `least` to `most`."""

    def check(value: object) -> None:
        if value is None and none:
            return
        if isinstance(value, bool) or not isinstance(value, int):
            raise SchemaError("", f"expected a whole number, got {_show(value)}")
        if not least <= value <= most:
            raise SchemaError("", f"expected a whole number from {least:,} to {most:,}")

    return check


def flag(none: bool = False) -> Check:
    """True or false (not 1 or 0)."""

    def check(value: object) -> None:
        if not isinstance(value, bool) and not (value is None and none):
            raise SchemaError("", f"expected true or false, got {_show(value)}")

    return check


def when(none: bool = False) -> Check:
    """A date and time without a zone, as the database keeps them (in UTC)."""

    def check(value: object) -> None:
        if value is None and none:
            return
        if not isinstance(value, datetime) or value.tzinfo is not None:
            raise SchemaError("", f"expected a date and time, got {_show(value)}")

    return check


def one_of(names: Iterable[str]) -> Check:
    """One of a fixed set of names: systems, options, how a hand ended."""
    known = sorted(names)

    def check(value: object) -> None:
        if not isinstance(value, str) or value not in known:
            raise SchemaError("", f"expected one of {', '.join(known)}, got {_show(value)}")

    return check


def options(value: object) -> None:
    """Option ids, each once; whether the system knows them is the game's check."""
    if not isinstance(value, list):
        raise SchemaError("", f"expected a list, got {_show(value)}")
    for index, option in enumerate(value):
        try:
            one_of(rules.OPTIONS)(option)
        except SchemaError as error:
            raise error.inside(f"[{index}]") from None
    if len(set(value)) != len(value):
        raise SchemaError("", "an option is listed twice")


def json_object(none: bool = False) -> Check:
    """An object; what it holds is checked with what the row's game says."""

    def check(value: object) -> None:
        if not isinstance(value, dict) and not (value is None and none):
            raise SchemaError("", f"expected an object, got {_show(value)}")

    return check


def entry_field(field: EntryField) -> Check:
    """The check of a hand entry's field, by its kind; a grouped one's keys are the game's."""
    if field.kind is FieldKind.FLAG:
        return flag()
    if field.kind.grouped:
        return json_object()
    return whole(0, LARGEST, none=field.optional)


NAME = text(NAME_LENGTH)
COUNT = whole(0, LARGEST)
ROW_ID = whole(1, LARGEST_ID)


def list_of(each: Check) -> Check:
    """A list, each of its items passing `each`."""

    def check(value: object) -> None:
        if not isinstance(value, list):
            raise SchemaError("", f"expected a list, got {_show(value)}")
        for index, item in enumerate(value):
            try:
                each(item)
            except SchemaError as error:
                raise error.inside(f"[{index}]") from None

    return check


def _pair_numbers(value: object) -> None:
    """Pair numbers (a round's, kept when it starts: who sat out, who had left), or None."""
    if value is not None:
        list_of(whole(1, NIGHT_PAIRS + 1))(value)


PAIR_NUMBERS = _pair_numbers


def _rating_figure(value: object) -> None:
    """A rating's middle or spread: a finite number of a sane size (a float column)."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        raise SchemaError("", f"expected a number, got {_show(value)}")
    if not -1e6 < value < 1e6:
        raise SchemaError("", f"expected a number between -1,000,000 and 1,000,000, got {value}")


def _counting(value: object) -> None:
    """What an unfinished game counts as (`nights.Counting`), or None."""
    if value is not None:
        one_of(c.value for c in nights.Counting)(value)


COLUMNS: Mapping[type[Any], Mapping[str, Check]] = {
    Game: {
        "id": text(24, GAME_ID),
        "system_id": one_of(rules.SYSTEMS),
        "options": options,
        "house_rules": json_object(none=True),
        "created_at": when(),
        "updated_at": when(),
        "over": flag(),
        "revision": text(REVISION_LENGTH),
        "name": text(NAME_LENGTH, empty=False, none=True),
        "archived_at": when(none=True),
        "token": text(TOKEN_LENGTH, TOKEN, empty=False, none=True),
        "first_dealer": whole(0, LARGEST),
        "follow_token": text(SHARE_TOKEN_LENGTH, TOKEN, empty=False),
        "join_token": text(SHARE_TOKEN_LENGTH, TOKEN, empty=False),
        "next_game_id": text(24, GAME_ID, none=True),
        "deleted_at": when(none=True),
        "night_id": text(24, GAME_ID, none=True),
    },
    Side: {
        "id": ROW_ID,
        "game_id": text(24, GAME_ID),
        "position": whole(0, LARGEST),
        "name": NAME,
        "start_score": whole(-START_SCORE_LIMIT, START_SCORE_LIMIT),
        "total": whole(-(2**62), 2**62, none=True),
        "won": flag(none=True),
        "hands": whole(0, LARGEST, none=True),
        "best": whole(-(2**62), 2**62, none=True),
        "went_out": whole(0, LARGEST, none=True),
        "red_threes": whole(0, LARGEST, none=True),
        **{column: whole(0, LARGEST, none=True) for column in SET_COLUMNS.values()},
        "team": text(2**16, TEAM, none=True),
        # Copies of the game's, which is checked itself.
        "system_id": text(20, none=True),
        "over": flag(none=True),
        "created_at": when(none=True),
    },
    Player: {
        "id": ROW_ID,
        "side_id": ROW_ID,
        "position": whole(0, LARGEST),
        "name": NAME,
        "key": text(KEY_LENGTH),
    },
    Hand: {
        "id": ROW_ID,
        "game_id": text(24, GAME_ID),
        "position": whole(1, LARGEST),
        "ended_by": one_of(e.value for e in rules.EndedBy),
        "token": text(TOKEN_LENGTH, empty=False),
        "version": whole(1, LARGEST),
        "created_at": when(),
        "deleted_at": when(none=True),
    },
    Entry: {
        "id": ROW_ID,
        "hand_id": ROW_ID,
        "side_position": whole(0, LARGEST),
        **{field.name: entry_field(field) for field in ENTRY_FIELDS},
        "hand_score": whole(-(2**62), 2**62, none=True),
    },
    Correction: {
        "id": ROW_ID,
        "hand_id": ROW_ID,
        "at": when(),
        "before": json_object(none=True),
        "after": json_object(none=True),
    },
    PlayerMerge: {
        "id": ROW_ID,
        "key": text(KEY_LENGTH, empty=False),
        "into": text(KEY_LENGTH, empty=False),
        "players": list_of(ROW_ID),
        "names": list_of(NAME),
        "at": when(),
        "undone_at": when(none=True),
    },
    HouseRule: {
        "id": ROW_ID,
        "name": text(NAME_LENGTH, empty=False),
        "system_id": one_of(rules.SYSTEMS),
        "options": options,
        "rules": json_object(),
        "created_at": when(),
        "updated_at": when(),
    },
    TableSetting: {"key": text(40, empty=False), "value": text(400)},
    Night: {
        "id": text(24, GAME_ID),
        "name": text(NAME_LENGTH, empty=False),
        "system_id": one_of(rules.SYSTEMS),
        "options": options,
        "house_rules": json_object(none=True),
        "movement": one_of(m.value for m in nights.Movement),
        "ranking": one_of(r.value for r in nights.Ranking),
        "round_count": whole(1, NIGHT_ROUNDS),
        "round_hands": whole(1, ROUND_HANDS, none=True),
        "round_minutes": whole(1, ROUND_MINUTES, none=True),
        "current_round": whole(0, NIGHT_ROUNDS),
        "created_at": when(),
        "ended_at": when(none=True),
        "revision": text(REVISION_LENGTH),
        "follow_token": text(SHARE_TOKEN_LENGTH, TOKEN, empty=False),
        "token": text(TOKEN_LENGTH, TOKEN, empty=False, none=True),
        "deleted_at": when(none=True),
        "season_id": text(24, GAME_ID, none=True),
    },
    Season: {
        "id": text(24, GAME_ID),
        "name": text(NAME_LENGTH, empty=False),
        "measure": one_of(m.value for m in nights.Measure),
        "best": whole(1, SEASON_NIGHTS, none=True),
        "minimum": whole(1, SEASON_NIGHTS),
        "planned": whole(1, SEASON_NIGHTS, none=True),
        "created_at": when(),
        "revision": text(REVISION_LENGTH),
        "follow_token": text(SHARE_TOKEN_LENGTH, TOKEN, empty=False),
        "token": text(TOKEN_LENGTH, TOKEN, empty=False, none=True),
    },
    Rating: {
        "id": ROW_ID,
        "pool": text(POOL_LENGTH, empty=False),
        "first": text(KEY_LENGTH, empty=False),
        "second": text(KEY_LENGTH),
        "mu": _rating_figure,
        "sigma": _rating_figure,
        "games": COUNT,
    },
    RatedGame: {"game_id": text(24, GAME_ID), "rated_at": when()},
    NightOutcome: {
        "night_id": text(24, GAME_ID),
        "pair": whole(1, NIGHT_PAIRS + 1),
        "revision": text(REVISION_LENGTH),
        "first": text(KEY_LENGTH),
        "second": text(KEY_LENGTH),
        "place": whole(0, NIGHT_PAIRS + 1),
        "pairs": whole(0, NIGHT_PAIRS + 1),
        "level": whole(0, NIGHT_PAIRS + 1),
        "games": whole(0, NIGHT_ROUNDS),
        "rounds": whole(0, NIGHT_ROUNDS),
        "half_wins": whole(0, 2 * NIGHT_ROUNDS),
        "points": whole(-(2**62) * NIGHT_ROUNDS, 2**62 * NIGHT_ROUNDS),
    },
    Pair: {
        "id": ROW_ID,
        "night_id": text(24, GAME_ID),
        "number": whole(1, NIGHT_PAIRS + 1),
        "first": text(NAME_LENGTH, empty=False),
        "second": text(NAME_LENGTH, empty=False),
        "present": flag(),
    },
    NightTable: {
        "id": ROW_ID,
        "night_id": text(24, GAME_ID),
        "number": whole(1, NIGHT_PAIRS),
        "token": text(SHARE_TOKEN_LENGTH, TOKEN, empty=False),
    },
    NightRound: {
        "id": ROW_ID,
        "night_id": text(24, GAME_ID),
        "number": whole(1, NIGHT_ROUNDS),
        "started_at": when(none=True),
        "ended_at": when(none=True),
        "sitting_out": PAIR_NUMBERS,
        "absent": PAIR_NUMBERS,
    },
    Seating: {
        "id": ROW_ID,
        "round_id": ROW_ID,
        "table": whole(1, NIGHT_PAIRS),
        "ns": whole(1, NIGHT_PAIRS + 1),
        "ew": whole(1, NIGHT_PAIRS + 1),
        "game_id": text(24, GAME_ID, none=True),
        "counting": _counting,
    },
    PinAttempt: {"address": text(ADDRESS_LENGTH), "failures": whole(0, LARGEST), "last_at": when()},
    Phone: {"id": text(PHONE_ID_LENGTH, empty=False), "signed_in_at": when()},
}
"""Every column of every model, and what a value of it may be on its own."""


def check_columns(record: Any) -> None:
    """Each column of the row on its own. A column not set yet is left to the database (its
    default, the id it numbers, the parent's id) and one not loaded is as it was stored."""
    model = type(record)
    values = inspect(record).dict
    for key, check_value in COLUMNS[model].items():
        if key in values:
            try:
                check_value(values[key])
            except SchemaError as error:
                if values[key] is None:
                    raise SchemaError(key, "must not be null") from None
                raise error.inside(key) from None

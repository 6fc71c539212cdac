"""Game files (docs/game-file.md): read one into a `Game`, write a `Game` and its result back.

Reading is strict about shape and names (a `GameFileError` says what and where, in one line)
and lenient about numbers: a negative count or a fraction is not a malformed file but a broken
rule, reported by the checks as `invalid-number`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, TypeVar

from .checks import Violation
from .fields import ENTRY_FIELDS, FieldKind, entry_of, plain
from .hands import BadNumber, EndedBy, Entry, Game, Hand, Side
from .house import LARGEST, house_rules_data, read_house_rules, with_house_rules
from .replay import GameResult, replay
from .systems import (
    Penalty,
    RuleSystem,
    SetKind,
    UnknownOption,
    UnknownSystem,
    get_system,
)
from .words import MINUS

E = TypeVar("E", SetKind, Penalty)


class GameFileError(ValueError):
    """A file that cannot be read as a game file; the message names the place."""

    def __init__(self, where: str, problem: str) -> None:
        message = f"{where}: {problem}" if where else problem
        super().__init__(_CONTROL.sub(lambda m: repr(m.group())[1:-1], message))
        self.where = where


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise GameFileError(where, f"expected an object, got {_show(value)}")
    return value


def _list(value: object, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise GameFileError(where, f"expected a list, got {_show(value)}")
    return value


def _whole(value: object, where: str, least: int | None = None) -> int:
    """A whole number that must be one for the file to make sense (not a count or points)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise GameFileError(where, f"expected a whole number, got {_show(value)}")
    if least is not None and value < least:
        raise GameFileError(where, f"expected a whole number of at least {least}, got {value}")
    if abs(value) > LARGEST:
        raise GameFileError(where, f"expected a whole number up to {LARGEST:,}")
    return value


def _flag(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise GameFileError(where, f"expected true or false, got {_show(value)}")
    return value


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise GameFileError(where, f"expected a string, got {_show(value)}")
    return value


def _code(value: str, codes: type[E], where: str, what: str) -> E:
    try:
        return codes(value)
    except ValueError:
        known = ", ".join(c.value for c in codes)
        raise GameFileError(where, f"unknown {what} {_show(value)}; known: {known}") from None


class _Counts:
    """Reads count and points fields, keeping those that break `invalid-number` aside."""

    def __init__(self) -> None:
        self.bad: list[BadNumber] = []

    def read(self, value: object, where: str, name: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise GameFileError(where, f"expected a whole number, got {_show(value)}")
        if isinstance(value, float) or not 0 <= value <= LARGEST:
            shown = _show(value).replace("-", MINUS) if abs(value) <= LARGEST else "too large"
            self.bad.append(BadNumber(name, shown))
            return 0
        return value

    def table(
        self, value: object, where: str, name: str, codes: type[E], what: str
    ) -> dict[E, int]:
        counts: dict[E, int] = {}
        for key, count in _object(value, where).items():
            code = _code(key, codes, f"{where}.{key}", what)
            counts[code] = self.read(count, f"{where}.{key}", f"{name}.{key}")
        return counts


def _entry(data: object, where: str) -> Entry:
    entry = _object(data, where)
    counts = _Counts()
    values: dict[str, Any] = {}
    for field in ENTRY_FIELDS:
        name, at = field.name, f"{where}.{field.name}"
        value = entry.get(name, field.default if not field.kind.grouped else {})
        if field.kind is FieldKind.FLAG:
            values[name] = _flag(value, at)
        elif field.kind.grouped:
            codes = SetKind if field.kind is FieldKind.SETS else Penalty
            values[name] = counts.table(value, at, name, codes, field.kind.key_word)
        else:
            values[name] = (
                None if value is None and field.optional else counts.read(value, at, name)
            )
    return replace(entry_of(values), bad_numbers=tuple(counts.bad))


def _hand(data: object, where: str, sides: int) -> Hand:
    hand = _object(data, where)
    ended_by = _text(hand.get("ended_by", EndedBy.GOING_OUT.value), f"{where}.ended_by")
    try:
        ending = EndedBy(ended_by)
    except ValueError:
        raise GameFileError(
            f"{where}.ended_by", f"expected going_out or stock_exhausted, got {_show(ended_by)}"
        ) from None
    entries = _list(hand.get("entries"), f"{where}.entries")
    if len(entries) != sides:
        raise GameFileError(
            f"{where}.entries", f"{len(entries)} entries for {sides} sides; give one per side"
        )
    return Hand(tuple(_entry(e, f"{where}.entries[{i}]") for i, e in enumerate(entries)), ending)


def read_hand(data: object) -> Hand:
    """A hand as `hand_data` writes it; raises GameFileError if it is not one."""
    entries = _object(data, "").get("entries")
    return _hand(data, "", len(entries) if isinstance(entries, list) else 0)


def _side(data: object, where: str, number: int) -> Side:
    side = _object(data, where)
    return Side(
        name=_text(side.get("name", f"Side {number}"), f"{where}.name"),
        players=_whole(side.get("players", 1), f"{where}.players", least=1),
        start_score=_whole(side.get("start_score", 0), f"{where}.start_score"),
    )


def read_system(variant: object, options: object, house_rules: object) -> RuleSystem:
    """The rules a game file names: its system, with options and house rules applied."""
    variant = _text(variant, "variant")
    options = _object(options or {}, "options")
    chosen = [name for name, on in options.items() if _flag(on, f"options.{name}")]
    try:
        for name in options:
            get_system(variant, [name])
        system = get_system(variant, chosen)
    except UnknownSystem as error:
        raise GameFileError("variant", str(error)) from None
    except UnknownOption as error:
        raise GameFileError("options", str(error)) from None
    if house_rules is None:
        return system
    house, problems = read_house_rules(house_rules, system)
    if problems:  # one line, as for any other malformed file: the first problem
        raise GameFileError(problems[0].where, str(problems[0].message))
    return with_house_rules(system, house)


def read_game(data: object) -> Game:
    """The game a parsed game file describes; raises GameFileError if it is not one."""
    game = _object(data, "")
    system = read_system(game.get("variant"), game.get("options"), game.get("house_rules"))
    sides = _list(game.get("sides"), "sides")
    if not sides:
        raise GameFileError("sides", "a game needs sides")
    hands = _list(game.get("hands", []), "hands")
    read_sides = tuple(_side(s, f"sides[{i}]", i + 1) for i, s in enumerate(sides))
    return Game(
        system=system,
        sides=read_sides,
        hands=tuple(_hand(h, f"hands[{i}]", len(sides)) for i, h in enumerate(hands)),
        first_dealer=_first_dealer(game.get("first_dealer", 0), read_sides),
    )


def _first_dealer(value: object, sides: tuple[Side, ...]) -> int:
    """An optional key of our own (docs/game-file.md): who deals the first hand, as a place in
    the order of play counted from 0; a file without it starts with the first player."""
    seats = sum(side.players for side in sides)
    first = _whole(value, "first_dealer", least=0)
    if first >= seats:
        raise GameFileError("first_dealer", f"expected a seat from 0 to {seats - 1}, got {first}")
    return first


def entry_data(entry: Entry) -> dict[str, Any]:
    """An entry as a game file writes it, leaving out what is at its default."""
    values = plain(entry)
    return {
        field.name: values[field.name]
        for field in ENTRY_FIELDS
        if values[field.name] or (field.optional and values[field.name] is not None)
    }


def hand_data(hand: Hand) -> dict[str, Any]:
    """A hand as a game file writes it."""
    return {"ended_by": hand.ended_by.value, "entries": [entry_data(e) for e in hand.entries]}


def game_data(game: Game) -> dict[str, Any]:
    """A game as a game file, so that `read_game(game_data(g))` gives `g` back."""
    system = game.system
    data: dict[str, Any] = {
        "variant": system.id,
        "options": {name: True for name in sorted(system.options_on)},
    }
    if system.house_rules is not None:
        data["house_rules"] = house_rules_data(system.house_rules)
    data["sides"] = [
        {"name": s.name, "players": s.players, "start_score": s.start_score} for s in game.sides
    ]
    if game.first_dealer:
        data["first_dealer"] = game.first_dealer
    data["hands"] = [hand_data(h) for h in game.hands]
    return data


def violation_data(violation: Violation) -> dict[str, Any]:
    return {
        "code": violation.code,
        "side": violation.side,
        "field": None if violation.field is None else violation.field.path,
        "message": str(violation.message),
        "rule": violation.rule.as_dict(),
    }


def result_data(result: GameResult) -> dict[str, Any]:
    """A replayed game as the result of `scorekeeper check` (docs/game-file.md)."""
    return {
        "hands": [
            {
                "sides": [
                    {
                        "hand_score": side.hand_score,
                        "total": side.total,
                        "min_opening_meld": side.min_opening_meld,
                        "lines": [
                            {
                                "label": str(line.label),
                                "points": line.points,
                                "rule": line.rule.as_dict(),
                            }
                            for line in side.lines
                        ],
                    }
                    for side in hand.sides
                ],
                "violations": [violation_data(v) for v in hand.violations],
            }
            for hand in result.hands
        ],
        "game_violations": [violation_data(v) for v in result.game_violations],
        "totals": list(result.totals),
        "game_over": result.game_over,
        "winner": result.winner,
        "next_min_opening_meld": list(result.next_minimums),
    }


def check_game_data(data: object) -> dict[str, Any]:
    """The result of a parsed game file, as `scorekeeper check` prints it."""
    return result_data(replay(read_game(data)))

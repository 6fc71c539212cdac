"""Game files (cases/FORMAT.md): read one into a `Game`, write a `Game` and its result back.

Reading is strict about shape and names (a `GameFileError` says what and where, in one line)
and lenient about numbers: a negative count or a fraction is not a malformed file but a broken
rule, reported by the checks as `invalid-number`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any, TypeVar

from .checks import Violation
from .hands import BadNumber, EndedBy, Entry, Game, Hand, Side
from .house import house_rules_data, read_house_rules, with_house_rules
from .replay import GameResult, replay
from .systems import (
    Penalty,
    RuleSystem,
    SetKind,
    UnknownOption,
    UnknownSystem,
    get_system,
)

E = TypeVar("E", SetKind, Penalty)


class GameFileError(ValueError):
    """A file that cannot be read as a game file; the message names the place."""

    def __init__(self, where: str, problem: str) -> None:
        message = f"{where}: {problem}" if where else problem
        super().__init__(_CONTROL.sub(lambda m: repr(m.group())[1:-1], message))
        self.where = where


_CONTROL = re.compile(r"[\x00-\x1f\x7f]")
LARGEST = 10**9
"""No count, score or points field at a card table comes near this; larger is a typing slip."""


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
            self.bad.append(BadNumber(name, _show(value) if abs(value) <= LARGEST else "too large"))
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

    def number(name: str) -> int:
        return counts.read(entry.get(name, 0), f"{where}.{name}", name)

    opening = entry.get("opening_meld")
    return Entry(
        went_out=_flag(entry.get("went_out", False), f"{where}.went_out"),
        concealed=_flag(entry.get("concealed", False), f"{where}.concealed"),
        opening_meld=(
            None
            if opening is None
            else counts.read(opening, f"{where}.opening_meld", "opening_meld")
        ),
        sets=counts.table(entry.get("sets", {}), f"{where}.sets", "sets", SetKind, "set kind"),
        melded_points=number("melded_points"),
        hand_points=number("hand_points"),
        red_threes=number("red_threes"),
        red_threes_in_hand=number("red_threes_in_hand"),
        players_holding_red_threes=number("players_holding_red_threes"),
        penalties=counts.table(
            entry.get("penalties", {}), f"{where}.penalties", "penalties", Penalty, "penalty"
        ),
        bad_numbers=tuple(counts.bad),
    )


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
    return Game(
        system=system,
        sides=tuple(_side(s, f"sides[{i}]", i + 1) for i, s in enumerate(sides)),
        hands=tuple(_hand(h, f"hands[{i}]", len(sides)) for i, h in enumerate(hands)),
    )


def entry_data(entry: Entry) -> dict[str, Any]:
    """An entry as a game file writes it, leaving out what is at its default."""
    data: dict[str, Any] = {}
    for name, value in (
        ("went_out", entry.went_out),
        ("concealed", entry.concealed),
        ("opening_meld", entry.opening_meld),
        ("sets", {k.value: n for k, n in entry.sets.items() if n}),
        ("melded_points", entry.melded_points),
        ("hand_points", entry.hand_points),
        ("red_threes", entry.red_threes),
        ("red_threes_in_hand", entry.red_threes_in_hand),
        ("players_holding_red_threes", entry.players_holding_red_threes),
        ("penalties", {k.value: n for k, n in entry.penalties.items() if n}),
    ):
        if value or (name == "opening_meld" and value is not None):
            data[name] = value
    return data


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
    data["hands"] = [
        {"ended_by": h.ended_by.value, "entries": [entry_data(e) for e in h.entries]}
        for h in game.hands
    ]
    return data


def violation_data(violation: Violation) -> dict[str, Any]:
    return {
        "code": violation.code,
        "side": violation.side,
        "field": violation.field,
        "message": str(violation.message),
        "rule": violation.rule.as_dict(),
    }


def result_data(result: GameResult) -> dict[str, Any]:
    """A replayed game as the result of `scorekeeper check` (cases/FORMAT.md)."""
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

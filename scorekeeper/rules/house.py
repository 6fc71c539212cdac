"""House rules: one table of the keys a table may change, and one reader reporting every problem.

The game file's `house_rules` (docs/game-file.md), the house-rule form, the stored profiles and the
differences shown beside a system all follow `HOUSE_RULES`; adding a key is one entry there, a
field of `HouseRules` (systems.py, as a system keeps the house rules it was made with), and what
`with_house_rules` does with its value.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum
from functools import partial
from typing import Any, TypeVar

from .readings import READINGS
from .systems import HouseRules, Pairs, RedThreeRule, RuleSystem, SetKind
from .words import N_, Rule, Text

LARGEST = 10**9
"""No count, score or points at a card table comes near this; larger is a typing slip."""

Json = Any


class HouseRuleKind(StrEnum):
    """What a house-rule key holds, which says how it is read, written, asked for and shown."""

    WORDS = "words"  # a text, such as the house rule's name
    POINTS = "points"  # a number of points
    COUNT = "count"  # a number of things (sets), shown without thousands
    POINTS_BY_PART = "points_by_part"  # points for each part the system has (set kind → bonus)
    MINIMUMS = "minimums"  # the first-meld table: [lowest total, minimum] pairs, going up
    CHOICE = "choice"  # one of a few named readings


@dataclass(frozen=True)
class HouseRuleKey:
    """One key of a game file's `house_rules`: what it holds, for which systems, and its words."""

    key: str
    kind: HouseRuleKind
    label: str  # what the form asks
    heading: str  # what the list of differences calls it
    topic: str | None  # the paragraph of the rules page it changes
    least: int = 0
    step: int = 1  # points a table writes in steps of, such as 5
    has: Callable[[RuleSystem], bool] = lambda system: True
    of: Callable[[RuleSystem], Json] = lambda system: None  # the system's own value, file-shaped
    parts: Callable[[RuleSystem], tuple[str, ...]] = lambda system: ()  # the system's parts
    every_part: tuple[str, ...] = ()  # every part any system may have
    part_label: Callable[[str, RuleSystem], str] = lambda part, system: part
    part_name: str = ""  # what a part is called in "unknown …"
    choices: Mapping[str, str] = field(default_factory=dict)  # reading → its words
    why_not: str = N_("%(system)s has no such number to change")  # for a system without it

    def cite(self, system: RuleSystem) -> Rule | None:
        """The rule this key changes, in `system`'s source."""
        return None if self.topic is None else system.cite(self.topic)


def _played_to_a_target(system: RuleSystem) -> bool:
    return system.hands_in_game is None


def _left_open(key: str) -> Callable[[RuleSystem], bool]:
    """A key only a text that leaves its question open takes: one we have a reading of."""
    return lambda system: any(r.key == key and r.system == system.id for r in READINGS)


RED_THREE_PARTS = ("each", "all", "each_minus", "all_minus", "in_hand")
"""The red-three values a house rule may set (docs/game-file.md, `red_three_values`)."""


def _red_three_parts(system: RuleSystem) -> tuple[str, ...]:
    """The red-three values a system has: no minus and no all-of-them where red threes always
    count plus (super-samba), nothing in hand where they are all laid down at once."""
    rule = system.red_threes
    counts_minus = rule.counts_minus
    return tuple(
        part
        for part in RED_THREE_PARTS
        if (part == "each")
        or (part == "in_hand" and rule.kept_in_hand)
        or (part in ("all", "each_minus", "all_minus") and counts_minus)
    )


def _red_three_values(system: RuleSystem) -> dict[str, int]:
    """A system's red-three values, file-shaped; all of them counting minus, where the text gives
    no value of its own, cost the deck's red threes at the value of each."""
    rule = system.red_threes
    red_threes = system.deck(0).red_threes
    values: dict[str, int | None] = {
        "each": rule.each,
        "all": rule.all_of_them,
        "each_minus": rule.minus_each,
        "all_minus": (
            red_threes * rule.minus_each
            if rule.minus_all_of_them is None
            else rule.minus_all_of_them
        ),
        "in_hand": rule.in_hand,
    }
    return {part: value for part in _red_three_parts(system) if (value := values[part]) is not None}


RED_THREE_LABELS = {
    "each": N_("value of each red three counting plus"),
    "all": N_("value of all the deck's red threes counting plus"),
    "each_minus": N_("deduction for each red three counting minus"),
    "all_minus": N_("deduction for all the deck's red threes counting minus"),
    "in_hand": N_("deduction for each red three left in hand"),
}


def _red_three_label(part: str, system: RuleSystem) -> str:
    if part == "in_hand" and system.red_threes.in_hand_by_player:
        return N_("deduction for each player caught holding red threes")
    return RED_THREE_LABELS[part]


def _with_red_three_values(rule: RedThreeRule, values: Mapping[str, int]) -> RedThreeRule:
    """The red-three rule with a table's own values."""
    if not values:
        return rule
    in_hand = values.get("in_hand", rule.in_hand)
    return replace(
        rule,
        each=values.get("each", rule.each),
        all_of_them=values.get("all", rule.all_of_them),
        minus_each=values.get("each_minus", rule.minus_each),
        minus_all_of_them=values.get("all_minus", rule.minus_all_of_them),
        in_hand_each=rule.in_hand_each if rule.in_hand_by_player else in_hand,
        in_hand_per_player=in_hand if rule.in_hand_by_player else rule.in_hand_per_player,
    )


HOUSE_RULES: tuple[HouseRuleKey, ...] = (
    HouseRuleKey("name", HouseRuleKind.WORDS, N_("Name"), N_("Name"), None),
    HouseRuleKey(
        "target",
        HouseRuleKind.POINTS,
        N_("Points that end the game"),
        N_("Target"),
        "end-of-game",
        least=1,
        has=_played_to_a_target,
        of=lambda system: system.target,
    ),
    HouseRuleKey(
        "set_bonuses",
        HouseRuleKind.POINTS_BY_PART,
        N_("Set bonuses"),
        N_("Set bonuses"),
        "sets",
        of=lambda system: {kind.value: bonus for kind, bonus in system.set_bonuses.items()},
        parts=lambda system: tuple(kind.value for kind in system.set_bonuses),
        every_part=tuple(kind.value for kind in SetKind),
        part_label=lambda part, system: SetKind(part).label,
        part_name=N_("set kind"),
    ),
    HouseRuleKey(
        "going_out_bonus",
        HouseRuleKind.POINTS,
        N_("Bonus for going out"),
        N_("Going out"),
        "going-out",
        of=lambda system: system.going_out_bonus,
    ),
    HouseRuleKey(
        "sets_to_go_out",
        HouseRuleKind.COUNT,
        N_("Sets needed to go out"),
        N_("Sets needed to go out"),
        "going-out",
        has=_played_to_a_target,
        of=lambda system: system.sets_to_go_out,
    ),
    HouseRuleKey(
        "opening_minimums",
        HouseRuleKind.MINIMUMS,
        N_("The first meld"),
        N_("First meld"),
        "first-meld",
        has=_played_to_a_target,
        of=lambda system: system.opening_minimums,
    ),
    HouseRuleKey(
        "red_three_values",
        HouseRuleKind.POINTS_BY_PART,
        N_("Red threes"),
        N_("Red threes"),
        "red-threes",
        step=5,
        of=_red_three_values,
        parts=_red_three_parts,
        every_part=RED_THREE_PARTS,
        part_label=_red_three_label,
        part_name=N_("red-three value"),
    ),
    HouseRuleKey(
        "tie_at_target",
        HouseRuleKind.CHOICE,
        N_("When the highest totals past the target are equal"),
        N_("A tie at the target"),
        "end-of-game",
        has=_played_to_a_target,
        of=lambda system: system.tie_at_target,
        why_not=N_(
            "%(system)s has no target: it ends after its last hand, where a tie stays a tie"
        ),
        choices={
            "play_on": N_("Play on until one side leads"),
            "shared": N_("The game ends, shared: no single winner"),
        },
    ),
    HouseRuleKey(
        "melded_points_for",
        HouseRuleKind.CHOICE,
        N_("Whose melded cards count"),
        N_("Whose melded cards count"),
        "scoring",
        of=lambda system: system.melded_points_for,
        choices={
            "every_side": N_("Every side scores the cards it laid down"),
            "side_that_went_out": N_(
                "Only the side that went out scores its cards laid down (when the stock runs "
                "out, every side does)"
            ),
        },
    ),
    HouseRuleKey(
        "all_red_threes",
        HouseRuleKind.CHOICE,
        N_("Whether red threes left in hand count toward all of them"),
        N_("All the red threes"),
        "red-threes",
        has=_left_open("all_red_threes"),
        of=lambda system: system.red_threes.all_counted,
        why_not=N_("%(system)s has no such choice: its text settles it"),
        choices={
            "laid_down": N_("Only red threes laid down count toward all of them"),
            "held": N_("Red threes still in hand count toward all of them too"),
        },
    ),
)
"""Every house-rule key, in the order the form asks and a game file writes them."""

HOUSE_RULES_BY_KEY: Mapping[str, HouseRuleKey] = {entry.key: entry for entry in HOUSE_RULES}


class HouseRuleError(ValueError):
    """A house rule that the system it starts from cannot take."""


@dataclass(frozen=True)
class HouseRuleProblem:
    """What is wrong with one house rule: its key, where inside it (a part or a row), and why.

    >>> HouseRuleProblem("opening_minimums", Text("x"), (2, 0)).where
    'house_rules.opening_minimums[2][0]'
    >>> HouseRuleProblem("set_bonuses", Text("x"), ("samba",)).where
    'house_rules.set_bonuses.samba'
    """

    key: str
    message: Text
    at: tuple[str | int, ...] = ()

    @property
    def where(self) -> str:
        """The place in a game file."""
        steps = "".join(f"[{step}]" if isinstance(step, int) else f".{step}" for step in self.at)
        return f"house_rules.{self.key}{steps}" if self.key else "house_rules"

    @property
    def part(self) -> str | None:
        """The part (a set kind) the problem is about, if any."""
        return self.at[0] if self.at and isinstance(self.at[0], str) else None

    @property
    def row(self) -> int | None:
        """The row of a table (0-based) the problem is about, if any."""
        return self.at[0] if self.at and isinstance(self.at[0], int) else None


class _Bad(Exception):
    """One value that cannot be read; `_Reader` turns it into a problem."""

    def __init__(self, message: Text, *at: str | int) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


def _show(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _whole(value: object, least: int | None, *at: str | int, step: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _Bad(Text(N_("expected a whole number, got %(value)s"), {"value": _show(value)}), *at)
    if least is not None and value < least:
        raise _Bad(
            Text(
                N_("expected a whole number of at least %(least)s, got %(value)s"),
                {"least": str(least), "value": str(value)},
            ),
            *at,
        )
    if abs(value) > LARGEST:
        raise _Bad(Text(N_("expected a whole number up to %(most)s"), {"most": LARGEST}), *at)
    if value % step:
        message = N_("expected a multiple of %(step)s, got %(value)s")
        raise _Bad(Text(message, {"step": step, "value": str(value)}), *at)
    return value


def _words(value: object) -> str:
    if not isinstance(value, str):
        raise _Bad(Text(N_("expected a string, got %(value)s"), {"value": _show(value)}))
    return value


def _choice(entry: HouseRuleKey, value: object) -> str:
    if not isinstance(value, str) or value not in entry.choices:
        known = ", ".join(entry.choices)
        raise _Bad(
            Text(
                N_("expected one of %(known)s, got %(value)s"),
                {"known": known, "value": _show(value)},
            )
        )
    return value


T = TypeVar("T")


def _kept(bad: list[_Bad], read: Callable[..., T], *args: Any) -> T | None:
    """What `read(*args)` gives, or None with its problem kept: one wrong value hides no other."""
    try:
        return read(*args)
    except _Bad as problem:
        bad.append(problem)
        return None


def _minimums(value: object, bad: list[_Bad]) -> Pairs | None:
    """A first-meld table: [lowest total, minimum] pairs, the totals going up."""
    if not isinstance(value, list):
        bad.append(_Bad(Text(N_("expected a list, got %(value)s"), {"value": _show(value)})))
        return None
    pairs = []
    for row, pair in enumerate(value):
        if not isinstance(pair, list):
            bad.append(
                _Bad(Text(N_("expected a list, got %(value)s"), {"value": _show(pair)}), row)
            )
        elif len(pair) != 2:
            bad.append(_Bad(Text(N_("expected a pair [lowest_total, minimum]")), row))
        else:
            lowest = _kept(bad, _whole, pair[0], None, row, 0)
            minimum = _kept(bad, _whole, pair[1], 0, row, 1)
            if lowest is not None and minimum is not None:
                pairs.append((lowest, minimum))
    if not value:
        bad.append(_Bad(Text(N_("expected at least one [lowest_total, minimum] pair"))))
    if any(a[0] >= b[0] for a, b in itertools.pairwise(pairs)):
        bad.append(_Bad(Text(N_("the lowest totals must go up from pair to pair"))))
    return tuple(pairs) if pairs and len(pairs) == len(value) else None


def _points_by_part(
    entry: HouseRuleKey, system: RuleSystem, value: object, bad: list[_Bad]
) -> dict[str, int]:
    """Each part's points; every part is read, whatever the others."""
    if not isinstance(value, dict):
        bad.append(_Bad(Text(N_("expected an object, got %(value)s"), {"value": _show(value)})))
        return {}
    has = entry.parts(system)
    found = {}
    for part, points in value.items():
        if part not in entry.every_part:
            known = ", ".join(entry.every_part)
            message = Text(
                N_("unknown %(what)s %(value)s; known: %(known)s"),
                {"what": Text(entry.part_name), "value": _show(part), "known": known},
            )
            bad.append(_Bad(message, part))
        elif part not in has:
            message = Text(
                N_("%(system)s has no %(part)s"),
                {"system": system.id, "part": Text(entry.part_label(part, system))},
            )
            bad.append(_Bad(message, part))
        else:
            read = _kept(bad, partial(_whole, step=entry.step), points, entry.least, part)
            if read is not None:
                found[part] = read
    return found


def _value(entry: HouseRuleKey, system: RuleSystem, value: object, bad: list[_Bad]) -> Json:
    """The value of one key as `HouseRules` holds it (None if unreadable), its problems kept."""
    if entry.kind is HouseRuleKind.POINTS_BY_PART:
        return _points_by_part(entry, system, value, bad)
    if entry.kind is HouseRuleKind.MINIMUMS:
        return _minimums(value, bad)
    if entry.kind is HouseRuleKind.WORDS:
        return _kept(bad, _words, value)
    if entry.kind is HouseRuleKind.CHOICE:
        return _kept(bad, _choice, entry, value)
    return _kept(bad, partial(_whole, step=entry.step), value, entry.least)


def read_house_rule(
    entry: HouseRuleKey, system: RuleSystem, value: object
) -> tuple[Json, list[HouseRuleProblem]]:
    """One key's value for `system` as `HouseRules` holds it (None if unreadable), and every
    problem with it.

    >>> from .systems import get_system
    >>> read_house_rule(HOUSE_RULES_BY_KEY["set_bonuses"], get_system("classic"), {"samba": 2000})
    ({'samba': 2000}, [])
    """
    if not entry.has(system):
        message = Text(entry.why_not, {"system": system.id})
        return None, [HouseRuleProblem(entry.key, message)]
    bad: list[_Bad] = []
    read = _value(entry, system, value, bad)
    return read, [HouseRuleProblem(entry.key, b.message, b.at) for b in bad]


def read_house_rules(data: object, system: RuleSystem) -> tuple[HouseRules, list[HouseRuleProblem]]:
    """A game file's `house_rules` for `system`, and every problem with them at once.

    The house rules hold the values that could be read; each problem names its key.

    >>> from .systems import get_system
    >>> house, problems = read_house_rules(
    ...     {"target": 0, "set_bonuses": {"samba": 1500, "super_samba": 9}}, get_system("denexa"))
    >>> house.set_bonuses
    {'samba': 1500}
    >>> [f"{p.where}: {p.message}" for p in problems]
    ['house_rules.target: expected a whole number of at least 1, got 0', \
'house_rules.set_bonuses.super_samba: denexa has no super samba']
    """
    if not isinstance(data, dict):
        message = Text(N_("expected an object, got %(value)s"), {"value": _show(data)})
        return HouseRules(), [HouseRuleProblem("", message)]
    known = Text(
        N_("unknown house rule; known: %(known)s"), {"known": ", ".join(HOUSE_RULES_BY_KEY)}
    )
    problems = [HouseRuleProblem(str(key), known) for key in data if key not in HOUSE_RULES_BY_KEY]
    values: dict[str, Json] = {}
    for entry in HOUSE_RULES:
        if data.get(entry.key) is not None:
            read, found = read_house_rule(entry, system, data[entry.key])
            problems += found
            if read is not None:
                values[entry.key] = read
    return HouseRules(**values), problems


def house_rules_data(house: HouseRules) -> dict[str, Json]:
    """House rules as a game file writes them, leaving out what they do not change.

    >>> house_rules_data(HouseRules(target=5000, opening_minimums=((0, 50), (3000, 90))))
    {'target': 5000, 'opening_minimums': [[0, 50], [3000, 90]]}
    """
    data: dict[str, Json] = {}
    for entry in HOUSE_RULES:
        value = getattr(house, entry.key)
        if entry.kind is HouseRuleKind.MINIMUMS and value is not None:
            value = [list(pair) for pair in value]
        elif entry.kind is HouseRuleKind.POINTS_BY_PART:
            value = dict(value) or None
        if value is not None:
            data[entry.key] = value
    return data


def with_house_rules(system: RuleSystem, house: HouseRules) -> RuleSystem:
    """The system with a table's own numbers; the original stays as it was."""
    for entry in HOUSE_RULES:  # house rules read for another system
        value = getattr(house, entry.key)
        if value is None or value == {}:
            continue
        if not entry.has(system) or any(
            part not in entry.parts(system)
            for part in (value if entry.kind is HouseRuleKind.POINTS_BY_PART else ())
        ):
            raise HouseRuleError(f"{entry.key}: {system.id} cannot take {value!r}")
    return replace(
        system,
        target=system.target if house.target is None else house.target,
        set_bonuses={
            **system.set_bonuses,
            **{SetKind(part): bonus for part, bonus in house.set_bonuses.items()},
        },
        going_out_bonus=(
            system.going_out_bonus if house.going_out_bonus is None else house.going_out_bonus
        ),
        sets_to_go_out=(
            system.sets_to_go_out if house.sets_to_go_out is None else house.sets_to_go_out
        ),
        opening_minimums=(
            system.opening_minimums if house.opening_minimums is None else house.opening_minimums
        ),
        red_threes=replace(
            _with_red_three_values(system.red_threes, house.red_three_values),
            all_counted=house.all_red_threes or system.red_threes.all_counted,
        ),
        tie_at_target=house.tie_at_target or system.tie_at_target,
        melded_points_for=house.melded_points_for or system.melded_points_for,
        house_rules=house,
    )


@dataclass(frozen=True)
class Difference:
    """One number a house rule changes: its key (and part), the system's value and the table's."""

    entry: HouseRuleKey
    part: str | None
    label: str
    was: Json
    now: Json


def house_differences(system: RuleSystem, base: RuleSystem) -> list[Difference]:
    """What `system` changes from `base`, key by key in the table's order.

    >>> from .systems import get_system
    >>> denexa = get_system("denexa")
    >>> house = with_house_rules(denexa, HouseRules(set_bonuses={"samba": 1500}))
    >>> [(d.entry.key, d.part, d.was, d.now) for d in house_differences(house, denexa)]
    [('set_bonuses', 'samba', 500, 1500)]
    """
    found = []
    for entry in HOUSE_RULES:
        if entry.kind is HouseRuleKind.WORDS:
            continue
        was, now = entry.of(base), entry.of(system)
        if entry.kind is HouseRuleKind.POINTS_BY_PART:
            found += [
                Difference(entry, part, entry.part_label(part, system), was.get(part), value)
                for part, value in now.items()
                if was.get(part) != value
            ]
        elif was != now:
            found.append(Difference(entry, None, entry.heading, was, now))
    return found

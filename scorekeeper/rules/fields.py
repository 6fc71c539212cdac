"""The fields of a hand entry, described once: what the form, the game file, the database, the
CSV and the corrections of a hand are all made from.

A field is one attribute of `Entry` (the same name is the model's column and the game file's
key). Sets and penalties are one field each, holding a count per set kind or per penalty; each
of those counts is a `FieldRef` of its own, which is also how a violation points at a field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .hands import Entry
from .systems import Penalty, RuleSystem, SetKind
from .words import N_, Text


class FieldKind(StrEnum):
    """What a field holds."""

    FLAG = "flag"  # yes or no
    COUNT = "count"  # how many of something
    POINTS = "points"  # card points: always a multiple of 5
    SETS = "sets"  # a count per set kind
    PENALTIES = "penalties"  # a count per penalty

    @property
    def grouped(self) -> bool:
        """Whether the field holds a count per key (set kind or penalty) rather than one value."""
        return self in (FieldKind.SETS, FieldKind.PENALTIES)

    @property
    def key_word(self) -> str:
        """What a grouped field's keys are, in messages about files: `set kind`, `penalty`."""
        return "set kind" if self is FieldKind.SETS else "penalty"


Key = SetKind | Penalty


def _every(system: RuleSystem) -> bool:
    return True


@dataclass(frozen=True)
class EntryField:
    """One field of a hand entry: its name, kind, bounds, label, rule topic and systems."""

    name: str
    kind: FieldKind
    label: str  # N_-marked; for penalties a template of the penalty's label, `%(what)s`
    topic: str  # the rule topic it belongs to (`RuleSystem.sections`)
    in_system: Callable[[RuleSystem], bool] = _every
    most: int = 9999  # the largest value the hand form takes; the least is always 0
    optional: bool = False  # may be left unnoted (None), as a first meld may
    cards: bool = False  # the card counter can fill it in from the cards laid down or held
    column: str = ""  # a key's prefix in flat names: `set_` + `samba`
    by_ending: bool = False  # told by how the hand ended (`Ending`), not asked on its own
    least_players: int = 1  # asked only at a table with a side of at least this many players
    cost: Callable[[RuleSystem], Text | None] = lambda system: None  # what one of it costs
    # The field whose answer tells this one's under a system, so the form asks only that one.
    told_by: Callable[[RuleSystem], str | None] = lambda system: None

    def asked(self, system: RuleSystem, players: int | None = None) -> bool:
        """Whether the hand form asks for this field (at a table whose largest side has
        `players` players, when given)."""
        if not self.in_system(system) or self.told_by(system) is not None:
            return False
        return players is None or players >= self.least_players

    def keys(self, system: RuleSystem) -> list[Key]:
        """The keys this grouped field has under a system, in the order the form shows them.

        >>> from scorekeeper.rules.systems import get_system
                >>> [k.value for k in FIELDS["sets"].keys(get_system("classic"))]
                ['natural_canasta', 'mixed_canasta', 'samba']
        """
        if self.kind is FieldKind.SETS:
            return [kind for kind in SetKind if system.has(kind)]
        if self.kind is FieldKind.PENALTIES:
            return list(system.penalties)
        return []

    def key(self, value: str) -> Key:
        """The set kind or penalty a grouped field's key names; ValueError if none."""
        return SetKind(value) if self.kind is FieldKind.SETS else Penalty(value)

    @property
    def default(self) -> bool | int | None:
        """The value of a field left empty."""
        if self.optional:
            return None
        return False if self.kind is FieldKind.FLAG else 0


def _each(points: int) -> Text | None:
    return Text(N_("%(points)s each"), {"points": -points}) if points else None


def _in_hand_cost(system: RuleSystem) -> Text | None:
    """What red threes left in hand cost: each, or (classic) each player holding any."""
    rule = system.red_threes
    if rule.in_hand_by_player and rule.in_hand:
        return Text(N_("%(points)s for each player holding any"), {"points": -rule.in_hand})
    return _each(rule.in_hand)


ENTRY_FIELDS: tuple[EntryField, ...] = (
    EntryField("went_out", FieldKind.FLAG, N_("Went out"), "going-out", by_ending=True),
    EntryField(
        "concealed",
        FieldKind.FLAG,
        N_("Went out concealed (all at once)"),
        "first-meld",
        in_system=lambda system: system.concealed_exempt,
    ),
    EntryField(
        "opening_meld",
        FieldKind.POINTS,
        N_("First meld (points)"),
        "first-meld",
        most=99999,
        optional=True,
    ),
    EntryField("sets", FieldKind.SETS, N_("Sets"), "sets", column="set_"),
    EntryField(
        "melded_points",
        FieldKind.POINTS,
        N_("Card points melded"),
        "scoring",
        most=99999,
        cards=True,
    ),
    EntryField(
        "hand_points",
        FieldKind.POINTS,
        N_("Card points left in hand"),
        "scoring",
        most=99999,
        cards=True,
    ),
    EntryField("red_threes", FieldKind.COUNT, N_("Red threes on the table"), "red-threes"),
    # Where red threes left in hand are charged per player caught holding any (classic), the
    # rule has one fact, how many players held one, and the form asks only that: each of them
    # held one red three at least, which is what the game file's two fields then say.
    EntryField(
        "red_threes_in_hand",
        FieldKind.COUNT,
        N_("Red threes left in hand"),
        "red-threes",
        cost=_in_hand_cost,
        told_by=lambda system: (
            "players_holding_red_threes" if system.red_threes.in_hand_by_player else None
        ),
    ),
    EntryField(
        "players_holding_red_threes",
        FieldKind.COUNT,
        N_("Players caught holding red threes"),
        "red-threes",
        in_system=lambda system: bool(system.red_threes.in_hand_per_player),
        cost=lambda system: _each(system.red_threes.in_hand_per_player),
    ),
    EntryField(
        "penalties", FieldKind.PENALTIES, N_("Penalty: %(what)s"), "penalties", column="penalty_"
    ),
)
"""Every field of a hand entry, in the order of `Entry` and of a game file's entry."""

FIELDS = {field.name: field for field in ENTRY_FIELDS}


NUMBER_FIELDS = tuple(f.name for f in ENTRY_FIELDS if f.kind in (FieldKind.COUNT, FieldKind.POINTS))
"""Fields that hold one number."""
POINTS_FIELDS = tuple(f.name for f in ENTRY_FIELDS if f.kind is FieldKind.POINTS)
"""Fields that hold card points, so always a multiple of 5."""


@dataclass(frozen=True)
class FieldRef:
    """One value of an entry: a field, and for sets and penalties which one.

    >>> ref = FieldRef("sets", SetKind.SAMBA)
    >>> ref.path, ref.name
    ('sets.samba', 'set_samba')
    >>> FieldRef.from_path("penalties.drew_out_of_turn").name
    'penalty_drew_out_of_turn'
    >>> FieldRef.from_path("melded_points") == FieldRef("melded_points")
    True
    """

    field: str
    key: Key | None = None

    @property
    def entry_field(self) -> EntryField:
        return FIELDS[self.field]

    @property
    def path(self) -> str:
        """As a game file and `scorekeeper check` name it: `sets.samba`, `melded_points`."""
        return self.field if self.key is None else f"{self.field}.{self.key.value}"

    @property
    def name(self) -> str:
        """As one flat column names it (the hand form, the CSV, a correction): `set_samba`."""
        return self.field if self.key is None else f"{self.entry_field.column}{self.key.value}"

    @property
    def label(self) -> Text:
        """What the field is called for people."""
        field = self.entry_field
        if self.key is None:
            return Text(field.label)
        if field.kind is FieldKind.SETS:
            return Text(self.key.label)
        return Text(field.label, {"what": Text(self.key.label)})

    @classmethod
    def from_path(cls, path: str) -> FieldRef:
        """The field a game-file path names; KeyError or ValueError if none."""
        name, _, key = path.partition(".")
        field = FIELDS[name]
        return cls(name, field.key(key) if key else None)


def refs(system: RuleSystem, every: bool = False, players: int | None = None) -> Iterator[FieldRef]:
    """An entry's values under a system, field by field; `every` keeps the fields it lacks,
    `players` (the most on a side) leaves out those that mean nothing at such a table.

    >>> from scorekeeper.rules.systems import get_system
        >>> [ref.name for ref in refs(get_system("classic"))][:4]
        ['went_out', 'opening_meld', 'set_natural_canasta', 'set_mixed_canasta']
    """
    for field in ENTRY_FIELDS:
        if field.kind.grouped:
            yield from (FieldRef(field.name, key) for key in field.keys(system))
        elif every or field.asked(system, players):
            yield FieldRef(field.name)


def asked_as(system: RuleSystem, ref: FieldRef) -> FieldRef:
    """The field the hand form asks for a value: itself, or the one whose answer tells it.

    >>> from scorekeeper.rules.systems import get_system
    >>> asked_as(get_system("classic"), FieldRef("red_threes_in_hand")).name
    'players_holding_red_threes'
    >>> asked_as(get_system("denexa"), FieldRef("red_threes_in_hand")).name
    'red_threes_in_hand'
    """
    told_by = ref.entry_field.told_by(system) if ref.key is None else None
    return ref if told_by is None else FieldRef(told_by)


def caught_holding(entry: Entry) -> int:
    """How many players of a side were caught holding red threes (classic): as recorded, or
    the one player who can be caught when only red threes left in hand are (scoring.py)."""
    if not entry.red_threes_in_hand:
        return entry.players_holding_red_threes
    return entry.players_holding_red_threes or 1


def value_of(entry: object, ref: FieldRef) -> bool | int | None:
    """One value of an entry (the engine's or the database's), its default if not given.

    >>> value_of(Entry(sets={SetKind.SAMBA: 2}), FieldRef("sets", SetKind.SAMBA))
    2
    >>> value_of(Entry(), FieldRef("opening_meld")) is None
    True
    """
    value = getattr(entry, ref.field)
    if ref.key is None:
        return value  # type: ignore[no-any-return]  # an entry's attribute, of the field's kind
    return int(value.get(ref.key, 0))


def plain(entry: Entry) -> dict[str, Any]:
    """An entry's fields as plain values, by name: a set kind or penalty as its code, none at 0.

    >>> plain(Entry(went_out=True, sets={SetKind.SAMBA: 1, SetKind.MIXED_CANASTA: 0}))["sets"]
    {'samba': 1}
    """
    values: dict[str, Any] = {}
    for field in ENTRY_FIELDS:
        value = getattr(entry, field.name)
        values[field.name] = (
            {k.value: n for k, n in value.items() if n} if field.kind.grouped else value
        )
    return values


def entry_of(values: Mapping[str, Any]) -> Entry:
    """The entry plain values describe (as `plain` gives them, or a database row's); a missing
    field is at its default.

    >>> entry_of({"sets": {"samba": 1}}) == Entry(sets={SetKind.SAMBA: 1})
    True
    """
    given: dict[str, Any] = {}
    for field in ENTRY_FIELDS:
        if field.kind.grouped:
            given[field.name] = {field.key(k): n for k, n in values.get(field.name, {}).items()}
        else:
            given[field.name] = values.get(field.name, field.default)
    return Entry(**given)


def held(entry: Entry) -> set[FieldRef]:
    """The values an entry holds apart from its ending: every field, and the set kinds and
    penalties it records.

    >>> sorted(ref.name for ref in held(Entry(sets={SetKind.SAMBA: 1})))[-2:]
    ['red_threes_in_hand', 'set_samba']
    """
    found = set()
    for field in ENTRY_FIELDS:
        if field.kind.grouped:
            found |= {FieldRef(field.name, key) for key in getattr(entry, field.name)}
        elif not field.by_ending:
            found.add(FieldRef(field.name))
    return found

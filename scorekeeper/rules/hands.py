"""What a table records: the sides, and for each hand what each side laid down and held."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import ClassVar

from .systems import Deck, Penalty, RuleSystem, SetKind


class EndedBy(StrEnum):
    """How a hand ended."""

    GOING_OUT = "going_out"
    STOCK_EXHAUSTED = "stock_exhausted"


@dataclass(frozen=True)
class Ending:
    """How a hand ended, as the table tells it: which side went out, or that the stock ran out.

    >>> Ending.went_out(1).ended_by, Ending.STOCK.ended_by
    (<EndedBy.GOING_OUT: 'going_out'>, <EndedBy.STOCK_EXHAUSTED: 'stock_exhausted'>)
    >>> Ending.every(2)
    [Ending(side=0), Ending(side=1), Ending(side=None)]
    """

    side: int | None
    """The side that went out; None when the stock ran out."""

    STOCK: ClassVar[Ending]

    @classmethod
    def went_out(cls, side: int) -> Ending:
        return cls(side)

    @classmethod
    def every(cls, sides: int) -> list[Ending]:
        """The ways a hand of `sides` sides can end: each side going out, then the stock."""
        return [*(cls.went_out(i) for i in range(sides)), cls.STOCK]

    @property
    def ended_by(self) -> EndedBy:
        return EndedBy.STOCK_EXHAUSTED if self.side is None else EndedBy.GOING_OUT


Ending.STOCK = Ending(None)


@dataclass(frozen=True)
class Side:
    """A team, or one player in an individual game."""

    name: str
    players: int = 1
    start_score: int = 0


@dataclass(frozen=True)
class BadNumber:
    """A count or points field that was not a whole number of zero or more, as it was given."""

    field: str
    given: str


@dataclass(frozen=True)
class Entry:
    """One side's record of one hand: the fields of `fields.ENTRY_FIELDS`, and numbers that
    were not whole numbers of zero or more as given."""

    went_out: bool = False
    concealed: bool = False
    opening_meld: int | None = None
    sets: Mapping[SetKind, int] = field(default_factory=dict)
    melded_points: int = 0
    hand_points: int = 0
    red_threes: int = 0
    red_threes_in_hand: int = 0
    players_holding_red_threes: int = 0
    penalties: Mapping[Penalty, int] = field(default_factory=dict)
    bad_numbers: tuple[BadNumber, ...] = ()

    def count(self, kind: SetKind) -> int:
        return self.sets.get(kind, 0)

    def sets_of(self, system: RuleSystem) -> int:
        """How many sets of the kinds the system has."""
        return sum(n for kind, n in self.sets.items() if system.has(kind))

    def has_melded(self) -> bool:
        """Whether the side laid down any cards this hand."""
        return self.melded_points > 0 or any(n > 0 for n in self.sets.values())


@dataclass(frozen=True)
class Hand:
    """One hand: an entry per side, in seating order."""

    entries: tuple[Entry, ...]
    ended_by: EndedBy = EndedBy.GOING_OUT

    def went_out(self) -> list[int]:
        """The sides that went out."""
        return [i for i, entry in enumerate(self.entries) if entry.went_out]

    @property
    def ending(self) -> Ending:
        """How the hand ended: the first side that went out, else the stock ran out."""
        out = self.went_out()
        if self.ended_by is EndedBy.STOCK_EXHAUSTED or not out:
            return Ending.STOCK
        return Ending.went_out(out[0])


@dataclass(frozen=True)
class Game:
    """A game under one system: its sides and the hands recorded so far."""

    system: RuleSystem
    sides: tuple[Side, ...]
    hands: tuple[Hand, ...] = ()
    first_dealer: int = 0
    """Who deals the first hand: a place in the order of play (`replay.seating`), from 0."""

    @property
    def players(self) -> int:
        return sum(side.players for side in self.sides)

    @property
    def deck(self) -> Deck:
        return self.system.deck(self.players)

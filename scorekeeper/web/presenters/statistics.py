"""What the history pages show of the statistics' rows: each player's and partnership's tally
in the page's language, and who a player may be merged into."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from flask_babel import format_percent

from ... import rules
from ..store import tallies
from ..store.models import player_key
from ..wording import say


@dataclass(frozen=True)
class Tally:
    """What a player or a partnership did, as their statistics card shows it."""

    games: int
    finished: int
    wins: int
    win_rate: str | None
    """Wins among finished games, as the page's language writes a percentage; None before any."""
    hands: int
    average: int | None
    """The average hand score, rounded; None before any hand."""
    best: int | None
    best_system: str | None
    """The name of the system the best hand was played in, in the page's language."""
    went_out: int
    red_threes: int
    sets_made: list[tuple[str, int]]
    """(label in the page's language, how many) for each kind of set made at least once, in the
    rule book's order."""


@dataclass(frozen=True)
class _Words:
    """The names a statistics card shows, said once per page rather than once per card."""

    systems: dict[str, str]
    sets: dict[rules.SetKind, str]


def _words() -> _Words:
    return _Words(
        systems={id: say(system.name) for id, system in rules.SYSTEMS.items()},
        sets={kind: say(kind.label) for kind in rules.SetKind},
    )


def tally(row: tallies.TallyRow, words: _Words) -> Tally:
    return Tally(
        games=row.games,
        finished=row.finished,
        wins=row.wins,
        win_rate=str(format_percent(row.wins / row.finished)) if row.finished else None,
        hands=row.hands,
        average=round(row.score / row.hands) if row.hands else None,
        best=row.best,
        best_system=words.systems[row.best_system] if row.best_system else None,
        went_out=row.went_out,
        red_threes=row.red_threes,
        sets_made=[
            (words.sets[kind], row.sets[kind]) for kind in rules.SetKind if row.sets.get(kind)
        ],
    )


@dataclass(frozen=True)
class PlayerStats:
    key: str
    name: str
    tally: Tally


@dataclass(frozen=True)
class PartnershipStats:
    keys: tuple[str, ...]
    names: list[str]
    tally: Tally


def player_stats(rows: Sequence[tallies.PlayerRow], names: Mapping[str, str]) -> list[PlayerStats]:
    """Players most games first, then by name."""
    words = _words()
    return sorted(
        (PlayerStats(row.key, names[row.key], tally(row.tally, words)) for row in rows),
        key=lambda p: (-p.tally.games, p.name.casefold()),
    )


def partnership_stats(
    rows: Sequence[tallies.PartnershipRow], names: Mapping[str, str], shown: int | None = None
) -> list[PartnershipStats]:
    """Partnerships most games first, then by their names; only the first `shown` of them."""
    ordered = sorted(rows, key=lambda row: (-row.games, [names[k].casefold() for k in row.keys]))
    words = _words()
    return [
        PartnershipStats(row.keys, [names[k] for k in row.keys], tally(row.tally, words))
        for row in ordered[:shown]
    ]


def merge_choices(names: Mapping[str, str], key: str) -> list[tuple[str, str]]:
    """The players another can be merged into, by name; the key too where the name hides it."""
    return sorted(
        (
            (other, f"{name} ({other})" if player_key(name) != other else name)
            for other, name in names.items()
            if other != key
        ),
        key=lambda choice: choice[1].casefold(),
    )

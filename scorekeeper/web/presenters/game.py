"""What a game's pages show, worked out from the game and its replay: the scoreboard, the table
display, the state the pages ask for, the corrections; templates only lay them out."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property, lru_cache
from typing import Any

from flask import render_template
from flask_babel import get_locale
from flask_babel import gettext as _

from ... import rules
from ...rules.fields import held, refs, value_of
from ...rules.gamefile import read_hand
from ...rules.hands import Ending
from ..services.engine import SystemKey, system_for, system_key, system_of
from ..services.hands import Change, changes
from ..services.kept import KeptGame
from ..store import queries
from ..store.reads import GameLike, GameRead, HandRead
from ..wording import ending_label, label_of, number
from . import parts
from .chart import Chart, running_totals
from .what_if import readings_to_try


@dataclass(frozen=True)
class SideTotal:
    """One side at the top of the scoreboard."""

    name: str
    players: str  # the players' names that are known, or ""
    total: int
    minimum: int  # its minimum first meld for the next hand
    won: bool
    last: int | None = None
    """What the side scored in the last hand, None before the first."""

    @property
    def progress(self) -> int:
        """How far the side is on the way to the target (a total below zero is at the start)."""
        return max(0, self.total)

    @property
    def wide(self) -> bool:
        """Whether the total takes more than six characters ("−12,345"): it is set smaller, to
        fit its card."""
        return len(f"{self.total:,}") > 6


@dataclass(frozen=True)
class Scoreboard:
    """A game's scoreboard: the totals, what the next hand needs, and the game so far."""

    game: GameRead
    system: rules.RuleSystem
    title: str
    over: bool
    winner: SideTotal | None
    sides: list[SideTotal]
    next_hand: int
    dealer: str
    chart: Chart | None
    hands: list[tuple[HandRead, rules.HandResult]]
    corrections: list[CorrectionNote]
    readings: list[tuple[str, str]]  # the what-if page's anchor and words of each other reading
    corrected: CorrectionNote | None = None
    """The game's latest change when it is a correction (made after its last hand was saved):
    what its following pages tell, as they tell another phone's hand."""

    @property
    def last_hand(self) -> int:
        """The number of the last hand played (0 before the first)."""
        return self.next_hand - 1

    @cached_property
    def rows(self) -> list[parts.Kept]:
        """The rows of the table of hands, drawn a block at a time (`hand_rows`)."""
        return hand_rows(self.game.id, self.hands)


ROWS_DRAWN_TOGETHER = 20
"""Rows of the table of hands drawn and kept as one block: a new hand draws its own row alone
(the other blocks are kept, under what they show, and so is its block as it was a hand ago),
however long the game."""

Row = tuple[int, HandRead, rules.HandResult]
"""A row of the table of hands: the hand's number, the hand and its scores."""


def hand_rows(game_id: str, hands: list[tuple[HandRead, rules.HandResult]]) -> list[parts.Kept]:
    """The rows of a game's table of hands, in blocks each kept under what it shows: the hands'
    numbers, ids, scores and totals, and the language (a number's separators). A block that
    only grew by a row since it was kept (a hand recorded) is that block and the new row."""
    blocks = []
    locale = str(get_locale())
    for start in range(0, len(hands), ROWS_DRAWN_TOGETHER):
        rows = [
            (number, hand, scored)
            for number, (hand, scored) in enumerate(
                hands[start : start + ROWS_DRAWN_TOGETHER], start=start + 1
            )
        ]
        shown = tuple(
            (hand.id, bool(scored.violations), *((s.hand_score, s.total) for s in scored.sides))
            for _number, hand, scored in rows
        )

        def key(shown: tuple[object, ...], start: int = start) -> Hashable:
            return ("hand rows", game_id, locale, start, shown)

        def draw(rows: list[Row] = rows, shown: tuple[object, ...] = shown) -> parts.Kept:
            # The rows of a block are drawn one after another, so the block as it was a row ago
            # and the last row drawn alone are the block drawn whole (a test says so): one piece
            # of text, as a block drawn whole is (rows have no holes), compressed once for every
            # page it is in (`parts.Piece.deflated_after`).
            before = parts.already(key(shown[:-1])) if len(rows) > 1 else None
            if isinstance(before, parts.Kept) and not before.holes:
                row = _drawn_rows(game_id, rows[-1:]).text({})
                return parts.Kept([parts.Piece(before.text({}) + row)])
            return _drawn_rows(game_id, rows)

        blocks.append(parts.kept(key(shown), draw))
    return blocks


def _drawn_rows(game_id: str, rows: list[Row]) -> parts.Kept:
    return parts.draw(lambda: render_template("games/_hand_rows.html", rows=rows, game_id=game_id))


def player_name(game: GameLike, seat: rules.Seat) -> str:
    """A player's name, or which player of which side when it was not given; a side of one
    player goes by the player's name."""
    side = game.sides[seat.side]
    name = side.players[seat.player].name
    if name:
        return name
    if len(side.players) == 1:
        return side.name
    return _("player %(number)s of %(side)s", number=seat.player + 1, side=side.name)


def game_title(game: GameLike) -> str:
    """What a game goes by: the name the table gave it, or who plays it."""
    sides = ((side.name, [p.name for p in side.players if p.name]) for side in game.sides)
    return game.name or queries.who_played(sides)


def side_totals(game: GameLike, result: rules.GameResult) -> list[SideTotal]:
    """Each side at the top of a game's pages: its total, first-meld minimum, last hand."""
    return [
        SideTotal(
            name=side.name,
            players=", ".join(p.name for p in side.players if p.name and p.name != side.name),
            total=result.totals[index],
            minimum=result.next_minimums[index],
            won=result.game_over and result.winner == index,
            last=result.hands[-1].sides[index].hand_score if result.hands else None,
        )
        for index, side in enumerate(game.sides)
    ]


def winner_of(sides: list[SideTotal], result: rules.GameResult) -> SideTotal | None:
    return sides[result.winner] if result.game_over and result.winner is not None else None


def scoreboard(kept: KeptGame) -> Scoreboard:
    """A game's scoreboard, from the game kept and its replay."""
    game, result = kept.game, kept.replay
    system = system_of(game)
    sides = side_totals(game, result)
    corrections = correction_notes(game)
    last_saved = max((hand.created_at for hand in game.live_hands), default=None)
    latest = corrections[0] if corrections else None
    return Scoreboard(
        game=game,
        system=system,
        title=game_title(game),
        over=result.game_over,
        winner=winner_of(sides, result),
        sides=sides,
        next_hand=result.next_hand,
        dealer=player_name(game, result.next_dealer),
        chart=running_totals(
            [side.name for side in game.sides],
            [side.start_score for side in game.sides],
            result,
            system.target,
        ),
        hands=list(zip(game.live_hands, result.hands, strict=True)),
        corrections=corrections,
        readings=list(_readings(system_key(game), str(get_locale()))),
        corrected=latest if latest and (last_saved is None or latest.at > last_saved) else None,
    )


@lru_cache(maxsize=64)
def _readings(key: SystemKey, locale: str) -> tuple[tuple[str, str], ...]:
    """The what-if links of the rules `key` in the language `locale` (the page's): the same
    for every game of these rules, worked out once a process, not at every hand. Kept apart
    from any game's (a game let go does not take them, nor do they keep a game followed)."""
    return tuple(readings_to_try(system_for(key)))


@dataclass(frozen=True)
class Display:
    """The game as the table display shows it from across the table: totals, who deals, each
    side's first-meld minimum and what each side scored in the last hand."""

    game: GameRead
    title: str
    over: bool
    winner: SideTotal | None
    sides: list[SideTotal]
    last_hand: int  # 0 before the first
    next_hand: int
    dealer: str


def display(kept: KeptGame) -> Display:
    """The table display's values, from the game kept (no chart, no hands, no corrections)."""
    game, result = kept.game, kept.replay
    sides = side_totals(game, result)
    return Display(
        game=game,
        title=game_title(game),
        over=result.game_over,
        winner=winner_of(sides, result),
        sides=sides,
        last_hand=result.next_hand - 1,
        next_hand=result.next_hand,
        dealer=player_name(game, result.next_dealer),
    )


@dataclass(frozen=True)
class GameState:
    """What a phone with the hand form open needs to know of the game meanwhile."""

    hands: int  # hands played (deleted ones not counted)
    last: int
    """The last hand's place, deleted or not: the hand form's `after`; it grows only when a
    hand is recorded, which is what makes a Save answer 409."""
    last_hand_id: int | None  # the last hand played, for a link to its breakdown


def game_state(kept: KeptGame) -> GameState:
    """The game's state, which the hand form follows."""
    live = kept.game.live_hands
    return GameState(
        hands=len(live),
        last=kept.game.last_position,
        last_hand_id=live[-1].id if live else None,
    )


@dataclass(frozen=True)
class CorrectionNote:
    """A correction as the scoreboard tells it: when, which hand, and what changed in words."""

    at: datetime
    hand_id: int
    number: int | None  # None once the hand is deleted
    deleted: bool
    restored: bool  # a deleted hand brought back
    restorable: bool  # the latest deletion of a hand still deleted: it can be brought back
    changes: list[tuple[str, str, str, str]]  # (side, what, before, after)


def _shown(game: GameLike, value: object) -> str:
    """A recorded value in words: an ending, a count, yes or no."""
    if isinstance(value, Ending):
        return ending_label(value, game)
    if value is None:
        return _("not noted")
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return number(int(str(value)))


def hand_in_words(game: GameLike, recorded: dict[str, Any]) -> list[tuple[str, str]]:
    """A hand as a correction kept it (what a deleted hand was), line by line in words: how it
    ended, then each side's values as the hand form asks them, those empty, 0 or no left out."""
    hand = read_hand(recorded)
    lines = [(_("How the hand ended"), _shown(game, hand.ending))]
    order = list(refs(system_of(game), every=True))
    for side, entry in zip(game.sides, hand.entries, strict=False):
        for ref in sorted(held(entry), key=order.index):
            value = value_of(entry, ref)
            if value:
                lines.append((f"{side.name} · {label_of(ref)}", _shown(game, value)))
    return lines


def correction_notes(game: GameRead) -> list[CorrectionNote]:
    """The game's corrections, latest first, each change in words."""

    def what(change: Change) -> str:
        return _("How the hand ended") if change.field is None else label_of(change.field)

    def shown(value: object) -> str:
        return _shown(game, value)

    live = game.live_hands
    notes = [
        CorrectionNote(
            at=c.at,
            hand_id=hand.id,
            number=live.index(hand) + 1 if hand in live else None,
            deleted=c.after is None,
            restored=c.before is None,
            restorable=hand.deleted_at is not None and c is hand.corrections[-1],
            changes=[
                (
                    "" if change.side is None else game.sides[change.side].name,
                    what(change),
                    shown(change.before),
                    shown(change.after),
                )
                for change in changes(c.before, c.after)
            ],
        )
        for hand in game.hands
        for c in hand.corrections
    ]
    return sorted(notes, key=lambda note: note.at, reverse=True)

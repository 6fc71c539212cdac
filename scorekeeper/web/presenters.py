"""What the game pages show, worked out from a game and its replay: templates only lay it out.

A scoreboard is drawn once per revision of the game and language, and kept in memory
(`models.Game.revision` says why a revision is the right key): showing it again costs one
statement, the same at hand 5 and at hand 100.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from threading import Lock

from cachetools import LRUCache
from flask import render_template
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from .. import rules
from ..rules.hands import Ending
from .chart import running_totals
from .hands import ending_label, label_of
from .i18n import number
from .models import Game
from .services import (
    GAMES_KEPT,
    Change,
    changes,
    game_with_sides,
    kept_replay,
    revision_of,
    system_of,
    with_hands,
)


@dataclass(frozen=True)
class SideTotal:
    """One side at the top of the scoreboard."""

    name: str
    players: str  # the players' names that are known, or ""
    total: int
    minimum: int  # its minimum first meld for the next hand
    won: bool


@dataclass(frozen=True)
class Scoreboard:
    """A game's scoreboard, drawn: plain values only, as it is kept and shared between requests.

    `top` is everything but the corrections (whose forms carry each visitor's own CSRF token).
    """

    game_id: str
    title: str
    top: Markup
    corrections: list[CorrectionNote]


BOARDS: LRUCache[tuple[str, str, str], Scoreboard] = LRUCache(GAMES_KEPT)
BOARDS_LOCK = Lock()


def scoreboard(game_id: str) -> Scoreboard:
    """The scoreboard of a game, drawn once per revision and language; NotFound if none."""
    key = (game_id, revision_of(game_id), str(get_locale()))
    with BOARDS_LOCK:
        board = BOARDS.get(key)
    if board is None:
        board = _draw(game_with_sides(game_id))
        with BOARDS_LOCK:
            BOARDS[key] = board
    return board


def player_name(game: Game, seat: rules.Seat) -> str:
    """A player's name, or which player of which side when it was not given."""
    side = game.sides[seat.side]
    name = side.players[seat.player].name
    return name or _("player %(number)s of %(side)s", number=seat.player + 1, side=side.name)


def _draw(game: Game) -> Scoreboard:
    system = system_of(game)
    result = kept_replay(game)
    with_hands(game)
    sides = [
        SideTotal(
            name=side.name,
            players=", ".join(p.name for p in side.players if p.name),
            total=result.totals[index],
            minimum=result.next_minimums[index],
            won=result.game_over and result.winner == index,
        )
        for index, side in enumerate(game.sides)
    ]
    chart = running_totals(
        [side.name for side in game.sides],
        [side.start_score for side in game.sides],
        result,
        system.target,
    )
    top = render_template(
        "scoreboard/_top.html",
        game=game,
        system=system,
        over=result.game_over,
        winner=sides[result.winner] if result.game_over and result.winner is not None else None,
        sides=sides,
        next_hand=result.next_hand,
        dealer=player_name(game, result.next_dealer),
        chart=chart,
        hands=list(zip(game.live_hands, result.hands, strict=True)),
    )
    return Scoreboard(
        game_id=game.id,
        title=" · ".join(side.name for side in game.sides),
        top=Markup(top),
        corrections=correction_notes(game, system),
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


def correction_notes(game: Game, system: rules.RuleSystem) -> list[CorrectionNote]:
    def what(change: Change) -> str:
        return _("How the hand ended") if change.field is None else label_of(change.field)

    def shown(value: object) -> str:
        if isinstance(value, Ending):
            return ending_label(value, game)
        if value is None:
            return _("not noted")
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return number(int(str(value)))

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

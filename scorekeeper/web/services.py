"""What the web app does to games, as functions of plain values: each one transaction.

Views call these; these call the rules engine to check and the database to keep.
"""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import abort
from sqlalchemy import select, update

from .. import rules
from ..rules.gamefile import entry_data
from .models import (
    NAME_LENGTH,
    Correction,
    Entry,
    Game,
    Hand,
    Player,
    Side,
    db,
    now,
    player_key,
)


class HandRefused(Exception):
    """A hand that breaks the rules; it was not recorded."""

    def __init__(self, violations: Sequence[rules.Violation]) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = list(violations)


class HandChanged(Exception):
    """The hand was corrected or deleted by someone else since the form was opened."""

    def __init__(self, current: Hand) -> None:
        super().__init__(f"hand {current.id} is now at version {current.version}")
        self.current = current


class GameRefused(Exception):
    """A game file or set-up that breaks the rules; nothing was stored."""

    def __init__(self, violations: Sequence[rules.Violation]) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = list(violations)


@dataclass(frozen=True)
class NewSide:
    """A side as the new-game form gives it."""

    name: str
    players: Sequence[str]
    start_score: int = 0


def system_of(game: Game) -> rules.RuleSystem:
    """The rules a game is played under: its system, options and house rules."""
    return rules.read_system(game.system_id, dict.fromkeys(game.options, True), game.house_rules)


def engine_entry(entry: Entry) -> rules.Entry:
    return rules.Entry(
        went_out=entry.went_out,
        concealed=entry.concealed,
        opening_meld=entry.opening_meld,
        sets={rules.SetKind(k): n for k, n in entry.sets.items()},
        melded_points=entry.melded_points,
        hand_points=entry.hand_points,
        red_threes=entry.red_threes,
        red_threes_in_hand=entry.red_threes_in_hand,
        players_holding_red_threes=entry.players_holding_red_threes,
        penalties={rules.Penalty(k): n for k, n in entry.penalties.items()},
    )


def engine_hand(hand: Hand) -> rules.Hand:
    return rules.Hand(tuple(engine_entry(e) for e in hand.entries), rules.EndedBy(hand.ended_by))


def engine_game(game: Game, hands: Sequence[rules.Hand] | None = None) -> rules.Game:
    """The game for the rules engine, with its recorded hands or with `hands` instead."""
    return rules.Game(
        system=system_of(game),
        sides=tuple(
            rules.Side(side.name, len(side.players), side.start_score) for side in game.sides
        ),
        hands=tuple(engine_hand(h) for h in game.live_hands) if hands is None else tuple(hands),
    )


def replay(game: Game) -> rules.GameResult:
    """The game replayed from its recorded hands."""
    return rules.replay(engine_game(game))


def hand_data(hand: rules.Hand) -> dict[str, Any]:
    """A hand as a game file writes it (kept in corrections)."""
    return {"ended_by": hand.ended_by.value, "entries": [entry_data(e) for e in hand.entries]}


@dataclass(frozen=True)
class Change:
    """One field of a corrected hand: the side (None for how the hand ended), before, after.

    `field` is named as on the hand form: `ending`, `melded_points`, `set_samba`, `penalty_…`.
    """

    side: int | None
    field: str
    before: object
    after: object


def _ending(hand: dict[str, Any]) -> str:
    out = [i for i, e in enumerate(hand["entries"]) if e.get("went_out")]
    if hand.get("ended_by") == rules.EndedBy.STOCK_EXHAUSTED.value or not out:
        return "stock"
    return f"out-{out[0]}"


def _flat(entry: dict[str, Any]) -> dict[str, object]:
    flat: dict[str, object] = {
        k: v for k, v in entry.items() if k not in ("sets", "penalties", "went_out")
    }
    flat.update({f"set_{k}": n for k, n in entry.get("sets", {}).items()})
    flat.update({f"penalty_{k}": n for k, n in entry.get("penalties", {}).items()})
    return flat


def changes(before: dict[str, Any], after: dict[str, Any] | None) -> list[Change]:
    """What a correction changed, field by field (nothing listed for a deletion)."""
    if after is None:
        return []
    found = []
    if _ending(before) != _ending(after):
        found.append(Change(None, "ending", _ending(before), _ending(after)))
    defaults = {"opening_meld": None, "concealed": False}
    for side, (old, new) in enumerate(zip(before["entries"], after["entries"], strict=True)):
        old_flat, new_flat = _flat(old), _flat(new)
        for key in sorted(old_flat.keys() | new_flat.keys()):
            was, now_ = (
                old_flat.get(key, defaults.get(key, 0)),
                new_flat.get(key, defaults.get(key, 0)),
            )
            if was != now_:
                found.append(Change(side, key, was, now_))
    return found


def _fill(record: Hand, hand: rules.Hand) -> None:
    record.ended_by = hand.ended_by.value
    record.entries = [
        Entry(
            side_position=i,
            went_out=e.went_out,
            concealed=e.concealed,
            opening_meld=e.opening_meld,
            sets={k.value: n for k, n in e.sets.items() if n},
            melded_points=e.melded_points,
            hand_points=e.hand_points,
            red_threes=e.red_threes,
            red_threes_in_hand=e.red_threes_in_hand,
            players_holding_red_threes=e.players_holding_red_threes,
            penalties={k.value: n for k, n in e.penalties.items() if n},
        )
        for i, e in enumerate(hand.entries)
    ]


def _remember(game: Game, result: rules.GameResult) -> None:
    """Copy the replay's totals, winner and hand scores onto the rows that lists read."""
    game.totals = list(result.totals)
    game.over = result.game_over
    game.winner = result.winner
    game.updated_at = now()
    for index, side in enumerate(game.sides):
        side.total = result.totals[index]
        side.won = result.game_over and result.winner == index
    for hand, scored in zip(game.live_hands, result.hands, strict=True):
        for entry, side_score in zip(hand.entries, scored.sides, strict=True):
            entry.hand_score = side_score.hand_score


def refresh_stale() -> int:
    """Replay the games whose copied totals are missing (after an upgrade); how many."""
    stale = db.session.scalars(select(Game).where(Game.sides.any(Side.total.is_(None)))).all()
    for game in stale:
        _remember(game, replay(game))
    db.session.commit()
    return len(stale)


def _side_rows(sides: Sequence[NewSide]) -> list[Side]:
    """The rows of a new game's sides and players, in seating order."""
    return [
        Side(
            position=i,
            name=side.name,
            start_score=side.start_score,
            players=[
                Player(position=j, name=name, key=player_key(name))
                for j, name in enumerate(side.players)
            ],
        )
        for i, side in enumerate(sides)
    ]


def create_game(
    system_id: str,
    options: Sequence[str],
    sides: Sequence[NewSide],
    house_rules: dict[str, Any] | None = None,
) -> str:
    """Set up a new game and return its id; refuses a table the system does not allow."""
    game = Game(system_id=system_id, options=sorted(options), house_rules=house_rules)
    game.sides = _side_rows(sides)
    result = rules.replay(engine_game(game, []))
    if result.game_violations:
        raise GameRefused(result.game_violations)
    _remember(game, result)
    db.session.add(game)
    db.session.commit()
    return game.id


def new_token() -> str:
    return secrets.token_urlsafe(16)


def record_hand(game_id: str, hand: rules.Hand, token: str) -> Hand:
    """Record the next hand if it keeps the rules; a token already used records nothing."""
    game = db.get_or_404(Game, game_id)
    already = db.session.scalar(select(Hand).filter_by(game_id=game_id, token=token))
    if already is not None:
        return already
    hands = [engine_hand(h) for h in game.live_hands] + [hand]
    result = rules.replay(engine_game(game, hands))
    if result.hands[-1].violations:
        raise HandRefused(result.hands[-1].violations)
    position = max((h.position for h in game.hands), default=0) + 1
    record = Hand(game=game, position=position, token=token)
    _fill(record, hand)
    db.session.add(record)
    _remember(game, result)
    db.session.commit()
    return record


def _claim(game: Game, hand_id: int, version: int) -> Hand:
    """The live hand, bumped to the next version; HandChanged if it moved on meanwhile."""
    record = db.session.get(Hand, hand_id)
    if record is None or record.game_id != game.id:
        abort(404)
    claimed = db.session.execute(
        update(Hand)
        .where(Hand.id == hand_id, Hand.version == version, Hand.deleted_at.is_(None))
        .values(version=version + 1)
    )
    if claimed.rowcount != 1:  # type: ignore[attr-defined]
        db.session.rollback()
        db.session.refresh(record)
        raise HandChanged(record)
    db.session.refresh(record)
    return record


def correct_hand(game_id: str, hand_id: int, hand: rules.Hand, version: int) -> Hand:
    """Replace a recorded hand; the old version is kept as a correction."""
    game = db.get_or_404(Game, game_id)
    live = game.live_hands
    index = next((i for i, h in enumerate(live) if h.id == hand_id), None)
    hands = [engine_hand(h) for h in live]
    if index is not None:
        hands[index] = hand
        result = rules.replay(engine_game(game, hands))
        if result.hands[index].violations:
            raise HandRefused(result.hands[index].violations)
    record = _claim(game, hand_id, version)
    before = hand_data(engine_hand(record))
    _fill(record, hand)
    record.corrections.append(Correction(before=before, after=hand_data(hand)))
    db.session.flush()
    db.session.expire(game)
    _remember(game, replay(game))
    db.session.commit()
    return record


def delete_hand(game_id: str, hand_id: int, version: int) -> None:
    """Take a hand out of the game; it stays in the correction history."""
    game = db.get_or_404(Game, game_id)
    record = _claim(game, hand_id, version)
    record.deleted_at = now()
    record.corrections.append(Correction(before=hand_data(engine_hand(record)), after=None))
    db.session.flush()
    db.session.expire(game)
    _remember(game, replay(game))
    db.session.commit()


def import_game(data: object) -> str:
    """Store a game file as a new game if it breaks no rule; GameFileError or GameRefused if not."""
    game = rules.read_game(data)
    result = rules.replay(game)
    if result.has_violations:
        raise GameRefused(
            [*result.game_violations, *(v for h in result.hands for v in h.violations)]
        )
    raw: dict[str, Any] = data  # type: ignore[assignment]
    names: list[list[str]] = []
    for i, (side, side_data) in enumerate(zip(game.sides, raw["sides"], strict=True)):
        players = side_data.get("player_names") or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise rules.GameFileError(f"sides[{i}].player_names", "expected a list of names")
        for where, name in [("name", side.name), *(("player_names", p) for p in players)]:
            if len(name) > NAME_LENGTH:
                raise rules.GameFileError(
                    f"sides[{i}].{where}", f"names are at most {NAME_LENGTH} characters"
                )
        names.append(players)
    house = rules.game_data(game).get("house_rules")
    record = Game(
        system_id=game.system.id, options=sorted(game.system.options_on), house_rules=house
    )
    record.sides = _side_rows(
        [
            NewSide(side.name, (names[i] + [""] * side.players)[: side.players], side.start_score)
            for i, side in enumerate(game.sides)
        ]
    )
    for position, hand in enumerate(game.hands, start=1):
        hand_record = Hand(position=position, token=new_token())
        _fill(hand_record, hand)
        record.hands.append(hand_record)
    _remember(record, result)
    db.session.add(record)
    db.session.commit()
    return record.id


def export_game(game: Game) -> dict[str, Any]:
    """The game as a game file; importing it gives the same game."""
    data = rules.game_data(engine_game(game))
    for side_data, side in zip(data["sides"], game.sides, strict=True):
        side_data["player_names"] = [p.name for p in side.players]
    return data

"""Game files: a game file stored as a new game, and a game written as one."""

from __future__ import annotations

from typing import Any

from ... import rules
from ..extensions import db
from ..store import schema
from ..store.database import writing
from ..store.models import Game, Hand, new_token
from .engine import engine_game
from .errors import GameRefused
from .figures import store_figures
from .games import NewSide, side_rows
from .hands import fill_hand


def import_game(data: object) -> str:
    """Store a game file as a new game if it breaks no rule and the database can keep it;
    GameFileError, GameRefused or SchemaError if not."""
    game = rules.read_game(data)
    result = rules.replay(game)
    if result.has_violations:
        raise GameRefused(
            [*result.game_violations, *(v for h in result.hands for v in h.violations)]
        )
    raw: dict[str, Any] = data  # type: ignore[assignment]
    names: list[list[str]] = []
    for i, side_data in enumerate(raw["sides"]):
        players = side_data.get("player_names") or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise rules.GameFileError(f"sides[{i}].player_names", "expected a list of names")
        names.append(players)
    house = rules.game_data(game).get("house_rules")
    record = Game(
        system_id=game.system.id,
        options=sorted(game.system.options_on),
        house_rules=house,
        first_dealer=game.first_dealer,
    )
    record.sides = side_rows(
        [
            NewSide(side.name, (names[i] + [""] * side.players)[: side.players], side.start_score)
            for i, side in enumerate(game.sides)
        ]
    )
    for position, hand in enumerate(game.hands, start=1):
        hand_record = Hand(position=position, token=new_token())
        fill_hand(hand_record, hand)
        record.hands.append(hand_record)
    schema.check_game_file(record)  # what the engine read but the database must not keep
    store_figures(record, result)
    with writing():
        db.session.add(record)
        db.session.flush()
        game_id = record.id  # read now: after the commit it would begin another transaction
    return game_id


def export_game(game: Game) -> dict[str, Any]:
    """The game as a game file; importing it gives the same game."""
    data = rules.game_data(engine_game(game))
    for side_data, side in zip(data["sides"], game.sides, strict=True):
        side_data["player_names"] = [p.name for p in side.players]
    return data

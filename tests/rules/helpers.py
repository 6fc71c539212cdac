"""Builders for game files and readers for results, so each rule test states only what matters."""

from __future__ import annotations

from typing import Any

from scorekeeper.rules import check_game_data

Json = dict[str, Any]

BOOK = {
    "wild_canasta": 1,
    "sevens_canasta": 1,
    "natural_canasta": 5,
    "mixed_canasta": 1,
    "samba": 1,
}


def game(
    variant: str,
    *hands: Json,
    sides: int = 2,
    players: int = 2,
    options: Json | None = None,
    house_rules: Json | None = None,
    start: list[int] | None = None,
) -> Json:
    """A game file of `sides` sides of `players` players each, with the given hands."""
    data: Json = {
        "variant": variant,
        "options": dict(options or {}),
        "sides": [{"name": f"Side {n + 1}", "players": players} for n in range(sides)],
        "hands": list(hands),
    }
    if start is not None:
        for side, score in zip(data["sides"], start, strict=True):
            side["start_score"] = score
    if house_rules is not None:
        data["house_rules"] = house_rules
    return data


def hand(*entries: Json, ended_by: str = "going_out") -> Json:
    """A hand with one entry per side, in seating order."""
    return {"ended_by": ended_by, "entries": [dict(entry) for entry in entries]}


def stock(*entries: Json) -> Json:
    """A hand that ended with the stock exhausted, so nobody went out."""
    return hand(*entries, ended_by="stock_exhausted")


def check(variant: str, *hands: Json, **table: Any) -> Json:
    """Score and check a game built by `game`."""
    return check_game_data(game(variant, *hands, **table))


def score(result: Json, hand: int = 0, side: int = 0) -> int:
    """The hand score of `side` in hand number `hand` (from 0)."""
    value: int = result["hands"][hand]["sides"][side]["hand_score"]
    return value


def total(result: Json, hand: int = 0, side: int = 0) -> int:
    """The running total of `side` after hand number `hand` (from 0)."""
    value: int = result["hands"][hand]["sides"][side]["total"]
    return value


def minimum(result: Json, hand: int = 0, side: int = 0) -> int:
    """The minimum first meld that applied to `side` in hand number `hand` (from 0)."""
    value: int = result["hands"][hand]["sides"][side]["min_opening_meld"]
    return value


def codes(result: Json, hand: int | None = None) -> set[tuple[str, int | None]]:
    """The (code, side) pairs reported: for one hand, or for every hand and the game as a whole."""
    if hand is not None:
        found = result["hands"][hand]["violations"]
    else:
        found = [v for h in result["hands"] for v in h["violations"]] + result["game_violations"]
    return {(v["code"], v["side"]) for v in found}

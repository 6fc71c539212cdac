"""A club's backup, made up: `hands` hands in games of 25, as `scorekeeper backup` writes them
(every key a backup holds), for the tests that count a backup's statements and for
benchmarks/backup.py. Each hand ends with the stock run out (no one goes out, so no game is won
however many hands it has), with a first meld, a canasta and cards left in hand on one side."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

HANDS_A_GAME = 25
NAMES = ("Ana", "Bo", "Cy", "Di")
BEGAN = datetime(2026, 1, 1, 19, 0)


def _entry(entry_id: int, side: int, number: int) -> dict[str, Any]:
    melded = side == 0 or number % 3 == 0
    return {
        "id": entry_id,
        "side_position": side,
        "went_out": False,
        "concealed": False,
        "opening_meld": 90 if melded and number == 1 else None,
        "sets": {"mixed_canasta": 1} if melded else {},
        "melded_points": 90 if melded else 0,
        "hand_points": 15 + number % 4 * 5,
        "red_threes": 0,
        "red_threes_in_hand": 0,
        "players_holding_red_threes": 0,
        "penalties": {},
    }


def club_backup(hands: int, hands_a_game: int = HANDS_A_GAME) -> dict[str, Any]:
    """A backup of `hands` hands, `hands_a_game` to a game (the last game has what is left)."""
    games: list[dict[str, Any]] = []
    ids = {"side": 0, "player": 0, "hand": 0, "entry": 0}

    def next_id(kind: str) -> int:
        ids[kind] += 1
        return ids[kind]

    left = hands
    while left > 0:
        number = len(games)
        began = BEGAN + timedelta(hours=number)
        sides = [
            {
                "id": next_id("side"),
                "position": side,
                "name": ("Us", "Them")[side],
                "start_score": 0,
                "players": [
                    {
                        "id": next_id("player"),
                        "position": seat,
                        "name": NAMES[2 * side + seat],
                        "key": NAMES[2 * side + seat].casefold(),
                    }
                    for seat in (0, 1)
                ],
            }
            for side in (0, 1)
        ]
        game_hands = []
        for position in range(1, min(left, hands_a_game) + 1):
            game_hands.append(
                {
                    "id": next_id("hand"),
                    "position": position,
                    "ended_by": "stock_exhausted",
                    "token": f"g{number}h{position}",
                    "version": 1,
                    "created_at": (began + timedelta(minutes=position)).isoformat(),
                    "deleted_at": None,
                    "entries": [_entry(next_id("entry"), side, position) for side in (0, 1)],
                    "corrections": [],
                }
            )
        left -= len(game_hands)
        games.append(
            {
                "id": f"club{number:08d}",
                "system_id": "classic",
                "options": [],
                "house_rules": None,
                "created_at": began.isoformat(),
                "updated_at": began.isoformat(),
                "name": None,
                "archived_at": None,
                "token": None,
                "first_dealer": 0,
                "follow_token": f"follow{number:08d}",
                "join_token": f"join{number:08d}",
                "next_game_id": None,
                "deleted_at": None,
                "sides": sides,
                "hands": game_hands,
            }
        )
    return {
        "format": "samba-scorekeeper-backup",
        "version": 1,
        "games": games,
        "house_rules": [],
        "player_merges": [],
    }

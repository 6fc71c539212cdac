"""A club's backup, made up: `hands` hands in games of 25, as `scorekeeper backup` writes them
(every key a backup holds), for the tests that count a backup's statements and for
benchmarks/backup.py. Each hand ends with the stock run out (no one goes out, so no game is won
however many hands it has), with a first meld, a canasta and cards left in hand on one side.
With `nights`, the games are the rounds of club nights of four pairs at two tables (a round
robin of three rounds, six games a night; the last night has the games that are left)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

HANDS_A_GAME = 25
NAMES = ("Ana", "Bo", "Cy", "Di")
BEGAN = datetime(2026, 1, 1, 19, 0)
ROUND_ROBIN = (((1, 2), (3, 4)), ((1, 3), (2, 4)), ((1, 4), (2, 3)))
"""Who meets whom at tables 1 and 2 in each round of a night of four pairs."""
GAMES_A_NIGHT = 6


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


def _night(number: int, game_ids: list[str], ids: dict[str, int]) -> dict[str, Any]:
    """Night `number`, its rounds' seats playing `game_ids` in order (seats past them not yet
    played)."""
    began = BEGAN + timedelta(days=number)
    games = iter(game_ids)
    rounds = []
    for position, meetings in enumerate(ROUND_ROBIN, start=1):
        seats = []
        for table, (ns, ew) in enumerate(meetings, start=1):
            ids["seating"] += 1
            game_id = next(games, None)
            seats.append(
                {
                    "id": ids["seating"],
                    "table": table,
                    "ns": ns,
                    "ew": ew,
                    "game_id": game_id,
                    "counting": None,
                }
            )
        played = any(seat["game_id"] for seat in seats)
        ids["round"] += 1
        rounds.append(
            {
                "id": ids["round"],
                "number": position,
                "started_at": (began + timedelta(hours=position)).isoformat() if played else None,
                "ended_at": None,
                "sitting_out": sorted(
                    pair
                    for seat in seats
                    if not seat["game_id"]
                    for pair in (seat["ns"], seat["ew"])
                )
                if played
                else None,
                "absent": [] if played else None,
                "seats": seats,
            }
        )
    return {
        "id": f"night{number:08d}",
        "name": f"Night {number}",
        "system_id": "classic",
        "options": [],
        "house_rules": None,
        "movement": "round-robin",
        "ranking": "wins",
        "round_count": len(ROUND_ROBIN),
        "round_hands": None,
        "round_minutes": None,
        "current_round": sum(1 for r in rounds if r["started_at"]),
        "created_at": began.isoformat(),
        "ended_at": None,
        "follow_token": f"standings{number:08d}",
        "token": None,
        "deleted_at": None,
        "season_id": None,
        "pairs": [
            {
                "id": 4 * number + pair,
                "number": pair,
                "first": NAMES[pair - 1],
                "second": NAMES[pair % 4],
                "present": True,
            }
            for pair in range(1, 5)
        ],
        "tables": [
            {"id": 2 * number + table, "number": table, "token": f"table{number:06d}t{table}"}
            for table in (1, 2)
        ],
        "rounds": rounds,
    }


def club_backup(
    hands: int, hands_a_game: int = HANDS_A_GAME, *, nights: bool = False
) -> dict[str, Any]:
    """A backup of `hands` hands, `hands_a_game` to a game (the last game has what is left),
    the games played at club nights if `nights`."""
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
                "night_id": f"night{number // GAMES_A_NIGHT:08d}" if nights else None,
                "sides": sides,
                "hands": game_hands,
            }
        )
    night_ids = {"round": 0, "seating": 0}
    played = [game["id"] for game in games]
    return {
        "format": "samba-scorekeeper-backup",
        "version": 3,
        "games": games,
        "house_rules": [],
        "player_merges": [],
        "nights": [
            _night(n, played[n * GAMES_A_NIGHT : (n + 1) * GAMES_A_NIGHT], night_ids)
            for n in range((len(games) + GAMES_A_NIGHT - 1) // GAMES_A_NIGHT if nights else 0)
        ],
        "seasons": [],
        "ratings": [],
        "rated_games": [],
    }

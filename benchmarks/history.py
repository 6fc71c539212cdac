#!/usr/bin/env python3
"""Time the history pages against 10,000 games: the list, its filters, statistics, a player.

Seeds a throw-away SQLite database by bulk inserts (2 sides × 2 players from a pool of 40 names,
3–8 hands per game, scores multiples of 5, totals and winners consistent with the hand scores),
then asks each page 5 times through the Flask test client and prints the median time and the
number of SQL statements per request. Run: `.venv/bin/python benchmarks/history.py [games]`.
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from flask_migrate import upgrade
from sqlalchemy import event, insert

from scorekeeper.rules import SYSTEMS, SetKind
from scorekeeper.web import create_app
from scorekeeper.web.models import (
    SET_COLUMNS,
    SIDE_TALLIES,
    Entry,
    Game,
    Hand,
    Player,
    Side,
    db,
    player_key,
)

NAMES = [
    "Ana", "Bo", "Carla", "Dani", "Eva", "Fede", "Gus", "Hilda", "Iris", "Juan",
    "Kiko", "Luz", "Marta", "Nico", "Olga", "Pablo", "Quique", "Rosa", "Sara", "Tomás",
    "Uxue", "Vera", "Willy", "Ximena", "Yago", "Zoe", "Alba", "Bruno", "Cris", "Diego",
    "Elena", "Félix", "Gloria", "Hugo", "Inés", "Jorge", "Lola", "Mario", "Nuria", "Óscar",
]  # fmt: skip
TARGET = 10_000
RUNS = 5


def seed(games: int, rng: random.Random) -> None:
    """Insert `games` games with their sides, players, hands and entries in a few statements."""
    rows: dict[type, list[dict[str, Any]]] = {Game: [], Side: [], Player: [], Hand: [], Entry: []}
    start = datetime(2020, 1, 1)
    systems = sorted(SYSTEMS)
    side_id = player_id = hand_id = entry_id = 0
    for number in range(games):
        game_id = f"g{number:07d}"
        when = start + timedelta(minutes=37 * number)
        seated = rng.sample(NAMES, 4)
        totals = [0, 0]
        tallies: list[dict[str, Any]] = [dict.fromkeys(SIDE_TALLIES, 0) for _ in range(2)]
        hand_count = rng.randint(3, 8)
        for position in range(1, hand_count + 1):
            hand_id += 1
            out = rng.randrange(3)  # 2: the stock ran out
            rows[Hand].append(
                {
                    "id": hand_id,
                    "game_id": game_id,
                    "position": position,
                    "ended_by": "stock_exhausted" if out == 2 else "going_out",
                    "token": f"t{hand_id}",
                    "created_at": when,
                }
            )
            for side in range(2):
                entry_id += 1
                went_out = side == out
                score = rng.randrange(-60, 700) * 5 + (200 if went_out else 0)
                totals[side] += score
                tally = tallies[side]
                tally["hands"] += 1
                tally["best"] = score if tally["hands"] == 1 else max(tally["best"], score)
                sets = {"natural_canasta": rng.randint(0, 2), "mixed_canasta": rng.randint(0, 2)}
                if went_out:
                    sets["samba"] = 1
                red_threes = rng.randint(0, 2)
                tally["went_out"] += went_out
                tally["red_threes"] += red_threes
                for kind, made in sets.items():
                    tally[SET_COLUMNS[SetKind(kind)]] += made
                rows[Entry].append(
                    {
                        "id": entry_id,
                        "hand_id": hand_id,
                        "side_position": side,
                        "went_out": went_out,
                        "sets": {k: n for k, n in sets.items() if n},
                        "melded_points": rng.randrange(10, 80) * 5,
                        "hand_points": 0 if went_out else rng.randrange(0, 30) * 5,
                        "red_threes": red_threes,
                        "hand_score": score,
                    }
                )
        top = max(totals)
        over = top >= TARGET and totals.count(top) == 1
        winner = totals.index(top) if over else None
        rows[Game].append(
            {
                "id": game_id,
                "system_id": rng.choice(systems),
                "options": [],
                "created_at": when,
                "updated_at": when,
                "over": over,
            }
        )
        for side in range(2):
            side_id += 1
            rows[Side].append(
                {
                    "id": side_id,
                    "game_id": game_id,
                    "position": side,
                    "name": ["Us", "Them"][side],
                    "total": totals[side],
                    "won": winner == side,
                    **tallies[side],
                }
            )
            for seat in range(2):
                player_id += 1
                name = seated[side * 2 + seat]
                rows[Player].append(
                    {
                        "id": player_id,
                        "side_id": side_id,
                        "position": seat,
                        "name": name,
                        "key": player_key(name),
                    }
                )
    for model in (Game, Side, Player, Hand, Entry):
        db.session.execute(insert(model), rows[model])
    db.session.commit()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "benchmark",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'history.sqlite3'}",
            }
        )
        statements = [0]
        with app.app_context():
            upgrade()
            began = time.perf_counter()
            seed(games, random.Random(5))
            print(f"seeded {games} games in {(time.perf_counter() - began) * 1000:.0f} ms")

            @event.listens_for(db.engine, "before_cursor_execute")
            def count(*_args: object) -> None:
                statements[0] += 1

        client = app.test_client()
        urls = [
            "/games",
            "/games?page=250",
            "/games?player=+ana+",
            "/games?system=denexa",
            "/games?status=finished",
            "/games?player=ana&system=classic&status=playing&page=3",
            "/stats",
            "/players/ana",
        ]
        print(f"{'page':58} {'median ms':>9} {'SQL':>4}")
        for url in urls:
            times = []
            for _ in range(RUNS):
                statements[0] = 0
                began = time.perf_counter()
                response = client.get(url)
                times.append((time.perf_counter() - began) * 1000)
                assert response.status_code == 200, (url, response.status_code)
            print(f"{url:58} {statistics.median(times):9.1f} {statements[0]:4d}")


if __name__ == "__main__":
    main()

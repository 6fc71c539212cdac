#!/usr/bin/env python3
"""Time `scorekeeper doctor` on 10,000 games: replay every game, repair what differs.

Seeds a throw-away SQLite database as benchmarks/history.py does (its totals are random, so most
games need repairing: the worst case), runs the doctor's repair twice (the second time finds
nothing to repair) and prints the times. Run: `.venv/bin/python benchmarks/doctor.py [games]`.
"""

from __future__ import annotations

import random
import sys
import tempfile
import time
from pathlib import Path

from flask_migrate import upgrade
from history import seed

from scorekeeper.web import create_app
from scorekeeper.web.services.figures import repair_figures


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "benchmark",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'doctor.sqlite3'}",
            }
        )
        with app.app_context():
            upgrade()
            began = time.perf_counter()
            seed(games, random.Random(5))
            print(f"seeded {games} games in {time.perf_counter() - began:.1f} s")
            for attempt in ("first", "second"):
                began = time.perf_counter()
                checkup = repair_figures()
                print(
                    f"{attempt} run: {checkup.games} games replayed, {checkup.repaired} repaired "
                    f"in {time.perf_counter() - began:.1f} s"
                )


if __name__ == "__main__":
    main()

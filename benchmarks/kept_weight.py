#!/usr/bin/env python3
"""What one followed game weighs in what a process keeps of it (services/keeping.py), in memory.

For games of each length asked (`--hands`), it imports `--games` games into an app of its own
(SQLite in memory), and for each asks every page that follows a game (the scoreboard, the follow
page, the display, the hand form, state.json), records a hand and asks them all again: what a
table's phones ask over a hand. The memory Python holds afterwards (tracemalloc, after a
collection), less what it held before, divided by the games, is what a followed game keeps: its
parts at two revisions, its kept game and its replays. The README's bound on memory (at most
`keeping.GAMES` games a process) is said with it. It prints, it never asserts.

Run: `.venv/bin/python benchmarks/kept_weight.py [--hands 10,30,100] [--games 20]`.
"""

from __future__ import annotations

import argparse
import gc
import sys
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's tests/
from flask.testing import FlaskClient

from scorekeeper.web.services import keeping
from tests.web.apps import TEST_CONFIG, built_app
from tests.web.helpers import GOES_OUT, STAYS_IN, Actions, game_of

PAGES = ("", "/follow", "/display", "/hands/new", "/state.json")


def follow(client: FlaskClient, game_id: str) -> None:
    for page in PAGES:
        answer = client.get(f"/games/{game_id}{page}")
        assert answer.status_code == 200, (page, answer.status_code)


def weigh(hands: int, games: int) -> float:
    """KiB kept per followed game of `hands` hands."""
    app = built_app(TEST_CONFIG)
    client = app.test_client()
    tables = [game_of(client, hands) for _ in range(games)]
    follow(client, game_of(client, hands))  # templates and rules read once, before measuring
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for game_id in tables:
        follow(client, game_id)
        Actions(client).record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
        follow(client, game_id)
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
    return grown / games / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", default="10,30,100", help="game lengths, comma-separated")
    parser.add_argument("--games", type=int, default=20, help="games followed, per length")
    options = parser.parse_args()
    for hands in (int(n) for n in options.hands.split(",")):
        kib = weigh(hands, options.games)
        most = kib * keeping.GAMES / 1024
        print(
            f"{hands} hands: {kib:.0f} KiB a followed game; {keeping.GAMES:,} games "
            f"(keeping.GAMES, a process's bound) {most:,.0f} MiB",
            flush=True,
        )


if __name__ == "__main__":
    main()

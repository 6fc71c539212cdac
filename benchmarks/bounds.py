#!/usr/bin/env python3
"""Time what the bounded inputs once made slow; the tests count it instead (tests/web/test_bounds.py
and test_chart.py: hands read, SQL statements, ticks and bytes).

* a game file of 20,000 hands, refused (it took 16 s before the hand limit, and every later page
  10-20 s): sent as JSON and uploaded from the import form;
* the scoreboard of a game that starts at a huge score (its chart took 11 s and 13 MB at 10^10
  and never finished at 10^18).

Run from the checkout: `.venv/bin/python benchmarks/bounds.py [--rounds N]` (each refusal's
median of 5 by default). It prints, it never asserts.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import flask_migrate
from sqlalchemy import update

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Side

ROUNDS = 5
EMPTY_HAND = {"ended_by": "stock_exhausted", "entries": [{}, {}]}
GOES_OUT = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
STAYS_IN = {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30}


def game_file(hands: list[dict[str, object]]) -> dict[str, object]:
    sides = [{"name": name, "players": 2} for name in ("Us", "Them")]
    return {"variant": "classic", "sides": sides, "hands": hands}


def median_ms(action: Callable[[], object], rounds: int) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        action()
        times.append(time.perf_counter() - started)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="times each refusal is timed")
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "TESTING": True,
                "SECRET_KEY": "benchmark",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'bounds.sqlite3'}",
                "WTF_CSRF_ENABLED": False,
            }
        )
        with app.app_context():
            flask_migrate.upgrade()
        client = app.test_client()

        body = json.dumps(game_file([EMPTY_HAND] * 20_000), separators=(",", ":")).encode()
        upload = (
            b'--b\r\nContent-Disposition: form-data; name="game_file"; filename="g.json"\r\n\r\n'
            + body
            + b"\r\n--b--\r\n"
        )
        sent = median_ms(
            lambda: client.post("/games/import", data=body, content_type="application/json"),
            rounds,
        )
        uploaded = median_ms(
            lambda: client.post(
                "/games/import", data=upload, content_type="multipart/form-data; boundary=b"
            ),
            rounds,
        )
        print(f"20,000 hands refused, sent as JSON:      {sent:8.1f} ms")
        print(f"20,000 hands refused, uploaded:          {uploaded:8.1f} ms")

        for start in (10**10, 10**18):
            created = client.post(
                "/games/import", json=game_file([{"entries": [GOES_OUT, STAYS_IN]}])
            )
            game_id = created.get_json()["id"]
            with app.app_context():
                db.session.execute(
                    update(Side)
                    .where(Side.game_id == game_id, Side.position == 0)
                    .values(start_score=start)
                )
                db.session.commit()
            # The first read draws the chart; later ones are the page kept under the revision.
            started = time.perf_counter()
            size = len(client.get(f"/games/{game_id}").data)
            first = (time.perf_counter() - started) * 1000
            print(f"scoreboard starting at {start:.0e}, drawn:   {first:8.1f} ms, {size:,} bytes")


if __name__ == "__main__":
    main()

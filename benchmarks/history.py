#!/usr/bin/env python3
"""Time the history pages against 10,000 games: the list, its filters, statistics, a player.

Seeds the games the way a club fills its database: each one a game file imported through the
app's import service (2 sides × 2 players from a pool of 40 names, 3–8 hands that break no rule
of their system). Importing 10,000 games takes minutes, so the seeded database is kept in a
cache folder (`~/.cache/samba-scorekeeper-benchmarks`, or `$XDG_CACHE_HOME`) under the seed's
version and size, and each run works on a copy, upgraded to the current schema: an SQLite file,
and for PostgreSQL a `pg_dump` restored into a fresh database.

Then it asks each page 5 times through the Flask test client, each request beside one to a bare
Flask app answering as many bytes, and prints the medians, their ratio and the number of SQL
statements per request.

Run: `.venv/bin/python benchmarks/history.py [games] [--postgres URL]`, where URL is a
PostgreSQL server's (`postgresql+psycopg://postgres@/postgres?host=/tmp/pg`); the benchmark
makes and drops its own databases there.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask, Response
from flask.testing import FlaskClient
from flask_migrate import upgrade
from sqlalchemy import create_engine, event, make_url, text

from scorekeeper import rules
from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services.game_files import import_game

NAMES = [
    "Ana", "Bo", "Carla", "Dani", "Eva", "Fede", "Gus", "Hilda", "Iris", "Juan",
    "Kiko", "Luz", "Marta", "Nico", "Olga", "Pablo", "Quique", "Rosa", "Sara", "Tomás",
    "Uxue", "Vera", "Willy", "Ximena", "Yago", "Zoe", "Alba", "Bruno", "Cris", "Diego",
    "Elena", "Félix", "Gloria", "Hugo", "Inés", "Jorge", "Lola", "Mario", "Nuria", "Óscar",
]  # fmt: skip
TARGET = 10_000
RUNS = 5
SEED_VERSION = 1
"""Raise it when the seeded games change, so that no run reads an older cache."""
CACHE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / (
    "samba-scorekeeper-benchmarks"
)
URLS = [
    "/games",
    "/games?page=250",
    "/games?player=+ana+",
    "/games?system=denexa",
    "/games?status=finished",
    "/games?player=ana&system=classic&status=playing&page=3",
    "/stats",
    "/players/ana",
]


def _entry(rng: random.Random, went_out: bool, system: str) -> dict[str, Any]:
    """One side's record of a hand, as a game file writes it."""
    sets = {"natural_canasta": rng.randint(0, 2), "mixed_canasta": rng.randint(0, 2)}
    if went_out:
        sets["samba"] = 2 if system == "super-samba" else 1
        sets["natural_canasta"] += 1
    entry: dict[str, Any] = {
        "went_out": went_out,
        "sets": {kind: made for kind, made in sets.items() if made},
        "melded_points": rng.randrange(10, 80) * 5,
        "red_threes": rng.randint(0, 2),
    }
    if not went_out:
        entry["hand_points"] = rng.randrange(0, 30) * 5
    return entry


def game_file(rng: random.Random) -> dict[str, Any]:
    """A game as a club would import it: 3 to 8 hands (`play`)."""
    system = rng.choice(sorted(rules.SYSTEMS))
    seated = rng.sample(NAMES, 4)
    data: dict[str, Any] = {
        "variant": system,
        "sides": [
            {"name": name, "players": 2, "player_names": seated[2 * i : 2 * i + 2]}
            for i, name in enumerate(("Us", "Them"))
        ],
        "hands": [],
    }
    play(rng, data, rng.randint(3, 8))
    return data


def play(rng: random.Random, data: dict[str, Any], hands: int) -> None:
    """Up to `hands` hands more on the game file `data`, each kept only if it breaks no rule
    (a hand after the game is won, or one its system refuses, is drawn again or ends the game).
    benchmarks/season.py plays a night's games with it too."""
    system = data["variant"]
    for _hand in range(hands):
        for _try in range(5):
            out = rng.randrange(3)  # 2: the stock ran out
            entries = [_entry(rng, side == out, system) for side in (0, 1)]
            hand: dict[str, Any] = {"entries": entries}
            if out == 2:
                hand["ended_by"] = "stock_exhausted"
            result = rules.replay(rules.read_game({**data, "hands": [*data["hands"], hand]}))
            if not result.has_violations:
                data["hands"].append(hand)
                break
        if result.game_over:
            break


def game_files(games: int, rng: random.Random) -> Iterator[dict[str, Any]]:
    for _number in range(games):
        yield game_file(rng)


def seed(games: int, rng: random.Random) -> None:
    """Import `games` game files through the app's import service, one transaction each."""
    for data in game_files(games, rng):
        import_game(data)


def _app(uri: str) -> Flask:
    return create_app({"TESTING": True, "SECRET_KEY": "benchmark", "SQLALCHEMY_DATABASE_URI": uri})


def _seeded(uri: str, games: int) -> None:
    """Create the schema at `uri` and import the games, printing how long it took."""
    with _app(uri).app_context():
        upgrade()
        began = time.perf_counter()
        seed(games, random.Random(5))
        print(f"seeded {games} games through the import in {time.perf_counter() - began:.0f} s")
        db.engine.dispose()


def sqlite_copy(games: int, folder: Path) -> str:
    """A copy of the cached seeded SQLite database in `folder` (seeded first if not cached)."""
    cached = CACHE / f"history-v{SEED_VERSION}-{games}.sqlite3"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        making = folder / "seeding.sqlite3"
        _seeded(f"sqlite:///{making}", games)
        shutil.move(making, cached)  # only a finished seed enters the cache
    copy = folder / "history.sqlite3"
    shutil.copyfile(cached, copy)
    return f"sqlite:///{copy}"


def _pg_args(uri: str) -> list[str]:
    url = make_url(uri)
    host = url.host or str(url.query.get("host", ""))
    return [*(["-h", host] if host else []), *(["-U", url.username] if url.username else [])]


def postgres_copy(server: str, games: int) -> str:
    """A fresh database on the PostgreSQL `server`, restored from the cached dump of the seeded
    games (seeded and dumped first if not cached)."""
    dump = CACHE / f"history-v{SEED_VERSION}-{games}.pgdump"
    uri = make_url(server).set(database="scorekeeper_history_benchmark")
    with create_engine(server, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text("DROP DATABASE IF EXISTS scorekeeper_history_benchmark"))
        connection.execute(text("CREATE DATABASE scorekeeper_history_benchmark"))
    address = uri.render_as_string(hide_password=False)
    target = [*_pg_args(address), "-d", "scorekeeper_history_benchmark"]
    if dump.exists():
        subprocess.run(["pg_restore", "--no-owner", *target, str(dump)], check=True)
    else:
        CACHE.mkdir(parents=True, exist_ok=True)
        _seeded(address, games)
        making = dump.with_suffix(".making")
        subprocess.run(["pg_dump", "-Fc", "-f", str(making), *target], check=True)
        making.rename(dump)
    return address


def bare_app() -> Flask:
    """Flask with nothing else: a page of `size` bytes."""
    app = Flask("bare")

    @app.get("/bytes/<int:size>")
    def page(size: int) -> Response:
        return Response("x" * size, content_type="text/html; charset=utf-8")

    return app


def timed(get: Callable[[str], Any], url: str) -> tuple[float, float, Any]:
    """Milliseconds on the clock and of this process's CPU (which on SQLite includes the
    database's work, and which other programs on a busy machine inflate far less)."""
    began, cpu = time.perf_counter(), time.process_time()
    answer = get(url)
    return (time.perf_counter() - began) * 1000, (time.process_time() - cpu) * 1000, answer


def counted(app: Flask) -> list[int]:
    """Upgrade the app's database to the current schema; a counter of the SQL statements it
    runs from then on (its one item, set to 0 before a request)."""
    statements = [0]
    with app.app_context():
        upgrade()

        @event.listens_for(db.engine, "before_cursor_execute")
        def count(*_args: object) -> None:
            statements[0] += 1

    return statements


def asked(
    client: FlaskClient, bare: FlaskClient, url: str, runs: int, statements: list[int]
) -> tuple[list[float], list[float], list[float]]:
    """`runs` requests of `url`, after one that warms caches (not measured), each beside one to
    the bare app answering as many bytes: their ms, their CPU ms and the bare app's ms."""
    mine, cpu, theirs = [], [], []
    client.get(url)
    for _ in range(runs):
        statements[0] = 0
        ms, cpu_ms, response = timed(client.get, url)
        assert response.status_code == 200, (url, response.status_code)
        mine.append(ms)
        cpu.append(cpu_ms)
        theirs.append(timed(bare.get, f"/bytes/{len(response.data)}")[0])
    return mine, cpu, theirs


def run(uri: str, label: str) -> None:
    """Upgrade the copy to the current schema, then time every page beside the bare app."""
    app = _app(uri)
    statements = counted(app)
    client, bare = app.test_client(), bare_app().test_client()
    print(f"\n{label}")
    print(f"{'page':56} {'ms':>7} {'cpu ms':>7} {'bare':>5} {'ratio':>6} {'SQL':>4}")
    for url in URLS:
        mine, cpu, theirs = asked(client, bare, url, RUNS, statements)
        ms, bare_ms = statistics.median(mine), statistics.median(theirs)
        print(
            f"{url:56} {ms:7.1f} {statistics.median(cpu):7.1f} {bare_ms:5.1f}"
            f" {ms / bare_ms:5.0f}× {statements[0]:4d}"
        )
    with app.app_context():
        db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="?", type=int, default=10_000)
    parser.add_argument("--postgres", help="a PostgreSQL server's URL, to run there too")
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run(sqlite_copy(arguments.games, Path(folder)), f"SQLite, {arguments.games} games")
    if arguments.postgres:
        uri = postgres_copy(arguments.postgres, arguments.games)
        try:
            run(uri, f"PostgreSQL, {arguments.games} games")
        finally:
            with create_engine(arguments.postgres, isolation_level="AUTOCOMMIT").connect() as c:
                c.execute(text("DROP DATABASE IF EXISTS scorekeeper_history_benchmark"))


if __name__ == "__main__":
    main()

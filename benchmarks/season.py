#!/usr/bin/env python3
"""Time a club's season pages against five years of its nights (issue 38): the season's
standings, a player's page and the ratings shown there.

Seeds the club the way it fills its database, through the app's own services: every night
(250 by default: five years of Tuesdays, 50 a year) is set up with 2 × `--tables` pairs in a
Mitchell movement of three rounds, each round started, each table's game played hand by hand
(`history.play`: hands that break no rule, `--hands` a round) and the round ended, which
rates its games as the app does as each game ends; then the night is ended. Members (`--tables`
× 8 of them) come on half the nights or so, and keep their partner on most nights they both
come: the rest find another. Each year is a season, set up before its first night and each
night added as it is set up, ranked by points by place (best 40 of 50, 10 nights to be placed)
or by wins, year about. 22,500 games take long to seed, so the seeded SQLite database is kept
in the cache folder (history.py's) under the seed's version and size, and a seed interrupted is
taken up from its last checkpoint (every tenth night), each night from a random generator of its
own, so that the club seeded is the same either way; and a larger club starts from the
largest cached one (its first nights are the same), so it can be grown in steps. For
PostgreSQL the seed goes in through the app's backup and restore, then `pg_dump` keeps it.

Then each page is asked `--runs` times through the Flask test client, each request beside one
to a bare Flask app answering as many bytes, and the p50 and p99 are printed with their ratio to
the bare app's and the SQL statements per request; a season's standings are also drawn anew
`--drawings` times, after a write to one of its nights and with nothing kept. The app is
settled first as `scorekeeper serve` settles it (`serving.settle`). Goal: under 100 ms at p99
at 250 nights.

Run: `.venv/bin/python benchmarks/season.py [nights] [--tables 30] [--runs 100]
[--postgres URL]`; the first run may seed with a smaller number of nights, e.g. 25.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from contextlib import closing
from pathlib import Path
from typing import Any

from flask import Flask
from flask_migrate import upgrade
from sqlalchemy import create_engine, func, make_url, select, text

sys.path.insert(0, str(Path(__file__).resolve().parent))
from history import CACHE, NAMES, _app, _pg_args, asked, bare_app, counted, play

from scorekeeper import nights, rules
from scorekeeper.rules.gamefile import read_hand
from scorekeeper.web import serving
from scorekeeper.web.extensions import db
from scorekeeper.web.presenters import parts
from scorekeeper.web.services import outcomes, seasons
from scorekeeper.web.services.backup import backup_text
from scorekeeper.web.services.hands import record_hand
from scorekeeper.web.services.night_setup import NewNight, set_up_night
from scorekeeper.web.services.nights import end_night, end_round, set_ranking, start_round
from scorekeeper.web.services.restore import restore
from scorekeeper.web.serving import upgrade as upgrade_as_served
from scorekeeper.web.store.models import Night, NightRound, Player, Seating
from scorekeeper.web.store.seasons import Season

SEED_VERSION = 1
"""Raise it when the seeded club changes, so that no run reads an older cache."""
NIGHTS_A_YEAR = 50
ROUNDS = 3
KEEP_PARTNER = 0.75
"""How often two partners who both came play together again."""
SURNAMES = ["García", "López", "Martín", "Pérez", "Sánchez", "Gómez", "Ruiz", "Díaz"]
SYSTEMS = sorted(s for s, system in rules.SYSTEMS.items() if (2, 2) in system.tables)
"""The systems a night can be played in (tables of two pairs)."""


def members(tables: int) -> list[str]:
    """The club's members: four times as many as a night has players."""
    every = [f"{first} {surname}" for surname in SURNAMES for first in NAMES]
    return every[: 8 * tables]


def pairs_of_the_night(rng: random.Random, club: list[str], tables: int) -> list[tuple[str, str]]:
    """Who comes, and with whom: a member's standing partner is the next member; two partners
    who both came play together on most nights, the others find a partner among the rest."""
    come = set(rng.sample(club, 4 * tables))
    pairs, alone = [], []
    for first, second in zip(club[::2], club[1::2], strict=True):
        if first in come and second in come and rng.random() < KEEP_PARTNER:
            pairs.append((first, second))
        else:
            alone += [name for name in (first, second) if name in come]
    rng.shuffle(alone)
    pairs += list(zip(alone[::2], alone[1::2], strict=True))
    rng.shuffle(pairs)
    return pairs


def season_rule(year: int) -> nights.Rule:
    if year % 2:
        return nights.Rule(nights.Measure.WINS)
    return nights.Rule(nights.Measure.PLACES, best=40, minimum=10)


def _round_games(night_id: str, number: int) -> list[str]:
    query = (
        select(Seating.game_id)
        .join(NightRound, NightRound.id == Seating.round_id)
        .where(NightRound.night_id == night_id, NightRound.number == number)
        .where(Seating.game_id.is_not(None))
        .order_by(Seating.table)
    )
    return list(db.session.scalars(query))


def seed_night(number: int, tables: int, hands: int) -> None:
    """Night `number` (from 0) as its club plays it: set up in its year's season, every round
    started, played and ended (its games rated), the night ended."""
    rng = random.Random(number)
    year = number // NIGHTS_A_YEAR
    system = rng.choice(SYSTEMS)
    new = NewNight(
        name=f"Tuesday {number + 1}",
        system_id=system,
        options=[],
        house_rules=None,
        movement=nights.Movement.MITCHELL,
        ranking=nights.Ranking.WINS,
        round_count=min(ROUNDS, tables),
        round_hands=hands,
        round_minutes=None,
        pairs=pairs_of_the_night(rng, members(tables), tables),
    )
    night_id = set_up_night(new)
    season_id = db.session.scalar(select(Season.id).where(Season.name == f"Year {year + 1}"))
    if season_id is None:
        plan = seasons.SeasonPlan(f"Year {year + 1}", season_rule(year), (), NIGHTS_A_YEAR)
        season_id = seasons.set_up_season(plan, f"year-{year}")
    seasons.add_night(season_id, night_id)
    for round_number in range(1, new.round_count + 1):
        start_round(night_id, round_number)
        for game_id in _round_games(night_id, round_number):
            data: dict[str, Any] = {
                "variant": system,
                "sides": [{"name": "NS", "players": 2}, {"name": "EW", "players": 2}],
                "hands": [],
            }
            play(rng, data, hands)
            for index, hand in enumerate(data["hands"]):
                record_hand(game_id, read_hand(hand), f"{game_id}-{index}")
        end_round(night_id, round_number)
    end_night(night_id)


CHECKPOINT_EVERY = 10
"""Nights seeded between two checkpoints of a seed (an interruption loses at most these)."""


def copy_sqlite(source: Path, target: Path) -> None:
    """A whole copy of the SQLite database `source` (its write-ahead log too) at `target`."""
    with closing(sqlite3.connect(source)) as reading, closing(sqlite3.connect(target)) as copy:
        reading.backup(copy)


def seed(making: Path, count: int, tables: int, hands: int) -> None:
    """Seed the SQLite club `making` up to `count` nights, taken up from its checkpoint (a copy
    of it at its last whole tenth night, beside it) if a seed was interrupted."""
    checkpoint = making.with_suffix(".checkpoint")
    if checkpoint.exists():
        # The interrupted seed's write-ahead log would be applied to the copy: a malformed file.
        for left in (making, *making.parent.glob(f"{making.name}-*")):
            left.unlink(missing_ok=True)
        copy_sqlite(checkpoint, making)
    uri = f"sqlite:///{making}"
    with _app(uri).app_context():
        upgrade()
        done = db.session.scalar(select(func.count()).select_from(Night)) or 0
        db.session.commit()
        began = time.perf_counter()
        for number in range(done, count):
            seed_night(number, tables, hands)
            if (number + 1) % CHECKPOINT_EVERY == 0 or number + 1 == count:
                copy_sqlite(making, checkpoint)
                print(f"  night {number + 1} of {count}: {time.perf_counter() - began:.0f} s")
        if count > done:
            print(f"seeded nights {done + 1} to {count} in {time.perf_counter() - began:.0f} s")
        db.engine.dispose()
    checkpoint.unlink(missing_ok=True)


def _name(count: int, tables: int, hands: int) -> str:
    return f"season-v{SEED_VERSION}-{count}x{tables}x{hands}"


def _smaller_club(count: int, tables: int, hands: int) -> Path | None:
    """The cached club of the most nights short of `count` (of the same tables and hands)."""
    sizes = {}
    for path in CACHE.glob(f"season-v{SEED_VERSION}-*x{tables}x{hands}.sqlite3"):
        nights_seeded = int(path.name.split("-")[2].split("x")[0])
        if nights_seeded < count:
            sizes[nights_seeded] = path
    return sizes[max(sizes)] if sizes else None


def sqlite_copy(count: int, tables: int, hands: int, folder: Path) -> str:
    """A copy of the cached seeded SQLite club in `folder`, seeded (or taken up) first if not
    cached whole."""
    cached = CACHE / f"{_name(count, tables, hands)}.sqlite3"
    if not cached.exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        making = cached.with_suffix(".making")
        smaller = _smaller_club(count, tables, hands)
        if smaller is not None and not making.with_suffix(".checkpoint").exists():
            copy_sqlite(smaller, making)  # the same club's first nights: seeded once
        seed(making, count, tables, hands)
        copy_sqlite(making, cached)  # only a finished seed is the cache
        for left in (making, *making.parent.glob(f"{making.name}-*")):  # its -wal and -shm
            left.unlink()
    copy = folder / "season.sqlite3"
    shutil.copyfile(cached, copy)
    return f"sqlite:///{copy}"


DATABASE = "scorekeeper_season_benchmark"


def postgres_copy(server: str, sqlite: str, count: int, tables: int, hands: int) -> str:
    """A fresh database on the PostgreSQL `server` with the seeded club: restored from the cached
    dump, else through the app's restore of the SQLite club's backup (then dumped)."""
    dump = CACHE / f"{_name(count, tables, hands)}.pgdump"
    with create_engine(server, isolation_level="AUTOCOMMIT").connect() as connection:
        connection.execute(text(f"DROP DATABASE IF EXISTS {DATABASE}"))
        connection.execute(text(f"CREATE DATABASE {DATABASE}"))
    address = make_url(server).set(database=DATABASE).render_as_string(hide_password=False)
    target = [*_pg_args(address), "-d", DATABASE]
    if dump.exists():
        subprocess.run(["pg_restore", "--no-owner", *target, str(dump)], check=True)
        # A restore keeps no statistics: the planner would guess until autovacuum's first pass.
        with create_engine(address, isolation_level="AUTOCOMMIT").connect() as connection:
            connection.execute(text("ANALYZE"))
        return address
    with _app(sqlite).app_context():
        kept = json.loads("".join(backup_text()))
        db.engine.dispose()
    with _app(address).app_context():
        upgrade()
        restore(kept)
        db.engine.dispose()
    making = dump.with_suffix(".making")
    subprocess.run(["pg_dump", "-Fc", "-f", str(making), *target], check=True)
    making.rename(dump)
    return address


def pages(app: Flask) -> dict[str, str]:
    """What is asked: the season in play's standings (its CSV and text), the last whole year's, and
    the page (with the rating) of the member who played most, in all systems and in one."""
    with app.app_context():
        listed = seasons.seasons_listed()  # newest first
        latest = listed[0]
        whole = [s for s in listed if len(seasons.season_nights(s.id)) == NIGHTS_A_YEAR]
        most = db.session.execute(
            select(Player.key, func.count()).group_by(Player.key).order_by(func.count().desc())
        ).first()
        assert most is not None
        system = db.session.scalar(select(Night.system_id).order_by(Night.created_at.desc()))
    player = "/players/" + urllib.parse.quote(most[0])
    shown = {
        f"standings, {latest.name}": f"/season/{latest.follow_token}",
        f"standings CSV, {latest.name}": f"/season/{latest.follow_token}/results.csv",
        f"standings text, {latest.name}": f"/season/{latest.follow_token}/results.txt",
        f"player ({most[1]} games), all systems": player,
        f"player, rating in {system}": f"{player}?system={system}",
    }
    if whole and whole[0] is not latest:
        year = whole[0]
        shown[f"standings, {year.name} (whole)"] = f"/season/{year.follow_token}"
    return shown


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


DRAWINGS = 10
"""Times a season's standings are drawn anew (as after a change to one of its nights), unless
`--drawings` says otherwise."""


def _latest_night(app: Flask, token: str) -> str:
    with app.app_context():
        season = seasons.season_by_link(token)
        assert season is not None
        return seasons.season_nights(season.id)[-1].id


def _forget_everything(app: Flask) -> None:
    """Let go of what the process keeps, as in a process that just started: the drawings, and
    the nights' reads where the app keeps them (`outcomes.init_app`)."""
    parts.init_app(app)
    if hasattr(outcomes, "init_app"):
        outcomes.init_app(app)


def drawn_anew(app: Flask, client: Any, url: str, drawings: int, statements: list[int]) -> None:
    """The standings drawn anew each time, as the first phone after a change gets them (every
    later phone gets that drawing: the rows above): after the director changed how its latest
    night ranks (a write to one night, as a table's hand is), and with nothing kept, as in a
    process that just started."""
    night = _latest_night(app, url.rsplit("/", 1)[1])
    rankings = [nights.Ranking.POINTS, nights.Ranking.WINS]
    for kind in ("after one night changed", "nothing kept"):
        times, cpu = [], []
        for drawing in range(drawings):
            if kind == "nothing kept":
                _forget_everything(app)
            else:
                with app.app_context():
                    set_ranking(night, rankings[drawing % 2])
            statements[0] = 0
            began, began_cpu = time.perf_counter(), time.thread_time()
            assert client.get(url).status_code == 200
            times.append(1000 * (time.perf_counter() - began))
            cpu.append(1000 * (time.thread_time() - began_cpu))
        print(
            f"{'  drawn anew, ' + kind:40} {statistics.median(times):6.1f}"
            f" {percentile(times, 0.99):6.1f} {statistics.median(cpu):6.1f}"
            f" {percentile(cpu, 0.99):6.1f} {'':>5} {'':>6} {statements[0]:5d}"
        )


def run(uri: str, label: str, runs: int, drawings: int) -> None:
    """Upgrade the copy to the current schema as the app does when it starts (the nights'
    outcomes worked out where they are missing), then time every page beside the bare app."""
    app = _app(uri)
    began = time.perf_counter()
    upgrade_as_served(app)
    print(f"\n{label}: upgraded in {time.perf_counter() - began:.1f} s")
    if hasattr(serving, "settle"):
        serving.settle()  # as `scorekeeper serve` does before it serves
    statements = counted(app)
    client, bare = app.test_client(), bare_app().test_client()
    print(f"\n{label}, {runs} requests each")
    print(
        f"{'page':40} {'p50':>6} {'p99':>6} {'cpu50':>6} {'cpu99':>6} {'bare':>5} {'ratio':>6}"
        f" {'SQL':>5} {'bytes':>8}"
    )
    try:
        for what, url in pages(app).items():
            mine, cpu, theirs = asked(client, bare, url, runs, statements)
            size = len(client.get(url).data)
            p50, bare_ms = statistics.median(mine), statistics.median(theirs)
            print(
                f"{what:40} {p50:6.1f} {percentile(mine, 0.99):6.1f}"
                f" {statistics.median(cpu):6.1f} {percentile(cpu, 0.99):6.1f} {bare_ms:5.1f}"
                f" {p50 / bare_ms:5.0f}× {statements[0]:5d} {size:8d}"
            )
            if url.startswith("/season/") and "/results" not in url:
                drawn_anew(app, client, url, drawings, statements)
    finally:  # the connections closed even if a page failed: the database is dropped next
        with app.app_context():
            db.engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("nights", nargs="?", type=int, default=250)
    parser.add_argument("--tables", type=int, default=30, help="tables a night (30)")
    parser.add_argument("--hands", type=int, default=3, help="hands a round (3)")
    parser.add_argument("--runs", type=int, default=100, help="requests of each page (100)")
    parser.add_argument("--postgres", help="a PostgreSQL server's URL, to run there too")
    parser.add_argument(
        "--drawings", type=int, default=DRAWINGS, help="standings drawn anew, each (10)"
    )
    arguments = parser.parse_args()
    size = (arguments.nights, arguments.tables, arguments.hands)
    games = arguments.nights * arguments.tables * min(ROUNDS, arguments.tables)
    label = f"{arguments.nights} nights of {arguments.tables} tables ({games} games)"
    with tempfile.TemporaryDirectory() as folder:
        sqlite = sqlite_copy(*size, Path(folder))
        run(sqlite, f"SQLite, {label}", arguments.runs, arguments.drawings)
        if arguments.postgres:
            uri = postgres_copy(arguments.postgres, sqlite, *size)
            try:
                run(uri, f"PostgreSQL, {label}", arguments.runs, arguments.drawings)
            finally:
                with create_engine(arguments.postgres, isolation_level="AUTOCOMMIT").connect() as c:
                    c.execute(text(f"DROP DATABASE IF EXISTS {DATABASE}"))


if __name__ == "__main__":
    main()

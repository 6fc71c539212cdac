"""Every script in benchmarks/ runs, at its tiniest, so that none breaks unseen (save_floor.py
once crashed at start, and no test noticed). A benchmark prints its figures and asserts
nothing; the test sees only that it finished (exit 0) having printed something."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import postgres
from tests.helpers import unavailable
from tests.reverse_proxy import nginx_binary

ROOT = Path(__file__).resolve().parents[1]
BENCHMARKS = ROOT / "benchmarks"

A_SHORT_RUN = [
    "--tables", "1", "--warm-up", "1", "--seconds", "2", "--poll-every", "0.5",
    "--hand-every", "1", "--workers", "1", "--worker-class", "gthread",
    "--threads", "16", "--streams", "8", "--log-level", "WARNING",
]  # fmt: skip
"""One table for two seconds; under gunicorn one gthread worker of 16 threads, 8 of them for
streams (fewer than the threads, as the README says, so that a save always finds one)."""
A_SHORT_CLUB_NIGHT = [*A_SHORT_RUN, "--pollers", "1"]
"""club_night.py's: of the table's four followers three hold streams and one polls."""

TINY = {
    "backup.py": ["--sizes", "25", "--setup", "sqlite"],
    "bounds.py": ["--rounds", "1"],
    "club_night.py": ["--setup", "sqlite", *A_SHORT_CLUB_NIGHT],
    # With its profile of the streams' wake-ups (the kind whose profile once hung), in TMPDIR.
    "cpu.py": ["--runs", "1", "--hands", "3", "--profile", "stream wake-up"],
    "doctor.py": ["3"],
    # The 12th game of the seed is the first that Ana plays in: /players/ana is asked.
    "history.py": ["12"],
    "idle_connections.py": ["--idle", "0,20", "--requests", "5", "--rounds", "1"],
    "kept_weight.py": ["--hands", "2", "--games", "2"],
    "night.py": ["--setup", "sqlite", *A_SHORT_RUN, "--viewers", "1"],
    "page_weight.py": [],
    "pages.py": ["0", "--runs", "1", "--hands", "5"],
    "pin_guesses.py": ["--seconds", "1", "--threads", "1"],
    "referee_reach.py": ["--systems", "fournier", "--languages", "es"],
    "save_floor.py": ["--runs", "1"],
    # Two nights of two tables, one hand a round: a season, its standings and a player's page.
    "season.py": ["2", "--tables", "2", "--hands", "1", "--runs", "2"],
    "slow_clients.py": ["1", "--clients", "5"],
}
"""Each benchmark's tiniest options."""


def run(script: str, *options: str, cache: Path) -> str:
    """Run benchmarks/`script` as its docstring says; what it printed."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}  # history.py keeps its seeds there
    done = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *options],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert done.stdout.strip(), done.stderr[-3000:]
    return done.stdout


def test_every_benchmark_is_run_here() -> None:
    assert sorted(path.name for path in BENCHMARKS.glob("*.py")) == sorted(TINY)


ON_POSTGRESQL_TOO = {"history.py": ("SQLite, 12 games", "PostgreSQL, 12 games")}
"""Benchmarks run on SQLite and then on the run's PostgreSQL (`--postgres`), in one run: a run
on SQLite alone would seed and time the same SQLite database again. What each part prints."""


@pytest.mark.slow  # each starts a Python with the app, most a server or two: seconds to a minute
@pytest.mark.parametrize("script", sorted(TINY))
def test_the_benchmark_runs_at_its_tiniest(
    script: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if script == "slow_clients.py" and nginx_binary() is None:
        unavailable("nginx is not installed (apt-get install nginx)")
    if script == "referee_reach.py" and shutil.which("chromium") is None:
        unavailable("Chromium is not installed (apt-get install chromium)")
    options = TINY[script]
    if script in ON_POSTGRESQL_TOO:
        options = [*options, "--postgres", request.getfixturevalue("postgresql_server")]
    printed = run(script, *options, cache=tmp_path)
    for part in ON_POSTGRESQL_TOO.get(script, ()):
        assert part in printed


@pytest.mark.slow
def test_the_season_benchmark_runs_on_postgresql(postgresql_server: str, tmp_path: Path) -> None:
    # Its club goes into PostgreSQL through the app's backup and restore.
    printed = run("season.py", *TINY["season.py"], "--postgres", postgresql_server, cache=tmp_path)
    assert "PostgreSQL, 2 nights of 2 tables (8 games)" in printed


@pytest.mark.slow
def test_the_club_night_runs_on_postgresql_and_gunicorn(tmp_path: Path) -> None:
    # It starts a cluster of its own (durable, as a club's server is).
    if postgres.binaries() is None:
        unavailable("PostgreSQL is not installed (apt-get install postgresql)")
    if nginx_binary() is None:  # gunicorn runs behind the README's nginx, as a club's does
        unavailable("nginx is not installed (apt-get install nginx)")
    printed = run("club_night.py", "--setup", "postgres", *A_SHORT_CLUB_NIGHT, cache=tmp_path)
    assert "PostgreSQL + gunicorn gthread + nginx: the largest club night held" in printed

"""What tests of every folder use: the rule texts of ../shared, what a test does when a
component it needs (Chromium, nginx, PostgreSQL, …) is missing, and the wait for a server
process to answer."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NoReturn

import pytest

ROOT = Path(__file__).resolve().parents[1]
"""The checkout."""
SEEDS = ROOT.parent / "shared" / "seeds"
"""The rule texts the systems were written from: beside the project, not in a user's clone."""


def unavailable(reason: str, *, required: bool = False) -> NoReturn:
    """Skip the test for want of a component (`reason` says which and how to install it); under
    CI (`CI` set), which installs every one of them (.ci/run), or when `required`, fail instead:
    a test that needs a component cannot silently stop running there."""
    if os.environ.get("CI") or required:
        pytest.fail(f"{reason}; CI must run this test", pytrace=False)
    pytest.skip(reason)


STARTING_AT_MOST = 300.0
"""Seconds a server process may take to start answering: far more than it needs, so that a
machine busy with a second test run beside this one still passes. It is a bound, not a wait: the
test goes on as soon as the server answers, and one that stops while starting fails at once."""


def wait_until_answering(
    process: subprocess.Popen[Any], port: int, path: str | None = None, *, log: Path | None = None
) -> None:
    """Return once the server `process` started answers on 127.0.0.1:`port`: `path` with a 200
    when given, else a connection accepted. It fails, with `log` if given, when the process
    stops first or has not answered within STARTING_AT_MOST seconds."""
    deadline = time.monotonic() + STARTING_AT_MOST
    while True:
        said = f":\n{log.read_text(errors='replace')[-3000:]}" if log and log.exists() else ""
        if process.poll() is not None:
            pytest.fail(f"{process.args} stopped while starting{said}", pytrace=False)
        try:
            if path is None:
                socket.create_connection(("127.0.0.1", port), timeout=10).close()
                return
            with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30) as answer:
                if answer.status == 200:
                    return
        except OSError:  # not listening yet, or not yet answering 200
            pass
        if time.monotonic() > deadline:
            answered = f"did not answer in {STARTING_AT_MOST:.0f} s"
            pytest.fail(f"{process.args} {answered}{said}", pytrace=False)
        time.sleep(0.1)


def free_port() -> int:
    """A port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_serve(port: int, settings: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """The real `scorekeeper serve` on 127.0.0.1:`port`, set by `settings` alone: none of the
    app's settings (`SCOREKEEPER_…`) of the test's own environment reach it. Started, not
    waited for (`wait_until_answering`)."""
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    return subprocess.Popen(
        [*command, "--port", str(port)],
        cwd=ROOT,
        env={**inherited, **settings},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def scorekeeper_serve(port: int, settings: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """`start_serve`, returned once it answers (stopped if it does not)."""
    server = start_serve(port, settings)
    try:
        wait_until_answering(server, port)
    except BaseException:
        server.kill()
        server.wait()
        raise
    return server


def gunicorn_serve(
    port: int, settings: Mapping[str, str], log: Path, *, workers: int = 1, threads: int = 16
) -> subprocess.Popen[bytes]:
    """gunicorn with gthread workers on 127.0.0.1:`port`, reached without a proxy, on the entry
    point the README names, set by `settings` alone (the database upgraded already); returned
    once it answers `/healthz`, its errors written to `log`."""
    binary = shutil.which("gunicorn", path=str(Path(sys.executable).parent))
    if binary is None:
        unavailable("gunicorn is not installed (the server extra)")
    inherited = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    command = [
        *(binary, "--worker-class", "gthread", "-w", str(workers), "--threads", str(threads)),
        # A stream ends only with its lifetime: a stop waits 3 s for them, not 30.
        *("--graceful-timeout", "3", "-b", f"127.0.0.1:{port}", "scorekeeper.web:create_app()"),
    ]
    with log.open("wb") as written:  # a file, not a pipe: a full pipe would stop the server
        server = subprocess.Popen(
            command, env={**inherited, **settings}, stdout=subprocess.DEVNULL, stderr=written
        )
    try:
        wait_until_answering(server, port, "/healthz", log=log)
    except BaseException:
        server.kill()
        server.wait()
        raise
    return server

#!/usr/bin/env python3
"""Slow clients against `scorekeeper serve` directly and behind the README's nginx.

Starts `scorekeeper serve` (waitress) on a throw-away SQLite file and, in front of it, nginx
with the server block of the README's "Host it for a club" (tests/reverse_proxy.py), both on
127.0.0.1. For each count of slow clients, against each, it opens that many connections that
each start a request and send one more header line every few seconds (slowloris), then asks for
the games list as a phone would, once at once and once after the slow clients have held on past
waitress's idle timeout. It prints whether and how fast that phone was answered, and how many
slow clients the server still held. Bounded in time (about 40 s per line); it never asserts.

Run: `.venv/bin/python benchmarks/slow_clients.py [seconds held, default 30] [--clients N]`
(by default two counts: 450, the issue's outside test, and more than waitress's whole
connection limit).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scorekeeper.web.serving import WAITRESS  # noqa: E402
from tests.reverse_proxy import (  # noqa: E402
    SlowClients,
    free_port,
    nginx_binary,
    nginx_in_front,
    unchecked_tls,
)

COUNTS = (450, WAITRESS["connection_limit"] + 50)
"""The issue's outside test, and more than waitress's whole connection limit."""
LINE_EVERY = 5
"""Seconds between a slow client's header lines: far inside waitress's idle timeout."""
PATIENCE = 10
"""Seconds a phone waits for its page before it counts as locked out."""


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], int]:
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{folder / 'games.sqlite3'}",
        "SCOREKEEPER_SECRET_KEY": "slow clients",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
    }
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1"]
    server = subprocess.Popen(
        [*command, "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 300  # at most: a busy machine's start
    while time.monotonic() < deadline and server.poll() is None:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=10):
                return server, port
        except OSError:
            time.sleep(0.1)
    server.kill()
    raise SystemExit("scorekeeper serve did not start")


def a_phone(url: str) -> str:
    """What a phone opening the games list gets: the status and time, or that it waited."""
    began = time.monotonic()
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE, context=unchecked_tls()) as answer:
            answer.read()
            return f"{answer.status} in {(time.monotonic() - began) * 1000:.0f} ms"
    except OSError as error:
        return f"no answer in {PATIENCE} s ({type(error).__name__})"


def measure(name: str, url: str, port: int, count: int, tls: bool, held: float) -> None:
    began = time.monotonic()
    slow = SlowClients(port, count, tls)
    opened = time.monotonic() - began
    stop = threading.Event()

    def trickle() -> None:
        while not stop.wait(LINE_EVERY):
            slow.send_a_line()

    thread = threading.Thread(target=trickle, daemon=True)
    thread.start()
    try:
        at_once = a_phone(url)
        time.sleep(held)
        later = a_phone(url)
        kept = slow.kept()
    finally:
        stop.set()
        thread.join()
        slow.close()
    print(
        f"{name:<18} {count:>5} slow (opened in {opened:.0f} s)  phone at once: {at_once:<32} "
        f"after {held:.0f} s: {later:<32} slow clients still held: {kept}",
        flush=True,
    )
    time.sleep(WAITRESS["channel_timeout"] / 4)  # let the server close the last ones


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("held", nargs="?", type=float, default=30.0, help="seconds")
    parser.add_argument("--clients", type=int, action="append", help="slow clients (repeatable)")
    options = parser.parse_args()
    held, counts = options.held, options.clients or COUNTS
    if nginx_binary() is None:
        raise SystemExit("nginx is not installed (Debian: apt-get install nginx)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 8192)), hard))
    print(
        f"waitress: connection limit {WAITRESS['connection_limit']}, idle timeout "
        f"{WAITRESS['channel_timeout']} s; slow clients send a header line every {LINE_EVERY} s"
    )
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        server, app_port = serve(folder)
        try:
            with nginx_in_front(app_port, folder / "nginx") as proxy_port:
                for count in counts:
                    direct = f"http://127.0.0.1:{app_port}/"
                    measure("waitress directly", direct, app_port, count, False, held)
                    proxied = f"https://127.0.0.1:{proxy_port}/"
                    measure("behind nginx", proxied, proxy_port, count, True, held)
        finally:
            server.terminate()
            server.wait(timeout=30)


if __name__ == "__main__":
    main()

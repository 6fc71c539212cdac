#!/usr/bin/env python3
"""What an idle connection costs `scorekeeper serve` at each request: its event loop
(serving.Turns) beside waitress's own, side by side in one run.

Starts the app twice under waitress with `scorekeeper serve`'s settings, each in a process of its
own on one SQLite file: once with the loop `serve` uses, once with waitress's own (which asks
every open connection at every turn of its loop). For each count of idle connections (a club
night's streams and phones between hands), it opens them, then asks a game's scoreboard with the
ETag it holds (a phone's poll: a 304) `--requests` times on one kept-alive connection, and
prints the CPU per request of the server's event loop (its process's main thread, read from
/proc; the request's own work, in waitress's threads, is the same under either loop). The two
servers are measured in turn, round after round, so that a busy machine weighs on both alike.
It prints, it never asserts.

Run: `.venv/bin/python benchmarks/idle_connections.py [--idle 0,500,1000] [--requests 1000]
[--rounds 2]` (Linux: it reads /proc).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from flask_migrate import upgrade
from pages import config, game_file
from waitress.server import create_server

from scorekeeper.web import create_app, serving
from scorekeeper.web.services.game_files import import_game

LOOPS = ("serve's loop", "waitress's loop")


def serve(loop: str, uri: str, ports: Any) -> None:
    """In a process of its own: the app under waitress as `serve` sets it up, with `loop`."""
    app = create_app({**config(uri), "STREAMS": 1000})
    settings: dict[str, Any] = dict(serving.waitress_settings(app))
    settings["connection_limit"] = 2500
    make = serving.waitress_server if loop == LOOPS[0] else create_server
    server: Any = make(app, host="127.0.0.1", port=0, **settings)
    ports.put((loop, server.effective_port))
    server.run()


def cpu_seconds(pid: int) -> float:
    """The CPU the server's loop has used: its process's main thread, where waitress runs it."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def answer(connection: socket.socket, request: bytes) -> bytes:
    """Send `request` and read its answer's head (a 304 has no body)."""
    connection.sendall(request)
    got = b""
    while b"\r\n\r\n" not in got:
        chunk = connection.recv(65536)
        if not chunk:
            raise SystemExit("the server closed the connection")
        got += chunk
    return got


def measure(port: int, pid: int, idle: int, path: str, requests: int) -> float:
    """The loop's CPU (ms) per poll with `idle` connections open beside it."""
    opened = [socket.create_connection(("127.0.0.1", port)) for _ in range(idle)]
    try:
        with socket.create_connection(("127.0.0.1", port)) as phone:
            asked = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
            head = answer(phone, asked).decode("latin-1")
            tag = next(
                line.split(":", 1)[1].strip()
                for line in head.split("\r\n")
                if line.lower().startswith("etag:")
            )
            poll = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nIf-None-Match: {tag}\r\n\r\n"
            answer(phone, poll.encode())  # every idle connection accepted by now
            began = cpu_seconds(pid)
            for _ in range(requests):
                answer(phone, poll.encode())
            return (cpu_seconds(pid) - began) * 1000 / requests
    finally:
        for connection in opened:
            connection.close()
        time.sleep(0.5)  # let the server close them before the next count


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", default="0,500,1000")
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=2)
    options = parser.parse_args()
    counts = [int(n) for n in options.idle.split(",")]
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = 2 * max(counts) + 200
    if soft != resource.RLIM_INFINITY and soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))
    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{Path(folder) / 'games.sqlite3'}"
        with create_app(config(uri)).app_context():
            upgrade()
            game_id = import_game(game_file(10))
        context = multiprocessing.get_context("spawn")
        ports = context.Queue()
        servers = [context.Process(target=serve, args=(loop, uri, ports)) for loop in LOOPS]
        for server in servers:
            server.start()
        try:
            found = dict(ports.get(timeout=120) for _ in LOOPS)
            pids = {loop: server.pid for loop, server in zip(LOOPS, servers, strict=True)}
            figures: dict[tuple[str, int], list[float]] = {}
            for _ in range(options.rounds):
                for idle in counts:
                    for loop in LOOPS:
                        ms = measure(
                            found[loop],
                            pids[loop] or 0,
                            idle,
                            f"/games/{game_id}",
                            options.requests,
                        )
                        figures.setdefault((loop, idle), []).append(ms)
        finally:
            for server in servers:
                server.terminate()
                server.join()
    print(f"the event loop's CPU per poll (a 304), ms, median of {options.rounds} rounds:")
    print(f"{'idle connections':>18}" + "".join(f"{loop:>18}" for loop in LOOPS))
    for idle in counts:
        row = "".join(f"{statistics.median(figures[(loop, idle)]):18.2f}" for loop in LOOPS)
        print(f"{idle:>18}{row}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

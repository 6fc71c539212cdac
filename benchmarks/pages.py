#!/usr/bin/env python3
"""Time the pages people wait for, side by side with a bare Flask app, and count their SQL.

Starts the app (on a throw-away SQLite file, with games of 5, 20, 60 and 100 hands and, unless
told otherwise, 10,000 seeded games of history) and a bare Flask app that answers a page of the
same size, each under waitress in its own process on 127.0.0.1. Requests go to both in turn, over
one kept-alive connection each, a bounded number of times; the script prints the median time of
each page, the bare response's, their ratio, and the SQL statements the page ran (counted
in-process on the same database). Targets (issues 9 and 18): scoreboard and hand form ≤ 3× the
bare response, a scoreboard answered 304 ≤ 1.5×, an unchanged poll of a followed game
(`state.json`, the follow page) ≤ 1.5× (issue 19), saving a hand ≤ 5×, all flat from 5 to 100
hands, at most 5 SQL statements per page; /games, /stats and /players/<key> under 100 ms with
10,000 games. It prints, it never asserts.

Run: `.venv/bin/python benchmarks/pages.py [history games, default 10000] [--runs N]
[--hands 5,20,60,100]`. A page that answers an error is printed and makes the exit status 1:
nothing was measured of it.
"""

from __future__ import annotations

import argparse
import http.client
import multiprocessing
import random
import re
import secrets
import statistics
import sys
import tempfile
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from flask import Flask, Response, request, session
from flask_migrate import upgrade
from sqlalchemy import create_engine, event, text

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services.game_files import import_game

HAND_COUNTS = (5, 20, 60, 100)
RUNS = 15
"""Requests to each of the two apps per figure (the median of them is printed)."""
SECONDS = 6.0
"""At most this long per figure, however slow the page."""

# Us goes out and Them are caught with many points in hand; then the other way round. The totals
# stay far from 10,000, so a game of any length is still being played.
GOES_OUT = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
CAUGHT = {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 2900}


def hand(number: int) -> dict[str, Any]:
    """Hand `number` (from 0) of a benchmark game, as a game file writes it."""
    return {"entries": [GOES_OUT, CAUGHT] if number % 2 == 0 else [CAUGHT, GOES_OUT]}


def form_fields(number: int) -> dict[str, str]:
    """The same hand as the hand form posts it."""
    fields = {"ending": f"out-{number % 2}", "token": secrets.token_urlsafe(16)}
    for index, entry in enumerate(hand(number)["entries"]):
        prefix = f"sides-{index}-"
        for kind, count in entry["sets"].items():
            fields[f"{prefix}set_{kind}"] = str(count)
        fields[f"{prefix}melded_points"] = str(entry["melded_points"])
        fields[f"{prefix}hand_points"] = str(entry.get("hand_points", 0))
    return fields


def game_file(hands: int) -> dict[str, Any]:
    return {
        "variant": "classic",
        "sides": [
            {"name": "Us", "players": 2, "player_names": ["Ana", "Bo"]},
            {"name": "Them", "players": 2, "player_names": ["Carla", "Dani"]},
        ],
        "hands": [hand(n) for n in range(hands)],
    }


def bare_app(uri: str) -> Flask:
    """Flask with nothing else: a page of `size` bytes, to GET or to POST; and the least a 304
    of a game can cost with a Flask session and SQLAlchemy (`/floor/<game_id>`)."""
    app = Flask("bare")
    app.secret_key = "benchmark"
    engine = create_engine(uri)
    revision = text("SELECT revision FROM game WHERE id = :id")

    @app.route("/bytes/<int:size>", methods=["GET", "POST"])
    def page(size: int) -> Response:
        request.get_data()
        return Response("x" * size, content_type="text/html; charset=utf-8")

    @app.get("/floor/<game_id>")
    def floor(game_id: str) -> Response:
        # What every 304 of a game must do: read the visitor's session and the game's revision
        # (in a transaction), and compare the ETag; nothing of the app's own.
        session.setdefault("visitor", secrets.token_hex(8))
        with engine.begin() as connection:
            tag = f"{connection.execute(revision, {'id': game_id}).scalar()}"
        if request.if_none_match.contains_weak(tag):
            answer = Response(status=304)
        else:
            answer = Response("x", content_type="text/html; charset=utf-8")
        answer.set_etag(tag, weak=True)
        return answer

    return app


def config(uri: str) -> dict[str, Any]:
    return {"SECRET_KEY": "benchmark", "SQLALCHEMY_DATABASE_URI": uri}


def serve(kind: str, uri: str, ports: Any) -> None:
    """In a process of its own: serve the app (or the bare one) and say on which port."""
    import waitress

    app = create_app(config(uri)) if kind == "app" else bare_app(uri)
    server = waitress.create_server(app, host="127.0.0.1", port=0)
    ports.put(server.effective_port)  # type: ignore[union-attr]
    server.run()


class Client:
    """One kept-alive HTTP connection, with the cookies the server set."""

    def __init__(self, port: int) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}
        self.etag = ""

    def send(
        self,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        extra: dict[str, str] | None = None,
    ) -> tuple[int, bytes]:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        headers.update(extra or {})
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        content = response.read()
        self.etag = response.headers.get("ETag", "")
        for cookie in response.headers.get_all("Set-Cookie") or []:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        return response.status, content


def timed(
    client: Client,
    method: str,
    path: str,
    form: dict[str, str] | None,
    extra: dict[str, str] | None = None,
) -> tuple[float, int, bytes]:
    """How long one request took (ms), its status and its body."""
    began = time.perf_counter()
    status, content = client.send(method, path, form, extra)
    return (time.perf_counter() - began) * 1000, status, content


class Bench:
    """Interleaves requests to the app and to the bare app, and prints what it measured."""

    def __init__(
        self,
        app: Client,
        bare: Client,
        statements: Callable[[str], int | None],
        runs: int = RUNS,
        failed: list[str] | None = None,
    ) -> None:
        self.app, self.bare, self.statements, self.runs = app, bare, statements, runs
        self.failed = [] if failed is None else failed
        """The figures that could not be measured: their page answered an error."""
        print(f"{'page':34} {'ms':>7} {'bare ms':>7} {'ratio':>6} {'SQL':>4}  target")

    def measure(
        self,
        name: str,
        path: str,
        target: str,
        form: Callable[[int], dict[str, str]] | None = None,
        extra: dict[str, str] | None = None,
    ) -> None:
        method = "GET" if form is None else "POST"
        mine: list[float] = []
        theirs: list[float] = []
        stop = time.perf_counter() + SECONDS
        for run in range(self.runs):
            sent = None if form is None else form(run)
            took, status, content = timed(self.app, method, path, sent, extra)
            if status >= 400:
                print(f"{name:34} answered {status}: {content[:200]!r}")
                self.failed.append(name)
                return
            mine.append(took)
            took, _, _ = timed(self.bare, method, f"/bytes/{len(content)}", sent)
            theirs.append(took)
            if time.perf_counter() > stop:
                break
        ms, bare_ms = statistics.median(mine), statistics.median(theirs)
        count = self.statements(path) if form is None and extra is None else None
        sql = "" if count is None else str(count)
        print(f"{name:34} {ms:7.1f} {bare_ms:7.1f} {ms / bare_ms:5.1f}× {sql:>4}  {target}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("history_games", nargs="?", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=RUNS, help="requests per figure, at most")
    parser.add_argument(
        "--hands",
        type=lambda text: tuple(int(n) for n in text.split(",")),
        default=HAND_COUNTS,
        help="the games' lengths, separated by commas",
    )
    options = parser.parse_args()
    history_games = options.history_games
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{Path(folder) / 'pages.sqlite3'}"
        app = create_app({**config(uri), "TESTING": True, "WTF_CSRF_ENABLED": False})
        with app.app_context():
            upgrade()
            if history_games:
                sys.path.insert(0, str(Path(__file__).resolve().parent))
                from history import seed

                began = time.perf_counter()
                seed(history_games, random.Random(5))
                print(f"seeded {history_games} games in {time.perf_counter() - began:.1f} s")
            games = {n: import_game(game_file(n)) for n in options.hands}
            counted = [0]

            @event.listens_for(db.engine, "before_cursor_execute")
            def count(*_args: object) -> None:
                counted[0] += 1

        checker = app.test_client()

        def statements(path: str) -> int | None:
            counted[0] = 0
            return counted[0] if checker.get(path).status_code == 200 else None

        ports = spawn.Queue()
        servers = [spawn.Process(target=serve, args=(kind, uri, ports)) for kind in ("app", "")]
        servers[0].start()
        app_port = ports.get(timeout=60)
        servers[1].start()
        bare_port = ports.get(timeout=60)
        try:
            failed = run(
                Client(app_port), Client(bare_port), statements, games, history_games, options.runs
            )
        finally:
            for server in servers:
                server.terminate()
                server.join()
    return 1 if failed else 0


def run(
    app: Client,
    bare: Client,
    statements: Callable[[str], int | None],
    games: dict[int, str],
    history_games: int,
    runs: int,
) -> list[str]:
    """Measure every figure; the names of those whose page answered an error."""
    bench = Bench(app, bare, statements, runs)
    first = games[min(games)]
    for warm in ("/", f"/games/{first}", f"/games/{first}/hands/new"):
        for _ in range(3):
            app.send("GET", warm)
            bare.send("GET", "/bytes/1000")
    for hands, game_id in games.items():
        bench.measure(f"scoreboard, {hands} hands", f"/games/{game_id}", "≤ 3×, ≤ 5 SQL")
    for hands, game_id in games.items():
        path = f"/games/{game_id}/hands/new"
        bench.measure(f"hand form, {hands} hands", path, "≤ 3×, ≤ 5 SQL")
    for hands, game_id in games.items():
        # A phone that has the page already asks whether it changed: 304, nothing drawn.
        app.send("GET", f"/games/{game_id}")
        unchanged = {"If-None-Match": app.etag}
        bench.measure(
            f"scoreboard 304, {hands} hands", f"/games/{game_id}", "≤ 1.5×", extra=unchanged
        )
    for hands, game_id in games.items():
        # What every phone following the game asks every 2 seconds (issue 19): the hand form's
        # poll of the game's state and the follow page's, unchanged, so 304 at the door.
        for page, address in (("state.json", "/state.json"), ("follow", "/follow")):
            app.send("GET", f"/games/{game_id}{address}")
            unchanged = {"If-None-Match": app.etag}
            bench.measure(
                f"poll unchanged ({page}), {hands} hands",
                f"/games/{game_id}{address}",
                "≤ 1.5×",
                extra=unchanged,
            )
    # The least a 304 can cost (a Flask session and one SQLAlchemy read), beside the same bare
    # response: how much of the 304's figure any app on these libraries pays.
    floor = Client(bare.connection.port)
    floor.send("GET", f"/floor/{first}")
    floor_bench = Bench(floor, bare, lambda _path: None, runs, bench.failed)
    floor_bench.measure(
        "304 floor (session, one read)",
        f"/floor/{first}",
        "the least",
        extra={"If-None-Match": floor.etag},
    )
    for hands, game_id in games.items():
        path = f"/games/{game_id}/hands/new"
        _, page = app.send("GET", path)
        found = re.search(rb'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"', page)
        csrf = {"csrf_token": found.group(1).decode()} if found else {}
        bench.measure(
            f"save a hand, {hands}+ hands",
            path,
            "≤ 5×",
            # Each save adds a hand: the ending alternates with the game's length, as above.
            form=lambda run, hands=hands, csrf=csrf: {**form_fields(hands + run), **csrf},  # type: ignore[misc]
        )
    if history_games:
        for path in ("/games", "/games?page=250", "/stats", "/players/ana"):
            bench.measure(f"{path} ({history_games} games)", path, "< 100 ms")
    return bench.failed


if __name__ == "__main__":
    sys.exit(main())

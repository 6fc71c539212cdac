#!/usr/bin/env python3
"""Server CPU per request kind (issue 36), measured inside the server as thread CPU time.

Starts three servers, each as `scorekeeper serve` serves (waitress, its settings, the app's
event loop) in a process of its own, on one SQLite file: the app,
the bare Flask app of `pages.py` (a page of a given size, and the floor of a 304: a session and
one read) and the save floor of `save_floor.py` (a Flask-WTF form of the hand form's size with
its CSRF token, the ORM's writes, fsync). Each is wrapped in a probe (WSGI middleware, added
here, not in the app) that takes `time.thread_time()` around each request, from the call to
the close of its answer, and counts the SQL statements the request's thread ran: CPU time of
that thread alone, so a machine busy with other work does not distort it. An event stream's
CPU is counted per event (each wake-up that names a new revision).

For games of 10, 100 and 300 hands it plays `--runs` hands as a table does: the recording
phone opens the hand form, saves a hand and follows the redirect to the scoreboard, while
three followers hold the game's event stream as the page's script does and take the new page's
parts it carries (or, from an app whose stream names the revision alone, ask for the scoreboard
again with the ETag they hold). The server's process CPU (every thread:
waitress, the watcher) from the form's GET until the last follower has the new page is "one
saved hand with three streaming followers", beside the same requests made of the bare
and floor apps (their processes' CPU, every thread: what waitress and the stack cost around
the apps). Then it asks the other kinds once each (the form again, a 304, state.json, the
follow page and the display). It prints the median
CPU of each kind, its SQL statements and its ratio to the bare page of the same size, to the
floor of a 304 and to the save floor, measured in the same run. It prints, it never asserts.

Run: `.venv/bin/python benchmarks/cpu.py [--runs 15] [--hands 10,100,300] [--profile KIND]`.
`--profile save` (any kind's name) writes a cProfile of that kind's requests in the app's
process to cpu-<kind>.prof in the temporary folder (TMPDIR).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import multiprocessing
import re
import socket
import statistics
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pages import bare_app, config, form_fields, game_file

from scorekeeper.web.serving import WAITRESS

HAND_COUNTS = (10, 100, 300)
RUNS = 15
PROBE = "/_probe"
KIND_HEADER = "HTTP_X_KIND"
FOLLOWERS = 3
IDLE_SECONDS = 3.0
"""How long the server is left alone, to measure what it spends idle."""
IDLE_CLOSED = WAITRESS["channel_timeout"]
"""Seconds after which the servers (`scorekeeper serve`'s settings) close an idle connection."""
WITHIN = 60.0
"""Seconds a follower waits for its stream to name the new revision, at most."""


def profile_path(kind: str) -> str:
    """Where the profile of `kind` is written: the temporary folder, TMPDIR if set."""
    return str(Path(tempfile.gettempdir()) / f"cpu-{kind}.prof")


# --- in each server's process ----------------------------------------------------------------


class Probe:
    """WSGI middleware: the thread CPU and SQL statements of every request, by the kind the
    client names in `X-Kind`; `GET /_probe` answers what was measured since the last time (and
    the process's CPU time now), and starts anew."""

    def __init__(self, app: Callable[..., Iterable[bytes]], profile: str = "") -> None:
        self.app = app
        self.profile = profile
        self.lock = threading.Lock()
        self.measured: list[tuple[str, float, int]] = []
        self.local = threading.local()
        from sqlalchemy import Engine, event

        event.listen(Engine, "before_cursor_execute", self._statement)
        try:  # the door's peek, which SQLAlchemy's events never see (none before issue 36)
            from scorekeeper.web.store import database

            database.PEEKED.append(self._statement)
        except (ImportError, AttributeError):
            pass
        self.profiled: Any = None
        """What the profiles of the kind profiled gathered (pstats.Stats)."""
        if profile:
            import pstats

            self.profiled = pstats.Stats()

    def _statement(self, *_args: object) -> None:
        self.local.statements = getattr(self.local, "statements", 0) + 1

    def note(self, kind: str, cpu: float, statements: int) -> None:
        with self.lock:
            self.measured.append((kind, cpu * 1000, statements))

    def profiler(self, kind: str) -> Any:
        """A profiler started for one request or wake-up of `kind`, if it is the kind profiled:
        one of its own, for a profiler enabled in two threads at once mixes their calls, and
        one shared by turns would be held by a stream's thread while it waits for its event."""
        if not self.profile or kind != self.profile:
            return None
        import cProfile

        profiler = cProfile.Profile(time.thread_time)  # CPU, not waits
        profiler.enable()
        return profiler

    def gather(self, profiler: Any) -> None:
        """Stop `profiler` (started in this thread) and add what it saw to what the others saw."""
        if profiler is not None:
            profiler.disable()
            with self.lock:
                self.profiled.add(profiler)

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("PATH_INFO") == PROBE:
            with self.lock:
                measured, self.measured = self.measured, []
            if self.profiled is not None and environ.get("QUERY_STRING") == "dump":
                with self.lock:
                    self.profiled.dump_stats(profile_path(self.profile))
            body = json.dumps({"process": time.process_time() * 1000, "measured": measured})
            start_response("200 OK", [("Content-Type", "application/json")])
            return [body.encode()]
        kind = environ.get(KIND_HEADER, "")
        if kind == "stream":
            return _Stream(self, self.app(environ, start_response))
        self.local.statements = 0
        began = time.thread_time()
        profiler = self.profiler(kind)
        try:
            answer = self.app(environ, start_response)
            body = b"".join(answer)
            getattr(answer, "close", lambda: None)()
        finally:
            self.gather(profiler)
            self.note(kind, time.thread_time() - began, self.local.statements)
        return [body]


class _Stream:
    """An event stream's answer: each event's CPU (the wake-up that sends it) noted apart."""

    def __init__(self, probe: Probe, answer: Iterable[bytes]) -> None:
        self.probe, self.answer = probe, iter(answer)
        self.closing = answer
        self.first = True

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        probe = self.probe
        kind = "stream opened" if self.first else "stream wake-up"
        self.first = False
        probe.local.statements = 0
        began = time.thread_time()
        profiler = probe.profiler(kind)
        try:
            return next(self.answer)
        finally:
            probe.gather(profiler)
            probe.note(kind, time.thread_time() - began, probe.local.statements)

    def close(self) -> None:
        getattr(self.closing, "close", lambda: None)()


def serve(kind: str, uri: str, ports: Any, profile: str) -> None:
    from scorekeeper.web.serving import settle, waitress_server

    if kind == "app":
        from scorekeeper.web import create_app

        app: Any = create_app({**config(uri), "STREAMS": 100, "LOG_LEVEL": "WARNING"})
        from scorekeeper.web.http import stream

        stream.allow(app, 100)
    elif kind == "floor":
        from save_floor import floor_app

        app = floor_app(uri)
    else:
        app = bare_app(uri)
    # Each served as `scorekeeper serve` serves the app (its loop, its settings, what it has
    # loaded kept out of the collector's passes), threads aside.
    settings: dict[str, Any] = {**WAITRESS, "threads": 16}
    settle()
    server = waitress_server(
        Probe(app, profile if kind == "app" else ""), host="127.0.0.1", port=0, **settings
    )
    ports.put(server.effective_port)  # type: ignore[union-attr]
    server.run()


# --- the phones ------------------------------------------------------------------------------


class Phone:
    """A browser: its cookies and one kept-alive connection; it takes gzip, as browsers do."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        self.cookies: dict[str, str] = {}
        self.used = time.monotonic()

    def send(
        self,
        kind: str,
        method: str,
        path: str,
        form: dict[str, str] | None = None,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        sent = {"Accept-Encoding": "gzip", "X-Kind": kind, **(headers or {})}
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if time.monotonic() - self.used > IDLE_CLOSED / 2:
            # The server closes a connection idle for IDLE_CLOSED (waitress's `channel_timeout`,
            # which a profiled run can reach): a new one, as a browser takes one that could
            # be closed under it.
            self.connection.close()
        self.connection.request(method, path, body=body, headers=sent)
        answer = self.connection.getresponse()
        content = answer.read()
        if answer.headers.get("Content-Encoding") == "gzip":
            content = gzip.decompress(content)
        for cookie in answer.headers.get_all("Set-Cookie") or []:
            name, value = cookie.split(";", 1)[0].split("=", 1)
            self.cookies[name] = value
        self.used = time.monotonic()
        got = {name.lower(): value for name, value in answer.headers.items()}
        if answer.status >= 400:
            raise SystemExit(f"{kind}: {method} {path} answered {answer.status}: {content[:300]!r}")
        return answer.status, got, content.decode()


class Order:
    """Which follower asks first after a save: it draws the page (or finds it drawn)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.asked = 0

    def next(self) -> str:
        with self.lock:
            self.asked += 1
            return "scoreboard, first follower" if self.asked == 1 else "scoreboard, follower"


REVISION = re.compile(r'data-revision="([^"]*)"')


class Follower:
    """A phone on the scoreboard that holds the game's event stream, as its script does: at each
    revision it names, it takes the page's new body the stream carries (static/js/follow.js:
    whole, or the parts that changed since the revision it shows), or, when the stream names
    the revision alone (an app whose stream carries nothing), asks for the page again with the
    ETag it holds."""

    def __init__(self, port: int, path: str, order: Order) -> None:
        self.phone = Phone(port)
        self.path = path
        _, headers, page = self.phone.send("", "GET", path)
        self.etag = headers.get("etag", "")
        self.order = order
        self.updated = threading.Semaphore(0)
        found = REVISION.search(page)
        self.revision = found.group(1) if found else ""
        self.named = ""
        self.stream = socket.create_connection(("127.0.0.1", port))
        query = urllib.parse.urlencode({"page": "games.scoreboard", "since": self.revision})
        self.stream.sendall(
            f"GET {path}/events?{query} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Kind: stream\r\n"
            f"Accept: text/event-stream\r\n\r\n".encode()
        )
        self.reader = self.stream.makefile("rb")
        self.thread = threading.Thread(target=self._listen, daemon=True)
        self.thread.start()

    def _listen(self) -> None:
        for line in self.reader:
            if not line.startswith(b"data: "):
                continue
            data = line[6:].strip().decode()
            news = json.loads(data) if data.startswith("{") else {"revision": data}
            first, self.named = not self.named, news["revision"]
            if news["revision"] == self.revision:
                continue
            if "whole" in news or news.get("base") == self.revision:
                self.revision = news["revision"]  # taken in: no request
            else:
                kind = self.order.next()
                status, headers, page = self.phone.send(
                    kind, "GET", self.path, headers={"If-None-Match": self.etag}
                )
                if status == 200:
                    self.etag = headers.get("etag", "")
                    found = REVISION.search(page)
                    self.revision = found.group(1) if found else news["revision"]
            if not first:
                self.updated.release()

    def close(self) -> None:
        self.stream.close()


# --- the measuring ---------------------------------------------------------------------------


class Probes:
    """What each server's probe measured, by kind, gathered over the run."""

    def __init__(self, ports: dict[str, int]) -> None:
        self.connections = {name: Phone(port) for name, port in ports.items()}
        self.cpu: dict[str, list[float]] = defaultdict(list)
        self.sql: dict[str, list[int]] = defaultdict(list)

    def read(self, server: str, dump: bool = False) -> float:
        """Gather what `server` measured since the last read; its process CPU now (ms)."""
        _, _, body = self.connections[server].send("", "GET", PROBE + ("?dump" if dump else ""))
        found = json.loads(body)
        for kind, cpu, statements in found["measured"]:
            if kind:
                self.cpu[kind].append(cpu)
                self.sql[kind].append(statements)
        return float(found["process"])

    def median(self, kind: str) -> float:
        return statistics.median(self.cpu[kind]) if self.cpu[kind] else float("nan")

    def statements(self, kind: str) -> str:
        counts = self.sql[kind]
        if not counts:
            return ""
        low, high = min(counts), max(counts)
        return str(low) if low == high else f"{low}-{high}"


TOKENS = re.compile(r'name="(csrf_token|token|after)"[^>]*value="([^"]*)"')


def play(ports: dict[str, int], game_id: str, hands: int, runs: int) -> dict[str, Any]:
    """`runs` hands saved in a game of `hands` hands, followed by three streams; the kinds."""
    probes = Probes(ports)
    app, bare, floor = Phone(ports["app"]), Phone(ports["bare"]), Phone(ports["floor"])
    board = f"/games/{game_id}"
    order = Order()
    followers = [Follower(ports["app"], board, order) for _ in range(FOLLOWERS)]
    for follower in followers:  # each stream has named the revision it opened at
        deadline = time.monotonic() + WITHIN
        while not follower.named and time.monotonic() < deadline:
            time.sleep(0.01)
    # What the server spends with nothing asked (the watcher's look at the followed games, once
    # a second; waitress's loop): taken off each hand's CPU, for the time the hand took.
    began, started = probes.read("app"), time.perf_counter()
    time.sleep(IDLE_SECONDS)
    idle = (probes.read("app") - began) / (time.perf_counter() - started)
    floor.send("", "GET", "/save")
    _, _, floor_form = floor.send("", "GET", "/save")
    floor_csrf = dict(TOKENS.findall(floor_form))
    sizes: dict[str, int] = {}
    totals: list[float] = []
    floors: list[float] = []
    wakes: list[float] = []
    """The three streams' wake-ups at each hand: the first draws the page that they share, the
    others take it (a median of each wake-up hides the drawing)."""
    for run in range(runs):
        order.asked = 0
        probes.read("app")
        woken = len(probes.cpu["stream wake-up"])
        began, started = probes.read("app"), time.perf_counter()
        _, _, form = app.send("hand form, drawn", "GET", f"{board}/hands/new")
        sizes["hand form, drawn"] = len(form.encode())
        paused = probes.read("app")
        # The form again, at the same revision: kept (outside the hand's CPU).
        _, _, kept_form = app.send("hand form, kept", "GET", f"{board}/hands/new")
        sizes["hand form, kept"] = len(kept_form.encode())
        resumed = probes.read("app")
        fields = {**dict(TOKENS.findall(form)), **form_fields(hands + run)}
        _, headers, _ = app.send("save", "POST", f"{board}/hands/new", fields)
        where = urllib.parse.urlsplit(headers["location"])
        _, _, page = app.send("scoreboard ?saved=N", "GET", f"{where.path}?{where.query}")
        sizes["scoreboard ?saved=N"] = len(page.encode())
        for follower in followers:
            if not follower.updated.acquire(timeout=WITHIN):
                raise SystemExit("a follower's stream named no new revision")
        ended = probes.read("app")
        wakes.append(sum(probes.cpu["stream wake-up"][woken:]))
        overhead = probes.read("app") - ended  # what one read of the probe costs
        took = time.perf_counter() - started
        totals.append(paused - began + ended - resumed - 2 * overhead - idle * took)
        # The other kinds, once each per hand.
        _, headers, page = app.send("scoreboard, kept", "GET", board)
        sizes["scoreboard, kept"] = sizes["scoreboard, first follower"] = len(page.encode())
        sizes["scoreboard, follower"] = len(page.encode())
        app.send("scoreboard 304", "GET", board, headers={"If-None-Match": headers["etag"]})
        _, headers, state = app.send("state.json after a save", "GET", f"{board}/state.json")
        sizes["state.json after a save"] = len(state.encode())
        app.send(
            "state.json 304",
            "GET",
            f"{board}/state.json",
            headers={"If-None-Match": headers["etag"]},
        )
        for page_kind, path in (("follow", "/follow"), ("display", "/display")):
            _, _, page = app.send(f"{page_kind}, drawn", "GET", f"{board}{path}")
            sizes[f"{page_kind}, drawn"] = len(page.encode())
            _, headers, page = app.send(f"{page_kind}, kept", "GET", f"{board}{path}")
            sizes[f"{page_kind}, kept"] = len(page.encode())
        # The figures to compare with, three times each per hand (each is a fraction of a ms).
        for _ in range(3):
            for size in sorted(set(sizes.values())):
                bare.send(f"bare {size}", "GET", f"/bytes/{size}")
            _, headers, _ = bare.send("", "GET", f"/floor/{game_id}")
            tag = {"If-None-Match": headers["etag"]}
            bare.send("304 floor", "GET", f"/floor/{game_id}", headers=tag)
        # The same hand's requests at the stack's floor, every thread of the two servers: the
        # form (a bare page of its size), the save floor, and the page of the saving phone and
        # of each follower (bare pages of the scoreboard's size); no stream.
        began = probes.read("bare") + probes.read("floor")
        bare.send("", "GET", f"/bytes/{sizes['hand form, drawn']}")
        floor.send("save floor", "POST", "/save", {**form_fields(run), **floor_csrf})
        for _ in range(1 + FOLLOWERS):
            bare.send("", "GET", f"/bytes/{sizes['scoreboard, kept']}")
        ended = probes.read("bare") + probes.read("floor")
        overhead = probes.read("bare") + probes.read("floor") - ended
        floors.append(ended - began - overhead)
    probes.read("app")
    for follower in followers:
        follower.close()
    return {
        "probes": probes,
        "sizes": sizes,
        "hand": statistics.median(totals),
        "floor": statistics.median(floors),
        "wakes": statistics.median(wakes),
        "idle": idle,
    }


KINDS = (
    ("hand form, drawn", "bare"),
    ("hand form, kept", "bare"),
    ("save", "save floor"),
    ("scoreboard ?saved=N", "bare"),
    ("scoreboard, first follower", "bare"),
    ("scoreboard, follower", "bare"),
    ("scoreboard, kept", "bare"),
    ("scoreboard 304", "304 floor"),
    ("state.json after a save", "bare"),
    ("state.json 304", "304 floor"),
    ("follow, drawn", "bare"),
    ("follow, kept", "bare"),
    ("display, drawn", "bare"),
    ("display, kept", "bare"),
    ("stream wake-up", ""),
)


def show(hands: int, measured: dict[str, Any]) -> None:
    probes: Probes = measured["probes"]
    sizes: dict[str, int] = measured["sizes"]
    print(f"\n{hands} hands: {'request':28} {'CPU ms':>7} {'SQL':>5}  against")
    for kind, against in KINDS:
        ms = probes.median(kind)
        if against == "bare":
            size = sizes.get(kind) or sizes.get(kind.replace("first follower", "kept"), 0)
            base = probes.median(f"bare {size}")
            versus = f"bare {size // 1024} KiB {base:.2f}: {ms / base:.1f}×"
        elif against:
            base = probes.median(against)
            versus = f"{against} {base:.2f}: {ms / base:.2f}×"
        else:
            versus = ""
        print(f"{'':11}{kind:28} {ms:7.2f} {probes.statements(kind):>5}  {versus}")
    print(
        f"{'':11}{'the three wake-ups of a hand':28} {measured['wakes']:7.2f}"
        "      (the first draws the followers' page)"
    )
    print(
        f"{'':11}one saved hand, three streaming followers: {measured['hand']:.1f} ms of server "
        f"CPU in all (process CPU, every thread; less {measured['idle']:.1f} ms a second idle)"
    )
    print(
        f"{'':11}the same requests at the stack's floor (bare pages, the save floor; no "
        f"stream): {measured['floor']:.1f} ms: {measured['hand'] / measured['floor']:.1f}×"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="hands saved per game length")
    parser.add_argument(
        "--hands",
        type=lambda text: tuple(int(n) for n in text.split(",")),
        default=HAND_COUNTS,
        help="the games' lengths, separated by commas",
    )
    parser.add_argument("--profile", default="", help="a kind to profile in the app's process")
    options = parser.parse_args()
    spawn = multiprocessing.get_context("spawn")
    from flask_migrate import upgrade

    from scorekeeper.web import create_app
    from scorekeeper.web.services.game_files import import_game

    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{Path(folder) / 'cpu.sqlite3'}"
        made = create_app({**config(uri), "TESTING": True})
        with made.app_context():
            upgrade()
            games = {n: import_game(game_file(n)) for n in options.hands}
        uris = {"app": uri, "bare": uri, "floor": f"sqlite:///{Path(folder) / 'floor.sqlite3'}"}
        ports: dict[str, int] = {}
        servers = []
        queue = spawn.Queue()
        for kind, where in uris.items():
            server = spawn.Process(target=serve, args=(kind, where, queue, options.profile))
            server.start()
            servers.append(server)
            ports[kind] = queue.get(timeout=120)
        try:
            warm = Phone(ports["app"])
            first = games[min(games)]
            for path in (f"/games/{first}", f"/games/{first}/hands/new", f"/games/{first}/follow"):
                for _ in range(3):
                    warm.send("", "GET", path)
            for hands, game_id in games.items():
                show(hands, play(ports, game_id, hands, options.runs))
            if options.profile:
                Probes(ports).read("app", dump=True)
                print(f"\nprofile of {options.profile!r}: {profile_path(options.profile)}")
        finally:
            for server in servers:
                server.terminate()
                server.join()


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A club night under load: N tables of five phones against a real server, on loopback.

Each table is a game. Four phones follow it as `static/js/follow.js` and `static/js/news.js` do:
they GET the scoreboard, then hold the stream its page names (`#following`'s data-stream, with
`since=` the revision it shows), and take in what each event carries: a revision alone that differs
from the one shown makes them ask for the scoreboard again; news (JSON: the body whole, or the
parts that changed since the revision shown, counted as the page counts its marks) is put in place
with no request, and only news they could not put in place (another base, another count of parts)
makes them ask, as news.js does. A share of them (`--pollers` per table, and every phone whose
stream is refused with 204) ask every 2 s instead with the ETag they hold (`If-None-Match`), so an
unchanged game costs a 304. The fifth phone records a hand every `--hand-every` seconds, spread at
random from half of it to all of it (a real table's one to two minutes, compressed), through the
real form: it GETs the hand form, POSTs the hand with the form's CSRF and one-time tokens, and
follows the redirect to the scoreboard. Every phone keeps its own cookies and one HTTP/1.1
connection for pages (a stream has one of its own), from an address of its own on loopback. The
phones are asyncio tasks on raw sockets in this one process, so that the client costs little next
to the server; its CPU is printed beside the server's, the database's and the proxy's, read from
/proc, so a busy client shows.

Set-ups, each started here and stopped after: SQLite + `scorekeeper serve` (waitress, its own
settings), and PostgreSQL + gunicorn behind the README's nginx (`--workers`; `--worker-class
gthread` with `--threads`, as the README runs it, or `gevent`; a throw-away cluster in a
temporary folder, run as the `postgres` user when this runs as root, since PostgreSQL refuses
root). For each, a step search
grows the number of tables until a kind of request has its p99 at 200 ms or more, or the save →
every follower's new page p99 reaches 1 s, or errors, or the time is up (`--max-minutes`), and
prints for every step the p50 and p99 of polls (304s), scoreboards drawn (200s), hand forms,
saves and streams opened, of save → each follower's page, the errors, the CPU used (and per
saved hand: all the step's server CPU over its saves) and the server's memory per stream.
Goal (issue 36): 1,000 tables on PostgreSQL behind nginx, 300 on SQLite + `scorekeeper serve`.
It prints, it never asserts.

Run: `.venv/bin/python benchmarks/club_night.py [--setup sqlite|postgres|both] [--start 25]
[--step 25] [--seconds 60] [--max-minutes 15] [--worker-class gevent|gthread|sync]`;
`--tables N` runs one step of N tables.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gzip
import html
import itertools
import json
import os
import random
import re
import resource
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
from collections import Counter
from collections.abc import AsyncIterator, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's tests/
from tests import (
    postgres,  # the throw-away cluster the tests start
    reverse_proxy,  # the README's nginx
)

HELD_MS = 200.0
"""A step holds when every kind of request has its p99 under this, and nothing failed."""
TIMEOUT = 30.0
"""A request unanswered this long is an error (and its connection is dropped)."""
KINDS = ("poll", "scoreboard", "hand form", "save", "stream")
"""poll: a scoreboard asked with its ETag and answered 304; scoreboard: one drawn (200, the
first look, a changed game, or the page after Save); hand form: its GET; save: the POST;
stream: an event stream opened, until its first event."""
TOLD_MS = 1000.0
"""A step holds only when save → every follower's new page has its p99 under this."""
BIN = Path(sys.executable).parent
OPENS = "<!--p-->"
"""What opens a marked part of a following page's body (presenters/parts.py)."""

# Us goes out, Them are caught with many points in hand; then the other way round (as
# benchmarks/pages.py plays), so the totals stay far from the end however many hands are saved.
GOES_OUT = {"set_samba": "1", "set_natural_canasta": "1", "melded_points": "260"}
CAUGHT = {"set_mixed_canasta": "1", "melded_points": "150", "hand_points": "2900"}
GAME = {
    "variant": "classic",
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [],
}


def hand_fields(number: int) -> dict[str, str]:
    """Hand `number` (from 0) of a table's game, as the hand form posts it."""
    sides = [GOES_OUT, CAUGHT] if number % 2 == 0 else [CAUGHT, GOES_OUT]
    fields = {"ending": f"out-{number % 2}", "action": "save"}
    for index, side in enumerate(sides):
        fields.update({f"sides-{index}-{name}": value for name, value in side.items()})
    return fields


# --- the phones ---------------------------------------------------------------------------------


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    body: bytes
    ms: float

    def text(self) -> str:
        body = self.body
        if self.headers.get("content-encoding") == "gzip":
            body = gzip.decompress(body)
        return body.decode()


def loopback(number: int) -> str:
    """The `number`th phone's address of its own on loopback (127.0.0.0/8 is all this machine's):
    a club's phones each have one, and the app holds at most a quarter of its streams for one
    address, so phones sharing 127.0.0.1 would mostly poll."""
    return f"127.{1 + number // 62500}.{number // 250 % 250}.{number % 250 + 1}"


class Phone:
    """One browser: its cookies and one HTTP/1.1 connection, opened again when it was closed,
    from an address of its own."""

    made = itertools.count()

    def __init__(self, port: int) -> None:
        self.port = port
        self.address = loopback(next(Phone.made))
        self.cookies: dict[str, str] = {}
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def ask(
        self, method: str, path: str, headers: dict[str, str] | None = None, body: bytes = b""
    ) -> Answer:
        lines = [
            f"{method} {path} HTTP/1.1",
            f"Host: 127.0.0.1:{self.port}",
            "Accept-Encoding: gzip",
            "Accept-Language: en",
        ]
        if self.cookies:
            lines.append("Cookie: " + "; ".join(f"{k}={v}" for k, v in self.cookies.items()))
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        if method == "POST":
            if "Content-Type" not in (headers or {}):
                lines.append("Content-Type: application/x-www-form-urlencoded")
            lines.append(f"Content-Length: {len(body)}")
        request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        began = time.perf_counter()
        try:
            answer = await asyncio.wait_for(self._exchange(request, method), TIMEOUT)
        except BaseException:
            self.close()
            raise
        answer.ms = (time.perf_counter() - began) * 1000
        return answer

    async def _exchange(self, request: bytes, method: str) -> Answer:
        # A kept-alive connection the server closed meanwhile fails before any answer: sent
        # again once on a new one, as browsers do.
        reused = self.writer is not None
        try:
            return await self._once(request, method)
        except (ConnectionError, EOFError, asyncio.IncompleteReadError):
            if not reused:
                raise
            self.close()
            return await self._once(request, method)

    async def _once(self, request: bytes, method: str) -> Answer:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                "127.0.0.1", self.port, local_addr=(self.address, 0)
            )
        reader, writer = self.reader, self.writer
        assert reader is not None
        writer.write(request)
        await writer.drain()
        status_line = await reader.readline()
        if not status_line:
            raise EOFError("closed before answering")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
            name, _, value = line.decode("latin-1").partition(":")
            name, value = name.strip().lower(), value.strip()
            if name == "set-cookie":
                cookie, _, _ = value.partition(";")
                key, _, kept = cookie.partition("=")
                self.cookies[key] = kept
            headers[name] = value
        if method == "HEAD" or status in (204, 304):
            body = b""
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            body = b""
            while size := int((await reader.readline()).split(b";")[0], 16):
                body += await reader.readexactly(size + 2)
                body = body[:-2]
            await reader.readline()
        elif "content-length" in headers:
            body = await reader.readexactly(int(headers["content-length"]))
        else:
            body = await reader.read()
            headers["connection"] = "close"
        if headers.get("connection", "").lower() == "close":
            self.close()
        return Answer(status, headers, body, 0.0)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


@dataclass
class Figures:
    """What one step measured: times by kind of request, and errors by what went wrong."""

    times: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    errors: Counter[str] = field(default_factory=Counter)
    told: list[float] = field(default_factory=list)
    """Save → a streaming follower's new scoreboard, in ms, for every such follower of every
    save."""
    told_polled: list[float] = field(default_factory=list)
    """The same for the followers that poll."""
    streams: int = 0
    """Streams open now."""
    most_streams: int = 0
    """The most streams open at once."""
    refused: int = 0
    """Streams answered 204 (the phone polls instead)."""
    news: Counter[str] = field(default_factory=Counter)
    """News heard on streams: put in place, or asked for (as news.js does when it cannot)."""
    measuring: bool = False

    def note(self, kind: str, answer: Answer, *expected: int) -> None:
        if not self.measuring:
            return
        if answer.status not in expected:
            self.errors[f"{kind} {answer.status}"] += 1
        else:
            self.times[kind].append(answer.ms)

    def failed(self, kind: str, error: BaseException) -> None:
        if self.measuring:
            self.errors[f"{kind} {type(error).__name__}"] += 1

    def held(self) -> bool:
        return (
            not self.errors
            and all(percentile(times, 99) < HELD_MS for times in self.times.values() if times)
            and percentile(self.told, 99) < TOLD_MS
        )


def percentile(times: list[float], which: int) -> float:
    if len(times) < 2:
        return times[0] if times else 0.0
    return statistics.quantiles(times, n=100, method="inclusive")[which - 1]


@dataclass
class Table:
    """A game and its hands saved so far (by its one recording phone)."""

    path: str
    hands: int = 0
    saved_at: float = 0.0
    """When its last save was answered (the loop's clock)."""
    seen: int = 0
    """The hands its last save left, as a follower's page shows them."""
    saving: bool = False
    """A save sent and not answered yet."""


HUB = re.compile(r'<div id="following"[^>]*data-stream="([^"]*)"[^>]*data-revision="([^"]*)"')
"""A following page's hub: the stream it holds and the revision it shows."""


class Follower:
    """What a following phone has: its page's ETag, the revision it shows and how many marked
    parts its body has (as news.js counts them), the stream its page names, and which save it
    has seen."""

    def __init__(self, phone: Phone, table: Table, figures: Figures, streaming: bool) -> None:
        self.told = figures.told if streaming else figures.told_polled
        self.phone = phone
        self.table = table
        self.figures = figures
        self.etag = ""
        self.known = ""
        self.count = 0
        self.stream = ""
        self.hands = 0
        self.looked = False
        """Whether it has drawn the page once: a save seen after that has a delay."""

    def polling(self) -> None:
        self.told = self.figures.told_polled

    async def look(self) -> None:
        """Ask for the scoreboard with the ETag held; a new one after a save counts its delay."""
        kind = "poll" if self.etag else "scoreboard"
        headers = {"If-None-Match": self.etag} if self.etag else {}
        hands = self.table.hands
        try:
            answer = await self.phone.ask("GET", self.table.path, headers)
        except Exception as error:
            self.figures.failed(kind, error)
            return
        if answer.status == 304:
            self.figures.note("poll", answer, 304)
            return
        self.figures.note("scoreboard", answer, 200)
        self.etag = answer.headers.get("etag", "") if answer.status == 200 else ""
        if answer.status != 200:
            return
        page = answer.text()
        if hub := HUB.search(page):
            self.stream, self.known = html.unescape(hub[1]), hub[2]
        self.count = page.count(OPENS)
        if hands > self.hands:
            if self.looked and self.figures.measuring:
                loop = asyncio.get_running_loop()
                self.told.append((loop.time() - self.table.saved_at) * 1000)
            self.hands = hands
        self.looked = True

    async def heard(self, data: str) -> None:
        """What follow.js's `heard` and news.js's `takeIn` do with an event's data: a revision
        named that differs from the one shown, or news that cannot be put in place, makes the
        page ask for itself; news that can be is put in place, with no request."""
        if not data.startswith("{"):
            if data != self.known:
                self.known = data
                await self.look()
            return
        news = json.loads(data)
        if news["revision"] == self.known:
            return
        whole = news.get("whole")
        taken = whole is not None or (
            news.get("base") == self.known and "parts" in news and news["count"] == self.count
        )
        self.known = news["revision"]
        if self.figures.measuring:
            self.figures.news["put in place" if taken else "asked for"] += 1
        if not taken:
            await self.look()
            return
        if whole is not None:
            self.count = whole.count(OPENS)
        self.etag = ""  # news.js: the copy it would revalidate is older than what is shown
        self.seen()

    def seen(self) -> None:
        """A new revision put in place from the stream: the save it shows, and its delay (none
        when the news came before the save's own answer reached its phone)."""
        table, loop = self.table, asyncio.get_running_loop()
        if table.saving and self.hands == table.hands:
            delay, self.hands = 0.0, table.hands + 1
        elif table.hands > self.hands:
            delay, self.hands = (loop.time() - table.saved_at) * 1000, table.hands
        else:
            return
        if self.looked and self.figures.measuring:
            self.told.append(delay)


async def follow(phone: Phone, table: Table, figures: Figures, every: float, until: float) -> None:
    """A phone watching the scoreboard by polling: drawn once, then asked with its ETag every
    `every` s."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.uniform(0, every))
    follower = Follower(phone, table, figures, streaming=False)
    while loop.time() < until:
        await follower.look()
        # follow.js asks again 2 s after the answer, not every 2 s on the clock.
        await asyncio.sleep(every)


async def stream(
    port: int, phone: Phone, table: Table, figures: Figures, every: float, until: float
) -> None:
    """A phone watching the scoreboard by its event stream: drawn once, then asked again each
    time the stream names a new revision; polling instead while the stream is refused."""
    await asyncio.sleep(random.uniform(0, every))
    follower = Follower(phone, table, figures, streaming=True)
    await follower.look()
    # follow.js: the stream the page names, since the revision it shows (EventSource comes back
    # to the same address when a stream's lifetime ends).
    path = follower.stream or f"{table.path}/events"
    path += ("&" if "?" in path else "?") + urllib.parse.urlencode({"since": follower.known})
    await hold_stream(port, path, follower, figures, every, until, phone.address)


class Looker(Protocol):
    """A page that follows a stream: it looks at itself again when it must."""

    async def look(self) -> None: ...

    async def heard(self, data: str) -> None:
        """What the page does with an event's data (a revision, or news of it)."""

    def polling(self) -> None:
        """Its stream was refused: it polls from now on."""


async def hold_stream(
    port: int,
    path: str,
    follower: Looker,
    figures: Figures,
    every: float,
    until: float,
    address: str = "127.0.0.1",
) -> None:
    """The event stream at `path`, held as static/js/follow.js holds it: opened again when its
    lifetime ends, `follower` hearing each event's data (beats, and `gone` or `refused`, which
    no page of these sees, are not its), and polling every `every` s once the stream is
    refused."""
    loop = asyncio.get_running_loop()
    while loop.time() < until:
        writer = None
        began = time.perf_counter()
        try:
            reader, writer = await asyncio.open_connection(
                "127.0.0.1", port, local_addr=(address, 0)
            )
            writer.write(
                f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Accept: text/event-stream\r\n\r\n".encode()
            )
            status = int((await asyncio.wait_for(reader.readline(), TIMEOUT)).split()[1])
            chunked = False
            while (header := await asyncio.wait_for(reader.readline(), TIMEOUT)).strip():
                name, _, value = header.decode("latin-1").partition(":")
                if name.strip().lower() == "transfer-encoding":
                    chunked = "chunked" in value.lower()
            if status != 200:
                figures.refused += status == 204
                follower.polling()
                writer.close()
                while loop.time() < until:  # follow.js polls once the stream is refused
                    await asyncio.sleep(every)
                    await follower.look()
                return
            figures.streams += 1
            figures.most_streams = max(figures.most_streams, figures.streams)
            first = True
            kind, data = "message", ""
            try:
                # Its lifetime over, the lines end: follow.js's EventSource comes back.
                async for text in event_lines(reader, chunked, until):
                    if text.startswith("event: "):
                        kind = text[len("event: ") :]
                    elif text.startswith("data: "):
                        data = text[len("data: ") :]
                    elif not text:  # the event's end
                        if kind == "message" and data:
                            if first:
                                first = False
                                opened = (time.perf_counter() - began) * 1000
                                figures.note("stream", Answer(200, {}, b"", opened), 200)
                            await follower.heard(data)
                        kind, data = "message", ""
            finally:
                figures.streams -= 1
        except TimeoutError:
            pass
        except Exception as error:
            figures.failed("stream", error)
            await asyncio.sleep(random.uniform(2, 6))  # the stream's retry
        finally:
            if writer is not None:
                writer.close()


async def event_lines(
    reader: asyncio.StreamReader, chunked: bool, until: float
) -> AsyncIterator[str]:
    """The lines of an event stream's body until it ends or `until` (the loop's clock), its
    chunks (nginx cuts a long event where its buffer ends) joined first."""
    loop = asyncio.get_running_loop()
    kept = b""
    while (left := until - loop.time()) > 0:
        if chunked:
            size = int((await asyncio.wait_for(reader.readline(), left)).split(b";")[0] or b"0", 16)
            if not size:
                return
            piece = (await asyncio.wait_for(reader.readexactly(size + 2), left))[:-2]
        else:
            piece = await asyncio.wait_for(reader.read(65536), left)
            if not piece:
                return
        *lines, kept = (kept + piece).split(b"\n")
        for line in lines:
            yield line.rstrip(b"\r").decode()


FIELD = re.compile(r'<input[^>]*name="(csrf_token|token|after)"[^>]*value="([^"]*)"')


async def record(phone: Phone, table: Table, figures: Figures, every: float, until: float) -> None:
    """The phone that keeps score: a hand through the real form every `every` seconds."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.uniform(0, every))
    while loop.time() < until:
        began = loop.time()
        kind = "hand form"
        try:
            form = await phone.ask("GET", f"{table.path}/hands/new")
            figures.note(kind, form, 200)
            if form.status == 200:
                fields = {**dict(FIELD.findall(form.text())), **hand_fields(table.hands)}
                kind = "save"
                body = urllib.parse.urlencode(fields).encode()
                table.saving = True
                try:
                    saved = await phone.ask("POST", f"{table.path}/hands/new", body=body)
                finally:
                    table.saving = False
                figures.note(kind, saved, 302, 303)
                if saved.status in (302, 303):
                    table.saved_at = loop.time()
                    table.hands += 1
                    kind = "scoreboard"
                    location = urllib.parse.urlsplit(saved.headers["location"])
                    where = location.path + (f"?{location.query}" if location.query else "")
                    figures.note(kind, await phone.ask("GET", where), 200)
        except Exception as error:
            figures.failed(kind, error)
        await asyncio.sleep(max(0.0, random.uniform(every / 2, every) - (loop.time() - began)))


async def create_tables(port: int, tables: list[Table], wanted: int) -> None:
    """Games for the tables not made yet, through the app's import (as a club's would be)."""
    phone = Phone(port)
    while len(tables) < wanted:
        answer = await phone.ask(
            "POST", "/games/import", {"Content-Type": "application/json"}, json.dumps(GAME).encode()
        )
        if answer.status not in (200, 201):
            raise RuntimeError(f"import answered {answer.status}: {answer.text()[:300]}")
        tables.append(Table(json.loads(answer.text())["location"]))
    phone.close()


# --- CPU, from /proc ------------------------------------------------------------------------------

TICK = os.sysconf("SC_CLK_TCK")


def _stat(pid: int) -> list[str]:
    text = Path(f"/proc/{pid}/stat").read_text()
    return text[text.rindex(")") + 2 :].split()  # the fields after the command's name


def cpu_ticks(root: int) -> dict[int, int]:
    """User and system ticks of a process and of all its descendants, by pid."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError):
                parents[int(entry.name)] = int(_stat(int(entry.name))[1])
    tree, grown = {root}, True
    while grown:
        more = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= more
        grown = bool(more)
    ticks = {}
    for pid in tree:
        with contextlib.suppress(OSError):
            fields = _stat(pid)
            ticks[pid] = int(fields[11]) + int(fields[12])
    return ticks


def main_threads(root: int) -> dict[int, int]:
    """User and system ticks of the main thread of a process and of each of its descendants, by
    pid: waitress's event loop (every connection's reads and writes, and its poll over all of
    them), gunicorn's master and its workers' loops (gthread's poller), not the threads that
    run requests."""
    ticks = {}
    for pid in cpu_ticks(root):
        with contextlib.suppress(OSError):
            text = Path(f"/proc/{pid}/task/{pid}/stat").read_text()
            fields = text[text.rindex(")") + 2 :].split()
            ticks[pid] = int(fields[11]) + int(fields[12])
    return ticks


def cores(before: dict[int, int], after: dict[int, int], seconds: float) -> float:
    """Cores used meanwhile (a process born meanwhile counts its whole life)."""
    return sum(t - before.get(pid, 0) for pid, t in after.items()) / TICK / seconds


# --- one step -----------------------------------------------------------------------------------


@dataclass
class Setup:
    name: str
    port: int
    server: int
    """The server's pid (with its workers, its children)."""
    database: int | None = None
    """PostgreSQL's postmaster pid (with its backends)."""
    proxy: int | None = None
    """nginx's master pid (with its workers)."""
    tables: list[Table] = field(default_factory=list)


def followers(
    port: int,
    phones: list[Phone],
    table: Table,
    figures: Figures,
    options: argparse.Namespace,
    until: float,
    number: int,
) -> list[Coroutine[None, None, None]]:
    """A table's four followers (added to `phones`): `options.pollers` of them poll, the rest
    hold the game's event stream. A share under one is spread over the tables by their
    `number` (0.1: one follower polls at every tenth table)."""
    tasks = []
    pollers = int((number + 1) * options.pollers) - int(number * options.pollers)
    for index in range(4):
        phones.append(Phone(port))
        if index < pollers:
            tasks.append(follow(phones[-1], table, figures, options.poll_every, until))
        else:
            tasks.append(stream(port, phones[-1], table, figures, options.poll_every, until))
    return tasks


async def step(setup: Setup, count: int, options: argparse.Namespace) -> Figures:
    """`count` tables for `options.seconds` after a warm-up; what they measured."""
    await create_tables(setup.port, setup.tables, count)
    figures = Figures()
    loop = asyncio.get_running_loop()
    until = loop.time() + options.warm_up + options.seconds
    phones: list[Phone] = []
    tasks = []
    resident = rss(setup.server)
    for number, table in enumerate(setup.tables[:count]):
        tasks += followers(setup.port, phones, table, figures, options, until, number)
        phones.append(Phone(setup.port))
        tasks.append(record(phones[-1], table, figures, options.hand_every, until))
    running = asyncio.gather(*tasks)
    await asyncio.sleep(options.warm_up)
    figures.measuring = True
    per_stream = (rss(setup.server) - resident) / max(figures.streams, 1)
    # (what the server holds for its followers' streams and kept-alive connections, by stream)
    server, database = cpu_ticks(setup.server), cpu_ticks(setup.database or setup.server)
    loops = main_threads(setup.server)
    proxy = cpu_ticks(setup.proxy) if setup.proxy is not None else None
    client = os.times()
    began = time.perf_counter()
    await asyncio.sleep(options.seconds)
    figures.measuring = False
    took = time.perf_counter() - began
    mine = os.times()
    server_cores = cores(server, cpu_ticks(setup.server), took)
    loop_cores = cores(loops, main_threads(setup.server), took)
    database_cores = (
        cores(database, cpu_ticks(setup.database), took) if setup.database is not None else None
    )
    proxy_cores = (
        cores(proxy, cpu_ticks(setup.proxy), took)
        if proxy is not None and setup.proxy is not None
        else None
    )
    client_cores = (mine.user + mine.system - client.user - client.system) / took
    streams, refused = figures.most_streams, figures.refused
    await running
    for phone in phones:
        phone.close()
    show(setup.name, count, figures, server_cores, database_cores, client_cores, took)
    told = [
        f"{name} {percentile(times, 50):.0f}/{percentile(times, 99):.0f} ms ({len(times)})"
        for name, times in (("by stream", figures.told), ("by poll", figures.told_polled))
        if times
    ]
    print(
        f"    save -> each follower's new page p50/p99: {', '.join(told) or 'no save seen'}; "
        f"streams open {streams}, refused {refused}; server memory per stream "
        f"{per_stream / 1024:.0f} KiB; news {dict(figures.news) or 'none'}"
        + ("" if proxy_cores is None else f"; proxy CPU {proxy_cores:.2f} cores"),
        flush=True,
    )
    # What a table costs the server per hand (issue 36): its CPU over the step, every request of
    # the step counted (the save, the form, the followers' pages, streams and polls), per save.
    saves = max(len(figures.times["save"]), 1)
    others = {"database": database_cores, "proxy": proxy_cores}
    more = "".join(
        f", {name} {used * took * 1000 / saves:.1f} ms" for name, used in others.items() if used
    )
    print(
        f"    CPU per saved hand: server {server_cores * took * 1000 / saves:.1f} ms (its main "
        f"threads' loops {loop_cores * took * 1000 / saves:.1f} ms){more}"
    )
    return figures


def rss(root: int) -> int:
    """The resident memory of a process and its descendants, in bytes."""
    total = 0
    for pid in cpu_ticks(root):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1]) * 1024
    return total


def show(
    name: str,
    count: int,
    figures: Figures,
    server: float,
    database: float | None,
    client: float,
    took: float,
) -> None:
    parts = []
    for kind, times in figures.times.items():
        p50, p99 = percentile(times, 50), percentile(times, 99)
        parts.append(f"{kind} {p50:.0f}/{p99:.0f} ms ({len(times)})")
    errors = sum(figures.errors.values())
    held = "held" if figures.held() else "NOT held"
    print(f"{name}, {count} tables: {held}; p50/p99: " + ", ".join(parts))
    used = f"server {server:.2f}" + ("" if database is None else f", database {database:.2f}")
    detail = f" {dict(figures.errors)}" if errors else ""
    # The server's CPU per request answered: what a table costs, whatever the host's speed today
    # (compare it with benchmarks/pages.py's bare Flask response, measured the same day).
    answered = sum(len(times) for times in figures.times.values()) + errors
    each = server * took * 1000 / max(answered, 1)
    print(
        f"    errors {errors}{detail}; CPU in cores: {used}, client {client:.2f}; "
        f"server CPU per request {each:.2f} ms",
        flush=True,
    )


async def search(setup: Setup, options: argparse.Namespace) -> None:
    """Grow the tables step by step while they hold and the time allows; say the largest held."""
    deadline = time.monotonic() + options.max_minutes * 60
    counts = [options.tables] if options.tables else range(options.start, 10**6, options.step)
    largest = 0
    for count in counts:
        figures = await step(setup, count, options)
        if not figures.held():
            break
        largest = count
        # The next step takes as long as this one did, and more to make its games.
        if time.monotonic() + options.warm_up + options.seconds + 10 > deadline:
            print(f"{setup.name}: time is up (--max-minutes)")
            break
    print(f"{setup.name}: the largest club night held: {largest} tables\n", flush=True)


# --- the servers ------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(process: subprocess.Popen[bytes], port: int, log: Path) -> None:
    """Until the server answers /healthz, for at most five minutes (a busy machine's start)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if process.poll() is not None:
            break
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1) as s:
            s.sendall(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode())
            if s.recv(100).startswith(b"HTTP/1.1 200"):
                return
        time.sleep(0.2)
    raise RuntimeError(f"the server did not start:\n{log.read_text()[-3000:]}")


@contextlib.contextmanager
def server(
    command: list[str], env: dict[str, str], folder: Path, port: int
) -> Iterator[subprocess.Popen[bytes]]:
    subprocess.run([str(BIN / "scorekeeper"), "upgrade"], env=env, check=True, capture_output=True)
    log = folder / "server.log"  # a file, not a pipe: a full pipe would stop the server
    with log.open("wb") as written:
        process = subprocess.Popen(command, env=env, stdout=written, stderr=written)
    try:
        wait_for(process, port, log)
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=60)
        except subprocess.TimeoutExpired:  # a worker still held by a client: stopped anyway
            process.kill()
            process.wait()


def app_env(folder: Path, url: str, options: argparse.Namespace) -> dict[str, str]:
    return {
        **os.environ,
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "one key for every worker",
        "SCOREKEEPER_INSTANCE_PATH": str(folder / "instance"),
        "SCOREKEEPER_LOG_LEVEL": options.log_level,
    }


@contextlib.contextmanager
def sqlite_waitress(folder: Path, options: argparse.Namespace) -> Iterator[Setup]:
    """`scorekeeper serve` (waitress, its own settings) on a SQLite file."""
    env = app_env(folder, f"sqlite:///{folder / 'club.sqlite3'}", options)
    port = free_port()
    command = [str(BIN / "scorekeeper"), "serve", "--host", "127.0.0.1", "--port", str(port)]
    with server(command, env, folder, port) as process:
        yield Setup("SQLite + waitress", port, process.pid)


@contextlib.contextmanager
def postgresql() -> Iterator[tuple[str, int]]:
    """A throw-away PostgreSQL cluster (the tests', made durable: commits synced, as a club's
    server has them); its URL and its pid."""
    cluster = postgres.start(durable=True)
    try:
        pid = int((cluster.folder / "data" / "postmaster.pid").read_text().split()[0])
        yield cluster.url, pid
    finally:
        cluster.stop()


@contextlib.contextmanager
def postgres_gunicorn(folder: Path, options: argparse.Namespace) -> Iterator[Setup]:
    """gunicorn with `--workers` workers of `--worker-class`, as the README hosts a club, on
    PostgreSQL, behind the README's nginx (plain HTTP on loopback)."""
    name = f"PostgreSQL + gunicorn {options.worker_class} + nginx"
    binary = shutil.which("gunicorn", path=str(BIN))
    if binary is None or postgres.binaries() is None:
        print(f"{name}: skipped (needs Debian's postgresql and the server extra)")
        yield Setup(name, 0, 0)
        return
    streams = {"gevent": 3000, "gthread": max(0, options.threads - 50), "sync": 0}
    with postgresql() as (url, database):
        env = {
            **app_env(folder, url, options),
            "SCOREKEEPER_STREAMS": str(options.streams or streams[options.worker_class]),
            # Behind nginx, as the README sets it: each phone's own address, from X-Forwarded-For.
            "SCOREKEEPER_PROXY_FIX": "0" if options.no_proxy else "1",
        }
        port = free_port()
        command = [binary, "-w", str(options.workers), "-b", f"127.0.0.1:{port}"]
        # A stream ends only with its lifetime: a stop waits 5 s for them, not gunicorn's 30.
        command += ["-k", options.worker_class, "--graceful-timeout", "5"]
        if options.worker_class == "gthread":
            command += ["--threads", str(options.threads)]
        # gunicorn's 1,000 connections a worker, over which gthread accepts no one until a
        # kept-alive connection closes (seconds): every phone holds one, a stream a second.
        command += ["--worker-connections", str(options.worker_connections)]
        command += ["scorekeeper.web:create_app()"]
        with server(command, env, folder, port) as process:
            if options.no_proxy:
                yield Setup(name, port, process.pid, database)
                return
            with reverse_proxy.nginx_in_front(port, folder / "nginx", tls=False) as proxied:
                proxy = int((folder / "nginx" / "nginx.pid").read_text().split()[0])
                yield Setup(name, proxied, process.pid, database, proxy)


def phone_options(parser: argparse.ArgumentParser) -> None:
    """How the phones of a table play: how often they ask, record and poll (night.py's too)."""
    parser.add_argument("--poll-every", type=float, default=2.0)
    parser.add_argument(
        "--hand-every", type=float, default=60.0, help="a hand per table every half to all of it"
    )
    parser.add_argument(
        "--pollers", type=float, default=1, help="of the four followers a table (0.1: a tenth)"
    )


def server_options(parser: argparse.ArgumentParser) -> None:
    """The options of the servers started here (`postgres_gunicorn` reads them; night.py, which
    starts them too, takes the same)."""
    parser.add_argument("--workers", type=int, default=2, help="gunicorn's")
    parser.add_argument("--worker-class", choices=("gevent", "gthread", "sync"), default="gthread")
    parser.add_argument("--threads", type=int, default=600, help="gunicorn's gthread, per worker")
    parser.add_argument(
        "--worker-connections", type=int, default=4000, help="gunicorn's, per worker"
    )
    parser.add_argument("--streams", type=int, help="SCOREKEEPER_STREAMS under gunicorn")
    parser.add_argument("--no-proxy", action="store_true", help="gunicorn without nginx")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=("sqlite", "postgres", "both"), default="both")
    parser.add_argument("--tables", type=int, help="one step of this many tables, no search")
    parser.add_argument("--start", type=int, default=25, help="tables of the first step")
    parser.add_argument("--step", type=int, default=25, help="tables added at each step")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured, per step")
    parser.add_argument(
        "--warm-up",
        type=float,
        default=45.0,
        # Every phone of a step arrives at once: each page drawn anew, each stream opened. At
        # 250 tables that takes the server some 20 s, which is no club's steady evening.
        help="unmeasured, per step",
    )
    parser.add_argument("--max-minutes", type=float, default=15.0, help="per set-up")
    phone_options(parser)
    server_options(parser)
    parser.add_argument("--log-level", default="INFO", help="the app's (a line per request)")
    parser.add_argument(
        "--night", type=int, default=0, help="then one night of N tables (night.py)"
    )
    options = parser.parse_args()
    # A phone is a socket here and one in the server: 500 tables are 2,500 of each.
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    setups = {"sqlite": [sqlite_waitress], "postgres": [postgres_gunicorn]}.get(
        options.setup, [sqlite_waitress, postgres_gunicorn]
    )
    for start in setups:
        with tempfile.TemporaryDirectory() as name, start(Path(name), options) as setup:
            if setup.port:
                asyncio.run(search(setup, options))
    if options.night:
        import night  # benchmarks/night.py, beside this file

        night.main(["--setup", options.setup, "--tables", str(options.night)])


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""A club night under load (issue 29): one night of N tables against a real server, on loopback.

The night is set up through its form (2N pairs, a Mitchell movement) and its round 1 started
from the director's page. Each table's recording phone opens its table card, which leads it to
its game, and records a hand every half to whole `--hand-every` seconds through the real hand
form (`club_night.record`, the single games' recorder); four more phones per table follow that
game's scoreboard, and `--viewers` screens follow the standings (the room's screen and players'
phones): as static/js/follow.js does, by the event stream of the game or the night, asking again
with the ETag they hold at each revision named, but `--pollers` of each (a phone whose browser
holds no stream) asking every `--poll-every` seconds.
The phones are `club_night.py`'s (raw sockets, asyncio, their own cookies).

It prints the p50 and p99 of each kind of request (above all the standings and the saves), the
errors, the CPU of the server, and how many standings pages were drawn against how many were
asked: the standings are drawn once per change of the night (a save at any table), not once per
viewer. It prints, it never asserts.

Run: `.venv/bin/python benchmarks/night.py [--setup sqlite|postgres|both] [--tables 30]
[--seconds 60] [--viewers 10]`; `club_night.py --night` runs it after the single games.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import re
import resource
import sys
import tempfile
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import club_night
from club_night import Answer, Figures, Phone, Table, cores, cpu_ticks, percentile

KINDS = ("standings", "standings poll", "poll", "scoreboard", "hand form", "save", "stream")
"""standings: the page drawn for a viewer (200); standings poll: asked with its ETag, 304;
the rest as club_night.py counts them (a table's game)."""
TOKEN = re.compile(r'name="(csrf_token|token)"[^>]*value="([^"]*)"')
CARD = re.compile(r'data-card="(\d+)" href="http://[^/]+(/tables/[^"]+)"')
STANDINGS = re.compile(r'id="standings-link" href="http://[^/]+(/standings/[^"]+)"')


def location(answer: Answer) -> str:
    found = urllib.parse.urlsplit(answer.headers["location"])
    return found.path + (f"?{found.query}" if found.query else "")


async def post_form(phone: Phone, page: str, action: str, fields: dict[str, str]) -> Answer:
    """A form as a browser sends it: its page read for the CSRF and one-time tokens first."""
    form = await phone.ask("GET", page)
    tokens = dict(TOKEN.findall(form.text()))
    body = urllib.parse.urlencode({**tokens, **fields}).encode()
    return await phone.ask("POST", action, body=body)


@dataclass
class Night:
    director: Phone
    night_id: str
    standings: str
    cards: dict[int, str]


async def set_up(port: int, tables: int) -> Night:
    """A night of 2 × `tables` pairs through its form, round 1 started."""
    director = Phone(port)
    pairs = 2 * tables
    fields = {
        "name": f"Night of {tables} tables",
        "system": "classic",
        "movement": "mitchell",
        "ranking": "wins",
        # A Mitchell has as many rounds as tables before two pairs meet again.
        "round_count": str(min(3, tables)),
        **{f"pairs-{i}-first": f"North{i}" for i in range(pairs)},
        **{f"pairs-{i}-second": f"South{i}" for i in range(pairs)},
    }
    page = f"/nights/new?pairs={pairs}"
    made = await post_form(director, page, page, fields)
    if made.status != 302:
        raise RuntimeError(f"the night's form answered {made.status}: {made.text()[:300]}")
    night_id = location(made).split("/")[2]
    started = await post_form(
        director, f"/nights/{night_id}", f"/nights/{night_id}/start", {"round": "1"}
    )
    if started.status != 302:
        raise RuntimeError(f"starting round 1 answered {started.status}")
    cards_page = (await director.ask("GET", f"/nights/{night_id}/cards")).text()
    cards = {int(n): path for n, path in CARD.findall(cards_page)}
    found = STANDINGS.search(cards_page)
    assert found is not None
    return Night(director, night_id, found.group(1), cards)


class Screen:
    """A screen on the standings, as static/js/follow.js follows them: asked with the ETag held."""

    def __init__(self, phone: Phone, path: str, figures: Figures) -> None:
        self.phone, self.path, self.figures = phone, path, figures
        self.etag = ""
        self.known = ""

    def polling(self) -> None:
        pass

    async def heard(self, data: str) -> None:
        """follow.js: a revision named (the night's stream carries no news) that is not the one
        shown makes the page ask for itself."""
        if data != self.known:
            self.known = data
            await self.look()

    async def look(self) -> None:
        kind = "standings poll" if self.etag else "standings"
        headers = {"If-None-Match": self.etag} if self.etag else {}
        try:
            answer = await self.phone.ask("GET", self.path, headers)
        except Exception as error:
            self.figures.failed(kind, error)
            return
        if answer.status == 304:
            self.figures.note("standings poll", answer, 304)
        else:
            self.figures.note("standings", answer, 200)
            self.etag = answer.headers.get("etag", "") if answer.status == 200 else ""
            if answer.status == 200 and (hub := club_night.HUB.search(answer.text())):
                self.known = hub[2]


async def watch(
    port: int, screen: Screen, figures: Figures, options: argparse.Namespace, until: float
) -> None:
    """A screen following the standings: drawn once, then by the night's stream (every one but
    the first `--pollers` screens, which poll every `--poll-every` s)."""
    loop = asyncio.get_running_loop()
    await asyncio.sleep(random.uniform(0, options.poll_every))
    await screen.look()
    if options.streaming:
        path = f"{screen.path}/events"
        await club_night.hold_stream(port, path, screen, figures, options.poll_every, until)
    while loop.time() < until:
        await asyncio.sleep(options.poll_every)
        await screen.look()


async def run(setup: club_night.Setup, options: argparse.Namespace) -> None:
    night = await set_up(setup.port, options.tables)
    figures = Figures(times={kind: [] for kind in KINDS})
    loop = asyncio.get_running_loop()
    until = loop.time() + options.warm_up + options.seconds
    phones: list[Phone] = [night.director]
    tasks = []
    tables = []
    for number in sorted(night.cards):
        recorder = Phone(setup.port)
        phones.append(recorder)
        landing = await recorder.ask("GET", night.cards[number])  # the card: join, and the game
        if landing.status != 302:
            raise RuntimeError(f"table {number}'s card answered {landing.status}")
        table = Table(location(landing))
        tables.append(table)
        tasks.append(club_night.record(recorder, table, figures, options.hand_every, until))
        tasks += club_night.followers(setup.port, phones, table, figures, options, until, number)
    for index in range(options.viewers):
        phones.append(Phone(setup.port))
        screen = Screen(phones[-1], night.standings, figures)
        watching = argparse.Namespace(**vars(options), streaming=index >= options.pollers)
        tasks.append(watch(setup.port, screen, figures, watching, until))
    running = asyncio.gather(*tasks)
    await asyncio.sleep(options.warm_up)
    figures.measuring = True
    saved_before = sum(t.hands for t in tables)
    server = cpu_ticks(setup.server)
    began = time.perf_counter()
    await asyncio.sleep(options.seconds)
    figures.measuring = False
    took = time.perf_counter() - began
    server_cores = cores(server, cpu_ticks(setup.server), took)
    saves = sum(t.hands for t in tables) - saved_before
    await running
    for phone in phones:
        phone.close()
    print(f"{setup.name}: a night of {options.tables} tables, {options.viewers} standings screens")
    for kind, times in figures.times.items():
        p50, p99 = percentile(times, 50), percentile(times, 99)
        print(f"    {kind:15} p50 {p50:6.0f} ms   p99 {p99:6.0f} ms   ({len(times)})")
    drawn, asked = len(figures.times["standings"]), drawn_plus(figures)
    print(
        f"    standings: {asked} asked, {drawn} answered with a page, {saves} hands saved"
        f" (each a change of the night); errors {sum(figures.errors.values())}"
        f" {dict(figures.errors) if figures.errors else ''}; server CPU {server_cores:.2f} cores",
    )
    told = [
        f"{name} {percentile(times, 50):.0f}/{percentile(times, 99):.0f} ms ({len(times)})"
        for name, times in (("by stream", figures.told), ("by poll", figures.told_polled))
        if times
    ]
    print(f"    save -> each follower's new page p50/p99: {', '.join(told) or 'none'}", flush=True)


def drawn_plus(figures: Figures) -> int:
    return len(figures.times["standings"]) + len(figures.times["standings poll"])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--setup", choices=("sqlite", "postgres", "both"), default="sqlite")
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--viewers", type=int, default=10, help="screens on the standings")
    parser.add_argument("--seconds", type=float, default=60.0, help="measured")
    parser.add_argument("--warm-up", type=float, default=5.0, help="unmeasured")
    club_night.phone_options(parser)  # the same phones as club_night.py's
    club_night.server_options(parser)  # the same servers as club_night.py's
    parser.add_argument("--log-level", default="WARNING", help="the app's")
    options = parser.parse_args(argv)
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    setups = {
        "sqlite": [club_night.sqlite_waitress],
        "postgres": [club_night.postgres_gunicorn],
    }.get(options.setup, [club_night.sqlite_waitress, club_night.postgres_gunicorn])
    for start in setups:
        with tempfile.TemporaryDirectory() as name, start(Path(name), options) as setup:
            if setup.port:
                asyncio.run(run(setup, options))


if __name__ == "__main__":
    main()

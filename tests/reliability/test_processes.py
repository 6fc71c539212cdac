"""Several processes, one truth: two `scorekeeper serve` processes on one PostgreSQL database.

A club runs several app processes; the phones of one table may each reach another. Everything
that keeps a table honest lives in the database, so it must hold across processes: the per-game
write lock (no hand doubled or lost when phones on both processes save at once), the kept pages
(a hand saved through one process is on the other's pages at once), the slowing of wrong PINs
and the share links. The phones go through the real pages, with their session and CSRF token.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services.access import FREE_TRIES
from scorekeeper.web.store.models import Hand, PinAttempt
from tests import postgres
from tests.helpers import ROOT, free_port, start_serve, wait_until_answering

from .live import Browser, games_off_the_replay, stock_hand

pytestmark = [pytest.mark.slow, pytest.mark.once]

PIN = "2468"
ROUNDS = 10
PHONES = 4


@dataclass(frozen=True)
class Club:
    """Two app processes on one database, and an app of the test's own to look into it."""

    ports: tuple[int, int]
    database: Flask

    def phone(self, process: int) -> Browser:
        """A phone whose requests reach process 0 or 1."""
        return Browser(self.ports[process % 2])

    def hands(self, game_id: str) -> list[int]:
        """The numbers of the game's hands that count, as stored."""
        with self.database.app_context():
            numbers = db.session.scalars(
                select(Hand.position)
                .where(Hand.game_id == game_id, Hand.deleted_at.is_(None))
                .order_by(Hand.position)
            ).all()
            db.session.rollback()
        return list(numbers)


def serve(url: str, port: int, instance: Path, pin: str | None) -> subprocess.Popen[bytes]:
    """`scorekeeper serve` on `url`, as a club runs each process: one secret key for all."""
    settings = {
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_SECRET_KEY": "one key for every process",
        "SCOREKEEPER_INSTANCE_PATH": str(instance),
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
    }
    if pin:
        settings["SCOREKEEPER_PIN"] = pin
    return start_serve(port, settings)


@contextmanager
def two_processes(tmp_path: Path, pin: str | None = None) -> Iterator[Club]:
    url = postgres.database_or_skip()
    # Upgraded once before either starts, as the README's set-up does; each `serve` then
    # finds nothing to do.
    upgrade = [sys.executable, "-m", "scorekeeper", "upgrade"]
    env = {**os.environ, "SCOREKEEPER_DATABASE_URL": url}
    subprocess.run(upgrade, cwd=ROOT, env=env, check=True, capture_output=True)
    ports = free_port(), free_port()
    servers = [serve(url, port, tmp_path / "instance", pin) for port in ports]
    database = create_app({"TESTING": True, "SECRET_KEY": "x", "SQLALCHEMY_DATABASE_URI": url})
    try:
        for server, port in zip(servers, ports, strict=True):
            wait_until_answering(server, port, "/healthz")
        yield Club(ports, database)
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait(timeout=30)
        with database.app_context():
            db.engine.dispose()


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run every call at the same moment, each in its own thread; their results in order."""
    start = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        results[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(result is not None for result in results), "a phone got no answer"
    return results


def new_game(phone: Browser) -> str:
    path = "/games/new?system=classic&table=2x2"
    names = {**phone.form(path), "side_list-0-name": "Us", "side_list-1-name": "Them"}
    status, where = phone.send("POST", path, names)
    assert status == 302, where
    return where.rsplit("/", 1)[1]


def hands_shown(phone: Browser, game_id: str) -> int:
    """The number of hands a process's page says the game has (a kept page, if it has one)."""
    status, body = phone.send("GET", f"/games/{game_id}/state.json")
    assert status == 200, body
    return int(re.search(r'"hands":\s*(\d+)', body).group(1))  # type: ignore[union-attr]


def test_phones_on_two_processes_saving_the_same_hand_record_it_once(
    tmp_path: Path, figures: Counter[str]
) -> None:
    with two_processes(tmp_path) as club:
        phones = [club.phone(n) for n in range(PHONES)]
        readers = [club.phone(0), club.phone(1)]
        game_id = new_game(phones[0])
        url = f"/games/{game_id}/hands/new"
        for saved in range(1, ROUNDS + 1):
            forms = [phone.form(url) for phone in phones]
            saves = [
                partial(phone.send, "POST", url, {**form, **stock_hand(60 + 5 * n)})
                for n, (phone, form) in enumerate(zip(phones, forms, strict=True))
            ]
            # Reads through both processes while the hand is being saved.
            reads = [partial(reader.send, "GET", f"/games/{game_id}") for reader in readers]
            answers = at_once(*saves, *reads)
            statuses = [status for status, _ in answers]
            stored = club.hands(game_id)
            # Once the save was answered, both processes show it.
            shown = [hands_shown(reader, game_id) for reader in readers]
            figures["rounds run on two processes"] += 1
            figures["5xx seen on two processes"] += sum(status >= 500 for status in statuses)
            figures["hands lost or doubled on two processes"] += abs(len(stored) - saved)
            figures["stale pages on two processes"] += sum(count != saved for count in shown)
            assert all(status < 500 for status in statuses), answers
            assert sorted(statuses[:PHONES]) == [302] + [409] * (PHONES - 1), answers
            assert statuses[PHONES:] == [200, 200]
            assert stored == list(range(1, saved + 1))
            assert shown == [saved, saved]
        assert games_off_the_replay(club.database) == []


def test_a_double_tap_reaching_both_processes_records_one_hand(tmp_path: Path) -> None:
    with two_processes(tmp_path) as club:
        phone_on_first, phone_on_second = club.phone(0), club.phone(1)
        game_id = new_game(phone_on_first)
        url = f"/games/{game_id}/hands/new"
        for saved in range(1, ROUNDS + 1):
            # One phone's Save sent twice, each reaching another process: the same session,
            # the same form.
            data = {**phone_on_first.form(url), **stock_hand()}
            phone_on_second.cookie = phone_on_first.cookie
            answers = at_once(
                partial(phone_on_first.send, "POST", url, data),
                partial(phone_on_second.send, "POST", url, data),
            )
            assert [status for status, _ in answers] == [302, 302], answers
            assert answers[0][1] == answers[1][1]
            assert club.hands(game_id) == list(range(1, saved + 1))


def wrong_pin(phone: Browser) -> int:
    status, _ = phone.send("POST", "/pin", {**phone.form("/pin"), "pin": "0000"})
    return status


def test_wrong_pins_sent_to_either_process_slow_the_next_guess_on_both(tmp_path: Path) -> None:
    with two_processes(tmp_path, pin=PIN) as club:
        guesser = [club.phone(0), club.phone(1)]
        # Each guess goes to the other process than the one before.
        statuses = [wrong_pin(guesser[n % 2]) for n in range(FREE_TRIES)]
        assert statuses == [422] * FREE_TRIES
        with club.database.app_context():
            attempt = db.session.get(PinAttempt, "127.0.0.1")
            assert attempt is not None and attempt.failures == FREE_TRIES
        # Past the free tries the next guess waits, even the right PIN, on either process.
        for phone in guesser:
            status, _ = phone.send("POST", "/pin", {**phone.form("/pin"), "pin": PIN})
            assert status == 429


def test_a_join_link_made_on_one_process_works_on_the_other_until_renewed(
    tmp_path: Path,
) -> None:
    with two_processes(tmp_path, pin=PIN) as club:
        host, guest_on_first = club.phone(0), club.phone(0)
        status, _ = host.send("POST", "/pin", {**host.form("/pin"), "pin": PIN})
        assert status == 302
        game_id = new_game(host)
        share = f"/games/{game_id}/share"
        join = re.search(r"/join/[\w-]+", host.send("GET", share)[1]).group(0)  # type: ignore[union-attr]
        url = f"/games/{game_id}/hands/new"
        assert guest_on_first.send("GET", url)[0] == 403

        # Opened through the second process, the link lets the guest record through the first.
        guest_on_second = club.phone(1)
        assert guest_on_second.send("GET", join)[0] == 302
        guest_on_first.cookie = guest_on_second.cookie
        status, where = guest_on_first.send(
            "POST", url, {**guest_on_first.form(url), **stock_hand()}
        )
        assert status == 302, where
        assert club.hands(game_id) == [1]

        # New links made through the first process: the old one stops on the second at once.
        renew = host.form(share)
        assert host.send("POST", f"{share}/renew", renew)[0] == 302
        assert guest_on_second.send("GET", url)[0] == 403
        assert guest_on_second.send("GET", join)[0] == 404

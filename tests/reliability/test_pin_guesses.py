"""PIN guesses sent at once, against a live server on the run's database: each is counted
before it is checked, atomically, so forty at once from one address get only the free tries
checked, and two first guesses at once from a new address are both counted (on PostgreSQL the
second once failed on the address's key, a 500, and was not counted)."""

from __future__ import annotations

import http.client
import threading
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.web.extensions import db
from scorekeeper.web.services.access import FREE_TRIES
from scorekeeper.web.serving import waitress_settings
from scorekeeper.web.store.models import PinAttempt
from tests.web.apps import TEST_CONFIG, built_app, database_url

from .live import served

PIN = "2468"
AT_ONCE = 40
RACES = 30


@pytest.fixture
def guarded(tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    """A table with a PIN behind one proxy (each guess says its address), served by waitress
    as `scorekeeper serve` serves it."""
    url = database_url(tmp_path, "guesses.sqlite3")
    config = {"SQLALCHEMY_DATABASE_URI": url, "PIN": PIN, "PROXY_FIX": 1}
    app = built_app({**TEST_CONFIG, **config, "PROPAGATE_EXCEPTIONS": False})
    with served(app, **waitress_settings(app)) as base_url:
        yield app, base_url


def guess(base_url: str, address: str, pin: str = "0000") -> int:
    """One PIN sent from `address` (as the proxy says); the answer's status."""
    where = urlsplit(base_url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=60)
    try:
        headers = {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": address,
        }
        connection.request("POST", "/pin", urlencode({"pin": pin, "next": "/"}), headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def at_once(base_url: str, addresses: list[str]) -> Counter[int]:
    """A guess from each of `addresses`, all let go at the same moment; the statuses."""
    start = threading.Barrier(len(addresses))
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def send(address: str) -> None:
        start.wait()
        status = guess(base_url, address)
        with lock:
            statuses[status] += 1

    threads = [threading.Thread(target=send, args=(address,)) for address in addresses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def counted(app: Flask) -> dict[str, int]:
    with app.app_context():
        rows = db.session.execute(select(PinAttempt.address, PinAttempt.failures)).all()
        db.session.remove()
    return {row.address: row.failures for row in rows}


def test_forty_wrong_pins_at_once_from_one_address_get_only_the_free_tries_checked(
    guarded: tuple[Flask, str], figures: Counter[str]
) -> None:
    app, base_url = guarded
    statuses = at_once(base_url, ["198.51.100.7"] * AT_ONCE)
    figures["PIN guesses sent at once"] += AT_ONCE
    figures["PIN guesses checked of those"] += statuses[422]
    assert statuses[500] == 0
    assert statuses[422] == FREE_TRIES, statuses  # checked (and wrong)
    assert statuses[429] == AT_ONCE - FREE_TRIES, statuses  # not even read
    assert counted(app) == {"198.51.100.7": FREE_TRIES}


def test_two_first_wrong_pins_at_once_from_a_new_address_are_both_counted(
    guarded: tuple[Flask, str], figures: Counter[str]
) -> None:
    app, base_url = guarded
    statuses: Counter[int] = Counter()
    for race in range(RACES):
        statuses += at_once(base_url, [f"203.0.113.{race}"] * 2)
    figures["first wrong PINs raced"] += 2 * RACES
    figures["5xx seen"] += statuses[500]
    assert statuses == {422: 2 * RACES}
    assert counted(app) == {f"203.0.113.{race}": 2 for race in range(RACES)}

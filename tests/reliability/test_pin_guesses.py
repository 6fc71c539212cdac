"""PIN guesses sent at once, against live servers on the run's database (waitress as `scorekeeper
serve` runs it, and two gunicorn processes reached without a proxy): a right PIN never counts
against the wrong ones, so four phones behind one address typing it at once all come in; forty
wrong ones at once from one address get only the free tries answered, and in one process only
those are checked; two first guesses at once from a new address are both counted (on
PostgreSQL the second once failed on the address's key, a 500, and was not counted)."""

from __future__ import annotations

import http.client
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper.web.extensions import db
from scorekeeper.web.services import access
from scorekeeper.web.services.access import FREE_TRIES
from scorekeeper.web.serving import waitress_settings
from scorekeeper.web.store.models import PinAttempt
from tests.helpers import free_port, gunicorn_serve
from tests.web.apps import TEST_CONFIG, built_app, database_url

from .live import served

PIN = "2468"
AT_ONCE = 40
RACES = 30


@pytest.fixture(params=["waitress", "gunicorn"])
def guarded(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Flask, str]]:
    """A table with a PIN behind one proxy (each guess says its address), served by waitress as
    `scorekeeper serve` serves it, or by two gunicorn processes; the app (to read the database
    with) and the server's address."""
    url = database_url(tmp_path, "guesses.sqlite3")
    config = {"SQLALCHEMY_DATABASE_URI": url, "PIN": PIN, "PROXY_FIX": 1}
    app = built_app({**TEST_CONFIG, **config, "PROPAGATE_EXCEPTIONS": False})
    if request.param == "waitress":
        with served(app, **waitress_settings(app)) as base_url:
            yield app, base_url
        return
    settings = {
        "SCOREKEEPER_DATABASE_URL": url,
        "SCOREKEEPER_PIN": PIN,
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_SECRET_KEY": "guesses",
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
    }
    port = free_port()
    server = gunicorn_serve(port, settings, tmp_path / "gunicorn.log", workers=2, threads=8)
    try:
        yield app, f"http://127.0.0.1:{port}"
    finally:
        server.terminate()
        server.wait(timeout=30)


class Form:
    """The PIN's form as a phone holds it: its session cookie and CSRF token (any number of
    guesses may be sent with them)."""

    def __init__(self, base_url: str) -> None:
        where = urlsplit(base_url)
        self.host, self.port = where.hostname or "", where.port
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            connection.request("GET", "/pin")
            response = connection.getresponse()
            page = response.read().decode()
            self.cookie = (response.getheader("Set-Cookie") or "").split(";", 1)[0]
        finally:
            connection.close()
        token = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', page)
        self.token = token.group(1) if token else ""  # none where the app checks none

    def guess(self, address: str, pin: str = "0000") -> int:
        """One PIN sent from `address` (as the proxy says); the answer's status."""
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            headers = {
                "Content-Type": "application/x-www-form-urlencoded",
                "X-Forwarded-For": address,
                "Cookie": self.cookie,
            }
            body = urlencode({"pin": pin, "next": "/", "csrf_token": self.token})
            connection.request("POST", "/pin", body, headers)
            response = connection.getresponse()
            response.read()
            return response.status
        finally:
            connection.close()


def at_once(base_url: str, addresses: list[str], pin: str = "0000") -> Counter[int]:
    """A guess of `pin` from each of `addresses`, all let go at the same moment; the statuses."""
    form = Form(base_url)
    start = threading.Barrier(len(addresses))
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def send(address: str) -> None:
        start.wait()
        status = form.guess(address, pin)
        with lock:
            statuses[status] += 1

    threads = [threading.Thread(target=send, args=(address,)) for address in addresses]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    return statuses


def wrong_at_once(base_url: str, address: str) -> tuple[Counter[int], int]:
    """AT_ONCE wrong guesses from `address` let go at once: their statuses, and the most of
    them that may be answered. That is the free tries while the burst lasts under the first
    wait (2 s, as on a calm machine); one more for each wait (2 s, 4 s, 8 s, ...) the burst
    outlasted, since a guess that comes once its address's wait is over is rightly checked."""
    began = time.monotonic()
    statuses = at_once(base_url, [address] * AT_ONCE)
    lasted = time.monotonic() - began
    most, waited = FREE_TRIES, 0.0
    while waited + 2 ** (most - FREE_TRIES + 1) <= lasted:
        waited += 2 ** (most - FREE_TRIES + 1)
        most += 1
    return statuses, most


def counted(app: Flask) -> dict[str, int]:
    with app.app_context():
        rows = db.session.execute(select(PinAttempt.address, PinAttempt.failures)).all()
        db.session.remove()
    return {row.address: row.failures for row in rows}


def test_four_right_pins_at_once_from_one_address_all_come_in(
    guarded: tuple[Flask, str], figures: Counter[str]
) -> None:
    """A family or a club behind one address: the right PIN is never counted as a guess."""
    app, base_url = guarded
    statuses = at_once(base_url, ["198.51.100.9"] * 4, PIN)
    figures["right PINs sent at once"] += 4
    assert statuses == {302: 4}
    assert counted(app) == {}


def test_forty_wrong_pins_at_once_from_one_address_get_only_the_free_tries_answered(
    guarded: tuple[Flask, str], figures: Counter[str]
) -> None:
    app, base_url = guarded
    statuses, most = wrong_at_once(base_url, "198.51.100.7")
    figures["PIN guesses sent at once"] += AT_ONCE
    figures["PIN guesses answered of those"] += statuses[422]
    assert statuses[500] == 0
    assert FREE_TRIES <= statuses[422] <= most, statuses  # answered: wrong
    assert statuses[429] == AT_ONCE - statuses[422], statuses  # told to wait, right or wrong
    assert counted(app) == {"198.51.100.7": statuses[422]}


def test_forty_wrong_pins_at_once_from_one_address_get_only_the_free_tries_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each check is a slow hash on purpose: in one process a burst's guesses take turns, so
    that past the free tries the rest are refused without one."""
    checked = Counter[str]()
    check = access.check_password_hash

    def counting(hashed: str, entered: str) -> bool:
        checked[entered] += 1
        return check(hashed, entered)

    monkeypatch.setattr(access, "check_password_hash", counting)
    url = database_url(tmp_path, "checks.sqlite3")
    config = {"SQLALCHEMY_DATABASE_URI": url, "PIN": PIN, "PROXY_FIX": 1}
    app = built_app({**TEST_CONFIG, **config, "PROPAGATE_EXCEPTIONS": False})
    with served(app, **waitress_settings(app)) as base_url:
        statuses, most = wrong_at_once(base_url, "198.51.100.8")
    assert FREE_TRIES <= statuses[422] <= most, statuses
    assert checked == {"0000": statuses[422]}


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

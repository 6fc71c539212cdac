#!/usr/bin/env python3
"""How many PIN guesses get checked in a minute: from one address, and from twenty at once.

Serves a table with a PIN behind one proxy (`SCOREKEEPER_PROXY_FIX=1`, so each request says its
address in X-Forwarded-For) with waitress as `scorekeeper serve` does, on a throw-away SQLite
file, and lets 21 guessers go for `--seconds` (60): one address alone, and twenty others. Each
address has `--threads` (2) connections sending wrong PINs back to back, at most 10 a second
each (load kept bounded on a shared machine); an attacker could send more, but past the free
tries an address's guesses are answered 429, unchecked, until its wait is over, so more guesses
only mean more 429s. It prints how many guesses
were sent and how many were checked (answered 422, "not the PIN") per address.

The slowing it measures (services/access.py): 3 free tries, then each wrong guess doubles the
wait from 2 s up to 10 minutes, so a minute lets 3 + 4 guesses through (at 0 s, 2, 6, 14 and
30 s after the third) and each later ten minutes one: about 150 a day per address.

Run: `.venv/bin/python benchmarks/pin_guesses.py [--seconds 60] [--threads 2]`
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import waitress
from flask_migrate import upgrade

from scorekeeper.web import create_app
from scorekeeper.web.serving import waitress_settings

PIN = "2468"
PER_SECOND = 10


def guesser(port: int, address: str, until: float, answers: Counter[tuple[str, int]]) -> None:
    """Wrong PINs from `address` until `until`, counting each answer's status."""
    body = urlencode({"pin": "0000", "next": "/"})
    headers = {"Content-Type": "application/x-www-form-urlencoded", "X-Forwarded-For": address}
    while time.monotonic() < until:
        began = time.monotonic()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        try:
            connection.request("POST", "/pin", body, headers)
            response = connection.getresponse()
            response.read()
            answers[(address, response.status)] += 1
        except (OSError, http.client.HTTPException):
            answers[(address, 0)] += 1
        finally:
            connection.close()
        time.sleep(max(0.0, 1 / PER_SECOND - (time.monotonic() - began)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--threads", type=int, default=2)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "benchmark",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'pin.sqlite3'}",
                "WTF_CSRF_ENABLED": False,
                "PIN": PIN,
                "PROXY_FIX": 1,
                "LOG_LEVEL": "WARNING",
            }
        )
        with app.app_context():
            upgrade()
        server: Any = waitress.create_server(
            app, host="127.0.0.1", port=0, **waitress_settings(app)
        )
        serving = threading.Thread(target=server.run, daemon=True)
        serving.start()
        alone = "198.51.100.1"
        crowd = [f"203.0.113.{n}" for n in range(1, 21)]
        answers: Counter[tuple[str, int]] = Counter()
        until = time.monotonic() + options.seconds
        threads = [
            threading.Thread(target=guesser, args=(server.effective_port, address, until, answers))
            for address in [alone, *crowd]
            for _ in range(options.threads)
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        server.trigger.pull_trigger(server.close)
        server.task_dispatcher.shutdown()

    def tally(addresses: list[str], status: int | None = None) -> int:
        return sum(
            n
            for (address, answered), n in answers.items()
            if address in addresses and (status is None or answered == status)
        )

    for label, addresses in (("one address", [alone]), ("twenty addresses", crowd)):
        checked = tally(addresses, 422)
        server_errors = sum(
            n for (a, status), n in answers.items() if a in addresses and status >= 500
        )
        print(
            f"{label}: {tally(addresses)} guesses sent in {options.seconds:.0f} s, {checked} "
            f"checked ({checked / len(addresses):.1f} per address), {tally(addresses, 429)} "
            f"told to wait, {server_errors} server errors, {tally(addresses, 0)} unanswered "
            "within 30 s"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()

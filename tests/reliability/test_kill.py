"""`kill -9` of a live `scorekeeper serve` in the middle of saving hands loses no saved hand.

Each run starts the real command on a database file, saves hands through the real pages (CSRF
token and all) from a second thread, kills the server with SIGKILL at a random moment, and then
checks the file: every hand whose Save was answered is there, whole, and the stored totals are
the replay's. The next run starts the server again on the same file.
"""

from __future__ import annotations

import http.client
import random
import threading
import time
from collections import Counter
from pathlib import Path

import pytest
from sqlalchemy import select, text

from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Entry, Hand
from tests.helpers import free_port

from .live import Browser, database_app, games_off_the_replay, start_server

RUNS = 20


def save_hands(browser: Browser, game_id: str, saved: list[str], stop: threading.Event) -> None:
    """Save hands until the server goes away; `saved` gets the token of each answered Save."""
    while not stop.is_set():
        try:
            fields = browser.form(f"/games/{game_id}/hands/new")
            data = {
                **fields,
                "ending": "stock",
                "sides-0-melded_points": "60",
                "sides-1-melded_points": "60",
            }
            status, where = browser.send("POST", f"/games/{game_id}/hands/new", data)
        except (OSError, http.client.HTTPException):
            return  # killed
        assert status == 302, where
        saved.append(fields["token"])


@pytest.mark.sqlite  # what a SQLite file keeps through kill -9 of the process writing it
def test_kill_9_during_saves_loses_no_answered_hand(tmp_path: Path, figures: Counter[str]) -> None:
    database = tmp_path / "games.sqlite3"
    checker = database_app(database)
    rng = random.Random(9)
    answered: list[str] = []
    for _ in range(RUNS):
        port = free_port()
        server = start_server(database, port)
        browser = Browser(port)
        try:
            names = browser.form("/games/new?system=classic&table=2x2")
            status, where = browser.send(
                "POST",
                "/games/new?system=classic&table=2x2",
                {**names, "side_list-0-name": "Us", "side_list-1-name": "Them"},
            )
            assert status == 302, where
            game_id = where.rsplit("/", 1)[1]
            stop = threading.Event()
            saved: list[str] = []
            writer = threading.Thread(target=save_hands, args=(browser, game_id, saved, stop))
            writer.start()
            # Two saves answered (at most two minutes: a bound for a busy machine, not a wait).
            deadline = time.monotonic() + 120
            while len(saved) < 2 and writer.is_alive() and time.monotonic() < deadline:
                time.sleep(0.01)
            time.sleep(rng.uniform(0, 0.4))  # then at any moment of a save
        finally:
            server.kill()  # SIGKILL: no clean shutdown, no last commit
            server.wait(timeout=10)
        stop.set()
        writer.join(timeout=20)
        answered += saved

        with checker.app_context():
            tokens = set(db.session.scalars(select(Hand.token)))
            lost = [token for token in answered if token not in tokens]
            half_written = db.session.scalars(
                select(Hand.id)
                .where(~Hand.entries.any())
                .union(select(Entry.hand_id).group_by(Entry.hand_id).having(text("count(*) != 2")))
            ).all()
            intact = db.session.execute(text("PRAGMA integrity_check")).scalar()
            db.session.rollback()
        off = games_off_the_replay(checker)
        figures["kill -9 runs"] += 1
        figures["hands answered before kill -9"] += len(saved)
        figures["acknowledged hands lost"] += len(lost)
        figures["totals differing from the replay"] += len(off)
        assert saved, "no hand was saved before the kill"
        assert lost == []
        assert half_written == []
        assert intact == "ok"
        assert off == []

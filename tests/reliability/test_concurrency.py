"""Phones at one table writing at the same moment, against a live server over real HTTP.

Each round lines its phones up on a barrier and lets them send together, then checks that no
hand was lost or doubled and that the stored totals are still the replay's.
"""

from __future__ import annotations

import http.client
import re
import threading
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

import pytest
from flask import Flask
from sqlalchemy import func, select

from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Correction, Hand

from .live import database_app, games_off_the_replay, served, stock_hand

SMALL = {"melded_points": "60"}  # a legal hand that takes many rounds to end a game
ROUNDS_PER_GAME = 20


@dataclass(frozen=True)
class Answer:
    status: int
    location: str
    body: str


class Phone:
    """One phone at the table: plain HTTP requests, each on a connection of its own."""

    def __init__(self, base_url: str) -> None:
        address = urlsplit(base_url)
        self.host, self.port = address.hostname or "127.0.0.1", address.port or 80

    def send(self, method: str, path: str, data: dict[str, str] | None = None) -> Answer:
        connection = http.client.HTTPConnection(self.host, self.port, timeout=60)
        try:
            body = urlencode(data) if data is not None else None
            headers = {"Content-Type": "application/x-www-form-urlencoded"} if body else {}
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            text = response.read().decode()
            return Answer(response.status, response.getheader("Location") or "", text)
        finally:
            connection.close()

    def new_game(self) -> str:
        names = {"side_list-0-name": "Us", "side_list-1-name": "Them"}
        answer = self.send("POST", "/games/new?system=classic&table=2x2", names)
        assert answer.status == 302, answer.body
        return answer.location.rsplit("/", 1)[1]

    def open_hand_form(self, game_id: str) -> dict[str, str]:
        page = self.send("GET", f"/games/{game_id}/hands/new").body
        return {name: hidden(page, name) for name in ("token", "after")}


def hidden(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)
    assert found, f"no {name} on the page"
    return found.group(1)


Request = tuple[str, str, dict[str, str]]  # method, path, form data


def together(phone: Phone, *requests: Request) -> list[Answer]:
    """Send every request at the same moment, each from its own thread."""
    start = threading.Barrier(len(requests))
    answers: list[Any] = [None] * len(requests)

    def run(index: int) -> None:
        start.wait()
        answers[index] = phone.send(*requests[index])

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(requests))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert all(answer is not None for answer in answers), "a phone got no answer"
    return answers


@dataclass
class Table:
    """A live server and its database, and what the test expects to find in it."""

    app: Flask
    phone: Phone
    figures: Counter[str]
    game_id: str = ""
    rounds_in_game: int = 0

    def game(self) -> str:
        """The game being played; a new one once a game has had its rounds."""
        if not self.game_id or self.rounds_in_game >= ROUNDS_PER_GAME:
            self.game_id, self.rounds_in_game = self.phone.new_game(), 0
        self.rounds_in_game += 1
        return self.game_id

    def live_hands(self, game_id: str) -> list[tuple[int, int, int]]:
        """(id, number, version) of each hand that counts, in order."""
        with self.app.app_context():
            rows = db.session.execute(
                select(Hand.id, Hand.position, Hand.version)
                .where(Hand.game_id == game_id, Hand.deleted_at.is_(None))
                .order_by(Hand.position)
            ).all()
        return [(row.id, row.position, row.version) for row in rows]

    def corrections(self, hand_id: int) -> int:
        with self.app.app_context():
            return (
                db.session.scalar(
                    select(func.count())
                    .select_from(Correction)
                    .where(Correction.hand_id == hand_id)
                )
                or 0
            )

    def settle(self, game_id: str, before: int, expected: int, answers: list[Answer]) -> None:
        """After a round: the hands that should be there are, once each; totals are replayed.
        Counted into the figures first, so that a failing run reports what it saw."""
        hands = self.live_hands(game_id)
        numbers = [number for _, number, _ in hands]
        wrong = abs(len(hands) - (before + expected)) + len(numbers) - len(set(numbers))
        off = games_off_the_replay(self.app)
        self.figures["rounds run"] += 1
        self.figures["requests sent"] += len(answers)
        self.figures["5xx seen"] += sum(answer.status >= 500 for answer in answers)
        self.figures["hands lost or doubled"] += wrong
        self.figures["totals differing from the replay"] += len(off)
        assert all(answer.status < 500 for answer in answers), [a.body for a in answers]
        assert wrong == 0, (before, expected, hands)
        assert off == []


@pytest.fixture
def table(tmp_path: Path, figures: Counter[str]) -> Iterator[Table]:
    app = database_app(tmp_path / "games.sqlite3")
    with served(app) as base_url:
        yield Table(app, Phone(base_url), figures)


def phones_saving_the_same_hand(table: Table, phones: int) -> None:
    game_id = table.game()
    before = len(table.live_hands(game_id))
    forms = [table.phone.open_hand_form(game_id) for _ in range(phones)]
    url = f"/games/{game_id}/hands/new"
    answers = together(
        table.phone,
        *(("POST", url, stock_hand(60 + 5 * i, **form)) for i, form in enumerate(forms)),
    )
    table.settle(game_id, before, 1, answers)
    statuses = sorted(answer.status for answer in answers)
    assert statuses == [302] + [409] * (phones - 1), statuses
    assert all("Someone else saved hand" in a.body for a in answers if a.status == 409)


def test_two_phones_saving_the_same_hand_record_it_once(table: Table) -> None:
    for _ in range(25):
        phones_saving_the_same_hand(table, 2)


def test_twenty_phones_saving_the_same_hand_record_it_once(table: Table) -> None:
    for _ in range(5):
        phones_saving_the_same_hand(table, 20)


def test_a_double_tap_on_save_records_one_hand_and_answers_both_taps_alike(
    table: Table,
) -> None:
    for _ in range(25):
        game_id = table.game()
        before = len(table.live_hands(game_id))
        data = stock_hand(**table.phone.open_hand_form(game_id))
        url = f"/games/{game_id}/hands/new"
        answers = together(table.phone, ("POST", url, data), ("POST", url, data))
        table.settle(game_id, before, 1, answers)
        assert [a.status for a in answers] == [302, 302]
        assert answers[0].location == answers[1].location
        assert f"saved={before + 1}" in answers[0].location


def test_recording_a_hand_while_another_phone_deletes_one_keeps_both(table: Table) -> None:
    for _ in range(25):
        game_id = table.game()
        table.phone.send("POST", f"/games/{game_id}/hands/new", stock_hand())
        hands = table.live_hands(game_id)
        first_id, _, version = hands[0]
        form = table.phone.open_hand_form(game_id)
        answers = together(
            table.phone,
            ("POST", f"/games/{game_id}/hands/new", stock_hand(**form)),
            ("POST", f"/games/{game_id}/hands/{first_id}/delete", {"version": str(version)}),
        )
        table.settle(game_id, len(hands), 0, answers)
        assert [a.status for a in answers] == [302, 302]
        assert first_id not in [hand_id for hand_id, _, _ in table.live_hands(game_id)]


def test_two_phones_correcting_the_same_hand_keep_one_correction(table: Table) -> None:
    for _ in range(25):
        game_id = table.game()
        table.phone.send("POST", f"/games/{game_id}/hands/new", stock_hand())
        hands = table.live_hands(game_id)
        hand_id, _, version = hands[-1]
        corrections = table.corrections(hand_id)
        url = f"/games/{game_id}/hands/{hand_id}/edit"
        answers = together(
            table.phone,
            ("POST", url, stock_hand(70, version=str(version))),
            ("POST", url, stock_hand(80, version=str(version))),
        )
        table.settle(game_id, len(hands), 0, answers)
        assert sorted(a.status for a in answers) == [302, 409]
        assert table.live_hands(game_id)[-1] == (hand_id, hands[-1][1], version + 1)
        assert table.corrections(hand_id) == corrections + 1

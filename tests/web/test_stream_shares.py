"""The streams of one address, of one game's share link and of one night's standings link hold
only a share of a process's (http/stream.py): whoever holds a link, or sends from one address,
leaves the phones that record hands their streams. Under real servers, with real addresses:
tests/reliability/test_streams_served.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select
from werkzeug.test import TestResponse

from scorekeeper.web.extensions import db
from scorekeeper.web.http.stream import Streams
from scorekeeper.web.services.restore import restore
from scorekeeper.web.store.models import Night
from tests.club_backup import club_backup

from .apps import TEST_CONFIG, built_app
from .sharing import a_game, links, opened

CAP = 40
SHARE = 10
"""A quarter of CAP."""


@pytest.fixture
def app() -> Flask:
    return built_app({**TEST_CONFIG, "STREAMS": CAP, "STREAM_SECONDS": 60})


@pytest.fixture
def answers() -> Iterator[list[TestResponse]]:
    """The streams a test opens, closed at its end (which gives their places back)."""
    kept: list[TestResponse] = []
    yield kept
    for answer in kept:
        answer.close()


def statuses(
    kept: list[TestResponse], phone: FlaskClient, url: str, addresses: list[str]
) -> list[int]:
    """A stream of `url` opened by `phone` from each of `addresses`: the statuses."""
    for address in addresses:
        kept.append(phone.get(url, buffered=False, environ_base={"REMOTE_ADDR": address}))
    return [answer.status_code for answer in kept[-len(addresses) :]]


def many(count: int, network: str = "10.0.0") -> list[str]:
    return [f"{network}.{n}" for n in range(1, count + 1)]


@pytest.mark.parametrize(
    ("cap", "share"),
    [(400, 100), (40, 10), (32, 8), (20, 8), (3, 8)],
)
def test_a_share_is_a_quarter_of_the_cap_and_never_fewer_than_a_table_s_phones(
    cap: int, share: int
) -> None:
    assert Streams(cap).share == share


def test_a_place_is_refused_over_a_claim_s_share_or_the_cap_and_given_back_once() -> None:
    streams = Streams(CAP)
    one = ("address", "10.0.0.1")
    places = [streams.take((one,)) for _ in range(SHARE)]
    assert None not in places
    assert streams.take((one,)) is None  # over its share
    assert streams.take((one, ("link", "x"))) is None  # whatever else it comes by
    places[0].give_back()  # type: ignore[union-attr]
    places[0].give_back()  # type: ignore[union-attr]  # again: nothing more
    assert streams.open == SHARE - 1
    assert streams.take((one,)) is not None
    others = [streams.take((("address", f"10.0.1.{n}"),)) for n in range(CAP - SHARE)]
    assert None not in others
    assert streams.take((("address", "10.0.2.1"),)) is None  # over the cap


def test_the_streams_of_one_address_hold_a_share_and_the_table_still_gets_its_own(
    app: Flask, answers: list[TestResponse]
) -> None:
    table = app.test_client()
    game_id = a_game(table)
    url = f"/games/{game_id}/events"
    one_address = ["198.51.100.7"] * (SHARE + 1)
    assert statuses(answers, app.test_client(), url, one_address) == [200] * SHARE + [204]
    assert statuses(answers, table, url, ["192.168.1.20"]) == [200]


def test_the_streams_of_one_share_link_hold_a_share_from_any_number_of_addresses(
    app: Flask, answers: list[TestResponse]
) -> None:
    table = app.test_client()
    game_id = a_game(table)
    url = f"/games/{game_id}/events"
    stranger = opened(app, "follow", links(table, game_id)["follow"])
    assert statuses(answers, stranger, url, many(SHARE + 1)) == [200] * SHARE + [204]
    assert statuses(answers, table, url, ["192.168.1.20"]) == [200]  # the table, by no link
    joined = opened(app, "join", links(table, game_id)["join"])  # another link: its own share
    assert statuses(answers, joined, url, ["192.168.1.21"]) == [200]


def test_the_streams_of_a_night_s_standings_link_hold_a_share_from_any_number_of_addresses(
    app: Flask, answers: list[TestResponse]
) -> None:
    """The standings link is on every table card: anyone who saw one holds it."""
    with app.app_context():
        restore(club_backup(12, hands_a_game=2, nights=True))
        token = db.session.scalars(select(Night.follow_token)).first()
    url = f"/standings/{token}/events"
    table = app.test_client()
    assert statuses(answers, app.test_client(), url, many(SHARE + 1)) == [200] * SHARE + [204]
    game_id = a_game(table)
    assert statuses(answers, table, f"/games/{game_id}/events", ["192.168.1.20"]) == [200]


def test_a_place_given_back_is_its_address_s_again(app: Flask, answers: list[TestResponse]) -> None:
    game_id = a_game(app.test_client())
    url = f"/games/{game_id}/events"
    phone, address = app.test_client(), ["198.51.100.7"]
    assert statuses(answers, phone, url, address * SHARE) == [200] * SHARE
    assert statuses(answers, phone, url, address) == [204]
    answers.pop(0).close()
    assert statuses(answers, phone, url, address) == [200]

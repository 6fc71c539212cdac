"""What each process keeps is sized by the games followed there (services/keeping.py): a club's
hundreds of tables keep all that their pages drew, and a game nobody follows any more is let go.

Counted in entries, hits and misses (a miss is a drawing), never timed: the clock the keeping
reads is the test's own."""

from __future__ import annotations

import gc
import weakref
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.presenters import parts
from scorekeeper.web.services import engine, keeping, kept, outcomes

from .apps import statements
from .helpers import game_file, import_game, without_tokens

TABLES = 300
"""A club night's tables, each followed in one process."""
PAGES = ("", "/follow")
"""What each table's phones look at: the scoreboard and the follow page."""


class Clock:
    """Seconds as the test says they pass."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Clock:
    """The clock of everything this app keeps (the replays' keeping is the process's own)."""
    told = Clock()
    for keeps in (drawn(app), games(app), engine.REPLAYS):
        monkeypatch.setattr(keeps, "clock", told)
    return told


def drawn(app: Flask) -> keeping.Keeping[Any, Any]:
    found: keeping.Keeping[Any, Any] = app.extensions[parts.EXTENSION].kept
    return found


def games(app: Flask) -> keeping.Keeping[Any, Any]:
    found: keeping.Keeping[Any, Any] = app.extensions[kept.EXTENSION].games
    return found


def follow(client: FlaskClient, game_id: str) -> None:
    for page in PAGES:
        assert client.get(f"/games/{game_id}{page}").status_code == 200


def test_a_process_following_a_club_nights_games_keeps_every_one(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    """Three hundred games followed at once: looked at again, every page is answered from what
    was kept (no drawing, no read but the door's), and nothing was let go."""
    tables = [import_game(client, game_file()) for _ in range(TABLES)]
    for game_id in tables:
        follow(client, game_id)
        clock.now += 1  # a table a second: the first is followed five minutes before the last
    parts_kept, misses, hits = len(drawn(app)), drawn(app).misses, drawn(app).hits
    assert games(app).followed() == [f"game:{game_id}" for game_id in tables]
    assert drawn(app).let_go == 0 and games(app).let_go == 0
    with statements(app) as seen:
        for game_id in tables:
            follow(client, game_id)
    assert drawn(app).misses == misses  # nothing drawn again
    assert drawn(app).hits > hits and len(drawn(app)) == parts_kept
    assert len(seen) == TABLES * len(PAGES)  # the door's peek, and nothing read whole again
    assert drawn(app).let_go == 0 and games(app).let_go == 0


def test_a_game_nobody_follows_is_let_go_and_drawn_again_when_asked_for(
    app: Flask, client: FlaskClient, clock: Clock
) -> None:
    left, played = (import_game(client, game_file()) for _ in range(2))
    follow(client, left)
    follow(client, played)
    page = without_tokens(client.get(f"/games/{left}").text)
    clock.now += keeping.FOLLOWED_FOR / 2
    follow(client, played)  # answered from what was kept: followed, all the same
    assert drawn(app).entries_of(f"game:{left}") > 0 and games(app).entries_of(f"game:{left}")
    clock.now += keeping.FOLLOWED_FOR / 2 + 1
    follow(client, import_game(client, game_file()))  # a new table: something is kept
    assert drawn(app).entries_of(f"game:{left}") == 0 and games(app).entries_of(f"game:{left}") == 0
    assert drawn(app).entries_of(f"game:{played}") and games(app).entries_of(f"game:{played}")
    assert engine.REPLAYS.entries_of(f"game:{left}") == 0
    misses = drawn(app).misses
    again = without_tokens(client.get(f"/games/{left}").text)
    assert again == page  # asked for again: drawn as it was
    assert drawn(app).misses > misses


def test_a_games_earlier_revisions_go_before_its_latest() -> None:
    """Within a game, past its entries, the one asked for longest ago goes: a long game's
    earlier revisions, never what the latest was drawn into."""
    told = Clock()
    keeps: keeping.Keeping[str, str] = keeping.Keeping(3, clock=told)
    keeps.keep("rows", "rows", "a")
    for revision in range(5):
        keeps.keep(f"board {revision}", "board", "a")
        keeps.keep(f"page {revision}", "page", "a")
        assert keeps.get("rows") == "rows"  # every revision's page takes the rows in
    assert {keeps.get(key) for key in ("rows", "board 4", "page 4")} == {"rows", "board", "page"}
    assert keeps.get("page 3") is None and keeps.entries_of("a") == 3


def test_past_its_bound_the_game_followed_longest_ago_goes_first() -> None:
    told = Clock()
    keeps: keeping.Keeping[str, str] = keeping.Keeping(2, games=3, clock=told)
    for game in "abc":
        keeps.keep(f"{game} page", "page", game)
        told.now += 1
    assert keeps.get("a page") == "page"  # a is followed again: b is now the longest ago
    keeps.keep("d page", "page", "d")
    assert keeps.followed() == ["c", "a", "d"]
    assert keeps.get("b page") is None and keeps.let_go == 1


def test_what_an_app_keeps_made_anew_lets_go_of_all_it_kept_before(
    app: Flask, client: FlaskClient
) -> None:
    """Forgetting all (as a process that just started: test_season_live.py, the season
    benchmark) makes each keeping anew: the one before is let go with what it kept, not held on
    to and told of every request. Held, a benchmark's thirty forgettings kept thirty copies of
    a season's nights alive, and each pass of the collector over them cost 100 ms."""
    follow(client, import_game(client, game_file()))
    before = [weakref.ref(drawn(app)), weakref.ref(games(app))]
    assert all(len(keeps()) for keeps in before)  # type: ignore[arg-type]
    parts.init_app(app)
    kept.init_app(app)
    outcomes.init_app(app)
    gc.collect()
    assert [keeps() for keeps in before] == [None, None]
    assert len(app.extensions[keeping.EXTENSION]) == 3  # the parts, the games, the nights' reads

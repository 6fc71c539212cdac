"""A club's season (issue 38): set up with its rule and nights, ranked from the nights as
played, a night in at most one season, deleting a season keeps its nights; and the ratings,
updated as each game ends and kept."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.nights import Measure, Rule
from scorekeeper.web.extensions import db
from scorekeeper.web.presenters.seasons import season_standings
from scorekeeper.web.services import seasons as service
from scorekeeper.web.services.backup import backup_text
from scorekeeper.web.services.game_files import import_game
from scorekeeper.web.services.ratings import rate_game, rating_of
from scorekeeper.web.services.restore import BackupError, is_empty, restore
from scorekeeper.web.services.seasons import SeasonPlan, SeasonRefused
from scorekeeper.web.store.models import Game, Night
from scorekeeper.web.store.seasons import RatedGame, Rating, Season

from .apps import TEST_CONFIG, backup_of, built_app
from .helpers import GOES_OUT, STAYS_IN, Actions
from .nights import FIRST, SECOND, play_night, seated


@pytest.fixture
def two_nights(client: FlaskClient, app: Flask) -> tuple[str, str]:
    return play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")


EVERY_NIGHT = Rule()
"""Points by place, every night counting, one night to be ranked."""


def plan(*nights: str, rule: Rule = EVERY_NIGHT, name: str = "Spring") -> SeasonPlan:
    return SeasonPlan(name, rule, tuple(nights))


def test_a_season_ranks_its_players_by_points_by_place_from_the_nights_as_played(
    app: Flask, client: FlaskClient, two_nights: tuple[str, str]
) -> None:
    with app.app_context():
        season_id = service.set_up_season(plan(*two_nights), "t1")
        shown = season_standings(service.season_of(season_id))
    # Each night: the two winning pairs level first of 4 ((4 + 3) / 2), the losers (2 + 1) / 2.
    expected: dict[str, float] = {}
    for night_id, pairs in zip(two_nights, (FIRST, SECOND), strict=True):
        winners = {seated(app, night_id)[1][0], seated(app, night_id)[2][1]}
        for number, pair in enumerate(pairs, 1):
            for name in pair:
                expected[name] = expected.get(name, 0) + (3.5 if number in winners else 1.5)
    assert {row.names: float(row.figure) for row in shown.players} == expected
    assert [row.nights for row in shown.players] == [2] * 8
    places = [row.place for row in shown.players]
    assert places == sorted(places) and places[0] == 1
    together = {row.names: row.nights for row in shown.pairs}
    # The pairs that stayed together both nights; Ana and Beto each partnered two players once.
    assert together == {"Eva & Fede": 2, "Gus & Hugo": 2}
    assert [night.name for night in shown.nights] == ["First", "Second"]


def test_a_night_in_another_season_is_refused_and_nothing_changes(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    first, second = two_nights
    with app.app_context():
        service.set_up_season(plan(first, name="Spring"), "t1")
        with pytest.raises(SeasonRefused) as refused:
            service.set_up_season(plan(second, first, name="Summer"), "t2")
        assert (refused.value.code, refused.value.field) == ("night-in-another-season", "nights")
        assert refused.value.values == {"night": "First", "season": "Spring"}
        assert db.session.scalars(select(Season.name)).all() == ["Spring"]
        assert db.session.get(Night, second).season_id is None


def test_a_best_n_larger_than_the_nights_is_refused_naming_the_field(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    with app.app_context():
        with pytest.raises(SeasonRefused) as refused:
            service.set_up_season(plan(*two_nights, rule=Rule(Measure.WINS, best=3)), "t1")
        assert (refused.value.code, refused.value.field) == ("best-too-many", "best")
        assert refused.value.values == {"count": 3, "nights": 2}
        assert db.session.scalar(select(func.count()).select_from(Season)) == 0
        assert {n.season_id for n in db.session.scalars(select(Night))} == {None}


def test_the_same_form_sent_twice_sets_up_one_season(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    with app.app_context():
        once = service.set_up_season(plan(*two_nights), "same")
        assert service.set_up_season(plan(*two_nights), "same") == once
        assert db.session.scalar(select(func.count()).select_from(Season)) == 1


def test_deleting_a_season_keeps_its_nights_free_for_another(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    with app.app_context():
        season_id = service.set_up_season(plan(*two_nights), "t1")
        assert service.delete_season(season_id)
        assert not service.delete_season(season_id)
        assert db.session.scalar(select(func.count()).select_from(Night)) == 2
        assert {n.season_id for n in db.session.scalars(select(Night))} == {None}
        service.set_up_season(plan(*two_nights, name="Again"), "t2")


def test_a_night_is_added_to_a_season_afterwards(app: Flask, two_nights: tuple[str, str]) -> None:
    first, second = two_nights
    with app.app_context():
        season_id = service.set_up_season(plan(first), "t1")
        service.add_night(season_id, second)
        assert [n.id for n in service.season_nights(season_id)] == [first, second]


def test_the_players_of_each_game_ended_are_rated_once_in_the_direction_of_its_result(
    app: Flask, client: FlaskClient
) -> None:
    night_id = play_night(client, FIRST, "First")
    winners = {seated(app, night_id)[1][0], seated(app, night_id)[2][1]}
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(RatedGame)) == 2
        for number, pair in enumerate(FIRST, 1):
            for name in pair:
                rating = rating_of((name.casefold(), ""))
                assert rating is not None and rating.games == 1
                assert (rating.mu > 25) is (number in winners)
            pair_rating = rating_of((pair[0].casefold(), pair[1].casefold()))
            assert pair_rating is not None and pair_rating.sigma < 25 / 3
        kept = {(r.pool, r.first, r.second): r.mu for r in db.session.scalars(select(Rating))}
    client.get(f"/nights/{night_id}")  # a page drawn rates nothing again
    with app.app_context():
        assert {
            (r.pool, r.first, r.second): r.mu for r in db.session.scalars(select(Rating))
        } == kept
        assert {pool for pool, _, _ in kept} == {"all", "classic"}


HOME_GAME = {
    "variant": "classic",
    "sides": [
        {"name": "Us", "players": 2, "start_score": 8000, "player_names": ["Ana", "Beto"]},
        {"name": "Them", "players": 2, "start_score": 2000, "player_names": ["Carla", "Dani"]},
    ],
    "hands": [],
}


def test_a_home_game_is_rated_when_it_is_over_and_not_before(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    with app.app_context():
        game_id = import_game(HOME_GAME)
        assert rating_of(("ana", "")) is None
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")  # not over yet
    with app.app_context():
        assert rating_of(("ana", "")) is None
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])  # Us pass 10,000
    with app.app_context():
        ana, carla = rating_of(("ana", "")), rating_of(("carla", ""))
        assert ana is not None and carla is not None
        assert ana.mu > 25 > carla.mu and ana.games == 1


def test_a_game_is_rated_once_however_often_its_end_is_written(
    app: Flask, client: FlaskClient
) -> None:
    play_night(client, FIRST, "First")
    with app.app_context():
        game = db.session.scalars(select(Game).where(Game.night_id.is_not(None))).first()
        assert game is not None
        assert not rate_game(game)
        db.session.commit()
        assert {r.games for r in db.session.scalars(select(Rating))} == {1}


def ratings_kept(app: Flask) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    with app.app_context():
        return {
            (r.pool, r.first, r.second): (r.mu, r.sigma, r.games)
            for r in db.session.scalars(select(Rating))
        }


def test_a_backup_restores_the_seasons_their_standings_and_the_same_ratings(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    with app.app_context():
        season_id = service.set_up_season(plan(*two_nights, rule=Rule(best=1, minimum=2)), "t")
        shown = season_standings(service.season_of(season_id))
    data = json.loads(json.dumps(backup_of(app)))
    assert data["version"] == 5 and [s["name"] for s in data["seasons"]] == ["Spring"]
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(data)
        again = season_standings(service.season_of(season_id))
        assert (again.players, again.pairs, again.rule) == (shown.players, shown.pairs, shown.rule)
    assert ratings_kept(restored) == ratings_kept(app) != {}
    with restored.app_context():
        assert db.session.scalar(select(func.count()).select_from(RatedGame)) == 4
    with app.app_context():
        streamed = json.loads("".join(backup_text()))
    assert streamed == data


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(seasons=[]), "season_id: no season"),
        (lambda d: d["rated_games"].append({"game_id": "nope", "rated_at": "2026-01-01T00:00:00"}),
         "rated_games[4].game_id: no game 'nope'"),
        (lambda d: d["ratings"][0].update(mu="high"), "expected a number"),
        (lambda d: d["seasons"][0].update(best=0), "best"),
    ],
)  # fmt: skip
def test_a_backup_whose_seasons_or_ratings_do_not_hold_is_refused_writing_nothing(
    app: Flask, two_nights: tuple[str, str], change: Any, message: str
) -> None:
    with app.app_context():
        service.set_up_season(plan(*two_nights), "t")
    data = json.loads(json.dumps(backup_of(app)))
    change(data)
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        with pytest.raises(BackupError, match=re.escape(message)):
            restore(data)
        assert is_empty()


def test_a_season_set_up_before_its_nights_takes_them_as_they_are_played(
    app: Flask, client: FlaskClient
) -> None:
    with app.app_context():
        early = SeasonPlan("Year", Rule(best=3, minimum=2), (), planned=10)
        season_id = service.set_up_season(early, "t1")
        with pytest.raises(SeasonRefused) as refused:
            service.set_up_season(SeasonPlan("Short", Rule(best=3), (), planned=2), "t2")
        assert refused.value.values == {"count": 3, "nights": 2}
    night_id = play_night(client, FIRST, "First")
    with app.app_context():
        service.add_night(season_id, night_id)
        shown = season_standings(service.season_of(season_id))
        assert {row.place for row in shown.players} == {None}  # one night of the two asked
        assert {row.nights for row in shown.players} == {1}


def test_a_backup_of_version_2_restores_without_seasons_or_ratings(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    data = json.loads(json.dumps(backup_of(app)))
    for name in ("seasons", "ratings", "rated_games", "rating_steps"):
        del data[name]
    for night in data["nights"]:
        del night["season_id"]
    data["version"] = 2
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        assert restore(data) == 4  # two tables a night
        assert db.session.scalar(select(func.count()).select_from(Rating)) == 0
        assert {n.season_id for n in db.session.scalars(select(Night))} == {None}


def test_a_backup_of_version_3_gives_its_rated_games_their_order_and_totals(
    app: Flask, two_nights: tuple[str, str]
) -> None:
    data = json.loads(json.dumps(backup_of(app)))
    kept = {row["game_id"]: (row["sequence"], row["totals"]) for row in data["rated_games"]}
    del data["rating_steps"]
    for row in data["rated_games"]:
        del row["sequence"], row["totals"]
    data["version"] = 3
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(data)
        told = {r.game_id: (r.sequence, r.totals) for r in db.session.scalars(select(RatedGame))}
    # The same totals, and the same order where the games were rated apart in time.
    assert {game: totals for game, (_, totals) in told.items()} == {
        game: totals for game, (_, totals) in kept.items()
    }
    assert sorted(told, key=lambda g: told[g][0]) == sorted(kept, key=lambda g: kept[g][0])


@pytest.mark.parametrize("shared", [None, 0], ids=["the first's", "nought"])
def test_a_backup_whose_rated_games_share_a_place_restores_them_in_the_replays_order(
    app: Flask, two_nights: tuple[str, str], shared: int | None
) -> None:
    """A backup from before each place was its own (two games rated at once shared one, the
    first's or the nought the column once started at): each takes its own, in the order a
    replay read them (place, then id), and the ratings are those of the club backed up."""
    data = json.loads(json.dumps(backup_of(app)))
    rated = sorted(data["rated_games"], key=lambda row: row["sequence"])
    if shared is not None:
        rated[0]["sequence"] = shared
    rated[1]["sequence"] = rated[0]["sequence"]  # the first two shared a place
    read = sorted(rated, key=lambda row: (row["sequence"], row["game_id"]))
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(data)
        order = db.session.scalars(select(RatedGame.game_id).order_by(RatedGame.sequence)).all()
        places = db.session.scalars(select(RatedGame.sequence)).all()
        ratings = {
            (r.pool, r.first, r.second): (r.mu, r.sigma) for r in db.session.scalars(select(Rating))
        }
    assert order == [row["game_id"] for row in read]
    assert len(set(places)) == len(places)
    assert ratings == {
        (r["pool"], r["first"], r["second"]): (r["mu"], r["sigma"]) for r in data["ratings"]
    }

"""Ratings as the club keeps them: a merge of players (or a rename that merges, or a merge
undone) leaves each rating what the games give, as if the player had always had one name; each
rated game keeps what it did to each rating, which the player's chart draws."""

from __future__ import annotations

import json
from datetime import timedelta

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select

from scorekeeper.nights import Measure, Rule
from scorekeeper.web.extensions import db
from scorekeeper.web.presenters.seasons import season_standings
from scorekeeper.web.services.backup import backup_text
from scorekeeper.web.services.games import KEPT_DELETED, purge_deleted
from scorekeeper.web.services.nights import delete_night
from scorekeeper.web.services.players import merge_players, rename_player, undo_merge
from scorekeeper.web.services.ratings import ratings_among, shown_ratings, systems_apart
from scorekeeper.web.services.restore import restore
from scorekeeper.web.services.seasons import SeasonPlan, season_of, set_up_season
from scorekeeper.web.store.models import Game, PlayerMerge, now
from scorekeeper.web.store.seasons import ALL_SYSTEMS, RatedGame, Rating, RatingStep

from .apps import TEST_CONFIG, backup_of, built_app
from .nights import FIRST, SECOND, play_night

Kept = dict[tuple[str, str, str], tuple[float, float, int]]


def ratings_kept(app: Flask) -> Kept:
    with app.app_context():
        return {
            (r.pool, r.first, r.second): (r.mu, r.sigma, r.games)
            for r in db.session.scalars(select(Rating))
        }


def steps_kept(app: Flask) -> list[tuple[str, str, str, float, float, int]]:
    """Each rated game's steps, games in the order they were rated (not by their ids)."""
    with app.app_context():
        rows = db.session.execute(
            select(RatingStep)
            .join(RatedGame)
            .order_by(RatedGame.sequence, RatingStep.pool, RatingStep.first, RatingStep.second)
        ).scalars()
        return [(s.pool, s.first, s.second, s.mu_before, s.mu, s.games) for s in rows]


def renamed(pairs: list[tuple[str, str]], old: str, new: str) -> list[tuple[str, str]]:
    return [tuple(new if name == old else name for name in pair) for pair in pairs]  # type: ignore[misc]


def beto_written_two_ways(client: FlaskClient) -> None:
    """Two nights: Beto was written "Roberto" the second, two players with two ratings."""
    play_night(client, FIRST, "First")
    play_night(client, renamed(SECOND, "Beto", "Roberto"), "Second")


def two_nights_as(pairs: tuple[list[tuple[str, str]], list[tuple[str, str]]]) -> Flask:
    app = built_app(TEST_CONFIG)
    client = app.test_client()
    play_night(client, pairs[0], "First")
    play_night(client, pairs[1], "Second")
    return app


def test_a_merged_player_is_rated_as_if_they_had_always_been_one(
    app: Flask, client: FlaskClient
) -> None:
    beto_written_two_ways(client)
    apart = ratings_kept(app)
    assert ("all", "roberto", "") in apart
    with app.app_context():
        merge_players("roberto", "beto")
    one = two_nights_as((FIRST, SECOND))  # the same nights, Beto always Beto
    assert ratings_kept(app) == ratings_kept(one)
    assert not any("roberto" in (first, second) for _, first, second in ratings_kept(app))
    assert steps_kept(app) == steps_kept(one)
    assert ratings_kept(app)["all", "beto", ""][2] == 2  # both nights' games
    with app.app_context():
        merge_id = db.session.scalar(select(PlayerMerge.id))
        assert merge_id is not None
        undo_merge(merge_id)
    assert ratings_kept(app) == apart  # apart again, as they were


def test_a_rename_moves_the_ratings_and_a_rename_that_merges_merges_them(
    app: Flask, client: FlaskClient
) -> None:
    beto_written_two_ways(client)
    with app.app_context():
        rename_player("roberto", "Rob")
    assert ("all", "rob", "") in ratings_kept(app)
    assert not any("roberto" in key for key in ratings_kept(app))
    with app.app_context():
        rename_player("rob", "Beto")
    assert ratings_kept(app) == ratings_kept(two_nights_as((FIRST, SECOND)))


def test_the_club_chooses_each_system_apart_and_the_pages_say_which(
    app: Flask, client: FlaskClient
) -> None:
    night_id = play_night(client, FIRST, "First")  # classic games
    page = client.get("/players/ana").text
    assert 'data-pool="all"' in page and "rated together" in page
    assert '<input checked id="pool-0" name="pool" required type="radio" value="together">' in (
        client.get("/settings").text
    )
    refused = client.post("/settings/ratings", data={"pool": "<b>both</b>"})
    assert refused.status_code == 422 and "<b>both" not in refused.text
    assert client.post("/settings/ratings", data={"pool": "apart"}).status_code == 302
    page = client.get("/players/ana").text
    assert 'data-pool="classic"' in page and 'data-pool="all"' not in page
    assert "rated apart" in page
    spanish = client.get("/players/ana", headers={"Accept-Language": "es"}).text
    assert "se valoran aparte" in spanish
    assert 'data-pool="classic"' not in client.get("/players/ana?system=denexa").text
    with app.app_context():  # a season of classic nights reads the classic ratings
        season_id = set_up_season(SeasonPlan("Spring", Rule(Measure.RATING), (night_id,)), "t")
        shown = season_standings(season_of(season_id))
        assert shown.pool == "classic"
        classic = ratings_among({(row.who[0], "") for row in shown.players}, "classic")
        assert {row.who: row.rating for row in shown.players} == {
            (key,): rating for (key, second), rating in classic.items() if not second
        }
    with app.app_context():
        kept = ratings_kept(app)
    assert client.post("/settings/ratings", data={"pool": "together"}).status_code == 302
    assert 'data-pool="all"' in client.get("/players/ana").text
    assert ratings_kept(app) == kept  # a choice of what is read: nothing recomputed


def test_a_players_page_charts_their_rating_after_each_rated_game(
    app: Flask, client: FlaskClient
) -> None:
    play_night(client, FIRST, "First")
    assert 'id="rating-chart-title"' not in client.get("/players/ana").text  # one game: no line
    play_night(client, SECOND, "Second")
    page = client.get("/players/ana").text
    assert 'aria-labelledby="rating-chart-title rating-chart-desc"' in page
    with app.app_context():
        steps = db.session.execute(
            select(RatingStep.mu_before, RatingStep.mu)
            .join(RatedGame)
            .where(RatingStep.pool == "all", RatingStep.first == "ana", RatingStep.second == "")
            .order_by(RatedGame.sequence)
        ).all()
    assert len(steps) == 2 and steps[1].mu_before == steps[0].mu  # one game after the other
    said = f"Rating: {round(steps[0].mu, 1):g}, {round(steps[1].mu, 1):g};"
    assert said in page  # the chart's values in words, for a screen reader
    assert page.count('<polyline class="series') == 2  # the rating and the rating less its ±
    last = ratings_kept(app)["all", "ana", ""]
    assert last[0] == steps[1].mu  # the chart ends where the rating is


def test_a_rated_game_deleted_long_ago_is_purged_and_the_ratings_keep_what_it_gave(
    app: Flask, client: FlaskClient
) -> None:
    first = play_night(client, FIRST, "First")
    play_night(client, SECOND, "Second")
    kept = ratings_kept(app)
    with app.app_context():
        gone = db.session.scalars(select(Game.id).where(Game.night_id == first)).all()
        assert gone and delete_night(first)  # a night's game goes with its night
        purge_deleted(now() + KEPT_DELETED + timedelta(days=1))  # its rated game once held it back
        for game_id in gone:
            assert db.session.get(Game, game_id) is None
            assert db.session.get(RatedGame, game_id) is None
            assert game_id not in db.session.scalars(select(RatingStep.game_id)).all()
        assert db.session.scalars(select(RatingStep.game_id)).all()  # the second night's
    assert ratings_kept(app) == kept


def test_a_backup_restores_the_same_ratings_steps_and_chart(
    app: Flask, client: FlaskClient
) -> None:
    beto_written_two_ways(client)
    with app.app_context():
        merge_players("roberto", "beto")
    restored = built_app(TEST_CONFIG)
    with restored.app_context():
        restore(json.loads(json.dumps(backup_of(app))))
    assert ratings_kept(restored) == ratings_kept(app)
    assert steps_kept(restored) == steps_kept(app) != []
    chart = 'aria-labelledby="rating-chart-title'
    page, again = client.get("/players/beto").text, restored.test_client().get("/players/beto").text
    assert chart in page
    assert (
        page[page.index(chart) :].split("</svg>")[0]
        == again[again.index(chart) :].split("</svg>")[0]
    )


def apart(app: Flask) -> bool:
    with app.app_context():
        return systems_apart()


def test_a_backup_keeps_the_clubs_choice_of_rating_pool(app: Flask, client: FlaskClient) -> None:
    play_night(client, FIRST, "First")
    assert client.post("/settings/ratings", data={"pool": "apart"}).status_code == 302
    data = json.loads(json.dumps(backup_of(app)))
    with app.app_context():
        assert json.loads("".join(backup_text())) == data  # the file downloaded says it too
    assert client.post("/settings/ratings", data={"pool": "together"}).status_code == 302
    restored = built_app(TEST_CONFIG)  # a new server: together until told
    with restored.app_context():
        restore(data)
    assert (
        apart(restored) and 'data-pool="classic"' in restored.test_client().get("/players/ana").text
    )
    together = built_app(TEST_CONFIG)
    assert together.test_client().post("/settings/ratings", data={"pool": "apart"}).status_code
    with together.app_context():
        restore({**data, "rating_pool": "all"})  # the server chose apart before the restore
    assert not apart(together)
    older = built_app(TEST_CONFIG)
    assert older.test_client().post("/settings/ratings", data={"pool": "apart"}).status_code
    del data["rating_pool"]
    data["version"] = 4  # kept no choice: the server's own stays
    with older.app_context():
        restore(data)
    assert apart(older)


def test_many_ratings_are_read_with_as_many_parameters_as_one_on_postgresql() -> None:
    """A season's standings read 414 ratings at once: on PostgreSQL an `IN` list of as many
    (first, second) rows cost 80 ms to plan, two arrays cost nothing; SQLite plans either fast."""
    app = two_nights_as((FIRST, SECOND))
    kept = ratings_kept(app)
    every = sorted({(first, second) for _, first, second in kept})
    asked = [*every, ("nobody", ""), ("ana", "nobody")]  # not rated: not found
    sent: list[int] = []

    def count(*args: object) -> None:
        if "FROM rating" in str(args[2]):  # not the connection's set-up
            sent.append(len(args[3] or ()))  # type: ignore[arg-type]

    with app.app_context():
        event.listen(db.engine, "before_cursor_execute", count)
        try:
            found = ratings_among(asked, ALL_SYSTEMS)
            one = ratings_among(asked[:1], ALL_SYSTEMS)
            shown = shown_ratings(asked, "", apart=True)
        finally:
            event.remove(db.engine, "before_cursor_execute", count)
        postgresql = db.engine.dialect.name == "postgresql"
    assert len(every) > 8 and len(sent) == 3
    assert {who: (r.mu, r.sigma, r.games) for who, r in found.items()} == {
        (first, second): rating
        for (pool, first, second), rating in kept.items()
        if pool == ALL_SYSTEMS
    }
    assert one == {asked[0]: found[asked[0]]}
    apart = {
        who: {pool: (r.mu, r.sigma, r.games) for pool, r in pools.items()}
        for who, pools in shown.items()
    }
    assert apart == {
        who: {
            pool: rating
            for (pool, first, second), rating in kept.items()
            if pool != ALL_SYSTEMS and (first, second) == who
        }
        for who in asked
    }
    if postgresql:
        assert sent[0] == sent[1] == 3  # the pool and two arrays, however many are asked

"""What each night gave its pairs, kept on rows for the season's standings and the players'
pages (services/outcomes.py): written when a round or the night ends, right after the
director's correction, a merge of players and a restore, and never read stale."""

from __future__ import annotations

from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.nights import Rule
from scorekeeper.web.extensions import db
from scorekeeper.web.presenters.seasons import player_nights, season_standings
from scorekeeper.web.services import outcomes
from scorekeeper.web.services import seasons as service
from scorekeeper.web.services.backup import backup
from scorekeeper.web.services.hands import delete_hand
from scorekeeper.web.services.nights import bring_back_night, delete_night, renew_cards
from scorekeeper.web.services.players import merge_players, rename_player, undo_merge
from scorekeeper.web.services.restore import restore
from scorekeeper.web.store.models import Game, Hand, Night, PlayerMerge, Seating
from scorekeeper.web.store.seasons import NightOutcome

from .apps import another_app
from .nights import FIRST, SECOND, play_night


def _kept_nights(app: Flask) -> set[str]:
    """The nights whose rows are at their revision (those a page reads instead of the tables)."""
    with app.app_context():
        every = db.session.scalars(select(Night)).all()
        return set(outcomes._kept(every))


def _assert_kept_right(app: Flask, night_ids: list[str]) -> None:
    """Each night's rows are at its revision, and what working it out again gives."""
    assert _kept_nights(app) >= set(night_ids)
    with app.app_context():
        assert outcomes.differing() == []


def _season(app: Flask, *night_ids: str) -> list[tuple[str, float, int]]:
    """The players of the season of these nights (set up the first time), as its page has them."""
    with app.app_context():
        season_id = db.session.scalar(select(Night.season_id).where(Night.id.in_(night_ids)))
        if season_id is None:
            season_id = service.set_up_season(service.SeasonPlan("Spring", Rule(), night_ids), "s")
        shown = season_standings(service.season_of(season_id))
        return [(row.names, float(row.figure), row.nights) for row in shown.players]


def _live(app: Flask, *night_ids: str) -> list[tuple[str, float, int]]:
    """The season's players as they are when every night is worked out from its tables."""
    with app.app_context():
        db.session.execute(NightOutcome.__table__.delete())
        db.session.commit()
    return _season(app, *night_ids)


def test_a_night_that_ends_keeps_what_it_gave_each_pair_and_the_season_reads_it(
    client: FlaskClient, app: Flask
) -> None:
    nights = [play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")]
    _assert_kept_right(app, nights)
    with app.app_context():
        rows = db.session.scalar(select(func.count()).select_from(NightOutcome))
    assert rows == 8  # four pairs a night
    kept = _season(app, *nights)
    assert kept == _live(app, *nights)


def test_a_correction_by_the_director_after_the_night_keeps_its_outcome_right(
    client: FlaskClient, app: Flask
) -> None:
    first = play_night(client, FIRST, "First")
    before = _season(app, first)
    with app.app_context():
        game_id = db.session.scalar(
            select(Seating.game_id)
            .join(Game, Game.id == Seating.game_id)
            .where(Game.night_id == first, Seating.table == 1)
        )
        hand = db.session.scalars(select(Hand).where(Hand.game_id == game_id)).one()
        hand_id, version = hand.id, hand.version
        db.session.rollback()
        delete_hand(game_id or "", hand_id, version, director=True)
    _assert_kept_right(app, [first])
    after = _season(app, first)
    assert after != before  # table 1's game no longer counts: its pairs did not play
    assert len(after) == 4 and after == _live(app, first)


def test_players_renamed_merged_and_unmerged_take_their_nights_with_them(
    client: FlaskClient, app: Flask
) -> None:
    nights = [play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")]
    with app.app_context():
        rename_player("ana", "Anita")
    _assert_kept_right(app, nights)
    with app.app_context():
        assert [night.id for night in player_nights("anita")] == nights
        assert player_nights("ana") == []
        merge_players("hugo", "gus")  # one player in two seats of a pair: still kept right
    _assert_kept_right(app, nights)
    with app.app_context():
        undo_merge(db.session.scalar(select(PlayerMerge.id)) or 0)
        assert [night.id for night in player_nights("hugo")] == nights
    _assert_kept_right(app, nights)


def test_a_restore_works_out_every_nights_outcome_again(
    client: FlaskClient, app: Flask, tmp_path: Path
) -> None:
    nights = [play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")]
    shown = _season(app, *nights)
    with app.app_context():
        data = backup()
    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        restore(data)
    _assert_kept_right(restored, nights)
    assert _season(restored, *nights) == shown


def test_a_stale_row_is_never_read_the_night_is_worked_out_from_its_tables(
    client: FlaskClient, app: Flask
) -> None:
    first = play_night(client, FIRST, "First")
    with app.app_context():
        db.session.execute(NightOutcome.__table__.update().values(place=4, level=1))
        db.session.execute(Night.__table__.update().values(revision="moved-on"))
        db.session.commit()
    assert _kept_nights(app) == set()
    shown = _season(app, first)
    with app.app_context():
        assert outcomes.refresh_outcomes() == 1
    _assert_kept_right(app, [first])
    assert _season(app, first) == shown


def test_a_night_brought_back_or_given_new_cards_after_it_ended_is_kept_at_its_revision(
    client: FlaskClient, app: Flask
) -> None:
    first = play_night(client, FIRST, "First")
    with app.app_context():
        renew_cards(first)
    _assert_kept_right(app, [first])
    with app.app_context():
        delete_night(first)
        bring_back_night(first)
    _assert_kept_right(app, [first])

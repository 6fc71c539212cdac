"""What each side keeps for statistics (hands, best hand, gone out, red threes, sets by kind) is
what its live hands add up to, after every kind of write."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select, update

from scorekeeper import rules
from scorekeeper.web.extensions import db
from scorekeeper.web.services import backup, restore
from scorekeeper.web.services.figures import refresh_stale
from scorekeeper.web.store.models import SET_COLUMNS, SIDE_TALLIES, Side

from .apps import TEST_CONFIG, built_app
from .helpers import (
    BIG_HAND,
    FIRST_HAND,
    GOES_OUT,
    SECOND_HAND,
    STAYS_IN,
    Actions,
    game_file,
    hand_fields,
    import_game,
)


def stored(app: Flask) -> dict[int, dict[str, Any]]:
    with app.app_context():
        return {
            side.id: {column: getattr(side, column) for column in SIDE_TALLIES}
            for side in db.session.scalars(select(Side))
        }


def from_scratch(app: Flask) -> dict[int, dict[str, Any]]:
    """The same, counted again from every live hand's entries."""
    with app.app_context():
        counted = {}
        for side in db.session.scalars(select(Side)):
            entries = [
                hand.entries[side.position] for hand in side.game.hands if hand.deleted_at is None
            ]
            scores = [entry.hand_score for entry in entries]
            counted[side.id] = {
                "hands": len(entries),
                "best": max(scores, default=None),  # type: ignore[type-var]
                "went_out": sum(entry.went_out for entry in entries),
                "red_threes": sum(entry.red_threes for entry in entries),
                **{
                    column: sum(entry.sets.get(kind.value, 0) for entry in entries)
                    for kind, column in SET_COLUMNS.items()
                },
            }
        return counted


def test_every_kind_of_set_has_its_column() -> None:
    assert set(SET_COLUMNS) == set(rules.SetKind)
    assert set(SET_COLUMNS.values()) <= set(Side.__table__.columns.keys())


def test_what_sides_keep_is_what_their_live_hands_add_up_to_after_every_write(
    app: Flask, client: FlaskClient, actions: Actions, tmp_path: Path
) -> None:
    game_id = actions.new_game()
    assert stored(app) == from_scratch(app)
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")
    assert stored(app) == from_scratch(app)
    first, second, _third = actions.hand_ids(game_id)
    client.post(f"/games/{game_id}/hands/{second}/delete", data={"version": "1"})
    assert stored(app) == from_scratch(app)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert stored(app) == from_scratch(app)
    client.post(f"/games/{game_id}/hands/{second}/restore")
    assert stored(app) == from_scratch(app)
    client.post(
        f"/games/{game_id}/hands/{first}/edit",
        data=hand_fields([GOES_OUT, STAYS_IN], version="1"),
    )
    import_game(client, game_file((("Ana", "Bo"), ("Cy", "Di")), (FIRST_HAND, SECOND_HAND)))
    import_game(client, game_file((("Ana", "Bo"), ("Cy", "Di")), (BIG_HAND, BIG_HAND)))
    after = stored(app)
    assert after == from_scratch(app)
    assert sorted(tally["hands"] for tally in after.values()) == [2, 2, 2, 2, 4, 4]

    copy = built_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'copy.db'}"}
    )
    with app.app_context():
        data = backup.backup()
    with copy.app_context():
        restore.restore(data)
    assert sorted(stored(copy).values(), key=repr) == sorted(after.values(), key=repr)


def test_the_sides_that_lack_them_are_filled_when_the_app_starts(
    app: Flask, client: FlaskClient
) -> None:
    import_game(client, game_file((("Ana", "Bo"), ("Cy", "Di")), (FIRST_HAND, SECOND_HAND)))
    filled = stored(app)
    with app.app_context():  # what the migration leaves: the columns empty
        db.session.execute(update(Side).values(dict.fromkeys(SIDE_TALLIES)))
        db.session.commit()
        assert refresh_stale() == 1
    assert stored(app) == filled == from_scratch(app)
    assert [tally["sambas"] for tally in filled.values()] == [1, 0]

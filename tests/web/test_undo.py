"""Undo where it hurts (issue 19, item 4): a merge of players is undone from the player page, and a
deleted game is brought back for 30 days from Recently deleted, then it is gone for good."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select, update

from scorekeeper.web.extensions import db
from scorekeeper.web.services import backup, restore
from scorekeeper.web.services.games import KEPT_DELETED
from scorekeeper.web.store import tallies
from scorekeeper.web.store.columns import COLUMNS
from scorekeeper.web.store.models import (
    Correction,
    Entry,
    Game,
    Hand,
    Player,
    PlayerMerge,
    Side,
    now,
)

from .apps import another_app, tables
from .helpers import GOES_OUT, STAYS_IN, Actions

ANA_BO = {"side_list-0-players-0": "Ana", "side_list-0-players-1": "Bo"}
ANNA_CY = {"side_list-0-players-0": "Anna", "side_list-0-players-1": "Cy"}


def games_of(app: Flask) -> dict[str, int]:
    """How many games each player has in the statistics, by key."""
    with app.test_request_context():
        return {row.key: row.tally.games for row in tallies.statistics().players}


def banner(page: str) -> list[str]:
    return re.findall(r'<p class="banner" role="status">([^<]*)</p>', page)


def listed(page: str) -> list[str]:
    """The games a list shows, by what they go by."""
    return re.findall(r'<span class="title">([^<]*)</span>', page)


# --- a merge undone ------------------------------------------------------------------------------


def two_spellings(actions: Actions) -> tuple[str, str]:
    """A game of Ana and Bo and one of Anna and Cy: the same person, written two ways."""
    first = actions.new_game(players=ANA_BO)
    actions.record_hand(first, [GOES_OUT, STAYS_IN])
    second = actions.new_game(players=ANNA_CY)
    return first, second


def undo_button(page: str) -> str:
    """Where the player page's "Undo this merge" sends."""
    found = re.search(r'<form method="post" action="(/merges/\d+/undo)">', page)
    assert found, "no undo on the page"
    return found.group(1)


def test_a_merge_undone_from_the_player_page_counts_the_two_players_apart_again(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    _first, second = two_spellings(actions)
    assert client.post("/players/anna/merge", data={"merge-into": "ana"}).status_code == 302
    assert games_of(app)["ana"] == 2 and "anna" not in games_of(app)
    with app.app_context():
        revision = db.session.get(Game, second).revision  # type: ignore[union-attr]

    page = client.get("/players/ana").text
    assert "Anna: their games count as this player's since" in page
    undone = client.post(undo_button(page))
    assert undone.status_code == 302 and undone.headers["Location"] == "/players/anna"
    assert "Undone: their games count apart again." in client.get("/players/anna").text

    assert (games_of(app)["ana"], games_of(app)["anna"]) == (1, 1)
    assert "Undo this merge" not in client.get("/players/ana").text
    with app.app_context():
        game = db.session.get(Game, second)
        assert game is not None and game.revision != revision  # its pages are drawn again
        merge = db.session.scalars(select(PlayerMerge)).one()
        assert (merge.key, merge.into, merge.undone_at is not None) == ("anna", "ana", True)


def test_a_rename_to_a_name_already_taken_is_undone_with_the_names_as_they_were(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    _first, second = two_spellings(actions)
    response = client.post("/players/anna/rename", data={"rename-name": "ANA"})
    assert response.status_code == 302
    assert "Ana &amp; Cy" not in actions.scoreboard(second)  # now ANA in every game of Anna's
    assert games_of(app)["ana"] == 2

    assert client.post(undo_button(client.get("/players/ana").text)).status_code == 302
    assert (games_of(app)["ana"], games_of(app)["anna"]) == (1, 1)
    assert "Anna" in actions.scoreboard(second)
    with app.app_context():
        names = db.session.scalars(select(Player.name).order_by(Player.id)).all()
    assert [name for name in names if name] == ["Ana", "Bo", "Anna", "Cy"]


def test_a_merge_whose_players_were_renamed_since_cannot_be_undone_and_says_so(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    two_spellings(actions)
    client.post("/players/anna/merge", data={"merge-into": "ana"})
    undo = undo_button(client.get("/players/ana").text)
    client.post("/players/ana/rename", data={"rename-name": "Ana María"}, follow_redirects=True)
    before = games_of(app)

    refused = client.post(undo, follow_redirects=True)
    assert refused.status_code == 200
    assert banner(refused.text) == [
        "This merge can no longer be undone: some of those games&#39; players were renamed or"
        " merged again since."
    ]
    assert games_of(app) == before == {"ana maría": 2, "bo": 1, "cy": 1}


def test_a_merge_undone_twice_is_undone_once(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    two_spellings(actions)
    client.post("/players/anna/merge", data={"merge-into": "ana"})
    undo = undo_button(client.get("/players/ana").text)
    assert client.post(undo, follow_redirects=True).status_code == 200
    again = client.post(undo, follow_redirects=True)
    assert banner(again.text) == ["This merge was undone already."]
    assert (games_of(app)["ana"], games_of(app)["anna"]) == (1, 1)


def test_merges_undone_newest_first_undo_a_merge_of_merges(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    """Anna into Ana, then Ana into Bo: the first cannot be undone before the second is."""
    two_spellings(actions)
    client.post("/players/anna/merge", data={"merge-into": "ana"})
    first = undo_button(client.get("/players/ana").text)
    client.post("/players/ana/merge", data={"merge-into": "bo"})
    assert "already" not in banner(client.post(first, follow_redirects=True).text)[0]
    assert games_of(app)["bo"] == 2  # refused: Anna's rows are Bo's now
    assert client.post(undo_button(client.get("/players/bo").text)).status_code == 302
    assert client.post(first).status_code == 302
    assert games_of(app) == {"ana": 1, "anna": 1, "bo": 1, "cy": 1}


def test_undoing_a_merge_that_is_not_there_is_not_found(client: FlaskClient) -> None:
    for path in ("/merges/1/undo", "/merges/0/undo", f"/merges/{10**30}/undo"):
        assert client.post(path).status_code == 404, path


# --- a deleted game brought back ---------------------------------------------------------------


def delete(client: FlaskClient, game_id: str) -> None:
    assert client.post(f"/games/{game_id}/delete").status_code == 302


def test_the_delete_confirmation_says_the_game_can_be_brought_back_for_30_days(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    page = client.get(f"/games/{game_id}/delete").text
    assert "For 30 days it can be brought back from Recently deleted" in page
    assert "cannot be brought back" not in page
    delete(client, game_id)
    assert "It can be brought back from Recently deleted for 30 days." in client.get("/").text


def test_a_deleted_game_leaves_every_list_statistic_and_page_until_brought_back(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    kept = actions.new_game(names=("Kept", "Them"))
    gone = actions.new_game(names=("Gone", "Them"), players=ANA_BO)
    actions.record_hand(gone, [GOES_OUT, STAYS_IN])
    assert 'href="/games/deleted"' not in client.get("/").text
    delete(client, gone)

    for page in ("/", "/games", "/games?status=playing"):
        assert listed(client.get(page).text) == ["Kept · Them"], page
    assert listed(client.get("/games?player=ana").text) == []
    assert games_of(app) == {}
    assert client.get("/players/ana").status_code == 404
    for path in ("", "/manage", "/hands/new", "/export.json", "/result.json", "/rules"):
        assert client.get(f"/games/{gone}{path}").status_code == 404, path
    assert client.post(f"/games/{gone}/hands/new", data={}).status_code == 404

    assert '<a href="/games/deleted">Recently deleted</a>' in client.get("/").text
    page = client.get("/games/deleted").text
    assert listed(page) == ["Ana &amp; Bo · Them"]
    assert "A deleted game is kept for 30 days, then it is gone for good." in page
    back = client.post("/games/deleted", data={"game": gone})
    assert back.status_code == 302 and back.headers["Location"] == "/"
    home = client.get("/").text
    assert banner(home) == ["The game is back, with all its hands."]
    assert sorted(listed(home)) == ["Ana &amp; Bo · Them", "Kept · Them"]
    assert games_of(app) == {"ana": 1, "bo": 1}
    assert len(actions.result(gone)["hands"]) == 1
    assert 'href="/games/deleted"' not in client.get("/").text
    assert client.get(f"/games/{kept}").status_code == 200


@pytest.mark.parametrize("game", ["", "no-such-game", "x" * 5000])
def test_bringing_back_a_game_that_is_not_deleted_says_so(
    client: FlaskClient, actions: Actions, game: str
) -> None:
    live = actions.new_game()
    for sent in (game, live):
        answer = client.post("/games/deleted", data={"game": sent}, follow_redirects=True)
        assert answer.status_code == 200
        assert banner(answer.text) == ["That game is not among the recently deleted ones."]
    assert client.get(f"/games/{live}").status_code == 200


def rows_of(app: Flask, game_id: str) -> dict[str, int]:
    """How many rows of each kind the database keeps of a game."""
    with app.app_context():
        hands = select(Hand.id).where(Hand.game_id == game_id)
        sides = select(Side.id).where(Side.game_id == game_id)
        counted = {
            "game": select(Game.id).where(Game.id == game_id),
            "side": sides,
            "player": select(Player.id).where(Player.side_id.in_(sides)),
            "hand": hands,
            "entry": select(Entry.id).where(Entry.hand_id.in_(hands)),
            "correction": select(Correction.id).where(Correction.hand_id.in_(hands)),
        }
        return {
            name: db.session.scalar(select(func.count()).select_from(query.subquery())) or 0
            for name, query in counted.items()
        }


def deleted_days_ago(app: Flask, game_id: str, days: int) -> None:
    with app.app_context():
        db.session.execute(
            update(Game).where(Game.id == game_id).values(deleted_at=now() - timedelta(days=days))
        )
        db.session.commit()


@pytest.mark.parametrize("page", ["/games/deleted", "/"])
def test_a_game_deleted_31_days_ago_is_purged_and_one_of_29_days_kept(
    app: Flask, client: FlaskClient, actions: Actions, page: str
) -> None:
    old, recent = actions.new_game(players=ANA_BO), actions.new_game(names=("Recent", "Them"))
    for game_id in (old, recent):
        actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
        actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
        hand = actions.hand_ids(game_id)[0]
        client.post(f"/games/{game_id}/hands/{hand}/delete", data={"version": "1"})
        delete(client, game_id)
    assert rows_of(app, old) == {
        "game": 1, "side": 2, "player": 4, "hand": 2, "entry": 4, "correction": 1
    }  # fmt: skip
    deleted_days_ago(app, old, KEPT_DELETED.days + 1)
    deleted_days_ago(app, recent, KEPT_DELETED.days - 1)

    assert client.get(page).status_code == 200
    assert set(rows_of(app, old).values()) == {0}
    assert rows_of(app, recent)["hand"] == 2
    assert listed(client.get("/games/deleted").text) == ["Recent · Them"]
    assert client.post("/games/deleted", data={"game": recent}).status_code == 302
    assert client.get(f"/games/{recent}").status_code == 200


def test_with_every_deleted_game_purged_the_home_page_no_longer_links_to_them(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    delete(client, game_id)
    deleted_days_ago(app, game_id, 31)
    assert 'href="/games/deleted"' not in client.get("/").text
    assert "No deleted games." in client.get("/games/deleted").text


# --- kept by the backup, made by the migration --------------------------------------------------


def test_a_backup_keeps_deleted_games_and_merges_and_both_can_still_be_undone_once_restored(
    app: Flask, client: FlaskClient, actions: Actions, tmp_path: Path
) -> None:
    first, second = two_spellings(actions)
    client.post("/players/anna/merge", data={"merge-into": "ana"})
    client.post("/players/bo/merge", data={"merge-into": "cy"})
    client.post(undo_button(client.get("/players/cy").text))
    delete(client, first)
    with app.app_context():
        data = backup.backup()
    assert [merge["key"] for merge in data["player_merges"]] == ["anna", "bo"]
    assert [game["deleted_at"] is not None for game in data["games"]] == [True, False]

    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        assert restore.restore(json.loads(json.dumps(data))) == 2
    assert tables(restored) == tables(app)
    other = restored.test_client()
    assert other.get(f"/games/{first}").status_code == 404
    assert other.post("/games/deleted", data={"game": first}).status_code == 302
    assert other.post(undo_button(other.get("/players/ana").text)).status_code == 302
    assert (games_of(restored)["ana"], games_of(restored)["anna"]) == (1, 1)
    assert second in other.get("/players/anna").text


@pytest.mark.parametrize(
    ("merge", "message"),
    [
        ({"players": [1, 2], "names": ["Ana"]}, "player_merges[0].names: 1 names for 2 players"),
        ({"players": ["1"]}, "player_merges[0].players[0]: expected a whole number"),
        ({"into": "anna"}, "player_merges[0].into: a player is not merged into themselves"),
        ({"key": ""}, "player_merges[0].key: must not be empty"),
        ({"colour": "red"}, "player_merges[0]: unknown field 'colour'"),
    ],
)
def test_a_backup_with_a_merge_the_app_would_not_keep_is_refused(
    app: Flask, tmp_path: Path, merge: dict[str, Any], message: str
) -> None:
    row = {"id": 1, "key": "anna", "into": "ana", "players": [1], "names": ["Anna"]}
    row["at"] = "2026-11-26T10:00:00"
    with app.app_context():
        data = backup.backup()
    data["player_merges"] = [{**row, **merge}]
    with (
        another_app(tmp_path, "restored.sqlite3").app_context(),
        pytest.raises(restore.BackupError) as refused,
    ):
        restore.restore(data)
    assert str(refused.value).startswith(message)


def test_a_backup_made_before_merges_were_kept_restores(app: Flask, tmp_path: Path) -> None:
    with app.app_context():
        data = backup.backup()
    del data["player_merges"]
    with another_app(tmp_path, "restored.sqlite3").app_context():
        assert restore.restore(data) == 0


def test_the_schema_knows_every_column_of_every_model() -> None:
    for mapper in db.Model.registry.mappers:
        model = mapper.class_
        assert set(COLUMNS[model]) == set(model.__table__.columns.keys()), model.__name__


def test_a_merge_of_a_player_whose_games_were_purged_since_is_undone_for_the_rows_left(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    _first, second = two_spellings(actions)
    client.post("/players/anna/merge", data={"merge-into": "ana"})
    undo = undo_button(client.get("/players/ana").text)
    delete(client, second)
    deleted_days_ago(app, second, 31)
    assert client.get("/games/deleted").status_code == 200  # purged
    undone = client.post(undo)
    assert undone.status_code == 302 and undone.headers["Location"] == "/stats"
    assert "Undone: their games count apart again." in client.get("/stats").text
    assert games_of(app) == {"ana": 1, "bo": 1}

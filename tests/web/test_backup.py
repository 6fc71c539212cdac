"""A backup of everything restores into an empty database exactly, or not at all."""

from __future__ import annotations

import copy
import json
import re
import subprocess
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event, select, update
from sqlalchemy.exc import OperationalError

from scorekeeper import rules
from scorekeeper.web.extensions import db
from scorekeeper.web.services.hands import record_hand
from scorekeeper.web.services.restore import BackupError, DatabaseNotEmpty, read_backup, restore
from scorekeeper.web.store.columns import SchemaError
from scorekeeper.web.store.models import Correction, Hand, Player, Side
from tests import command

from .apps import TEST_CONFIG, another_app, backup_of, built_app, stored_games, tables
from .helpers import GOES_OUT, STAYS_IN, Actions, a_night, game_of, games_of_every_kind

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "cases"


def page_of(actions: Actions, game_id: str) -> str:
    """The scoreboard, without its forms' one-time tokens and the revision its script follows
    (a restored game is at a revision of its own)."""
    page = re.sub(r'<input[^>]*name="(?:csrf_token|token)"[^>]*>', "", actions.scoreboard(game_id))
    return re.sub(r'data-revision="[^"]*"', "", page)


def test_a_backup_restored_into_an_empty_database_is_the_same_database(
    app: Flask, client: FlaskClient, actions: Actions, tmp_path: Path
) -> None:
    games = games_of_every_kind(app, client, actions)
    first = backup_of(app)
    assert [game["id"] for game in first["games"]] == games
    assert first["format"] == "samba-scorekeeper-backup" and first["version"] == 5

    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        assert restore(json.loads(json.dumps(first))) == len(games)

    assert backup_of(restored) == first
    # Same ids, timestamps, deleted hands and totals; a deleted hand's entries keep no score,
    # as no replay scores them.
    deleted = {row[0] for row in tables(app)["hand"] if row[-1] is not None}
    expected = tables(app)
    expected["entry"] = [
        (*row[:-1], None) if row[1] in deleted else row for row in expected["entry"]
    ]
    assert tables(restored) == expected
    other = restored.test_client()
    for game_id in games:
        for page in ("result.json", "export.json", "export.csv"):
            assert (
                other.get(f"/games/{game_id}/{page}").data
                == client.get(f"/games/{game_id}/{page}").data
            )
        assert page_of(Actions(other), game_id) == page_of(actions, game_id)


def test_the_backup_keeps_what_the_scoreboard_does_not_show(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    games_of_every_kind(app, client, actions)
    data = backup_of(app)
    played = data["games"][2]
    assert [h["deleted_at"] is not None for h in played["hands"]] == [True, False, False]
    assert [len(h["corrections"]) for h in played["hands"]] == [1, 1, 0]
    assert played["hands"][0]["corrections"][0]["after"] is None
    assert data["games"][1]["house_rules"]["name"] == "Casa Núñez"
    assert [rule["name"] for rule in data["house_rules"]] == ["Los jueves"]
    named = data["games"][3]
    assert (named["name"], named["token"], named["first_dealer"]) == ("Los jueves", "one-time", 2)
    assert named["archived_at"] is not None
    assert data["house_rules"][0]["created_at"] == "2024-05-02T20:15:01.123456"
    assert "total" not in played["sides"][0] and "totals" not in played


def test_the_copied_totals_are_replayed_not_read_from_the_file(
    app: Flask, client: FlaskClient, actions: Actions, tmp_path: Path
) -> None:
    games_of_every_kind(app, client, actions)
    data = backup_of(app)
    data["games"][0]["totals"] = [1, 2]
    with (
        another_app(tmp_path, "restored.sqlite3").app_context(),
        pytest.raises(BackupError) as refused,
    ):
        restore(data)
    assert str(refused.value) == "games[0]: unknown field 'totals'"


def test_the_download_is_the_backup(app: Flask, client: FlaskClient, actions: Actions) -> None:
    games_of_every_kind(app, client, actions)
    response = client.get("/backup.json")
    assert response.status_code == 200
    assert response.headers["Content-Disposition"].startswith(
        'attachment; filename="samba-scorekeeper-backup-'
    )
    assert response.get_json() == backup_of(app)


def test_a_restore_into_a_database_that_holds_anything_is_refused(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    games_of_every_kind(app, client, actions)
    data = backup_of(app)
    before = tables(app)
    with app.app_context(), pytest.raises(DatabaseNotEmpty, match="not empty"):
        restore(data)
    assert tables(app) == before


def test_a_database_that_holds_only_a_club_night_is_not_empty_for_a_restore(
    app: Flask, client: FlaskClient
) -> None:
    a_night(client)  # set up, no round started: no game, no player yet
    source = built_app(TEST_CONFIG)
    game_of(source.test_client(), 2)
    before = tables(app)
    with app.app_context(), pytest.raises(DatabaseNotEmpty, match="not empty"):
        restore(backup_of(source))
    assert tables(app) == before


@contextmanager
def refused_when_writing(app: Flask, table: str) -> Iterator[None]:
    """The database fails a statement that writes to `table` (as a full disk would)."""

    def fail(_connection: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        if statement.lstrip().upper().startswith(f"INSERT INTO {table.upper()} "):
            raise OperationalError(statement, None, Exception("disk I/O error"))

    with app.app_context():
        engine = db.engine
    event.listen(engine, "before_cursor_execute", fail)
    try:
        yield
    finally:
        event.remove(engine, "before_cursor_execute", fail)


def test_a_restore_that_fails_halfway_stores_nothing(
    app: Flask, client: FlaskClient, actions: Actions, tmp_path: Path
) -> None:
    games_of_every_kind(app, client, actions)
    data = backup_of(app)
    empty = another_app(tmp_path, "empty.sqlite3")
    # The corrections come after the games, sides, players, hands and entries they belong to.
    with (
        refused_when_writing(empty, Correction.__table__.name),
        empty.app_context(),
        pytest.raises(BackupError, match="disk I/O error"),
    ):
        restore(data)
    assert all(rows == [] for rows in tables(empty).values())
    with empty.app_context():
        assert restore(data) == len(data["games"])  # and it may be tried again


def _set(path: str, value: object) -> Callable[[dict[str, Any]], None]:
    """Change one value of a backup, found by a path like `games.0.sides.1.name`."""

    def change(data: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = data
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        target[int(last) if isinstance(target, list) else last] = value

    return change


def _duplicate_game(data: dict[str, Any]) -> None:
    data["games"].append(copy.deepcopy(data["games"][0]))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("format", "game-file"), "This is not a Samba Scorekeeper backup"),
        (_set("version", 6), "Backup version 6: this Samba Scorekeeper restores versions 1 to 5."),
        (_set("version", 0), "Backup version 0: this Samba Scorekeeper restores versions 1 to 5."),
        (_set("games", {}), "games: expected a list"),
        (_set("house_rules", None), "house_rules: expected a list"),
        (_set("games.0", "a game"), "games[0]: expected an object"),
        (_set("games.0.sides.0.colour", "red"), "games[0].sides[0]: unknown field 'colour'"),
        (_set("games.0.sides.0.name", 7), "games[0].sides[0].name: expected a string, got 7"),
        (
            _set("games.0.sides.0.name", "n" * 41),
            "games[0].sides[0].name: expected at most 40 characters",
        ),
        (_set("games.0.system_id", None), "games[0].system_id: must not be null"),
        (_set("games.0.hands", "none"), "games[0].hands: expected a list"),
        (
            _set("games.0.hands.0.created_at", "yesterday"),
            "games[0].hands[0].created_at: expected a date and time, got 'yesterday'",
        ),
        (
            _set("games.0.hands.0.entries.0.went_out", "yes"),
            "games[0].hands[0].entries[0].went_out: expected true or false, got 'yes'",
        ),
        (
            _set("games.0.hands.0.entries.0.melded_points", True),
            "games[0].hands[0].entries[0].melded_points: expected a whole number, got True",
        ),
        (_set("games.0.system_id", "canasta"), "games[0].system_id: expected one of black-samba"),
        (
            _set("games.0.hands.0.entries.0.sets", {"joker": 1}),
            "games[0].hands[0].entries[0].sets.joker: not a set kind of this game's rules",
        ),
        (_set("games.0.hands.0.entries", []), "games[0].hands[0].entries: 0 entries for 2 sides"),
        (_duplicate_game, "games[4].sides[0].players[0].id: 1 is already the id of games[0]"),
        (_set("house_rules.0.name", None), "house_rules[0].name: must not be null"),
        (_set("games.3.first_dealer", 4), "games[3].first_dealer: expected a seat from 0 to 3"),
        (_set("games.3.first_dealer", None), "games[3].first_dealer: must not be null"),
        (_set("games.3.name", ""), "games[3].name: must not be empty"),
        (_set("games.3.name", "n" * 41), "games[3].name: expected at most 40 characters"),
        (_set("games.3.archived_at", "soon"), "games[3].archived_at: expected a date and time"),
        (_set("games.3.token", "not a token!"), "games[3].token: not a valid value"),
        (_set("games.2.token", "one-time"), "games[3].token: already the token of games[2]"),
        (_set("rating_pool", "both"), "rating_pool: expected 'all' or 'apart', got \"both\""),
        (_set("rating_pool", None), "rating_pool: expected 'all' or 'apart', got null"),
    ],
)
def test_a_malformed_backup_is_refused_with_a_one_line_reason_and_stores_nothing(
    app: Flask,
    client: FlaskClient,
    actions: Actions,
    tmp_path: Path,
    change: Callable[[dict[str, Any]], None],
    message: str,
) -> None:
    games_of_every_kind(app, client, actions)
    data = backup_of(app)
    change(data)
    empty = another_app(tmp_path, "empty.sqlite3")
    with empty.app_context(), pytest.raises(BackupError) as refused:
        restore(data)
    assert isinstance(refused.value, ValueError)
    assert message in str(refused.value)
    assert "\n" not in str(refused.value)
    assert all(rows == [] for rows in tables(empty).values())


def test_a_file_that_is_not_a_backup_at_all_is_refused(tmp_path: Path) -> None:
    with another_app(tmp_path, "empty.sqlite3").app_context():
        for data in ([], None, "backup", {"games": []}):
            with pytest.raises(BackupError, match="not a Samba Scorekeeper backup"):
                restore(data)


def test_an_empty_backup_restores_nothing(app: Flask, tmp_path: Path) -> None:
    data = backup_of(app)
    assert data == {
        "format": "samba-scorekeeper-backup",
        "version": 5,
        "games": [],
        "house_rules": [],
        "player_merges": [],
        "nights": [],
        "seasons": [],
        "ratings": [],
        "rated_games": [],
        "rating_steps": [],
        "rating_pool": "all",
    }
    empty = another_app(tmp_path, "empty.sqlite3")
    with empty.app_context():
        assert restore(data) == 0
    assert stored_games(empty) == 0


def scorekeeper(
    database_file: Path, *args: str, stdin: str | None = None
) -> subprocess.CompletedProcess[str]:
    """`scorekeeper …` on its own database, as an operator runs it (in this process)."""
    env = {"DATABASE_URL": f"sqlite:///{database_file}", "SECRET_KEY": "test"}
    return command.scorekeeper(*args, stdin=stdin, env=env)


@pytest.mark.once  # the commands on a SQLite file, whatever the run's database
def test_the_commands_back_up_and_restore_a_database_file(tmp_path: Path) -> None:
    source = tmp_path / "source.sqlite3"
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{source}"})
    client = app.test_client()
    games_of_every_kind(app, client, Actions(client))
    saved = tmp_path / "backup.json"

    made = scorekeeper(source, "backup", str(saved))
    assert (made.returncode, made.stdout, made.stderr) == (0, "", "")
    assert json.loads(saved.read_text(encoding="utf-8")) == backup_of(app)

    target = tmp_path / "target.sqlite3"  # does not exist yet: restore builds the schema
    restored = scorekeeper(target, "restore", str(saved))
    assert (restored.returncode, restored.stderr) == (0, "")
    assert "restored 4 games" in restored.stdout

    again = scorekeeper(target, "backup")
    assert again.returncode == 0
    assert json.loads(again.stdout) == json.loads(saved.read_text(encoding="utf-8"))

    piped = scorekeeper(tmp_path / "piped.sqlite3", "restore", "-", stdin=saved.read_text())
    assert piped.returncode == 0


@pytest.mark.once  # the commands on a SQLite file, whatever the run's database
@pytest.mark.parametrize(
    ("args", "stdin", "message"),
    [
        (("restore", "{saved}"), None, "The database is not empty"),
        (("restore", "{missing}"), None, "cannot read it"),
        (("restore", "-"), "{not json", "standard input: not JSON"),
        (("restore", "-"), '{"format": "samba-scorekeeper-backup"}', "Backup version null"),
        (("backup", "{missing_dir}"), None, "cannot write it"),
    ],
)
def test_a_command_that_cannot_do_its_job_says_why_in_one_line_and_exits_2(
    tmp_path: Path, args: tuple[str, ...], stdin: str | None, message: str
) -> None:
    full = tmp_path / "full.sqlite3"
    saved = tmp_path / "backup.json"
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{full}"})
    Actions(app.test_client()).new_game()
    assert scorekeeper(full, "backup", str(saved)).returncode == 0
    places = {
        "saved": str(saved),
        "missing": str(tmp_path / "missing.json"),
        "missing_dir": str(tmp_path / "no" / "such" / "backup.json"),
    }
    done = scorekeeper(full, *(arg.format(**places) for arg in args), stdin=stdin)
    assert done.returncode == 2
    assert message in done.stderr
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert stored_games(app) == 1


@pytest.mark.once  # the commands on a SQLite file, whatever the run's database
def test_backing_up_a_database_that_was_never_set_up_says_so(tmp_path: Path) -> None:
    done = scorekeeper(tmp_path / "never.sqlite3", "backup")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == "cannot read the database: no such table: game\n"


# --- what the app lets in restores ---------------------------------------------------------------


def restored_copy(app: Flask, tmp_path: Path) -> Flask:
    """A new database holding the restore of `app`'s backup, checked to back up the same."""
    data = json.loads(json.dumps(backup_of(app)))
    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        restore(data)
    assert backup_of(restored) == data
    return restored


def test_players_whose_names_casefold_longer_than_the_name_restore(
    app: Flask, actions: Actions, tmp_path: Path
) -> None:
    game_id = actions.new_game(
        players={"side_list-0-players-0": "ß" * 40, "side_list-0-players-1": "ΐ" * 40}
    )
    restored = restored_copy(app, tmp_path)
    with restored.app_context():
        keys = db.session.scalars(select(Player.key).order_by(Player.id)).all()
    assert keys[:2] == ["ss" * 40, "ΐ".casefold() * 40]
    assert len(keys[1]) == 120
    assert page_of(Actions(restored.test_client()), game_id) == page_of(actions, game_id)


def test_a_player_renamed_to_a_name_that_casefolds_longer_restores(
    app: Flask, client: FlaskClient, actions: Actions, tmp_path: Path
) -> None:
    actions.new_game(players={"side_list-0-players-0": "Ana"})
    response = client.post("/players/ana/rename", data={"rename-name": "Straße" * 6})
    assert response.status_code == 302
    restored = restored_copy(app, tmp_path)
    with restored.app_context():
        player = db.session.scalars(select(Player).order_by(Player.id)).first()
        assert player is not None
        assert (player.name, player.key) == ("Straße" * 6, "strasse" * 6)


def test_the_app_keeps_no_token_longer_than_a_restore_accepts(app: Flask, actions: Actions) -> None:
    game_id = actions.new_game()
    hand = rules.Hand(
        (
            rules.Entry(
                went_out=True,
                sets={rules.SetKind.SAMBA: 1, rules.SetKind.NATURAL_CANASTA: 1},
                melded_points=260,
            ),
            rules.Entry(),
        )
    )
    with app.app_context():
        with pytest.raises(SchemaError, match=r"Hand\.token: expected at most 40 characters"):
            record_hand(game_id, hand, "t" * 41)
        db.session.rollback()
        assert record_hand(game_id, hand, "t" * 40).number == 1


def test_a_hand_form_token_of_41_characters_is_refused_by_the_form(
    app: Flask, actions: Actions, tmp_path: Path
) -> None:
    game_id = actions.new_game()
    response = actions.post_hand(game_id, [GOES_OUT, STAYS_IN], token="t" * 41)
    assert response.status_code == 422
    assert "This form was not made here" in response.text
    restored_copy(app, tmp_path)


@pytest.mark.parametrize(
    ("column", "value", "message"),
    [
        ("start_score", 10**10, "Side.start_score: expected a whole number from -100,000"),
        ("start_score", 1.5, "Side.start_score: expected a whole number, got 1.5"),
        ("name", "n" * 41, "Side.name: expected at most 40 characters, got 41"),
        ("name", "\ud800", "Side.name: not a string a database can keep"),
    ],
)
def test_a_write_the_schema_refuses_is_not_flushed(
    app: Flask, actions: Actions, column: str, value: object, message: str
) -> None:
    game_id = actions.new_game()
    with app.app_context():
        side = db.session.scalars(select(Side).where(Side.game_id == game_id)).first()
        setattr(side, column, value)
        with pytest.raises(SchemaError) as refused:
            db.session.commit()
        assert str(refused.value).startswith(message)
        db.session.rollback()
    with app.app_context():
        stored = db.session.scalars(select(Side).where(Side.game_id == game_id)).first()
        assert stored is not None and (stored.name, stored.start_score) == ("Us", 0)


def test_a_deleted_hand_brought_back_restores(
    app: Flask, actions: Actions, client: FlaskClient, tmp_path: Path
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    assert client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": "1"})
    with app.app_context():
        hand = db.session.get(Hand, hand_id)
        assert hand is not None and hand.deleted_at is not None
        hand.deleted_at = None
        hand.corrections.append(Correction(before=None, after=hand.corrections[0].before))
        db.session.commit()
    restored = restored_copy(app, tmp_path)
    with restored.app_context():
        corrections = db.session.scalars(select(Correction).order_by(Correction.id)).all()
        assert [(c.before is None, c.after is None) for c in corrections] == [
            (False, True),
            (True, False),
        ]


def test_a_backup_with_melded_points_of_10_to_the_30_is_refused_without_a_traceback(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source.sqlite3"
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{source}"})
    client = app.test_client()
    games_of_every_kind(app, client, Actions(client))
    data = backup_of(app)
    data["games"][2]["hands"][2]["entries"][0]["melded_points"] = 10**30
    saved = tmp_path / "hostile.json"
    saved.write_text(json.dumps(data), encoding="utf-8")
    target = tmp_path / "target.sqlite3"
    done = scorekeeper(target, "restore", str(saved))
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == (
        f"{saved}: games[2].hands[2].entries[0].melded_points:"
        " expected a whole number from 0 to 1,000,000,000\n"
    )
    assert all(rows == [] for rows in tables(another_app(tmp_path, "target.sqlite3")).values())


@pytest.mark.sqlite  # an INTEGER column of PostgreSQL never held such a value
def test_a_value_an_older_version_let_in_does_not_block_todays_writes(
    app: Flask, actions: Actions
) -> None:
    game_id = actions.new_game()
    with app.app_context():
        db.session.execute(
            update(Side).where(Side.game_id == game_id).values(start_score=10_000_000_000)
        )
        db.session.commit()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert len(actions.hand_ids(game_id)) == 1
    with app.app_context(), pytest.raises(BackupError, match=r"start_score: expected a whole"):
        read_backup(json.loads(json.dumps(backup_of(app))))

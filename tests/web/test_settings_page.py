"""The settings page: a backup in one tap, and a backup restored from the phone into an empty
scorekeeper, or refused with the reason next to the file and nothing written."""

from __future__ import annotations

import json
import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient

from .apps import another_app, everything, stored_games
from .helpers import Actions, errors_of, restored


def backed_up(client: FlaskClient) -> bytes:
    """The backup of a database with one game of two hands."""
    actions = Actions(client)
    actions.new_game(names=("Ana", "Luis"))
    return client.get("/backup.json").data


def test_the_home_page_leads_to_the_settings_page_with_a_big_button(client: FlaskClient) -> None:
    assert '<a class="button big" href="/settings">Settings and backup</a>' in client.get("/").text


def test_the_settings_page_has_a_button_that_downloads_the_backup(client: FlaskClient) -> None:
    page = client.get("/settings").text
    button = re.search(
        r'<a class="button primary big" href="/backup.json" download>([^<]*)</a>', page
    )
    assert button and button.group(1) == "Back up everything"
    assert 'href="/restore"' in page


def test_the_backup_downloads_as_a_dated_file(client: FlaskClient) -> None:
    response = client.get("/backup.json")
    assert re.fullmatch(
        r'attachment; filename="samba-scorekeeper-backup-\d{4}-\d\d-\d\d\.json"',
        response.headers["Content-Disposition"],
    )
    assert response.cache_control.no_store


def test_a_backup_restored_from_the_phone_brings_every_game_back(
    app: Flask, client: FlaskClient, tmp_path: Path
) -> None:
    backup = backed_up(client)
    phone = another_app(tmp_path, "new.sqlite3").test_client()  # a new, empty scorekeeper
    assert phone.get("/restore").status_code == 200
    response = restored(phone, backup)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    home = phone.get("/").text
    assert "Restored 1 game." in home
    assert "Ana" in home and "Luis" in home
    assert json.loads(phone.get("/backup.json").data) == json.loads(backup)


def test_a_backup_is_not_restored_over_games_already_there(app: Flask, client: FlaskClient) -> None:
    backup = backed_up(client)
    before = everything(app)
    response = restored(client, backup)
    assert response.status_code == 422
    assert "already holds games or house rules" in errors_of(response.text, "backup_file")
    assert everything(app) == before


def test_a_file_that_is_not_json_is_refused_next_to_the_field(
    app: Flask, client: FlaskClient
) -> None:
    response = restored(client, b"\x89PNG not a backup", "photo.png")
    assert response.status_code == 422
    assert "This file is not a backup: it is not JSON." in errors_of(response.text, "backup_file")
    assert 'aria-describedby="backup_file-errors"' in response.text
    assert stored_games(app) == 0


def test_a_game_file_is_not_a_backup(client: FlaskClient, tmp_path: Path) -> None:
    game_id = Actions(client).new_game()
    game_file = client.get(f"/games/{game_id}/export.json").data
    empty = another_app(tmp_path, "new.sqlite3")
    response = restored(empty.test_client(), game_file)
    assert response.status_code == 422
    assert "This file is not a backup this app can restore" in errors_of(
        response.text, "backup_file"
    )
    assert stored_games(empty) == 0


def test_restoring_without_a_file_asks_for_one(client: FlaskClient) -> None:
    response = client.post("/restore", data={})
    assert response.status_code == 422
    assert errors_of(response.text, "backup_file")


def test_a_backup_larger_than_a_game_file_may_be(tmp_path: Path, client: FlaskClient) -> None:
    """A game file is at most 1 MB; a backup holds every game ever played."""
    padded = backed_up(client).replace(b"{", b"{" + b" " * 400_000, 3)
    assert len(padded) > 1024 * 1024
    phone = another_app(tmp_path, "new.sqlite3").test_client()
    assert restored(phone, padded).status_code == 302


def test_a_restore_in_spanish_says_so_in_spanish(client: FlaskClient) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    response = restored(client, b"no")
    assert "Este archivo no es una copia de seguridad" in errors_of(response.text, "backup_file")

"""The table's lock in a club set-up: the PIN remembered by every server process and after a
restart, signing out that the server honours, a PIN that whoever holds the machine can clear,
a restore onto a server that has a PIN, `Secure` cookies over https, and what a request carries
read as the database can hold it (PostgreSQL keeps no NUL, nor an address over 64 characters)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import Phone, PinAttempt, TableSetting
from tests import command

from .apps import TEST_CONFIG, built_app, database_url
from .helpers import game_of, restored
from .sharing import links, opened

PIN = "2468"


@pytest.fixture
def club_url(tmp_path: Path) -> str:
    """The club's one database, which every server process of a test opens (a file, or a
    database on the run's PostgreSQL)."""
    return database_url(tmp_path, "club.sqlite3")


def club(url: str, pin: str = PIN, secret: str = "club", **config: object) -> Flask:
    """One server process of the club (or the same one restarted): its own app on the club's
    database, with SCOREKEEPER_PIN and the secret key every process shares."""
    return built_app(
        {**TEST_CONFIG, "SECRET_KEY": secret, "PIN": pin, "SQLALCHEMY_DATABASE_URI": url, **config}
    )


def entered(app: Flask, pin: str = PIN) -> FlaskClient:
    phone = app.test_client()
    answer = phone.post("/pin", data={"pin": pin, "next": "/"})
    assert answer.status_code == 302, answer.text
    return phone


def cookie_of(phone: FlaskClient) -> str:
    cookie = phone.get_cookie("session")
    assert cookie is not None
    return cookie.value


def with_cookie(app: Flask, value: str) -> FlaskClient:
    """Another browser carrying a copy of a phone's session cookie."""
    copy = app.test_client()
    copy.set_cookie("session", value)
    return copy


def cookie_text(app: Flask, phone: FlaskClient) -> set[str]:
    """The texts a phone's session cookie holds: anyone who has the cookie reads them (Flask
    signs it, it does not hide it)."""
    serializer = SecureCookieSessionInterface().get_signing_serializer(app)
    assert serializer is not None
    held = serializer.loads(cookie_of(phone))
    return {value for value in held.values() if isinstance(value, str)}


# --- 1. SCOREKEEPER_PIN is remembered by every process, and after a restart ----------------------


def test_a_phone_that_entered_the_server_pin_is_let_in_by_every_process(club_url: str) -> None:
    first, second = club(club_url), club(club_url)
    phone = entered(first)
    other = with_cookie(second, cookie_of(phone))
    assert [other.get(page).status_code for page in ("/stats", "/", "/settings")] == [200] * 3


def test_the_server_pin_is_remembered_after_a_restart_and_a_new_pin_forgets_it(
    club_url: str,
) -> None:
    phone = entered(club(club_url))
    restarted = with_cookie(club(club_url), cookie_of(phone))
    assert restarted.get("/stats").status_code == 200
    new_pin = with_cookie(club(club_url, pin="97531"), cookie_of(phone))
    assert new_pin.get("/stats").status_code == 403
    other_key = with_cookie(club(club_url, secret="another"), cookie_of(phone))
    assert other_key.get("/stats").status_code == 403


def test_a_cookie_tells_nothing_of_the_server_pin_without_the_secret_key(club_url: str) -> None:
    """The PIN's mark in a cookie is keyed by the server's secret: two servers with the same
    PIN and other secret keys mark it differently, so no one can try PINs against a cookie
    they read, away from the server."""
    here, elsewhere = club(club_url), club(club_url, secret="another")
    marked_here = cookie_text(here, entered(here))
    marked_elsewhere = cookie_text(elsewhere, entered(elsewhere))
    assert marked_here and marked_elsewhere
    assert marked_here.isdisjoint(marked_elsewhere)
    assert not any(PIN in text for text in marked_here | marked_elsewhere)


def test_signing_every_other_phone_out_revokes_them_but_not_this_one(club_url: str) -> None:
    app = club(club_url)
    table, other = entered(app), entered(app)
    answer = table.post("/settings/pin/sign-out-everyone")
    assert answer.status_code == 302
    assert "1 other phone was signed out." in table.get(answer.headers["Location"]).text
    assert other.get("/stats").status_code == 403
    assert table.get("/stats").status_code == 200
    with_restart = with_cookie(club(club_url), cookie_of(table))
    assert with_restart.get("/stats").status_code == 200


def test_a_phone_signed_out_by_the_table_gets_back_only_what_a_link_gives(club_url: str) -> None:
    app = club(club_url)
    table, other = entered(app), entered(app)
    joined, followed = game_of(table, 1), game_of(table, 1)
    opened(app, "join", links(table, joined)["join"], other)
    assert table.post("/settings/pin/sign-out-everyone").status_code == 302

    opened(app, "follow", links(table, followed)["follow"], other)

    assert other.get(f"/games/{followed}/follow").status_code == 200
    # What the session held before it was signed out counts no more: not the PIN...
    assert other.get("/stats").status_code == 403
    assert other.get(f"/games/{followed}/hands/new").status_code == 403
    # ...nor the links it had opened.
    assert other.get(f"/games/{joined}/hands/new").status_code == 403
    assert other.get(f"/games/{joined}").status_code == 403


# --- 9. "Sign this phone out" is honoured by the server ---------------------------------------


def test_a_copy_of_the_cookie_taken_before_signing_out_is_refused(club_url: str) -> None:
    app = club(club_url)
    phone = entered(app)
    game_id = game_of(phone, 1)
    copy = with_cookie(app, cookie_of(phone))
    assert copy.get(f"/games/{game_id}").status_code == 200
    assert phone.post("/pin/forget").status_code == 302
    assert copy.get(f"/games/{game_id}").status_code == 403
    assert copy.get("/stats").status_code == 403
    assert copy.post(f"/games/{game_id}/archive").status_code == 403
    with app.app_context():
        assert db.session.scalars(select(Phone.id)).all() == []


def test_a_copy_of_a_join_link_phone_cookie_is_refused_once_it_signs_out(club_url: str) -> None:
    app = club(club_url)
    game_id = game_of(entered(app), 1)
    with app.app_context():
        from scorekeeper.web.store.models import Game

        game = db.session.get(Game, game_id)
        assert game is not None
        join = game.join_token
    phone = app.test_client()
    assert phone.get(f"/join/{join}").status_code == 302
    copy = with_cookie(app, cookie_of(phone))
    assert copy.get(f"/games/{game_id}/hands/new").status_code == 200
    phone.post("/pin/forget")
    assert copy.get(f"/games/{game_id}/hands/new").status_code == 403


# --- 4. A PIN whoever holds the machine can clear ----------------------------------------------


def stored_pin(app: Flask) -> str | None:
    with app.app_context():
        return db.session.scalar(select(TableSetting.value).where(TableSetting.key == "pin"))


def test_the_command_clears_a_pin_set_from_a_phone_and_signs_every_phone_out(
    tmp_path: Path,
) -> None:
    database = tmp_path / "table.sqlite3"
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    prankster = app.test_client()
    answer = prankster.post("/settings/pin", data={"new": "6666", "again": "6666"})
    assert answer.status_code == 302
    assert app.test_client().get("/stats").status_code == 403  # everyone else is locked out
    guesser = app.test_client()
    for guess in ("1111", "2222", "3333"):  # the table tries what the PIN might be
        assert guesser.post("/pin", data={"pin": guess, "next": "/"}).status_code == 422
    done = command.scorekeeper("clear-pin", env={"DATABASE_URL": f"sqlite:///{database}"})
    assert done.returncode == 0, done.stderr
    assert done.stdout == "The PIN set from a phone is removed; 1 phones signed out.\n"
    assert stored_pin(app) is None
    assert app.test_client().get("/stats").status_code == 200
    again = command.scorekeeper("clear-pin", env={"DATABASE_URL": f"sqlite:///{database}"})
    assert again.stdout.startswith("No PIN was set from a phone")
    # The wrong guesses went with the PIN: a new one may be mistyped as any PIN may be, and the
    # right one is let in at once.
    table = app.test_client()
    assert table.post("/settings/pin", data={"new": PIN, "again": PIN}).status_code == 302
    for guess in ("1111", "2222"):
        assert guesser.post("/pin", data={"pin": guess, "next": "/"}).status_code == 422
    assert guesser.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302


def test_with_the_server_pin_set_a_stored_pin_can_be_removed(club_url: str) -> None:
    open_table = club(club_url, pin="")
    assert (
        open_table.test_client()
        .post("/settings/pin", data={"new": "6666", "again": "6666"})
        .status_code
        == 302
    )
    app = club(club_url)
    phone = entered(app)
    page = phone.get("/settings/pin").text
    assert "Remove the PIN set on this page" in page
    assert phone.post("/settings/pin/remove-stored").status_code == 302
    assert stored_pin(app) is None
    assert "Remove the PIN set on this page" not in phone.get("/settings/pin").text
    assert open_table.test_client().get("/stats").status_code == 200  # without the server's


# --- 3. A server with a PIN (and wrong guesses) is empty for a restore ------------------------


def test_a_backup_is_restored_from_the_phone_onto_a_new_server_with_a_pin(club_url: str) -> None:
    source = built_app(TEST_CONFIG)
    source_phone = source.test_client()
    game_of(source_phone, 2)
    backup = source_phone.get("/backup.json").data
    app = club(club_url, pin="")
    phone = app.test_client()  # sets the table's PIN on the settings page: it knows it
    assert phone.post("/settings/pin", data={"new": PIN, "again": PIN}).status_code == 302
    guess = {"pin": "0000", "next": "/"}
    app.test_client().post("/pin", data=guess, environ_base={"REMOTE_ADDR": "192.0.2.1"})
    answer = restored(phone, backup)
    assert answer.status_code == 302, answer.text
    assert "Restored 1 game." in phone.get("/").text


def test_the_command_restores_onto_a_database_with_a_pin_and_a_wrong_guess(
    tmp_path: Path,
) -> None:
    database = tmp_path / "table.sqlite3"
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{database}"})
    table = app.test_client()
    table.post("/settings/pin", data={"new": PIN, "again": PIN})
    app.test_client().post("/pin", data={"pin": "0000", "next": "/"})
    with app.app_context():
        assert db.session.scalars(select(PinAttempt.failures)).all() == [1]
    source = built_app(TEST_CONFIG).test_client()
    game_of(source, 1)
    saved = tmp_path / "backup.json"
    saved.write_bytes(source.get("/backup.json").data)
    done = command.scorekeeper("restore", str(saved), env={"DATABASE_URL": f"sqlite:///{database}"})
    assert (done.returncode, done.stderr) == (0, "")
    assert table.get("/").status_code == 200


# --- 8. A backup without a key its rows hold is refused with a message ------------------------


def without_options(client: FlaskClient) -> bytes:
    game_of(client, 1)
    data = json.loads(client.get("/backup.json").data)
    del data["games"][0]["options"]
    return json.dumps(data).encode()


def test_a_backup_whose_game_lacks_options_is_refused_on_the_phone(app: Flask) -> None:
    backup = without_options(built_app(TEST_CONFIG).test_client())
    answer = restored(app.test_client(), backup)
    assert answer.status_code == 422
    assert "games[0]: missing &#39;options&#39;" in answer.text


def test_a_backup_whose_game_lacks_options_is_refused_by_the_command(tmp_path: Path) -> None:
    saved = tmp_path / "backup.json"
    saved.write_bytes(without_options(built_app(TEST_CONFIG).test_client()))
    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'new.sqlite3'}"}
    done = command.scorekeeper("restore", str(saved), env=env)
    assert done.returncode == 2
    assert done.stderr == f"{saved}: games[0]: missing 'options'\n"


# --- 10. Cookies are Secure whenever the request came over https --------------------------------


def set_cookies(app: Flask, **request: object) -> list[str]:
    answer = app.test_client().post("/pin", data={"pin": PIN, "next": "/"}, **request)  # type: ignore[arg-type]
    assert answer.status_code == 302
    return answer.headers.getlist("Set-Cookie")


def test_cookies_are_secure_over_https_and_through_a_trusted_proxy(club_url: str) -> None:
    direct, proxied = club(club_url), club(club_url, PROXY_FIX=1)
    over_https = set_cookies(direct, base_url="https://localhost")
    through_proxy = set_cookies(proxied, headers={"X-Forwarded-Proto": "https"})
    plain = set_cookies(direct)
    assert over_https and all("; Secure" in cookie for cookie in over_https)
    assert through_proxy and all("; Secure" in cookie for cookie in through_proxy)
    assert plain and not any("Secure" in cookie for cookie in plain)
    language = direct.test_client().post(
        "/language", data={"lang": "es", "next": "/"}, base_url="https://localhost"
    )
    assert all("; Secure" in cookie for cookie in language.headers.getlist("Set-Cookie"))


# --- 7 and 8. What a request carries, read as PostgreSQL can hold it ---------------------------


NUL_ADDRESSES = [
    "/join/%00",
    "/follow/%00",
    "/games/%00",
    "/games/a%00b/state.json",
    "/players/%00",
    "/players/a%00b/rename",
    "/players/%2500",  # a player's key is unquoted once more (PlayerConverter): a NUL then
    "/players/a%2500b/rename",
    "/rules/%00",
    "/house-rules/1%00",
]


@pytest.fixture
def on_postgresql(postgresql_url: str) -> Flask:
    """An app on the throw-away PostgreSQL whatever the run's database (its NUL and its
    lengths are what this is about), with a PIN, behind one proxy."""
    app = built_app(
        {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": postgresql_url,
            "PIN": PIN,
            "PROXY_FIX": 1,
            "PROPAGATE_EXCEPTIONS": False,
        }
    )
    return app


@pytest.mark.parametrize("address", NUL_ADDRESSES)
def test_a_nul_in_an_address_is_no_such_page_on_postgresql(
    on_postgresql: Flask, address: str
) -> None:
    guest, table = on_postgresql.test_client(), entered(on_postgresql)
    method = "POST" if address.endswith("/rename") else "GET"
    assert guest.open(address, method=method).status_code == 404
    assert table.open(address, method=method).status_code == 404


def test_a_nul_in_a_query_or_a_form_is_taken_out_on_postgresql(on_postgresql: Flask) -> None:
    table = entered(on_postgresql)
    assert table.get("/games?player=a%00na&system=clas%00sic").status_code == 200
    assert table.post("/games/deleted", data={"game": "no\x00such"}).status_code in (302, 404)
    assert table.post("/pin", data={"pin": "24\x0068", "next": "/"}).status_code == 302


def test_a_wrong_pin_with_a_long_forwarded_address_is_counted_on_postgresql(
    on_postgresql: Flask,
) -> None:
    long = "a" * 70
    for forwarded in (long, "2001:db8::1%" + "e" * 60, "x\x00y", "203.0.113.9"):
        answer = on_postgresql.test_client().post(
            "/pin", data={"pin": "0000", "next": "/"}, headers={"X-Forwarded-For": forwarded}
        )
        assert answer.status_code == 422, forwarded
    with on_postgresql.app_context():
        addresses = db.session.scalars(select(PinAttempt.address)).all()
    assert len(addresses) == 4 and "203.0.113.9" in addresses
    assert all(len(address) <= 64 and "\x00" not in address for address in addresses)

"""Games people can tell apart and manage (issue 11, item 4): the home page says who plays what,
when and how far; a game can be renamed, archived, deleted and played again at the same table,
whoever deals first; a game of players alone speaks of players, not sides."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper import rules
from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.services import engine
from scorekeeper.web.services import games as game_services
from scorekeeper.web.store.models import Game

from .apps import TEST_CONFIG, stored_games
from .helpers import GOES_OUT, STAYS_IN, Actions, hidden, without_tokens
from .races import together, watched_lock

ANA_BO = {"side_list-0-players-0": "Ana", "side_list-0-players-1": "Bo"}
CY_DI = {"side_list-1-players-0": "Cy", "side_list-1-players-1": "Di"}


def live_games(app: Flask) -> int:
    """The games not deleted (a deleted one is kept a while, to be brought back)."""
    with app.app_context():
        return len(db.session.scalars(select(Game.id).where(Game.deleted_at.is_(None))).all())


def dealer(page: str) -> str:
    """Who the scoreboard says deals next."""
    found = re.search(r"(?:Next to deal|Reparte): ([^<]+)<", page)
    assert found, "no dealer on the page"
    return found.group(1).strip()


def home(client: FlaskClient) -> str:
    response = client.get("/")
    assert response.status_code == 200
    return response.text


def titles(page: str) -> list[str]:
    """The games a list shows, by what they go by."""
    return re.findall(r'<span class="title">([^<]*)</span>', page)


# --- the home page tells games apart -------------------------------------------------------------


def test_the_home_page_shows_players_system_time_and_hands(
    client: FlaskClient, actions: Actions
) -> None:
    first = actions.new_game(players=ANA_BO)
    actions.record_hand(first, [GOES_OUT, STAYS_IN])
    actions.record_hand(first, [STAYS_IN, GOES_OUT], ending="out-1")
    actions.new_game("denexa", names=("Los primos", "Las tías"))
    page = home(client)
    assert titles(page) == ["Los primos · Las tías", "Ana &amp; Bo · Them"]
    assert "2 hands" in page and "0 hands" in page
    assert "Samba (Denexa)" in page and "Samba (classic, 2–6 players)" in page
    assert re.search(
        r"<time datetime=\"[\d-]+T[\d:.]+Z\">\d{4}-\d\d-\d\d \d\d:\d\d UTC</time>", page
    )


# --- renaming -------------------------------------------------------------------------------------


def rename(client: FlaskClient, game_id: str, name: str) -> Any:
    return client.post(f"/games/{game_id}/rename", data={"game-name": name})


def test_a_game_can_be_named_and_the_name_taken_away(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game(players=ANA_BO)
    response = rename(client, game_id, "  Los   jueves ")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/games/{game_id}/manage"
    assert "Renamed." in client.get(response.headers["Location"]).text
    assert titles(home(client)) == ["Los jueves"]
    assert "Ana &amp; Bo · Them" in home(client)  # the players still shown under the name
    assert '<p class="game-name">Los jueves</p>' in actions.scoreboard(game_id)
    assert rename(client, game_id, "   ").status_code == 302
    assert titles(home(client)) == ["Ana &amp; Bo · Them"]


def test_a_name_too_long_is_refused_and_shown_as_typed(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    response = rename(client, game_id, "x" * 41)
    assert response.status_code == 422
    assert 'value="' + "x" * 41 + '"' in response.text
    assert "40" in response.text  # the error says the limit
    with app.app_context():
        assert db.session.scalar(select(Game.name)) is None


@pytest.mark.parametrize(
    ("method", "path", "data"),
    [
        ("GET", "/manage", None),
        ("POST", "/rename", {"game-name": "x"}),
        ("POST", "/archive", {}),
        ("POST", "/unarchive", {}),
        ("GET", "/delete", None),
        ("POST", "/again", {"token": "abc"}),
    ],
)
def test_managing_a_game_that_is_not_there_is_not_found(
    client: FlaskClient, method: str, path: str, data: dict[str, str] | None
) -> None:
    response = client.open(f"/games/no-such-game{path}", method=method, data=data)
    assert response.status_code == 404


def numbers(page: str) -> str:
    """A statistics page's figures."""
    found = re.search(r'<dl class="numbers">.*?</dl>', page, re.S)
    assert found
    return found.group()


# --- archiving ------------------------------------------------------------------------------------


def test_an_archived_game_leaves_the_home_page_only(client: FlaskClient, actions: Actions) -> None:
    kept = actions.new_game(names=("Kept", "Them"))
    put_away = actions.new_game(names=("Old", "Them"), players=ANA_BO)
    actions.record_hand(put_away, [GOES_OUT, STAYS_IN])
    stats_before = numbers(client.get("/players/ana").text)
    assert "Archived games" not in home(client)

    response = client.post(f"/games/{put_away}/archive")
    assert response.status_code == 302
    assert "the game is off the home page" in client.get(response.headers["Location"]).text
    page = home(client)
    assert f"/games/{put_away}" not in page and f"/games/{kept}" in page
    assert 'href="/games/archived"' in page
    archived = client.get("/games/archived").text
    assert f"/games/{put_away}" in archived and f"/games/{kept}" not in archived
    assert f"/games/{put_away}" in client.get("/games").text  # still in the history
    assert numbers(client.get("/players/ana").text) == stats_before  # and in the statistics
    assert "This game is archived" in actions.scoreboard(put_away)
    assert client.post(f"/games/{put_away}/archive").status_code == 302  # twice: still once

    assert client.post(f"/games/{put_away}/unarchive").status_code == 302
    assert f"/games/{put_away}" in home(client)
    assert f"/games/{put_away}" not in client.get("/games/archived").text
    assert "This game is archived" not in actions.scoreboard(put_away)


# --- deleting -------------------------------------------------------------------------------------


def test_a_game_is_deleted_after_its_confirmation_once_however_often_pressed(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    other = actions.new_game(names=("Other", "Them"))
    game_id = actions.new_game(names=("Gone", "Them"))
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert f'href="/games/{game_id}/manage"' in actions.scoreboard(game_id)
    assert f'href="/games/{game_id}/delete"' in client.get(f"/games/{game_id}/manage").text
    confirm = client.get(f"/games/{game_id}/delete")
    assert confirm.status_code == 200
    assert "Delete this game?" in confirm.text and "Gone · Them" in confirm.text
    assert stored_games(app) == 2  # asking deletes nothing

    first = client.post(f"/games/{game_id}/delete")
    second = client.post(f"/games/{game_id}/delete")  # a double tap
    assert (first.status_code, second.status_code) == (302, 302)
    assert first.headers["Location"] == second.headers["Location"] == "/"
    assert "The game Gone · Them was deleted." in home(client)
    assert live_games(app) == 1
    for path in ("", "/manage", "/delete", "/export.json", "/hands/new"):
        assert client.get(f"/games/{game_id}{path}").status_code == 404, path
    assert client.get(f"/games/{other}").status_code == 200


# --- playing again --------------------------------------------------------------------------------

HOUSE_GAME = {
    "variant": "classic",
    "options": {},
    "house_rules": {"name": "Casa", "going_out_bonus": 400, "set_bonuses": {"samba": 1000}},
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["Ana", "Bo"], "start_score": 1500},
        {"name": "Them", "players": 2, "player_names": ["Cy", "Di"]},
    ],
    "first_dealer": 1,
    "hands": [
        {
            "entries": [
                {
                    "went_out": True,
                    "sets": {"samba": 1, "natural_canasta": 1},
                    "melded_points": 260,
                },
                {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30},
            ]
        }
    ],
}


def play_again(client: FlaskClient, game_id: str) -> Any:
    page = client.get(f"/games/{game_id}").text
    return client.post(f"/games/{game_id}/again", data={"token": hidden(page, "token")})


def test_play_again_starts_one_game_at_the_same_table(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    old = client.post("/games/import", json=HOUSE_GAME).get_json()["id"]
    page = client.get(f"/games/{old}").text
    data = {"token": hidden(page, "token")}
    first = client.post(f"/games/{old}/again", data=data)
    second = client.post(f"/games/{old}/again", data=data)  # a double tap
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert stored_games(app) == 2
    new = first.headers["Location"].removeprefix("/games/")
    assert new != old

    before = client.get(f"/games/{old}/export.json").get_json()
    after = client.get(f"/games/{new}/export.json").get_json()
    assert after["hands"] == []
    assert after["variant"] == before["variant"]
    assert after["options"] == before["options"]
    assert after["house_rules"] == before["house_rules"] == HOUSE_GAME["house_rules"]
    assert [(s["name"], s["players"], s.get("player_names")) for s in after["sides"]] == [
        ("Us", 2, ["Ana", "Bo"]),
        ("Them", 2, ["Cy", "Di"]),
    ]
    assert [s.get("start_score", 0) for s in after["sides"]] == [0, 0]  # every score back to 0
    # The old game dealt hand 1 from seat 1 (Cy), hand 2 would be Bo's: the new one starts there.
    assert dealer(client.get(f"/games/{old}").text) == "Bo"
    assert after["first_dealer"] == 2
    assert dealer(client.get(f"/games/{new}").text) == "Bo"

    another = play_again(client, old)  # a fresh page, a fresh token: a second rematch
    assert another.headers["Location"] not in (first.headers["Location"], f"/games/{old}")
    assert stored_games(app) == 3


@pytest.mark.parametrize("token", ["", "not a token!", "x" * 41])
def test_play_again_with_a_token_it_did_not_make_still_starts_a_game(
    app: Flask, client: FlaskClient, actions: Actions, token: str
) -> None:
    old = actions.new_game()
    response = client.post(f"/games/{old}/again", data={"token": token})
    assert response.status_code == 302
    assert stored_games(app) == 2


# --- who deals first ------------------------------------------------------------------------------


def test_the_chosen_first_dealer_deals_first_and_the_deal_goes_round(
    client: FlaskClient, actions: Actions
) -> None:
    page = client.get("/games/new?system=classic&table=2x2").text
    assert "Who deals first" in page
    seats = re.findall(
        r'name="first_dealer"[^>]*value="(\d)"|value="(\d)"[^>]*name="first_dealer"', page
    )
    assert len(seats) == 4
    game_id = actions.new_game(players={**ANA_BO, **CY_DI, "first_dealer": "3"})
    seen = [dealer(actions.scoreboard(game_id))]
    for _ in range(4):
        actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
        seen.append(dealer(actions.scoreboard(game_id)))
    # The order of play is Ana, Cy, Bo, Di: from Di, round the table.
    assert seen == ["Di", "Ana", "Cy", "Bo", "Di"]

    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["first_dealer"] == 3
    again = client.post("/games/import", json=exported)
    assert again.status_code == 201
    copy = again.get_json()["id"]
    assert client.get(f"/games/{copy}/export.json").get_json() == exported
    assert dealer(actions.scoreboard(copy)) == "Di"


def seat_labels(page: str) -> list[str]:
    """What "Who deals first" calls each seat, in the order of play."""
    return re.findall(r'<span class="seat"[^>]*>([^<]*)</span>', page)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ["Us, player 1", "Them, player 1", "Us, player 2", "Them, player 2"]),
        (
            "es",
            ["Nosotros, jugador 1", "Ellos, jugador 1", "Nosotros, jugador 2", "Ellos, jugador 2"],
        ),
    ],
)
def test_who_deals_first_names_the_seats_by_the_sides_names_before_any_is_typed(
    client: FlaskClient, language: str, expected: list[str]
) -> None:
    client.set_cookie("lang", language)
    page = client.get("/games/new?system=classic&table=2x2").text
    assert seat_labels(page) == expected


def test_who_deals_first_names_the_players_typed_when_the_form_comes_back(
    actions: Actions,
) -> None:
    # As a browser sends it: every input, typed or not.
    players = {**ANA_BO, **CY_DI, "side_list-1-players-0": "", "first_dealer": "9"}
    response = actions.post_new_game(names=("Us", ""), players=players)
    assert response.status_code == 422
    assert seat_labels(response.text) == ["Ana (Us)", "Side 2, player 1", "Bo (Us)", "Di (Side 2)"]


def test_who_deals_first_names_players_alone_by_their_names(client: FlaskClient) -> None:
    page = client.get("/games/new?system=classic&table=3x1").text
    assert seat_labels(page) == ["Player 1", "Player 2", "Player 3"]
    data = {"side_list-0-name": "Ana", "side_list-1-name": "", "side_list-2-name": "Cy"}
    again = client.post("/games/new?system=classic&table=3x1", data={**data, "first_dealer": "7"})
    assert seat_labels(again.text) == ["Ana", "Player 2", "Cy"]


@pytest.mark.parametrize("seat", ["4", "-1", "x", ""])
def test_a_first_dealer_that_is_no_seat_is_refused(app: Flask, actions: Actions, seat: str) -> None:
    response = actions.post_new_game(players={"first_dealer": seat})
    assert response.status_code == 422
    assert stored_games(app) == 0


def test_a_game_file_with_a_first_dealer_that_is_no_seat_is_refused(client: FlaskClient) -> None:
    response = client.post("/games/import", json={**HOUSE_GAME, "first_dealer": 4})
    assert response.status_code == 400
    assert "first_dealer" in response.text


# --- players alone --------------------------------------------------------------------------------

ALONE = [
    # language, names-form words that must be there, words that must not, the dealer's words
    ("en", ["Player 1", "Player 5", ">Name<"], ["Side", "Us", "Them", "Third"], "Next to deal"),
    ("es", ["Jugador 1", "Jugador 5", ">Nombre<"], ["Equipo", "Nosotros", "Ellos"], "Reparte"),
]


@pytest.mark.parametrize(("language", "present", "absent", "deals"), ALONE)
def test_a_game_of_players_alone_speaks_of_players(
    client: FlaskClient,
    actions: Actions,
    language: str,
    present: list[str],
    absent: list[str],
    deals: str,
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    form = client.get("/games/new?system=classic&table=5x1").text
    # Without its random tokens, which may spell "Us" or "Side" by chance.
    main = without_tokens(form).split("<main", 1)[1]
    for words in present:
        assert words in main, words
    for words in absent:
        assert words not in main, words
    assert 'value="Us"' not in main and 'value="Nosotros"' not in main

    names = ("Ana", "Bo", "", "Di", "")  # two left empty
    game_id = actions.new_game(table="5x1", names=names, players={"first_dealer": "1"})
    board = actions.scoreboard(game_id)
    assert f"{deals}: Bo<" in board
    assert "player 1 of" not in board and "jugador 1 de" not in board
    assert '<span class="players"' not in board  # a player's card does not name them twice
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    player = "Jugador" if language == "es" else "Player"
    assert [s["name"] for s in exported["sides"]] == [
        "Ana",
        "Bo",
        f"{player} 3",
        "Di",
        f"{player} 5",
    ]
    # A name typed is the player's (statistics know them); "Player 3" is nobody's name.
    assert [s.get("player_names", [""]) for s in exported["sides"]] == [
        ["Ana"],
        ["Bo"],
        [""],
        ["Di"],
        [""],
    ]


def test_sides_of_two_still_need_a_name(app: Flask, actions: Actions) -> None:
    response = actions.post_new_game(names=("", "Them"))
    assert response.status_code == 422
    assert stored_games(app) == 0


def test_the_seats_offered_name_players_alone_and_partners_by_side(client: FlaskClient) -> None:
    alone = client.get("/games/new?system=classic&table=3x1").text
    assert seat_labels(alone) == ["Player 1", "Player 2", "Player 3"]
    partners = client.get("/games/new?system=classic&table=2x2").text
    assert seat_labels(partners) == [
        "Us, player 1",
        "Them, player 1",
        "Us, player 2",
        "Them, player 2",
    ]


# --- two phones at once ---------------------------------------------------------------------------


@pytest.fixture
def file_app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a database file, so that requests in threads each have their connection."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'g.db'}"})
    with app.app_context():
        flask_migrate.upgrade()
    yield app


def at_once(app: Flask, monkeypatch: pytest.MonkeyPatch, *posts: tuple[str, Any]) -> list[Any]:
    """The posts sent together from phones of their own; a write that replays holds the lock
    until the other phones wait for it."""
    slow = rules.replay

    def sender(path: str, data: Any) -> Callable[[], Any]:
        return lambda: app.test_client().post(path, data=data)

    with watched_lock(app, phones=len(posts)) as lock:

        def replay_slowly(game: rules.Game) -> rules.GameResult:
            lock.wait_for_the_others()
            return slow(game)

        monkeypatch.setattr(rules, "replay", replay_slowly)
        monkeypatch.setattr(
            game_services, "replay_of", lambda game: replay_slowly(engine.engine_game(game))
        )
        answers = together([sender(path, data) for path, data in posts])
    monkeypatch.undo()
    return answers


def test_two_taps_on_play_again_at_once_start_one_game(
    file_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = file_app.test_client()
    old = Actions(client).new_game()
    post = (f"/games/{old}/again", {"token": hidden(client.get(f"/games/{old}").text, "token")})
    answers = at_once(file_app, monkeypatch, post, post)
    assert [a.status_code for a in answers] == [302, 302]
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    assert stored_games(file_app) == 2


def test_two_phones_renaming_archiving_and_deleting_at_once_get_no_error(
    file_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = file_app.test_client()
    named = Actions(client).new_game(names=("Named", "Them"))
    gone = Actions(client).new_game(names=("Gone", "Them"))
    answers = at_once(
        file_app,
        monkeypatch,
        (f"/games/{named}/rename", {"game-name": "Los jueves"}),
        (f"/games/{named}/archive", {}),
        (f"/games/{gone}/delete", {}),
        (f"/games/{gone}/delete", {}),
    )
    assert [a.status_code for a in answers] == [302] * 4
    assert live_games(file_app) == 1
    with file_app.app_context():
        game = db.session.get(Game, named)
        assert game is not None and game.name == "Los jueves" and game.archived_at is not None


def test_a_token_raced_past_the_check_is_caught_by_the_database(
    app: Flask, client: FlaskClient, actions: Actions, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = actions.new_game()
    post = {"token": hidden(client.get(f"/games/{old}").text, "token")}
    first = client.post(f"/games/{old}/again", data=post)
    real, missed = game_services._started_by, [1]

    def check_too_early(token: str) -> str | None:
        if missed[0]:  # the check before the insert saw nothing yet
            missed[0] -= 1
            return None
        return real(token)

    monkeypatch.setattr(game_services, "_started_by", check_too_early)
    second = client.post(f"/games/{old}/again", data=post)
    assert second.headers["Location"] == first.headers["Location"]
    assert stored_games(app) == 2

"""Writes at a real table: two phones, double taps, Back then Save, deleting and bringing back."""

from __future__ import annotations

import html
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import flask_migrate
import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import literal, null, update

from scorekeeper import cli, rules
from scorekeeper.web import create_app
from scorekeeper.web.extensions import db
from scorekeeper.web.pages import hands
from scorekeeper.web.services import hands as hand_services
from scorekeeper.web.services.errors import HandChanged, NotFound
from scorekeeper.web.services.figures import games_differing_from_replay
from scorekeeper.web.store import database
from scorekeeper.web.store.models import Game, Side

from .apps import TEST_CONFIG, assert_figures_are_the_replays
from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields, hidden, input_value
from .races import together, watched_lock

QUIET = [STAYS_IN, STAYS_IN]  # a legal hand that ends with the stock and ends no game


@pytest.fixture
def file_app(tmp_path: Path) -> Iterator[Flask]:
    """The app on a database file, so that requests in threads each have their connection."""
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'g.db'}"})
    with app.app_context():
        flask_migrate.upgrade()
    yield app


def new_hand_url(game_id: str) -> str:
    return f"/games/{game_id}/hands/new"


def opened_form(client: FlaskClient, game_id: str) -> dict[str, str]:
    """The hidden fields of a freshly opened hand form."""
    page = client.get(new_hand_url(game_id)).text
    return {"token": hidden(page, "token"), "after": hidden(page, "after")}


def test_a_double_tap_on_save_gets_the_same_answer_twice_and_records_one_hand(
    file_app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = Actions(file_app.test_client()).new_game()
    form = opened_form(file_app.test_client(), game_id)
    data = hand_fields([GOES_OUT, STAYS_IN], **form)
    slow = rules.replay

    def tap() -> Any:
        return file_app.test_client().post(new_hand_url(game_id), data=data)

    with watched_lock(file_app, phones=2) as lock:

        def replay_slowly(game: rules.Game) -> rules.GameResult:
            lock.wait_for_the_others()  # both taps are inside the save at once
            return slow(game)

        monkeypatch.setattr(rules, "replay", replay_slowly)
        answers = together([tap, tap])
    monkeypatch.undo()
    assert [a.status_code for a in answers] == [302, 302], answers[1].text
    assert answers[0].headers["Location"] == answers[1].headers["Location"]
    assert "saved=1" in answers[0].headers["Location"]
    actions = Actions(file_app.test_client())
    assert len(actions.result(game_id)["hands"]) == 1
    page = file_app.test_client().get(answers[1].headers["Location"]).text
    assert "Hand 1 saved." in page
    assert_figures_are_the_replays(file_app)


def test_a_hand_saved_by_another_phone_meanwhile_is_shown_beside_mine(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    mine, theirs = opened_form(client, game_id), opened_form(client, game_id)
    assert mine["after"] == theirs["after"] == "0"
    saved = client.post(new_hand_url(game_id), data=hand_fields([GOES_OUT, STAYS_IN], **theirs))
    assert saved.status_code == 302

    typed = hand_fields(QUIET, ending="stock", **mine)
    clash = client.post(new_hand_url(game_id), data=typed)
    assert clash.status_code == 409
    assert "Someone else saved hand 1 meanwhile" in clash.text
    assert "The hand they saved" in clash.text
    assert "+2,460" in clash.text  # theirs, scored
    assert input_value(clash.text, "sides-0-melded_points") == "150"  # mine, still typed
    assert "Save mine as the next hand" in clash.text
    assert f'href="/games/{game_id}">Drop mine' in clash.text
    assert len(actions.result(game_id)["hands"]) == 1

    again = {**typed, "after": hidden(clash.text, "after")}
    assert again["after"] == "1"
    response = client.post(new_hand_url(game_id), data=again)
    assert response.status_code == 302
    assert "saved=2" in response.headers["Location"]
    assert len(actions.result(game_id)["hands"]) == 2


def test_a_hand_deleted_meanwhile_does_not_stop_the_next_one(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, QUIET, ending="stock")
    form = opened_form(client, game_id)
    (hand_id,) = actions.hand_ids(game_id)
    client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": "1"})
    response = client.post(new_hand_url(game_id), data=hand_fields(QUIET, "stock", **form))
    assert response.status_code == 302
    assert len(actions.result(game_id)["hands"]) == 1


def test_save_again_after_back_with_the_same_hand_is_answered_as_the_first_time(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    data = hand_fields(QUIET, ending="stock", **opened_form(client, game_id))
    first = client.post(new_hand_url(game_id), data=data)
    second = client.post(new_hand_url(game_id), data=data)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert "Hand 1 saved." in client.get(second.headers["Location"]).text
    assert len(actions.result(game_id)["hands"]) == 1


def test_save_again_after_back_with_something_changed_says_it_was_already_saved(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    form = opened_form(client, game_id)
    client.post(new_hand_url(game_id), data=hand_fields(QUIET, ending="stock", **form))
    changed = hand_fields([GOES_OUT, STAYS_IN], **form)
    response = client.post(new_hand_url(game_id), data=changed)
    assert response.status_code == 409
    assert "This hand was already saved" in response.text
    assert "as hand 1. Nothing was saved now." in response.text
    assert f'href="/games/{game_id}#hand-' in response.text
    assert len(actions.result(game_id)["hands"]) == 1
    assert actions.result(game_id)["totals"] == [420, 420]


def test_the_hand_form_lets_the_browser_restore_no_choice_after_back(
    client: FlaskClient, actions: Actions
) -> None:
    # After Back the browser loads the form afresh (a new token) and used to tick again the
    # ending chosen before: Save then recorded an empty "stock ran out" hand.
    game_id = actions.new_game()
    page = client.get(new_hand_url(game_id)).text
    assert '<form method="post" class="hand-form" novalidate autocomplete="off"' in page


def test_a_repeat_of_the_form_that_ended_the_game_gets_the_same_answer(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(start_scores=(9000, 0))
    data = hand_fields([GOES_OUT, STAYS_IN], **opened_form(client, game_id))
    first = client.post(new_hand_url(game_id), data=data)
    assert actions.result(game_id)["game_over"]
    second = client.post(new_hand_url(game_id), data=data)
    assert second.status_code == 302
    assert second.headers["Location"] == first.headers["Location"]


def test_deleting_a_hand_asks_once_and_it_can_be_brought_back(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, QUIET, ending="stock")
    first_id, second_id = actions.hand_ids(game_id)
    hand_page = client.get(f"/games/{game_id}/hands/{first_id}").text
    ask_url = f"/games/{game_id}/hands/{first_id}/delete"
    assert f'href="{ask_url}"' in hand_page

    ask = client.get(ask_url)
    assert ask.status_code == 200
    assert "Delete hand 1?" in ask.text
    assert "You can bring it back from the game's history." in html.unescape(ask.text)
    assert len(actions.result(game_id)["hands"]) == 2  # asking deletes nothing

    deleted = client.post(ask_url, data={"version": hidden(ask.text, "version")})
    assert deleted.status_code == 302
    assert actions.result(game_id)["totals"] == [420, 420]
    scoreboard = actions.scoreboard(game_id)
    assert "Bring it back" in scoreboard

    back = client.post(f"/games/{game_id}/hands/{first_id}/restore")
    assert back.status_code == 302
    assert actions.hand_ids(game_id) == [first_id, second_id]
    assert actions.result(game_id)["totals"] == [2460 + 420, 420 + 420]
    scoreboard = html.unescape(actions.scoreboard(game_id))
    assert "brought back" in scoreboard
    assert "Bring it back" not in scoreboard
    history = client.get(f"/games/{game_id}/hands/{first_id}").text
    assert "brought back" in history and "deleted" in history

    again = client.post(f"/games/{game_id}/hands/{first_id}/restore")  # a second phone
    assert again.status_code == 302
    assert len(actions.result(game_id)["hands"]) == 2


def test_a_hand_that_would_break_a_rule_coming_back_stays_deleted(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])  # Us: 2,460
    (first_id,) = actions.hand_ids(game_id)
    client.post(f"/games/{game_id}/hands/{first_id}/delete", data={"version": "1"})
    # At 0 Us needs a first meld of 50; after 2,460 it would need 90.
    actions.record_hand(game_id, [{"opening_meld": "60", "melded_points": "60"}, {}], "stock")
    refused = client.post(f"/games/{game_id}/hands/{first_id}/restore")
    assert refused.status_code == 422
    assert "a first meld of 60 is too low; Us needed 90" in html.unescape(refused.text)
    assert len(actions.result(game_id)["hands"]) == 1
    assert "Bring it back" in actions.scoreboard(game_id)


@pytest.mark.parametrize("version", ["abc", "1.5", "10^30", "1" + "0" * 30, "-1", "²"])
def test_a_version_that_is_not_a_number_is_a_clear_answer(
    client: FlaskClient, actions: Actions, version: str
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    corrected = hand_fields(QUIET, ending="stock", version=version)
    correction = client.post(f"/games/{game_id}/hands/{hand_id}/edit", data=corrected)
    deletion = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": version})
    for response in (correction, deletion):
        assert response.status_code == 400
        assert "Nothing was saved" in response.text
    assert actions.result(game_id)["totals"] == [2460, 420]


@pytest.mark.parametrize("after", ["abc", "1" + "0" * 30])
def test_a_hand_form_for_no_sane_hand_is_a_clear_answer(
    client: FlaskClient, actions: Actions, after: str
) -> None:
    game_id = actions.new_game()
    response = actions.post_hand(game_id, QUIET, "stock", after=after)
    assert response.status_code == 400
    assert actions.result(game_id)["hands"] == []


def test_every_write_leaves_the_stored_figures_as_the_replay_gives_them(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(start_scores=(8000, 0))
    actions.record_hand(game_id, QUIET, ending="stock")
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])  # Us wins with 8,420 + 2,460
    assert_figures_are_the_replays(app)
    first_id, second_id = actions.hand_ids(game_id)
    client.post(f"/games/{game_id}/hands/{first_id}/delete", data={"version": "1"})
    assert_figures_are_the_replays(app)
    client.post(f"/games/{game_id}/hands/{first_id}/restore")
    assert_figures_are_the_replays(app)
    quiet = hand_fields(QUIET, ending="stock", version="1")
    client.post(f"/games/{game_id}/hands/{second_id}/edit", data=quiet)
    assert_figures_are_the_replays(app)
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        assert (game.over, [side.total for side in game.sides]) == (False, [8840, 840])


def test_the_doctor_repairs_the_figures_that_differ_from_the_replay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("SECRET_KEY", "doctor")
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": url})
    with app.app_context():
        flask_migrate.upgrade()
    actions = Actions(app.test_client())
    games = [actions.new_game() for _ in range(3)]
    for game_id in games:
        actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    with app.app_context():  # what the old races left behind: a hand left out of the totals
        db.session.execute(update(Side).where(Side.game_id == games[1]).values(total=0))
        db.session.execute(update(Side).where(Side.game_id == games[2]).values(total=5))
        db.session.commit()
        assert sorted(games_differing_from_replay()) == sorted(games[1:])

    assert cli.main(["doctor"]) == 0
    assert "3 games replayed, 2 repaired" in capsys.readouterr().out
    assert_figures_are_the_replays(app)
    assert cli.main(["doctor"]) == 0
    assert "3 games replayed, 0 repaired" in capsys.readouterr().out


def test_a_race_that_reaches_the_databases_unique_number_is_answered_as_a_conflict(
    client: FlaskClient, actions: Actions, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, QUIET, ending="stock")
    # Were the lock ever wrong, two hands would get one number: the constraint refuses it.
    nothing_there = (literal(0), null())  # no hand yet, the token unused
    monkeypatch.setattr(hand_services, "_places", lambda game_id, token: nothing_there)
    response = actions.post_hand(game_id, QUIET, "stock")
    assert response.status_code == 409
    assert "Someone else saved hand 1 meanwhile" in response.text
    assert len(actions.result(game_id)["hands"]) == 1


@pytest.mark.sqlite  # another connection holding BEGIN IMMEDIATE on the file
def test_a_write_that_waits_too_long_for_the_database_is_a_503_that_saved_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(database, "BUSY_TIMEOUT_MS", 50)
    path = tmp_path / "g.db"
    app = create_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": f"sqlite:///{path}"})
    with app.app_context():
        flask_migrate.upgrade()
    client = app.test_client()
    game_id = Actions(client).new_game()
    form = opened_form(client, game_id)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another writer holds the database
    try:
        response = client.post(new_hand_url(game_id), data=hand_fields(QUIET, "stock", **form))
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    assert "Nothing was saved" in response.text
    assert Actions(client).result(game_id)["hands"] == []
    again = client.post(new_hand_url(game_id), data=hand_fields(QUIET, "stock", **form))
    assert again.status_code == 302
    assert len(Actions(client).result(game_id)["hands"]) == 1


def test_a_hand_of_a_game_gone_meanwhile_is_a_not_found_page(
    app: Flask, client: FlaskClient
) -> None:
    game_id = Actions(client).new_game()
    with app.app_context():
        with pytest.raises(NotFound):
            hand_services.delete_hand(game_id, 10**6, 1)
        with pytest.raises(NotFound):
            hand_services.record_hand(
                "no-such-game", rules.Hand((), rules.EndedBy.STOCK_EXHAUSTED), "t"
            )
    response = client.post(f"/games/{game_id}/hands/999999/delete", data={"version": "1"})
    assert response.status_code == 404
    assert "Not found" in response.text


def test_a_hand_changed_meanwhile_is_told_in_plain_values_that_outlive_the_write(
    app: Flask, client: FlaskClient
) -> None:
    actions = Actions(client)
    game_id = actions.new_game()
    actions.record_hand(game_id, QUIET, "stock")
    hand_id = actions.hand_ids(game_id)[0]
    with app.app_context():
        assert hand_services.delete_hand(game_id, hand_id, 1) == hand_id
        with pytest.raises(HandChanged) as changed:
            hand_services.delete_hand(game_id, hand_id, 1)
        db.session.remove()  # the write's session and its rows are gone
    current = changed.value.current
    assert (current.id, current.position, current.version) == (hand_id, 1, 2)
    assert current.deleted and current.number is None
    assert current.hand.ended_by is rules.EndedBy.STOCK_EXHAUSTED
    assert len(current.hand.entries) == 2


def test_a_game_that_went_while_its_page_was_open_is_answered_as_not_found(
    client: FlaskClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    actions = Actions(client)
    game_id = actions.new_game()
    actions.record_hand(game_id, QUIET, "stock")
    hand_id = actions.hand_ids(game_id)[0]

    def gone(*_args: object, **_kwargs: object) -> None:
        raise NotFound(f"no game {game_id!r}")

    monkeypatch.setattr(hands, "delete_hand", gone)
    response = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": "1"})
    assert response.status_code == 404
    assert "There is no such page or game here" in response.text

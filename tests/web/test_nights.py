"""Club nights through the test client: set up, seating, table cards, rounds, standings,
refusals, deleting and bringing back (docs: issue 29)."""

from __future__ import annotations

import json
import re

import pytest
from flask import Flask, flash, render_template_string
from flask.testing import FlaskClient
from sqlalchemy import event, func, select

from scorekeeper import nights
from scorekeeper.web.extensions import db
from scorekeeper.web.services.restore import BackupError, read_backup, restore
from scorekeeper.web.store.models import Game, Night, Side

from .apps import TEST_CONFIG, another_app, backup_of, built_app, database_url, tables
from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields
from .nights import (
    PAIRS,
    PIN,
    asked_for,
    cards,
    end,
    end_night,
    night_form,
    seats,
    set_up,
    standings_link,
    start,
    table_game,
)
from .races import together
from .sharing import links, opened
from .streams import Stream


def test_a_night_is_set_up_with_every_rounds_seating_by_its_movement(client, app):
    night_id = set_up(client)
    page = client.get(f"/nights/{night_id}/seating").text
    for r in nights.mitchell(8, 3):
        assert seats(app, night_id, r.number) == [(s.table, s.ns, s.ew) for s in r.seats]
        for s in r.seats:
            assert (
                f'data-round="{r.number}" data-table="{s.table}" data-ns="{s.ns}" data-ew="{s.ew}"'
                in page
            )


def test_a_night_that_cannot_be_played_is_refused_with_everything_typed_kept(client, app):
    response = client.post("/nights/new?pairs=4", data=night_form(PAIRS[:4], round_count="3"))
    assert response.status_code == 422
    assert "at most 2 rounds" in response.text
    assert 'value="Ana3"' in response.text
    twice = [("Ana", "Bea"), ("Cy", "ana")]
    response = client.post("/nights/new?pairs=2", data=night_form(twice, round_count="1"))
    assert response.status_code == 422
    assert "is in two pairs" in response.text
    with app.app_context():
        assert db.session.scalar(select(func.count(Night.id))) == 0


def test_each_table_card_leads_its_phone_to_its_games_round_after_round(app, actions):
    client = actions._client
    night_id = set_up(client)
    card = cards(client, night_id)
    assert sorted(card) == [1, 2, 3, 4]
    phone = app.test_client()
    waiting = phone.get(card[1])
    assert waiting.status_code == 200 and "has not started" in waiting.text
    start(client, night_id, 1)
    first = table_game(phone, card[1])
    assert first is not None
    board = phone.get(f"/games/{first}").text
    assert "round 1, table 1" in board
    phone_actions = Actions(phone)
    phone_actions.record_hand(first, [GOES_OUT, STAYS_IN])
    phone_actions.record_hand(first, [GOES_OUT, STAYS_IN])
    third = phone.post(f"/games/{first}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN]))
    assert third.status_code == 409 and "all played here" in third.text
    end(client, night_id, 1)
    start(client, night_id, 2)
    moved = phone.get(f"/games/{first}").text
    assert "data-go" in moved
    going = phone.get(f"/games/{first}/next")
    second = going.headers["Location"].split("/")[2]
    assert second != first and second == table_game(phone, card[1])
    # Last round's game takes no hand any more, and changes nothing.
    late = phone.post(f"/games/{first}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN]))
    assert late.status_code == 409 and "has ended" in late.text
    with app.app_context():
        game = db.session.get(Game, first)
        assert game is not None and len(game.live_hands) == 2 and game.night_id == night_id


def test_the_standings_are_the_sums_of_the_rounds_games_and_answer_304_while_unchanged(
    client, app, actions
):
    night_id = set_up(client, round_hands="1")
    link = standings_link(client, night_id)
    card = cards(client, night_id)
    for number in (1, 2):
        start(client, night_id, number)
        for table, url in card.items():
            game_id = table_game(client, url)
            assert game_id is not None
            good, bad = (GOES_OUT, STAYS_IN) if table % 2 else (STAYS_IN, GOES_OUT)
            actions.record_hand(game_id, [good, bad], ending="out-0" if table % 2 else "out-1")
        end(client, night_id, number)
    with app.app_context():
        totals: dict[int, list[int]] = {}
        night = db.session.get(Night, night_id)
        assert night is not None
        for played in night.rounds[:2]:
            for seat in played.seats:
                sides = db.session.scalars(
                    select(Side).where(Side.game_id == seat.game_id).order_by(Side.position)
                ).all()
                totals.setdefault(seat.ns, []).append(sides[0].total or 0)
                totals.setdefault(seat.ew, []).append(sides[1].total or 0)
    for by in ("wins", "points"):
        page = client.get(f"{link}?by={by}").text
        rows = re.findall(r'data-pair="(\d+)" data-points="(-?\d+)"', page)
        assert {int(p): int(points) for p, points in rows} == {p: sum(t) for p, t in totals.items()}
    first = client.get(link)
    again = client.get(link, headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    state = client.get(f"{link}/state.json")
    assert state.get_json()["round"] == 2
    assert (
        client.get(
            f"{link}/state.json", headers={"If-None-Match": state.headers["ETag"]}
        ).status_code
        == 304
    )
    csv = client.get(f"{link}/results.csv").text
    assert len(csv.strip().splitlines()) == 9
    assert "Ana1 & Bea1" in client.get(f"{link}/results.txt").text


def test_a_changed_seating_with_a_pair_in_two_places_is_refused_and_changes_nothing(client, app):
    night_id = set_up(client)
    before = seats(app, night_id, 2)
    data = {f"seats-{i}-ns": str(i + 1) for i in range(4)}
    data.update({f"seats-{i}-ew": "5" for i in range(4)})
    response = client.post(f"/nights/{night_id}/seating?round=2", data=data)
    assert response.status_code == 422
    assert "pair 5 is already at another table" in response.text
    assert seats(app, night_id, 2) == before
    empty = client.post(f"/nights/{night_id}/seating?round=2", data={})
    assert empty.status_code == 422 and "has no table" in empty.text
    swapped = {f"seats-{i}-ns": str(i + 1) for i in range(4)}
    swapped.update({f"seats-{i}-ew": str(8 - i) for i in range(4)})
    assert client.post(f"/nights/{night_id}/seating?round=2", data=swapped).status_code == 302
    assert seats(app, night_id, 2) == [(1, 1, 8), (2, 2, 7), (3, 3, 6), (4, 4, 5)]


def field_errors(page: str, field_id: str) -> str:
    """The errors shown next to a field, right after it (empty if none)."""
    found = re.search(
        rf'<input[^>]*id="{field_id}"[^>]*>\s*<ul class="errors" id="{field_id}-errors">(.*?)</ul>',
        page,
        re.S,
    )
    return found.group(1) if found else ""


def test_a_refused_seating_says_what_is_wrong_next_to_each_field_and_keeps_what_was_typed(
    client, app
):
    night_id = set_up(client)
    before = seats(app, night_id, 2)
    typed = {"seats-0-ns": "1", "seats-0-ew": "5", "seats-1-ns": "2", "seats-1-ew": "5"}
    typed.update({"seats-2-ns": "3", "seats-2-ew": "3", "seats-3-ns": "4", "seats-3-ew": "12"})
    response = client.post(f"/nights/{night_id}/seating?round=2", data=typed)
    assert response.status_code == 422
    page = response.text
    assert "pair 5 is already at another table" in field_errors(page, "seats-1-ew")
    assert "cannot play itself" in field_errors(page, "seats-2-ew")
    assert "there is no pair 12" in field_errors(page, "seats-3-ew")
    for right in ("seats-0-ns", "seats-0-ew", "seats-1-ns", "seats-2-ns", "seats-3-ns"):
        assert field_errors(page, right) == "", right
    wrong = re.search(r'<input[^>]*id="seats-1-ew"[^>]*>', page)
    assert wrong and 'aria-invalid="true"' in wrong.group(0)
    for name, value in typed.items():
        assert re.search(rf'id="{name}"[^>]*value="{value}"', page), name
    # A table given one pair of two is not quietly left out: the missing one is asked for.
    half = {**typed, "seats-1-ew": "6", "seats-2-ew": "7", "seats-3-ew": ""}
    response = client.post(f"/nights/{night_id}/seating?round=2", data=half)
    assert response.status_code == 422
    assert "other pair" in field_errors(response.text, "seats-3-ew")
    assert re.search(r'id="seats-3-ns"[^>]*value="4"', response.text)
    assert seats(app, night_id, 2) == before


def test_a_table_card_after_the_night_ended_says_so(client):
    night_id = set_up(client)
    card = cards(client, night_id)
    start(client, night_id, 1)
    end_night(client, night_id)
    response = client.get(card[2])
    assert response.status_code == 410 and "has ended" in response.text


def test_a_pair_that_leaves_between_rounds_leaves_its_opponent_sitting_out(client, app):
    night_id = set_up(client, PAIRS[:7])
    start(client, night_id, 1)
    refused = client.post(f"/nights/{night_id}/leaves", data={"pair": "2"}, follow_redirects=True)
    assert "still being played" in refused.text
    end(client, night_id, 1)
    client.post(f"/nights/{night_id}/leaves", data={"pair": "2", "confirm": "yes"})
    start(client, night_id, 2)
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        played = night.rounds[1]
        for seat in played.seats:
            assert (seat.game_id is None) == (2 in (seat.ns, seat.ew) or 8 in (seat.ns, seat.ew))


def test_a_pair_arrives_in_the_sit_out_of_an_odd_night(client, app):
    night_id = set_up(client, PAIRS[:7])
    arrived = client.post(
        f"/nights/{night_id}/arrives", data={"arriving-first": "Zoe", "arriving-second": "Yan"}
    )
    assert arrived.status_code == 302
    twice = client.post(
        f"/nights/{night_id}/arrives", data={"arriving-first": "Xi", "arriving-second": "zoe"}
    )
    assert twice.status_code == 422 and "zoe" in twice.text
    assert 'value="Xi"' in twice.text
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        assert [p.number for p in night.pairs] == list(range(1, 9))
        # Pair 8 took the ghost's number: it meets whom the ghost's opponents were to meet.
        for played in night.rounds:
            assert sorted(p for s in played.seats for p in (s.ns, s.ew)) == list(range(1, 9))


def test_a_pair_arriving_in_an_even_night_plays_from_the_next_round_and_one_pair_sits_out(
    client, app
):
    night_id = set_up(client)  # eight pairs at four tables, three rounds
    start(client, night_id, 1)
    end(client, night_id, 1)
    first_round = seats(app, night_id, 1)
    arrived = client.post(
        f"/nights/{night_id}/arrives", data={"arriving-first": "Zoe", "arriving-second": "Yan"}
    )
    assert arrived.status_code == 302, arrived.text
    assert "Pair 9 has arrived" in client.get(arrived.headers["Location"]).text
    card = cards(client, night_id)
    assert sorted(card) == [1, 2, 3, 4, 5]  # the ghost's table: a card of its own
    assert seats(app, night_id, 1) == first_round
    ghost = 10
    later = {number: seats(app, night_id, number) for number in (2, 3)}
    sat_out = []
    for seated in later.values():
        assert sorted(p for _table, ns, ew in seated for p in (ns, ew)) == list(range(1, 11))
        table, ns, ew = next(seat for seat in seated if ghost in seat[1:])
        assert table == 5 and 9 not in (ns, ew)
        sat_out.append(ns if ew == ghost else ew)
    assert len(set(sat_out)) == 2
    games = [(ns, ew) for seated in (first_round, *later.values()) for _t, ns, ew in seated]
    real = [frozenset(game) for game in games if ghost not in game]
    assert len(set(real)) == len(real)  # no two pairs meet twice, the new pair's games included

    start(client, night_id, 2)
    page = client.get(f"/nights/{night_id}/seating").text
    assert f"Sat out: {sat_out[0]}. " in page  # round 2 started: as played
    with app.app_context():
        night = db.session.get(Night, night_id)
        assert night is not None
        played = night.rounds[1]
        started = [seat for seat in played.seats if seat.game_id is not None]
        assert len(started) == 4
        new_pairs_game = next(seat for seat in started if 9 in (seat.ns, seat.ew))
        sides = db.session.scalars(
            select(Side.name).where(Side.game_id == new_pairs_game.game_id)
        ).all()
        assert "9. Zoe & Yan" in sides
    assert table_game(client, card[5]) is None
    standings = client.get(standings_link(client, night_id)).text
    assert 'data-pair="9"' in standings


def test_deleting_a_night_keeps_its_games_to_be_brought_back(client, app):
    night_id = set_up(client)
    start(client, night_id, 1)
    client.post(f"/nights/{night_id}/delete")
    with app.app_context():
        assert (
            db.session.scalar(
                select(func.count(Game.id)).where(
                    Game.night_id == night_id, Game.deleted_at.is_not(None)
                )
            )
            == 4
        )
    assert client.get(f"/nights/{night_id}").status_code == 404
    client.post("/nights/deleted", data={"night": night_id})
    assert client.get(f"/nights/{night_id}").status_code == 200
    with app.app_context():
        assert (
            db.session.scalar(
                select(func.count(Game.id)).where(
                    Game.night_id == night_id, Game.deleted_at.is_(None)
                )
            )
            == 4
        )


def test_a_night_and_its_games_survive_a_backup_and_restore(client, app, actions, tmp_path):
    night_id = set_up(client, PAIRS[:5], round_hands="1")
    start(client, night_id, 1)
    for url in cards(client, night_id).values():
        game_id = table_game(client, url)
        if game_id is not None:
            actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    end(client, night_id, 1)
    link = standings_link(client, night_id)
    data = json.loads(json.dumps(backup_of(app)))
    assert [n["id"] for n in data["nights"]] == [night_id]
    restored = another_app(tmp_path, "restored.sqlite3")
    with restored.app_context():
        restore(data)
    assert backup_of(restored) == data
    before, after = tables(app), tables(restored)
    for table in ("night", "pair", "night_table", "night_round", "seating", "game"):
        assert after[table] == before[table], table
    other = restored.test_client()
    assert _rows(other.get(link).text) == _rows(client.get(link).text)


def test_a_backup_whose_seat_names_a_game_of_no_night_is_refused(client, app, actions):
    night_id = set_up(client, PAIRS[:4], round_count="1")
    start(client, night_id, 1)
    data = json.loads(json.dumps(backup_of(app)))
    for game in data["games"]:
        game["night_id"] = None
    with app.app_context(), pytest.raises(BackupError, match="not the night it is seated in"):
        read_backup(data)


def _rows(page: str) -> list[tuple[str, ...]]:
    return re.findall(r'data-pair="(\d+)" data-points="(-?\d+)" data-wins="([\d.]+)"', page)


def test_the_standings_are_drawn_once_per_change_of_the_night_not_per_viewer(client, app):
    night_id = set_up(client, round_hands="3")
    link = standings_link(client, night_id)
    start(client, night_id, 1)
    game_id = table_game(client, cards(client, night_id)[1])
    assert game_id is not None
    with app.app_context():
        engine = db.engine
    drawn: list[str] = []

    def count(_conn: object, _cursor: object, statement: str, *_args: object) -> None:
        if "AS ns_total" in statement:  # queries.night_tables: what the standings are drawn from
            drawn.append(statement)

    event.listen(engine, "before_cursor_execute", count)
    try:
        viewers = [app.test_client() for _ in range(5)]
        for viewer in viewers:
            assert viewer.get(link).status_code == 200
        assert len(drawn) == 1
        Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
        for viewer in viewers:
            assert viewer.get(link).status_code == 200
        assert len(drawn) == 2
    finally:
        event.remove(engine, "before_cursor_execute", count)


@pytest.fixture
def file_app(tmp_path):
    """The app on a database file (or its own PostgreSQL database), so that requests in threads
    each have their connection."""
    return another_app(tmp_path, "n.db")


def test_every_table_saving_at_once_saves_every_hand_and_moves_the_night_on(file_app):
    app, client = file_app, file_app.test_client()
    night_id = set_up(client, round_hands="3")
    start(client, night_id, 1)
    games = [table_game(client, url) for url in cards(client, night_id).values()]
    with app.app_context():
        before = db.session.get(Night, night_id).revision  # type: ignore[union-attr]
    phones = [app.test_client() for _ in games]
    answers = together(
        [
            lambda phone=phone, game_id=game_id: phone.post(
                f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN])
            )
            for phone, game_id in zip(phones, games, strict=True)
        ]
    )
    assert [a.status_code for a in answers] == [302] * 4
    with app.app_context():
        assert db.session.get(Night, night_id).revision != before  # type: ignore[union-attr]
        for game_id in games:
            game = db.session.get(Game, game_id)
            assert game is not None and len(game.live_hands) == 1


def test_a_hand_saved_as_the_round_ends_is_either_counted_or_refused_never_lost(file_app):
    app, client = file_app, file_app.test_client()
    night_id = set_up(client, round_hands="3")
    start(client, night_id, 1)
    game_id = table_game(client, cards(client, night_id)[1])
    director, phone = app.test_client(), app.test_client()
    asked = director.get(f"/nights/{night_id}/end-round?round=1").text
    answers = {"round": "1", **asked_for(asked)}
    assert answers["table_1"] == "not-played" and answers["hands_1"] == "0"
    saved, ended = together(
        [
            lambda: phone.post(
                f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN])
            ),
            lambda: director.post(f"/nights/{night_id}/end-round", data=answers),
        ]
    )
    # Either the round ended first (the hand is refused) or the hand was saved first, and the
    # director, who answered for a table without a hand, is asked again: never both, none lost.
    assert (ended.status_code, saved.status_code) in ((302, 409), (422, 302))
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        assert len(game.live_hands) == (1 if saved.status_code == 302 else 0)


def hand_versions(app: Flask, game_id: str) -> list[tuple[int, int, bool]]:
    """Each hand of the game: its id, version and whether it is deleted."""
    with app.app_context():
        game = db.session.get(Game, game_id)
        assert game is not None
        return [(h.id, h.version, h.deleted_at is not None) for h in game.hands]


def test_after_its_round_ends_a_tables_hands_are_changed_only_behind_the_pin() -> None:
    """The table card's join link records and corrects the table's hands while its round is
    played; once it ended, correcting, deleting or bringing back a hand is the director's."""
    app = built_app({**TEST_CONFIG, "PIN": PIN})
    director = app.test_client()
    assert director.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    night_id = set_up(director)
    start(director, night_id, 1)
    phone = app.test_client()
    game_id = table_game(phone, cards(director, night_id)[1])
    assert game_id is not None
    table = Actions(phone)
    table.record_hand(game_id, [GOES_OUT, STAYS_IN])
    table.record_hand(game_id, [GOES_OUT, STAYS_IN])
    first, second = table.hand_ids(game_id)
    corrected = [{**GOES_OUT, "melded_points": "300"}, STAYS_IN]
    during = phone.post(
        f"/games/{game_id}/hands/{first}/edit", data=hand_fields(corrected, version="1")
    )
    assert during.status_code == 302, during.text
    deleted = phone.post(f"/games/{game_id}/hands/{second}/delete", data={"version": "1"})
    assert deleted.status_code == 302
    end(director, night_id, 1)
    before = hand_versions(app, game_id)
    assert before == [(first, 2, False), (second, 2, True)]

    edit = f"/games/{game_id}/hands/{first}/edit"
    asked = phone.get(edit)
    assert asked.status_code == 403 and "only the director" in asked.text
    refused = [
        phone.post(edit, data=hand_fields(corrected, version="2")),
        phone.get(f"/games/{game_id}/hands/{first}/delete"),
        phone.post(f"/games/{game_id}/hands/{first}/delete", data={"version": "2"}),
        phone.post(f"/games/{game_id}/hands/{second}/restore"),
    ]
    assert [answer.status_code for answer in refused] == [403] * 4
    assert all("only the director" in answer.text for answer in refused)
    assert 'name="pin"' in refused[0].text  # the director's PIN lets the correction go on
    assert hand_versions(app, game_id) == before

    assert director.get(edit).status_code == 200
    by_director = director.post(edit, data=hand_fields(corrected, version="2"))
    assert by_director.status_code == 302, by_director.text
    back = director.post(f"/games/{game_id}/hands/{second}/restore")
    assert back.status_code == 302, back.text
    assert hand_versions(app, game_id) == [(first, 3, False), (second, 3, False)]


def test_a_phone_goes_on_to_its_tables_next_game_with_the_access_it_had() -> None:
    """A phone that followed a table's game follows the game its table plays next, and records
    no hand there; one that recorded hands records them there too."""
    app = built_app({**TEST_CONFIG, "PIN": PIN})
    director = app.test_client()
    assert director.post("/pin", data={"pin": PIN, "next": "/"}).status_code == 302
    night_id = set_up(director)
    card = cards(director, night_id)[1]
    start(director, night_id, 1)
    first = table_game(director, card)
    assert first is not None
    follower = opened(app, "follow", links(director, first)["follow"])
    joined = opened(app, "join", links(director, first)["join"])
    end(director, night_id, 1)
    start(director, night_id, 2)
    second = table_game(director, card)
    assert second is not None and second != first

    following = follower.get(f"/games/{first}/next")
    assert following.headers["Location"] == f"/games/{second}/follow"
    assert follower.get(f"/games/{second}/follow").status_code == 200
    assert follower.get(f"/games/{second}/hands/new").status_code == 403
    recording = joined.get(f"/games/{first}/next")
    assert recording.headers["Location"] == f"/games/{second}"
    assert joined.get(f"/games/{second}/hands/new").status_code == 200


def test_the_nights_following_pages_follow_its_stream_which_names_each_change(tmp_path):
    """The standings, the director's page and a table card between rounds name the night's
    stream; a hand saved at a table, a round started and the night's deletion come on it."""
    app = built_app(
        {
            **TEST_CONFIG,
            "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "night.sqlite3"),
            "STREAMS": 3,
            "STREAM_SECONDS": 60,
        }
    )
    client = app.test_client()
    night_id = set_up(client)
    link = standings_link(client, night_id)
    waiting = client.get(cards(client, night_id)[1]).text  # before round 1
    pages = [client.get(link).text, client.get(f"/nights/{night_id}").text, waiting]
    found = [re.search(r'<div id="following"[^>]*data-stream="([^"]*)"', page) for page in pages]
    streams = {match.group(1) for match in found if match}
    assert len(found) == 3 and streams == {f"{link}/events"}, streams
    followed = Stream(app.test_client(), f"{link}/events")  # a phone with the link alone
    try:
        first = followed.next_event()
        assert first is not None and f'data-revision="{first["data"]}"' in client.get(link).text
        start(client, night_id, 1)
        started = followed.next_event()
        assert started is not None and started["data"] != first["data"]
        game_id = table_game(client, cards(client, night_id)[1])
        assert game_id is not None
        Actions(client).record_hand(game_id, [GOES_OUT, STAYS_IN])
        saved = followed.next_event()
        assert saved is not None and saved["data"] not in (first["data"], started["data"])
        assert f'data-revision="{saved["data"]}"' in client.get(link).text
        client.post(f"/nights/{night_id}/delete")
        gone = followed.next_event()
        assert gone is not None and gone.get("event") == "gone"
    finally:
        followed.close()
    assert app.test_client().get(f"{link}/events").status_code == 404


def test_the_director_s_page_asked_for_by_its_own_script_leaves_a_notice_to_the_page_it_opens(
    client: FlaskClient,
) -> None:
    """The director starts a round: the page's stream hears of it and its script asks for the
    page again (to swap in what follows the night) while the phone goes to the page the button
    leads to. The script's answer shows no notice; the page opened shows it, once."""
    night_id = set_up(client)
    started = client.post(f"/nights/{night_id}/start", data={"round": "1"})
    assert started.status_code == 302
    said = "Round 1 has started"
    asked = client.get(f"/nights/{night_id}", headers={"Sec-Fetch-Mode": "cors"})
    assert asked.status_code == 200
    assert "Round 1 of" in asked.text and said not in asked.text
    opened = client.get(started.headers["Location"], headers={"Sec-Fetch-Mode": "navigate"})
    assert said in opened.text
    assert said not in client.get(f"/nights/{night_id}").text  # shown once


def test_a_template_asks_for_the_notices_as_flask_s_get_flashed_messages_takes_them(
    app: Flask,
) -> None:
    """`templating.notices` takes the place of Flask's `get_flashed_messages` in every template:
    asked with Flask's arguments, it answers as Flask's does (a page opened)."""
    with app.test_request_context("/", headers={"Sec-Fetch-Mode": "navigate"}):
        flash("Round 2 has ended.", "ended")
        shown = render_template_string(
            "{% for kind, said in get_flashed_messages(with_categories=true,"
            " category_filter=['ended']) %}{{ kind }}: {{ said }}{% endfor %}"
        )
    assert shown == "ended: Round 2 has ended."

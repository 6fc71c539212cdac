"""The hand form's seams: the form is made from what the page already read (no statement of its
own), and every answer of the form is one outcome value, the page drawn from it."""

from __future__ import annotations

from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict

from scorekeeper.web.forms.hand import form_data, hand_form
from scorekeeper.web.services.loading import game_with_sides, with_hands

from .apps import statements
from .helpers import GOES_OUT, STAYS_IN, Actions, hidden


def test_the_hand_forms_factory_reads_nothing_from_the_database(
    app: Flask, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    with app.test_request_context(method="POST"):
        game = game_with_sides(game_id)
        hand = with_hands(game).hands[0]
        with statements(app) as seen:
            blank = hand_form(game, after=7)
            sent = hand_form(game, formdata=MultiDict({"ending": "stock", "after": "1"}))
            correction = hand_form(game, data=form_data(hand))
        assert seen == []
    assert (blank.after.data, sent.after.data) == ("7", "1")
    assert correction.version.data == str(hand.version)


def test_a_new_hands_form_is_opened_after_the_last_hand_deleted_or_not(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    assert hidden(client.get(f"/games/{game_id}/hands/new").text, "after") == "0"
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    second = actions.hand_ids(game_id)[1]
    deleted = client.post(f"/games/{game_id}/hands/{second}/delete", data={"version": "1"})
    assert deleted.status_code == 302
    assert hidden(client.get(f"/games/{game_id}/hands/new").text, "after") == "2"

"""The hand form's seams: the form is made from what the page already read (no statement of its
own), and every answer of the form is one outcome value, the page drawn from it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from werkzeug.datastructures import MultiDict
from werkzeug.test import TestResponse

from scorekeeper.web.forms.hand import form_data, hand_form
from scorekeeper.web.pages import hands
from scorekeeper.web.presenters.hand_form import Kind, Outcome
from scorekeeper.web.services.loading import game_with_sides, with_hands

from .apps import statements
from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields, hidden
from .nights import cards, end, set_up, start, table_game


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


def test_the_hand_forms_fields_are_made_once_per_set_up_whatever_the_names_or_language(
    app: Flask, actions: Actions
) -> None:
    # The words of the endings name the sides: the presenter's, not the form class's.
    ours, theirs = actions.new_game(), actions.new_game(names=("Ana", "Bo"))
    other = actions.new_game("denexa")
    made = {}
    for language in ("en", "es"):
        with app.test_request_context(headers={"Accept-Language": language}):
            for game_id in (ours, theirs, other):
                made[game_id, language] = type(hand_form(game_with_sides(game_id), after=0))
    assert len({made[ours, "en"], made[theirs, "en"], made[ours, "es"], made[theirs, "es"]}) == 1
    assert made[other, "en"] is not made[ours, "en"]


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


def new_hand(game_id: str) -> str:
    return f"/games/{game_id}/hands/new"


def edit(game_id: str, hand_id: int) -> str:
    return f"/games/{game_id}/hands/{hand_id}/edit"


def with_a_hand(actions: Actions) -> tuple[str, int]:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    return game_id, actions.hand_ids(game_id)[0]


def blank(client: FlaskClient, actions: Actions) -> TestResponse:
    return client.get(new_hand(actions.new_game()))


def opened(client: FlaskClient, actions: Actions) -> TestResponse:
    return client.get(edit(*with_a_hand(actions)))


def bumped(client: FlaskClient, actions: Actions) -> TestResponse:
    sent = hand_fields([{"set_samba": "1"}, {}], bump="sides-0-set_samba:1")
    return client.post(new_hand(actions.new_game()), data=sent)


def previewed(client: FlaskClient, actions: Actions) -> TestResponse:
    sent = hand_fields([GOES_OUT, STAYS_IN], action="preview")
    return client.post(new_hand(actions.new_game()), data=sent)


def mistyped(client: FlaskClient, actions: Actions) -> TestResponse:
    sent = hand_fields([{"melded_points": "abc"}, {}], "stock", action="preview")
    return client.post(new_hand(actions.new_game()), data=sent)


def mistyped_save(client: FlaskClient, actions: Actions) -> TestResponse:
    sent = hand_fields([{"melded_points": "abc"}, {}], "stock")
    return client.post(new_hand(actions.new_game()), data=sent)


def broken(client: FlaskClient, actions: Actions) -> TestResponse:
    sent = hand_fields([{"melded_points": "263"}, {}], "stock")
    return client.post(new_hand(actions.new_game()), data=sent)


def changed(client: FlaskClient, actions: Actions) -> TestResponse:
    game_id, hand_id = with_a_hand(actions)
    mine = hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version="1")
    theirs = hand_fields([{**GOES_OUT, "melded_points": "280"}, STAYS_IN], version="1")
    assert client.post(edit(game_id, hand_id), data=theirs).status_code == 302
    return client.post(edit(game_id, hand_id), data=mine)


def deleted(client: FlaskClient, actions: Actions) -> TestResponse:
    game_id, hand_id = with_a_hand(actions)
    gone = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": "1"})
    assert gone.status_code == 302
    return client.post(edit(game_id, hand_id), data=hand_fields([GOES_OUT, STAYS_IN]))


def taken(client: FlaskClient, actions: Actions) -> TestResponse:
    game_id, _hand_id = with_a_hand(actions)
    return client.post(new_hand(game_id), data=hand_fields([GOES_OUT, STAYS_IN], after="0"))


def night_game(client: FlaskClient) -> tuple[str, str]:
    """A club night of rounds of two hands, and the game at its table 1 in round 1."""
    night_id = set_up(client)
    start(client, night_id, 1)
    game_id = table_game(client, cards(client, night_id)[1])
    assert game_id is not None
    return night_id, game_id


def complete(client: FlaskClient, actions: Actions) -> TestResponse:
    _night_id, game_id = night_game(client)
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    return client.post(new_hand(game_id), data=hand_fields([GOES_OUT, STAYS_IN]))


def ended(client: FlaskClient, actions: Actions) -> TestResponse:
    night_id, game_id = night_game(client)
    end(client, night_id, 1)
    return client.post(new_hand(game_id), data=hand_fields([GOES_OUT, STAYS_IN]))


Case = Callable[[FlaskClient, Actions], TestResponse]

NOT_SAVED = "This hand was not saved."

# Each case, the outcome it is answered with, its status, whether the page says that nothing
# was saved, and what else the outcome must hold.
OUTCOMES: list[tuple[Case, Kind, int, bool, Callable[[Outcome], bool]]] = [
    (blank, Kind.BLANK, 200, False, lambda o: o == Outcome(Kind.BLANK)),
    (opened, Kind.OPENED, 200, False, lambda o: o == Outcome(Kind.OPENED)),
    (bumped, Kind.OPENED, 200, False, lambda o: o == Outcome(Kind.OPENED)),
    (previewed, Kind.PREVIEWED, 200, False, lambda o: o.typed is not None and o.broken == ()),
    (mistyped, Kind.MISTYPED, 422, False, lambda o: o.typed is None),
    (mistyped_save, Kind.REFUSED, 422, True, lambda o: o.typed is None and o.broken == ()),
    (broken, Kind.REFUSED, 422, True, lambda o: o.typed is not None and len(o.broken) == 1),
    (changed, Kind.CHANGED, 409, True, lambda o: o.theirs is not None and o.theirs != o.typed),
    (deleted, Kind.DELETED, 409, True, lambda o: o == Outcome(Kind.DELETED)),
    (taken, Kind.TAKEN, 409, True, lambda o: o.number == 1),
    (complete, Kind.CLOSED, 409, True, lambda o: (o.number, o.hands) == (1, 2)),
    (ended, Kind.CLOSED, 409, True, lambda o: (o.number, o.hands) == (1, None)),
]


@pytest.mark.parametrize(
    ("case", "kind", "status", "not_saved", "holds"),
    OUTCOMES,
    ids=[case.__name__ for case, *_ in OUTCOMES],
)
def test_each_answer_of_the_hand_form_is_one_outcome_and_its_status(
    client: FlaskClient,
    actions: Actions,
    monkeypatch: pytest.MonkeyPatch,
    case: Case,
    kind: Kind,
    status: int,
    not_saved: bool,
    holds: Callable[[Outcome], bool],
) -> None:
    drawn: list[Outcome] = []
    draw = hands.hand_form_page

    def spy(*args: Any, **kwargs: Any) -> Any:
        drawn.append(args[3])
        return draw(*args, **kwargs)

    monkeypatch.setattr(hands, "hand_form_page", spy)
    response = case(client, actions)
    [outcome] = drawn[-1:]
    assert (outcome.kind, response.status_code) == (kind, status)
    assert holds(outcome), outcome
    assert (NOT_SAVED in response.text) is not_saved
    assert ("Save mine as the next hand" in response.text) is (kind is Kind.TAKEN)

"""Every field of the table reaches every layer: form, engine, database, game file, CSV."""

from typing import Any

import pytest
from flask import Flask
from werkzeug.datastructures import MultiDict

from scorekeeper import rules
from scorekeeper.rules.fields import ENTRY_FIELDS, FieldKind, FieldRef, refs, value_of
from scorekeeper.rules.gamefile import hand_data, read_hand
from scorekeeper.rules.hands import Ending
from scorekeeper.rules.words import Text
from scorekeeper.web.forms.hand import ending_of, ending_value, form_data, hand_form, hand_from_form
from scorekeeper.web.pages.game_files import csv_columns
from scorekeeper.web.presenters.hand_form import place_violations
from scorekeeper.web.services.engine import engine_hand
from scorekeeper.web.services.hands import fill_hand
from scorekeeper.web.store.models import Entry, Game, Hand, Side

pytestmark = pytest.mark.once
"""The rows are built, never stored (the database layer is the models' columns): the same on
either database, run once."""

SHOWN = [
    (system_id, ref)
    for system_id in rules.SYSTEMS
    for ref in refs(rules.get_system(system_id))
    if not ref.entry_field.by_ending
]


def _id(case: Any) -> str:
    return case.name if isinstance(case, FieldRef) else str(case)


def sample(ref: FieldRef) -> bool | int:
    kind = ref.entry_field.kind
    return True if kind is FieldKind.FLAG else 35 if kind is FieldKind.POINTS else 3


def a_game(system_id: str, sides: int = 2) -> Game:
    """A game as the database holds it, not stored: the form needs only its sides."""
    return Game(
        id="g", system_id=system_id, sides=[Side(position=i, name=f"S{i}") for i in range(sides)]
    )


def posted(ref: FieldRef, value: bool | int, side: int = 0) -> MultiDict[str, str]:
    text = "y" if value is True else str(value)
    return MultiDict({"ending": "stock", f"sides-{side}-{ref.name}": text})


@pytest.mark.parametrize(("system_id", "ref"), SHOWN, ids=_id)
def test_every_field_round_trips_form_engine_database_file_and_csv(
    app: Flask, system_id: str, ref: FieldRef
) -> None:
    system, value = rules.get_system(system_id), sample(ref)
    game = a_game(system_id)
    with app.test_request_context(method="POST", data=posted(ref, value)):
        form = hand_form(game, formdata=posted(ref, value))
        assert form.validate(), form.errors
        hand = hand_from_form(form, system)
    assert value_of(hand.entries[0], ref) == value
    assert value_of(hand.entries[1], ref) == ref.entry_field.default
    record = Hand(version=1, token="t")
    fill_hand(record, hand)
    assert value_of(record.entries[0], ref) == value
    assert value_of(engine_hand(record).entries[0], ref) == value
    assert value_of(read_hand(hand_data(hand)).entries[0], ref) == value
    with app.test_request_context():
        assert ref.name in dict(csv_columns(system))
        assert form_data(record)["sides"][0][ref.name] == value
        refilled = hand_form(game, data=form_data(record))
        assert refilled.sides[0].form[ref.name].data == value


def test_the_database_columns_of_an_entry_are_the_tables_fields() -> None:
    columns = {c.name: c for c in Entry.__table__.columns}
    for field in ENTRY_FIELDS:
        assert field.name in columns
        assert columns[field.name].nullable is field.optional
    bookkeeping = {"id", "hand_id", "side_position", "hand_score"}
    assert set(columns) - bookkeeping == {field.name for field in ENTRY_FIELDS}


@pytest.mark.parametrize("sides", [2, 3])
def test_an_ending_round_trips_through_the_forms_radio(app: Flask, sides: int) -> None:
    for ending in Ending.every(sides):
        assert ending_of(ending_value(ending), sides) == ending
    assert ending_value(Ending.STOCK) == "stock"
    assert ending_value(Ending.went_out(1)) == "out-1"
    assert ending_of(f"out-{sides}", sides) is None
    assert ending_of("out-", sides) is None
    with app.test_request_context():
        form = hand_form(a_game("classic", sides), data={})
        assert [value for value, *_ in form.ending.iter_choices()] == [
            ending_value(e) for e in Ending.every(sides)
        ]


@pytest.mark.parametrize(("system_id", "ref"), SHOWN, ids=_id)
def test_a_violation_is_shown_next_to_the_control_of_its_field(
    app: Flask, system_id: str, ref: FieldRef
) -> None:
    system = rules.get_system(system_id)
    violation = rules.Violation("x", 1, Text("wrong here"), system.cite(ref.entry_field.topic), ref)
    with app.test_request_context(method="POST"):
        form = hand_form(a_game(system_id), formdata=posted(ref, sample(ref)))
        form.validate()
        loose = place_violations(form, [violation], "g", system)
    assert loose == []
    assert ["wrong here" in str(e) for e in form.sides[1].form[ref.name].errors] == [True]
    assert form.sides[0].form[ref.name].errors == []


def test_a_violation_about_going_out_is_shown_at_how_the_hand_ended(app: Flask) -> None:
    system = rules.get_system("classic")
    violation = rules.Violation(
        "x", 0, Text("not out"), system.cite("going-out"), FieldRef("went_out")
    )
    with app.test_request_context(method="POST"):
        form = hand_form(a_game("classic"), formdata=MultiDict({"ending": "stock"}))
        form.validate()
        assert place_violations(form, [violation], "g", system) == []
    assert ["not out" in str(e) for e in form.ending.errors] == [True]


def test_the_classic_form_asks_once_how_many_players_were_caught_holding_red_threes(
    app: Flask,
) -> None:
    system = rules.get_system("classic")
    names = [ref.name for ref in refs(system, players=1)]
    assert "players_holding_red_threes" in names
    assert "red_threes_in_hand" not in names
    held = FieldRef("players_holding_red_threes")
    with app.test_request_context(method="POST"):
        form = hand_form(a_game("classic"), formdata=posted(held, 2))
        assert form.validate(), form.errors
        hand = hand_from_form(form, system)
    caught = hand.entries[0]
    assert (caught.players_holding_red_threes, caught.red_threes_in_hand) == (2, 2)
    sides = (rules.Side("Us", 2), rules.Side("Them", 2))
    assert rules.check_hand(rules.Game(system, sides), hand, (50, 50), False) == []


def test_a_classic_hand_with_red_threes_left_in_hand_alone_is_asked_as_one_player_caught(
    app: Flask,
) -> None:
    record = Hand(version=1, token="t")
    fill_hand(record, rules.Hand((rules.Entry(red_threes_in_hand=2), rules.Entry())))
    with app.test_request_context():
        assert form_data(record)["sides"][0]["players_holding_red_threes"] == 1
        assert form_data(record)["sides"][1]["players_holding_red_threes"] == 0


def test_a_violation_about_red_threes_in_hand_is_shown_at_the_classic_forms_one_question(
    app: Flask,
) -> None:
    system = rules.get_system("classic")
    ref = FieldRef("red_threes_in_hand")
    violation = rules.Violation("x", 0, Text("wrong here"), system.cite("red-threes"), ref)
    with app.test_request_context(method="POST"):
        form = hand_form(a_game("classic"), formdata=MultiDict({"ending": "stock"}))
        form.validate()
        assert place_violations(form, [violation], "g", system) == []
    errors = form.sides[0].form["players_holding_red_threes"].errors
    assert ["wrong here" in str(e) for e in errors] == [True]

"""The field table of a hand entry: what every other description of an entry is made from."""

from dataclasses import fields

import pytest

from scorekeeper import rules
from scorekeeper.rules.fields import (
    ENTRY_FIELDS,
    FIELDS,
    FieldKind,
    FieldRef,
    entry_of,
    plain,
    refs,
    value_of,
)
from scorekeeper.rules.gamefile import hand_data, read_hand, violation_data
from scorekeeper.rules.hands import Ending

SYSTEMS = [rules.get_system(system_id) for system_id in rules.SYSTEMS]
EVERY_REF = sorted(
    {ref for system in SYSTEMS for ref in refs(system, every=True)}, key=lambda ref: ref.name
)


def sample(ref: FieldRef) -> bool | int:
    """A value of the field that is not its default."""
    kind = ref.entry_field.kind
    return True if kind is FieldKind.FLAG else 35 if kind is FieldKind.POINTS else 3


def test_the_table_names_every_field_of_an_entry_in_order() -> None:
    recorded = [f.name for f in fields(rules.Entry) if f.name != "bad_numbers"]
    assert [field.name for field in ENTRY_FIELDS] == recorded


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda system: system.id)
def test_every_field_belongs_to_a_rule_topic_of_the_system(system: rules.RuleSystem) -> None:
    for field in ENTRY_FIELDS:
        assert system.cite(field.topic).topic == field.topic


def test_only_systems_charging_red_threes_held_per_player_ask_who_held_them() -> None:
    asked = [s.id for s in SYSTEMS if FieldRef("players_holding_red_threes") in refs(s)]
    assert asked == ["classic"]


def test_only_systems_exempting_a_concealed_going_out_ask_for_it() -> None:
    assert [s.id for s in SYSTEMS if FieldRef("concealed") in refs(s)] == ["fournier"]


@pytest.mark.parametrize("system", SYSTEMS, ids=lambda system: system.id)
def test_a_system_shows_exactly_its_set_kinds_and_penalties(system: rules.RuleSystem) -> None:
    shown = list(refs(system))
    assert [r.key for r in shown if r.field == "sets"] == [
        k for k in rules.SetKind if system.has(k)
    ]
    assert [r.key for r in shown if r.field == "penalties"] == list(system.penalties)


@pytest.mark.parametrize("ref", EVERY_REF, ids=lambda ref: ref.name)
def test_every_value_round_trips_through_a_game_file(ref: FieldRef) -> None:
    value = sample(ref)
    entry = entry_of({ref.field: {ref.key: value} if ref.key else value})
    assert value_of(entry, ref) == value
    hand = rules.Hand((entry, rules.Entry()), Ending.STOCK.ended_by)
    back = read_hand(hand_data(hand))
    assert value_of(back.entries[0], ref) == value
    assert plain(back.entries[0]) == plain(entry)


@pytest.mark.parametrize("ref", EVERY_REF, ids=lambda ref: ref.name)
def test_a_field_reference_is_named_by_its_game_file_path(ref: FieldRef) -> None:
    assert FieldRef.from_path(ref.path) == ref


def test_a_violation_names_its_field_as_the_game_file_does() -> None:
    game = rules.Game(rules.get_system("classic"), (rules.Side("Us", 2), rules.Side("Them", 2)))
    entry = rules.Entry(sets={rules.SetKind.BLACK_SAMBA: 1}, melded_points=150)
    hand = rules.Hand((entry, rules.Entry()), rules.EndedBy.STOCK_EXHAUSTED)
    found = rules.check_hand(game, hand, (50, 50), game_over=False)
    black = next(v for v in found if v.code == "set-not-in-variant")
    assert black.field == FieldRef("sets", rules.SetKind.BLACK_SAMBA)
    assert violation_data(black)["field"] == "sets.black_samba"


def test_a_hand_ends_with_one_side_going_out_or_the_stock_running_out() -> None:
    out = rules.Hand((rules.Entry(), rules.Entry(went_out=True)))
    assert out.ending == Ending.went_out(1)
    assert rules.Hand((rules.Entry(), rules.Entry()), rules.EndedBy.STOCK_EXHAUSTED).ending == (
        Ending.STOCK
    )
    assert Ending.every(3)[-1] is Ending.STOCK
    assert [e.ended_by for e in Ending.every(2)] == [
        rules.EndedBy.GOING_OUT,
        rules.EndedBy.GOING_OUT,
        rules.EndedBy.STOCK_EXHAUSTED,
    ]


def test_the_numbers_checked_for_multiples_of_5_are_the_card_points() -> None:
    from scorekeeper.rules.fields import POINTS_FIELDS

    assert POINTS_FIELDS == ("opening_meld", "melded_points", "hand_points")
    assert all(FIELDS[name].kind is FieldKind.POINTS for name in POINTS_FIELDS)

"""The house-rule form follows the engine's table: every problem at once, every key round trip."""

from __future__ import annotations

import re
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.rules.house import house_rules_data
from scorekeeper.web.forms.house_rule import field_name, house_rule_keys
from scorekeeper.web.services.house_rules import house_rule_system
from scorekeeper.web.store.schema import check_house_rule

from .helpers import (
    errors_of,
    house_rule_form,
    input_value,
    new_house_game,
    save_house_rule,
    stored_house_rule,
)

Kind = rules.HouseRuleKind


def opened(system: rules.RuleSystem, name: str = "Casa") -> dict[str, str]:
    """The form as it opens for a system, built from the table: each key at the system's value."""
    data: dict[str, str] = {}
    for entry in house_rule_keys(system):
        own = entry.of(system)
        if entry.kind is Kind.WORDS:
            data[field_name(entry)] = name
        elif entry.kind is Kind.POINTS_BY_PART:
            for part in entry.parts(system):
                data[field_name(entry, part)] = str(own[part])
        elif entry.kind is Kind.MINIMUMS:
            for index, (lowest, minimum) in enumerate([*own, (None, None), (None, None)]):
                row = f"{field_name(entry)}-{index}"
                data[f"{row}-lowest"] = "" if lowest is None else str(lowest)
                data[f"{row}-minimum"] = "" if minimum is None else str(minimum)
        else:
            data[field_name(entry)] = "" if own is None else str(own)
    return data


def a_change(entry: rules.HouseRuleKey, system: rules.RuleSystem) -> tuple[dict[str, str], Any]:
    """Fields typed over to change `entry`, and the value a game file then holds for it."""
    own = entry.of(system)
    if entry.kind is Kind.POINTS_BY_PART:
        part = entry.parts(system)[0]
        return {field_name(entry, part): str(own[part] + 100)}, {part: own[part] + 100}
    if entry.kind is Kind.MINIMUMS:
        last = len(own) - 1
        lowest, minimum = own[last]
        typed = {f"{field_name(entry)}-{last}-minimum": str(minimum + 5)}
        written = [list(pair) for pair in own[:last]] + [[lowest, minimum + 5]]
        if written[0][0] is None:  # a first row open below is written under the next total
            written[0][0] = min(0, written[1][0] - 5) if len(written) > 1 else 0
        return typed, written
    if entry.kind is Kind.CHOICE:
        other = next(choice for choice in entry.choices if choice != own)
        return {field_name(entry): other}, other
    return {field_name(entry): str(own + 1)}, own + 1


CHANGES = [
    (system_id, entry)
    for system_id, system in rules.SYSTEMS.items()
    for entry in house_rule_keys(system)
    if entry.kind is not Kind.WORDS
]


@pytest.mark.parametrize(("system_id", "entry"), CHANGES, ids=[f"{s}-{e.key}" for s, e in CHANGES])
def test_each_house_rule_key_goes_from_the_form_to_the_engine_the_game_file_and_the_schema(
    app: Flask, client: FlaskClient, system_id: str, entry: rules.HouseRuleKey
) -> None:
    system = rules.SYSTEMS[system_id]
    typed, value = a_change(entry, system)
    rule_id = save_house_rule(client, {**opened(system), **typed}, system=system_id)
    house_rule = stored_house_rule(app, rule_id)
    assert house_rule.rules == {entry.key: value}
    with app.app_context():
        check_house_rule(house_rule)  # the schema takes what the form kept
        derived = house_rule_system(house_rule)
    written = house_rules_data(derived.house_rules or rules.HouseRules())
    assert written == {"name": "Casa", entry.key: value}
    page = client.get(f"/house-rules/{rule_id}/edit").text
    for name, shown in typed.items():
        if entry.kind is Kind.CHOICE:
            assert re.search(rf'<option selected value="{shown}">', page), page
        else:
            assert input_value(page, name) == shown
    table = "2x2" if (2, 2) in system.tables else "{}x{}".format(*system.tables[0])
    game_id = new_house_game(client, rule_id, table)
    exported = client.get(f"/games/{game_id}/export.json").get_json()
    assert exported["house_rules"] == {"name": "Casa", entry.key: value}
    assert rules.read_game(exported).system == derived
    imported = client.post("/games/import", json=exported)
    assert imported.status_code == 201


def test_the_form_shows_every_problem_at_once_each_next_to_its_field(
    client: FlaskClient,
) -> None:
    data = house_rule_form(
        bonus_samba="-5",
        target="0",
        **{"first_meld-1-minimum": "-10", "first_meld-2-minimum": "-20"},
    )
    response = client.post("/house-rules/new?system=denexa", data=data)
    assert response.status_code == 422
    page = response.text
    assert "at least 0, got -5" in errors_of(page, "bonus_samba")
    assert "at least 1, got 0" in errors_of(page, "target")
    rows = errors_of(page, "first_meld")
    assert "Row 2: expected a whole number of at least 0, got -10" in rows
    assert "Row 3: expected a whole number of at least 0, got -20" in rows
    assert errors_of(page, "going_out_bonus") == ""


def test_a_row_that_goes_down_and_a_wrong_bonus_are_shown_together_in_spanish(
    client: FlaskClient,
) -> None:
    client.set_cookie("lang", "es")
    data = house_rule_form(going_out_bonus="-1", **{"first_meld-2-lowest": "-100"})
    page = client.post("/house-rules/new?system=denexa", data=data).text
    assert "se esperaba un número entero de al menos 0, no -1" in errors_of(page, "going_out_bonus")
    assert "deben subir" in errors_of(page, "first_meld")

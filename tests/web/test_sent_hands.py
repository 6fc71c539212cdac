"""A new hand's Save is read plainly, without building the form's fields (`forms.hand.sent_hand`,
issue 36): what the plain reading takes, the form built whole takes too and reads as the same
hand and hidden values; what it does not take, the form reads and answers as it always did (a
refused save shows the problem next to the field, everything typed kept)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.datastructures import MultiDict
from wtforms import Field

from scorekeeper.web.forms.hand import Hidden, hand_form, hand_from_form, sent_hand
from scorekeeper.web.pages import hands
from scorekeeper.web.services.engine import system_of
from scorekeeper.web.services.loading import game_with_sides

from .helpers import GOES_OUT, STAYS_IN, Actions, hand_fields, hidden

TABLES = (
    ("classic", "2x2"),
    ("classic", "3x2"),
    ("denexa", "2x2"),
    ("black-samba", "2x3"),
    ("super-samba", "2x3"),  # red threes counted, not picked
    ("fournier", "5x1"),
)
VALUES = st.one_of(
    st.sampled_from(
        [
            *("", " ", "0", "1", "2", "3", "7", "-1", "+3", " 12 ", "1_0", "\u0663", "abc"),
            *("1e3", "9999", "10000", "99999999", "false", "true", "on", "y", "out-0", "out-1"),
            *("out-2", "out-3", "stock", "Stock", "x" * 40, "x" * 41),
        ]
    ),
    st.integers(-5, 10_001).map(str),
    st.text(max_size=4),
)
ODD_NAMES = ("sides-2-melded_points", "sides-00-melded_points", "sides-9-x", "sides-x-1", "bump")


def _names(fields: Any) -> Iterator[str]:
    """The names of every field of a form, its sides' and card counters' too."""
    for field in fields:
        if isinstance(field, Field) and field.type in ("FieldList", "FormField"):
            yield from _names(field)
        elif field.name != "csrf_token":
            yield field.name


def _game(app: Flask, actions: Actions, system: str, table: str) -> str:
    """A game at this table, set up once for all the examples of a test."""
    made: dict[str, str] = app.extensions.setdefault("test_sent_hands", {})
    if table not in made:
        made[table] = actions.new_game(system, table, names=[f"S{i}" for i in range(int(table[0]))])
    return made[table]


def _sent(data: Any, names: list[str], sides: int) -> MultiDict[str, str]:
    """A form as a table sends it (every field, each a good value), then a few of its values
    changed to odd ones, fields left out, or a side's fields all left out."""
    sent = {name: ["stock" if name == "ending" else "0"] for name in names}
    for _ in range(data.draw(st.integers(0, 3))):
        change = data.draw(st.sampled_from(["value", "value", "value", "gone", "side gone"]))
        if change == "side gone":
            prefix = f"sides-{data.draw(st.integers(0, sides - 1))}-"
            sent = {name: values for name, values in sent.items() if not name.startswith(prefix)}
            continue
        name = data.draw(st.sampled_from([*names, *ODD_NAMES]))
        sent.pop(name, None)
        if change == "value":
            sent[name] = data.draw(st.lists(VALUES, min_size=1, max_size=2))
    return MultiDict([(name, value) for name, values in sent.items() for value in values])


@pytest.mark.parametrize(("system", "table"), TABLES)
@settings(
    max_examples=50,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_what_the_plain_reading_takes_the_form_takes_and_reads_the_same(
    app: Flask, actions: Actions, system: str, table: str, data: Any
) -> None:
    game_id = _game(app, actions, system, table)
    with app.test_request_context(method="POST"):
        game = game_with_sides(game_id)
        sent = _sent(data, list(_names(hand_form(game))), len(game.sides))
        plain = sent_hand(sent, game)
        form = hand_form(game, formdata=sent)
        if plain is not None:
            assert form.validate(), form.errors
            assert plain.hand == hand_from_form(form, system_of(game))
            assert plain.hidden == Hidden.of(form)


@pytest.mark.parametrize(("system", "table"), TABLES)
def test_a_hand_typed_as_tables_do_is_read_plainly(
    app: Flask, actions: Actions, system: str, table: str
) -> None:
    game_id = actions.new_game(system, table, names=[f"S{i}" for i in range(int(table[0]))])
    sides = [GOES_OUT, *[STAYS_IN] * (int(table[0]) - 1)]
    with app.test_request_context(method="POST"):
        game = game_with_sides(game_id)
        sent = MultiDict(hand_fields(sides, token="t" * 22, after="0", version=""))
        plain = sent_hand(sent, game)
        form = hand_form(game, formdata=sent)
        assert plain is not None and form.validate()
        assert plain.hand == hand_from_form(form, system_of(game))
        assert plain.hidden == Hidden(token="t" * 22, after="0", version="")


def test_a_save_read_plainly_builds_no_form_and_a_refused_one_keeps_what_was_typed(
    client: FlaskClient, actions: Actions, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = actions.new_game()
    new = f"/games/{game_id}/hands/new"
    made: list[int] = []

    def counted(*args: Any, **kwargs: Any) -> Any:
        made.append(1)
        return hand_form(*args, **kwargs)

    monkeypatch.setattr(hands, "hand_form", counted)
    form = client.get(new).text
    made.clear()
    sent = hand_fields([GOES_OUT, STAYS_IN], token=hidden(form, "token"), after="0")
    assert client.post(new, data=sent).status_code == 302
    assert made == []
    # Read plainly, refused by the rules: the form is built to show the problem and the hand.
    sent = hand_fields([{"melded_points": "263"}, {}], "stock", token="u" * 22, after="1")
    refused = client.post(new, data=sent)
    assert refused.status_code == 422
    assert made == [1]
    assert "263 points cannot be" in refused.text
    assert 'value="263"' in refused.text and 'value="' + "u" * 22 + '"' in refused.text

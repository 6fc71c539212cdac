"""Card values reach the hand form, its script and the rules pages from `CARD_POINTS` alone."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask import Flask, request
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.rules import Card
from scorekeeper.web.forms.hand import hand_form
from scorekeeper.web.services.loading import game_with_sides

from .helpers import Actions, section

pytestmark = pytest.mark.once  # card values come from the engine, whatever the database

ROOT = Path(__file__).resolve().parents[2]

# Values no system has, so that a page showing them can only have read them from CARD_POINTS.
PATCHED = {
    Card.JOKER: 55,
    Card.TWO: 25,
    Card.ACE: 30,
    Card.EIGHT_TO_KING: 15,
    Card.FOUR_TO_SEVEN: 7,
    Card.BLACK_THREE: 3,
}


@pytest.fixture
def patched(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "CARD_POINTS", PATCHED)


def input_tag(page: str, name: str) -> str:
    found = re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', page)
    assert found, f"no input {name!r} on the page"
    return found.group(0)


def counter_labels(page: str, prefix: str) -> list[str]:
    return re.findall(rf'<label for="{re.escape(prefix)}_cards-\w+">([^<]*)</label>', page)


@pytest.mark.usefixtures("patched")
def test_the_card_counter_carries_each_value_for_its_script(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    page = client.get(f"/games/{game_id}/hands/new").text
    for prefix in ("sides-0-melded", "sides-0-hand", "sides-1-melded", "sides-1-hand"):
        for card, points in PATCHED.items():
            assert f'data-points="{points}"' in input_tag(page, f"{prefix}_cards-{card.value}")
    assert counter_labels(page, "sides-0-melded") == [
        "Jokers (55)",
        "Twos (25)",
        "Aces (30)",
        "8 to K (15)",
        "4 to 7 (7)",
        "Black threes (3)",
    ]


def test_the_card_counter_is_written_as_wtforms_writes_its_inputs(
    app: Flask, client: FlaskClient, actions: Actions
) -> None:
    # The template writes these inputs out by hand (they are half the hand form's inputs, and
    # WTForms' writing of them was most of drawing the form): blank and as typed, they must be
    # what WTForms would have written.
    game_id = actions.new_game()
    typed = {"sides-0-melded_cards-jokers": "2", "sides-1-hand_cards-aces": "11"}
    for sent in ({}, {**typed, "action": "preview"}):
        page = (client.post if sent else client.get)(f"/games/{game_id}/hands/new", data=sent).text
        with app.test_request_context(method="POST" if sent else "GET", data=sent):
            form = hand_form(game_with_sides(game_id), formdata=request.form if sent else None)
            for index, side in enumerate(form.sides):
                for counter in ("melded", "hand"):
                    for card in Card:
                        field = side.form[f"{counter}_cards"][card.value]
                        written = field(
                            class_="count", size=3, **{"data-points": rules.CARD_POINTS[card]}
                        )
                        name = f"sides-{index}-{counter}_cards-{card.value}"
                        assert input_tag(page, name) == str(written)
    assert 'value="11"' in input_tag(page, "sides-1-hand_cards-aces")


@pytest.mark.usefixtures("patched")
def test_the_card_counter_speaks_spanish_with_the_engines_values(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    page = client.get(f"/games/{game_id}/hands/new").text
    assert counter_labels(page, "sides-1-hand")[0] == "Comodines (55)"
    assert counter_labels(page, "sides-1-hand")[-1] == "Treses negros (3)"


@pytest.mark.usefixtures("patched")
def test_the_rules_page_lists_the_engines_card_values(client: FlaskClient) -> None:
    table = section(client.get("/rules/classic").text, "table")
    assert "Joker 55 Two 25 Ace 30 King down to 8 15 7 down to 4 7 Black three 3" in table


def test_the_script_types_no_card_values() -> None:
    script = (ROOT / "static" / "js" / "hand-form.js").read_text(encoding="utf-8")
    assert [card.value for card in Card if card.value in script] == []
    assert "dataset.points" in script


@pytest.mark.parametrize(
    "template",
    sorted((ROOT / "templates").rglob("*.html")),
    ids=lambda path: str(path.relative_to(ROOT)),
)
def test_no_template_types_a_card_value(template: Path) -> None:
    """A label such as "Jokers (50)" would say a value that CARD_POINTS may no longer give."""
    words = re.findall(r"""_\(\s*(["'])(.*?)\1""", template.read_text(encoding="utf-8"))
    assert [text for _quote, text in words if re.search(r"\(\d+\)", text)] == []

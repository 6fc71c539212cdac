"""The rules pages' prose lives in templates, one partial per topic; Python hands them numbers."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_python
from flask import Flask
from flask.testing import FlaskClient
from jinja2 import nodes

from scorekeeper import rules
from scorekeeper.web.presenters.rulebook import TOPICS, render_rules

from .helpers import section

pytestmark = pytest.mark.once  # the rules pages are drawn from the engine, whatever the database

ROOT = Path(__file__).resolve().parents[2]
RULES_TEMPLATES = ROOT / "templates" / "rules"
ARITHMETIC = (
    nodes.Add,
    nodes.Sub,
    nodes.Mul,
    nodes.Div,
    nodes.FloorDiv,
    nodes.Mod,
    nodes.Pow,
    nodes.Neg,
    nodes.Pos,
)


def test_every_topic_is_written_in_a_partial_of_its_own() -> None:
    written = {path.stem for path in (RULES_TEMPLATES / "topics").glob("[!_]*.html")}
    assert written == set(TOPICS)


def test_the_rulebook_module_holds_no_sentences() -> None:
    """Only labels and names stay in Python; whatever ends like a sentence is a template's."""
    with (ROOT / "scorekeeper" / "web" / "presenters" / "rulebook.py").open("rb") as source:
        messages = [
            message
            for _line, _function, message, _comments in extract_python(
                source, {"_": None, "N_": None}, [], {}
            )
        ]
    assert messages, "the extraction found nothing: wrong keywords?"
    assert [m for m in messages if re.search(r"[.;:]", str(m))] == []


@pytest.mark.parametrize("template", sorted(RULES_TEMPLATES.rglob("*.html")), ids=lambda p: p.name)
def test_the_rules_templates_compute_nothing(app: Flask, template: Path) -> None:
    parsed = app.jinja_env.parse(template.read_text(encoding="utf-8"))
    sums = [str(node) for node in parsed.find_all(ARITHMETIC)]
    assert sums == []


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "A game is 1 hand; the highest total then wins"),
        ("es", "Una partida es 1 mano; gana el total más alto"),
    ],
)
def test_a_one_hand_game_is_said_in_the_singular(app: Flask, language: str, words: str) -> None:
    one_hand = dataclasses.replace(rules.SYSTEMS["super-samba"], hands_in_game=1)
    with app.test_request_context(headers={"Accept-Language": language}):
        page = render_rules(one_hand)
    assert words in section(page, "end-of-game")


@pytest.mark.parametrize(
    ("language", "was", "now"),
    [
        ("en", "below 1,500: 50; 1,500 to 2,995: 90", "below 2,000: 50; 2,000 and up: 100"),
        (
            "es",
            "por debajo de 1.500: 50; de 1.500 a 2.995: 90",
            "por debajo de 2.000: 50; desde 2.000: 100",
        ),
    ],
)
def test_a_house_first_meld_table_is_worded_as_the_rules_page_words_it(
    client: FlaskClient, language: str, was: str, now: str
) -> None:
    game = {
        "variant": "classic",
        "house_rules": {"opening_minimums": [[-100000, 50], [2000, 100]]},
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = client.get(location + "/rules").text
    house = re.search(r'<section class="house".*?</section>', page, re.S)
    assert house is not None
    text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", house.group(0))).split())
    assert was in text
    assert now in text
    assert now.split(";")[0].replace(":", "") in section(page, "first-meld")

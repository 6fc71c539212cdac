"""Each of our readings is on its rules page, says which house-rule key changes it, and links to
a new house rule that reads it the other way (scorekeeper/rules/readings.py)."""

from __future__ import annotations

import html
import json
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.rules.readings import READINGS, Reading
from scorekeeper.web.extensions import db
from scorekeeper.web.store.models import HouseRule

from .helpers import Forms, section

pytestmark = pytest.mark.once  # the rules pages are drawn from the engine, whatever the database

SPANISH = {
    "Our reading": "Nuestra interpretación",
    "The text": "El texto",
    "We take": "Tomamos",
    "The other reading": "La otra interpretación",
}


def reading_id(reading: Reading) -> str:
    return f"{reading.system}-{reading.topic}-{reading.key}"


def with_key(reading: Reading) -> rules.HouseRuleKey:
    return rules.HOUSE_RULES_BY_KEY[reading.key]


def link_of(page: str, reading: Reading) -> str:
    """The href of the reading's "start a house rule" link in its section."""
    links = [
        html.unescape(href)
        for href in re.findall(
            r'href="(/house-rules/new\?[^"]*)"', raw_section(page, reading.topic)
        )
        if f"{reading.key}=" in html.unescape(href)
    ]
    assert links, f"no link for {reading.key} in {reading.topic}"
    return links[0]


def raw_section(page: str, topic: str) -> str:
    found = re.search(rf'<section id="{topic}".*?</section>', page, re.S)
    assert found is not None, topic
    return found.group(0)


def test_every_reading_is_of_a_known_system_and_section() -> None:
    for reading in READINGS:
        assert reading.topic in rules.SYSTEMS[reading.system].sections, reading


def test_every_reading_names_a_house_rule_key_its_system_takes() -> None:
    for reading in READINGS:
        entry = rules.HOUSE_RULES_BY_KEY.get(reading.key)
        assert entry is not None and entry.has(rules.SYSTEMS[reading.system]), reading


@pytest.mark.parametrize("reading", READINGS, ids=reading_id)
@pytest.mark.parametrize("language", ["en", "es"])
def test_each_reading_is_marked_as_ours_with_its_key(
    client: FlaskClient, reading: Reading, language: str
) -> None:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    text = section(client.get(f"/rules/{reading.system}").text, reading.topic)
    labels = SPANISH if language == "es" else {label: label for label in SPANISH}
    for label in labels.values():
        assert f"{label}:" in text
    assert reading.key in text.split()
    with client.application.test_request_context(headers={"Accept-Language": language}):
        from scorekeeper.web.wording import citation, say

        for words in (reading.says, reading.take, reading.otherwise):
            assert " ".join(say(words).split()) in text
        assert citation(reading.cite()) in text


@pytest.mark.parametrize("reading", READINGS, ids=reading_id)
def test_each_reading_links_to_a_house_rule_with_its_key_filled_in(
    client: FlaskClient, reading: Reading
) -> None:
    with_key(reading)
    link = link_of(client.get(f"/rules/{reading.system}").text, reading)
    query = parse_qs(urlsplit(link).query)
    assert query["system"] == [reading.system]
    value = query[reading.key][0]
    assert (value if isinstance(reading.other, str) else json.loads(value)) == reading.other


@pytest.mark.parametrize("reading", READINGS, ids=reading_id)
def test_the_link_opens_the_form_showing_the_other_reading_and_keeps_it(
    app: Flask, client: FlaskClient, reading: Reading
) -> None:
    entry = with_key(reading)
    link = link_of(client.get(f"/rules/{reading.system}").text, reading)
    form = client.get(link)
    assert form.status_code == 200
    assert f'id="{urlsplit(link).fragment}"' in form.text  # the link lands on the field
    sent = dict(Forms(form.text).found[""])
    sent["name"] = "Other reading"
    response = client.post(link, data=sent)
    assert response.status_code == 302, response.text
    with app.app_context():
        kept = db.session.scalars(db.select(HouseRule)).one().rules
    if entry.kind is rules.HouseRuleKind.POINTS_BY_PART:
        assert reading.other.items() <= kept[reading.key].items()
    else:
        assert kept[reading.key] == reading.other


@pytest.mark.parametrize(
    ("query", "field", "shown"),
    [
        ("set_bonuses=%7B%22samba%22%3A+1500%7D", "bonus_samba", "1500"),
        ("going_out_bonus=300", "going_out_bonus", "300"),
        ("name=Casa", "name", "Casa"),
    ],
)
def test_a_new_house_rule_is_prefilled_from_its_query(
    client: FlaskClient, query: str, field: str, shown: str
) -> None:
    page = client.get(f"/house-rules/new?system=denexa&{query}").text
    assert re.search(rf'<input[^>]*id="{field}"[^>]*value="{shown}"', page)


@pytest.mark.parametrize(
    "query",
    [
        "set_bonuses=%7B%22super_samba%22%3A+9%7D",  # denexa has no super samba
        "going_out_bonus=-5",
        "going_out_bonus=%7B",
        "set_bonuses=x",
        "opening_minimums=%5B%5B1%5D%5D",
        "set_bonuses=" + "%5B" * 100_000,
        "unknown=1",
    ],
)
def test_a_query_the_system_cannot_take_opens_the_plain_form(
    client: FlaskClient, query: str
) -> None:
    page = client.get(f"/house-rules/new?system=denexa&{query}")
    assert page.status_code == 200
    assert re.search(r'<input[^>]*id="bonus_samba"[^>]*value="500"', page.text)
    assert re.search(r'<input[^>]*id="going_out_bonus"[^>]*value="200"', page.text)


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "This table's house rules take the other reading."),
        ("es", "Las reglas de la casa de esta mesa siguen la otra interpretación."),
    ],
)
def test_a_game_played_by_the_other_reading_says_so_instead_of_linking(
    client: FlaskClient, language: str, said: str
) -> None:
    game = {
        "variant": "denexa",
        "house_rules": {"set_bonuses": {"samba": 1500}},
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = language
    page = client.get(location + "/rules").text
    assert said in section(page, "sets")
    assert "/house-rules/new?" not in raw_section(page, "sets")
    plain = client.get("/rules/denexa").text
    assert said not in section(plain, "sets")
    assert "/house-rules/new?" in raw_section(plain, "sets")

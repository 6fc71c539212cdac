"""The disputes of tests/disputes.py, answered by the search a game's rules page makes: the words
a player types (four at most) find the passage that answers among the first two the search shows
for that game's system, saying what the text says, with its citation; and the words of each
answer name one place of the page (or two, when the answer is said twice), so that the browser
test can tell where the answer is (tests/browser/test_disputes.py, benchmarks/referee_reach.py).
"""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.web.presenters.rules_passages import passages
from tests.disputes import DISPUTES, Dispute

pytestmark = pytest.mark.once  # the rules pages are drawn from the engine, whatever the database

IDS = [f"{d.system}-{d.typed['en'].replace(' ', '-')}" for d in DISPUTES]


def shown(page: str) -> list[str]:
    """What each passage found for the system searched first shows, the words found unmarked."""
    found = re.search(r'<ol class="found">(.*?)</ol>', page, re.S)
    items = re.findall(r"<li>(.*?)</li>", found.group(1), re.S) if found else []
    return [
        " ".join(html.unescape(re.sub(r"<[^>]+>", " ", re.sub(r"</?mark>", "", item))).split())
        for item in items
    ]


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("dispute", DISPUTES, ids=IDS)
def test_each_dispute_is_answered_among_the_first_two_for_the_games_system(
    client: FlaskClient, dispute: Dispute, language: str
) -> None:
    typed = dispute.typed[language]
    assert len(typed.split()) <= 4, typed
    page = client.get(
        "/rules/search",
        query_string={"q": typed, "system": dispute.system},
        headers={"Accept-Language": language},
    ).text
    first = shown(page)[:2]
    answer = next((words for words in first if dispute.says[language] in words), None)
    assert answer is not None, (typed, first)
    assert rules.SYSTEMS[dispute.system].source in answer


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_words_of_each_answer_name_one_place_of_its_page_or_two(
    app: Flask, language: str
) -> None:
    with app.test_request_context(headers={"Accept-Language": language}):
        said = passages(language)
    for dispute in DISPUTES:
        places = [
            p.anchor
            for p in said
            if p.system_id == dispute.system
            and dispute.says[language] in (f"{p.title} {p.text}" if p.question else p.text)
        ]
        assert 1 <= len(places) <= 2, (dispute.typed[language], places)


def test_the_disputes_cover_play_and_scoring_for_every_system() -> None:
    assert len(DISPUTES) >= 60
    for system_id in rules.SYSTEMS:
        mine = [d for d in DISPUTES if d.system == system_id]
        assert len(mine) >= 12
        assert sum(d.play for d in mine) >= 5 and sum(not d.play for d in mine) >= 5
    assert len({(d.system, d.typed["en"]) for d in DISPUTES}) == len(DISPUTES)

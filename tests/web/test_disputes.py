"""The disputes of tests/disputes.py, answered by the search a game's rules page makes: the first
place found is an answer of that game's system, saying what the text says, with its citation
(the browser test puts the same to a phone: tests/browser/test_disputes.py)."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules
from tests.disputes import DISPUTES, Dispute

pytestmark = pytest.mark.once  # the rules pages are drawn from the engine, whatever the database


def first_found(page: str) -> tuple[str, str]:
    """The first place found: its address, and everything it shows."""
    item = re.search(r'<ol class="found">\s*<li>(.*?)</li>', page, re.S)
    assert item is not None, "nothing found"
    href = re.search(r'<a href="([^"]+)"', item.group(1))
    assert href is not None
    return href.group(1), " ".join(html.unescape(re.sub(r"<[^>]+>", " ", item.group(1))).split())


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    "dispute", DISPUTES, ids=[f"{d.system}-{d.typed['en'].replace(' ', '-')}" for d in DISPUTES]
)
def test_each_dispute_is_answered_first_for_the_games_system_with_its_citation(
    client: FlaskClient, dispute: Dispute, language: str
) -> None:
    page = client.get(
        "/rules/search",
        query_string={"q": dispute.typed[language], "system": dispute.system},
        headers={"Accept-Language": language},
    ).text
    href, shown = first_found(page)
    assert href.startswith(f"/rules/{dispute.system}#q-"), (href, shown)
    assert dispute.says[language] in shown, shown
    assert rules.SYSTEMS[dispute.system].source in shown


def test_the_disputes_cover_play_and_scoring_for_every_system() -> None:
    for system_id in rules.SYSTEMS:
        mine = [d for d in DISPUTES if d.system == system_id]
        assert len(mine) == 8
        assert any(d.play for d in mine) and any(not d.play for d in mine)

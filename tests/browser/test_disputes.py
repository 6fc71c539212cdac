"""The disputes of tests/disputes.py put to a phone at 360 × 740, from a fresh game's scoreboard,
in English and in Spanish: each is answered within two taps without scrolling (Rules, then a
topic), or by two taps (Rules, the search field) and at most four typed words with the answering
passage starting above an open keyboard, 370 px from the top (issue 35). One browser page a
language for every dispute of the five systems; benchmarks/referee_reach.py prints the figures.
"""

from __future__ import annotations

from typing import Any

import pytest

from scorekeeper import rules
from tests.disputes import DISPUTES

from .helpers import new_page, screenshot
from .reach import MOST_WORDS, Referee

LANGUAGES = {"en-US": "en", "es": "es"}


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_every_dispute_is_within_two_taps_or_two_taps_and_four_words_of_the_scoreboard(
    browser: Any, server: str, language: str
) -> None:
    page = new_page(browser, "360x740", language=language)
    said = LANGUAGES[language]
    out_of_reach = []
    taps = 0
    for system_id in rules.SYSTEMS:
        referee = Referee(page, server, system_id, said)
        referee.open_rules()
        if system_id == "classic":
            screenshot(page, f"rules-first-screen-{said}")
        for dispute in (d for d in DISPUTES if d.system == system_id):
            reached = referee.reach(dispute)
            taps += reached.topic is not None
            if not reached.within:
                out_of_reach.append(f"{system_id} {dispute.typed[said]!r}: {reached}")
            assert reached.words is None or reached.words <= MOST_WORDS
    assert out_of_reach == []
    assert taps >= 5  # the topics on the first screen answer some by themselves
    page.context.close()

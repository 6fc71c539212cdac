"""Every citation names a place a reader can find in the rule text it cites.

A place is a heading of the text ("Going Out"), the opening words of a paragraph in quotes
("“The winning score is 10,000”"), or a heading and a paragraph under it ("Red Threes, “If the
round is finished”"); several places are separated by "; ". The texts live in ../shared/seeds
beside the project (not in a user's clone): without them these tests are skipped, and fail under
CI (tests/conftest.py).
"""

from __future__ import annotations

import re

import pytest

from scorekeeper.rules import SYSTEMS, Game, Penalty, Side, get_system
from scorekeeper.rules.checks import check_hand
from scorekeeper.rules.hands import EndedBy, Entry, Hand
from scorekeeper.rules.headings import HEADINGS, places
from scorekeeper.rules.play import PLAY
from tests.helpers import SEEDS

# A phrase that only that system's text holds, to tell the seed files apart.
MARKERS = {
    "classic": "Samba is a three pack card game",
    "denexa": "Denexa",
    "black-samba": "BLACK SAMBA",
    "super-samba": "SUPER SAMBAS",
    "fournier": "Fournier",
}

QUOTED = re.compile(r"“([^”]+)”")

pytestmark = pytest.mark.usefixtures("seeds")


def seed(system_id: str) -> list[str]:
    """The lines of a system's text that hold something, stripped."""
    texts = [p.read_text() for p in sorted(SEEDS.glob("*.txt"))]
    found = [t for t in texts if MARKERS[system_id] in t]
    assert len(found) == 1, f"{system_id}: {len(found)} texts hold {MARKERS[system_id]!r}"
    return [line.strip() for line in found[0].splitlines() if line.strip()]


def _plain(text: str) -> str:
    return " ".join(text.split()).rstrip(":").strip().casefold()


def is_heading(lines: list[str], heading: str) -> bool:
    """A line, or two or three lines in a row (a heading set in a narrow column), that say
    the heading and nothing more."""
    wanted = _plain(heading)
    return any(
        _plain(" ".join(lines[i : i + n])) == wanted for n in (1, 2, 3) for i in range(len(lines))
    )


LIST_MARK = re.compile(r"^(?:[-*·•]+\s*|\d+\.\s+)+")


def opens_a_paragraph(lines: list[str], words: str) -> bool:
    """A line begins with the words, once list marks ("- ", "· ", "4. ") and bold marks are
    left out."""
    return any(LIST_MARK.sub("", line.replace("**", "")).startswith(words) for line in lines)


def unfound(lines: list[str], section: str) -> list[str]:
    """The places of a citation that the text does not have."""
    missing = []
    for place in section.split("; "):
        quote = QUOTED.search(place)
        heading = place[: quote.start()].rstrip(", ") if quote else place
        opening_found = not quote or opens_a_paragraph(lines, quote.group(1))
        heading_found = not heading or is_heading(lines, heading)
        if not (opening_found and heading_found):
            missing.append(place)
    return missing


TOPICS = [(s.id, topic) for s in SYSTEMS.values() for topic in s.sections]


@pytest.mark.parametrize(("system_id", "topic"), TOPICS)
def test_every_topic_cites_a_place_found_in_the_text(system_id, topic):
    section = SYSTEMS[system_id].sections[topic]
    assert unfound(seed(system_id), section) == []


PLAY_RULES = [(system_id, rule) for system_id, play in PLAY.items() for rule in play.rules]


@pytest.mark.parametrize(
    ("system_id", "rule"), PLAY_RULES, ids=[f"{s}-{r.id}" for s, r in PLAY_RULES]
)
def test_every_rule_of_play_cites_a_place_found_in_the_text(system_id, rule):
    assert unfound(seed(system_id), rule.place) == []


@pytest.mark.parametrize("system_id", [s for s in SYSTEMS if s != "classic"])
def test_card_values_are_cited_where_the_text_gives_them(system_id):
    cited = SYSTEMS[system_id].cite_card_values()
    assert cited is not None
    assert unfound(seed(system_id), cited.section) == []


def test_classic_gives_no_card_values_to_cite():
    assert SYSTEMS["classic"].cite_card_values() is None
    names_a_card_value = re.compile(r"\b(jokers?|aces?|black threes?|twos)\b.*\b\d+ points", re.I)
    assert not any(names_a_card_value.search(line) for line in seed("classic"))
    assert any(names_a_card_value.search(line) for line in seed("denexa"))


def _violations_of(system_id: str, entry: Entry) -> list:
    system = get_system(system_id)
    game = Game(system, (Side("Us", 2), Side("Them", 2)))
    hand = Hand((entry, Entry()), EndedBy.STOCK_EXHAUSTED)
    return check_hand(game, hand, [50, 50], game_over=True)


PENALTIES = [
    (s.id, penalty) for s in SYSTEMS.values() for penalty in Penalty if penalty not in s.penalties
]


@pytest.mark.parametrize(("system_id", "penalty"), PENALTIES)
def test_a_penalty_the_system_lacks_cites_a_place_found_in_the_text(system_id, penalty):
    found = _violations_of(system_id, Entry(penalties={penalty: 1}))
    cited = [v.rule.section for v in found if v.code == "penalty-not-in-variant"]
    assert cited and all(unfound(seed(system_id), section) == [] for section in cited)


@pytest.mark.parametrize("system_id", ["classic", "denexa", "black-samba", "super-samba"])
def test_going_out_after_a_refusal_cites_what_the_text_says_of_going_out(system_id):
    found = _violations_of(system_id, Entry(penalties={Penalty.WENT_OUT_AFTER_REFUSAL: 1}))
    cited = [v.rule for v in found if v.code == "penalty-not-in-variant"]
    if system_id == "denexa":  # Denexa has this penalty
        assert cited == []
    else:
        assert [r.topic for r in cited] == ["going-out"]


@pytest.mark.parametrize(
    ("place", "found"),
    [
        ("Going Out", True),
        ("Red Threes, “If the round is finished”", True),
        ("“The winning score is 10,000”", True),
        ("introduction", False),
        ("The winning score", False),
        ("Red Threes, “Every melded red three is worth 100”", False),
        ("“The Discard pile may NOT”", True),
        ("“take whole of the rest of the discard pile”", True),
        ("“15 cards”", False),
    ],
)
def test_the_check_tells_a_heading_or_an_opening_from_anything_else(place, found):
    assert (unfound(seed("classic"), place) == []) is found


ENGLISH_TEXTS = ("classic", "denexa", "black-samba", "super-samba")


def cited_places(system_id: str) -> list[str]:
    """Every place a system's citations name: its sections, its rules of play, its card values."""
    system = SYSTEMS[system_id]
    found = [*system.sections.values(), *(rule.place for rule in PLAY[system_id].rules)]
    return found + ([system.card_values] if system.card_values else [])


@pytest.mark.parametrize("system_id", ENGLISH_TEXTS)
def test_every_heading_an_english_text_is_cited_by_is_named_in_spanish_too(system_id):
    """A Spanish page names a heading in Spanish (rules/headings.py), the text's own beside it."""
    headings = {h for section in cited_places(system_id) for h, _ in places(section) if h}
    assert headings and headings <= HEADINGS, sorted(headings - HEADINGS)
    lines = seed(system_id)
    assert all(is_heading(lines, heading) for heading in headings)


def test_every_named_heading_is_one_of_a_text():
    """No heading is named that no citation uses (a heading renamed leaves no stale entry)."""
    used = {
        h
        for system_id in ENGLISH_TEXTS
        for section in cited_places(system_id)
        for h, _ in places(section)
        if h
    }
    assert used == HEADINGS

"""What a rules page shows, every number read from the rules engine: the page model of each
system's rules, the questions tables ask, the side-by-side comparison and the card counter's
values.

A page is one section per topic, each written in its own partial (templates/rules/topics/); a
violation or a score line that cites a topic links to its section (`/rules/<system>#<topic>`), so
page and scoring can never disagree. This module only gathers the numbers the partials place.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from flask import get_template_attribute, render_template
from markupsafe import Markup

from ... import rules
from ...rules.checks import canastas_beside_sambas
from ...rules.play import Play, PlayRule, cite_play, play_of
from ...rules.readings import TARGET_ONLY, Reading, readings_of
from ...rules.words import N_
from ..store.models import Game
from ..wording import citation, number, say
from . import parts

TOPICS = (
    "table",
    "deal",
    "discard-pile",
    "melds",
    "sets",
    "first-meld",
    "going-out",
    "red-threes",
    "penalties",
    "scoring",
    "end-of-game",
)


@dataclass(frozen=True)
class Minimum:
    """One row of the first-meld table: the hand or the totals it covers, and the minimum.

    The first row of a table by totals has no `lowest`: it covers every total `below` the next
    row (no `below`: it is the only row, for any total); the last row has no `highest`.
    """

    minimum: int
    hand: int | None = None
    lowest: int | None = None
    highest: int | None = None
    below: int | None = None


def minimums(system: rules.RuleSystem) -> list[Minimum]:
    """The first-meld table of a system, by hand or by the side's total."""
    if system.opening_minimums_by_hand:
        return [Minimum(m, hand=n) for n, m in enumerate(system.opening_minimums_by_hand, start=1)]
    rows = []
    pairs = system.opening_minimums
    for index, (lowest, minimum) in enumerate(pairs):
        following = pairs[index + 1][0] if index + 1 < len(pairs) else None
        if index == 0:
            rows.append(Minimum(minimum, below=following))
        else:
            highest = None if following is None else following - 5  # totals go by fives
            rows.append(Minimum(minimum, lowest=lowest or 0, highest=highest))
    return rows


@dataclass(frozen=True)
class ReadingShown:
    """One of our readings as its paragraph places it: the words, the source and the key."""

    reading: Reading
    says: str
    take: str
    otherwise: str
    source: str
    heading: str  # what the house-rule form calls the key
    played_otherwise: bool  # this table's house rules take the other reading


def shown(reading: Reading, system: rules.RuleSystem) -> ReadingShown:
    """A reading in the page's language, for a system that may have house rules."""
    entry = rules.HOUSE_RULES_BY_KEY[reading.key]
    return ReadingShown(
        reading,
        say(reading.says),
        say(reading.take),
        say(reading.otherwise),
        citation(reading.cite()),
        say(entry.heading),
        _takes(entry.of(system), reading.other),
    )


def _takes(value: Any, other: Any) -> bool:
    """Whether a key's value (file-shaped) is the other reading's: each of its parts, or all."""
    value = json.loads(json.dumps(value))  # a first-meld table's pairs as lists, like `other`
    if isinstance(other, dict):
        return isinstance(value, dict) and all(value.get(k) == v for k, v in other.items())
    return bool(value == other)


@dataclass(frozen=True)
class Page:
    """What the topic partials of a rules page place, beyond the system's own numbers."""

    sources: dict[str, str]
    readings: dict[str, list[ReadingShown]]
    decks: list[rules.Deck]
    cards: list[tuple[str, int]]
    set_bonuses: list[tuple[str, int]]
    natural_cards: list[tuple[str, int]]  # the least natural cards each kind of set takes
    sambas: int
    minimums: list[Minimum]
    to_go_out: str
    red_threes_in_deck: int
    penalties: list[tuple[str, int]]
    black_samba: bool
    wild_canasta: bool
    super_samba: bool
    variations: list[str]  # what the text offers besides, chosen when a game starts
    red_three_canasta: int | None  # the bonus of a canasta of red threes, where there is one
    winner_read: bool  # the text names the target only: who wins past it is our reading
    samba_room: list[tuple[rules.Deck, int, int]]  # (deck, most sambas, canastas left beside)
    play: Play  # the rules of play: the deal, the pile, going out…


def page(system: rules.RuleSystem) -> Page:
    """The numbers of a system's rules page, topic by topic."""
    readings: dict[str, list[ReadingShown]] = {topic: [] for topic in TOPICS}
    for reading in readings_of(system.id):
        readings[reading.topic].append(shown(reading, system))
    players_at = {s * p for s, p in system.tables}
    decks = sorted({system.deck(n) for n in players_at}, key=lambda deck: deck.decks)
    return Page(
        sources={topic: citation(system.cite(topic)) for topic in TOPICS},
        readings=readings,
        decks=decks,
        cards=[(card.value, points) for card, points in rules.CARD_POINTS.items()],
        set_bonuses=[
            (say(kind.label).capitalize(), bonus) for kind, bonus in system.set_bonuses.items()
        ],
        natural_cards=[
            (say(kind.label).capitalize(), kind.least_natural_cards)
            for kind in system.set_bonuses
            if kind.least_natural_cards
        ],
        sambas=(system.samba_limit or (4, 1))[0],
        minimums=minimums(system),
        to_go_out=say(system.going_out_requirement()),
        red_threes_in_deck=decks[0].red_threes,
        penalties=penalties(system),
        black_samba=system.has(rules.SetKind.BLACK_SAMBA),
        wild_canasta=system.has(rules.SetKind.WILD_CANASTA),
        super_samba=system.has(rules.SetKind.SUPER_SAMBA),
        variations=[say(rules.OPTIONS[o].label) for o in system.options],
        red_three_canasta=system.set_bonuses.get(rules.SetKind.RED_THREE_CANASTA),
        winner_read=system.id in TARGET_ONLY,
        samba_room=[
            (deck, 4 * deck.decks, canastas_beside_sambas(deck, 4 * deck.decks)) for deck in decks
        ],
        play=play_of(system),
    )


@dataclass(frozen=True)
class CardValue:
    """One group of the card counter: its form name, its label and what each card is worth."""

    name: str
    label: str
    points: int


CARD_LABELS: Mapping[rules.Card, str] = {
    rules.Card.JOKER: N_("Jokers (%(points)s)"),
    rules.Card.TWO: N_("Twos (%(points)s)"),
    rules.Card.ACE: N_("Aces (%(points)s)"),
    rules.Card.EIGHT_TO_KING: N_("8 to K (%(points)s)"),
    rules.Card.FOUR_TO_SEVEN: N_("4 to 7 (%(points)s)"),
    rules.Card.BLACK_THREE: N_("Black threes (%(points)s)"),
}


def card_values() -> list[CardValue]:
    """The card counter's groups, their values read from the engine's `CARD_POINTS` alone."""
    return [
        CardValue(card.value, say(rules.Text(CARD_LABELS[card], {"points": points})), points)
        for card, points in rules.CARD_POINTS.items()
    ]


def differences(system: rules.RuleSystem) -> list[tuple[str, str, str]]:
    """What a house rule changes: (what, in the system, in the house rule)."""
    base = rules.get_system(system.id, system.options_on)
    found = []
    for change in rules.house_differences(system, base):
        kind = change.entry.kind
        if kind is rules.HouseRuleKind.MINIMUMS:
            was, now = _first_meld(base), _first_meld(system)
        elif kind is rules.HouseRuleKind.COUNT:
            was, now = str(change.was or 0), str(change.now or 0)
        elif kind is rules.HouseRuleKind.CHOICE:
            was, now = (say(change.entry.choices[value]) for value in (change.was, change.now))
        else:
            was, now = number(change.was or 0), number(change.now or 0)
        label = say(change.label)
        found.append((label.capitalize() if change.part else label, was, now))
    return found


def _first_meld(system: rules.RuleSystem) -> str:
    """A first-meld table on one line, each row worded by the first-meld partial's macro."""
    total = get_template_attribute("rules/topics/_minimums.html", "total")
    return Markup("; ").join(
        Markup("{}: {}").format(total(row), number(row.minimum)) for row in minimums(system)
    )


@dataclass
class Fact:
    """One row of the side-by-side comparison: a value per system, the unusual ones marked, and
    so are those that are our reading of a text (rules/readings.py)."""

    topic: str
    values: list[tuple[Hashable, bool, bool]]  # (value, differs from most systems, our reading)


def comparison(systems: list[rules.RuleSystem]) -> list[Fact]:
    """The systems side by side, on the points where tables most often disagree.

    Each value is the engine's own (a number, a table, a choice); rules/_facts.html words it.
    """

    def fact(topic: str, read: Callable[[rules.RuleSystem], Hashable], key: str = "") -> Fact:
        """A value is our reading where one of its system's readings, read the other way,
        would change it; `key`: a house-rule key whose readings mark it in any case (where the
        other reading keeps this value but the text still does not give it)."""
        values = [read(s) for s in systems]
        usual = Counter(values).most_common(1)[0][0]
        ours = [
            any(r.key == key or read(read_otherwise(s, r)) != value for r in readings_of(s.id))
            for s, value in zip(systems, values, strict=True)
        ]
        return Fact(topic, [(v, v != usual, o) for v, o in zip(values, ours, strict=True)])

    def bonus(kind: rules.SetKind) -> Callable[[rules.RuleSystem], int | None]:
        return lambda s: s.set_bonuses[kind] if s.has(kind) else None

    def by_total(total: int) -> Callable[[rules.RuleSystem], int | None]:
        """The first meld at that total; None where it goes by the hand's number instead."""
        return lambda s: None if s.opening_minimums_by_hand else s.opening_minimum(total, 1)

    return [
        fact("tables", lambda s: s.tables),
        fact("decks", lambda s: s.decks),
        fact("samba", bonus(rules.SetKind.SAMBA)),
        fact("black-samba", bonus(rules.SetKind.BLACK_SAMBA)),
        fact("super-samba", bonus(rules.SetKind.SUPER_SAMBA)),
        fact("going-out", lambda s: s.going_out_bonus),
        fact("to-go-out", lambda s: say(s.going_out_requirement())),
        fact("first-meld-below-0", by_total(-5)),
        fact("first-meld-from-7000", by_total(7000)),
        fact("first-meld-by-hand", lambda s: s.opening_minimums_by_hand or None),
        fact("red-threes-plus", lambda s: s.red_threes.plus_when.name),
        fact("red-three-minus", red_three_minus, RED_THREE_VALUES),
        fact("red-three-in-hand", red_three_in_hand),
        fact("penalties", lambda s: len(s.penalties) + (red_three_in_hand(s) is not None)),
        fact(
            "game-ends",
            lambda s: (s.hands_in_game, None) if s.hands_in_game else (None, s.target or 0),
        ),
    ]


def read_otherwise(system: rules.RuleSystem, reading: Reading) -> rules.RuleSystem:
    """The system as a table playing the other reading has it (its house rule)."""
    house, _ = rules.read_house_rules({reading.key: reading.other}, system)
    return rules.with_house_rules(system, house)


RED_THREE_VALUES = "red_three_values"
"""The house-rule key of the readings of what a red three costs counting minus, where a text leaves
it open (black-samba) or unclear (fournier)."""


def red_three_minus(system: rules.RuleSystem) -> int | None:
    """What a red three counting minus costs; None where red threes always count plus."""
    return -system.red_threes.minus_each if system.red_threes.counts_minus else None


def red_three_in_hand(system: rules.RuleSystem) -> tuple[int, bool] | None:
    """What red threes left in hand cost, and whether per player caught holding (not per red
    three); None where they are all laid down at once."""
    rule = system.red_threes
    return (-rule.in_hand, rule.in_hand_by_player) if rule.in_hand else None


def penalties(system: rules.RuleSystem) -> list[tuple[str, int]]:
    """The penalties a system charges, red threes left in hand among them where they cost."""
    found = [(say(p.label).capitalize(), points) for p, points in system.penalties.items()]
    in_hand = red_three_in_hand(system)
    if in_hand is not None:
        points, per_player = in_hand
        label = RED_THREES_HELD if per_player else RED_THREE_LEFT
        found.insert(0, (say(label), -points))
    return found


@dataclass(frozen=True)
class Question:
    """One of the questions tables ask, with the engine's numbers that answer it; the words of
    both are in rules/_questions.html, and the topic is the section the answer cites."""

    id: str
    topic: str
    values: dict[str, Any]
    cite: rules.Rule | None = None  # where the answer comes from, when not the topic's section
    reading: bool = False  # the text is silent or unclear: the answer is our reading
    play: PlayRule | None = None  # a question of play, worded by rules/_play.html


def questions(system: rules.RuleSystem) -> list[Question]:
    """The questions a system's page answers, from the system's own data, in the order each
    topic's section lists them."""
    kinds = rules.SetKind
    red = system.red_threes
    count = min(system.deck(s * p).red_threes for s, p in system.tables)
    found = [
        Question(
            "going-out",
            "going-out",
            {"needed": say(system.going_out_requirement()), "bonus": system.going_out_bonus},
        )
    ]
    if system.has(kinds.BLACK_SAMBA):
        # The text's own names: a 'red' samba is all natural, a 'black' one has a wild card.
        found.append(
            Question(
                "red-and-black-samba",
                "going-out",
                {
                    "yes": system.can_go_out({kinds.SAMBA: 1, kinds.BLACK_SAMBA: 1}),
                    "two_black": system.can_go_out({kinds.MIXED_CANASTA: 1, kinds.BLACK_SAMBA: 1}),
                },
            )
        )
    found += [
        Question(
            "first-meld",
            "first-meld",
            {"table": _first_meld(system), "by_hand": bool(system.opening_minimums_by_hand)},
        ),
        Question(
            "red-three",
            "red-threes",
            {
                "plus_when": red.plus_when.name,
                "each": red.each,
                "all": red.all_of_them,
                "minus_each": red.minus_each,
                # Without an all-of-them figure for counting minus, each costs its own.
                "minus_all": red.minus_all_of_them or red.minus_each * count,
                "count": count,
                # Where the text leaves what they cost counting minus open (readings.py).
                "minus_read": any(r.key == RED_THREE_VALUES for r in readings_of(system.id)),
            },
        ),
        # What a red three left in hand costs is among each text's penalties.
        Question(
            "red-three-in-hand",
            "red-threes",
            {"cost": red_three_in_hand(system)},
            system.cite("penalties"),
        ),
    ]
    # Card values: where the text gives them, cited there; classic gives none, and the values
    # the other four share are our reading.
    values_cited = system.cite_card_values()
    cards = {"cards": ", ".join(c.label for c in card_values())}
    black_three = {"points": -rules.CARD_POINTS[rules.Card.BLACK_THREE]}
    found += [
        Question("black-three", "scoring", black_three, values_cited, values_cited is None),
        Question("card-in-hand", "scoring", cards, values_cited, values_cited is None),
    ]
    found += [
        Question(rule.id, rule.topic, {}, cite_play(system, rule), rule.reading, rule)
        for rule in play_of(system).rules
    ]
    return found


RED_THREES_HELD = N_("Caught holding red threes, per player")
RED_THREE_LEFT = N_("Each red three left in hand")


def asked(system: rules.RuleSystem) -> dict[str, list[Question]]:
    """The questions a system's page answers, under the topic of the section each belongs to."""
    found: dict[str, list[Question]] = {topic: [] for topic in TOPICS}
    for question in questions(system):
        found[question.topic].append(question)
    return found


def render_rules(system: rules.RuleSystem, game: Game | None = None, key: parts.Key = None) -> str:
    """A rules page: the search and its topics first, then each topic's section with its
    questions answered; for a game or a house rule, what differs from the system as well.

    Its body is the same for every visitor: with a `key` (one naming the system, the language
    and, for a game, its revision), drawn once and kept (a page of 40 KiB, 20 ms to draw)."""

    def body() -> str:
        return render_template(
            "rules/_system.html",
            system=system,
            topics=TOPICS,
            page=page(system),
            game=game,
            differences=differences(system),
            options=[say(rules.OPTIONS[o].label) for o in sorted(system.options_on)],
            asked=asked(system),
            search_system=system,
            search_game=game.id if game else None,
        )

    kept = parts.kept(key, lambda: parts.draw(body))
    return render_template("rules/system.html", system=system, body=kept)

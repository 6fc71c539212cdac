"""How each system is played, beside how it is scored: the deal, the turn, the discard pile,
what may be melded, the threes and going out, as data the rules pages and their questions read.

Each rule of play is one system's answer to one question a table asks (`PlayRule.answer`, a
code the rules page words in its own prose), with the place of the text that says it: a heading
and the opening words of the paragraph under it (RuleSystem.cite's form, checked against the
texts by tests/rules/test_citations.py). Where a text is silent or unclear, `reading` marks the
answer as ours, and the page says so.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .systems import SYSTEMS, RuleSystem
from .words import Rule

TOPICS: Mapping[str, str] = {
    "partners": "table",
    "dealt": "deal",
    "drawn": "deal",
    "discard": "deal",
    "seven-discard": "deal",
    "pile-how": "discard-pile",
    "pile-one-natural-and-wild": "discard-pile",
    "pile-to-meld": "discard-pile",
    "pile-to-finished": "discard-pile",
    "pile-frozen": "discard-pile",
    "pile-red-three": "discard-pile",
    "pile-black-three": "discard-pile",
    "pile-wild-on-top": "discard-pile",
    "pile-how-much": "discard-pile",
    "pile-run": "discard-pile",
    "pile-first-meld": "discard-pile",
    "pile-one-card-left": "discard-pile",
    "wilds-in-canasta": "melds",
    "wilds-in-run": "melds",
    "merge": "melds",
    "black-threes-meld": "melds",
    "canasta-size": "sets",
    "wild-to-finished": "sets",
    "samba-add": "sets",
    "red-three-laid": "red-threes",
    "all-six-undeclared": "red-threes",
    "ask-partner": "going-out",
    "concealed": "going-out",
    "last-card": "going-out",
    "stock-empty": "going-out",
    "last-stock-red-three": "going-out",
}
"""Every rule of play, in the order a page shows them, and the section of the page it is in."""


@dataclass(frozen=True)
class PlayRule:
    """One system's answer to one question of play, and where its text says it."""

    id: str  # one of TOPICS
    answer: str  # which of the page's wordings answers it for this system
    place: str  # heading, “opening words” of the paragraph (or the nearest, when silent)
    reading: bool = False  # the text is silent or unclear: the answer is our reading

    @property
    def topic(self) -> str:
        return TOPICS[self.id]


@dataclass(frozen=True)
class Play:
    """The numbers of a system's play and its rules of play, in TOPICS order."""

    dealt: int  # cards dealt to each player
    drawn: int  # cards drawn from the stock in a turn
    rules: tuple[PlayRule, ...]
    dealt_six_players: int | None = None
    drawn_six_players: int | None = None
    pile_taken: int | None = None  # cards taken with the top card, when not the whole pile
    pile_least: int | None = None  # cards the pile must hold before it may be taken
    varied: tuple[str, ...] = ()  # rules of play the text offers a variation of
    penalty_cards: bool = False  # a card of a fault stays face up before its player, in hand
    faults_lapse: bool = False  # a fault nobody points out in time is no longer charged

    def rule(self, rule_id: str) -> PlayRule:
        return next(r for r in self.rules if r.id == rule_id)


def _rules(*found: tuple[str, str, str] | tuple[str, str, str, bool]) -> tuple[PlayRule, ...]:
    """Rules in TOPICS order, every one of them there once."""
    made = {f[0]: PlayRule(*f) for f in found}
    assert list(made) == list(TOPICS), sorted(set(TOPICS) ^ set(made))
    return tuple(made.values())


CLASSIC_PLAY = Play(
    dealt=15,
    dealt_six_players=13,
    drawn=2,
    rules=_rules(
        ("partners", "opposite-or-three-pairs", "“Samba is a three pack card game”"),
        ("dealt", "each", "“When there are 2, 3, 4, or 5 players”"),
        ("drawn", "stock", "“Each player draws 2 cards”"),
        ("discard", "pass", "Going Out, “If you do not yet have”"),
        ("seven-discard", "any", "“Each player draws 2 cards”", True),
        ("pile-how", "pair", "“Instead of drawing two cards”"),
        ("pile-one-natural-and-wild", "no", "“The Discard pile may NOT”"),
        ("pile-to-meld", "run-only", "“if you already have on table a sequence meld”"),
        ("pile-to-finished", "no", "“The Discard pile may NOT”"),
        ("pile-frozen", "always", "“Canasta players should note”"),
        ("pile-red-three", "blocks", "Red Threes, “You may also use the red threes”"),
        ("pile-black-three", "blocks", "Red Threes, “You may also use the red threes”", True),
        ("pile-wild-on-top", "blocks", "Strategy hints, “In Samba wild cards”"),
        ("pile-how-much", "all", "“take whole of the rest of the discard pile”"),
        ("pile-run", "one-card", "“Also note that you cannot take the pile”"),
        ("pile-first-meld", "top-and-hand", "“if you have in your hand two natural cards”"),
        ("pile-one-card-left", "no", "Going Out, “If no one goes out”"),
        ("wilds-in-canasta", "two", "“No more than two Wild Cards”"),
        ("wilds-in-run", "none", "“A sequence is a set of at least three”"),
        ("merge", "groups", "“Two sequences of three cards”"),
        ("black-threes-meld", "silent", "“A sequence is a set of at least three”", True),
        ("canasta-size", "grows", "“There are two types of meld”"),
        ("wild-to-finished", "no", "“No more than two Wild Cards”"),
        ("samba-add", "no", "“A sequence is a set of at least three”"),
        ("red-three-laid", "may", "Red Threes, “You may meld a red three”"),
        ("all-six-undeclared", "laid", "Red Threes, “You may meld a red three”"),
        ("ask-partner", "may", "Going Out, “If you are able to go out”"),
        ("concealed", "silent", "Going Out", True),
        ("last-card", "silent", "Going Out", True),
        ("stock-empty", "until-a-draw-fails", "Going Out, “If no one goes out”"),
        ("last-stock-red-three", "silent", "Going Out, “If no one goes out”", True),
    ),
)

DENEXA_PLAY = Play(
    dealt=15,
    drawn=1,
    rules=_rules(
        ("partners", "opposite", "Setup, “Figure out who’s partners”"),
        ("dealt", "each", "Setup, “Shuffle and deal fifteen cards”"),
        ("drawn", "stock", "Play of the hand, “The player on the dealer’s left”"),
        ("discard", "one", "Play of the hand, “After a player has drawn”"),
        ("seven-discard", "any", "Play of the hand, “After a player has drawn”", True),
        ("pile-how", "meld-or-pair", "Play of the hand, “The player on the dealer’s left”"),
        (
            "pile-one-natural-and-wild",
            "no-but-alone",
            "Play of the hand, “The player on the dealer’s left”",
        ),
        ("pile-to-meld", "unfrozen", "Play of the hand, “The player on the dealer’s left”"),
        ("pile-to-finished", "no", "Canastas and sambas"),
        ("pile-frozen", "red-three-or-wild", "Freezing the discard pile"),
        ("pile-red-three", "freezes", "Freezing the discard pile"),
        ("pile-black-three", "blocks", "Card ranks and scoring, “Black 3s”"),
        ("pile-wild-on-top", "never", "Freezing the discard pile"),
        ("pile-how-much", "all", "Play of the hand, “The player on the dealer’s left”"),
        ("pile-run", "extend-only", "Melding, “Note that the discard pile cannot be taken”"),
        ("pile-first-meld", "silent", "The initial meld", True),
        ("pile-one-card-left", "silent", "Play of the hand", True),
        ("wilds-in-canasta", "two", "Melding, “Jokers and 2s are both wild”"),
        ("wilds-in-run", "none", "Melding, “Jokers and 2s are both wild”"),
        ("merge", "groups", "Melding, “When a player forms a meld”"),
        ("black-threes-meld", "end-of-hand", "Card ranks and scoring, “Black 3s”", True),
        ("canasta-size", "seven", "Canastas and sambas"),
        ("wild-to-finished", "no", "Canastas and sambas"),
        ("samba-add", "no", "Canastas and sambas"),
        ("red-three-laid", "at-once", "Card ranks and scoring, “Red 3s”"),
        ("all-six-undeclared", "declared", "Scoring, “Red 3s: 100 points each”", True),
        ("ask-partner", "may", "Going out, “Before going out”"),
        ("concealed", "silent", "Going out", True),
        ("last-card", "either", "Going out, “In order to go out”"),
        ("stock-empty", "until-the-pile-fails", "Depletion of the stock"),
        ("last-stock-red-three", "stops", "Depletion of the stock, “If, however, the final card”"),
    ),
)

BLACK_SAMBA_PLAY = Play(
    dealt=15,
    drawn=2,
    pile_taken=4,
    # Your Turn, “[Variation: After you have tabled”; To Qualify…, “[Variation: Wild cards”
    varied=("pile-how-much", "pile-one-natural-and-wild"),
    rules=_rules(
        ("partners", "alternate", "Teams"),
        ("dealt", "each", "The Deal, “15 cards are dealt”"),
        ("drawn", "stock", "Your Turn, “Pick-up the top 2 cards”"),
        ("discard", "one", "Your Turn, “After you have decided”"),
        ("seven-discard", "any", "Your Turn, “After you have decided”", True),
        ("pile-how", "qualify", "To Qualify to take cards from the Discard Pile"),
        (
            "pile-one-natural-and-wild",
            "unfrozen",
            "To Qualify to take cards from the Discard Pile, “c) At least 1 matching natural”",
        ),
        (
            "pile-to-meld",
            "unfinished",
            "“a) A matching Canasta Set”; “You cannot add the top card”",
        ),
        ("pile-to-finished", "no", "“You cannot add the top card”"),
        ("pile-frozen", "wild", "‘Frozen’ Discard Pile"),
        ("pile-red-three", "covered", "The Piles, “The top card of the stack”"),
        ("pile-black-three", "blocks", "‘Blocked’ Discard Pile"),
        ("pile-wild-on-top", "blocks-and-freezes", "2s & Jokers"),
        ("pile-how-much", "some", "Your Turn, “After you have tabled the top card”"),
        ("pile-run", "yes", "“d) At least 2 matching natural cards”"),
        ("pile-first-meld", "pair-only", "The Initial Meld, “To qualify to take the top card”"),
        ("pile-one-card-left", "silent", "Your Turn", True),
        ("wilds-in-canasta", "two", "Melds, “2 or more natural cards of the same value”"),
        ("wilds-in-run", "one", "Melds, “A sequence of 2 or more natural cards”"),
        ("merge", "canastas", "Melds, “The melds of the members”"),
        ("black-threes-meld", "never", "Black 3s"),
        ("canasta-size", "grows", "Sets & Bonus Points, “You may add natural cards”"),
        ("wild-to-finished", "no", "Your Turn, “You cannot add wild cards”"),
        ("samba-add", "no", "Sets & Bonus Points, “You may add natural cards”"),
        ("red-three-laid", "at-once", "Red 3s, “If you receive a Red 3 in the deal”"),
        ("all-six-undeclared", "at-once", "Red 3 Bonus Points, “If a team has melded”"),
        ("ask-partner", "must", "Going Out, “You must ask your team member(s)”"),
        ("concealed", "no-extra", "Going Out Bonus, “If you table your Initial Meld”"),
        ("last-card", "either", "Going Out, “You must ask your team member(s)”"),
        ("stock-empty", "until-the-pile-fails", "Game End"),
        (
            "last-stock-red-three",
            "no-replacement",
            "Red 3s, “If you receive a Red 3 in the deal”; Game End",
        ),
    ),
)

SUPER_SAMBA_PLAY = Play(
    dealt=25,
    drawn=3,
    drawn_six_players=2,
    pile_least=7,
    rules=_rules(
        ("partners", "teams", "Cards/Players"),
        ("dealt", "two-stacks", "Game Play, “Each player is dealt 2 stacks”"),
        ("drawn", "stock", "Cards/Players"),
        ("discard", "one-unless-out", "Discards / Discarding, “Each player must discard”"),
        ("seven-discard", "last", "Discards / Discarding, “A player can only discard a 7”"),
        (
            "pile-how",
            "seven-cards",
            "Picking Up the Discard Pile; Discards / Discarding, “A wild card freezes the deck”",
        ),
        ("pile-one-natural-and-wild", "no-wild", "Picking Up the Discard Pile, “a natural pair”"),
        (
            "pile-to-meld",
            "not-unfinished",
            "Picking Up the Discard Pile, “with two (other) adjacent cards”; "
            "“A player cannot pick up the discard pile”",
        ),
        ("pile-to-finished", "no", "Restrictions, “Cards are not added”"),
        (
            "pile-frozen",
            "below-wild",
            "Discards / Discarding, “Black 3’s freezes”; “A wild card freezes the deck”",
        ),
        ("pile-red-three", "silent", "Discards / Discarding", True),
        ("pile-black-three", "next-player", "Discards / Discarding, “Black 3’s freezes”"),
        ("pile-wild-on-top", "below-wild", "Discards / Discarding, “A wild card freezes the deck”"),
        ("pile-how-much", "above-wild", "“A Player may only pick up”", True),
        ("pile-run", "adjacent", "“with two (other) adjacent cards”"),
        ("pile-first-meld", "in-first-meld", "“If the team’s initial meld”"),
        ("pile-one-card-left", "silent", "Picking Up the Discard Pile", True),
        (
            "wilds-in-canasta",
            "by-kind",
            "Restrictions, “Black canastas may have”; “Sambas and 7’s cannot”",
        ),
        ("wilds-in-run", "none", "Restrictions, “Sambas and 7’s cannot”"),
        ("merge", "silent", "Restrictions", True),
        ("black-threes-meld", "no-canasta", "Restrictions, “No canastas are made of black 3’s”"),
        ("canasta-size", "seven", "Restrictions, “Cards are not added”"),
        ("wild-to-finished", "no", "Restrictions, “Cards are not added”"),
        ("samba-add", "no", "Restrictions, “Cards are not added”"),
        ("red-three-laid", "may", "Game Play, “If a red 3 is drawn”"),
        ("all-six-undeclared", "no-bonus", "Red and Black 3’s"),
        ("ask-partner", "must", "“Must obtain their partner’s approval”"),
        ("concealed", "silent", "Going Out = 2,000 points", True),
        ("last-card", "no-discard", "“Get rid of all their cards”"),
        ("stock-empty", "stops-without-book", "“IF THE STOCKPILE IS EMPTY”"),
        ("last-stock-red-three", "silent-stops", "“IF THE STOCKPILE IS EMPTY”", True),
    ),
)

FOURNIER_PLAY = Play(
    dealt=15,
    drawn=2,
    penalty_cards=True,  # “Las Cartas penalizadas son”
    faults_lapse=True,  # “Las irregularidades y su penalización prescriben”
    rules=_rules(
        ("partners", "by-cards", "“Se toman cuatro cartas correlativas”"),
        ("dealt", "each", "“El jugador anterior al”"),
        ("drawn", "stock", "“Comienza a jugar el”"),
        ("discard", "one", "“Si se toma las dos cartas superiores”"),
        ("seven-discard", "any", "“Si se toma las dos cartas superiores”", True),
        ("pile-how", "first-then", "“Hasta que no se hayan extendido”"),
        ("pile-one-natural-and-wild", "after-first-meld", "“Hasta que no se hayan extendido”"),
        ("pile-to-meld", "canasta", "“También es suficiente, para poder tomar un pozo”"),
        ("pile-to-finished", "unfrozen", "“También es suficiente, para poder tomar un pozo”"),
        (
            "pile-frozen",
            "red-three-or-wild-pair",
            "“También es suficiente, para poder tomar un pozo”",
        ),
        ("pile-red-three", "freezes", "“También es suficiente, para poder tomar un pozo”"),
        ("pile-black-three", "one-turn", "“Tampoco sirven para formar Canastas”"),
        ("pile-wild-on-top", "next-player", "“Al igual que los Treses Negros”"),
        ("pile-how-much", "all", "“También es suficiente, para poder tomar un pozo”"),
        ("pile-run", "silent", "“Cualquier combinación podrá iniciarse”", True),
        ("pile-first-meld", "pair-and-minimum", "“Hasta que no se hayan extendido”"),
        ("pile-one-card-left", "pumba", "“También es suficiente, para poder tomar un pozo”"),
        ("wilds-in-canasta", "two-or-penalty", "“Por emplear tres comodines”", True),
        ("wilds-in-run", "silent", "“Cualquier combinación podrá iniciarse”", True),
        ("merge", "silent", "“Cualquier combinación podrá iniciarse”", True),
        ("black-threes-meld", "to-go-out", "“Tampoco sirven para formar Canastas”"),
        ("canasta-size", "grows", "“También es suficiente, para poder tomar un pozo”", True),
        ("wild-to-finished", "silent", "“Cualquier combinación podrá iniciarse”", True),
        ("samba-add", "silent", "“Cualquier combinación podrá iniciarse”", True),
        ("red-three-laid", "at-once", "“Son Honores y no sirven”"),
        ("all-six-undeclared", "at-once", "“Son Honores y no sirven”"),
        ("ask-partner", "may", "“Para que un jugador pueda terminar”"),
        ("concealed", "exempt", "“Si al hacer la salida se”"),
        ("last-card", "either", "“Para que un jugador pueda terminar”"),
        ("stock-empty", "until-the-pile-fails", "“La última toma del mazo”"),
        ("last-stock-red-three", "stops-at-once", "“La última toma del mazo”"),
    ),
)

PLAY: Mapping[str, Play] = {
    "classic": CLASSIC_PLAY,
    "denexa": DENEXA_PLAY,
    "black-samba": BLACK_SAMBA_PLAY,
    "super-samba": SUPER_SAMBA_PLAY,
    "fournier": FOURNIER_PLAY,
}
assert set(PLAY) == set(SYSTEMS)


def play_of(system: RuleSystem) -> Play:
    """How a system (or a house rule of it, which changes no rule of play) is played."""
    return PLAY[system.id]


def cite_play(system: RuleSystem, rule: PlayRule) -> Rule:
    """The place of the system's text that a rule of play comes from, linked to its section."""
    return Rule(system.id, system.source, rule.place, rule.topic)

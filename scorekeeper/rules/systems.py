"""The five Samba rule systems as data and their options (house rules: `house.py`).

Every number of every system lives here once; scoring, checks and the rules pages read it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from .words import N_, P_, Rule, Text, join


class SetKind(StrEnum):
    """A completed meld: a canasta (seven or more of a rank) or a samba (seven in suit sequence)."""

    NATURAL_CANASTA = "natural_canasta"
    MIXED_CANASTA = "mixed_canasta"
    SAMBA = "samba"
    BLACK_SAMBA = "black_samba"
    SUPER_SAMBA = "super_samba"
    WILD_CANASTA = "wild_canasta"
    SEVENS_CANASTA = "sevens_canasta"
    RED_THREE_CANASTA = "red_three_canasta"

    @property
    def label(self) -> str:
        return SET_LABELS[self]

    @property
    def least_card_points(self) -> int:
        """The fewest card points such a set can hold (docs/violations.md)."""
        return LEAST_CARD_POINTS[self]

    @property
    def least_natural_cards(self) -> int:
        """The fewest natural cards (4 up to Ace) such a set holds (docs/violations.md)."""
        return LEAST_NATURAL_CARDS[self]


SET_LABELS: Mapping[SetKind, str] = {
    SetKind.NATURAL_CANASTA: N_("natural canasta"),
    SetKind.MIXED_CANASTA: N_("mixed canasta"),
    SetKind.SAMBA: N_("samba"),
    SetKind.BLACK_SAMBA: N_("black samba"),
    SetKind.SUPER_SAMBA: N_("super samba"),
    SetKind.WILD_CANASTA: N_("canasta of wild cards"),
    SetKind.SEVENS_CANASTA: N_("canasta of sevens"),
    SetKind.RED_THREE_CANASTA: N_("canasta of red threes"),
}

# Seven fives; six fives and a two; 4-5-6-7-8-9-10; 4 to 9 and a two; A down to 4; seven twos;
# seven sevens; red threes are never melded points.
LEAST_CARD_POINTS: Mapping[SetKind, int] = {
    SetKind.NATURAL_CANASTA: 35,
    SetKind.MIXED_CANASTA: 50,
    SetKind.SAMBA: 50,
    SetKind.BLACK_SAMBA: 60,
    SetKind.SUPER_SAMBA: 100,
    SetKind.WILD_CANASTA: 140,
    SetKind.SEVENS_CANASTA: 35,
    SetKind.RED_THREE_CANASTA: 0,
}

# Seven of a rank; seven cards with at most two wild; seven in suit; six in suit and a wild;
# Ace down to 4; seven sevens. Wild cards and red threes are not natural cards of 4 up to Ace.
LEAST_NATURAL_CARDS: Mapping[SetKind, int] = {
    SetKind.NATURAL_CANASTA: 7,
    SetKind.MIXED_CANASTA: 5,
    SetKind.SAMBA: 7,
    SetKind.BLACK_SAMBA: 6,
    SetKind.SUPER_SAMBA: 11,
    SetKind.WILD_CANASTA: 0,
    SetKind.SEVENS_CANASTA: 7,
    SetKind.RED_THREE_CANASTA: 0,
}

NATURAL_SETS = frozenset({SetKind.NATURAL_CANASTA, SetKind.SAMBA})
"""The 'red' sets that black-samba's option `one_red_set_to_go_out` asks for."""


class Penalty(StrEnum):
    """A fault charged to the side that made it, once per occurrence."""

    WENT_OUT_AFTER_REFUSAL = "went_out_after_refusal"
    COULD_NOT_GO_OUT_AFTER_ASKING = "could_not_go_out_after_asking"
    TOOK_UNUSABLE_UPCARD = "took_unusable_upcard"
    THREE_WILDS_IN_CANASTA = "three_wilds_in_canasta"
    DREW_OUT_OF_TURN = "drew_out_of_turn"
    TOOK_PILE_OUT_OF_TURN = "took_pile_out_of_turn"
    MELDED_OUT_OF_TURN = "melded_out_of_turn"

    @property
    def label(self) -> str:
        return PENALTY_LABELS[self]


PENALTY_LABELS: Mapping[Penalty, str] = {
    Penalty.WENT_OUT_AFTER_REFUSAL: N_("tried to go out after the partner said no"),
    Penalty.COULD_NOT_GO_OUT_AFTER_ASKING: N_("asked to go out and could not"),
    Penalty.TOOK_UNUSABLE_UPCARD: N_("took the upcard and could not use it"),
    Penalty.THREE_WILDS_IN_CANASTA: N_("three wild cards in a canasta"),
    Penalty.DREW_OUT_OF_TURN: N_("drew from the stock out of turn"),
    Penalty.TOOK_PILE_OUT_OF_TURN: N_("took the pile out of turn"),
    Penalty.MELDED_OUT_OF_TURN: N_("laid cards down in another player's turn"),
}


class Card(StrEnum):
    """The card groups that the card counter asks for, in the order people count them."""

    JOKER = "jokers"
    TWO = "twos"
    ACE = "aces"
    EIGHT_TO_KING = "eights_to_kings"
    FOUR_TO_SEVEN = "fours_to_sevens"
    BLACK_THREE = "black_threes"


CARD_POINTS: Mapping[Card, int] = {
    Card.JOKER: 50,
    Card.TWO: 20,
    Card.ACE: 20,
    Card.EIGHT_TO_KING: 10,
    Card.FOUR_TO_SEVEN: 5,
    Card.BLACK_THREE: 5,
}
"""Card values, the same in every system (a black 3 left in hand costs 5, super-samba too)."""


def card_points(counts: Mapping[Card, int]) -> int:
    """Points of a heap of cards counted by group.

    >>> card_points({Card.JOKER: 1, Card.ACE: 2, Card.FOUR_TO_SEVEN: 3})
    105
    """
    return sum(CARD_POINTS[card] * n for card, n in counts.items())


@dataclass(frozen=True)
class Deck:
    """The cards in play: so many 52-card decks and their jokers.

    >>> Deck(3, 6).cards, Deck(3, 6).wild_cards, Deck(3, 6).red_threes, Deck(3, 6).natural_cards
    (162, 18, 6, 132)
    """

    decks: int
    jokers: int

    @property
    def cards(self) -> int:
        return 52 * self.decks + self.jokers

    @property
    def wild_cards(self) -> int:
        """Jokers and twos."""
        return 4 * self.decks + self.jokers

    @property
    def red_threes(self) -> int:
        return 2 * self.decks

    @property
    def natural_cards(self) -> int:
        """The cards from 4 up to Ace: eleven ranks of four suits a deck."""
        return 44 * self.decks

    @property
    def canastas_per_rank(self) -> int:
        """How many natural canastas the cards of one rank can make."""
        return 4 * self.decks // 7


class RedThreesPlus(StrEnum):
    """When red threes laid on the table count plus rather than minus."""

    WITH_TWO_SETS = "with_two_sets"
    ONCE_MELDED = "once_melded"
    ALWAYS = "always"


@dataclass(frozen=True)
class RedThreeRule:
    """How a system scores red threes on the table and in hand."""

    plus_when: RedThreesPlus
    each: int = 100
    all_of_them: int | None = None  # plus score for every red three of the deck, if special
    minus_each: int = 100
    minus_all_of_them: int | None = None
    in_hand_each: int = 0
    in_hand_per_player: int = 0  # classic: charged per player caught holding any
    kept_in_hand: bool = True  # False where the text has every red three laid down at once
    in_hand_by_player: bool = False  # classic: red threes in hand are charged per player
    all_counted: str = "laid_down"  # or "held": those left in hand count toward all of them

    @property
    def in_hand(self) -> int:
        """What red threes left in hand cost: per red three, or per player caught holding any."""
        return self.in_hand_per_player if self.in_hand_by_player else self.in_hand_each

    @property
    def counts_minus(self) -> bool:
        """Whether a red three on the table can ever count minus (not in super-samba)."""
        return self.plus_when is not RedThreesPlus.ALWAYS


@dataclass(frozen=True)
class Option:
    """A variation that a rule text offers, switched on per game."""

    id: str
    label: str
    apply: Callable[[RuleSystem], RuleSystem]


Pairs = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class HouseRules:
    """A table's own numbers, file-shaped, replacing those of the system it starts from: what
    a system made by `house.with_house_rules` keeps, and house.py reads and writes."""

    name: str | None = None
    target: int | None = None
    set_bonuses: Mapping[str, int] = field(default_factory=dict)
    going_out_bonus: int | None = None
    sets_to_go_out: int | None = None
    opening_minimums: Pairs | None = None
    red_three_values: Mapping[str, int] = field(default_factory=dict)
    tie_at_target: str | None = None
    melded_points_for: str | None = None
    all_red_threes: str | None = None


@dataclass(frozen=True)
class RuleSystem:
    """One published Samba system; a house rule is the same with other numbers."""

    id: str
    name: str
    short_name: str  # where the system's name is said again and again (the comparison)
    summary: str
    source: str
    sections: Mapping[str, str]  # topic of the rules page → section of the source
    tables: tuple[tuple[int, int], ...]  # (sides, players per side)
    set_bonuses: Mapping[SetKind, int]  # the set kinds the system has, with their bonus
    going_out_bonus: int
    opening_minimums: tuple[tuple[int | None, int], ...]  # (lowest total or None, minimum)
    red_threes: RedThreeRule
    decks: int = 3
    decks_for_six_players: int | None = None
    jokers_per_deck: int = 2
    sets_to_go_out: int | None = 2
    natural_set_to_go_out: bool = False
    book: tuple[tuple[frozenset[SetKind], int], ...] = ()
    opening_minimums_by_hand: tuple[int, ...] = ()
    concealed_exempt: bool = False
    penalties: Mapping[Penalty, int] = field(default_factory=dict)
    target: int | None = 10_000
    hands_in_game: int | None = None
    all_sambas_bonus: int = 0
    samba_limit: tuple[int, int] | None = None  # (sambas a side may have, super sambas of them)
    options: tuple[str, ...] = ()
    options_on: frozenset[str] = frozenset()
    tie_at_target: str = "play_on"  # or "shared": a tie at the top past the target ends the game
    melded_points_for: str = "every_side"  # or "side_that_went_out" (house rule)
    house_rules: HouseRules | None = None
    canasta_grows: bool = True  # natural cards may be added to a finished canasta
    card_values: str | None = None  # where the text gives card values; None: it gives none

    def cite(self, topic: str) -> Rule:
        """The section of this system's source that a topic comes from."""
        return Rule(self.id, self.source, self.sections[topic], topic)

    def cite_card_values(self) -> Rule | None:
        """Where the text values the cards (a black three among them); None where it does not,
        and the values every other text agrees on are our reading."""
        if self.card_values is None:
            return None
        return Rule(self.id, self.source, self.card_values, "scoring")

    def has(self, kind: SetKind) -> bool:
        return kind in self.set_bonuses

    def deck(self, players: int) -> Deck:
        """The cards in play for a table of `players` people."""
        decks = self.decks
        if players == 6 and self.decks_for_six_players:
            decks = self.decks_for_six_players
        return Deck(decks, decks * self.jokers_per_deck)

    def opening_minimum(self, total: int, hand_number: int) -> int:
        """The least a side's first meld must be worth in hand `hand_number` (1-based)."""
        if self.opening_minimums_by_hand:
            return self.opening_minimums_by_hand[
                min(hand_number, len(self.opening_minimums_by_hand)) - 1
            ]
        minimum = self.opening_minimums[0][1]
        for lowest, needed in self.opening_minimums:
            if lowest is None or total >= lowest:
                minimum = needed
        return minimum

    def can_go_out(self, sets: Mapping[SetKind, int]) -> bool:
        """Whether a side with these sets has what this system asks before going out."""
        if self.book:
            return all(sum(sets.get(k, 0) for k in kinds) >= n for kinds, n in self.book)
        count = sum(n for kind, n in sets.items() if self.has(kind))
        if count < (self.sets_to_go_out or 0):
            return False
        return not self.natural_set_to_go_out or any(sets.get(k, 0) > 0 for k in NATURAL_SETS)

    def going_out_requirement(self) -> Text:
        """What a side needs before it may go out, for people."""
        if self.book:
            parts = [
                Text(N_("%(count)s × %(kinds)s"), {"count": n, "kinds": kinds_text(kinds)})
                for kinds, n in self.book
            ]
            return Text(N_("the book: %(parts)s"), {"parts": join(parts)})
        needed = self.sets_to_go_out or 0
        if self.natural_set_to_go_out:
            return Text(
                P_(
                    "at least %(count)s set, a natural canasta or a samba",
                    "at least %(count)s sets, one of them a natural canasta or a samba",
                ),
                {"count": needed},
            )
        return Text(
            P_(
                "at least %(count)s set (a canasta or a samba)",
                "at least %(count)s sets (canastas or sambas)",
            ),
            {"count": needed},
        )


def kinds_text(kinds: frozenset[SetKind]) -> str | Text:
    """Set kinds as alternatives: “a natural canasta or a samba”."""
    return join([Text(k.label) for k in SetKind if k in kinds], N_("%(a)s or %(b)s"))


class UnknownSystem(KeyError, ValueError):
    """A system id that is not in the registry."""

    def __str__(self) -> str:
        return f"unknown system {self.args[0]!r}; the systems are {', '.join(SYSTEMS)}"


class UnknownOption(ValueError):
    """An option that the system does not offer."""


def get_system(system_id: str, options: Iterable[str] = ()) -> RuleSystem:
    """The system with that id, with the named options switched on.

    >>> get_system("denexa").set_bonuses[SetKind.SAMBA]
    500
    >>> get_system("black-samba", ["low_samba_bonus"]).set_bonuses[SetKind.BLACK_SAMBA]
    700
    """
    try:
        system = SYSTEMS[system_id]
    except KeyError:
        raise UnknownSystem(system_id) from None
    for option_id in sorted(set(options)):
        if option_id not in system.options:
            offered = ", ".join(system.options) or "none"
            raise UnknownOption(f"{system_id} has no option {option_id!r} (its options: {offered})")
        system = OPTIONS[option_id].apply(system)
    return replace(system, options_on=frozenset(options))


BASIC_SETS = {SetKind.NATURAL_CANASTA: 500, SetKind.MIXED_CANASTA: 300}
STANDARD_MINIMUMS: tuple[tuple[int | None, int], ...] = (
    (None, 15),
    (0, 50),
    (1500, 90),
    (3000, 120),
    (7000, 150),
)

CLASSIC = RuleSystem(
    id="classic",
    name=N_("Samba (classic, 2–6 players)"),
    short_name=N_("Classic"),
    summary=N_(
        "The common rules: sambas 1,500, two sets to go out, 750 for each player caught holding "
        "red threes."
    ),
    source="Samba Rules (classic)",
    sections={
        "table": "“Samba is a three pack card game”",
        "deal": "“When there are 2, 3, 4, or 5 players”",
        "discard-pile": "“Instead of drawing two cards”",
        "melds": "“There are two types of meld”",
        "first-meld": "“The minimum points required for the first Meld”",
        "sets": "Scoring",
        "going-out": "Going Out; Scoring, “In order to go out”",
        "red-threes": "Red Threes",
        "penalties": "Red Threes, “If the round is finished”",
        "scoring": "Scoring",
        "end-of-game": "“The winning score is 10,000”",
    },
    tables=((2, 1), (3, 1), (5, 1), (2, 2), (3, 2)),
    set_bonuses={**BASIC_SETS, SetKind.SAMBA: 1500},
    going_out_bonus=200,
    opening_minimums=((None, 50), (1500, 90), (3000, 120), (7000, 150)),
    red_threes=RedThreeRule(
        plus_when=RedThreesPlus.WITH_TWO_SETS,
        all_of_them=1000,
        in_hand_per_player=750,
        in_hand_by_player=True,
    ),
)

DENEXA = RuleSystem(
    id="denexa",
    name=N_("Samba (Denexa)"),
    short_name=N_("Denexa"),
    summary=N_(
        "Partnerships of two: sambas score only 500, first meld 160 from 7,000, four penalties."
    ),
    source="Denexa Games, Samba",
    sections={
        "table": "Setup",
        "deal": "Play of the hand",
        "discard-pile": (
            "Play of the hand, “The player on the dealer’s left”; Freezing the discard pile"
        ),
        "melds": "Melding",
        "first-meld": "The initial meld",
        "sets": "Scoring",
        "going-out": "Going out",
        "red-threes": "Scoring",
        "penalties": "Penalties",
        "scoring": "Scoring",
        "end-of-game": "Scoring",
    },
    tables=((2, 2),),
    set_bonuses={**BASIC_SETS, SetKind.SAMBA: 500},
    going_out_bonus=200,
    opening_minimums=(*STANDARD_MINIMUMS[:-1], (7000, 160)),
    red_threes=RedThreeRule(
        plus_when=RedThreesPlus.WITH_TWO_SETS,
        all_of_them=1000,
        minus_all_of_them=1000,
        in_hand_each=500,
    ),
    penalties={
        Penalty.WENT_OUT_AFTER_REFUSAL: 100,
        Penalty.COULD_NOT_GO_OUT_AFTER_ASKING: 100,
        Penalty.TOOK_UNUSABLE_UPCARD: 50,
    },
    canasta_grows=False,
    card_values="Card ranks and scoring, “Black 3s”",
)

BLACK_SAMBA = RuleSystem(
    id="black-samba",
    name=N_("Black Samba"),
    short_name=N_("Black Samba"),
    summary=N_(
        "Adds the black samba (six in sequence and a wild card, 1,000); red threes count plus "
        "once the side has melded."
    ),
    source="The Rules of Black Samba (D. Mallen, V17)",
    sections={
        "table": "Teams; 2- & 3-Player Games",
        "deal": "The Deal; Your Turn",
        "discard-pile": "To Qualify to take cards from the Discard Pile",
        "melds": "Melds",
        "first-meld": "Initial Meld Points",
        "sets": "Sets & Bonus Points",
        "going-out": "Going Out",
        "red-threes": "Red 3 Bonus Points",
        "penalties": "Red 3s",
        "scoring": "Game Score",
        "end-of-game": "Game Score, “Winning Score 10,000 points”",
    },
    tables=((2, 1), (3, 1), (2, 2), (2, 3)),
    set_bonuses={**BASIC_SETS, SetKind.SAMBA: 1500, SetKind.BLACK_SAMBA: 1000},
    going_out_bonus=200,
    opening_minimums=STANDARD_MINIMUMS,
    red_threes=RedThreeRule(
        plus_when=RedThreesPlus.ONCE_MELDED,
        all_of_them=1200,
        minus_all_of_them=1200,
        kept_in_hand=False,
    ),
    options=("low_samba_bonus", "one_red_set_to_go_out", "nine_jokers"),
    card_values="Initial Meld Points, “Card Points”",
)

SUPER_SAMBA = RuleSystem(
    id="super-samba",
    name=N_("Samba with Super Sambas (six decks, four hands)"),
    short_name=N_("Super Samba"),
    summary=N_(
        "Six decks, exactly four hands; super sambas 5,000, going out 2,000 and only with the book."
    ),
    source="Samba with Super Sambas rule sheet",
    sections={
        "table": "Cards/Players",
        "deal": "Game Play, “Each player is dealt 2 stacks”",
        "discard-pile": "Picking Up the Discard Pile",
        "melds": "Sambas, Super Sambas, and Canastas; Restrictions",
        "first-meld": (
            "Game Play, “A game consists of 4 hands”; Restrictions, “Red 3’s cannot be counted”"
        ),
        "sets": "Sambas, Super Sambas, and Canastas",
        "going-out": "Going Out = 2,000 points; A Book Includes",
        "red-threes": "Red and Black 3’s",
        "penalties": "Red and Black 3’s",
        "scoring": "Individual Point Values",
        "end-of-game": "Game Play, “A game consists of 4 hands”",
    },
    tables=((2, 1), (3, 1), (2, 2), (2, 3)),
    decks=6,
    decks_for_six_players=7,
    set_bonuses={
        **BASIC_SETS,
        SetKind.SAMBA: 2000,
        SetKind.SUPER_SAMBA: 5000,
        SetKind.WILD_CANASTA: 2000,
        SetKind.SEVENS_CANASTA: 2000,
        SetKind.RED_THREE_CANASTA: 1000,
    },
    going_out_bonus=2000,
    sets_to_go_out=None,
    book=(
        (frozenset({SetKind.WILD_CANASTA}), 1),
        (frozenset({SetKind.SEVENS_CANASTA}), 1),
        (frozenset({SetKind.NATURAL_CANASTA}), 5),
        (frozenset({SetKind.MIXED_CANASTA}), 1),
        (frozenset({SetKind.SAMBA, SetKind.SUPER_SAMBA}), 1),
    ),
    opening_minimums=((None, 50),),
    opening_minimums_by_hand=(50, 90, 120, 150),
    red_threes=RedThreeRule(plus_when=RedThreesPlus.ALWAYS, in_hand_each=100),
    target=None,
    hands_in_game=4,
    all_sambas_bonus=2000,
    samba_limit=(4, 1),
    canasta_grows=False,
    card_values="Individual Point Values",
)

FOURNIER = RuleSystem(
    id="fournier",
    name=N_("Samba (Fournier)"),
    short_name=N_("Fournier"),
    summary=N_(
        "The Spanish rules: one set is enough to go out, but red threes without two sets "
        "cost 500 each (our reading)."
    ),
    source="Fournier, Reglamento de la Samba",
    sections={
        "table": "“Pueden participar de dos a seis jugadores”",
        "deal": "“El jugador anterior al”",
        "discard-pile": (
            "“Comienza a jugar el”; “Hasta que no se hayan extendido”; "
            "“También es suficiente, para poder tomar un pozo”"
        ),
        "melds": "“Cualquier combinación podrá iniciarse”",
        "first-meld": "“El valor mínimo de cartas necesario”",
        "sets": "“Los jugadores pueden anotarse puntos”",
        "going-out": "“Para que un jugador pueda terminar un juego”",
        "red-threes": "“Para valorar positivamente estos Honores”; “Si algún jugador comete”",
        "penalties": "“Si algún jugador comete”",
        "scoring": "“Una partida de Samba se compone”",
        "end-of-game": "“Una partida de Samba se compone”",
    },
    tables=((2, 1), (3, 1), (5, 1), (2, 2), (3, 2), (2, 3)),
    set_bonuses={**BASIC_SETS, SetKind.SAMBA: 1500},
    going_out_bonus=200,
    sets_to_go_out=1,
    opening_minimums=STANDARD_MINIMUMS[:-1],
    concealed_exempt=True,
    red_threes=RedThreeRule(
        plus_when=RedThreesPlus.WITH_TWO_SETS, all_of_them=1000, minus_each=500, in_hand_each=1500
    ),
    penalties={
        Penalty.WENT_OUT_AFTER_REFUSAL: 100,
        Penalty.THREE_WILDS_IN_CANASTA: 100,
        Penalty.DREW_OUT_OF_TURN: 100,
        Penalty.TOOK_PILE_OUT_OF_TURN: 100,
        Penalty.MELDED_OUT_OF_TURN: 100,
    },
    card_values="“Cada Tres Negro”",
)

SYSTEMS: Mapping[str, RuleSystem] = {
    s.id: s for s in (CLASSIC, DENEXA, BLACK_SAMBA, SUPER_SAMBA, FOURNIER)
}

OPTIONS: Mapping[str, Option] = {
    o.id: o
    for o in (
        Option(
            "low_samba_bonus",
            N_("Lower samba bonuses: samba 1,000, black samba 700"),
            lambda s: replace(
                s,
                set_bonuses={**s.set_bonuses, SetKind.SAMBA: 1000, SetKind.BLACK_SAMBA: 700},
            ),
        ),
        Option(
            "one_red_set_to_go_out",
            N_("One of the sets for going out must be natural (a natural canasta or a samba)"),
            lambda s: replace(s, natural_set_to_go_out=True),
        ),
        Option(
            "nine_jokers",
            N_("Nine jokers instead of six"),
            lambda s: replace(s, jokers_per_deck=3),
        ),
    )
}

"""Our readings: where a rule text is ambiguous or silent, what it says, what we take, and the
house-rule key (with the value) that takes the other reading (docs/readings.md).

Described once here; the rules pages and their "start a house rule" links are derived from it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .systems import SYSTEMS
from .words import N_, Rule


@dataclass(frozen=True)
class Reading:
    """One reading of one system's text, and the house rule that reads it the other way."""

    system: str  # the system's id
    topic: str  # the rules page's section it belongs to
    key: str  # the house-rule key that changes it (docs/game-file.md, `house_rules`)
    says: str  # what the text says, in our own words
    take: str  # what this app takes
    otherwise: str  # what the other reading does
    other: Any  # the key's value for the other reading, as a game file writes it

    def cite(self) -> Rule:
        """The place of the source that the reading is about: its topic's section."""
        return SYSTEMS[self.system].cite(self.topic)


TARGET_ONLY = frozenset({"classic", "fournier"})
"""The texts that name the score to reach but not who wins when more than one side reaches it in
the same hand (classic line 28, “The winning score is 10,000”; fournier lines 2 and 36): there the
higher total winning is our reading too. Denexa (line 56) and black-samba (line 281) say it."""

TIE_SAYS = {
    "classic": N_(
        "It names 10,000 as the score to reach, and says nothing of two sides reaching it in "
        "the same hand, nor of equal totals."
    ),
    "fournier": N_(
        "It names 10,000 as the score to reach first, and says nothing of two pairs reaching it "
        "in the same hand, nor of equal totals."
    ),
}
TIE_AT_TARGET = (
    N_(
        "It ends the game once a side reaches the target, the highest total winning, and does not "
        "say what happens when the highest totals are equal."
    ),
    N_("Play goes on, hand after hand, until one side leads."),
    N_("The game ends there, shared, with no single winner."),
)

READINGS: tuple[Reading, ...] = (
    Reading(
        "classic",
        "first-meld",
        "opening_minimums",
        N_("Its first-meld table begins at “up to 1,495” and has no row for a total below zero."),
        N_("A side below zero needs 50, like the rest of that first row."),
        N_("A side below zero needs only 15, as in the other texts."),
        [[-5, 15], [0, 50], [1500, 90], [3000, 120], [7000, 150]],
    ),
    Reading(
        "denexa",
        "sets",
        "set_bonuses",
        N_(
            "Its list of bonuses puts natural canastas and sambas together at 500 each, where the "
            "other texts give a samba 1,500 or more."
        ),
        N_("We take it at its word: a samba earns 500 here."),
        N_("A samba earns 1,500, as in the other texts."),
        {"samba": 1500},
    ),
    Reading(
        "denexa",
        "first-meld",
        "opening_minimums",
        N_(
            "It asks a side's first meld to go beyond the figure in its table, while the table "
            "itself calls each figure a minimum."
        ),
        N_("Reaching the figure is enough: at 0 to 1,495 a first meld of exactly 50 will do."),
        N_("The first meld must be worth more than the figure: at least 5 more, 55 instead of 50."),
        [[-5, 20], [0, 55], [1500, 95], [3000, 125], [7000, 165]],
    ),
    Reading(
        "denexa",
        "red-threes",
        "all_red_threes",
        N_(
            "It pays 1,000 for the red threes when all six are held, and charges 500 for each one "
            "still undeclared when the hand ends, without saying whether undeclared ones count "
            "toward the six."
        ),
        N_(
            "Held means laid down: with some still in hand, the side scores 100 for each one laid "
            "down and pays 500 for each one in hand."
        ),
        N_(
            "Held means the side has all six, laid down or not: they earn the 1,000, and each one "
            "still in hand costs 500 as well."
        ),
        "held",
    ),
    Reading(
        "black-samba",
        "red-threes",
        "red_three_values",
        N_(
            "It says a side that has not melded scores its red threes negative, without saying "
            "how much."
        ),
        N_(
            "The plus values turned negative: −100 each, and all six −1,200 as they would be "
            "+1,200."
        ),
        N_("−100 each, all six too: −600, with no doubled value for the six."),
        {"all_minus": 600},
    ),
    Reading(
        "super-samba",
        "sets",
        "set_bonuses",
        N_(
            "It gives each closed samba, super samba and canasta a point value without saying "
            "whether the cards inside it are counted as well."
        ),
        N_("Those values are bonuses, and the cards count on top, as in the other texts."),
        N_(
            "The value includes the cards: the bonus is that much less. A super samba's cards are "
            "always worth 100 (4,900 left) and a canasta of sevens' 35 (1,965 left); the cards of "
            "other sets vary."
        ),
        {"super_samba": 4900, "sevens_canasta": 1965},
    ),
    Reading(
        "super-samba",
        "red-threes",
        "set_bonuses",
        N_(
            "It values each red three at 100 and a canasta of red threes at 1,000, without saying "
            "whether the canasta's 1,000 replaces its red threes' own 100s."
        ),
        N_("A canasta of red threes earns 1,000 on top of the 100 each of its red threes scores."),
        N_(
            "A canasta of seven red threes is worth 1,000 in all: a bonus of 300 beside its red "
            "threes' 700."
        ),
        {"red_three_canasta": 300},
    ),
    Reading(
        "fournier",
        "red-threes",
        "red_three_values",
        N_(
            "Its honours give a red three 100, negative for a pair without two canastas or "
            "sambas; its penalty list also charges 500 for each red three of such a pair."
        ),
        N_("That 500 is the red three's value turned negative: each costs 500, not 600."),
        N_("Each costs 600: the 100 turned negative and the 500 of the penalty list."),
        {"each_minus": 600},
    ),
    Reading(
        "fournier",
        "scoring",
        "melded_points_for",
        N_(
            "Its scoring paragraph counts the cards laid down by the winning pair and deducts "
            "those left in everyone else's hands; it says nothing of the cards the other pair "
            "laid down."
        ),
        N_(
            "Every side scores the cards it laid down, as in the other texts and as this one does "
            "when the stock runs out."
        ),
        N_(
            "Only the side that went out scores the cards it laid down; when the stock runs out, "
            "every side does."
        ),
        "side_that_went_out",
    ),
    *(
        Reading(
            system,
            "end-of-game",
            "tie_at_target",
            TIE_SAYS.get(system, TIE_AT_TARGET[0]),
            *TIE_AT_TARGET[1:],
            other="shared",
        )
        for system in ("classic", "denexa", "black-samba", "fournier")
    ),
)
"""Every reading we take, system by system."""


def readings_of(system_id: str) -> list[Reading]:
    """The readings we take of one system's text."""
    return [reading for reading in READINGS if reading.system == system_id]

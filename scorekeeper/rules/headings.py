"""The headings of the four English rule texts that citations name, each marked to be named in
the page's language: a Spanish page cites «Congelación del pozo» (Freezing the discard pile), our
title with the text's own heading beside it, so that a reader can still find it in the text.
Quoted opening words stay as the text has them, to be found. Fournier's text is Spanish and has
no headings: it is cited by opening words alone.

A citation is one place or several separated by "; ", each a heading, the opening words of a
paragraph in quotes, or a heading and opening words (tests/rules/test_citations.py)."""

from __future__ import annotations

import re

from .words import C_

HEADING = "heading"
"""The translation context of a text's heading."""

HEADINGS = frozenset(
    {
        # classic (Samba Rules)
        C_("heading", "Going Out"),
        C_("heading", "Red Threes"),
        C_("heading", "Scoring"),
        C_("heading", "Strategy hints"),
        # denexa
        C_("heading", "Setup"),
        C_("heading", "Card ranks and scoring"),
        C_("heading", "Play of the hand"),
        C_("heading", "Melding"),
        C_("heading", "The initial meld"),
        C_("heading", "Canastas and sambas"),
        C_("heading", "Freezing the discard pile"),
        C_("heading", "Depletion of the stock"),
        C_("heading", "Going out"),
        C_("heading", "Penalties"),
        # black-samba
        C_("heading", "Teams"),
        C_("heading", "The Deal"),
        C_("heading", "The Piles"),
        C_("heading", "‘Frozen’ Discard Pile"),
        C_("heading", "‘Blocked’ Discard Pile"),
        C_("heading", "Your Turn"),
        C_("heading", "To Qualify to take cards from the Discard Pile"),
        C_("heading", "The Initial Meld"),
        C_("heading", "Initial Meld Points"),
        C_("heading", "Melds"),
        C_("heading", "Sets & Bonus Points"),
        C_("heading", "Going Out Bonus"),
        C_("heading", "Game End"),
        C_("heading", "Game Score"),
        C_("heading", "2s & Jokers"),
        C_("heading", "Red 3s"),
        C_("heading", "Red 3 Bonus Points"),
        C_("heading", "Black 3s"),
        C_("heading", "2- & 3-Player Games"),
        # super-samba (the sheet sets most of its headings in capitals; we cite them so)
        C_("heading", "Cards/Players"),
        C_("heading", "Sambas, Super Sambas, and Canastas"),
        C_("heading", "Individual Point Values"),
        C_("heading", "Going Out = 2,000 points"),
        C_("heading", "A Book Includes"),
        C_("heading", "Red and Black 3’s"),
        C_("heading", "Discards / Discarding"),
        C_("heading", "Game Play"),
        C_("heading", "Picking Up the Discard Pile"),
        C_("heading", "Restrictions"),
    }
)
"""Every heading a citation names, as it names it."""

QUOTED = re.compile(r"“[^”]+”")


def places(section: str) -> list[tuple[str, str]]:
    """A citation's places, each as its heading ("" when it has none) and what follows it.

    >>> places("Going Out; Scoring, “In order to go out”")
    [('Going Out', ''), ('Scoring', ', “In order to go out”')]
    >>> places("“IF THE STOCKPILE IS EMPTY”")
    [('', '“IF THE STOCKPILE IS EMPTY”')]
    """
    found = []
    for place in section.split("; "):
        quote = QUOTED.search(place)
        heading = place[: quote.start()].rstrip(", ") if quote else place
        found.append((heading, place[len(heading) :]))
    return found

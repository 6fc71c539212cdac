"""Names of the game's things as the pages show them, shared by the hand form and the pages."""

from __future__ import annotations

from flask_babel import gettext as _

from ... import rules
from ...rules.fields import FieldRef
from ...rules.hands import Ending
from ...rules.play import play_of
from ..http.i18n import say
from ..store.models import Game


def label_of(ref: FieldRef) -> str:
    """A field's label as the form shows it: in the page's language, capitalised."""
    text = say(ref.label)
    return text[:1].upper() + text[1:]


def ending_label(ending: Ending, game: Game) -> str:
    """An ending in words: who went out, or that nobody did, said as the game's system ends a
    hand on an empty stock (rules/play.py, going out): in all but super-samba, play goes on after
    the stock ran out, and a side may still go out."""
    if ending.side is None:
        stock = play_of(rules.SYSTEMS[game.system_id]).rule("stock-empty")
        if stock.answer == "stops-without-book":
            return _("Nobody went out (the stock ran out before any side had its book)")
        return _("Nobody went out (play stopped after the stock ran out)")
    return _("%(side)s went out", side=game.sides[ending.side].name)

"""Names of the game's things as the pages show them, shared by the hand form and the pages."""

from __future__ import annotations

from flask_babel import gettext as _

from ...rules.fields import FieldRef
from ...rules.hands import Ending
from ..http.i18n import say
from ..store.models import Game


def label_of(ref: FieldRef) -> str:
    """A field's label as the form shows it: in the page's language, capitalised."""
    text = say(ref.label)
    return text[:1].upper() + text[1:]


def ending_label(ending: Ending, game: Game) -> str:
    """An ending in words: who went out, or that the stock ran out."""
    if ending.side is None:
        return _("The stock ran out")
    return _("%(side)s went out", side=game.sides[ending.side].name)

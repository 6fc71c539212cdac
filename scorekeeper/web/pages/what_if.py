"""What if we read it the other way? The page of a game's totals and winner under each other
reading of its system (presenters/what_if.py works them out), beside the real ones."""

from __future__ import annotations

from flask import Blueprint, render_template
from markupsafe import Markup

from ..http import caching, door
from ..http.access import Access, needs
from ..presenters import game as presenters
from ..presenters import parts
from ..presenters.what_if import other_readings
from ..services.engine import system_of

bp = Blueprint("what_if", __name__)


@bp.get("/games/<game_id>/what-if")
@needs(Access.FOLLOW)
def what_if() -> str:
    """The game under each other reading, beside the real totals; a read, kept per revision."""

    def draw() -> parts.Drawn:
        game = door.game()
        title = presenters.game_title(game)
        shown = other_readings(game)
        body = render_template(
            "what_if/_readings.html", game=game, system=system_of(game), shown=shown
        )
        return parts.Drawn(title, Markup(body))

    return render_template("what_if/index.html", drawn=parts.kept(caching.part_key(), draw))

"""The result to send to the family chat: the game in a few lines of text and as a picture.

Both are drawn from the scoreboard's values by templates (`result/result.txt`,
`result/result.svg`), in the page's language, and are the same for everyone who may follow the
game, so they carry the game page's weak ETag (caching.py) like every page of a game.
"""

from __future__ import annotations

from flask import Blueprint, render_template
from werkzeug.wrappers import Response

from ..http import door
from ..http.access import Access, needs
from ..presenters import game as presenters

bp = Blueprint("result", __name__)


def summary(board: presenters.Scoreboard) -> str:
    """The game in a few lines of text: system, sides and totals, winner, hands played (the
    template's blank lines left out, so that its tags may stand on lines of their own)."""
    lines = render_template("result/result.txt", board=board).splitlines()
    return "".join(f"{line.strip()}\n" for line in lines if line.strip())


@bp.get("/games/<game_id>/result")
@needs(Access.FOLLOW)
def result() -> str:
    """The text and the picture of the result, with Share (or Copy) and a download."""
    board = presenters.scoreboard(door.kept())
    return render_template("result/result.html", board=board, text=summary(board))


@bp.get("/games/<game_id>/scoreboard.svg")
@needs(Access.FOLLOW)
def picture() -> Response:
    """The scoreboard as a picture drawn here: an SVG, with nothing from another site."""
    board = presenters.scoreboard(door.kept())
    response = Response(render_template("result/result.svg", board=board), mimetype="image/svg+xml")
    response.headers["Content-Disposition"] = f'inline; filename="samba-{door.game_id()}.svg"'
    return response

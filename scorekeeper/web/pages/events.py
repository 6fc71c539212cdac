"""`/games/<id>/events`: the event stream a following page of a game holds (http/stream.py).

It comes in through the door like every page of the game, so that only a phone that may follow
the game opens it, and asks again whenever the game's links or the table's PIN change. The
streams of one share link hold only a share of the server's (http/stream.py).
"""

from __future__ import annotations

from flask import Blueprint
from werkzeug.wrappers import Response

from ..http import access, caching, door, stream
from ..http.access import Access, needs
from ..services import push

bp = Blueprint("events", __name__)


@bp.get("/games/<game_id>/events")
@needs(Access.FOLLOW)
@caching.never_kept
def game_events() -> Response:
    """The game's revision now and at each change, while the page stays open."""
    return stream.respond(
        push.game_key(door.game_id()),
        door.revision(),
        access.still_may(Access.FOLLOW),
        link=access.link_token(),
    )

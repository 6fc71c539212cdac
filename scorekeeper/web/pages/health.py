"""`/healthz`: whether this process can serve, for a reverse proxy, a load balancer or a
service manager to ask.

It answers 200 when the database answers a trivial `SELECT 1` and 503 when it does not, and
reads no game (a check every few seconds must cost nothing and hold no game's lock). It is
public, sets no cookie and is never stored, so that each check asks the process itself.
"""

from __future__ import annotations

from flask import Blueprint, make_response
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from werkzeug.wrappers import Response

from ..extensions import db
from ..http.access import Access, needs

bp = Blueprint("health", __name__)


@bp.route("/healthz")
@needs(Access.PUBLIC)
def healthz() -> Response:
    """200 `ok` while the database answers, 503 while it does not."""
    try:
        db.session.execute(text("SELECT 1"))
        answer = make_response("ok\n", 200)
    except SQLAlchemyError:
        # Out of reach, refused, or a file that cannot be opened: whichever, this process cannot
        # serve a game now; the proxy sends phones elsewhere or the manager restarts it.
        db.session.rollback()
        answer = make_response("database unavailable\n", 503)
    answer.mimetype = "text/plain"
    answer.cache_control.no_store = True
    return answer

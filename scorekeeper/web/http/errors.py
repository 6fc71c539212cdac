"""Error pages: plain words, never a traceback; a failed write is rolled back."""

from __future__ import annotations

from flask import Flask, current_app, make_response, render_template, request
from flask.globals import request_ctx
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug import exceptions
from werkzeug.exceptions import HTTPException, InternalServerError

from ..extensions import db
from ..services.errors import GameRefused, NotFound


def _wants_json() -> bool:
    return request.is_json or request.path.endswith(".json")


def _page(status: int, title: str, detail: str) -> ResponseReturnValue:
    if _wants_json():
        return {"error": title, "detail": detail}, status
    if request_ctx.url_adapter is None:
        # The Host header is no host name (a label over 63 characters, an empty one): werkzeug
        # answers 400, and no address can be built for this request, so the page has no links.
        return f"{title}\n\n{detail}\n", status, {"Content-Type": "text/plain; charset=utf-8"}
    return render_template("error.html", status=status, title=title, detail=detail), status


def csrf_error(error: CSRFError) -> ResponseReturnValue:
    return _page(
        400,
        _("This form has expired"),
        _("Go back, reload the page and send it again. Nothing was saved."),
    )


def http_error(error: HTTPException) -> ResponseReturnValue:
    """werkzeug's own descriptions are English only; ours follow the page's language."""
    titles = {
        404: _("Not found"),
        405: _("Not allowed"),
        413: _("That file is too large"),
        415: _("Send JSON"),
    }
    details = {
        404: _(
            "There is no such page or game here. Check the address, or start from the list "
            "of games."
        ),
        413: _(
            "A game file is at most %(size)s MB.",
            size=current_app.config["MAX_CONTENT_LENGTH"] // 2**20,
        ),
        415: _("Send the game file as application/json."),
    }
    status = error.code or 500
    return _page(
        status,
        titles.get(status, _("Something went wrong")),
        details.get(status, _("Nothing was saved. Go back and try again.")),
    )


def game_refused(error: GameRefused) -> ResponseReturnValue:
    """A table the system does not allow: the set-up form offers none, so it was crafted."""
    db.session.rollback()
    return http_error(exceptions.BadRequest())


def not_found(error: NotFound) -> ResponseReturnValue:
    """A service found no such game, hand or house rule (it went while the page was open)."""
    db.session.rollback()
    return http_error(exceptions.NotFound())


def database_busy(error: OperationalError) -> ResponseReturnValue:
    """SQLite still locked by other writers after busy_timeout, or the database out of reach:
    the write was rolled back, and trying again shortly will work."""
    db.session.rollback()
    response = make_response(
        _page(
            503,
            _("The scorekeeper is busy"),
            _("Nothing was saved. Wait a moment and send it again."),
        )
    )
    response.headers["Retry-After"] = "5"
    return response


def server_error(error: InternalServerError) -> ResponseReturnValue:
    db.session.rollback()
    return _page(500, _("Something went wrong"), _("Nothing was saved. Go back and try again."))


def init_app(app: Flask) -> None:
    app.register_error_handler(CSRFError, csrf_error)
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(GameRefused, game_refused)
    app.register_error_handler(NotFound, not_found)
    app.register_error_handler(OperationalError, database_busy)
    app.register_error_handler(InternalServerError, server_error)

"""Error pages: plain words, never a traceback; a failed write is rolled back."""

from __future__ import annotations

from flask import Flask, current_app, make_response, render_template, request
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug import exceptions
from werkzeug.exceptions import HTTPException, InternalServerError

from .models import db
from .services.errors import GameRefused, NotFound

# Views that validate a FlaskForm before they write anything. After a CSRF failure (a lost or
# expired session cookie) such a view is run again: its form fails the same CSRF check, so it
# writes nothing and shows the form as it was posted, with a fresh token and the csrf_token
# field's error ("Your session expired; press ... again", from _fields.html). A new POST view
# with a form belongs here; tests/web/test_csrf.py lists every POST view so none is forgotten.
FORM_VIEWS = frozenset(
    {
        "games.new",
        "games.rename",
        "hands.new",
        "hands.edit",
        "house_rules.new",
        "house_rules.edit",
        "history.rename",
        "history.merge",
    }
)


def _wants_json() -> bool:
    return request.is_json or request.path.endswith(".json")


def _page(status: int, title: str, detail: str) -> ResponseReturnValue:
    if _wants_json():
        return {"error": title, "detail": detail}, status
    return render_template("error.html", status=status, title=title, detail=detail), status


def _form_again() -> ResponseReturnValue:
    """The posted form back from its own view, refused for its CSRF token: status 400."""
    view = current_app.view_functions[str(request.endpoint)]
    try:
        response = current_app.make_response(
            current_app.ensure_sync(view)(**(request.view_args or {}))
        )
    except (HTTPException, NotFound) as error:  # e.g. the game is gone: its own error page
        http = exceptions.NotFound() if isinstance(error, NotFound) else error
        answer = current_app.handle_http_exception(http)
        return answer.get_response() if isinstance(answer, HTTPException) else answer
    if not 300 <= response.status_code < 400:
        response.status_code = 400
    return response


def init_app(app: Flask) -> None:
    @app.errorhandler(CSRFError)
    def csrf_error(error: CSRFError) -> ResponseReturnValue:
        if request.method == "POST" and request.endpoint in FORM_VIEWS and not _wants_json():
            return _form_again()
        return _page(
            400,
            _("This form has expired"),
            _("Go back, reload the page and send it again. Nothing was saved."),
        )

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> ResponseReturnValue:
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
                size=app.config["MAX_CONTENT_LENGTH"] // 2**20,
            ),
            415: _("Send the game file as application/json."),
        }
        status = error.code or 500
        # werkzeug's own descriptions are English only; ours follow the page's language.
        return _page(
            status,
            titles.get(status, _("Something went wrong")),
            details.get(status, _("Nothing was saved. Go back and try again.")),
        )

    @app.errorhandler(GameRefused)
    def game_refused(error: GameRefused) -> ResponseReturnValue:
        # A table the system does not allow: the set-up form offers none, so it was crafted.
        db.session.rollback()
        return http_error(exceptions.BadRequest())

    @app.errorhandler(NotFound)
    def not_found(error: NotFound) -> ResponseReturnValue:
        # A service found no such game, hand or house rule (it went while the page was open).
        db.session.rollback()
        return http_error(exceptions.NotFound())

    @app.errorhandler(OperationalError)
    def database_busy(error: OperationalError) -> ResponseReturnValue:
        # SQLite still locked by other writers after busy_timeout, or the database out of reach:
        # the write was rolled back, and trying again shortly will work.
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

    @app.errorhandler(InternalServerError)
    def server_error(error: InternalServerError) -> ResponseReturnValue:
        db.session.rollback()
        return _page(
            500,
            _("Something went wrong"),
            _("Nothing was saved. Go back and try again."),
        )

"""Every write needs the token of a page this app drew (CSRF), checked before the view runs.

A view with a form (`form_view`) is let through with a token that fails: its FlaskForm checks
the same token, so the form comes back as it was typed, with "Your session expired; press …
again" next to it (`shared/_fields.html`) and status 400, and nothing is written. Any other write
without a good token gets the error page. Both happen after the game's door (`door.enter`), so
no check that sits there is passed by.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app, g, request
from flask_wtf.csrf import CSRFError
from werkzeug.wrappers import Response

from ..extensions import csrf

View = TypeVar("View", bound=Callable[..., object])
CHECKS_ITS_OWN = "form_checks_csrf"
TAKES_JSON = "takes_json_without_token"


def form_view(view: View) -> View:
    """Mark a view whose FlaskForm is validated before it writes anything."""
    setattr(view, CHECKS_ITS_OWN, True)
    return view


def json_api(view: View) -> View:
    """Mark a view that also takes a JSON body, which needs no token: a page of another site
    cannot send one without the browser asking this app first (CORS), which it never allows."""
    setattr(view, TAKES_JSON, True)
    return view


def _marked(endpoint: str | None, mark: str) -> bool:
    return endpoint is not None and getattr(current_app.view_functions.get(endpoint), mark, False)


def is_form_view(endpoint: str) -> bool:
    return _marked(endpoint, CHECKS_ITS_OWN)


def protect() -> None:
    """Refuse a write without a good token, or let a form view refuse it itself."""
    config = current_app.config
    if not config.get("WTF_CSRF_ENABLED", True) or request.method not in config.get(
        "WTF_CSRF_METHODS", ("POST", "PUT", "PATCH", "DELETE")
    ):
        return
    if request.endpoint is None:
        return  # no such page (404, 405) or no such host (400): the error says so
    if request.is_json and _marked(request.endpoint, TAKES_JSON):
        return
    try:
        csrf.protect()
    except CSRFError:
        if request.is_json or not _marked(request.endpoint, CHECKS_ITS_OWN):
            raise  # the error page (in JSON for JSON), as no form can come back
        g.csrf_refused = True


def refused_status(response: Response) -> Response:
    """A form sent back for its token is a 400, as the error page would have been."""
    if g.get("csrf_refused") and not 300 <= response.status_code < 400:
        response.status_code = 400
    return response


def init_app(app: Flask) -> None:
    app.config["WTF_CSRF_CHECK_DEFAULT"] = False  # `protect` checks, after the game's door
    csrf.init_app(app)
    app.before_request(protect)
    app.after_request(refused_status)

"""What every answer tells the browser, so that another site can neither frame, script nor read
the app, and what is never kept on the phone.

Every answer (a page, a 304, an error page, a static file, JSON) carries the same headers: pages
load scripts, styles, images and fetches from this app only, with no inline script or style
(`default-src 'self'`; the templates have none), are never shown in another site's frame (the
delete-game confirmation cannot be clicked through from one), a file's type is never guessed
(`nosniff`), and no other site learns a game's address from the Referer. The session cookie is
sent only on this app's own navigations (`SameSite=Lax`) and never to a script (`HttpOnly`), as
is the language cookie (games.py).

Hosts are checked by Flask (`TRUSTED_HOSTS`, filled by `scorekeeper serve`, settings.py): a page
of another site that reaches this server through DNS rebinding names its own host, and gets the
400 of errors.py.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from flask import Flask, current_app, request
from werkzeug.wrappers import Response

View = TypeVar("View", bound=Callable[..., object])
NOT_KEPT = "not_kept"

POLICY = "; ".join(
    [
        "default-src 'self'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def not_kept(view: View) -> View:
    """Mark a view whose answer the browser must not store (`Cache-Control: no-store`): a backup
    or an export holds names, and a shared phone's cache is no place for them."""
    setattr(view, NOT_KEPT, True)
    return view


def _is_not_kept() -> bool:
    view = current_app.view_functions.get(request.endpoint or "")
    return bool(getattr(view, NOT_KEPT, False))


def secure(response: Response) -> Response:
    """The headers of every answer; `no-store` on every answer of a view marked `not_kept`
    (its 304 and its errors too)."""
    response.headers.update(HEADERS)
    if _is_not_kept():
        response.cache_control.no_store = True
    return response


def on_this_site(path: str) -> bool:
    """Whether `path` is a path on this site, and so safe to redirect to.

    Browsers read `//host` and `/\\host` as another site, and a control character would break
    the Location header.
    """
    return (
        path.startswith("/")
        and not path.startswith("//")
        and "\\" not in path
        and not any(ord(c) < 32 or ord(c) == 127 for c in path)
    )


def init_app(app: Flask) -> None:
    app.config.update(SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True)
    app.after_request(secure)

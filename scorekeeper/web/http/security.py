"""What every answer tells the browser, so that another site can neither frame, script nor read
the app, and what is never kept on the phone.

Every answer (a page, a 304, an error page, a static file, JSON) carries the same headers: pages
load scripts, styles, images and fetches from this app only, with no inline script or style
(`default-src 'self'`; the templates have none), are never shown in another site's frame (the
delete-game confirmation cannot be clicked through from one), a file's type is never guessed
(`nosniff`), and no other site learns a game's address from the Referer. The session cookie is
sent only on this app's own navigations (`SameSite=Lax`) and never to a script (`HttpOnly`), as
is the language cookie (games.py); every cookie set in an answer to a request that came over
https (itself, or through a proxy the app trusts, `SCOREKEEPER_PROXY_FIX`) is `Secure`, so a
phone never sends it over plain http (`CookiesOverHttps`).

Hosts are checked by Flask (`TRUSTED_HOSTS`, filled by `scorekeeper serve`, settings.py): a page
of another site that reaches this server through DNS rebinding names its own host, and gets the
400 of errors.py.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

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


def _secured(header: str) -> str:
    """A Set-Cookie header's value with the `Secure` attribute, if it has not got it."""
    attributes = [part.strip().lower() for part in header.split(";")[1:]]
    return header if "secure" in attributes else f"{header}; Secure"


class CookiesOverHttps:
    """WSGI middleware: every cookie set in an answer to an https request is `Secure`.

    Around the app rather than an `after_request` hook, since Flask sets the session cookie
    after those hooks; inside ProxyFix (`create_app` puts it outside), so that a request that
    came over https through a trusted proxy counts as https."""

    def __init__(self, app: Callable[..., Iterable[bytes]]) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if environ.get("wsgi.url_scheme") != "https":
            return self.app(environ, start_response)

        def start(status: str, headers: list[tuple[str, str]], *rest: Any) -> Any:
            headers = [
                (name, _secured(value) if name.lower() == "set-cookie" else value)
                for name, value in headers
            ]
            return start_response(status, headers, *rest)

        return self.app(environ, start)


def init_app(app: Flask) -> None:
    app.config.update(SESSION_COOKIE_SAMESITE="Lax", SESSION_COOKIE_HTTPONLY=True)
    app.after_request(secure)
    app.wsgi_app = CookiesOverHttps(app.wsgi_app)  # type: ignore[method-assign]

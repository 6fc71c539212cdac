"""What runs around every view: the door of a game or night, who may come in, the 304, the CSRF
check, the page's language, error pages, gzip and the headers of every answer.

`install` puts them in place in one ordered list. The order is load-bearing:

- Before a view, Flask runs the URL value preprocessors, then the `before_request` hooks in the
  order they were registered: the door reads the game (or night), access decides on it, the
  304 answers only whoever may see the page, and the CSRF check comes after both (a refused
  visitor's form gets a 403, not "your session expired").
- After a view, Flask runs the `after_request` hooks in the REVERSE order of registration: the
  security headers first (so that every answer has them), then gzip, then the CSRF status, and
  last the page's ETag (set on the body as sent).
"""

from __future__ import annotations

from flask import Flask

from . import (
    access,
    body,
    caching,
    compress,
    converters,
    csrf,
    door,
    errors,
    i18n,
    request_log,
    security,
    stream,
)

AROUND_EVERY_VIEW = (
    door,  # first: reads the game or night in the address (404 when there is none) first
    access,  # who may come in: the PIN and the game's links, which the door read
    caching,  # a 304 before the game is read or drawn; only for whoever access let in
    csrf,  # every write's token, after the door and access; its status after the view
    i18n,  # the page's language
    errors,  # plain error pages, a failed write rolled back
    compress,  # after a view: gzip, before the CSRF status and the ETag (reverse order)
    security,  # after a view: runs first of all, so every answer carries its headers
    stream,  # the event streams' cap (no hook)
)
"""What `install` installs, in this order (see the module's description for why)."""


def install(app: Flask) -> None:
    """Install what runs around every view, in the order of AROUND_EVERY_VIEW; then the address
    converters, the reading of every body whole before the app (body.py), and the request log
    around the whole WSGI app."""
    for part in AROUND_EVERY_VIEW:
        part.init_app(app)
    converters.install(app)
    body.install(app)
    request_log.init_app(app)

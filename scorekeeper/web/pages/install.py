"""The app as a phone installs it: the web app manifest ("Add to Home screen" gives an icon that
opens the app full screen) and the service worker that keeps pages already seen readable when
the Wi-Fi drops (`static/sw.js`).

Both are public: a browser fetches them for the page it shows, whoever may see the games, and
neither holds anything of a game.
"""

from __future__ import annotations

import json
from pathlib import Path

from flask import Blueprint, current_app, jsonify, url_for
from flask_babel import get_locale
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ..http.access import Access, needs

bp = Blueprint("install", __name__)

THEME = "#0b5d3b"  # style.css's --accent: the bar above the app is the table's green
AHEAD = ("js", "media")
"""The folders of static/ whose files the worker keeps as it is installed (static/sw.js)."""
BACKGROUND = "#fbfaf7"  # style.css's --bg: what the phone shows while the app opens


def _icon(name: str) -> str:
    return url_for("static", filename=f"icons/{name}")


@bp.get("/manifest.webmanifest")
@needs(Access.PUBLIC)
def manifest() -> Response:
    """What the phone installs: the app's name in the page's language, its icons and colours,
    and the home page as where it starts."""
    home = url_for("games.index")
    icons = [
        {"src": _icon("icon-192.png"), "sizes": "192x192", "type": "image/png"},
        {"src": _icon("icon-512.png"), "sizes": "512x512", "type": "image/png"},
        {
            "src": _icon("maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        },
        {"src": _icon("icon.svg"), "sizes": "any", "type": "image/svg+xml"},
    ]
    response = jsonify(
        id=home,
        name=_("Samba Scorekeeper"),
        short_name=_("Samba"),
        description=_("Keeps the score in Samba at the card table."),
        lang=str(get_locale()),
        start_url=home,
        scope=home,
        display="standalone",
        theme_color=THEME,
        background_color=BACKGROUND,
        icons=icons,
    )
    response.mimetype = "application/manifest+json"
    response.cache_control.no_cache = True
    response.vary.add("Cookie")  # the language
    return response


@bp.get("/sw.js")
@needs(Access.PUBLIC)
def worker() -> Response:
    """The service worker, from the top of the site so that it looks after every page (a
    worker's reach is its own folder and below)."""
    # Read whole (it is small) rather than streamed: nothing left open if the answer is dropped.
    static = Path(current_app.static_folder or "static")
    script = (static / "sw.js").read_bytes()
    ahead = [
        url_for("static", filename=path.relative_to(static).as_posix())
        for folder in AHEAD
        for path in sorted((static / folder).iterdir())
        if path.is_file()
    ]
    script = script.replace(b"var AHEAD = [];", f"var AHEAD = {json.dumps(ahead)};".encode())
    response = Response(script, mimetype="text/javascript")
    response.cache_control.no_cache = True  # a new worker reaches phones at once
    return response

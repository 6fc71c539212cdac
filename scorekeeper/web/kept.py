"""Game pages kept in memory, drawn once per revision of their game, language and address.

A game page is the same for every visitor until the game changes (`models.Game.revision`) but
for the visitor's CSRF token and, on a hand form, the form's one-time token. It is kept with the
tokens it was drawn with, and each visitor gets it with fresh ones: showing it again costs one
statement (the revision), the same at hand 5 as at hand 100.
"""

from __future__ import annotations

from collections.abc import Callable
from threading import Lock

from cachetools import LRUCache
from flask import request
from flask_babel import get_locale
from flask_wtf.csrf import generate_csrf
from werkzeug.wrappers import Response

from .models import new_token
from .services.engine import GAMES_CACHED
from .services.loading import revision_of

Drawn = tuple[str, list[str]]
"""A page, and the one-time form tokens it holds."""

PAGES: LRUCache[tuple[str, ...], tuple[str, str, list[str]]] = LRUCache(4 * GAMES_CACHED)
PAGES_LOCK = Lock()


def game_page(game_id: str, draw: Callable[[], Drawn | Response]) -> str | Response:
    """The page `draw` draws for this game, kept; a Response (a redirect) is never kept.

    NotFound if there is no such game.
    """
    revision, language = revision_of(game_id), str(get_locale())
    key = (str(request.endpoint), game_id, revision, language, request.full_path)
    with PAGES_LOCK:
        kept = PAGES.get(key)
    if kept is None:
        drawn = draw()
        if isinstance(drawn, Response):
            return drawn
        page, tokens = drawn
        with PAGES_LOCK:
            PAGES[key] = (page, generate_csrf(), tokens)
        return page
    page, csrf, tokens = kept
    page = page.replace(csrf, generate_csrf())
    for token in tokens:
        page = page.replace(token, new_token())
    return page

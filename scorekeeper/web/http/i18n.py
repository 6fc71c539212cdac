"""The page's language: English or Spanish, by the browser or chosen on the page (its cookie).
How things are worded in it is `wording.py`'s."""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel

LANGUAGES = {"en": "English", "es": "Español"}
COOKIE = "lang"


def select_locale() -> str | None:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en")


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)

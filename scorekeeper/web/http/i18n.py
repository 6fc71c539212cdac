"""Languages: English and Spanish, by the browser or chosen on the page; numbers as each writes."""

from __future__ import annotations

from functools import cache
from typing import Protocol

from babel.numbers import LC_NUMERIC, get_group_symbol
from flask import Flask, request
from flask_babel import Babel, get_locale, get_translations, gettext

from ...rules import Text
from ...rules.words import MINUS

LANGUAGES = {"en": "English", "es": "Español"}
COOKIE = "lang"


class Translator(Protocol):
    """What WTForms asks of the translations it is given."""

    def gettext(self, string: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


def select_locale() -> str | None:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES), default="en")


@cache
def _group(locale: str) -> str:
    """A language's thousands separator, read from Babel once."""
    return get_group_symbol(locale)


def number(value: int) -> str:
    """A number as the page's language writes it: 10,000 or 10.000, and −100.

    What Babel's `format_decimal(value, format="#,##0")` writes, with the language's separator
    looked up once (a scoreboard writes hundreds of numbers, and Babel parses the format each time)
    and the true minus sign, the one the engine writes, where Babel gives a hyphen.
    """
    locale = get_locale()  # None outside a request: Babel's default, as format_decimal does
    digits = f"{abs(value):,}".replace(",", _group(str(locale or LC_NUMERIC or "en_US_POSIX")))
    return MINUS + digits if value < 0 else digits


def signed(value: int) -> str:
    """A score with its sign: +500, −100."""
    return ("+" if value > 0 else "") + number(value)


class _Translate:
    """Lets the engine's `Text` speak the page's language."""

    def __call__(self, template: str) -> str:
        return str(gettext(template)) if template else template

    def plural(self, singular: str, plural: str, count: int) -> str:
        # Flask-Babel's ngettext would fill in %(num)s itself; Text.render fills in the values.
        return get_translations().ngettext(singular, plural, count)

    def number(self, value: int) -> str:
        return number(value)


def say(text: Text | str) -> str:
    """An engine sentence (or a marked template) in the page's language."""
    if isinstance(text, Text):
        return text.render(_Translate())
    return str(gettext(text))


def init_app(app: Flask) -> None:
    Babel(app, locale_selector=select_locale)

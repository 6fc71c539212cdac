"""How the app words things in the page's language: numbers as each language writes them, the
engine's sentences (`rules.Text`) translated, the names of the game's things as the hand form
and the pages show them, and citations of the rules. The language itself is chosen around every
view (`http/i18n.py`); this module only reads it, so presenters and forms may use it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from fractions import Fraction
from functools import cache
from typing import Any, NamedTuple, Protocol

from babel import Locale, support
from babel.numbers import LC_NUMERIC, get_decimal_symbol, get_group_symbol
from flask import url_for
from flask_babel import get_locale, get_translations, gettext, pgettext
from markupsafe import Markup
from wtforms.i18n import messages_path

from .. import rules
from ..rules import Text
from ..rules.fields import FieldRef
from ..rules.hands import Ending
from ..rules.headings import HEADINGS, places
from ..rules.play import play_of
from ..rules.words import MINUS
from .store.reads import GameLike


class Translator(Protocol):
    """What WTForms asks of the translations it is given."""

    def gettext(self, string: str, /) -> str: ...
    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...


@cache
def _symbols(locale: str) -> tuple[str, str]:
    """A language's thousands separator and decimal point, read from Babel once."""
    return get_group_symbol(locale), get_decimal_symbol(locale)


class Language(NamedTuple):
    """The page's language as wording reads it: the locale, its translations, its thousands
    separator and its decimal point."""

    locale: Locale | None
    translations: Any
    group: str
    point: str


_DRAWING: ContextVar[Language | None] = ContextVar("scorekeeper.language", default=None)


def _looked_up() -> Language:
    locale = get_locale()
    # None outside a request: Babel's default, as format_decimal does.
    return Language(
        locale, get_translations(), *_symbols(str(locale or LC_NUMERIC or "en_US_POSIX"))
    )


def language() -> Language:
    """The page's language: the one looked up for the drawing under way (`one_language`), or
    looked up now (Flask-Babel's every call costs a few lookups of the request's context)."""
    return _DRAWING.get() or _looked_up()


@contextmanager
def one_language() -> Iterator[None]:
    """The page's language looked up once for a whole drawing (a scoreboard asks for it
    hundreds of times: each number, each sentence): a drawing is of one language, under which
    it is kept (`http.caching`); no `force_locale` inside it."""
    token = _DRAWING.set(_looked_up())
    try:
        yield
    finally:
        _DRAWING.reset(token)


@cache
def _form_messages(locale: str) -> Translator:
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


def form_messages() -> Translator | None:
    """WTForms' own messages ("Not a valid integer value.") in the page's language: each
    language's catalog loaded once a process (Flask-WTF's loads it once a request and looks
    the language up again at each of the hand form's fifty fields); None outside a request."""
    found = language().locale
    return None if found is None else _form_messages(str(found))


def locale() -> Locale | None:
    """The page's locale (templates' `get_locale()`)."""
    return language().locale


def translated(string: str) -> str:
    """`string` in the page's language (templates' `_()` and `{% trans %}` ask it)."""
    return str(language().translations.ugettext(string))


def page_title(title: str) -> str:
    """A page's title as the browser shows it (its tab, its history): what the page shows, then
    the app's name."""
    return f"{title} — {translated('Samba Scorekeeper')}"


def number(value: int) -> str:
    """A number as the page's language writes it: 10,000 or 10.000, and −100.

    What Babel's `format_decimal(value, format="#,##0")` writes, with the language's separator
    looked up once (a scoreboard writes hundreds of numbers, and Babel parses the format each time)
    and the true minus sign, the one the engine writes, where Babel gives a hyphen.
    """
    return _written(value, language().group)


def numbers() -> Callable[[int], str]:
    """`number`, with the page's language looked up once for all the numbers to come (a chart's
    description writes every total of every hand)."""
    group = language().group
    return lambda value: _written(value, group)


def _written(value: int, group: str) -> str:
    digits = f"{abs(value):,}".replace(",", group)
    return MINUS + digits if value < 0 else digits


def decimal(value: float | Fraction, places: int = 2) -> str:
    """A number with at most `places` decimals as the page's language writes it (2.5 or 2,5; a
    win and a third 1.33 or 1,33), a whole one as `number` writes it.

    What Babel's `format_decimal(value, format="#,##0.##")` writes, with the language's
    symbols looked up once (a season's standings write a rating for each of hundreds of rows,
    and Babel parses the format each time) and the true minus sign."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return number(value.numerator)  # whole, as most of a season's figures: nothing to round
    # A float is rounded as it is (half to even on its exact value, as a fraction of it would
    # be): making it a fraction first takes longer than all the rest.
    rounded = round(value, places) if isinstance(value, float) else round(Fraction(value), places)
    if rounded == int(rounded):
        return number(int(rounded))
    spoken = language()
    # Not whole: a digit other than 0 is left after the point once its trailing 0s go.
    digits = f"{abs(float(rounded)):,.{places}f}".rstrip("0")
    shown = digits.replace(",", "\0").replace(".", spoken.point).replace("\0", spoken.group)
    return MINUS + shown if rounded < 0 else shown


def decimals(places: int = 2) -> Callable[[float | Fraction], str]:
    """`decimal`, each value written once in the page's language, for a page that writes
    thousands of figures, few of them different (a season's standings: every night of every
    player and pair). Made for one page: its language does not change while it is drawn."""
    written: dict[tuple[int, int], str] = {}

    def write(value: float | Fraction) -> str:
        # By its ratio: a fraction's hash takes a modular inverse, longer than writing it here.
        ratio = value.as_integer_ratio()
        if ratio not in written:
            written[ratio] = decimal(value, places)
        return written[ratio]

    return write


def signed(value: int) -> str:
    """A score with its sign: +500, −100."""
    return ("+" if value > 0 else "") + number(value)


class _Translate:
    """Lets the engine's `Text` speak the page's language."""

    def __call__(self, template: str) -> str:
        return translated(template) if template else template

    def plural(self, singular: str, plural: str, count: int) -> str:
        # Flask-Babel's ngettext would fill in %(num)s itself; Text.render fills in the values.
        return str(language().translations.ngettext(singular, plural, count))

    def number(self, value: int) -> str:
        return number(value)


def say(text: Text | str) -> str:
    """An engine sentence (or a marked template) in the page's language."""
    if isinstance(text, Text):
        return text.render(_Translate())
    return translated(text)


def label_of(ref: FieldRef) -> str:
    """A field's label as the form shows it: in the page's language, capitalised."""
    text = say(ref.label)
    return text[:1].upper() + text[1:]


def ending_label(ending: Ending, game: GameLike) -> str:
    """An ending in words: who went out, or that nobody did, said as the game's system ends a
    hand on an empty stock (rules/play.py, going out): in all but super-samba, play goes on after
    the stock ran out, and a side may still go out."""
    if ending.side is None:
        stock = play_of(rules.SYSTEMS[game.system_id]).rule("stock-empty")
        if stock.answer == "stops-without-book":
            return str(gettext("Nobody went out (the stock ran out before any side had its book)"))
        return str(gettext("Nobody went out (play stopped after the stock ran out)"))
    return str(gettext("%(side)s went out", side=game.sides[ending.side].name))


def citation(rule: rules.Rule) -> str:
    """Where a rule comes from, in the page's language: the source and its place, a heading of
    an English text named in our words with the text's own beside it («Congelación del pozo»
    (Freezing the discard pile)) on a page in another language; opening words stay as the text
    has them, to be found there."""
    named = []
    for heading, rest in places(rule.section):
        ours = pgettext("heading", heading) if heading in HEADINGS else heading
        named.append((f"«{ours}» ({heading})" if ours != heading else heading) + rest)
    return f"{rule.source}, {'; '.join(named)}"


def cite(rule: rules.Rule, game_id: str | None = None) -> Markup:
    """A citation that links to the paragraph of the rules page explaining it."""
    if game_id:
        url = url_for("rules.game_rules", game_id=game_id, _anchor=rule.topic)
    else:
        url = url_for("rules.system_page", system_id=rule.system, _anchor=rule.topic)
    return Markup('<a href="{}">{}</a>').format(url, citation(rule))

"""What a request carries, read as the database can hold it, in one place for every route.

PostgreSQL keeps no NUL character in text, and a query with one is an error there (a 500), not
a row that is not found. So: in addresses, every value (a game's id, a share link's token, a
player's key) with a NUL matches no route, a 404 (the converters below replace Werkzeug's
`default`, `string` and `path`, which every `<name>` in a route uses); in query strings and
forms, a NUL is taken out before anything reads them (`Request`), since no keyboard types one.
Numbers in addresses are only those the database can hold (`whole_number`); in forms, within
the bounds given (`forms/validators.py`)."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote

from flask import Flask
from flask import Request as FlaskRequest
from werkzeug.datastructures import ImmutableMultiDict, MultiDict
from werkzeug.routing import BaseConverter, PathConverter, UnicodeConverter, ValidationError
from werkzeug.utils import cached_property

from ..store.models import LARGEST_ID


def whole_number(text: str | None, least: int = 1, most: int = LARGEST_ID) -> int | None:
    """`text` as a number from `least` to `most`, written in the digits 0-9; None if it is
    not one.

    >>> whole_number("12"), whole_number("²"), whole_number("0"), whole_number(str(10**20))
    (12, None, None, None)
    >>> whole_number("0", least=0)
    0
    """
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 25:
        return None
    number = int(text)
    return number if least <= number <= most else None


NUL = "\x00"


def without_nul(text: str) -> str:
    """Text without NUL characters, which no keyboard types and PostgreSQL cannot keep.

    >>> without_nul("U\\x00s")
    'Us'
    """
    return text.replace(NUL, "")


def _cleaned(pairs: MultiDict[str, Any]) -> ImmutableMultiDict[str, Any]:
    return ImmutableMultiDict(
        (without_nul(key), without_nul(value) if isinstance(value, str) else value)
        for key, value in pairs.items(multi=True)
    )


class Request(FlaskRequest):
    """Flask's request, its query string and form without NUL characters (the module says why):
    every view, form and check reads them from here."""

    @cached_property
    def args(self) -> ImmutableMultiDict[str, str]:
        return _cleaned(super().args)

    def _load_form_data(self) -> None:
        super()._load_form_data()
        self.__dict__["form"] = _cleaned(self.__dict__["form"])


class TextConverter(UnicodeConverter):
    """`<name>`: a segment of text, as Werkzeug's own, but none with a NUL (a 404)."""

    def to_python(self, value: str) -> str:
        if NUL in value:
            raise ValidationError()
        return value


class PathTextConverter(PathConverter):
    """`<path:name>`: as Werkzeug's own, but none with a NUL (a 404)."""

    def to_python(self, value: str) -> str:
        if NUL in value:
            raise ValidationError()
        return value


class IdConverter(BaseConverter):
    """`<id:hand_id>`: a row id; 0, 10^20 or `²` match no route (a 404), never a query."""

    regex = r"[0-9]+"
    weight = 50

    def to_python(self, value: str) -> int:
        number = whole_number(value)
        if number is None:
            raise ValidationError()
        return number

    def to_url(self, value: object) -> str:
        return str(int(str(value)))


class PlayerConverter(PathConverter):
    """`<player:key>`: a player's key, whatever it holds. A key with a slash or a percent sign
    is written quoted twice, since the server unquotes an address once before routing: a slash
    would otherwise split the address, and a leading one or two in a row match no route."""

    def to_url(self, value: str) -> str:
        if "/" not in value and "%" not in value:
            return super().to_url(value)
        return quote(quote(value, safe=""), safe="")

    def to_python(self, value: str) -> str:
        key = unquote(value) if "%" in value else value
        if NUL in key:
            raise ValidationError()
        return key


def install(app: Flask) -> None:
    """Every text a request carries read here: the request class and the address converters
    (before any route is added, since a route reads its converters when it is added)."""
    app.request_class = Request
    converters = app.url_map.converters
    converters.update(
        default=TextConverter, string=TextConverter, path=PathTextConverter,
        id=IdConverter, player=PlayerConverter,
    )  # fmt: skip

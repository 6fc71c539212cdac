"""What addresses and forms hold, read: in URLs only numbers the database can hold (anything
else is a 404) and player keys whatever they hold, in forms only numbers within the bounds
given and text without NUL."""

from __future__ import annotations

from urllib.parse import quote, unquote

from werkzeug.routing import BaseConverter, PathConverter, ValidationError
from wtforms import Field
from wtforms.validators import ValidationError as FieldError

LARGEST_ID = 2**31 - 1
"""The largest number an INTEGER column holds on PostgreSQL (SQLite's hold up to 2**63 - 1): ids,
versions and hand numbers are INTEGER columns, and a larger number in a query is an error there,
not a row that is not found."""

LARGEST_PAGE = 2**63 - 1
"""The largest page number asked for that is a page past the last rather than a 404 (a page
is never a number in a query: the furthest offset asked is LAST_PAGE's, in queries.py)."""


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


def without_nul(text: object) -> object:
    """Typed text without NUL characters, which no keyboard means and PostgreSQL cannot keep
    (a form field's filter, so that the schema's refusal of them never meets a typed name).

    >>> without_nul("U\\x00s"), without_nul(None)
    ('Us', None)
    """
    return text.replace("\x00", "") if isinstance(text, str) else text


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
        return unquote(value) if "%" in value else value


WTFORMS_RANGE = "Number must be between %(min)s and %(max)s."
"""NumberRange's message, which WTForms' own catalogue translates (so not extracted into ours)."""


class Within:
    """A form validator: a whole number from `least` to `most`, or the field says `message`
    (by default WTForms' own range message, in the page's language).

    WTForms' NumberRange asks math.isnan() first, which a 400-digit number overflows.
    """

    def __init__(self, least: int, most: int, message: str | None = None) -> None:
        self.least, self.most, self.message = least, most, message

    def __call__(self, form: object, field: Field) -> None:
        if field.data is None or self.least <= field.data <= self.most:
            return
        if self.message is not None:
            raise FieldError(self.message)
        wording = field.gettext(WTFORMS_RANGE)
        raise FieldError(wording % {"min": self.least, "max": self.most})

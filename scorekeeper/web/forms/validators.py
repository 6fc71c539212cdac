"""What the forms check besides WTForms' own validators."""

from __future__ import annotations

from wtforms import Field
from wtforms.validators import ValidationError as FieldError

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

"""The table's forms: entering its PIN, and setting or changing it."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, PasswordField
from wtforms.validators import DataRequired, EqualTo, Length, Optional

PIN_SIZE = {"autocomplete": "off", "inputmode": "numeric", "maxlength": 40}


class PinForm(FlaskForm):
    """The PIN, and where to go on once it is right (the form's fields ride along with it)."""

    pin = PasswordField(_l("The table's PIN"), validators=[DataRequired()], render_kw=PIN_SIZE)
    next = HiddenField()


class SetPinForm(FlaskForm):
    """A new PIN, typed twice; the current one when there is one. Empty: no PIN."""

    current = PasswordField(_l("The PIN now"), render_kw=PIN_SIZE)
    new = PasswordField(
        _l("New PIN"),
        validators=[Optional(), Length(min=4, max=40)],
        render_kw=PIN_SIZE,
    )
    again = PasswordField(
        _l("The new PIN again"),
        validators=[EqualTo("new", message=_l("The two new PINs differ."))],
        render_kw=PIN_SIZE,
    )

"""The forms of a player's page: renaming them, and merging them into another player."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import SelectField, StringField
from wtforms.validators import DataRequired, Length

from ..store.models import NAME_LENGTH


class RenameForm(FlaskForm):
    name = StringField(
        _l("New name"),
        validators=[DataRequired(), Length(max=NAME_LENGTH)],
        render_kw={
            "maxlength": NAME_LENGTH,
            "autocomplete": "off",
            "aria-describedby": "rename-name-hint",
        },
    )


class MergeForm(FlaskForm):
    into = SelectField(_l("The same person as"), validators=[DataRequired()])

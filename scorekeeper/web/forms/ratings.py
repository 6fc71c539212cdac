"""The club's choice of how ratings count the systems: all together, or each apart."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3
from wtforms.validators import InputRequired

TOGETHER, APART = "together", "apart"


class RatingPoolForm(FlaskForm):
    """Whether the ratings shown and ranked count every system's games together or each
    system's apart."""

    pool = RadioField(
        _l("Ratings count"),
        choices=[
            SelectChoice(TOGETHER, _l("Every system's games together: one rating a player")),
            SelectChoice(APART, _l("Each system apart: a rating a player in each system")),
        ],
        validators=[InputRequired()],
    )

    def apart(self) -> bool:
        return bool(self.pool.data == APART)

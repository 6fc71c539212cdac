"""The form of a club's season: its name, its rule and its nights."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import HiddenField, IntegerField, RadioField, SelectMultipleField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3
from wtforms.validators import DataRequired, Length, Optional
from wtforms.widgets import CheckboxInput, ListWidget

from ... import nights
from ..services.seasons import SeasonPlan
from ..store.columns import SEASON_NIGHTS, one_time_token
from ..store.models import NAME_LENGTH, new_token
from .validators import Within

NUMBER = {"inputmode": "numeric"}


class SeasonFields(FlaskForm):
    """A season as the director sets it up or changes it; `season_form` gives it the nights."""

    name = StringField(
        _l("Name of the season"), validators=[DataRequired(), Length(max=NAME_LENGTH)]
    )
    measure = RadioField(
        _l("Ranked by"),
        choices=[
            SelectChoice(
                nights.Measure.PLACES.value,
                _l("Points by place: the first of n pairs scores n, the last 1"),
            ),
            SelectChoice(nights.Measure.WINS.value, _l("Wins, as each night counts them")),
            SelectChoice(
                nights.Measure.RATING.value,
                _l("Rating: players by their rating less its ±, pairs by their pair's"),
            ),
        ],
        default=nights.Measure.PLACES.value,
    )
    best = IntegerField(
        _l("Best nights that count (empty: every night)"),
        validators=[Optional(), Within(1, SEASON_NIGHTS)],
        render_kw=NUMBER,
    )
    planned = IntegerField(
        _l("Nights in the season (empty: as many as it has)"),
        validators=[Optional(), Within(1, SEASON_NIGHTS)],
        render_kw=NUMBER,
    )
    minimum = IntegerField(
        _l("Nights played to be ranked"),
        validators=[DataRequired(), Within(1, SEASON_NIGHTS)],
        default=1,
        render_kw=NUMBER,
    )
    nights = SelectMultipleField(
        _l("Its nights"),
        widget=ListWidget(prefix_label=False),
        option_widget=CheckboxInput(),
    )
    token = HiddenField()

    def one_time_token(self) -> str | None:
        return one_time_token(self.token.data)

    def plan(self) -> SeasonPlan:
        """What the form says, once it is valid."""
        return SeasonPlan(
            " ".join((self.name.data or "").split()),
            nights.Rule(nights.Measure(self.measure.data), self.best.data, self.minimum.data or 1),
            tuple(self.nights.data or ()),
            self.planned.data,
        )


def season_form(choices: list[tuple[str, str]], obj: object | None = None) -> SeasonFields:
    """The season's form with `choices`, the nights it may have (id, label)."""
    form = SeasonFields(obj=obj)
    form.nights.choices = [SelectChoice(value, label) for value, label in choices]
    if form.one_time_token() is None:
        form.token.data = new_token()
    return form

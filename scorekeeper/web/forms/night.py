"""The forms of a club night: setting one up, a round's seating, a pair that arrives."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import FieldList, FormField, HiddenField, IntegerField, RadioField, StringField
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3
from wtforms.validators import DataRequired, InputRequired, Length, Optional
from wtforms.widgets import HiddenInput

from ... import nights, rules
from ..store.columns import NIGHT_PAIRS, NIGHT_ROUNDS, ROUND_HANDS, ROUND_MINUTES, one_time_token
from ..store.models import LARGEST_ID, NAME_LENGTH, new_token
from .validators import Within

NUMBER = {"inputmode": "numeric"}


def _player(label: str) -> StringField:
    # A NUL is taken out of every form before a view reads it (http/converters.py).
    return StringField(
        label,
        validators=[DataRequired(), Length(max=NAME_LENGTH)],
        render_kw={"list": "players", "autocomplete": "off"},
    )


class PairFields(FlaskForm):
    """One pair: two players' names (the page suggests those of the history)."""

    class Meta:
        csrf = False

    first = _player(_l("Player"))
    second = _player(_l("Partner"))


class NightFields(FlaskForm):
    """The set-up of a night; `night_form` gives it its pairs."""

    name = StringField(
        _l("Name of the night"),
        validators=[DataRequired(), Length(max=NAME_LENGTH)],
    )
    system = RadioField(_l("System or house rule"), validators=[DataRequired()])
    movement = RadioField(
        _l("Movement"),
        choices=[
            SelectChoice(
                nights.Movement.MITCHELL.value, _l("East-west pairs move up a table each round")
            ),
            SelectChoice(
                nights.Movement.ROUND_ROBIN.value, _l("Every pair meets every other once")
            ),
        ],
        default=nights.Movement.MITCHELL.value,
    )
    ranking = RadioField(
        _l("Ranking"),
        choices=[
            SelectChoice(nights.Ranking.WINS.value, _l("Wins, then point difference")),
            SelectChoice(nights.Ranking.POINTS.value, _l("Total points")),
        ],
        default=nights.DEFAULT_RANKING.value,
    )
    round_count = IntegerField(
        _l("Rounds"), validators=[DataRequired(), Within(1, NIGHT_ROUNDS)], render_kw=NUMBER
    )
    round_hands = IntegerField(
        _l("Hands a round (empty: play each game to its target)"),
        validators=[Optional(), Within(1, ROUND_HANDS)],
        render_kw=NUMBER,
    )
    round_minutes = IntegerField(
        _l("Minutes a round (empty: no clock)"),
        validators=[Optional(), Within(1, ROUND_MINUTES)],
        render_kw=NUMBER,
    )
    season = RadioField(
        _l("Season it counts in"),
        default="",
        # A season sent that is full or gone since the page was drawn is the service's to
        # refuse, in words (`services.seasons.night_added`).
        validate_choice=False,
    )
    pairs: FieldList[FormField[PairFields]]
    token = HiddenField()

    def one_time_token(self) -> str | None:
        return one_time_token(self.token.data)

    def season_id(self) -> str | None:
        """The season chosen, if any."""
        return self.season.data or None


def night_form(
    count: int, houses: list[tuple[str, str]], seasons: Sequence[tuple[str, str, bool]] = ()
) -> NightFields:
    """The set-up form for a night of `count` pairs; `houses`: the saved house rules, as
    (value, label); `seasons`: those it may count in, as (id, label, full): a full one is
    shown, and cannot be chosen."""

    class NightForm(NightFields):
        pairs = FieldList(FormField(PairFields), min_entries=count, max_entries=count)

    form = NightForm()
    systems = [SelectChoice(system_id, system.name) for system_id, system in rules.SYSTEMS.items()]
    form.system.choices = [*systems, *(SelectChoice(value, label) for value, label in houses)]
    form.season.choices = [
        SelectChoice("", _("No season")),
        *(
            SelectChoice(value, label, render_kw={"disabled": True} if full else {})
            for value, label, full in seasons
        ),
    ]
    if not form.is_submitted():
        form.system.data = "classic"
        form.round_count.data = min(3, nights.most_rounds(nights.Movement.MITCHELL, count))
    if form.one_time_token() is None:
        form.token.data = new_token()
    return form


class SeatFields(FlaskForm):
    """One table of a round: its two pair numbers, or none (the table is not played)."""

    class Meta:
        csrf = False

    ns = IntegerField(_l("North-south pair"), validators=[Optional(), Within(1, NIGHT_PAIRS + 1)])
    ew = IntegerField(_l("East-west pair"), validators=[Optional(), Within(1, NIGHT_PAIRS + 1)])

    def validate(self, extra_validators: Mapping[str, Sequence[Any]] | None = None) -> bool:
        """Each number on its own, then both or neither: a table given one pair is not left out
        quietly, the other is asked for, next to its field. (A field's own validators stop at
        Optional() when it is empty, so this cannot be a `validate_ew`.)"""
        valid = super().validate(extra_validators)
        ns, ew = _typed(self.ns), _typed(self.ew)
        if ns == ew:
            return valid
        missing = self.ns if ew else self.ew
        missing.errors = [
            *missing.errors,
            _("Give this table's other pair too, or leave both empty."),
        ]
        return False


def _typed(field: IntegerField) -> bool:
    """Whether anything was typed in the field (a number or not)."""
    return bool(field.raw_data and str(field.raw_data[0]).strip())


def seating_form(tables: int) -> SeatingFields:
    class SeatingForm(SeatingFields):
        seats = FieldList(FormField(SeatFields), min_entries=tables, max_entries=tables)

    return SeatingForm()


class SeatingFields(FlaskForm):
    """A round's seating: each table's two pair numbers (a table left empty is not played)."""

    seats: FieldList[FormField[SeatFields]]


class ArrivingPairForm(FlaskForm):
    """A pair that arrives between rounds (the form checks its own CSRF token)."""

    first = _player(_l("Player"))
    second = _player(_l("Partner"))


COUNTING_WORDS = {
    nights.Counting.AS_IT_STANDS: _l("As it stands: its totals decide it"),
    nights.Counting.NOT_PLAYED: _l("Not played: it counts for nobody"),
}


class EndRoundFields(FlaskForm):
    """The end of a round: for each table not finished, what its game counts as, the stated
    default checked (`end_round_form`)."""

    def counts(self) -> dict[int, nights.Counting]:
        """What each table's game counts as, by table number, as chosen."""
        return {
            int(name.removeprefix(TABLE)): nights.Counting(field.data)
            for name, field in self._fields.items()
            if name.startswith(TABLE) and field.data
        }

    def seen(self) -> dict[int, int]:
        """The hands each table had played when the director chose, by table number: a table
        that has played another since is asked about again (`services.nights.end_round`)."""
        return {
            int(name.removeprefix(HANDS)): field.data
            for name, field in self._fields.items()
            if name.startswith(HANDS) and field.data is not None
        }


TABLE = "table_"
"""The start of the name of a table's choice: `table_3`."""
HANDS = "hands_"
"""The start of the name of the hands a table had played when asked: `hands_3`."""


def end_round_form(tables: Sequence[tuple[int, int]]) -> EndRoundFields:
    """The end of a round with these tables not finished, each (its number, its hands played):
    a choice for each, among what it may count as (`nights.countings`), the default checked
    (`nights.default_counting`)."""

    class EndRoundForm(EndRoundFields):
        pass

    for table, hands in tables:
        field = RadioField(
            _("Table %(table)s", table=table),
            choices=[SelectChoice(c.value, COUNTING_WORDS[c]) for c in nights.countings(hands)],
            default=nights.default_counting(hands).value,
            validators=[InputRequired(_l("Say what this table's game counts as."))],
        )
        setattr(EndRoundForm, f"{TABLE}{table}", field)
        # The page writes each table's hands as it shows them, whatever was sent.
        seen = IntegerField(widget=HiddenInput(), validators=[Optional(), Within(0, LARGEST_ID)])
        setattr(EndRoundForm, f"{HANDS}{table}", seen)
    return EndRoundForm()

"""The forms of a game: setting one up (system options, sides, players, who deals first) and
renaming it."""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    FieldList,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
    StringField,
)
from wtforms.validators import DataRequired, Length, Optional

from ... import rules
from ..services.games import NewSide
from ..store.columns import one_time_token
from ..store.models import NAME_LENGTH, START_SCORE_LIMIT, HouseRule, new_token
from ..wording import number
from .validators import Within

DEFAULT_SIDE_NAMES = (_l("Us"), _l("Them"), _l("Third"), _l("Fourth"), _l("Fifth"))


class SideFields(FlaskForm):
    """The fields of one side that the view reads; `side_form_class` makes them."""

    name: StringField
    players: FieldList[StringField]
    start_score: IntegerField


def side_form_class(player_count: int) -> type[SideFields]:
    """The fields for one side: its name, its players' names and a score carried from paper.

    A side of one player is that player: its name is the player's, and may be left empty for
    "Player N" (`GameFields.new_sides`), as a side's name comes filled in with "Us" or "Them".
    """
    alone = player_count == 1
    label = _l("Name") if alone else _l("Side name")
    required = Optional() if alone else DataRequired()

    class NewSideForm(SideFields):
        class Meta:
            csrf = False

        name = StringField(label, validators=[required, Length(max=NAME_LENGTH)])
        players = FieldList(
            StringField(
                _l("Player"),
                validators=[Optional(), Length(max=NAME_LENGTH)],
            ),
            min_entries=player_count,
            max_entries=player_count,
        )
        start_score = IntegerField(
            _l("Score carried over from paper"),
            validators=[
                Optional(),
                Within(
                    -START_SCORE_LIMIT,
                    START_SCORE_LIMIT,
                    _(
                        "At most %(limit)s, above or below zero: is there a digit too many?",
                        limit=number(START_SCORE_LIMIT),
                    ),
                ),
            ],
            render_kw={"inputmode": "numeric", "placeholder": "0"},
        )

    return NewSideForm


class GameFields(FlaskForm):
    """The sides of the set-up form, read by name; `new_game_form` makes them."""

    side_list: FieldList[FormField[SideFields]]
    first_dealer = RadioField(_l("Who deals first"), coerce=int, default=0)
    token = HiddenField()
    """The form's one-time token: sent twice (a double tap), it starts one game."""

    def one_time_token(self) -> str | None:
        """The token sent, if it is one this app makes (anything else is not remembered)."""
        return one_time_token(self.token.data)

    def chosen_options(self, system: rules.RuleSystem) -> list[str]:
        return [o for o in system.options if self[f"option_{o}"].data]

    def new_sides(self) -> list[NewSide]:
        """The sides as typed; a player alone is the side, named "Player N" if left unnamed."""
        sides = []
        for index, side in enumerate(self.side_list, start=1):
            name = (side.form.name.data or "").strip()
            players = [(p.data or "").strip() for p in side.form.players]
            if len(players) == 1:
                players = [name]  # a name given is the player's; "Player N" is no one's
                name = name or _("Player %(number)s", number=index)
            sides.append(NewSide(name, players, side.form.start_score.data or 0))
        return sides


def new_game_form(
    system: rules.RuleSystem, sides: int, players: int, house: HouseRule | None
) -> GameFields:
    """The set-up form for one system and table: options, names and starting scores.

    A house rule fixes the options: they are shown as it has them, and not read back.
    """

    class NewGameForm(GameFields):
        side_list = FieldList(
            FormField(side_form_class(players)), min_entries=sides, max_entries=sides
        )

    for option_id in system.options:
        option = BooleanField(_l(rules.OPTIONS[option_id].label))
        setattr(NewGameForm, f"option_{option_id}", option)
    form = NewGameForm()
    if not form.is_submitted() and players > 1:  # a player's name is theirs to write
        for index, side in enumerate(form.side_list):
            side.form.name.data = str(DEFAULT_SIDE_NAMES[index])
    form.first_dealer.choices = [(i, seat.label) for i, seat in enumerate(seats_of(form))]
    if form.one_time_token() is None:
        form.token.data = new_token()
    if house is not None:
        for option_id in system.options:
            form[f"option_{option_id}"].data = option_id in house.options
    return form


@dataclass(frozen=True)
class SeatShown:
    """A seat as "Who deals first" names it: by the names typed so far, and which inputs hold
    them (so that the page's script names it again as they are typed)."""

    label: str
    side: int  # the side's place, from 0
    player: int | None  # the player's place in the side, from 0; None for a player alone
    unnamed: str  # the side's name while none is typed: "Side 1", "Player 1"


def seats_of(form: GameFields) -> list[SeatShown]:
    """The seats in the order of play: a player by their name and their side's, or by the
    side's name and their number while unnamed; a player alone by their name."""
    typed = form.new_sides()
    seats = rules.seating([rules.Side(side.name, len(side.players)) for side in typed])
    shown = []
    for seat in seats:
        side = typed[seat.side]
        if len(side.players) == 1:
            unnamed = _("Player %(number)s", number=seat.side + 1)
            shown.append(SeatShown(side.name or unnamed, seat.side, None, unnamed))
            continue
        unnamed = _("Side %(number)s", number=seat.side + 1)
        side_name, player = side.name or unnamed, side.players[seat.player]
        label = (
            _("%(player)s (%(side)s)", player=player, side=side_name)
            if player
            else _("%(side)s, player %(number)s", side=side_name, number=seat.player + 1)
        )
        shown.append(SeatShown(label, seat.side, seat.player, unnamed))
    return shown


class RenameGameForm(FlaskForm):
    name = StringField(
        _l("Name of the game"),
        validators=[Optional(), Length(max=NAME_LENGTH)],
    )

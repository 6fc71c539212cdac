"""Games: the list, setting up a new one, and the scoreboard."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, FieldList, FormField, IntegerField, StringField
from wtforms.validators import DataRequired, Length, Optional

from .. import rules
from . import house_rules, kept, presenters
from .converters import Within
from .i18n import COOKIE, LANGUAGES, number
from .models import NAME_LENGTH, START_SCORE_LIMIT, Game, HouseRule, db
from .services import NewSide, create_game, game_with_sides

bp = Blueprint("games", __name__)

DEFAULT_SIDE_NAMES = (_l("Us"), _l("Them"), _l("Third"), _l("Fourth"), _l("Fifth"))


class SideFields(FlaskForm):
    """The fields of one side that the view reads; `side_form_class` makes them."""

    name: StringField
    players: FieldList[StringField]
    start_score: IntegerField


def side_form_class(player_count: int) -> type[SideFields]:
    """The fields for one side: its name, its players' names and a score carried from paper."""

    class NewSideForm(SideFields):
        class Meta:
            csrf = False

        name = StringField(_l("Side name"), validators=[DataRequired(), Length(max=NAME_LENGTH)])
        players = FieldList(
            StringField(_l("Player"), validators=[Optional(), Length(max=NAME_LENGTH)]),
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

    def chosen_options(self, system: rules.RuleSystem) -> list[str]:
        return [o for o in system.options if self[f"option_{o}"].data]

    def new_sides(self) -> list[NewSide]:
        return [
            NewSide(
                name=(side.form.name.data or "").strip(),
                players=[(p.data or "").strip() for p in side.form.players],
                start_score=side.form.start_score.data or 0,
            )
            for side in self.side_list
        ]


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
    if not form.is_submitted():
        for index, side in enumerate(form.side_list):
            side.form.name.data = str(DEFAULT_SIDE_NAMES[index])
    if house is not None:
        for option_id in system.options:
            form[f"option_{option_id}"].data = option_id in house.options
    return form


def _table(value: str | None, system: rules.RuleSystem) -> tuple[int, int] | None:
    """A table written '2x2' (sides x players), if the system allows it."""
    if len(system.tables) == 1 and not value:
        return system.tables[0]
    try:
        sides, players = (int(n) for n in (value or "").split("x"))
    except ValueError:
        return None
    return (sides, players) if (sides, players) in system.tables else None


@bp.get("/")
def index() -> str:
    games = db.session.scalars(
        select(Game).order_by(Game.over, Game.updated_at.desc()).limit(50)
    ).all()
    return render_template("index.html", games=games, systems=rules.SYSTEMS)


@bp.route("/games/new", methods=["GET", "POST"])
def new() -> str | Response | tuple[str, int]:
    """Step by step, so it works without JavaScript: the system, the table, then the names.

    `?house=ID` starts from a saved house rule instead of a system: its system, its options and
    a copy of its numbers, which the game keeps whatever later happens to the house rule.
    """
    house = house_rules.profile_or_404(request.args["house"]) if "house" in request.args else None
    system = rules.SYSTEMS.get(house.system_id if house else request.args.get("system", ""))
    if system is None:
        systems, houses = rules.SYSTEMS.values(), house_rules.profiles()
        return render_template("new_game/system.html", systems=systems, houses=houses)
    table = _table(request.args.get("table"), system)
    if table is None:
        return render_template("new_game/table.html", system=system, house=house)
    form = new_game_form(system, *table, house)
    if form.validate_on_submit():
        options = list(house.options) if house else form.chosen_options(system)
        snapshot = house_rules.snapshot(house) if house else None
        game_id = create_game(system.id, options, form.new_sides(), snapshot)
        return redirect(url_for("games.scoreboard", game_id=game_id))
    players = table[1]
    page = render_template(
        "new_game/names.html", system=system, form=form, players=players, house=house
    )
    return page, (422 if form.is_submitted() else 200)


@bp.get("/games/<game_id>")
def scoreboard(game_id: str) -> str | Response:
    saved = request.args.get("saved", type=int)  # the hand just saved, for its notice

    def draw() -> kept.Drawn:
        board = presenters.scoreboard(game_with_sides(game_id))
        return render_template("scoreboard.html", board=board, saved=saved), []

    return kept.game_page(game_id, draw)


def on_this_site(path: str) -> bool:
    """Whether `path` is a path on this site, and so safe to redirect to.

    Browsers read `//host` and `/\\host` as another site, and a control character would break
    the Location header.
    """
    return (
        path.startswith("/")
        and not path.startswith("//")
        and "\\" not in path
        and not any(ord(c) < 32 or ord(c) == 127 for c in path)
    )


@bp.post("/language")
def language() -> Response:
    chosen = request.form.get("lang", "en")
    back = request.form.get("next", "")
    if not on_this_site(back):
        back = url_for("games.index")
    response = redirect(back)
    if chosen in LANGUAGES:
        response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax")
    return response

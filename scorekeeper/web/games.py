"""Games: the list, setting up a new one, and the scoreboard."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, FieldList, FormField, IntegerField, StringField
from wtforms.validators import DataRequired, Length, Optional

from .. import rules
from . import house_rules
from .chart import running_totals
from .converters import Within
from .hands import rows_for
from .i18n import COOKIE, LANGUAGES, number
from .models import NAME_LENGTH, START_SCORE_LIMIT, Game, db
from .services import GameRefused, NewSide, changes, create_game, replay, system_of, whole_game

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


def new_game_form(system: rules.RuleSystem, sides: int, players: int) -> GameFields:
    """The set-up form for one system and table: options, names and starting scores."""

    class NewGameForm(GameFields):
        side_list = FieldList(
            FormField(side_form_class(players)), min_entries=sides, max_entries=sides
        )

    for option_id in system.options:
        setattr(
            NewGameForm, f"option_{option_id}", BooleanField(_l(rules.OPTIONS[option_id].label))
        )
    form = NewGameForm()
    if not form.is_submitted():
        for index, side in enumerate(form.side_list):
            side.form.name.data = str(DEFAULT_SIDE_NAMES[index])
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
    house = None
    if "house" in request.args:
        house = house_rules.profile_or_404(request.args.get("house"))
        system_id: str | None = house.system_id
    else:
        system_id = request.args.get("system")
    if system_id is None or system_id not in rules.SYSTEMS:
        return render_template(
            "new_game/system.html", systems=rules.SYSTEMS.values(), houses=house_rules.profiles()
        )
    system = rules.SYSTEMS[system_id]
    table = _table(request.args.get("table"), system)
    if table is None:
        return render_template("new_game/table.html", system=system, house=house)
    sides, players = table
    form = new_game_form(system, sides, players)
    if form.validate_on_submit():
        if house is None:
            options = [o for o in system.options if form[f"option_{o}"].data]
        else:
            options = list(house.options)
        new_sides = [
            NewSide(
                name=(side.form.name.data or "").strip(),
                players=[(p.data or "").strip() for p in side.form.players],
                start_score=side.form.start_score.data or 0,
            )
            for side in form.side_list
        ]
        try:
            game_id = create_game(
                system.id,
                options,
                new_sides,
                None if house is None else house_rules.snapshot(house),
            )
        except GameRefused:  # pragma: no cover - the form offers only allowed tables
            abort(400)
        return redirect(url_for("games.scoreboard", game_id=game_id))
    if house is not None:
        for option_id in system.options:
            form[f"option_{option_id}"].data = option_id in house.options
    return render_template(
        "new_game/names.html",
        system=system,
        form=form,
        sides=sides,
        players=players,
        house=house,
    ), (422 if form.is_submitted() else 200)


def seats(game: Game) -> list[tuple[str, str]]:
    """Players around the table, partners apart: (player, side) in order of play."""
    most = max(len(side.players) for side in game.sides)
    order = []
    for seat in range(most):
        for side in game.sides:
            if seat < len(side.players):
                player = side.players[seat].name or _(
                    "player %(number)s of %(side)s", number=seat + 1, side=side.name
                )
                order.append((player, side.name))
    return order


@bp.get("/games/<game_id>")
def scoreboard(game_id: str) -> str:
    game = whole_game(game_id)
    if game is None:
        abort(404)
    system = system_of(game)
    result = replay(game)
    around = seats(game)
    dealer = around[len(game.live_hands) % len(around)]
    return render_template(
        "scoreboard.html",
        game=game,
        system=system,
        result=result,
        hands=list(zip(game.live_hands, result.hands, strict=True)),
        dealer=dealer,
        corrections=correction_notes(game, system),
        saved=request.args.get("saved", type=int),  # the hand just saved, for its notice
        chart=running_totals(
            [side.name for side in game.sides],
            [side.start_score for side in game.sides],
            result,
            system.target,
        ),
    )


@dataclass(frozen=True)
class CorrectionNote:
    """A correction as the scoreboard tells it: when, which hand, and what changed in words."""

    at: datetime
    hand_id: int
    number: int | None  # None once the hand is deleted
    deleted: bool
    restored: bool  # a deleted hand brought back
    restorable: bool  # the latest deletion of a hand still deleted: it can be brought back
    changes: list[tuple[str, str, str, str]]  # (side, what, before, after)


def correction_notes(game: Game, system: rules.RuleSystem) -> list[CorrectionNote]:
    labels = {row.field: row.label for row in rows_for(system)}
    labels["ending"] = _("How the hand ended")

    def shown(field: str, value: object) -> str:
        if field == "ending":
            if value == "stock":
                return _("The stock ran out")
            return _("%(side)s went out", side=game.sides[int(str(value)[4:])].name)
        if value is None:
            return _("not noted")
        if isinstance(value, bool):
            return _("yes") if value else _("no")
        return number(int(str(value)))

    live = game.live_hands
    notes = [
        CorrectionNote(
            at=c.at,
            hand_id=hand.id,
            number=live.index(hand) + 1 if hand in live else None,
            deleted=c.after is None,
            restored=c.before is None,
            restorable=hand.deleted_at is not None and c is hand.corrections[-1],
            changes=[
                (
                    "" if change.side is None else game.sides[change.side].name,
                    labels.get(change.field, change.field),
                    shown(change.field, change.before),
                    shown(change.field, change.after),
                )
                for change in changes(c.before, c.after)
            ],
        )
        for hand in game.hands
        for c in hand.corrections
    ]
    return sorted(notes, key=lambda note: note.at, reverse=True)


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

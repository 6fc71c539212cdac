"""Hands: record one, preview its score, read its breakdown, correct or delete it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from flask import (
    Blueprint,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from .. import rules
from . import caching, door
from .access import Access, needs
from .converters import whole_number
from .csrf import form_view
from .forms.hand import (
    HandFields,
    Row,
    adjust,
    cited,
    form_data,
    hand_form,
    hand_from_form,
    listed,
    place_violations,
    rows_for,
)
from .models import Game, Hand, new_token
from .services.engine import (
    engine_game,
    engine_hand,
    replay_of,
    system_key,
    system_of,
)
from .services.errors import HandChanged, HandRefused, HandSaved, HandTaken
from .services.hands import correct_hand, delete_hand, last_position, record_hand, restore_hand
from .services.loading import with_hands

bp = Blueprint("hands", __name__, url_prefix="/games/<game_id>/hands")


def sent_number(value: str | None) -> int | None:
    """A version or hand number as a form sends it: None when missing; 400 when not one."""
    if not value:
        return None
    number = whole_number(value, least=0)
    if number is None:
        abort(400)
    return number


def number_of(game: Game, hand_id: int) -> int | None:
    """A hand's number as the scoreboard shows it (None once deleted)."""
    live = [h.id for h in with_hands(game).live_hands]
    return live.index(hand_id) + 1 if hand_id in live else None


def _game() -> tuple[Game, rules.RuleSystem]:
    """The game with its sides; its hands are loaded only by the pages that show them."""
    game = door.game()
    return game, system_of(game)


def _preview(game: Game, hand: rules.Hand, replacing: int | None) -> rules.HandResult:
    """The hand scored as the next one, or in place of live hand number `replacing` + 1."""
    if replacing is None:
        return rules.extend(engine_game(game, []), replay_of(game), hand).hands[-1]
    hands = [engine_hand(h) for h in with_hands(game).live_hands]
    hands[replacing] = hand
    return rules.replay(engine_game(game, hands)).hands[replacing]


@dataclass(frozen=True)
class SummarySide:
    """One side in the summary under the hand form: its score of the hand, once known, and
    its total with it."""

    name: str
    hand: int | None
    total: int


def problem_places(form: HandFields, rows: Sequence[Row], loose: Sequence[str]) -> list[str]:
    """Where each problem of the form is, in the order of the page: the id of the control's
    place for those next to one, `problems` (the top of the page) for the others."""
    places = [f"cell-{form.ending.id}"] * len(form.ending.errors)
    for row in rows:
        for side in form.sides:
            field = side.form[row.field]
            places += [f"cell-{field.id}"] * len(field.errors)
    return ["problems"] * len(loose) + places


def opened(form: HandFields, rows: Sequence[Row]) -> set[str]:
    """The folded groups of rows that hold something: a value or a problem."""
    return {
        row.group
        for row in rows
        for side in form.sides
        if side.form[row.field].data or side.form[row.field].errors
    }


def _form_page(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    *,
    status: int = 200,
    **shown: Any,
) -> tuple[str, int]:
    """The hand form as this visitor gets it: drawn afresh (a posted form), with its tokens."""
    return _page(_drawn_form(game, system, form, **shown), form.token.data), status


def _page(drawn: caching.Drawn, token: str | None) -> str:
    """The page around a drawn hand form: the visitor's CSRF token and the form's one-time
    token are written here, never into what is kept (`caching.part`)."""
    return render_template("hand_form.html", drawn=drawn, token=token)


def _drawn_form(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    *,
    hand: Hand | None = None,
    loose: Sequence[str] | None = None,
    preview: rules.HandResult | None = None,
    theirs: rules.HandResult | None = None,
    taken: bool = False,
    refused: bool = False,
    broken: Sequence[rules.Violation] = (),
    blank: bool = False,
) -> caching.Drawn:
    """The hand form, the same for every visitor; `refused`: a Save that did not save (a
    preview's problems are not), for the rules `broken` or what was typed; `blank`: a new
    hand's form, nothing typed."""
    result = replay_of(game)
    if hand is None:
        number, minimums, totals = result.next_hand, result.next_minimums, result.totals
    else:
        # Counted by place, not looked up: a hand deleted meanwhile is shown where it was, with
        # the totals and minimums before that place.
        before = sum(1 for h in with_hands(game).live_hands if h.position < hand.position)
        number = before + 1
        if before < len(result.hands):
            scored = result.hands[before].sides
            minimums = tuple(side.min_opening_meld for side in scored)
            totals = tuple(side.total - side.hand_score for side in scored)
        else:
            minimums, totals = result.next_minimums, result.totals
    if preview is not None:
        summary = [
            SummarySide(side.name, score.hand_score, score.total)
            for side, score in zip(game.sides, preview.sides, strict=True)
        ]
    else:
        summary = [
            SummarySide(side.name, None, total)
            for side, total in zip(game.sides, totals, strict=True)
        ]
    rows = rows_for(system, max(len(side.players) for side in game.sides))
    loose = loose or []
    # A refused Save lists every problem at the top, each a link to its field: the first
    # screen says what is wrong, whatever the length of the form.
    problems = listed(form, rows, list(broken), game, system) if refused else []
    places = (
        [p.place or "problems" for p in problems] if problems else problem_places(form, rows, loose)
    )

    def draw_rows() -> Markup:
        return Markup(
            render_template(
                "_hand_rows.html",
                game=game,
                form=form,
                rows=rows,
                opened=opened(form, rows),
                minimums=minimums,
            )
        )

    if blank:
        # A blank form's rows read only what this key names: kept across revisions and games,
        # they are not drawn again after every save (they are most of drawing the form).
        setup = tuple((side.name, len(side.players)) for side in game.sides)
        key = ("hand rows", system_key(game), setup, minimums, str(get_locale()))
        rows_drawn = caching.kept(key, draw_rows)
    else:
        rows_drawn = draw_rows()
    title = (
        _("Correct hand %(number)s", number=number)
        if hand is not None
        else _("Hand %(number)s", number=number)
    )
    body = render_template(
        "_hand_form.html",
        game=game,
        system=system,
        form=form,
        rows_drawn=rows_drawn,
        hand=hand,
        number=number,
        title=title,
        loose=loose,
        preview=preview,
        summary=summary,
        problems=places,
        listed=problems,
        theirs=theirs,
        taken=taken,
        refused=refused,
    )
    return caching.Drawn(title, Markup(body))


def _handle(game: Game, system: rules.RuleSystem, hand: Hand | None) -> tuple[str, int] | Response:
    """The shared flow of recording and correcting: buttons, preview, checks, save."""
    if request.method == "GET":
        data = form_data(hand) if hand is not None else None
        return _form_page(game, system, hand_form(game, data=data), hand=hand)
    action = request.form.get("action", "save")
    posted = adjust(request.form, system)
    form = hand_form(game, formdata=posted)
    if "bump" in request.form or "count" in request.form:
        return _form_page(game, system, form, hand=hand)
    if not form.validate():
        # A hidden field: its message has no place of its own.
        loose: Sequence[str] = list(form.token.errors)
        saving = action != "preview"
        return _form_page(game, system, form, hand=hand, loose=loose, refused=saving, status=422)
    engine = hand_from_form(form, system)
    index = with_hands(game).live_hands.index(hand) if hand is not None else None
    if action == "preview":
        # Also what the page's script asks for as you type: the scores of the hand, and each
        # problem next to what it is about.
        result = _preview(game, engine, index)
        loose = place_violations(form, list(result.violations), game.id, system)
        return _form_page(game, system, form, hand=hand, loose=loose, preview=result)
    if hand is None:
        return _record(game, system, form, engine)
    game_id = game.id
    try:
        saved_id = correct_hand(game_id, hand.id, engine, sent_number(form.version.data) or 0)
    except HandRefused as refused:
        place_violations(form, refused.violations, game.id, system)
        result = _preview(game, engine, index)
        return _form_page(
            game,
            system,
            form,
            hand=hand,
            preview=result,
            refused=True,
            broken=refused.violations,
            status=422,
        )
    except HandChanged as changed:
        current = changed.current
        form.version.data = str(current.version)
        loose = [
            _(
                "Someone changed this hand while you were correcting it. Their version is "
                "shown below, yours is in the form: save again to keep yours."
            )
        ]
        if current.deleted:
            return _deleted_meanwhile(game, system, form, hand)
        theirs = _preview(game, current.hand, index)
        return _form_page(
            game, system, form, hand=hand, loose=loose, theirs=theirs, refused=True, status=409
        )
    # game_id, not game.id: after the commit, reading the game would load all of it again.
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{saved_id}"))


def _deleted_meanwhile(
    game: Game, system: rules.RuleSystem, form: HandFields, hand: Hand
) -> tuple[str, int]:
    """The correction of a hand someone deleted meanwhile, not saved: what was typed stays."""
    loose = [_("Someone deleted this hand while you were correcting it.")]
    return _form_page(game, system, form, hand=hand, loose=loose, refused=True, status=409)


def _record(
    game: Game, system: rules.RuleSystem, form: HandFields, engine: rules.Hand
) -> tuple[str, int] | Response:
    """Save a new hand; a repeat of a saved form is answered as the first time was."""
    game_id = game.id  # after the commit, reading game.id would load the whole game again
    try:
        _hand_id, number = record_hand(
            game_id, engine, form.token.data or new_token(), sent_number(form.after.data)
        )
    except HandRefused as refused:
        place_violations(form, refused.violations, game.id, system)
        result = _preview(game, engine, None)
        return _form_page(
            game,
            system,
            form,
            preview=result,
            refused=True,
            broken=refused.violations,
            status=422,
        )
    except HandTaken as taken:
        # Saving again from this page saves the typed hand after the one recorded meanwhile.
        form.after.data = str(last_position(game.id))
        live = with_hands(game).live_hands
        ids = [h.id for h in live]
        first = next((ids.index(h.id) for h in taken.recorded if h.id in ids), len(live) - 1)
        theirs = replay_of(game).hands[first] if live else None
        loose = [
            _(
                "Someone else saved hand %(number)s meanwhile: theirs is shown below, yours "
                "is still in the form.",
                number=first + 1,
            )
        ]
        return _form_page(
            game, system, form, loose=loose, theirs=theirs, taken=True, refused=True, status=409
        )
    except HandSaved as already:
        saved = already.saved
        number = number_of(game, saved.id)
        scored = replay_of(game).hands[number - 1] if number is not None else None
        page = render_template(
            "hand_saved.html", game=game, hand=saved, number=number, scored=scored
        )
        return page, 409
    # The notice rides on the address, so a repeated Save gets the very same answer, and a
    # page that saves in the background can show it too. The scoreboard opens at its top: the
    # new totals, then who deals next and "Record hand N+1".
    return redirect(url_for("games.scoreboard", game_id=game_id, saved=number))


@bp.route("/new", methods=["GET", "POST"])
@form_view
@needs(Access.JOIN)
def new() -> str | tuple[str, int] | Response:
    if request.method == "GET":
        if door.over():
            return redirect(url_for("games.scoreboard", game_id=door.game_id()))
        return _page(caching.part(_blank_form), new_token())
    # A form sent again after it ended the game is still answered as the first time was.
    return _handle(*_game(), None)


def _blank_form() -> caching.Drawn:
    """A new hand's form as every visitor gets it (its one-time token is the visitor's)."""
    game, system = _game()
    return _drawn_form(game, system, hand_form(game), blank=True)


def _hand(game: Game, hand_id: int) -> Hand:
    """One of the game's hands, deleted or not (the pages of a hand show the game's others)."""
    hand = next((h for h in with_hands(game).hands if h.id == hand_id), None)
    if hand is None:
        abort(404)
    return hand


@bp.route("/<id:hand_id>/edit", methods=["GET", "POST"])
@form_view
@needs(Access.JOIN)
def edit(hand_id: int) -> tuple[str, int] | Response:
    game, system = _game()
    hand = _hand(game, hand_id)
    if hand.deleted_at is None:
        return _handle(game, system, hand)
    if request.method == "GET":
        return redirect(url_for("hands.show", game_id=game.id, hand_id=hand.id))
    # Its form was open on another phone: whatever was pressed, nothing is saved or scored.
    form = hand_form(game, formdata=adjust(request.form, system))
    return _deleted_meanwhile(game, system, form, hand)


@bp.get("/<id:hand_id>")
@needs(Access.FOLLOW)
def show(hand_id: int) -> str:
    """A hand's breakdown: every line of every side's score, with its rule."""
    game, system = _game()
    hand = _hand(game, hand_id)
    number = number_of(game, hand.id)
    scored = replay_of(game).hands[number - 1] if number is not None else None
    return render_template(
        "hand.html", game=game, system=system, hand=hand, number=number, scored=scored
    )


@bp.route("/<id:hand_id>/delete", methods=["GET", "POST"])
@needs(Access.JOIN)
def delete(hand_id: int) -> Response | tuple[str, int] | str:
    """Asks once (a page, no script needed), then takes the hand out of the game."""
    game, _system = _game()
    game_id = game.id
    hand = _hand(game, hand_id)
    number = number_of(game, hand.id)
    if number is None:
        return redirect(url_for("hands.show", game_id=game.id, hand_id=hand.id))
    if request.method == "GET":
        return render_template("hand_delete.html", game=game, hand=hand, number=number)
    try:
        delete_hand(game.id, hand.id, sent_number(request.form.get("version")) or 0)
    except HandChanged:
        return redirect(url_for("hands.show", game_id=game_id, hand_id=hand_id, changed=1))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/<id:hand_id>/restore")
@needs(Access.JOIN)
def restore(hand_id: int) -> Response | tuple[str, int]:
    """Bring a deleted hand back in its place, unless that would break a rule."""
    game, system = _game()
    game_id = game.id
    hand = _hand(game, hand_id)
    try:
        restore_hand(game.id, hand.id)
    except HandChanged:
        return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{hand_id}"))
    except HandRefused as refused:
        loose = [cited(v, game.id) for v in refused.violations]
        page = render_template(
            "hand.html", game=game, system=system, hand=hand, number=None, scored=None, loose=loose
        )
        return page, 422
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{hand_id}"))

"""Hands: record one, preview its score, read its breakdown, correct or delete it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import (
    Blueprint,
    abort,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import rules
from ..forms.hand import HandFields, adjust, form_data, hand_form, hand_from_form
from ..http import access, caching, door
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters.game import hand_in_words
from ..presenters.hand_form import cited, hand_form_page, place_conflicts, place_violations
from ..services.engine import engine_game, engine_hand, replay_of, system_of
from ..services.errors import HandChanged, HandRefused, HandSaved, HandTaken
from ..services.hands import (
    correct_hand,
    delete_hand,
    last_position,
    live_number,
    record_hand,
    restore_hand,
)
from ..services.loading import with_hands
from ..services.nights import ForTheDirector, TableClosed, round_over
from ..store.models import Game, Hand, new_token

bp = Blueprint("hands", __name__, url_prefix="/games/<game_id>/hands")


def sent_number(value: str | None) -> int | None:
    """A version or hand number as a form sends it: None when missing; 400 when not one."""
    if not value:
        return None
    number = whole_number(value, least=0)
    if number is None:
        abort(400)
    return number


def _game() -> tuple[Game, rules.RuleSystem]:
    """The game with its sides; its hands are loaded only by the pages that show them."""
    game = door.game()
    return game, system_of(game)


def _director() -> bool:
    """Whether this phone is behind the table's PIN (a club night's director is)."""
    return access.may(Access.TABLE)


def _for_the_director(round_number: int) -> ResponseReturnValue:
    """403: the PIN's page, saying why; what was typed goes on once the PIN is right."""
    return access.refusal(
        _(
            "Round %(round)s has ended: only the director, with the table's PIN, may change"
            " its hands now.",
            round=round_number,
        )
    )


def _closed_to_this_phone(game: Game) -> ResponseReturnValue | None:
    """A hand of a club night's round that is over is the director's: a phone that came in
    through its table card is asked for the PIN (services.nights.ForTheDirector says why)."""
    if _director():
        return None
    number = round_over(game)
    return None if number is None else _for_the_director(number)


def _preview(game: Game, hand: rules.Hand, replacing: int | None) -> rules.HandResult:
    """The hand scored as the next one, or in place of live hand number `replacing` + 1."""
    if replacing is None:
        return rules.extend(engine_game(game, []), replay_of(game), hand).hands[-1]
    hands = [engine_hand(h) for h in with_hands(game).live_hands]
    hands[replacing] = hand
    return rules.replay(engine_game(game, hands)).hands[replacing]


def _form_page(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    *,
    status: int = 200,
    **shown: Any,
) -> tuple[str, int]:
    """The hand form as this visitor gets it: drawn afresh (a posted form), with its tokens."""
    return _page(hand_form_page(game, system, form, **shown), form.token.data), status


def _page(drawn: caching.Drawn, token: str | None) -> str:
    """The page around a drawn hand form: the visitor's CSRF token and the form's one-time
    token are written here, never into what is kept (`caching.part`)."""
    return render_template("hand_form.html", drawn=drawn, token=token)


def _handle(game: Game, system: rules.RuleSystem, hand: Hand | None) -> ResponseReturnValue:
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
        version = sent_number(form.version.data) or 0
        saved_id = correct_hand(game_id, hand.id, engine, version, director=_director())
    except ForTheDirector as closed:
        return _for_the_director(closed.round)
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
        place_conflicts(form, current.hand, engine, system)
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
    except TableClosed as closed:
        if closed.code == "complete":
            why = _(
                "Round %(round)s is %(hands)s hands, all played here: this hand was not saved.",
                round=closed.round,
                hands=closed.hands,
            )
        else:
            why = _(
                "Round %(round)s has ended: this table's game takes no more hands, and this"
                " hand was not saved.",
                round=closed.round,
            )
        return _form_page(game, system, form, loose=[why], refused=True, status=409)
    except HandSaved as already:
        saved = already.saved
        number = saved.number
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
def new() -> ResponseReturnValue:
    if request.method == "GET":
        if door.over():
            return redirect(url_for("games.scoreboard", game_id=door.game_id()))
        return _page(caching.part(_blank_form), new_token())
    # A form sent again after it ended the game is still answered as the first time was.
    return _handle(*_game(), None)


def _blank_form() -> caching.Drawn:
    """A new hand's form as every visitor gets it (its one-time token is the visitor's)."""
    game, system = _game()
    form = hand_form(game, after=last_position(game.id))
    return hand_form_page(game, system, form, blank=True)


def _hand(game: Game, hand_id: int) -> Hand:
    """One of the game's hands, deleted or not (the pages of a hand show the game's others)."""
    hand = next((h for h in with_hands(game).hands if h.id == hand_id), None)
    if hand is None:
        abort(404)
    return hand


@bp.route("/<id:hand_id>/edit", methods=["GET", "POST"])
@form_view
@needs(Access.JOIN)
def edit(hand_id: int) -> ResponseReturnValue:
    game, system = _game()
    hand = _hand(game, hand_id)
    closed = _closed_to_this_phone(game)
    if closed is not None:
        return closed
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
    number = live_number(hand, with_hands(game).live_hands)
    scored = replay_of(game).hands[number - 1] if number is not None else None
    return render_template(
        "hand.html",
        game=game,
        system=system,
        hand=hand,
        number=number,
        scored=scored,
        in_words=_in_words(game, hand),
    )


def _in_words(game: Game, hand: Hand) -> dict[int, list[list[tuple[str, str]]]]:
    """What each correction of the hand found and left, in words (a deleted hand's "What it
    was"), by the correction's id."""
    return {
        c.id: [hand_in_words(game, kept) if kept else [] for kept in (c.before, c.after)]
        for c in hand.corrections
    }


@bp.route("/<id:hand_id>/delete", methods=["GET", "POST"])
@needs(Access.JOIN)
def delete(hand_id: int) -> ResponseReturnValue:
    """Asks once (a page, no script needed), then takes the hand out of the game."""
    game, _system = _game()
    game_id = game.id
    hand = _hand(game, hand_id)
    number = live_number(hand, with_hands(game).live_hands)
    if number is None:
        return redirect(url_for("hands.show", game_id=game.id, hand_id=hand.id))
    closed = _closed_to_this_phone(game)
    if closed is not None:
        return closed
    if request.method == "GET":
        return render_template("hand_delete.html", game=game, hand=hand, number=number)
    try:
        version = sent_number(request.form.get("version")) or 0
        delete_hand(game.id, hand.id, version, director=_director())
    except ForTheDirector as ended:
        return _for_the_director(ended.round)
    except HandChanged:
        return redirect(url_for("hands.show", game_id=game_id, hand_id=hand_id, changed=1))
    return redirect(url_for("games.scoreboard", game_id=game_id))


@bp.post("/<id:hand_id>/restore")
@needs(Access.JOIN)
def restore(hand_id: int) -> ResponseReturnValue:
    """Bring a deleted hand back in its place, unless that would break a rule."""
    game, system = _game()
    game_id = game.id
    hand = _hand(game, hand_id)
    closed = _closed_to_this_phone(game)
    if closed is not None:
        return closed
    try:
        restore_hand(game.id, hand.id, director=_director())
    except ForTheDirector as ended:
        return _for_the_director(ended.round)
    except HandChanged:
        return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{hand_id}"))
    except HandRefused as refused:
        loose = [cited(v, game.id) for v in refused.violations]
        page = render_template(
            "hand.html",
            game=game,
            system=system,
            hand=hand,
            number=None,
            scored=None,
            loose=loose,
            in_words=_in_words(game, hand),
        )
        return page, 422
    return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{hand_id}"))

"""Hands: record one, preview its score, read its breakdown, correct or delete it."""

from __future__ import annotations

from flask import (
    Blueprint,
    abort,
    current_app,
    g,
    redirect,
    render_template,
    request,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ... import rules
from ..forms.hand import (
    HandFields,
    Hidden,
    Sent,
    adjust,
    form_data,
    hand_form,
    hand_from_form,
    sent_hand,
)
from ..http import access, caching, compress, door
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters import parts
from ..presenters.game import hand_in_words
from ..presenters.hand_form import Blank, Kind, Outcome, blank, cited, hand_form_page
from ..services.engine import replay_of, system_of
from ..services.errors import HandChanged, HandRefused, HandSaved, HandTaken, StoredHand
from ..services.hands import (
    correct_hand,
    delete_hand,
    last_position,
    live_number,
    record_hand,
    restore_hand,
)
from ..services.loading import with_hands
from ..services.night_tables import ForTheDirector, TableClosed, round_over
from ..store.models import Game, Hand, new_token
from ..store.reads import GameLike

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
    return access.may(Access.PIN)


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
    through its table card is asked for the PIN (services.night_tables.ForTheDirector says why)."""
    if _director():
        return None
    number = round_over(game)
    return None if number is None else _for_the_director(number)


STATUS = {
    Kind.BLANK: 200,
    Kind.OPENED: 200,
    Kind.PREVIEWED: 200,
    Kind.MISTYPED: 422,
    Kind.REFUSED: 422,
    Kind.CHANGED: 409,
    Kind.DELETED: 409,
    Kind.TAKEN: 409,
    Kind.CLOSED: 409,
}
"""The HTTP status of each answer of the hand form: 422 for what was typed, 409 for what another
phone or the night did meanwhile."""


def _answer(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    outcome: Outcome,
    hand: Hand | None = None,
) -> tuple[str, int]:
    """The hand form as this visitor gets it, drawn afresh for `outcome` with everything typed
    (`form`): the one answer of every form sent that is not saved, and of a correction opened."""
    drawn = hand_form_page(game, system, form, outcome, hand)
    return _page(drawn, form.token.data), STATUS[outcome.kind]


def _page(drawn: parts.Drawn, token: str | None) -> str:
    """The page around a drawn hand form: the visitor's CSRF token and the form's one-time
    token are written here, never into what is kept (`parts.kept`)."""
    return render_template("hands/form.html", drawn=drawn, token=token)


def _sent(game: GameLike, system: rules.RuleSystem, hand: Hand | None) -> ResponseReturnValue:
    """A hand form sent, to record a hand (`hand` None) or correct one: drawn again after a
    button, previewed, or saved (a redirect), and otherwise answered with what became of it.
    A new hand is read and saved with the game kept; its row is read only to answer otherwise.
    A new hand's Save sent with plainly good values is read without building the form's fields
    (`sent_hand`): the form is built only to be shown again."""
    plain = _plainly_saved(game) if hand is None else None
    if plain is not None:
        outcome = _save(game, plain.hidden, None, plain.hand)
        if not isinstance(outcome, Outcome):
            return outcome
        form = hand_form(game, formdata=adjust(request.form, system))
        form.validate()  # it takes what the plain reading took: no problem to show
        plain.hidden.into(form)
    else:
        form = hand_form(game, formdata=adjust(request.form, system))
        outcome = _outcome(game, system, form, hand)
    if isinstance(outcome, Outcome):
        return _answer(door.game(), system, form, outcome, hand)
    return outcome


def _plainly_saved(game: GameLike) -> Sent | None:
    """A new hand's form sent to be saved, its token checked, read plainly if it can be."""
    if "bump" in request.form or "count" in request.form:
        return None
    if request.form.get("action", "save") == "preview":
        return None
    if current_app.config.get("WTF_CSRF_ENABLED", True) and not g.get("csrf_valid"):
        return None  # the form says the session expired
    return sent_hand(request.form, game)


def _outcome(
    game: GameLike, system: rules.RuleSystem, form: HandFields, hand: Hand | None
) -> Outcome | ResponseReturnValue:
    """What becomes of a hand form sent: the − / + and Count buttons, a preview, or a Save."""
    if "bump" in request.form or "count" in request.form:
        return Outcome(Kind.OPENED)
    saving = request.form.get("action", "save") != "preview"
    if not form.validate():
        return Outcome(Kind.REFUSED if saving else Kind.MISTYPED)
    typed = hand_from_form(form, system)
    if not saving:
        # Also what the page's script asks for as you type: the scores of the hand, and each
        # problem next to what it is about.
        return Outcome(Kind.PREVIEWED, typed)
    hidden = Hidden.of(form)
    outcome = _save(game, hidden, hand, typed)
    hidden.into(form)
    return outcome


def _save(
    game: GameLike, form: Hidden, hand: Hand | None, typed: rules.Hand
) -> Outcome | ResponseReturnValue:
    """Record a new hand, or correct `hand`; what stopped it as an outcome (or the page of a
    repeated form, or the PIN's). A repeat of a saved form is answered as the first time was.
    `form`: the form's hidden values, changed for the form sent back when another phone saved
    meanwhile."""
    game_id = game.id  # after the commit, reading game.id would load the whole game again
    try:
        if hand is None:
            token = form.token or new_token()
            _id, number = record_hand(game_id, typed, token, sent_number(form.after))
            # The notice rides on the address, so a repeated Save gets the very same answer,
            # and a page that saves in the background can show it too. The scoreboard opens
            # at its top: the new totals, then who deals next and "Record hand N+1".
            return redirect(url_for("games.scoreboard", game_id=game_id, saved=number))
        version = sent_number(form.version) or 0
        saved_id = correct_hand(game_id, hand.id, typed, version, director=_director())
        return redirect(url_for("games.scoreboard", game_id=game_id, _anchor=f"hand-{saved_id}"))
    except HandRefused as refused:
        return Outcome(Kind.REFUSED, typed, broken=tuple(refused.violations))
    except HandChanged as changed:
        form.version = str(changed.current.version)
        if changed.current.deleted:
            return Outcome(Kind.DELETED)
        return Outcome(Kind.CHANGED, typed, theirs=changed.current.hand)
    except HandTaken as taken:
        # Saving again from this page saves the typed hand after the one recorded meanwhile.
        form.after = str(last_position(game_id))
        return Outcome(Kind.TAKEN, number=_taken_number(door.game(), taken))
    except TableClosed as closed:
        complete = closed.hands if closed.code == "complete" else None
        return Outcome(Kind.CLOSED, number=closed.round, hands=complete)
    except HandSaved as already:
        return _saved_already(door.game(), already.saved)
    except ForTheDirector as ended:
        return _for_the_director(ended.round)


def _taken_number(game: Game, taken: HandTaken) -> int:
    """The number of the first hand someone else recorded meanwhile that is still there (the
    last one if none is; 0 when the game has none)."""
    live = with_hands(game).live_hands
    ids = [h.id for h in live]
    first = next((ids.index(h.id) for h in taken.recorded if h.id in ids), len(live) - 1)
    return first + 1


def _saved_already(game: Game, saved: StoredHand) -> tuple[str, int]:
    """A form whose hand was saved already, sent again with another hand: that hand's page."""
    number = saved.number
    scored = replay_of(game).hands[number - 1] if number is not None else None
    page = render_template("hands/saved.html", game=game, hand=saved, number=number, scored=scored)
    return page, 409


@bp.route("/new", methods=["GET", "POST"])
@form_view
@needs(Access.JOIN)
@door.peeks
def new() -> ResponseReturnValue:
    if request.method == "GET":
        if door.over():
            return redirect(url_for("games.scoreboard", game_id=door.game_id()))

        # What the form shows of the game and its holes' values, worked out once a revision.
        shown, holes = parts.kept(lambda: caching.revision_key("blank hand form"), _blank_shown)

        def page() -> str:
            return _page(_blank_form(), parts.hole("token"))

        # Kept across revisions: a hand recorded changes the holes' values (the title, the
        # totals), seldom what the page shows; the one-time token fresh for each visitor.
        kept = parts.kept_page(lambda: caching.page_key(shows=shown.shows), page)
        return compress.respond(kept, token=new_token(), **holes)
    # A form sent again after it ended the game is still answered as the first time was.
    game = door.kept().game
    return _sent(game, system_of(game), None)


def _blank_shown() -> tuple[Blank, dict[str, str]]:
    shown = blank(door.kept())
    return shown, shown.holes()


def _blank_form() -> parts.Drawn:
    """A new hand's form as every visitor gets it (its one-time token is the visitor's)."""
    kept = door.kept()
    return hand_form_page(kept, system_of(kept.game), hand_form(kept.game), Outcome(Kind.BLANK))


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
    if request.method == "GET":
        if hand.deleted_at is not None:
            return redirect(url_for("hands.show", game_id=game.id, hand_id=hand.id))
        opened = hand_form(game, data=form_data(hand))
        return _answer(game, system, opened, Outcome(Kind.OPENED), hand)
    if hand.deleted_at is None:
        return _sent(game, system, hand)
    # Its form was open on another phone: whatever was pressed, nothing is saved or scored.
    form = hand_form(game, formdata=adjust(request.form, system))
    return _answer(game, system, form, Outcome(Kind.DELETED), hand)


@bp.get("/<id:hand_id>")
@needs(Access.FOLLOW)
def show(hand_id: int) -> str:
    """A hand's breakdown: every line of every side's score, with its rule."""
    game, system = _game()
    hand = _hand(game, hand_id)
    number = live_number(hand, with_hands(game).live_hands)
    scored = replay_of(game).hands[number - 1] if number is not None else None
    return render_template(
        "hands/hand.html",
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
        return render_template("hands/delete.html", game=game, hand=hand, number=number)
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
            "hands/hand.html",
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

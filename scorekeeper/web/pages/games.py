"""Games: the list, setting up a new one, and the scoreboard."""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import rules
from ..extensions import db
from ..forms.game import RenameGameForm, new_game_form, seats_of
from ..http import access, caching, compress, door
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..http.i18n import COOKIE, LANGUAGES
from ..http.security import on_this_site
from ..presenters import game as presenters
from ..presenters import nights as night_presenters
from ..presenters import parts
from ..services import games as games_service
from ..services.errors import PartOfANight
from ..services.games import KEPT_DELETED, create_game
from ..services.house_rules import as_game_rules
from ..store import queries
from ..store.columns import one_time_token
from ..store.models import Game, HouseRule, new_token

bp = Blueprint("games", __name__)


def _house_rule_asked() -> HouseRule:
    """The house rule a `?house=` argument names (404 when there is none)."""
    rule_id = whole_number(request.args["house"])
    if rule_id is None:
        abort(404)
    return db.get_or_404(HouseRule, rule_id)


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
@needs(Access.PIN)
def index() -> str:
    return render_template(
        "games/index.html",
        games=queries.home_games(),
        any_archived=queries.any_archived(),
        any_deleted=games_service.purge_deleted(),
        systems=rules.SYSTEMS,
    )


@bp.get("/games/archived")
@needs(Access.PIN)
def archived() -> str:
    """The games put away from the home page, from where each can be brought back."""
    return render_template(
        "games/archived.html", games=queries.home_games(archived=True), systems=rules.SYSTEMS
    )


@bp.get("/games/deleted")
@needs(Access.PIN)
def deleted() -> str:
    """The games deleted in the last days, from where each can be brought back; those deleted
    longer ago are purged first."""
    games_service.purge_deleted()
    return render_template(
        "games/deleted.html",
        games=queries.deleted_games(),
        systems=rules.SYSTEMS,
        days=KEPT_DELETED.days,
    )


@bp.post("/games/deleted")
@needs(Access.PIN)
def bring_back() -> Response:
    """Bring a deleted game back (the game's id in the form: its own address is a 404 while it
    is deleted). Pressed twice, or for a game purged meanwhile, it says the game is not there."""
    game_id = request.form.get("game", "")
    if not games_service.bring_back(game_id):
        flash(_("That game is not among the recently deleted ones."))
        return redirect(url_for("games.deleted"))
    flash(_("The game is back, with all its hands."))
    return redirect(url_for("games.index"))


@bp.route("/games/new", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def new() -> str | Response | tuple[str, int]:
    """Step by step, so it works without JavaScript: the system, the table, then the names.

    `?house=ID` starts from a saved house rule instead of a system: its system, its options and
    a copy of its numbers, which the game keeps whatever later happens to the house rule.
    """
    house = _house_rule_asked() if "house" in request.args else None
    system = rules.SYSTEMS.get(house.system_id if house else request.args.get("system", ""))
    if system is None:
        systems, houses = rules.SYSTEMS.values(), queries.house_rules()
        return render_template("games/new/system.html", systems=systems, houses=houses)
    table = _table(request.args.get("table"), system)
    if table is None:
        return render_template("games/new/table.html", system=system, house=house)
    form = new_game_form(system, *table, house)
    if form.validate_on_submit():
        options = list(house.options) if house else form.chosen_options(system)
        snapshot = as_game_rules(house) if house else None
        game_id = create_game(
            system.id,
            options,
            form.new_sides(),
            snapshot,
            first_dealer=form.first_dealer.data or 0,
            token=form.one_time_token(),
        )
        return redirect(url_for("games.scoreboard", game_id=game_id))
    players = table[1]
    page = render_template(
        "games/new/names.html",
        system=system,
        form=form,
        players=players,
        house=house,
        seats=seats_of(form),
    )
    return page, (422 if form.is_submitted() else 200)


def _scoreboard_drawn() -> parts.Drawn:
    """The scoreboard as its followers see it and as the phone that saved its last hand sees
    it: one drawing, kept whatever the query; that hand's notice and its scores lit up beside
    the totals are holes, filled for the phone that saved it alone. A phone with the join link
    records hands: it is shown no control that needs the PIN."""
    variant = "pin" if access.may(Access.PIN) else "join"
    return parts.kept(lambda: caching.part_key(variant, query=False), _board)


@bp.get("/games/<game_id>")
@needs(Access.FOLLOW)
@door.peeks
@parts.carried(lambda: _scoreboard_drawn() if access.may(Access.JOIN) else None)
def scoreboard() -> Response:
    if not access.may(Access.JOIN):
        # A phone with the follow link watches: the scoreboard without what it cannot use.
        return redirect(url_for("games.follow", game_id=door.game_id()))
    saved = request.args.get("saved", type=int)  # the hand just saved, for its notice
    managing = access.may(Access.PIN)

    def page(drawn: parts.Drawn) -> str:
        return render_template(
            "games/scoreboard.html", drawn=drawn, token=parts.hole("token"), managing=managing
        )

    kept = parts.kept_around(
        lambda: caching.page_key(query=False),
        lambda drawn: _frame_key(drawn, query=False),
        page,
        _scoreboard_drawn,
    )
    board = _values()
    # Not over totals that a correction made since has changed (the news says what changed).
    just_saved = saved is not None and saved == board.last_hand and not board.corrected
    notice = render_template("games/_saved.html", number=saved) if just_saved else ""
    # "Play again"'s one-time token, fresh for each visitor.
    return compress.respond(
        kept, token=new_token(), notice=notice, lit=" changed" if just_saved else ""
    )


def _frame_key(drawn: parts.Drawn, query: bool = True) -> parts.Key:
    """What a following page's frame is kept under: all that its page is, but its revision
    for the title the body shows (a rename changes it)."""
    return lambda: caching.page_key(query=query, shows=("frame", drawn.title))


def _values() -> presenters.Scoreboard:
    """The scoreboard's values at the revision read, in the page's language: worked out once
    for the phone that saved the last hand, its followers and the follow page."""
    return parts.kept(
        lambda: caching.revision_key("scoreboard"), lambda: presenters.scoreboard(door.kept())
    )


def _board(read_only: bool = False) -> parts.Drawn:
    """The scoreboard as every visitor sees it, or read only (the follow page: nothing that
    changes the game); where the phone that saved the last hand sees its notice, holes."""
    board = _values()
    seat = night_presenters.night_seat(door.kept().game)

    def render() -> str:
        context = (
            {"read_only": True}
            if read_only
            else {
                "managing": access.may(Access.PIN),
                "notice": parts.hole("notice"),
                "lit": parts.hole("lit"),
            }
        )
        return render_template("games/_scoreboard.html", board=board, night_seat=seat, **context)

    return parts.Drawn(board.title, parts.draw(render))


# --- following the game from other phones (issue 19): read-only pages that follow it -------------


def _follow_drawn() -> parts.Drawn:
    return parts.kept(lambda: caching.part_key("read only", query=False), lambda: _board(True))


@bp.get("/games/<game_id>/follow")
@needs(Access.FOLLOW)
@door.peeks
@parts.carried(_follow_drawn)
def follow() -> Response:
    """The scoreboard for a phone that only watches: nothing on it changes the game."""

    def page(drawn: parts.Drawn) -> str:
        return render_template("games/follow.html", drawn=drawn)

    return compress.respond(parts.kept_around(caching.page_key, _frame_key, page, _follow_drawn))


def _display_drawn() -> parts.Drawn:
    def draw() -> parts.Drawn:
        shown = presenters.display(door.kept())
        body = parts.draw(lambda: render_template("games/_display.html", shown=shown))
        return parts.Drawn(shown.title, body)

    return parts.kept(lambda: caching.part_key(query=False), draw)


@bp.get("/games/<game_id>/display")
@needs(Access.FOLLOW)
@door.peeks
@parts.carried(_display_drawn)
def display() -> Response:
    """The game for a tablet or a TV in the middle of the table, read from two metres."""

    def page(drawn: parts.Drawn) -> str:
        return render_template("games/display.html", drawn=drawn)

    return compress.respond(parts.kept_around(caching.page_key, _frame_key, page, _display_drawn))


@bp.get("/games/<game_id>/table")
@needs(Access.FOLLOW)
def display_before() -> Response:
    """The display's address before it was /display (a tablet's bookmark, a link shared then):
    a permanent redirect there, its query kept."""
    query = request.query_string.decode("latin-1")
    address = url_for("games.display", game_id=door.game_id())
    return redirect(f"{address}?{query}" if query else address, 308)


@bp.get("/games/<game_id>/state.json")
@needs(Access.FOLLOW)
@door.peeks
def state() -> dict[str, object]:
    """What a phone filling in the hand form follows: the game's revision, its hands, whether it
    is over and, once the table played again, where this phone goes (`access.played_on`; an
    unchanged game answers 304 at the door, like every game page)."""
    shown = presenters.game_state(door.kept())
    last_hand = shown.last_hand_id
    return {
        "revision": door.revision(),
        "hands": shown.hands,
        "last": shown.last,
        "over": door.over(),
        "see": None
        if last_hand is None
        else url_for("hands.show", game_id=door.game_id(), hand_id=last_hand),
        "next": access.played_on(),
    }


# --- managing a game: its name, archiving, deleting, playing again --------------------------------


def _manage_page(game: Game, form: RenameGameForm, status: int = 200) -> tuple[str, int]:
    return render_template(
        "games/manage.html", game=game, title=presenters.game_title(game), rename=form
    ), status


@bp.get("/games/<game_id>/manage")
@needs(Access.PIN)
def manage() -> tuple[str, int]:
    game = door.game()
    form = RenameGameForm(prefix="game")
    form.name.data = game.name or ""
    return _manage_page(game, form)


@bp.post("/games/<game_id>/rename")
@form_view
@needs(Access.PIN)
def rename() -> Response | tuple[str, int]:
    form = RenameGameForm(prefix="game")
    if form.validate_on_submit():
        games_service.rename_game(door.game_id(), form.name.data or "")
        flash(_("Renamed.") if (form.name.data or "").strip() else _("The name is taken away."))
        return redirect(url_for("games.manage", game_id=door.game_id()))
    return _manage_page(door.game(), form, 422)


@bp.post("/games/<game_id>/archive")
@needs(Access.PIN)
def archive() -> Response:
    games_service.archive_game(door.game_id())
    flash(_("Archived: the game is off the home page, and still in the history."))
    return redirect(url_for("games.manage", game_id=door.game_id()))


@bp.post("/games/<game_id>/unarchive")
@needs(Access.PIN)
def unarchive() -> Response:
    games_service.archive_game(door.game_id(), archived=False)
    flash(_("Brought back to the home page."))
    return redirect(url_for("games.manage", game_id=door.game_id()))


@bp.route("/games/<game_id>/delete", methods=["GET", "POST"])
@door.when_gone("games.index")
@needs(Access.PIN)
def delete() -> str | Response:
    """Asks first; a deleted game can be brought back from the recently deleted games until
    it is purged (`services.games.KEPT_DELETED`).

    The button pressed twice (a double tap) deletes once: the second press finds the game gone
    and goes to the home page too, where the first one's notice is.
    """
    game = door.game()
    title = presenters.game_title(game)
    asking = {"game": game, "title": title, "days": KEPT_DELETED.days}
    if request.method == "GET":
        night = games_service.night_keeping(game.id)
        return render_template("games/delete.html", **asking, night=night)
    try:
        deleted = games_service.delete_game(door.game_id())
    except PartOfANight as refused:
        return Response(render_template("games/delete.html", **asking, night=refused.night), 409)
    if deleted:
        flash(
            _(
                "The game %(title)s was deleted. It can be brought back from Recently deleted"
                " for %(days)s days.",
                title=title,
                days=KEPT_DELETED.days,
            )
        )
    return redirect(url_for("games.index"))


@bp.post("/games/<game_id>/again")
@needs(Access.PIN)
def play_again() -> Response:
    """A new game for the same table; the form's one-time token makes a double tap start one."""
    token = one_time_token(request.form.get("token")) or new_token()
    new_id = games_service.play_again(door.game_id(), token)
    return redirect(url_for("games.scoreboard", game_id=new_id))


@bp.post("/language")
@needs(Access.PUBLIC)
def language() -> Response:
    chosen = request.form.get("lang", "en")
    back = request.form.get("next", "")
    if not on_this_site(back):
        back = url_for("games.index")
    response = redirect(back)
    if chosen in LANGUAGES:
        response.set_cookie(COOKIE, chosen, max_age=365 * 24 * 3600, samesite="Lax", httponly=True)
    return response

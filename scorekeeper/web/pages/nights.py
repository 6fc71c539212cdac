"""Club nights: setting one up, its seating and table cards, the director's evening, the
standings (live, for the room's screen and the phones), the results; and a table card's landing.

The director's pages are behind the table's PIN. The standings and the results are open to the
night's standings link (its token, on every table card), and a table card gives its phone the
join link of its table's game, round after round."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import Select, select
from werkzeug.wrappers import Response

from ... import nights, rules
from ..extensions import db
from ..forms.night import (
    ArrivingPairForm,
    SeatingFields,
    night_form,
    pairs_asked,
    seating_form,
)
from ..http import access, caching, door, stream
from ..http.access import Access, needs
from ..http.csrf import form_view
from ..presenters import nights as presenters
from ..presenters import parts
from ..presenters.qr import qr_svg
from ..services import live
from ..services import nights as service
from ..services.errors import NotFound
from ..services.games import KEPT_DELETED
from ..services.house_rules import as_game_rules
from ..services.nights import NewNight, NightRefused, SeatingRefused
from ..store import queries
from ..store.columns import NIGHT_PAIRS
from ..store.models import Game, HouseRule, Night

bp = Blueprint("nights", __name__)

HOUSE = "house:"


def refusal_text(refused: NightRefused) -> str:
    """A refused night write, in words."""
    v = refused.values
    messages: dict[str, Callable[[], str]] = {
        "no-pairs-table": lambda: _("This system is not played by two pairs at a table."),
        "player-twice": lambda: _(
            "%(name)s is in two pairs: a player plays in one pair only.", name=v.get("name", "")
        ),
        "too-few-pairs": lambda: _("A night needs at least two pairs."),
        "too-many-rounds": lambda: _(
            "This movement has at most %(most)s rounds for these pairs before two pairs meet"
            " again.",
            most=v.get("most", 0),
        ),
        "night-over": lambda: _("This night has ended: nothing more can change."),
        "round-started": lambda: _(
            "Round %(round)s has started: its seating can no longer change.", round=v.get("round")
        ),
        "not-next-round": lambda: _(
            "Round %(round)s is not the next round: the page was old. Here is the night as it"
            " is now.",
            round=v.get("round"),
        ),
        "round-in-play": lambda: _(
            "Round %(round)s is still being played: end it first.", round=v.get("round")
        ),
        "round-not-in-play": lambda: _(
            "Round %(round)s is not being played: it ended already, or has not started.",
            round=v.get("round"),
        ),
        "no-tables": lambda: _(
            "Round %(round)s has no table with two pairs: there is nothing to play.",
            round=v.get("round"),
        ),
        "no-such-round": lambda: _("There is no round %(round)s.", round=v.get("round")),
        "no-such-pair": lambda: _("There is no pair %(pair)s.", pair=v.get("pair")),
        "no-free-place": lambda: _(
            "Every place is taken: a night holds at most %(most)s pairs.", most=NIGHT_PAIRS
        ),
    }
    return messages.get(refused.code, lambda: refused.code)()


def _night() -> Night:
    try:
        return service.night_of(request.view_args["night_id"] if request.view_args else "")
    except NotFound:
        abort(404)


# --- setting a night up --------------------------------------------------------------------------


@bp.get("/nights")
@needs(Access.TABLE)
def index() -> str:
    live = db.session.scalars(
        select(Night).where(Night.deleted_at.is_(None)).order_by(Night.created_at.desc())
    ).all()
    deleted = db.session.scalars(
        select(Night).where(Night.deleted_at.is_not(None)).order_by(Night.deleted_at.desc())
    ).all()
    return render_template(
        "nights/index.html", nights=live, deleted=deleted, days=KEPT_DELETED.days
    )


def _houses() -> list[tuple[str, str]]:
    return [(f"{HOUSE}{rule.id}", rule.name) for rule in queries.house_rules()]


@bp.route("/nights/new", methods=["GET", "POST"])
@form_view
@needs(Access.TABLE)
def new() -> str | Response | tuple[str, int]:
    """Two steps, so that it works without JavaScript: how many pairs, then the night."""
    count = pairs_asked(request.args.get("pairs"))
    if count is None:
        wrong = "pairs" in request.args
        return render_template("nights/pairs.html", wrong=wrong), (422 if wrong else 200)
    form = night_form(count, _houses())
    loose: list[str] = []
    if form.validate_on_submit():
        system_id, options, house_rules = _system(form.system.data or "")
        new_night = NewNight(
            name=" ".join((form.name.data or "").split()),
            system_id=system_id,
            options=options,
            house_rules=house_rules,
            movement=nights.Movement(form.movement.data),
            ranking=nights.Ranking(form.ranking.data),
            round_count=form.round_count.data or 1,
            round_hands=form.round_hands.data,
            round_minutes=form.round_minutes.data,
            pairs=[
                (
                    " ".join((p.form.first.data or "").split()),
                    " ".join((p.form.second.data or "").split()),
                )
                for p in form.pairs
            ],
        )
        try:
            night_id = service.set_up_night(new_night, form.one_time_token())
        except NightRefused as refused:
            field = {"round_count": form.round_count, "system_id": form.system}.get(
                refused.field or ""
            )
            if field is not None:
                field.errors = [*field.errors, refusal_text(refused)]
            else:
                loose.append(refusal_text(refused))
        else:
            return redirect(url_for("nights.seating", night_id=night_id))
    page = render_template(
        "nights/new.html",
        form=form,
        count=count,
        loose=loose,
        players=queries.known_players(),
        tables=nights.tables_for(count),
    )
    return page, (422 if form.is_submitted() else 200)


def _system(chosen: str) -> tuple[str, list[str], dict[str, Any] | None]:
    """A system id, or a saved house rule's system, options and a copy of its numbers."""
    if chosen.startswith(HOUSE):
        rule = db.session.get(HouseRule, int(chosen.removeprefix(HOUSE)))
        if rule is None:
            abort(404)
        return rule.system_id, list(rule.options), as_game_rules(rule)
    if chosen not in rules.SYSTEMS:
        abort(404)
    return chosen, [], None


# --- before play: the seating, the table cards ---------------------------------------------------


@bp.route("/nights/<night_id>/seating", methods=["GET", "POST"])
@form_view
@needs(Access.TABLE)
def seating(night_id: str) -> str | tuple[str, int] | Response:
    """Who sits where in every round, to print before play; a round not started can be
    changed (`?round=N` opens its form)."""
    night = _night()
    rounds = presenters.seating(night)
    asked = request.args.get("round", "")
    editing = next((r for r in night.rounds if str(r.number) == asked), None)
    form = None
    problems: list[str] = []
    status = 200
    if editing is not None and editing.started_at is None:
        form = seating_form(len(night.tables))
        if not form.is_submitted():
            by_table = {s.table: s for s in editing.seats}
            for index, entry in enumerate(form.seats):
                seat = by_table.get(index + 1)
                entry.form.ns.data = seat.ns if seat else None
                entry.form.ew.data = seat.ew if seat else None
        elif form.validate_on_submit():
            seats = [
                nights.Seat(index + 1, entry.form.ns.data, entry.form.ew.data)
                for index, entry in enumerate(form.seats)
                if entry.form.ns.data is not None and entry.form.ew.data is not None
            ]
            try:
                service.change_seating(night.id, editing.number, seats)
            except SeatingRefused as refused:
                problems = _place_seating_problems(form, refused.problems)
                status = 422
            except NightRefused as refused:
                problems = [refusal_text(refused)]
                status = 422
            else:
                flash(_("Round %(round)s's seating is changed.", round=editing.number))
                return redirect(url_for("nights.seating", night_id=night.id))
        else:
            status = 422
    page = render_template(
        "nights/seating.html",
        night=night,
        rounds=rounds,
        editing=editing,
        form=form,
        problems=problems,
        refused=status == 422,
    )
    return page, status


def _place_seating_problems(
    form: SeatingFields, problems: Sequence[nights.SeatingProblem]
) -> list[str]:
    """Each problem next to the field it is about (a table's pair); what is about the whole
    round, returned to be shown above the form."""
    loose = []
    for problem in problems:
        text = _seating_problem(problem)
        if problem.table is None or problem.place is None or problem.table > len(form.seats):
            loose.append(text)
            continue
        field = form.seats[problem.table - 1].form[problem.place.value]
        field.errors = [*field.errors, text]
    return loose


def _seating_problem(problem: nights.SeatingProblem) -> str:
    if problem.code == "no-tables":
        return _(
            "Round %(round)s has no table: give at least one table two pairs.", round=problem.round
        )
    if problem.code == "twice":
        return _(
            "Table %(table)s: pair %(pair)s is already at another table this round.",
            table=problem.table,
            pair=problem.pair,
        )
    if problem.code == "itself":
        return _(
            "Table %(table)s: pair %(pair)s cannot play itself.",
            table=problem.table,
            pair=problem.pair,
        )
    return _("Table %(table)s: there is no pair %(pair)s.", table=problem.table, pair=problem.pair)


@bp.get("/nights/<night_id>/cards")
@needs(Access.TABLE)
def cards(night_id: str) -> str:
    """One card per table, to print: its join link and QR code for the whole night."""
    night = _night()
    shown = []
    for table in night.tables:
        url = url_for("nights.table_card", token=table.token, _external=True)
        shown.append((table.number, url, qr_svg(url)))
    standings_url = url_for("nights.standings", token=night.follow_token, _external=True)
    return render_template(
        "nights/cards.html", night=night, cards=shown, standings_url=standings_url
    )


@bp.post("/nights/<night_id>/cards/renew")
@needs(Access.TABLE)
def renew_cards(night_id: str) -> Response:
    _night()
    service.renew_cards(night_id)
    flash(_("New table cards made: the old ones no longer work."))
    return redirect(url_for("nights.cards", night_id=night_id))


# --- the director's evening ----------------------------------------------------------------------


@bp.get("/nights/<night_id>")
@needs(Access.TABLE)
def director(night_id: str) -> Response:
    """Every table's progress at a glance (live: a 304 while the night is unchanged), the
    round's buttons, the pairs."""
    night = _night()
    flashed = bool(session.get("_flashes"))  # a notice is shown once: its page is not kept
    tag = caching.etag_for(f"director.{night.revision}")
    if not flashed and request.if_none_match.contains_weak(tag):
        return _tagged(Response(status=304), tag)
    shown = presenters.standings(night, queries.night_tables(night.id))
    page = render_template(
        "nights/director.html",
        night=night,
        shown=shown,
        arriving=ArrivingPairForm(prefix="arriving"),
        standings_url=url_for("nights.standings", token=night.follow_token),
    )
    response = Response(page, mimetype="text/html")
    return response if flashed else _tagged(response, tag)


def _director_write(night_id: str, write: Callable[[], object], done: str) -> Response:
    _night()
    try:
        write()
    except NightRefused as refused:
        flash(refusal_text(refused))
    else:
        flash(done)
    return redirect(url_for("nights.director", night_id=night_id))


def _round_sent() -> int:
    value = request.form.get("round", "")
    return int(value) if value.isdigit() and len(value) < 5 else 0


@bp.post("/nights/<night_id>/start")
@needs(Access.TABLE)
def start_round(night_id: str) -> Response:
    number = _round_sent()
    return _director_write(
        night_id,
        lambda: service.start_round(night_id, number),
        _("Round %(round)s has started: every table's phone moves on to it.", round=number),
    )


@bp.post("/nights/<night_id>/end-round")
@needs(Access.TABLE)
def end_round(night_id: str) -> Response:
    number = _round_sent()
    night = _night()
    unfinished = [
        t.table
        for t in presenters.standings(night, queries.night_tables(night.id)).tables
        if not t.finished
    ]
    done = _("Round %(round)s has ended.", round=number)
    if unfinished:
        done += " " + _(
            "Tables still playing were stopped as they stood: %(tables)s.",
            tables=", ".join(str(t) for t in unfinished),
        )
    return _director_write(night_id, lambda: service.end_round(night_id, number), done)


@bp.post("/nights/<night_id>/end")
@needs(Access.TABLE)
def end_night(night_id: str) -> Response:
    _night()
    service.end_night(night_id)
    flash(_("The night has ended: here are its results."))
    night = service.night_of(night_id)
    return redirect(url_for("nights.results", token=night.follow_token))


@bp.post("/nights/<night_id>/ranking")
@needs(Access.TABLE)
def ranking(night_id: str) -> Response:
    chosen = request.form.get("ranking", "")
    if chosen not in {r.value for r in nights.Ranking}:
        flash(_("Choose one of the rankings."))
        return redirect(url_for("nights.director", night_id=night_id))
    return _director_write(
        night_id,
        lambda: service.set_ranking(night_id, nights.Ranking(chosen)),
        _("The standings are ranked so now."),
    )


def _pair_sent() -> int:
    value = request.form.get("pair", "")
    return int(value) if value.isdigit() and len(value) < 5 else 0


@bp.post("/nights/<night_id>/leaves")
@needs(Access.TABLE)
def pair_leaves(night_id: str) -> Response:
    number = _pair_sent()
    return _director_write(
        night_id,
        lambda: service.set_present(night_id, number, False),
        _("Pair %(pair)s has left: its next opponents sit out.", pair=number),
    )


@bp.post("/nights/<night_id>/returns")
@needs(Access.TABLE)
def pair_returns(night_id: str) -> Response:
    number = _pair_sent()
    return _director_write(
        night_id,
        lambda: service.set_present(night_id, number, True),
        _("Pair %(pair)s is back.", pair=number),
    )


@bp.post("/nights/<night_id>/arrives")
@form_view
@needs(Access.TABLE)
def pair_arrives(night_id: str) -> Response | tuple[str, int]:
    night = _night()
    form = ArrivingPairForm(prefix="arriving")
    if form.validate_on_submit():
        first = " ".join((form.first.data or "").split())
        second = " ".join((form.second.data or "").split())
        try:
            number = service.add_pair(night_id, first, second)
        except NightRefused as refused:
            form.first.errors = [refusal_text(refused)]
        else:
            flash(_("Pair %(pair)s has arrived: it plays from the next round.", pair=number))
            return redirect(url_for("nights.director", night_id=night_id))
    shown = presenters.standings(night, queries.night_tables(night.id))
    page = render_template(
        "nights/director.html",
        night=night,
        shown=shown,
        arriving=form,
        standings_url=url_for("nights.standings", token=night.follow_token),
    )
    return page, 422


@bp.route("/nights/<night_id>/delete", methods=["GET", "POST"])
@needs(Access.TABLE)
def delete(night_id: str) -> str | Response:
    """Asks first; a deleted night comes back with its games, as a deleted game does."""
    if request.method == "GET":
        return render_template("nights/delete.html", night=_night(), days=KEPT_DELETED.days)
    if service.delete_night(night_id):
        flash(
            _(
                "The night was deleted with its games. It can be brought back for %(days)s days.",
                days=KEPT_DELETED.days,
            )
        )
    return redirect(url_for("nights.index"))


@bp.post("/nights/deleted")
@needs(Access.TABLE)
def bring_back() -> Response:
    if service.bring_back_night(request.form.get("night", "")):
        flash(_("The night is back, with its games."))
    else:
        flash(_("That night is not among the deleted ones."))
    return redirect(url_for("nights.index"))


# --- a table's card ------------------------------------------------------------------------------


@bp.get("/tables/<token>")
@needs(Access.PUBLIC)
def table_card(token: str) -> Response | tuple[Response, int]:
    """A table card: its phone goes to its table's game of the round in play (and may record
    its hands); between rounds it waits here, following the night, and moves on by itself."""
    try:
        here = service.at_table(token)
    except NotFound:
        abort(404)
    night = service.night_of(here.night_id)
    if here.game_id is not None:
        access.grant_link(here.game_id, _join_token(here.game_id))
        return redirect(url_for("games.scoreboard", game_id=here.game_id))
    tag = caching.etag_for(night.revision)
    if request.if_none_match.contains_weak(tag):
        return _tagged(Response(status=304), tag), 304
    page = render_template(
        "nights/table.html",
        night=night,
        here=here,
        seating=presenters.seating(night),
        standings_url=url_for("nights.standings", token=night.follow_token),
    )
    return _tagged(Response(page, mimetype="text/html"), tag), (410 if here.ended else 200)


def _join_token(game_id: str) -> str:
    token = db.session.scalar(select(Game.join_token).where(Game.id == game_id))
    return token or ""


def _tagged(response: Response, tag: str) -> Response:
    response.set_etag(tag, weak=True)
    response.cache_control.no_cache = True
    return response


@bp.get("/games/<game_id>/next")
@needs(Access.FOLLOW)
def next_game() -> Response:
    """From a night's game, the game its table plays now (the same access: a phone that may
    record hands at this table may at its next game)."""
    here = service.next_at_table(door.game_id())
    if here is None:
        return redirect(url_for("games.scoreboard", game_id=door.game_id()))
    night = service.night_of(here.night_id)
    if here.game_id is None:
        return redirect(url_for("nights.standings", token=night.follow_token))
    game = db.session.get(Game, here.game_id)
    if game is None:
        abort(404)
    recording = access.may(Access.JOIN)
    access.grant_link(game.id, game.join_token if recording else game.follow_token)
    page = "games.scoreboard" if recording else "games.follow"
    return redirect(url_for(page, game_id=game.id))


# --- the standings -------------------------------------------------------------------------------


def _by_token(token: str) -> Night:
    night = db.session.scalar(_standings_of(token))
    if night is None:
        abort(404)
    return night


def _standings_of(token: str) -> Select[Night]:
    return select(Night).where(Night.follow_token == token, Night.deleted_at.is_(None))


@bp.get("/standings/<token>/events")
@needs(Access.PUBLIC)
@caching.never_kept
def events(token: str) -> Response:
    """The night's revision now and at each change (http/stream.py): what its live pages (the
    standings, the director's page, a table card between rounds) follow. One stream for the
    three, open to the standings link, since the revision tells no more than the standings."""
    night = _by_token(token)

    def still_there() -> bool:
        return db.session.scalar(_standings_of(token)) is not None

    return stream.respond(live.night_key(night.id), night.revision, still_there)


def _ranking_asked(night: Night) -> nights.Ranking:
    asked = request.args.get("by", "")
    known = {r.value: r for r in nights.Ranking}
    return known.get(asked, nights.Ranking(night.ranking))


def _drawn(night: Night, template: str) -> parts.Drawn:
    """The standings drawn once per revision of the night, language and ranking shown."""
    by = _ranking_asked(night)

    def draw() -> parts.Drawn:
        shown = presenters.standings(night, queries.night_tables(night.id), by)
        body = render_template(template, shown=shown, night=night)
        return parts.Drawn(shown.name, Markup(body))

    key = ("night", template, night.id, night.revision, str(get_locale()), by.value)
    return parts.kept(key, draw)


def _conditional(night: Night) -> str | None:
    """The night page's ETag, or None when the phone's copy is current (a 304)."""
    tag = caching.etag_for(f"{night.revision}.{_ranking_asked(night).value}")
    return None if request.if_none_match.contains_weak(tag) else tag


def _not_modified(night: Night) -> Response:
    tag = caching.etag_for(f"{night.revision}.{_ranking_asked(night).value}")
    return _tagged(Response(status=304), tag)


@bp.get("/standings/<token>")
@needs(Access.PUBLIC)
def standings(token: str) -> Response:
    """The standings for the room's screen and the phones: live, drawn once per change."""
    night = _by_token(token)
    tag = _conditional(night)
    if tag is None:
        return _not_modified(night)
    drawn = _drawn(night, "nights/_standings.html")
    page = render_template("nights/standings.html", drawn=drawn, night=night, token=token)
    return _tagged(Response(page, mimetype="text/html"), tag)


@bp.get("/standings/<token>/state.json")
@needs(Access.PUBLIC)
def state(token: str) -> Response:
    """The night's revision, for a page (or a push) that follows it: 304 while unchanged."""
    night = _by_token(token)
    tag = _conditional(night)
    if tag is None:
        return _not_modified(night)
    body = {
        "revision": night.revision,
        "round": night.current_round,
        "ended": night.ended_at is not None,
    }
    return _tagged(jsonify(body), tag)


@bp.get("/standings/<token>/results")
@needs(Access.PUBLIC)
def results(token: str) -> Response:
    """The results, to print and to send: the standings, every round's tables, the text."""
    night = _by_token(token)
    tag = _conditional(night)
    if tag is None:
        return _not_modified(night)
    shown = presenters.standings(night, queries.night_tables(night.id), _ranking_asked(night))
    text = render_template("nights/results.txt", shown=shown, night=night)
    page = render_template(
        "nights/results.html",
        shown=shown,
        night=night,
        text=text,
        seating=presenters.seating(night),
        token=token,
    )
    return _tagged(Response(page, mimetype="text/html"), tag)


@bp.get("/standings/<token>/results.csv")
@needs(Access.PUBLIC)
def results_csv(token: str) -> Response:
    night = _by_token(token)
    shown = presenters.standings(night, queries.night_tables(night.id), _ranking_asked(night))
    headings = [_("Place"), _("Pair"), _("Players"), _("Points"), _("Wins"), _("Difference")]
    body = presenters.results_csv(shown, headings)
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = "attachment; filename=results.csv"
    return response


@bp.get("/standings/<token>/results.txt")
@needs(Access.PUBLIC)
def results_text(token: str) -> Response:
    night = _by_token(token)
    shown = presenters.standings(night, queries.night_tables(night.id), _ranking_asked(night))
    text = render_template("nights/results.txt", shown=shown, night=night)
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = "attachment; filename=results.txt"
    return response

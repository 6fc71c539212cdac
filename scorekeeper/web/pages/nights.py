"""Club nights: setting one up, its seating and table cards, deleting one and bringing it back;
and a table card's landing (the director's evening: director.py; the standings and the results:
standings.py).

These pages are behind the table's PIN, but a table card's, which gives its phone the join link
of its table's game, round after round. A night's pages come in through its door (http/door.py:
the night, or the table card, in the address), which reads the night and answers a phone whose
copy is current with a 304 (http/caching.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import nights, rules
from ..forms.night import (
    SeatingFields,
    night_form,
    seating_form,
)
from ..http import access, caching, door
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters import nights as presenters
from ..presenters.night_refusals import refusal_text, seating_problem
from ..presenters.qr import qr_svg
from ..presenters.seasons import refusal_text as season_refusal
from ..presenters.seasons import season_choice
from ..services import access as access_service
from ..services import night_tables, seasons
from ..services import nights as service
from ..services.games import KEPT_DELETED
from ..services.house_rules import as_game_rules
from ..services.night_setup import NewNight, set_up_night
from ..services.nights import NightRefused, SeatingRefused
from ..services.seasons import SeasonRefused
from ..store import queries
from ..store.columns import NIGHT_PAIRS

bp = Blueprint("nights", __name__)

HOUSE = "house:"


# --- setting a night up --------------------------------------------------------------------------


@bp.get("/nights")
@needs(Access.PIN)
def index() -> str:
    live, deleted = queries.nights_listed()
    return render_template(
        "nights/index.html", nights=live, deleted=deleted, days=KEPT_DELETED.days
    )


def _houses() -> list[tuple[str, str]]:
    return [(f"{HOUSE}{rule.id}", rule.name) for rule in queries.house_rules()]


@bp.route("/nights/new", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def new() -> str | Response | tuple[str, int]:
    """Two steps, so that it works without JavaScript: how many pairs, then the night."""
    count = whole_number(request.args.get("pairs"), least=2, most=NIGHT_PAIRS)
    if count is None:
        wrong = "pairs" in request.args
        return render_template("nights/pairs.html", wrong=wrong), (422 if wrong else 200)
    form = night_form(count, _houses(), _seasons())
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
            season_id=form.season_id(),
        )
        try:
            night_id = set_up_night(new_night, form.one_time_token())
        except SeasonRefused as refused:
            form.season.errors = [*form.season.errors, season_refusal(refused)]
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


def _seasons() -> list[tuple[str, str, bool]]:
    """The seasons a night may be set up in, newest first: a full one shown, not chosen."""
    return [(room.id, season_choice(room), room.full) for room in seasons.seasons_with_room()]


def _system(chosen: str) -> tuple[str, list[str], dict[str, Any] | None]:
    """A system id, or a saved house rule's system, options and a copy of its numbers."""
    if chosen.startswith(HOUSE):
        rule_id = whole_number(chosen.removeprefix(HOUSE))
        rule = None if rule_id is None else queries.house_rule(rule_id)
        if rule is None:
            abort(404)
        return rule.system_id, list(rule.options), as_game_rules(rule)
    if chosen not in rules.SYSTEMS:
        abort(404)
    return chosen, [], None


# --- before play: the seating, the table cards ---------------------------------------------------


@bp.route("/nights/<night_id>/seating", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def seating() -> str | tuple[str, int] | Response:
    """Who sits where in every round, to print before play; a round not started can be
    changed (`?round=N` opens its form)."""
    night = door.night()
    rounds = presenters.seating(night)
    asked = request.args.get("round", "")
    editing = next((r for r in night.rounds if str(r.number) == asked), None)
    form = None
    problems: list[str] = []
    status = 200
    # A round that started offers no form; one sent for it anyway (an old page) is the
    # service's to refuse, in words, with what was typed.
    if editing is not None and (editing.started_at is None or request.method == "POST"):
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
        text = seating_problem(problem)
        if problem.table is None or problem.place is None or problem.table > len(form.seats):
            loose.append(text)
            continue
        field = form.seats[problem.table - 1].form[problem.place.value]
        field.errors = [*field.errors, text]
    return loose


@bp.get("/nights/<night_id>/cards")
@needs(Access.PIN)
def cards() -> str:
    """One card per table, to print: its join link and QR code for the whole night, and who
    plays at it round after round; and the standings' link and QR code for the room."""
    night = door.night()
    rounds = presenters.seating(night)
    shown = []
    for table in night.tables:
        url = url_for("nights.table_card", card_token=table.token, _external=True)
        shown.append(
            (table.number, url, qr_svg(url), presenters.table_rounds(rounds, table.number))
        )
    standings_url = url_for(
        "standings.standings", standings_token=night.follow_token, _external=True
    )
    return render_template(
        "nights/cards.html",
        night=night,
        cards=shown,
        standings_url=standings_url,
        standings_qr=qr_svg(standings_url),
    )


@bp.post("/nights/<night_id>/cards/renew")
@needs(Access.PIN)
def renew_cards() -> Response:
    service.renew_cards(door.night_id())
    flash(_("New table cards made: the old ones no longer work."))
    return redirect(url_for("nights.cards", night_id=door.night_id()))


@bp.route("/nights/<night_id>/delete", methods=["GET", "POST"])
@needs(Access.PIN)
@door.when_gone("nights.index")
def delete() -> str | Response:
    """Asks first; a deleted night comes back with its games, as a deleted game does (pressed
    again once it is deleted, the list of nights)."""
    if request.method == "GET":
        return render_template("nights/delete.html", night=door.night(), days=KEPT_DELETED.days)
    if service.delete_night(door.night_id()):
        flash(
            _(
                "The night was deleted with its games. It can be brought back for %(days)s days.",
                days=KEPT_DELETED.days,
            )
        )
    return redirect(url_for("nights.index"))


@bp.post("/nights/deleted")
@needs(Access.PIN)
def bring_back() -> Response:
    if service.bring_back_night(request.form.get("night", "")):
        flash(_("The night is back, with its games."))
    else:
        flash(_("That night is not among the deleted ones."))
    return redirect(url_for("nights.index"))


# --- a table's card ------------------------------------------------------------------------------


@bp.get("/tables/<card_token>")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def table_card() -> Response | tuple[str, int]:
    """A table card: its phone goes to its table's game of the round in play (and may record
    its hands); between rounds it waits here, following the night, and moves on by itself."""
    night = door.night()
    here = night_tables.table_now(night, door.table())
    if here.game_id is not None:
        tokens = access_service.share_tokens(here.game_id)
        if tokens is None:
            abort(404)
        access.grant_link(here.game_id, tokens[1])
        return redirect(url_for("games.scoreboard", game_id=here.game_id))
    page = render_template(
        "nights/table.html",
        night=night,
        here=here,
        rounds=presenters.table_rounds(presenters.seating(night), here.table),
        standings_url=url_for("standings.standings", standings_token=night.follow_token),
    )
    return page, (410 if here.ended else 200)


@bp.get("/games/<game_id>/next")
@needs(Access.FOLLOW)
def next_game() -> Response:
    """From a night's game, the game its table plays now (the same access: a phone that may
    record hands at this table may at its next game). A table with no game now (it sits out)
    sends a phone that records its hands to its card, where it waits for the next round with
    its table, and a phone that watches to the standings."""
    here = night_tables.next_at_table(door.game_id())
    if here is None:
        return redirect(url_for("games.scoreboard", game_id=door.game_id()))
    if here.game_id is None:
        if access.may(Access.JOIN) and here.card_token:
            return redirect(url_for("nights.table_card", card_token=here.card_token))
        return redirect(url_for("standings.standings", standings_token=here.follow_token))
    tokens = access_service.share_tokens(here.game_id)
    if tokens is None:
        abort(404)
    follow_token, join_token = tokens
    recording = access.may(Access.JOIN)
    access.grant_link(here.game_id, join_token if recording else follow_token)
    page = "games.scoreboard" if recording else "games.follow"
    return redirect(url_for(page, game_id=here.game_id))

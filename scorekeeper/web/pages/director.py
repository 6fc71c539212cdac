"""A club night's evening, for its director behind the table's PIN: every table's progress at a
glance, starting and ending rounds, the ranking, pairs leaving, coming back and arriving, and
the end of the night."""

from __future__ import annotations

from collections.abc import Callable, Mapping

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import nights
from ..forms.night import TABLE, ArrivingPairForm, EndRoundFields, end_round_form
from ..http import door
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters import nights as presenters
from ..presenters.night_refusals import counted_text, refusal_text
from ..services import nights as service
from ..services.nights import NightRefused, Stopped
from ..services.outcomes import in_play
from ..store import queries
from ..store.columns import NIGHT_PAIRS
from ..store.models import Night

bp = Blueprint("director", __name__)


@bp.get("/nights/<night_id>")
@needs(Access.PIN)
def director() -> str:
    """Every table's progress at a glance (live: a 304 while the night is unchanged), the
    round's buttons, the pairs."""
    return _director_page(ArrivingPairForm(prefix="arriving"))


def _director_page(arriving: ArrivingPairForm) -> str:
    night = door.night()
    return render_template(
        "director/director.html",
        night=night,
        shown=presenters.standings(night, queries.night_tables(night.id)),
        arriving=arriving,
        standings_url=url_for("standings.standings", standings_token=night.follow_token),
    )


def _director_write(write: Callable[[], str]) -> Response:
    """A director's button: the write, which says what it did, or why nothing changed."""
    try:
        done = write()
    except NightRefused as refused:
        flash(refusal_text(refused))
    else:
        flash(done)
    return redirect(url_for("director.director", night_id=door.night_id()))


def _number_sent(name: str, sent: Mapping[str, str] | None = None) -> int:
    """The round or pair number a button sent (in its form, or `sent`); NightRefused for what
    is not one (`²` is a digit to `str.isdigit`, not a number), before anything is written."""
    text = (request.form if sent is None else sent).get(name, "")
    number = whole_number(text, most=NIGHT_PAIRS + 1)
    if number is None:
        raise NightRefused("not-a-number", name, sent=text[:20])
    return number


@bp.post("/nights/<night_id>/start")
@needs(Access.PIN)
def start_round() -> Response:
    def write() -> str:
        number = _number_sent("round")
        service.start_round(door.night_id(), number)
        return _("Round %(round)s has started: every table's phone moves on to it.", round=number)

    return _director_write(write)


@bp.route("/nights/<night_id>/end-round", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def end_round() -> Response | tuple[str, int]:
    """Ending the round in play: the tables not finished and what each counts as (asked, the
    stated default checked), then the end. A post without an answer for an unfinished table is
    asked again; one for a round not in play is refused, changing nothing."""
    night = door.night()
    sent = request.args if request.method == "GET" else request.form
    try:
        number = _number_sent("round", sent)
        if number != night.current_round or in_play(night) is None:
            raise NightRefused("round-not-in-play", "round", round=number)
    except NightRefused as refused:
        flash(refusal_text(refused))
        return redirect(url_for("director.director", night_id=door.night_id()))
    return _ending(
        night, number, lambda form: service.end_round(night.id, number, form.counts(), form.seen())
    )


@bp.route("/nights/<night_id>/end", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def end_night() -> Response | tuple[str, int]:
    """The end of the night, asked first (a stray tap on the director's page ends nothing), with
    the round in play, asking what each unfinished table counts as, as ending the round does:
    its results."""
    night = door.night()
    return _ending(
        night, None, lambda form: service.end_night(night.id, form.counts(), form.seen())
    )


def _ending(
    night: Night, number: int | None, end: Callable[[EndRoundFields], list[Stopped]]
) -> Response | tuple[str, int]:
    """A round's end (`number`), or the night's (None): asked first, then done; what each table
    stopped unfinished counts as, said. A table that played on meanwhile is asked again."""
    tables = presenters.unfinished(night, queries.night_tables(night.id))
    form = end_round_form([(t.table, t.hands) for t in tables])
    loose: list[str] = []
    if request.method == "POST" and form.validate_on_submit():
        try:
            stopped = end(form)
        except NightRefused as refused:
            if refused.code != "table-changed":
                flash(refusal_text(refused))
                return redirect(url_for("director.director", night_id=night.id))
            loose.append(refusal_text(refused))
            tables = presenters.unfinished(night, queries.night_tables(night.id))
            form = end_round_form([(t.table, t.hands) for t in tables])
        else:
            return _ended(night, number, stopped)
    page = render_template(
        "director/end_round.html",
        night=night,
        number=number,
        tables=tables,
        form=form,
        fields={t.table: form[f"{TABLE}{t.table}"] for t in tables},
        loose=loose,
    )
    return page, (422 if request.method == "POST" else 200)


def _ended(night: Night, number: int | None, stopped: list[Stopped]) -> Response:
    if number is None:
        flash(_("The night has ended: here are its results."))
    else:
        flash(_("Round %(round)s has ended.", round=number))
    for table in stopped:
        flash(counted_text(table.table, table.counting))
    if number is None:
        return redirect(url_for("standings.results", standings_token=night.follow_token))
    return redirect(url_for("director.director", night_id=night.id))


@bp.post("/nights/<night_id>/ranking")
@needs(Access.PIN)
def ranking() -> Response:
    def write() -> str:
        chosen = request.form.get("ranking", "")
        if chosen not in {r.value for r in nights.Ranking}:
            return _("Choose one of the rankings.")
        service.set_ranking(door.night_id(), nights.Ranking(chosen))
        return _("The standings are ranked so now.")

    return _director_write(write)


@bp.route("/nights/<night_id>/leaves", methods=["GET", "POST"])
@needs(Access.PIN)
def pair_leaves() -> Response | str:
    """Asked first (director/leaves.html: a stray tap lets no pair go), then the pair leaves; it
    may come back between rounds."""
    night = door.night()
    try:
        number = _number_sent("pair", request.values)
        pair = service.may_leave(night, number)
    except NightRefused as refused:
        flash(refusal_text(refused))
        return redirect(url_for("director.director", night_id=night.id))
    if request.method == "GET" or request.form.get("confirm") != "yes":
        return render_template("director/leaves.html", night=night, pair=pair)

    def write() -> str:
        service.set_present(night.id, number, False)
        return _("Pair %(pair)s has left: its next opponents sit out.", pair=number)

    return _director_write(write)


@bp.post("/nights/<night_id>/returns")
@needs(Access.PIN)
def pair_returns() -> Response:
    def write() -> str:
        number = _number_sent("pair")
        service.set_present(door.night_id(), number, True)
        return _("Pair %(pair)s is back.", pair=number)

    return _director_write(write)


@bp.post("/nights/<night_id>/arrives")
@form_view
@needs(Access.PIN)
def pair_arrives() -> Response | tuple[str, int]:
    form = ArrivingPairForm(prefix="arriving")
    if form.validate_on_submit():
        first = " ".join((form.first.data or "").split())
        second = " ".join((form.second.data or "").split())
        try:
            number = service.add_pair(door.night_id(), first, second)
        except NightRefused as refused:
            form.first.errors = [refusal_text(refused)]
        else:
            flash(_("Pair %(pair)s has arrived: it plays from the next round.", pair=number))
            return redirect(url_for("director.director", night_id=door.night_id()))
    return _director_page(form), 422

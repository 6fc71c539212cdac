"""A club night's evening, for its director behind the table's PIN: every table's progress at a
glance, starting and ending rounds, the ranking, pairs leaving, coming back and arriving, and
the end of the night."""

from __future__ import annotations

from collections.abc import Callable

from flask import Blueprint, flash, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import nights
from ..forms.night import ArrivingPairForm
from ..http import caching
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters import nights as presenters
from ..presenters.night_refusals import refusal_text
from ..services import nights as service
from ..services.nights import NightRefused
from ..store import queries
from ..store.columns import NIGHT_PAIRS

bp = Blueprint("director", __name__)


@bp.get("/nights/<night_id>")
@needs(Access.PIN)
def director(night_id: str) -> Response:
    """Every table's progress at a glance (live: a 304 while the night is unchanged), the
    round's buttons, the pairs."""
    night = service.night_of(night_id)
    flashed = bool(session.get("_flashes"))  # a notice is shown once: its page is not kept
    tag = caching.etag_for(f"director.{night.revision}")
    if not flashed and request.if_none_match.contains_weak(tag):
        return caching.tagged(Response(status=304), tag)
    shown = presenters.standings(night, queries.night_tables(night.id))
    page = render_template(
        "director/director.html",
        night=night,
        shown=shown,
        arriving=ArrivingPairForm(prefix="arriving"),
        standings_url=url_for("standings.standings", token=night.follow_token),
    )
    response = Response(page, mimetype="text/html")
    return response if flashed else caching.tagged(response, tag)


def _director_write(night_id: str, write: Callable[[], str]) -> Response:
    """A director's button: the write, which says what it did, or why nothing changed."""
    service.night_of(night_id)
    try:
        done = write()
    except NightRefused as refused:
        flash(refusal_text(refused))
    else:
        flash(done)
    return redirect(url_for("director.director", night_id=night_id))


def _number_sent(name: str) -> int:
    """The round or pair number a button sent; NightRefused for what is not one (`²` is a
    digit to `str.isdigit`, not a number), before anything is read or written."""
    sent = request.form.get(name, "")
    number = whole_number(sent, most=NIGHT_PAIRS + 1)
    if number is None:
        raise NightRefused("not-a-number", name, sent=sent[:20])
    return number


@bp.post("/nights/<night_id>/start")
@needs(Access.PIN)
def start_round(night_id: str) -> Response:
    def write() -> str:
        number = _number_sent("round")
        service.start_round(night_id, number)
        return _("Round %(round)s has started: every table's phone moves on to it.", round=number)

    return _director_write(night_id, write)


@bp.post("/nights/<night_id>/end-round")
@needs(Access.PIN)
def end_round(night_id: str) -> Response:
    def write() -> str:
        number = _number_sent("round")
        night = service.night_of(night_id)
        unfinished = [
            t.table
            for t in presenters.standings(night, queries.night_tables(night.id)).tables
            if not t.finished
        ]
        service.end_round(night_id, number)
        done = _("Round %(round)s has ended.", round=number)
        if unfinished:
            done += " " + _(
                "Tables still playing were stopped as they stood: %(tables)s.",
                tables=", ".join(str(t) for t in unfinished),
            )
        return done

    return _director_write(night_id, write)


@bp.post("/nights/<night_id>/end")
@needs(Access.PIN)
def end_night(night_id: str) -> Response:
    service.night_of(night_id)
    try:
        service.end_night(night_id)
    except NightRefused as refused:
        flash(refusal_text(refused))
        return redirect(url_for("director.director", night_id=night_id))
    flash(_("The night has ended: here are its results."))
    night = service.night_of(night_id)
    return redirect(url_for("standings.results", token=night.follow_token))


@bp.post("/nights/<night_id>/ranking")
@needs(Access.PIN)
def ranking(night_id: str) -> Response:
    def write() -> str:
        chosen = request.form.get("ranking", "")
        if chosen not in {r.value for r in nights.Ranking}:
            return _("Choose one of the rankings.")
        service.set_ranking(night_id, nights.Ranking(chosen))
        return _("The standings are ranked so now.")

    return _director_write(night_id, write)


@bp.post("/nights/<night_id>/leaves")
@needs(Access.PIN)
def pair_leaves(night_id: str) -> Response:
    def write() -> str:
        number = _number_sent("pair")
        service.set_present(night_id, number, False)
        return _("Pair %(pair)s has left: its next opponents sit out.", pair=number)

    return _director_write(night_id, write)


@bp.post("/nights/<night_id>/returns")
@needs(Access.PIN)
def pair_returns(night_id: str) -> Response:
    def write() -> str:
        number = _number_sent("pair")
        service.set_present(night_id, number, True)
        return _("Pair %(pair)s is back.", pair=number)

    return _director_write(night_id, write)


@bp.post("/nights/<night_id>/arrives")
@form_view
@needs(Access.PIN)
def pair_arrives(night_id: str) -> Response | tuple[str, int]:
    night = service.night_of(night_id)
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
            return redirect(url_for("director.director", night_id=night_id))
    shown = presenters.standings(night, queries.night_tables(night.id))
    page = render_template(
        "director/director.html",
        night=night,
        shown=shown,
        arriving=form,
        standings_url=url_for("standings.standings", token=night.follow_token),
    )
    return page, 422

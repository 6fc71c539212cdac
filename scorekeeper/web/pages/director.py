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
from ..http.csrf import form_view
from ..presenters import nights as presenters
from ..presenters.night_refusals import refusal_text
from ..services import nights as service
from ..services.nights import NightRefused
from ..store import queries
from ..store.models import Night

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
    shown = _standings(night)
    page = render_template(
        "director/director.html",
        night=night,
        shown=shown,
        arriving=ArrivingPairForm(prefix="arriving"),
        standings_url=url_for("standings.standings", token=night.follow_token),
    )
    response = Response(page, mimetype="text/html")
    return response if flashed else caching.tagged(response, tag)


def _director_write(night_id: str, write: Callable[[], object], done: str) -> Response:
    service.night_of(night_id)
    try:
        write()
    except NightRefused as refused:
        flash(refusal_text(refused))
    else:
        flash(done)
    return redirect(url_for("director.director", night_id=night_id))


def _round_sent() -> int:
    value = request.values.get("round", "")
    return int(value) if value.isdigit() and len(value) < 5 else 0


def _confirmed() -> bool:
    """Whether the write was confirmed on its confirmation page: a button of the director's
    page that ends something (a round, the night, a pair's evening) only asks."""
    return request.method == "POST" and request.form.get("confirm") == "yes"


def _standings(night: Night) -> presenters.Standings:
    return presenters.standings(night, queries.night_tables(night.id))


def _asking(night: Night, shown: presenters.Standings, asked: str, **values: object) -> str:
    """The confirmation page of a write that ends something: what it will do, one button that
    does it, and one that keeps everything as it is (the director's page)."""
    return render_template("director/confirm.html", night=night, shown=shown, asked=asked, **values)


def _refused(night_id: str, refused: NightRefused) -> Response:
    flash(refusal_text(refused))
    return redirect(url_for("director.director", night_id=night_id))


@bp.post("/nights/<night_id>/start")
@needs(Access.PIN)
def start_round(night_id: str) -> Response:
    number = _round_sent()
    return _director_write(
        night_id,
        lambda: service.start_round(night_id, number),
        _("Round %(round)s has started: every table's phone moves on to it.", round=number),
    )


@bp.route("/nights/<night_id>/end-round", methods=["GET", "POST"])
@needs(Access.PIN)
def end_round(night_id: str) -> str | Response:
    """Asks first (a stray tap ends nothing), then ends the round; a second press of the
    confirmation ends nothing more (the round it names is over)."""
    number = _round_sent()
    night = service.night_of(night_id)
    shown = _standings(night)
    if not (shown.in_play and shown.round == number):
        return _refused(night_id, NightRefused("round-not-in-play", "round", round=number))
    if not _confirmed():
        return _asking(night, shown, "end-round", number=number)
    unfinished = [t.table for t in shown.tables if not t.finished]
    done = _("Round %(round)s has ended.", round=number)
    if unfinished:
        done += " " + _(
            "Tables still playing were stopped as they stood: %(tables)s.",
            tables=", ".join(str(t) for t in unfinished),
        )
    return _director_write(night_id, lambda: service.end_round(night_id, number), done)


@bp.route("/nights/<night_id>/end", methods=["GET", "POST"])
@needs(Access.PIN)
def end_night(night_id: str) -> str | Response:
    """Asks first, then ends the night: its standings are final."""
    night = service.night_of(night_id)
    if night.ended_at is None and not _confirmed():
        return _asking(night, _standings(night), "end-night")
    service.end_night(night_id)
    flash(_("The night has ended: here are its results."))
    return redirect(url_for("standings.results", token=night.follow_token))


@bp.post("/nights/<night_id>/ranking")
@needs(Access.PIN)
def ranking(night_id: str) -> Response:
    chosen = request.form.get("ranking", "")
    if chosen not in {r.value for r in nights.Ranking}:
        flash(_("Choose one of the rankings."))
        return redirect(url_for("director.director", night_id=night_id))
    return _director_write(
        night_id,
        lambda: service.set_ranking(night_id, nights.Ranking(chosen)),
        _("The standings are ranked so now."),
    )


def _pair_sent() -> int:
    value = request.values.get("pair", "")
    return int(value) if value.isdigit() and len(value) < 5 else 0


@bp.route("/nights/<night_id>/leaves", methods=["GET", "POST"])
@needs(Access.PIN)
def pair_leaves(night_id: str) -> str | Response:
    """Asks first, then the pair leaves (it may come back between rounds)."""
    number = _pair_sent()
    night = service.night_of(night_id)
    shown = _standings(night)
    pair = next((p for p in night.pairs if p.number == number), None)
    if shown.ended:
        return _refused(night_id, NightRefused("night-over"))
    if shown.in_play:  # a pair leaves between rounds
        return _refused(night_id, NightRefused("round-in-play", "round", round=shown.round))
    if pair is None or not pair.present:
        code = "no-such-pair" if pair is None else "pair-left"
        return _refused(night_id, NightRefused(code, "pair", pair=number))
    if not _confirmed():
        return _asking(night, shown, "pair-leaves", pair=pair)
    return _director_write(
        night_id,
        lambda: service.set_present(night_id, number, False),
        _("Pair %(pair)s has left: its next opponents sit out.", pair=number),
    )


@bp.post("/nights/<night_id>/returns")
@needs(Access.PIN)
def pair_returns(night_id: str) -> Response:
    number = _pair_sent()
    return _director_write(
        night_id,
        lambda: service.set_present(night_id, number, True),
        _("Pair %(pair)s is back.", pair=number),
    )


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
    shown = _standings(night)
    page = render_template(
        "director/director.html",
        night=night,
        shown=shown,
        arriving=form,
        standings_url=url_for("standings.standings", token=night.follow_token),
    )
    return page, 422

"""A club's seasons: set one up, change it or delete it (behind the table's PIN), and its
standings, open to its link (on its page with a QR code for the room), as a page and as CSV.

A season's standings are read from its nights as they stand (`presenters.seasons`), and follow
them as they are played: its pages come in through the door by their link (`season_token`),
whose revision is made of the season's and its nights' (`store.seasons.season_revision`), so a
phone whose copy is current gets a 304 (http/caching.py), and the standings' page holds the
season's event stream (`events`) and swaps in what changed, as a night's standings do."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import rules
from ..forms.season import SeasonFields, season_form
from ..http import caching, compress, door, stream
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters import parts
from ..presenters import seasons as presenters
from ..presenters.qr import qr_svg
from ..services import push
from ..services import seasons as service
from ..services.errors import NotFound
from ..services.seasons import SeasonRefused
from ..store import queries
from ..store.seasons import Season
from ..wording import one_language

bp = Blueprint("seasons", __name__)


def _choices() -> list[tuple[str, str]]:
    """Every night there, newest first, each saying the season it counts in, if any."""
    live, _deleted = queries.nights_listed()
    names = service.season_names()
    return [
        (
            night.id,
            night.name
            if night.season_id is None
            else _("%(night)s (in %(season)s)", night=night.name, season=names[night.season_id]),
        )
        for night in live
    ]


def _saved(form: SeasonFields, season_id: str | None) -> str | None:
    """The season written as the form says; None (the refusal next to its field) if refused."""
    try:
        if season_id is None:
            return service.set_up_season(form.plan(), form.one_time_token() or "")
        service.change_season(season_id, form.plan())
    except SeasonRefused as refused:
        field = {"best": form.best, "minimum": form.minimum}.get(refused.field, form.nights)
        field.errors = [*field.errors, presenters.refusal_text(refused)]
        return None
    return season_id


@bp.get("/seasons")
@needs(Access.PIN)
def index() -> str:
    return render_template("seasons/index.html", seasons=service.seasons_listed())


@bp.route("/seasons/new", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def new() -> str | Response | tuple[str, int]:
    form = season_form(_choices())
    if form.validate_on_submit() and (season_id := _saved(form, None)) is not None:
        return redirect(url_for("seasons.edit", season_id=season_id))
    page = render_template("seasons/edit.html", form=form, season=None)
    return page, (422 if form.is_submitted() else 200)


@dataclass(frozen=True)
class _AsSet:
    """A season as its form shows it before it is changed."""

    name: str
    measure: str
    best: int | None
    minimum: int
    planned: int | None
    nights: list[str]


def _season(season_id: str) -> Season:
    try:
        return service.season_of(season_id)
    except NotFound:
        abort(404)


@bp.route("/seasons/<season_id>/edit", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def edit(season_id: str) -> str | Response | tuple[str, int]:
    season = _season(season_id)
    ids = [night.id for night in service.season_nights(season.id)]
    shown = _AsSet(season.name, season.measure, season.best, season.minimum, season.planned, ids)
    form = season_form(_choices(), obj=shown)
    if form.validate_on_submit() and _saved(form, season.id) is not None:
        flash(_("The season is saved."))
        return redirect(url_for("seasons.edit", season_id=season.id))
    url = url_for("seasons.standings", season_token=season.follow_token, _external=True)
    page = render_template("seasons/edit.html", form=form, season=season, url=url, qr=qr_svg(url))
    return page, (422 if form.is_submitted() else 200)


@bp.post("/seasons/<season_id>/delete")
@needs(Access.PIN)
def delete(season_id: str) -> Response:
    if service.delete_season(season_id):
        flash(_("The season was deleted; its nights are kept."))
    return redirect(url_for("seasons.index"))


@bp.get("/season/<season_token>/events")
@needs(Access.PUBLIC)
@caching.never_kept
def events() -> Response:
    """The season's revision now and at each change (http/stream.py): what its standings'
    page follows. The streams of its link hold only a share of the server's."""
    return stream.respond(
        push.season_key(door.season_id()),
        door.revision(),
        lambda: True,  # open to its link: a season deleted is told as gone
        link=door.state().follow_token,
    )


@bp.get("/season/<season_token>")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def standings() -> Response:
    """The season's standings for the room's screen and the phones, with its link and QR,
    following its nights as they are played: drawn once per revision of the season (its
    nights' with it), language and address, whoever asks (a year's season is a large page).
    Each night's figure is shown for ten nights at a time: the latest, or from the night
    `?from=` asks for (a number that is none is a 404)."""
    asked = request.args.get("from")
    first = None if asked is None else whole_number(asked)
    if asked is not None and first is None:
        abort(404)

    def page() -> str:
        token = door.state().follow_token
        url = url_for("seasons.standings", season_token=token, _external=True)
        shown = presenters.season_standings(door.season())
        return render_template(
            "seasons/standings.html",
            shown=shown,
            page=presenters.standings_page(shown, first),
            token=token,
            url=url,
            qr=qr_svg(url),
            systems=rules.SYSTEMS,
        )

    def key() -> Hashable | None:
        kept = caching.page_key()  # the QR and the link name the address it was asked at
        return None if kept is None else (kept, request.host_url)

    return compress.respond(parts.kept_page(key, page))


@bp.get("/season/<season_token>/results.csv")
@needs(Access.PUBLIC)
@caching.shows_no_notice
@one_language()  # thousands of figures and words, one language looked up
def results_csv() -> Response:
    """The season's players as CSV, written once per revision and language, as the page is."""

    def written() -> str:
        shown = presenters.season_standings(door.season())
        headings = [_("Place"), _("Player"), _("Nights"), _("Season"), _("Rating"), "±"]
        return presenters.results_csv(shown, headings, _("not ranked"))

    body = parts.kept(caching.part_key(), written)
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = "attachment; filename=season.csv"
    return response


@bp.get("/season/<season_token>/results.txt")
@needs(Access.PUBLIC)
@caching.shows_no_notice
@one_language()  # thousands of figures and words, one language looked up
def results_text() -> Response:
    """The season's standings as a text to send: the rule, the players and the pairs."""

    def written() -> str:
        shown = presenters.season_standings(door.season())
        return render_template("seasons/results.txt", shown=shown, systems=rules.SYSTEMS)

    text = parts.kept(caching.part_key(), written)
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = "attachment; filename=season.txt"
    return response

"""A club night's standings, open to its standings link (its token, printed on every table
card): the standings for the room's screen and the phones, following the night as it is played
(its event stream and its state), and the results to print and to send."""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, render_template, request
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup
from sqlalchemy import Select, select
from werkzeug.wrappers import Response

from ... import nights
from ..extensions import db
from ..http import caching, stream
from ..http.access import Access, needs
from ..presenters import nights as presenters
from ..presenters import parts
from ..services import push
from ..store import queries
from ..store.models import Night

bp = Blueprint("standings", __name__)


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
    """The night's revision now and at each change (http/stream.py): what its following pages (the
    standings, the director's page, a table card between rounds) follow. One stream for the
    three, open to the standings link, since the revision tells no more than the standings;
    the streams of the link, which every table card prints, hold only a share of the server's."""
    night = _by_token(token)

    def still_there() -> bool:
        return db.session.scalar(_standings_of(token)) is not None

    return stream.respond(push.night_key(night.id), night.revision, still_there, link=token)


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
    return caching.tagged(Response(status=304), tag)


@bp.get("/standings/<token>")
@needs(Access.PUBLIC)
def standings(token: str) -> Response:
    """The standings for the room's screen and the phones: following the night, drawn once per
    change."""
    night = _by_token(token)
    tag = _conditional(night)
    if tag is None:
        return _not_modified(night)
    drawn = _drawn(night, "standings/_standings.html")
    page = render_template("standings/standings.html", drawn=drawn, night=night, token=token)
    return caching.tagged(Response(page, mimetype="text/html"), tag)


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
    return caching.tagged(jsonify(body), tag)


@bp.get("/standings/<token>/results")
@needs(Access.PUBLIC)
def results(token: str) -> Response:
    """The results, to print and to send: the standings, every round's tables, the text."""
    night = _by_token(token)
    tag = _conditional(night)
    if tag is None:
        return _not_modified(night)
    shown = presenters.standings(night, queries.night_tables(night.id), _ranking_asked(night))
    seating = presenters.seating(night)
    text = render_template("standings/results.txt", shown=shown, night=night, seating=seating)
    page = render_template(
        "standings/results.html",
        shown=shown,
        night=night,
        text=text,
        seating=seating,
        token=token,
    )
    return caching.tagged(Response(page, mimetype="text/html"), tag)


@bp.get("/standings/<token>/results.csv")
@needs(Access.PUBLIC)
def results_csv(token: str) -> Response:
    night = _by_token(token)
    shown = presenters.standings(night, queries.night_tables(night.id), _ranking_asked(night))
    headings = [_("Place"), _("Pair"), _("Players"), _("Score"), _("Points"), _("Wins")]
    headings.append(_("Difference"))
    body = presenters.results_csv(shown, headings)
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = "attachment; filename=results.csv"
    return response


@bp.get("/standings/<token>/results.txt")
@needs(Access.PUBLIC)
def results_text(token: str) -> Response:
    night = _by_token(token)
    shown = presenters.standings(night, queries.night_tables(night.id), _ranking_asked(night))
    seating = presenters.seating(night)
    text = render_template("standings/results.txt", shown=shown, night=night, seating=seating)
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = "attachment; filename=results.txt"
    return response

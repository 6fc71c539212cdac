"""A club night's standings, open to its standings link (printed on every table card): the
standings for the room's screen and the phones, following the night as it is played (its event
stream and its state), and the results to print and to send.

Every page here comes in through the night's door (http/door.py: the link in the address, the
night's revision), which answers a phone whose copy is current with a 304 (http/caching.py)."""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template, request
from flask_babel import gettext as _
from markupsafe import Markup
from werkzeug.wrappers import Response

from ... import nights
from ..http import caching, door, stream
from ..http.access import Access, needs
from ..presenters import nights as presenters
from ..presenters import parts
from ..services import push
from ..store import queries

bp = Blueprint("standings", __name__)


@bp.get("/standings/<standings_token>/events")
@needs(Access.PUBLIC)
@caching.never_kept
def events() -> Response:
    """The night's revision now and at each change (http/stream.py): what its following pages (the
    standings, the director's page, a table card between rounds) follow. One stream for the
    three, open to the standings link, since the revision tells no more than the standings;
    the streams of the link, which every table card prints, hold only a share of the server's."""
    night_id = door.night_id()
    return stream.respond(
        push.night_key(night_id),
        door.revision(),
        lambda: door.night_still_there(night_id),
        link=door.state().follow_token,
    )


def _ranking_asked() -> nights.Ranking:
    asked = request.args.get("by", "")
    known = {r.value: r for r in nights.Ranking}
    return known.get(asked, nights.Ranking(door.night().ranking))


def _standings() -> presenters.Standings:
    night = door.night()
    return presenters.standings(night, queries.night_tables(night.id), _ranking_asked())


def _drawn(template: str) -> parts.Drawn:
    """The standings drawn once per revision of the night, language and address (the ranking
    asked for), whoever asks."""

    def draw() -> parts.Drawn:
        shown = _standings()
        body = render_template(template, shown=shown, night=door.night())
        return parts.Drawn(shown.name, Markup(body))

    return parts.kept(caching.part_key(template), draw)


@bp.get("/standings/<standings_token>")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def standings() -> str:
    """The standings for the room's screen and the phones: following the night, drawn once per
    change."""
    drawn = _drawn("standings/_standings.html")
    token = door.state().follow_token
    return render_template("standings/standings.html", drawn=drawn, night=door.night(), token=token)


@bp.get("/standings/<standings_token>/state.json")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def state() -> Response:
    """The night's revision, for a page (or a push) that follows it: 304 while unchanged."""
    night = door.night()
    body = {
        "revision": door.revision(),
        "round": night.current_round,
        "ended": night.ended_at is not None,
    }
    return jsonify(body)


@bp.get("/standings/<standings_token>/results")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def results() -> str:
    """The results, to print and to send: the standings, every round's tables, the text."""
    night = door.night()
    shown = _standings()
    seating = presenters.seating(night)
    text = render_template("standings/results.txt", shown=shown, night=night, seating=seating)
    return render_template(
        "standings/results.html",
        shown=shown,
        night=night,
        text=text,
        seating=seating,
        token=night.follow_token,
    )


@bp.get("/standings/<standings_token>/results.csv")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def results_csv() -> Response:
    headings = [_("Place"), _("Pair"), _("Players"), _("Score"), _("Points"), _("Wins")]
    headings.append(_("Difference"))
    body = presenters.results_csv(_standings(), headings)
    response = Response(body, mimetype="text/csv")
    response.headers["Content-Disposition"] = "attachment; filename=results.csv"
    return response


@bp.get("/standings/<standings_token>/results.txt")
@needs(Access.PUBLIC)
@caching.shows_no_notice
def results_text() -> Response:
    night = door.night()
    seating = presenters.seating(night)
    text = render_template(
        "standings/results.txt", shown=_standings(), night=night, seating=seating
    )
    response = Response(text, mimetype="text/plain")
    response.headers["Content-Disposition"] = "attachment; filename=results.txt"
    return response

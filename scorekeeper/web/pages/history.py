"""History pages: every game, filtered and paged; statistics per player and partnership; players
renamed and merged, and merges undone.

The reads are in store/queries.py and store/tallies.py, what the pages show of them in
presenters/statistics.py, the writes in services/players.py: here are only the forms and the
views that join them.
"""

from __future__ import annotations

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import rules
from ..forms.player import MergeForm, RenameForm
from ..http.access import Access, needs
from ..http.converters import whole_number
from ..http.csrf import form_view
from ..presenters import statistics
from ..presenters.ratings import rating_chart, shown_ratings
from ..presenters.seasons import player_nights
from ..services.errors import MergeNotUndone, NotFound, PlayerRefused
from ..services.players import merge_players, rename_player, undo_merge
from ..services.ratings import systems_apart
from ..store import queries, tallies
from ..store.models import NAME_LENGTH
from ..store.seasons import ALL_SYSTEMS
from ..wording import one_language

bp = Blueprint("history", __name__)

STATUSES = ("all", "playing", "finished")
PARTNERSHIPS_SHOWN = 30
"""On /stats, the partnerships with most games; each player's page lists all of theirs."""


def _page_number() -> int:
    """The `?page=` asked for; one that is not a page number (0, -1, abc, 10^30) is a 404."""
    page = whole_number(request.args.get("page", "1"), most=queries.LARGEST_PAGE)
    if page is None:
        abort(404)
    return page


def _system() -> str:
    """The `?system=` asked for: a system's id, or "" for every system."""
    system = request.args.get("system", "")
    return system if system in rules.SYSTEMS else ""


@bp.get("/games")
@needs(Access.PIN)
def games() -> str:
    player = request.args.get("player", "")[: NAME_LENGTH * 2]
    system = _system()
    status = request.args.get("status", "all")
    if status not in STATUSES:
        status = "all"
    found = queries.game_page(player, system, status, _page_number())
    filters = {"player": player, "system": system, "status": status}
    return render_template(
        "history/games.html",
        page=found,
        filters=filters,
        shown_filters={k: v for k, v in filters.items() if v and v != "all"},
        systems=rules.SYSTEMS,
        statuses=[("all", _("All")), ("playing", _("In progress")), ("finished", _("Finished"))],
    )


@bp.get("/stats")
@needs(Access.PIN)
def stats() -> str:
    system = _system()
    found = tallies.statistics(system)
    return render_template(
        "history/stats.html",
        system=system,
        systems=rules.SYSTEMS,
        players=statistics.player_stats(found.players, found.names),
        partnerships=statistics.partnership_stats(
            found.partnerships, found.names, PARTNERSHIPS_SHOWN
        ),
        partnerships_left=max(len(found.partnerships) - PARTNERSHIPS_SHOWN, 0),
    )


def _merge_form(key: str, names: dict[str, str]) -> MergeForm:
    form = MergeForm(prefix="merge")
    form.into.choices = statistics.merge_choices(names, key)
    return form


def _player_page(
    key: str, found: tallies.Statistics, rename: RenameForm, status: int = 200
) -> tuple[str, int]:
    system = _system()
    theirs = [row for row in found.players if row.key == key]
    if not theirs:
        if not (system and key in found.names):  # a player with no game in this system: say so
            abort(404)
        theirs = [tallies.PlayerRow(key, tallies.NO_GAMES)]
    recent = queries.latest_games(key, system)
    partnerships = statistics.partnership_stats(
        [row for row in found.partnerships if key in row.keys], found.names
    )
    pairs = [(min(p.keys), max(p.keys)) for p in partnerships if len(p.keys) == 2]
    apart = systems_apart()
    shown = shown_ratings([(key, ""), *pairs], system, apart)
    ratings = shown[key, ""]
    pool = ratings[0].pool if ratings else ALL_SYSTEMS
    lines = (_("Rating"), _("Rating less its ±"))
    return render_template(
        "history/player.html",
        system=system,
        player=statistics.player_stats(theirs, found.names)[0],
        partnerships=partnerships,
        pair_ratings={
            p.keys: shown[min(p.keys), max(p.keys)] for p in partnerships if len(p.keys) == 2
        },
        games=recent,
        more_games=len(recent) == queries.PAGE_SIZE,
        rename=rename,
        merges=queries.merges_into(key),
        systems=rules.SYSTEMS,
        ratings=ratings,
        apart=apart,
        chart=rating_chart(key, pool, lines),
        nights=player_nights(key),
    ), status


@bp.get("/players/<player:key>")
@needs(Access.PIN)
@one_language()  # hundreds of figures and words, one language looked up
def player(key: str) -> tuple[str, int]:
    found = tallies.statistics(_system(), player=key)
    return _player_page(key, found, RenameForm(prefix="rename"))


@bp.post("/players/<player:key>/rename")
@form_view
@needs(Access.PIN)
def rename(key: str) -> Response | tuple[str, int]:
    if not queries.known_player(key):
        abort(404)
    form = RenameForm(prefix="rename")
    if form.validate_on_submit():
        try:
            new_key, merged = rename_player(key, form.name.data or "")
        except PlayerRefused:
            form.name.errors = [_("Write a name.")]
        else:
            if merged:
                flash(
                    _(
                        "Renamed. A player of that name already existed:"
                        " their games now count together."
                    )
                )
            else:
                flash(_("Renamed."))
            return redirect(url_for("history.player", key=new_key))
    return _player_page(key, tallies.statistics(player=key), form, 422)


@bp.route("/players/<player:key>/merge", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def merge(key: str) -> Response | tuple[str, int]:
    """A player merged into another, chosen by name on a page of its own: every player's name
    is read for it (a club of five years has 8,000 teams), not for each player's page."""
    if not queries.known_player(key):
        abort(404)
    names = tallies.names()
    form = _merge_form(key, names)
    if form.validate_on_submit():
        try:
            merge_players(key, form.into.data or "")
        except PlayerRefused:  # the other player went meanwhile: choose again
            form.into.errors = [_("That player is no longer there: choose again.")]
        else:
            flash(_("Merged: their games now count together."))
            return redirect(url_for("history.player", key=form.into.data))
    name = names.get(key, key)
    page = render_template("history/merge.html", key=key, name=name, merge=form)
    return page, (422 if form.is_submitted() else 200)


@bp.post("/merges/<id:merge_id>/undo")
@needs(Access.PIN)
def undo(merge_id: int) -> Response:
    """Count a merged player's games apart again, from the page of the player merged into."""
    try:
        key = undo_merge(merge_id)
    except NotFound:
        abort(404)
    except MergeNotUndone as refused:
        if refused.already:
            flash(_("This merge was undone already."))
        else:
            flash(
                _(
                    "This merge can no longer be undone: some of those games' players were"
                    " renamed or merged again since."
                )
            )
        return _to_player(refused.into)
    flash(_("Undone: their games count apart again."))
    return _to_player(key)


def _to_player(key: str) -> Response:
    """To the player's page; to the statistics when no game (not deleted) has them any more."""
    if not queries.known_player(key):
        return redirect(url_for("history.stats"))
    return redirect(url_for("history.player", key=key))

"""The rules pages: the comparison of the five systems, each system's page, a game's own rules
and the search (the page models are presenters/rulebook.py and presenters/rules_search.py)."""

from __future__ import annotations

from collections.abc import Hashable

from flask import Blueprint, abort, render_template, request
from flask_babel import get_locale

from ... import rules
from ..http import caching, door
from ..http.access import Access, needs
from ..presenters import parts
from ..presenters.rulebook import comparison, render_rules
from ..presenters.rules_search import search_rules
from ..services.engine import system_of

bp = Blueprint("rules", __name__)


@bp.get("/rules")
@needs(Access.PUBLIC)
def index() -> str:
    systems = list(rules.SYSTEMS.values())

    def body() -> str:
        return render_template("rules/_index.html", systems=systems, facts=comparison(systems))

    return render_template(
        "rules/index.html", body=parts.kept(_same_for_all(), lambda: parts.draw(body))
    )


@bp.get("/rules/search")
@needs(Access.PUBLIC)
def search() -> str:
    """The rules search without JavaScript; static/js/search.js asks it as one types and shows
    its results."""
    query = request.args.get("q", "")[:200].strip()
    system = rules.SYSTEMS.get(request.args.get("system", ""))
    game_id = request.args.get("game", "")[:64] or None
    system_id = system.id if system else None
    return render_template(
        "rules/search.html",
        query=query,
        results=search_rules(query, system_id, game_id if system_id else None),
        search_system=system,
        search_game=game_id if system else None,
    )


@bp.get("/rules/<system_id>")
@needs(Access.PUBLIC)
def system_page(system_id: str) -> str:
    if system_id not in rules.SYSTEMS:
        abort(404)
    return render_rules(rules.SYSTEMS[system_id], key=_same_for_all(system_id))


@bp.get("/games/<game_id>/rules")
@needs(Access.FOLLOW)
def game_rules() -> str:
    """The rules a game is played under: its system with its options and house rules."""
    game = door.game()
    return render_rules(system_of(game), game, key=caching.part_key())


def _same_for_all(*what: str) -> Hashable:
    """What a rules page the same for every visitor is kept under: the page, what it shows,
    the language and the address the app is at (each a drawing of its own)."""
    return (request.endpoint, *what, str(get_locale()), request.script_root)

"""Game files in and out: import, export (JSON and CSV) and the `scorekeeper check` result of a
game."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from werkzeug.wrappers import Response

from ... import rules
from ...rules.fields import refs, value_of
from ..forms.files import Unreadable, read_json
from ..forms.game_file import ImportForm
from ..http import door
from ..http.access import Access, needs
from ..http.csrf import form_view, json_api
from ..http.security import not_kept
from ..services.engine import replay_of, system_of
from ..services.errors import GameRefused, ImportRefused
from ..services.game_files import export_game, import_game
from ..services.loading import with_hands
from ..store.columns import SchemaError
from ..store.models import START_SCORE_LIMIT, Game
from ..wording import label_of, number, say

bp = Blueprint("game_files", __name__)

MOST_HANDS = 500
"""Hands in one imported game: a long game has a few dozen, and every page of a game replays them
all."""


def beyond_limits(data: object) -> list[str]:
    """What in a parsed game file is beyond the app's limits: its hands and start scores."""
    if not isinstance(data, dict):
        return []  # not a game file at all: reading it says so
    problems = []
    hands = data.get("hands")
    if isinstance(hands, list) and len(hands) > MOST_HANDS:
        problems.append(
            _(
                "A game file holds at most %(most)s hands; this one has %(hands)s.",
                most=number(MOST_HANDS),
                hands=number(len(hands)),
            )
        )
    sides = data.get("sides")
    for index, side in enumerate(sides if isinstance(sides, list) else [], start=1):
        score = side.get("start_score") if isinstance(side, dict) else None
        if isinstance(score, int) and abs(score) > START_SCORE_LIMIT:
            name = side.get("name")
            problems.append(
                _(
                    "%(side)s: a score carried over from paper is at most %(limit)s, above or "
                    "below zero.",
                    side=name if isinstance(name, str) else _("Side %(number)s", number=index),
                    limit=number(START_SCORE_LIMIT),
                )
            )
    return problems


def _refusal(violations: Sequence[rules.Violation]) -> list[dict[str, object]]:
    return [
        {
            "code": v.code,
            "side": v.side,
            "message": say(v.message),
            "rule": v.rule.as_dict(),
        }
        for v in violations
    ]


def _not_a_game_file(problem: object, not_json: bool = False) -> ImportRefused:
    line = _("This file is not a game file: %(problem)s", problem=str(problem))
    return ImportRefused(400, [line], not_json=not_json)


def import_bytes(body: bytes) -> str:
    """Import a game file as sent; its new game's id, or ImportRefused."""
    try:
        data = read_json(body)
    except Unreadable as error:
        raise _not_a_game_file(error, not_json=not error.is_json) from None
    beyond = beyond_limits(data)
    if beyond:
        raise ImportRefused(422, beyond)
    try:
        return import_game(data)
    except rules.GameFileError as error:
        raise _not_a_game_file(error) from None
    except GameRefused as refused:
        lines = [f"{say(v.message)} ({v.rule})" for v in refused.violations]
        raise ImportRefused(422, lines, refused.violations) from None
    except SchemaError as error:  # a game file, but beyond what the database keeps
        line = _("This game cannot be kept here: %(problem)s", problem=str(error))
        raise ImportRefused(422, [line]) from None


@bp.route("/games/import", methods=["GET", "POST"])
@form_view
@json_api
@needs(Access.PIN)
def import_file() -> ResponseReturnValue:
    """A game file as JSON (201 Created) or uploaded from the form (redirect to the game)."""
    if request.method == "POST" and not request.files:
        return _import_json()
    form = ImportForm()
    if not form.validate_on_submit():
        status = 400 if "csrf_token" in form.errors else 422 if form.is_submitted() else 200
        return render_template("game_files/import.html", form=form, problems=[]), status
    try:
        game_id = import_bytes(form.game_file.data.read())
    except ImportRefused as refused:
        return render_template("game_files/import.html", form=form, problems=refused.problems), 422
    return redirect(url_for("games.scoreboard", game_id=game_id))


def _import_json() -> ResponseReturnValue:
    """The API: a game file in the body; its id and address, or why not as JSON."""
    if not request.is_json:
        abort(415)
    try:
        game_id = import_bytes(request.get_data())
    except ImportRefused as refused:
        if refused.violations:
            error = _("This game breaks the rules.")
            return jsonify(error=error, violations=_refusal(refused.violations)), refused.status
        error = _("The body is not JSON.") if refused.not_json else str(refused)
        return jsonify(error=error), refused.status
    location = url_for("games.scoreboard", game_id=game_id)
    return jsonify(id=game_id, location=location), 201, {"Location": location}


@bp.get("/games/<game_id>/export.json")
@needs(Access.PIN)
@not_kept
def export_json() -> Response:
    game = with_hands(door.game())
    response = jsonify(export_game(game))
    response.headers["Content-Disposition"] = f'attachment; filename="samba-{game.id}.json"'
    return response


@bp.get("/games/<game_id>/result.json")
@needs(Access.PIN)
@not_kept
def result_json() -> Response:
    """Exactly what `scorekeeper check` prints for this game's export."""
    return jsonify(rules.result_data(replay_of(door.game())))


def csv_columns(system: rules.RuleSystem) -> list[tuple[str, str]]:
    """The CSV columns for a game under `system`: each one's name as the game file says it, and
    its heading in words in the page's language (a spreadsheet is read by people; the JSON export
    keeps the names)."""
    return [
        ("hand", _("Hand")),
        ("ended_by", _("How the hand ended")),
        ("side", _("Side")),
        ("players", _("Players")),
        *((ref.name, label_of(ref)) for ref in refs(system, every=True)),
        ("hand_score", _("Hand score")),
        ("total", _("Total")),
    ]


def csv_header(system: rules.RuleSystem) -> list[str]:
    """The CSV's first row: every field in words; only the sets and penalties `system` has."""
    return [heading for _name, heading in csv_columns(system)]


def _csv_value(value: bool | int | None) -> bool | int | str:
    """A field's value as a cell: flags as true/false, a value not noted as empty."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else value


def _cell(text: str) -> str:
    """A name as a spreadsheet cell: never read as a formula (CSV injection)."""
    return f"'{text}" if text.startswith(("=", "+", "-", "@", "\t", "\r")) else text


def csv_rows(game: Game) -> list[list[Any]]:
    """One row per side per hand that counts, scored by the engine's replay."""
    fields = list(refs(system_of(game), every=True))
    result = replay_of(game)
    rows: list[list[Any]] = []
    for position, (hand, scored) in enumerate(
        zip(game.live_hands, result.hands, strict=True), start=1
    ):
        for side, entry, score in zip(game.sides, hand.entries, scored.sides, strict=True):
            rows.append(
                [
                    position,
                    hand.ended_by,
                    _cell(side.name),
                    _cell(", ".join(p.name for p in side.players if p.name)),
                    *(_csv_value(value_of(entry, ref)) for ref in fields),
                    score.hand_score,
                    score.total,
                ]
            )
    return rows


@bp.get("/games/<game_id>/export.csv")
@needs(Access.PIN)
@not_kept
def export_csv() -> Response:
    """The game's hands as a spreadsheet: UTF-8 with a BOM, so that Excel reads the accents."""
    game = with_hands(door.game())
    text = io.StringIO()
    writer = csv.writer(text)
    writer.writerow(csv_header(system_of(game)))
    writer.writerows(csv_rows(game))
    response = Response(text.getvalue().encode("utf-8-sig"), content_type="text/csv; charset=utf-8")
    response.headers["Content-Disposition"] = f'attachment; filename="samba-{game.id}.csv"'
    return response

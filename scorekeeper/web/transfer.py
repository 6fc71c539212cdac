"""Game files in and out: import, export and the `scorekeeper check` result of a game."""

from __future__ import annotations

import json

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_wtf import FlaskForm
from flask_wtf.file import FileField, FileRequired
from werkzeug.wrappers import Response

from .. import rules
from .extensions import csrf
from .i18n import say
from .models import Game, db
from .services import GameRefused, export_game, import_game, replay

bp = Blueprint("transfer", __name__)


class ImportForm(FlaskForm):
    game_file = FileField(validators=[FileRequired()])


def _refusal(violations: list[rules.Violation]) -> list[dict[str, object]]:
    return [
        {
            "code": v.code,
            "side": v.side,
            "message": say(v.message),
            "rule": v.rule.as_dict(),
        }
        for v in violations
    ]


@bp.route("/games/import", methods=["GET", "POST"])
@csrf.exempt
def import_file() -> Response | str | tuple[object, int]:
    """A game file as JSON (201 Created) or uploaded from the form (redirect to the game)."""
    if request.method == "POST" and not request.files:
        if not request.is_json:
            abort(415)
        data = request.get_json(silent=True)
        if data is None:
            return jsonify(error=_("The body is not JSON.")), 400
        try:
            game_id = import_game(data)
        except rules.GameFileError as error:
            return jsonify(error=str(error)), 400
        except GameRefused as refused:
            return jsonify(
                error=_("This game breaks the rules."), violations=_refusal(refused.violations)
            ), 422
        location = url_for("games.scoreboard", game_id=game_id)
        return jsonify(id=game_id, location=location), 201, {"Location": location}
    form = ImportForm()
    problems: list[str] = []
    status = 200
    if form.validate_on_submit():
        try:
            data = json.loads(form.game_file.data.read().decode("utf-8"))
            return redirect(url_for("games.scoreboard", game_id=import_game(data)))
        except (UnicodeDecodeError, json.JSONDecodeError):
            problems = [_("This file is not a game file: it is not JSON.")]
        except rules.GameFileError as error:
            problems = [_("This file is not a game file: %(problem)s", problem=str(error))]
        except GameRefused as refused:
            problems = [f"{say(v.message)} ({v.rule})" for v in refused.violations]
        status = 422
    elif form.is_submitted():
        status = 400 if form.csrf_token.errors else 422
    return render_template("import.html", form=form, problems=problems), status


@bp.get("/games/<game_id>/export.json")
def export_json(game_id: str) -> Response:
    game = db.get_or_404(Game, game_id)
    response = jsonify(export_game(game))
    response.headers["Content-Disposition"] = f'attachment; filename="samba-{game.id}.json"'
    return response


@bp.get("/games/<game_id>/result.json")
def result_json(game_id: str) -> Response:
    """Exactly what `scorekeeper check` prints for this game's export."""
    game = db.get_or_404(Game, game_id)
    return jsonify(rules.result_data(replay(game)))

"""The settings page (`/settings`): one section per thing the table looks after, and the restore
of a backup into an empty database (`/restore`)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext

from .access import Access, needs
from .csrf import form_view
from .forms.backup import RestoreForm
from .services.backup import BackupError, DatabaseNotEmpty
from .services.backup import restore as restore_backup
from .transfer import Unreadable, read_json

bp = Blueprint("settings", __name__)

LARGEST_BACKUP = 16 * 1024 * 1024
"""The largest backup taken: a game file is at most 1 MB (create_app), but a backup holds every
game ever played, about 600 bytes a hand; 16 MB is some 25,000 hands."""


@bp.url_value_preprocessor
def backups_are_larger(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Let a restore send up to LARGEST_BACKUP; here, before any check, as the CSRF check (a
    before_request hook) reads the body under whatever limit holds then."""
    if endpoint == "settings.restore":
        request.max_content_length = LARGEST_BACKUP


@bp.get("/settings")
@needs(Access.TABLE)
def page() -> ResponseReturnValue:
    return render_template("settings.html")


@bp.route("/restore", methods=["GET", "POST"])
@needs(Access.TABLE)
@form_view
def restore() -> ResponseReturnValue:
    """A backup uploaded from the phone, restored into an empty database, or why not (422)."""
    form = RestoreForm()
    if not form.validate_on_submit():
        status = 400 if "csrf_token" in form.errors else 422 if form.is_submitted() else 200
        return render_template("restore.html", form=form, problem=None), status
    try:
        games = restore_backup(read_json(form.backup_file.data.read()))
    except Unreadable as error:
        problem = _("This file is not a backup: %(problem)s", problem=str(error))
    except DatabaseNotEmpty:
        problem = _(
            "This scorekeeper already holds games or house rules: a backup is restored only into "
            "an empty one, so that nothing is overwritten or mixed. Nothing was changed."
        )
    except BackupError as error:
        # The service's reasons are in English, as `scorekeeper restore` prints them.
        problem = _(
            "This file is not a backup this app can restore: %(problem)s", problem=str(error)
        )
    else:
        flash(ngettext("Restored %(num)s game.", "Restored %(num)s games.", games))
        return redirect(url_for("games.index"))
    return render_template("restore.html", form=form, problem=problem), 422

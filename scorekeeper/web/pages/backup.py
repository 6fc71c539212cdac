"""The backup of everything (`/backup.json`), and its restore into an empty database
(`/restore`)."""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    flash,
    redirect,
    render_template,
    request,
    stream_with_context,
    url_for,
)
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.wrappers import Response

from ..forms.backup import RestoreForm
from ..forms.files import Unreadable, read_json
from ..http.access import Access, needs
from ..http.csrf import form_view
from ..http.security import not_kept
from ..services.backup import backup_text
from ..services.restore import BackupError, DatabaseNotEmpty
from ..services.restore import restore as restore_backup
from ..store.models import now

bp = Blueprint("backup", __name__)

LARGEST_BACKUP = 16 * 1024 * 1024
"""The largest backup taken: a game file is at most 1 MB (create_app), but a backup holds every
game ever played, about 600 bytes a hand; 16 MB is some 25,000 hands."""


@bp.url_value_preprocessor
def backups_are_larger(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Let a restore send up to LARGEST_BACKUP; here, before any check, as the CSRF check (a
    before_request hook) reads the body under whatever limit holds then."""
    if endpoint == "backup.restore":
        request.max_content_length = LARGEST_BACKUP


@bp.route("/restore", methods=["GET", "POST"])
@needs(Access.PIN)
@form_view
def restore() -> ResponseReturnValue:
    """A backup uploaded from the phone, restored into an empty database, or why not (422)."""
    form = RestoreForm()
    if not form.validate_on_submit():
        status = 400 if "csrf_token" in form.errors else 422 if form.is_submitted() else 200
        return render_template("backup/restore.html", form=form, problem=None), status
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
    return render_template("backup/restore.html", form=form, problem=problem), 422


@bp.get("/backup.json")
@needs(Access.PIN)
@not_kept
def download() -> Response:
    """Every game and house rule as one file; `scorekeeper restore` loads it. Sent as it is
    read, a game at a time (services.backup says why), so not gzipped: the whole file would
    have to be in memory first."""
    chunks = (text.encode() for text in backup_text())
    response = Response(stream_with_context(chunks), mimetype="application/json")
    response.direct_passthrough = True  # bytes as they come: neither gzip nor a length
    stamp = now().strftime("%Y-%m-%d")
    response.headers["Content-Disposition"] = (
        f'attachment; filename="samba-scorekeeper-backup-{stamp}.json"'
    )
    return response

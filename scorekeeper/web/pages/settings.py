"""The settings page (`/settings`): one section per thing the table looks after."""

from __future__ import annotations

from flask import Blueprint, render_template
from flask.typing import ResponseReturnValue

from ..http.access import Access, needs

bp = Blueprint("settings", __name__)


@bp.get("/settings")
@needs(Access.PIN)
def page() -> ResponseReturnValue:
    return render_template("settings/index.html")

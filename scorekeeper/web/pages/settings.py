"""The settings page (`/settings`): one section per thing the table looks after; and the
club's choice of how ratings count the systems (`/settings/ratings`)."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue
from flask_babel import gettext as _

from ..forms.ratings import APART, TOGETHER, RatingPoolForm
from ..http.access import Access, needs
from ..http.csrf import form_view
from ..services import ratings

bp = Blueprint("settings", __name__)


def _page(form: RatingPoolForm, status: int = 200) -> ResponseReturnValue:
    return render_template("settings/index.html", ratings_form=form), status


@bp.get("/settings")
@needs(Access.PIN)
def page() -> ResponseReturnValue:
    form = RatingPoolForm(data={"pool": APART if ratings.systems_apart() else TOGETHER})
    return _page(form)


@bp.post("/settings/ratings")
@needs(Access.PIN)
@form_view
def rating_pool() -> ResponseReturnValue:
    """The club's choice: every system's games rated together, or each system apart."""
    form = RatingPoolForm()
    if not form.validate_on_submit():
        return _page(form, 422)
    ratings.count_systems_apart(form.apart())
    if form.apart():
        flash(_("Ratings now count each system apart."))
    else:
        flash(_("Ratings now count every system's games together."))
    return redirect(url_for("settings.page"))

"""The table's own pages: its PIN (entering it, setting it, signing out) and share links."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from sqlalchemy import select
from werkzeug.wrappers import Response

from ..extensions import db
from ..forms.sharing import PinForm, SetPinForm
from ..http import access, door
from ..http.access import Access, needs
from ..http.csrf import form_view
from ..http.security import on_this_site
from ..presenters.game import game_title
from ..presenters.qr import qr_svg
from ..services import access as access_service
from ..store.models import Game

bp = Blueprint("sharing", __name__)


def _next() -> str:
    wanted = request.values.get("next", "")
    return wanted if on_this_site(wanted) else url_for("games.index")


def _carried() -> list[tuple[str, str]]:
    """The fields of the refused form that came along with the PIN."""
    own = {"pin", "next", "csrf_token"}
    return [(k, v) for k, values in request.form.lists() for v in values if k not in own]


@bp.route("/pin", methods=["GET", "POST"])
@needs(Access.PUBLIC)
@form_view
def enter_pin() -> Response | tuple[str, int]:
    """Enter the table's PIN; then the page asked for, or the form refused, goes on."""
    form = PinForm()
    wait = access_service.Wait(0)
    if form.validate_on_submit():
        hashed = access.pin_hash()
        # Without a PIN, whatever is typed lets the phone in; with one, a guess that must wait
        # is not even checked (guess_pin says how a race of guesses is held).
        guess = (
            access_service.Guess(right=True)
            if hashed is None
            else access_service.guess_pin(access.client_address(), form.pin.data or "", hashed)
        )
        wait = guess.wait
        if guess.right:
            access.grant_pin()
            # A refused form came along: it is sent on as it was (307 keeps the POST and its
            # fields), so a typed hand is saved as its Save asked; a page is simply shown.
            return redirect(_next(), 307 if _carried() else 302)
        if not wait.seconds:
            form.pin.errors = [_("That is not the table's PIN.")]
    page = render_template(
        "sharing/access.html",
        form=form,
        next=_next(),
        carried=_carried(),
        files=False,
        wait=wait.seconds or None,
    )
    status = 429 if wait.seconds else 422 if form.is_submitted() else 200
    return page, status


@bp.post("/pin/forget")
@needs(Access.PUBLIC)
def sign_out() -> Response:
    """This phone forgets the PIN and its links, and the server forgets the phone."""
    access.sign_out()
    flash(_("This phone has signed out."))
    return redirect(url_for("sharing.enter_pin"))


@bp.post("/settings/pin/sign-out-everyone")
@needs(Access.PIN)
def sign_out_every_phone() -> Response:
    """Every other phone must enter the PIN, or open its link, again."""
    signed_out = access.sign_out_every_phone()
    flash(
        ngettext(
            "%(num)s other phone was signed out.", "%(num)s other phones were signed out.",
            signed_out,
        )
    )  # fmt: skip
    return redirect(url_for("sharing.pin_settings"))


@bp.post("/settings/pin/remove-stored")
@needs(Access.PIN)
def remove_stored_pin() -> Response:
    """Remove the PIN set on the settings page: with SCOREKEEPER_PIN set the page cannot change
    the PIN, but one stored before (or by a prank) must not come back when the server's goes."""
    if access_service.remove_stored_pin():
        flash(_("The PIN set on this page is removed."))
    return redirect(url_for("sharing.pin_settings"))


@bp.route("/settings/pin", methods=["GET", "POST"])
@needs(Access.PIN)
@form_view
def pin_settings() -> Response | tuple[str, int]:
    """Set, change or remove the table's PIN (the current one is asked for a change)."""
    form = SetPinForm()
    by_server = bool(current_app.config.get("PIN_HASH"))
    has_pin = access.pin_hash() is not None
    stored = by_server and access_service.stored_pin_hash() is not None
    if not by_server and form.validate_on_submit():
        try:
            access_service.set_pin(form.new.data or "", form.current.data)
        except access_service.PinRefused:
            form.current.errors = [_("That is not the PIN now.")]
        else:
            if form.new.data:
                access.grant_pin()  # this phone set it: it knows it
                flash(_("The PIN is set: other phones need it now."))
            else:
                flash(_("There is no PIN now: every phone on this network may do everything."))
            return redirect(url_for("sharing.pin_settings"))
    page = render_template(
        "sharing/pin_settings.html", form=form, by_server=by_server, has_pin=has_pin, stored=stored
    )
    return page, 422 if form.is_submitted() else 200


LANDINGS = {
    **{kind: endpoint for endpoint, kind in access.PLAYED_ON_PAGES.items()},
    "table": "games.display",  # the display's name in the links made before it was `display`
}
"""The pages a share link may open instead of its own (`?to=`): a phone brought to the game
played next stays on the kind of page it was on (`access.played_on`)."""


def _landing(token_column: Any, token: str, page: str) -> Response:
    """A share link's landing: this phone gets the link's access, and the game's page."""
    game_id = db.session.scalar(
        select(Game.id).where(token_column == token, Game.deleted_at.is_(None))
    )
    if game_id is None:
        abort(404)
    access.grant_link(game_id, token)
    page = LANDINGS.get(request.args.get("to", ""), page)
    return redirect(url_for(page, game_id=game_id))


@bp.get("/join/<token>")
@needs(Access.PUBLIC)
def join(token: str) -> Response:
    """A join link: this phone may record, correct and delete the game's hands."""
    return _landing(Game.join_token, token, "games.scoreboard")


@bp.get("/follow/<token>")
@needs(Access.PUBLIC)
def follow(token: str) -> Response:
    """A follow link: this phone may watch the game."""
    return _landing(Game.follow_token, token, "games.follow")


LOCAL = ("localhost", "::1")
"""Addresses that mean "this machine": a phone that opens them reaches itself, not the app."""


@bp.get("/games/<game_id>/share")
@needs(Access.PIN)
def share() -> str:
    """The game's follow and join links, with their QR codes to scan across the table."""
    game = door.game()
    follow_url = url_for("sharing.follow", token=game.follow_token, _external=True)
    join_url = url_for("sharing.join", token=game.join_token, _external=True)
    host = urlsplit(f"//{request.host}").hostname or ""
    return render_template(
        "sharing/share.html",
        game=game,
        title=game_title(game),
        # Join first: the code the players at the table scan; follow's is folded under it.
        links=[("join", join_url, qr_svg(join_url)), ("follow", follow_url, qr_svg(follow_url))],
        local=host in LOCAL or host.startswith("127."),
    )


@bp.post("/games/<game_id>/share/renew")
@needs(Access.PIN)
def renew_links() -> Response:
    """New links: the old ones stop working at once."""
    access_service.renew_links(door.game_id())
    flash(_("New links made: the old ones no longer work."))
    return redirect(url_for("sharing.share", game_id=door.game_id()))

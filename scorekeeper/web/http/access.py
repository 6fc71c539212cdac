"""Who may see and change what: the table's PIN, and each game's follow and join links.

Without a PIN everything is open, as at a family's own table on its own Wi-Fi. With a PIN
(`SCOREKEEPER_PIN`, or set on the settings page) a phone may:

- do everything, once it has entered the PIN (remembered for a year, until it signs out or the
  PIN changes);
- record, correct and delete one game's hands, with that game's join link;
- watch one game (its scoreboard, its hands and its rules), with its follow link.

Every view says what it needs (`needs`); `check` runs before every view and hook but the game's
door, which it comes right after, and refuses with a page that says how to get in: never a typed
form lost, since the form's fields ride along with the PIN (`refusal`). A route without a
decision fails `tests/web/test_access.py`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from datetime import timedelta
from enum import IntEnum
from typing import Any, TypeVar

from flask import Flask, current_app, g, render_template, request, session
from flask.typing import ResponseReturnValue
from werkzeug.security import generate_password_hash

from ..services import access as access_service
from . import door


class Access(IntEnum):
    """What a phone may do, each level with all the ones below it."""

    PUBLIC = 0
    """Anyone: the rules, the PIN's form, the landing of a share link."""
    FOLLOW = 1
    """Watch one game: its follow link."""
    JOIN = 2
    """Record, correct and delete one game's hands: its join link."""
    TABLE = 3
    """Everything: the table's PIN."""


View = TypeVar("View", bound=Callable[..., object])
NEEDS = "access_needed"
TABLE_KEY = "table"
"""The session's mark of the PIN entered: a digest of the PIN's hash (a new PIN voids it)."""
LINKS_KEY = "links"
"""The session's share links: [game id, token] pairs, newest last (each token is compared with
the game's, so renewing the links voids it)."""
REMEMBERED = timedelta(days=365)
LINKS_KEPT = 20
"""Share links a phone remembers: a table's evening, with room to spare in a 4 KB cookie."""


def needs(level: Access) -> Callable[[View], View]:
    """Say what a view needs: `@needs(Access.JOIN)`."""

    def mark(view: View) -> View:
        setattr(view, NEEDS, level)
        return view

    return mark


def needed(endpoint: str) -> Access | None:
    """What the view of an endpoint needs; None for one that never said (a test finds those)."""
    if endpoint == "static":
        return Access.PUBLIC
    level = getattr(current_app.view_functions.get(endpoint), NEEDS, None)
    return None if level is None else Access(level)


def pin_hash() -> str | None:
    """The hash of the table's PIN, None without one: the server's, else the settings page's
    (inside a game's door it came with the game, in the door's one statement)."""
    configured: str | None = current_app.config.get("PIN_HASH")
    if configured:
        return configured
    if door.inside():
        return door.pin_hash()
    if "pin_hash" not in g:
        g.pin_hash = access_service.stored_pin_hash()
    stored: str | None = g.pin_hash
    return stored


def _mark(hashed: str) -> str:
    return hashlib.sha256(hashed.encode()).hexdigest()[:16]


def level() -> Access:
    """What this phone may do here."""
    if not door.inside():
        return _level(pin_hash(), session.get(TABLE_KEY), "", None)
    token = dict(session.get(LINKS_KEY) or ()).get(door.game_id(), "")
    return _level(pin_hash(), session.get(TABLE_KEY), token, door.state())


def _level(hashed: str | None, table: object, token: str, game: Any) -> Access:
    """What a phone may do: with the PIN's `hashed` and its session's mark of it (`table`),
    and in a `game` (its links, as the door reads them) with its share link's `token`."""
    if hashed is None or table == _mark(hashed):
        return Access.TABLE
    if game is not None and token:
        if secrets.compare_digest(token, game.join_token):
            return Access.JOIN
        if secrets.compare_digest(token, game.follow_token):
            return Access.FOLLOW
    return Access.PUBLIC


def still_may(wanted: Access) -> Callable[[], bool]:
    """Whether this phone may still do what needs `wanted` in this game, asked again later,
    outside this request (an event stream): its session as it is now, against the game's links
    and the table's PIN as they will be then."""
    game_id = door.game_id()
    table = session.get(TABLE_KEY)
    token = dict(session.get(LINKS_KEY) or ()).get(game_id, "")
    configured: str | None = current_app.config.get("PIN_HASH")

    def asked_again() -> bool:
        game = door.read_again(game_id)
        if game is None:
            return False
        return _level(configured or game.pin_hash, table, token, game) >= wanted

    return asked_again


def may(wanted: Access) -> bool:
    """Whether this phone may do what needs `wanted` (for pages that show what it may do)."""
    return level() >= wanted


def may_record_hands() -> bool:
    """Whether this phone may record, correct and delete this game's hands (a page drawn for
    it alone shows those buttons only then; a follow phone's has none)."""
    return may(Access.JOIN)


def signed_in() -> bool:
    """Whether this phone got in with the PIN or a share link that a table with a PIN asks for
    (what signing out undoes); never without a PIN, where there is nothing to sign out of."""
    if pin_hash() is None:
        return False
    return level() is Access.TABLE or bool(session.get(LINKS_KEY))


def grant_table() -> None:
    """This phone entered (or just set) the PIN: remembered for a year."""
    g.pop("pin_hash", None)  # read again: this request may have just set it
    hashed = pin_hash()
    if hashed is not None:
        session[TABLE_KEY] = _mark(hashed)
        session.permanent = True


def grant_link(game_id: str, token: str) -> None:
    """This phone opened a game's share link."""
    # Pairs, newest last (a session's dict would come back with its keys sorted); the oldest
    # go, so that the cookie stays small.
    links = [pair for pair in session.get(LINKS_KEY) or () if pair[0] != game_id]
    session[LINKS_KEY] = [*links, [game_id, token]][-LINKS_KEPT:]
    session.permanent = True


def sign_out() -> None:
    session.pop(TABLE_KEY, None)
    session.pop(LINKS_KEY, None)


def check() -> ResponseReturnValue | None:
    """Let the request through, or refuse it with the page that says how to get access."""
    if request.endpoint is None:
        return None  # no such page: its 404 or 405
    wanted = needed(request.endpoint)
    if wanted is None:
        wanted = Access.TABLE  # a view that never said is the table's alone (and a test fails)
    if wanted is Access.PUBLIC or level() >= wanted:
        return None
    return refusal()


def refusal() -> ResponseReturnValue:
    """403: what this phone cannot do, how to get access, and what it sent kept for after."""
    if request.is_json:
        return {"error": "This table has a PIN: enter it, or open a link from the table."}, 403
    carried = [
        (name, value)
        for name, values in request.form.lists()
        for value in values
        if name != "csrf_token"
    ]
    return render_template(
        "access.html",
        next=request.full_path if request.method in door.READS else request.path,
        carried=carried,
        files=bool(request.files),
        form=None,
        wait=None,
    ), 403


def init_app(app: Flask) -> None:
    app.config.setdefault("PERMANENT_SESSION_LIFETIME", REMEMBERED)
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Lax")
    pin = app.config.get("PIN")
    if pin:
        app.config["PIN_HASH"] = generate_password_hash(str(pin))
    app.before_request(check)

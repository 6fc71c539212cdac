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

What a phone may do is in its session (a signed cookie), and counts only while the server
keeps a row for the phone (`models.Phone`, named by the session). Why a row per signed-in phone
rather than a list of revoked sessions: signing out deletes the row, so a copy of the cookie
taken before is refused at once and nothing has to be remembered about it afterwards (a list of
revoked sessions would have to keep every entry as long as a copy could be renewed, which is for
ever); "sign every phone out" deletes them all; and the row is read in the statement that reads
the PIN (the door's, for a game's pages), so it costs no round trip.

The PIN's mark in the session is an HMAC, under the app's secret key, of the PIN set on the
server (SCOREKEEPER_PIN) or of the stored PIN's hash: the same in every server process and
after a restart (they share the secret key), it changes with a new PIN, and it tells a reader
of the cookie nothing about the PIN.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import secrets
from collections.abc import Callable
from datetime import timedelta
from enum import IntEnum
from typing import Any, TypeVar

from flask import Flask, current_app, g, render_template, request, session, url_for
from flask.typing import ResponseReturnValue
from werkzeug.security import generate_password_hash

from ..services import access as access_service
from ..store.models import ADDRESS_LENGTH
from . import door


class Access(IntEnum):
    """What a phone may do, each level with all the ones below it."""

    PUBLIC = 0
    """Anyone: the rules, the PIN's form, the landing of a share link."""
    FOLLOW = 1
    """Watch one game: its follow link."""
    JOIN = 2
    """Record, correct and delete one game's hands: its join link."""
    PIN = 3
    """Everything: the table's PIN."""


View = TypeVar("View", bound=Callable[..., object])
NEEDS = "access_needed"
PIN_KEY = "table"
"""The session's mark of the PIN entered (`_mark`: a new PIN voids it). Its name in the cookie
is the one phones signed in with before this level was called PIN."""
PHONE_KEY = door.PHONE_KEY
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


def _phone() -> str:
    phone = session.get(PHONE_KEY)
    return phone if isinstance(phone, str) else ""


def _pin_and_phone() -> tuple[str | None, bool]:
    """The stored PIN's hash and whether this phone is signed in: read with the game or night
    inside its door, else once per request in one statement."""
    if door.inside():
        return door.pin_hash(), door.phone_signed_in()
    if "pin_and_phone" not in g:
        g.pin_and_phone = access_service.stored_pin_and_phone(_phone())
    state: tuple[str | None, bool] = g.pin_and_phone
    return state


def pin_hash() -> str | None:
    """The hash of the table's PIN, None without one: the server's, else the settings page's
    (inside a game's door it came with the game, in the door's one statement)."""
    configured: str | None = current_app.config.get("PIN_HASH")
    if configured:
        return configured
    return _pin_and_phone()[0]


def _mark(hashed: str | None) -> str:
    """The session's mark of the PIN whose hash is `hashed` (the module says why an HMAC of
    it): of the server's PIN when one is set, else of the stored PIN's hash."""
    configured = current_app.config.get("PIN_HASH")
    pin = f"server:{current_app.config['PIN']}" if configured else f"stored:{hashed}"
    key = str(current_app.secret_key).encode()
    return hmac.new(key, pin.encode(), hashlib.sha256).hexdigest()[:32]


LEVEL = "access_level"
"""This request's level, worked out once (a page asks it a few times); forgotten when the
request signs the phone in or out."""


def level() -> Access:
    """What this phone may do here."""
    found: Access | None = g.get(LEVEL)
    if found is None:
        signed_in_now = bool(_phone()) and _pin_and_phone()[1]
        mark = session.get(PIN_KEY)
        if door.in_game():
            found = _level(pin_hash(), signed_in_now, mark, link_token(), door.state())
        else:
            found = _level(pin_hash(), signed_in_now, mark, "", None)
        g.access_level = found
    return found


def link_token() -> str:
    """The token of the share link this phone opened for the game it is in ('' if none)."""
    return str(dict(session.get(LINKS_KEY) or ()).get(door.game_id(), ""))


def _level(hashed: str | None, phone_in: bool, mark: object, token: str, game: Any) -> Access:
    """What a phone may do: with the PIN's `hashed`, whether the server still keeps the phone
    (`phone_in`), its session's mark of the PIN (`mark`), and in a `game` (its links, as the
    door reads them) with its share link's `token`."""
    if hashed is None:
        return Access.PIN
    if not phone_in:
        return Access.PUBLIC  # not signed in, or signed out since: the session counts for nothing
    if isinstance(mark, str) and secrets.compare_digest(mark, _mark(hashed)):
        return Access.PIN
    if game is not None and token:
        if secrets.compare_digest(token, game.join_token):
            return Access.JOIN
        if secrets.compare_digest(token, game.follow_token):
            return Access.FOLLOW
    return Access.PUBLIC


def still_may(wanted: Access) -> Callable[[], bool]:
    """Whether this phone may still do what needs `wanted` in this game, asked again later,
    outside this request (an event stream): its session as it is now, against the game's links,
    the table's PIN and the server's row of the phone as they will be then."""
    game_id = door.game_id()
    phone = _phone()
    mark = session.get(PIN_KEY)
    token = link_token()
    configured: str | None = current_app.config.get("PIN_HASH")

    def asked_again() -> bool:
        game = door.read_again(game_id, phone)
        if game is None:
            return False
        phone_in = bool(phone) and bool(game.phone_signed_in)
        return _level(configured or game.pin_hash, phone_in, mark, token, game) >= wanted

    return asked_again


def may(wanted: Access) -> bool:
    """Whether this phone may do what needs `wanted` (for pages that show what it may do)."""
    return level() >= wanted


def may_record_hands() -> bool:
    """Whether this phone may record, correct and delete this game's hands (a page drawn for
    it alone shows those buttons only then; a follow phone's has none)."""
    return may(Access.JOIN)


PLAYED_ON_PAGES = {"games.display": "display", "games.follow": "follow"}
"""The following pages a phone stays on in the game played next (`played_on`), each with the name a
share link's `?to=` gives it; from any other (the scoreboard, a hand) it goes to the new
game's scoreboard, or the page its link opens."""


def played_on() -> str | None:
    """Where this phone goes once its table played this game again: the new game's page of the
    same kind (the table display, the follow page, else the scoreboard) at the level this phone
    has here. A phone that joined by the join link opens the new game's join link, one
    following by the follow link its follow link (the table played on with the same phones);
    a phone with the table's own access opens the page. None before then, or once the new game
    is gone."""
    if not door.in_game() or not door.state().next_game_id:
        return None
    next_id: str = door.state().next_game_id
    tokens = access_service.share_tokens(next_id)
    if tokens is None:
        return None
    follow_token, join_token = tokens
    endpoint = request.endpoint or ""
    kind = PLAYED_ON_PAGES.get(endpoint)
    to: dict[str, Any] = {"to": kind} if kind else {}
    have = level()
    if have is Access.PIN:
        return url_for(endpoint if kind else "games.scoreboard", game_id=next_id)
    if have is Access.JOIN:
        return url_for("sharing.join", token=join_token, **to)
    if have is Access.FOLLOW:
        return url_for("sharing.follow", token=follow_token, **to)
    return None


def signed_in() -> bool:
    """Whether this phone got in with the PIN or a share link that a table with a PIN asks for
    and the server still keeps it (what signing out undoes); never without a PIN, where there
    is nothing to sign out of."""
    if pin_hash() is None or not _phone() or not _pin_and_phone()[1]:
        return False
    return level() is Access.PIN or bool(session.get(LINKS_KEY))


def _sign_in() -> None:
    """This phone signed in (again, if the server forgot it: what its session said before
    counts for nothing, so it goes)."""
    phone = _phone()
    kept = access_service.sign_in(phone)
    if kept != phone:
        session.pop(PIN_KEY, None)
        session.pop(LINKS_KEY, None)
        session[PHONE_KEY] = kept
    session.permanent = True
    g.pop("pin_and_phone", None)  # read again: this request may have just changed it
    g.pop(LEVEL, None)


def grant_pin() -> None:
    """This phone entered (or just set) the PIN: remembered for a year."""
    _sign_in()
    hashed = pin_hash()
    if hashed is not None:
        session[PIN_KEY] = _mark(hashed)
    g.pop(LEVEL, None)


def grant_link(game_id: str, token: str) -> None:
    """This phone opened a game's share link."""
    _sign_in()
    # Pairs, newest last (a session's dict would come back with its keys sorted); the oldest
    # go, so that the cookie stays small.
    links = [pair for pair in session.get(LINKS_KEY) or () if pair[0] != game_id]
    session[LINKS_KEY] = [*links, [game_id, token]][-LINKS_KEPT:]
    g.pop(LEVEL, None)


def sign_out() -> None:
    """This phone forgets the PIN and its links, and the server forgets the phone: a copy of
    its cookie taken before is refused too."""
    access_service.sign_out(_phone())
    for key in (PHONE_KEY, PIN_KEY, LINKS_KEY):
        session.pop(key, None)
    g.pop(LEVEL, None)


def sign_out_every_phone() -> int:
    """Every other phone must enter the PIN (or open its link) again; this one stays in."""
    count = access_service.sign_out_every_phone()
    grant_pin()
    return max(0, count - 1)


def client_address() -> str:
    """The address PIN guesses are counted by: the client's as the server (or the proxies it
    trusts, `SCOREKEEPER_PROXY_FIX`) says, written as the database keeps it. Any text could
    arrive there (a forwarded address is a header), so what is not an IP address, or is longer
    than the column, is counted under a digest of it."""
    given = request.remote_addr or ""
    try:
        address = str(ipaddress.ip_address(given))
    except ValueError:
        address = ""
    if address and len(address) <= ADDRESS_LENGTH:
        return address
    return "digest:" + hashlib.sha256(given.encode("utf-8", "replace")).hexdigest()[:40]


def check() -> ResponseReturnValue | None:
    """Let the request through, or refuse it with the page that says how to get access."""
    if request.endpoint is None:
        return None  # no such page: its 404 or 405
    wanted = needed(request.endpoint)
    if wanted is None:
        wanted = Access.PIN  # a view that never said is the table's alone (and a test fails)
    if wanted is Access.PUBLIC or level() >= wanted:
        return None
    return refusal()


def refusal(reason: str | None = None) -> ResponseReturnValue:
    """403: what this phone cannot do (and why, if a view says), how to get access, and what it
    sent kept for after."""
    if request.is_json:
        return {"error": "This table has a PIN: enter it, or open a link from the table."}, 403
    carried = [
        (name, value)
        for name, values in request.form.lists()
        for value in values
        if name != "csrf_token"
    ]
    return render_template(
        "sharing/access.html",
        next=request.full_path if request.method in door.READS else request.path,
        carried=carried,
        files=bool(request.files),
        form=None,
        wait=None,
        reason=reason,
    ), 403


def init_app(app: Flask) -> None:
    app.config["PERMANENT_SESSION_LIFETIME"] = (
        REMEMBERED  # Flask has 31 days already: set, not a default
    )
    # A remembered session goes back to the phone only when a request changed it: Flask's
    # default sends it with every answer, and a read the phone sent before a write (a script, a
    # poll) but answered after it then put back the session the write had changed (a notice
    # lost, a sign-in undone). It is remembered a year from the last change.
    app.config["SESSION_REFRESH_EACH_REQUEST"] = False
    app.config.setdefault("SESSION_COOKIE_SAMESITE", "Lax")
    pin = app.config.get("PIN")
    if pin:
        app.config["PIN_HASH"] = generate_password_hash(str(pin))
    app.before_request(check)

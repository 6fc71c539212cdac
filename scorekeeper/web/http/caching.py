"""Caching of the pages of a game or a club night, as HTTP does it: ETags from the revision.

Every page of a game (or a night) is drawn from it as it is at one revision
(`models.Game.revision`, `models.Night.revision`), in one language, for one session, at what
the phone may do there, for what its address asks (a night's standings by the ranking asked
for). So a page carries a weak ETag made of these, asks the browser to check it each time
(`Cache-Control: no-cache`), and a request whose `If-None-Match` still holds is answered
`304 Not Modified` before the game or night is read or anything is drawn. No page makes an ETag
of its own: every page that comes in through the door (`door.py`) gets it here.

What costs to draw and is the same for every visitor (the scoreboard, the blank hand form, a
night's standings) is drawn once and kept in memory (`presenters/parts.py`) under the key
`part_key` makes of the revision, the language and the address; a following page is kept whole
(`page_key`: and what the page shows of what the phone may do). What depends on the visitor (the
CSRF token, a form's one-time token, a flashed notice) is a hole in what is kept, filled for each
answer, or written around it by the page's own template, so nothing of one visitor is ever shown
to another.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

from flask import Flask, current_app, g, request, session
from flask_babel import get_locale
from werkzeug.wrappers import Response

from . import access, door

View = TypeVar("View", bound=Callable[..., Any])


def _session_mark() -> str:
    """A short mark of the visitor's session token: a page holds that token in its forms, so a
    page kept by a browser is good only for the session that got it."""
    token = session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
    if not token:
        return "-"
    return hashlib.blake2s(str(token).encode(), digest_size=6).hexdigest()


def _asked() -> str:
    """A short mark of what the address asks beyond its path (a night's standings by points:
    `?by=points`), so that a copy kept for one question never answers another."""
    return hashlib.blake2s(request.query_string, digest_size=4).hexdigest()


def etag() -> str:
    """The ETag of this request's page of a game or night: what it follows and its revision,
    the language, the session, what the phone may do there (a phone that entered the PIN sees
    more) and what the address asks."""
    return (
        f"{door.followed()}.{door.revision()}.{get_locale()}.{_session_mark()}"
        f".{access.level().value}.{_asked()}"
    )


def _asked_etag() -> str:
    """The ETag as the request came in (the session may gain a token while the page is drawn)."""
    if "etag" not in g:
        g.etag = etag()
    return str(g.etag)


NEVER_KEPT = "never_kept"


def never_kept(view: View) -> View:
    """A view of a game whose answer no browser keeps (an event stream): no ETag, no 304, and
    no snapshot of the game to draw it from."""
    setattr(view, NEVER_KEPT, True)
    return view


SHOWS_NO_NOTICE = "shows_no_notice"


def shows_no_notice(view: View) -> View:
    """A view whose page shows no flashed notice (the standings, a table card): a notice that
    waits for another page does not stop it from being kept."""
    setattr(view, SHOWS_NO_NOTICE, True)
    return view


def _conditional() -> bool:
    """Whether this request's answer may be validated by its ETag: a read of a page of a game
    or night that shows no one-time notice (a flashed message is shown once, so its page is
    never kept)."""
    return (
        request.method in door.READS
        and door.inside()
        and not g.get("flashed", False)
        and not _never_kept()
    )


def _marked(mark: str) -> bool:
    return bool(getattr(current_app.view_functions.get(request.endpoint or ""), mark, False))


def _never_kept() -> bool:
    return _marked(NEVER_KEPT)


def not_modified() -> Response | None:
    """`304 Not Modified` to a read whose browser holds the page as it still is."""
    g.flashed = bool(session.get("_flashes")) and not _marked(SHOWS_NO_NOTICE)
    asked = request.if_none_match  # the ETag is made only for a browser that holds a copy
    if asked and _conditional() and asked.contains_weak(_asked_etag()):
        response = current_app.response_class(status=304)
        return tagged(response, _asked_etag())
    if door.inside() and not _never_kept() and not _marked(door.PEEKS):
        door.settle()  # the page will be drawn: from here on, one snapshot of the game
    return None


def tagged(response: Response, tag: str) -> Response:
    """`response` with the weak ETag `tag`, to be checked by the browser each time."""
    response.set_etag(tag, weak=True)
    response.cache_control.no_cache = True
    return response


def tag(response: Response) -> Response:
    """Give a page of a game or night drawn now its ETag (errors and redirects get none)."""
    if _conditional() and response.status_code == 200:
        return tagged(response, etag())
    return response


def part_key(
    variant: str = "", *, query: bool = True, shows: Hashable | None = None
) -> Hashable | None:
    """What a part of this page of a game or night is kept under (`presenters/parts.py`): the
    page, what it follows, its revision (or, for a part kept across revisions, what it `shows`
    of the game), the language, the address's query (a night's standings by the ranking asked
    for; left out only for a part that reads none of it) and the `variant` it was drawn in
    (what the phone may do there: never who it is). None for what is not kept: only a read is
    (a posted form is drawn as it was sent)."""
    if request.method not in door.READS or not door.inside():
        return None
    return (
        str(request.endpoint),
        door.followed(),
        door.revision() if shows is None else ("shows", shows),
        str(get_locale()),
        request.query_string.decode("latin-1") if query else None,
        variant,
    )


def revision_key(what: str) -> Hashable:
    """What a value worked out from this game at its revision, in this language, is kept
    under, whichever page shows it (the scoreboard's values, for the scoreboard and the
    follow page, for the phone that saved the last hand and for its followers)."""
    return (what, door.game_id(), door.revision(), str(get_locale()))


def page_key(*, query: bool = True, shows: Hashable | None = None) -> Hashable | None:
    """What a whole page of this game is kept under (`parts.kept_page`): `part_key`, with all
    that the page around the part shows of what this phone may do (the header's Sign out, the
    way on to the game played next), never who it is; without the query for a page that reads
    none of it (its address a hole: `page_address()`)."""
    variant = f"page:{access.level().value}:{access.signed_in()}:{access.played_on()}"
    return part_key(variant, query=query, shows=shows)


def init_app(app: Flask) -> None:
    app.before_request(not_modified)
    app.after_request(tag)

"""`/games/<id>/events`: the event stream a following page of a game holds (http/stream.py).

It comes in through the door like every page of the game, so that only a phone that may follow
the game opens it, and asks again whenever the game's links or the table's PIN change. The
streams of one share link hold only a share of the server's (http/stream.py).

The stream of a page that says which it is (`?page=`, the page's endpoint) and whose body its
stream may carry (`parts.carried`: the scoreboard, the follow page, the display) carries that
body with each new revision (`News`), so that the page need not ask for itself: the marked parts
that changed since the revision it told the page before (`parts.changed`), or the body whole.

A stream reads nothing at a revision made by hands recorded alone since its phone's access was
checked, at the same access stamp (`services/push.py`): who may follow is then as it was, and
the page's body for this phone is drawn from what the door read then, moved on to the new
revision (`door.GIVEN`); and the streams of a game whose phones see the same page alike (the
page, its language, what the phone may do) are told the same news, worked out once a revision
(`push.Hub.shared`). Any other revision, or a change of who may follow, has the door read again.
"""

from __future__ import annotations

import io
import json
import threading
from collections.abc import Callable, Hashable
from contextlib import AbstractContextManager
from typing import Any, NamedTuple

from flask import Blueprint, Flask, current_app, request, url_for
from flask_babel import get_locale
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from ..http import access, caching, door, stream
from ..http.access import Access, needs
from ..presenters import parts
from ..services import kept as kept_games
from ..services import push
from ..services.errors import NotFound
from ..wording import page_title

bp = Blueprint("events", __name__)


@bp.get("/games/<game_id>/events")
@needs(Access.FOLLOW)
@caching.never_kept
def game_events() -> Response:
    """The game's revision now and at each change, while the page stays open."""
    return stream.respond(
        push.game_key(door.game_id()),
        door.revision(),
        access.still_may(Access.FOLLOW),
        link=access.link_token(),
        news=_news(request.args.get("page", "")),
    )


UNSENT = ("wsgi.input", "werkzeug.request", "HTTP_IF_NONE_MATCH", "HTTP_LAST_EVENT_ID")
"""What of the stream's request its page's request leaves out: the body, the request object
werkzeug keeps in it, and what would make the page a poll."""


def _news(endpoint: str) -> News | None:
    """What the stream of the page `endpoint` carries, if its body may be carried."""
    body = parts.carrier(current_app.view_functions.get(endpoint))
    if body is None:
        return None
    environ = {name: value for name, value in request.environ.items() if name not in UNSENT}
    path = url_for(endpoint, game_id=door.game_id())
    environ.update(
        PATH_INFO=path.removeprefix(request.script_root),
        QUERY_STRING="",
        REQUEST_METHOD="GET",
    )
    app: Flask = current_app._get_current_object()  # type: ignore[attr-defined]
    return News(app, environ, body, request.args.get("since", ""))


class News:
    """What one following page is told of each new revision of its game: its body as its own
    request would draw it for this phone (in a request of the page made from the stream's: the
    door, the access check and all), the parts that changed since what it was told before, or
    whole. A phone the page would send elsewhere (the table played on, a follow link on the
    scoreboard) is told the revision alone, and asks for its page as it did before streams."""

    def __init__(
        self,
        app: Flask,
        environ: dict[str, Any],
        body: Callable[[], parts.Drawn | None],
        since: str,
    ) -> None:
        self.app, self.environ, self.body = app, environ, body
        self.since = since
        self.shown: tuple[str, parts.Chunks] | None = None
        """The revision the page shows as this stream told it, and its body cut in parts."""
        self.checked: Checked | None = None
        """What the door read when the phone was last let in, and how its page is seen (while
        the page shows a body)."""

    def opened(self, revision: str) -> None:
        """The stream names `revision` first: the page shows it if it was drawn at it."""
        drawn = self._drawn() if revision == self.since else None
        self.shown = None
        if isinstance(drawn, Drawn) and drawn.revision == revision:
            self.shown = (drawn.revision, drawn.cut)

    def tell(self, revision: str, again: bool) -> tuple[str, str] | stream.Refused | None:
        """The revision the page is told now (`revision`, heard, or later) and what it is told
        of it (as JSON); None when it is to ask for itself; `stream.REFUSED` when this phone
        may no longer follow the game (the page's own access check, asked `again` when who
        may follow changed since)."""
        given = None if again else self._moved_on(revision)
        checked = self.checked
        shared = self._shared(revision) if given is not None and checked is not None else None
        if shared is None or checked is None:
            return self._told(given)
        # The streams that see the page alike, from the same revision, are told the same: one
        # works it out (the others wait for it), under the revision it is of.
        key = (revision, checked.seen, self.shown[0] if self.shown else None)
        with one_at_a_time(shared, key):
            found = shared.get(key)
            if found is not None:
                self.shown, self.checked = (revision, found[1]), Checked(given, checked.seen)
                return revision, str(found[0])
            told = self._told(given)
            alike = self.checked is not None and self.checked.seen == checked.seen
            if isinstance(told, tuple) and told[0] == revision and self.shown and alike:
                shared[key] = (told[1], self.shown[1])
            return told

    def _told(self, given: Any) -> tuple[str, str] | stream.Refused | None:
        """What `tell` tells, worked out for this phone (`given`: what the door would read)."""
        drawn = self._drawn(given)
        if not isinstance(drawn, Drawn):
            self.shown = None
            return drawn
        told: dict[str, object] = {"revision": drawn.revision, "title": drawn.title}
        changed = parts.changed(self.shown[1], drawn.cut) if self.shown else None
        if self.shown is None or changed is None:
            told["whole"] = drawn.cut.text
        else:
            told.update(base=self.shown[0], count=len(drawn.cut.parts), parts=changed)
        self.shown = (drawn.revision, drawn.cut)
        return drawn.revision, json.dumps(told, ensure_ascii=False)

    def _moved_on(self, revision: str) -> Any:
        """What the door would read now, without reading it, if this phone's access was checked
        at the access stamp heard last and `revision` is made of the one it was checked at by
        hands recorded alone (the game kept here says so); else None."""
        checked = self.checked
        if checked is None or push.hub_of(self.app).stamp != checked.state.access_stamp:
            return None
        state = checked.state
        with self.app.app_context():
            found = kept_games.moved_on(
                str(state.id), revision, str(state.revision), int(state.last_position or 0)
            )
        if found is None:
            return None
        over = found.replay.game_over
        return door.moved_on(state, revision, found.game.last_position, over)

    def _shared(self, revision: str) -> dict[Any, Any] | None:
        return push.hub_of(self.app).shared(push.game_key(str(self.checked.state.id)), revision)  # type: ignore[union-attr]

    def _drawn(self, given: Any = None) -> Drawn | stream.Refused | None:
        """The page's body now, for this phone; from what the door read before, `given` at the
        revision now (`door.GIVEN`), if the stream knows it."""
        environ = {**self.environ, "wsgi.input": io.BytesIO()}
        if given is not None:
            environ[door.GIVEN] = given
        self.checked = None
        with self.app.request_context(environ):
            try:
                if self.app.preprocess_request() is not None:
                    return stream.REFUSED  # the door let it in; the access check did not
            except (HTTPException, NotFound):  # the game gone: the stream says so next
                return None
            drawn = None if access.played_on() else self.body()
            if drawn is None:
                return None
            body = drawn.body
            cut = body.followed() if isinstance(body, parts.Kept) else parts.chunks(str(body))
            state = door.state()
            if not state.next_game_id:  # nothing of the game played next to ask again
                seen = (request.endpoint, str(get_locale()), access.level())
                self.checked = Checked(state, seen)
            return Drawn(door.revision(), page_title(drawn.title), cut)


def one_at_a_time(shared: dict[Any, Any], key: Hashable) -> AbstractContextManager[Any]:
    """The lock the streams that work out the same news (`key`) take one at a time."""
    lock: threading.Lock = shared.setdefault(("working out", key), threading.Lock())
    return lock


class Checked(NamedTuple):
    """What the door read when a stream's phone was last let in (`door.state()`), and how its
    page is seen: the page, its language and what the phone may do (what its body is drawn
    for, never who it is)."""

    state: Any
    seen: tuple[str | None, str, access.Access]


class Drawn(NamedTuple):
    """A following page's body at a revision, as a follower is shown it, and its title."""

    revision: str
    title: str
    cut: parts.Chunks

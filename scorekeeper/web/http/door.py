"""The one door to a game: every route with a game in its address comes in here.

Before any view or `before_request` hook runs, `enter` takes `game_id` out of the address, reads
the game's revision and whether it is over (404 when there is no such game) and keeps them for
the request; views ask `game()` for the game itself, loaded once with its sides and players.
This is also where the table's access check goes, so that no route of a game can pass it by:
`tests/web/test_door.py` fails for a route with a game in its address that does not come in.

A read of a game sees one state. The door peeks at the game in one statement outside any
transaction (all that a 304, or a page kept drawn, needs), and a read that goes on to draw a page
reads it again in a transaction (`settle`: REPEATABLE READ on PostgreSQL; a read transaction of
SQLite's WAL sees one snapshot), so that the cached replay of the revision read and the hands
read beside it are of the same moment: at once for most views (`caching.not_modified`), and for
a view whose page is kept drawn (`caching.kept`) only when it draws (`game()`). A write reads
the game in its own transaction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from sqlalchemy import bindparam, exists, func, select

from ..extensions import db
from ..services import kept as kept_games
from ..services.access import PIN
from ..services.errors import NotFound
from ..services.kept import KeptGame
from ..services.loading import game_with_sides
from ..store import database
from ..store.models import Game, Hand, Phone, TableSetting

READS = frozenset({"GET", "HEAD"})
GONE = "when_the_game_is_gone"
GAME = Game.__table__
SETTING = TableSetting.__table__
PHONE = Phone.__table__
HAND = Hand.__table__
PHONE_KEY = "phone"
"""The session's signed-in phone (`access.py`): its id, a row of `phone` while signed in."""
STATE = select(
    GAME.c.revision,
    GAME.c.over,
    GAME.c.follow_token,
    GAME.c.join_token,
    GAME.c.next_game_id,
    select(SETTING.c.value).where(SETTING.c.key == PIN).scalar_subquery().label("pin_hash"),
    exists().where(PHONE.c.id == bindparam("phone")).label("phone_signed_in"),
    select(func.max(HAND.c.position))
    .where(HAND.c.game_id == GAME.c.id)
    .scalar_subquery()
    .label("last_position"),
).where(GAME.c.id == bindparam("game_id"), GAME.c.deleted_at.is_(None))
"""What the door reads of a game, the table's PIN and whether the phone is signed in, in one
Core statement compiled once:
all that a 304 needs, and all that the access check needs (`access.py`); and the place of the
game's last hand, by which a page kept drawn knows whether hands were recorded since
(`services/kept.py`). A deleted game is not
there, as if it were gone for good (it can be brought back for a while, from the recently
deleted games, which are not behind this door)."""
View = TypeVar("View", bound=Callable[..., object])


def when_gone(endpoint: str) -> Callable[[View], View]:
    """A view whose write, sent again for a game it deleted (a double tap), goes to `endpoint`
    rather than to "no such game"."""

    def mark(view: View) -> View:
        setattr(view, GONE, endpoint)
        return view

    return mark


def enter(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Come in to the game the address names: its id and revision kept for this request."""
    if not values or "game_id" not in values:
        return
    game_id = values.pop("game_id")
    # A poll, or a page kept drawn, peeks at the game in one statement through the driver,
    # outside any transaction: most are answered from that alone (a 304, the page kept). One
    # that goes on to draw a page reads again (`settle`, `kept`); any other request reads the
    # game in a transaction, where what it reads next sees the same moment.
    if request.method in READS and (_view_peeks(endpoint) or "If-None-Match" in request.headers):
        g.peeked = True
        _came_in(game_id, endpoint, database.peek(STATE, _values(game_id)))
        return
    if request.method in READS:
        _snapshot()
    _read(game_id, endpoint)


PEEKS = "door_peeks"


def peeks(view: View) -> View:
    """A view of a game whose page is kept drawn (`parts.kept_page`): the door peeks at the
    game for it, and it reads the game (`kept`) only to draw the page, once per revision."""
    setattr(view, PEEKS, True)
    return view


def _view_peeks(endpoint: str | None) -> bool:
    return bool(getattr(current_app.view_functions.get(endpoint or ""), PEEKS, False))


def _snapshot() -> None:
    """What the request reads from here on is of one moment: a transaction of its own, in
    REPEATABLE READ on PostgreSQL (SQLite's WAL gives a read transaction one snapshot)."""
    db.session.rollback()  # what was read before (a share link's tokens) was of another moment
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})


def _values(game_id: str) -> dict[str, str]:
    phone = session.get(PHONE_KEY)
    return {"game_id": game_id, "phone": phone if isinstance(phone, str) else ""}


def _read(game_id: str, endpoint: str | None) -> None:
    state = db.session.connection().execute(STATE, _values(game_id)).one_or_none()
    _came_in(game_id, endpoint, state)


def _came_in(game_id: str, endpoint: str | None, state: Any) -> None:
    if state is None:
        gone = getattr(current_app.view_functions.get(endpoint or ""), GONE, None)
        if gone is not None and request.method not in READS:
            abort(redirect(url_for(gone)))
        raise NotFound(f"no game {game_id!r}")
    g.game_id, g.revision, g.over = game_id, state.revision, bool(state.over)
    g.door_state = state


def read_again(game_id: str, phone: str) -> Any:
    """What the door reads of a game for a `phone`, read again outside any request (an event
    stream asking whether the phone may still follow it); None once the game is gone."""
    with db.engine.connect() as connection:
        return connection.execute(STATE, {"game_id": game_id, "phone": phone}).one_or_none()


def settle() -> None:
    """Before a read of a game draws anything: what the door peeked at is read again in a
    transaction (REPEATABLE READ on PostgreSQL; SQLite's reads in one see one snapshot), so
    that the page, its hands and the revision it is kept under are all of one moment (a peek
    sees the moment it ran). Once per request, and only for a read that draws: a poll
    answered 304, and a page kept drawn, never read more than the peek."""
    if not g.pop("peeked", False):
        return
    _snapshot()
    _read(game_id(), request.endpoint)


def inside() -> bool:
    """Whether this request came in through the door (its address names a game)."""
    return "game_id" in g


def game_id() -> str:
    """The id of the game this request is about."""
    return str(g.game_id)


def revision() -> str:
    """The game's revision as this request read it when it came in."""
    return str(g.revision)


def over() -> bool:
    """Whether the game was over when this request came in."""
    return bool(g.over)


def state() -> Any:
    """What the door read of the game: its revision, whether it is over, its links, the game
    played after it, the PIN."""
    return g.door_state


def pin_hash() -> str | None:
    """The hash of the PIN set on the settings page, read with the game."""
    hashed: str | None = g.door_state.pin_hash
    return hashed


def phone_signed_in() -> bool:
    """Whether the session's phone was signed in, read with the game."""
    return bool(g.door_state.phone_signed_in)


def game() -> Game:
    """The game with its sides and players, read once per request (its hands on demand), in
    the snapshot of the revision the door read (`settle`)."""
    if "game" not in g:
        settle()
        g.game = game_with_sides(game_id())
    loaded: Game = g.game
    return loaded


def kept() -> KeptGame:
    """The game as this process keeps it (`services/kept.py`): its hands and replay, read only
    as far as they changed since. At the revision the door read, or, when the game was read
    whole and had changed meanwhile, at the later one it was read at, which the request takes
    for its own (as `settle` would): what is drawn from it is kept under the revision drawn."""
    if "kept" not in g:
        begin = _snapshot if g.pop("peeked", False) else lambda: None
        last = g.door_state.last_position or 0
        found = kept_games.game_at(game_id(), revision(), last, begin)
        if found.game.revision != revision():
            g.revision, g.over = found.game.revision, found.replay.game_over
        g.kept = found
    kept_game: KeptGame = g.kept
    return kept_game


def init_app(app: Flask) -> None:
    app.url_value_preprocessor(enter)

"""The one door to a game: every route with a game in its address comes in here.

Before any view or `before_request` hook runs, `enter` takes `game_id` out of the address, reads
the game's revision and whether it is over (404 when there is no such game) and keeps them for
the request; views ask `game()` for the game itself, loaded once with its sides and players.
This is also where the table's access check goes, so that no route of a game can pass it by:
`tests/web/test_door.py` fails for a route with a game in its address that does not come in.

A read of a game sees one state. SQLite's WAL gives a read transaction one snapshot; on
PostgreSQL the door peeks at the game outside a transaction (all that a 304 needs), and a read
that goes on to draw a page reads it again in a REPEATABLE READ transaction (`settle`, called
once the answer is known not to be a 304), so that the cached replay of the revision read and
the hands read beside it are of the same moment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from sqlalchemy import bindparam, exists, select

from ..extensions import db
from ..services.access import PIN
from ..services.errors import NotFound
from ..services.loading import game_with_sides
from ..store.models import Game, Phone, TableSetting

READS = frozenset({"GET", "HEAD"})
GONE = "when_the_game_is_gone"
GAME = Game.__table__
SETTING = TableSetting.__table__
PHONE = Phone.__table__
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
).where(GAME.c.id == bindparam("game_id"), GAME.c.deleted_at.is_(None))
"""What the door reads of a game, the table's PIN and whether the phone is signed in, in one
Core statement compiled once:
all that a 304 needs, and all that the access check needs (`access.py`). A deleted game is not
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
    # On PostgreSQL a read peeks at the game in one statement outside any transaction: most
    # reads are polls answered 304 from that alone, and a transaction would cost two more round
    # trips to the server (BEGIN, ROLLBACK). A read that goes on to draw a page `settle`s first.
    peek = request.method in READS and db.engine.dialect.name == "postgresql"
    if peek:
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    g.peeked = peek
    _read(game_id, endpoint)


def _read(game_id: str, endpoint: str | None) -> None:
    phone = session.get(PHONE_KEY)
    values = {"game_id": game_id, "phone": phone if isinstance(phone, str) else ""}
    state = db.session.connection().execute(STATE, values).one_or_none()
    if state is None:
        gone = getattr(current_app.view_functions.get(endpoint or ""), GONE, None)
        if gone is not None and request.method not in READS:
            abort(redirect(url_for(gone)))
        raise NotFound(f"no game {game_id!r}")
    g.game_id, g.revision, g.over = game_id, state.revision, state.over
    g.door_state = state


def read_again(game_id: str, phone: str) -> Any:
    """What the door reads of a game for a `phone`, read again outside any request (an event
    stream asking whether the phone may still follow it); None once the game is gone."""
    with db.engine.connect() as connection:
        return connection.execute(STATE, {"game_id": game_id, "phone": phone}).one_or_none()


def settle() -> None:
    """Before a read of a game draws anything: on PostgreSQL, what the door peeked at is read
    again in a REPEATABLE READ transaction, so that the page, its hands and the revision it is
    kept under are all of one moment (each statement outside a transaction sees its own)."""
    if not g.pop("peeked", False):
        return
    db.session.rollback()  # gives back the connection outside a transaction
    db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
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
    """The game with its sides and players, read once per request (its hands on demand)."""
    if "game" not in g:
        g.game = game_with_sides(game_id())
    loaded: Game = g.game
    return loaded


def init_app(app: Flask) -> None:
    app.url_value_preprocessor(enter)

"""The one door to a game or a club night: every route with one in its address comes in here.

Before any view or `before_request` hook runs, `enter` takes the followed thing out of the
address (a game's `game_id`; a night's `night_id`, its standings link's `standings_token`, or
one of its table cards' `card_token`), reads its revision (404 when there is none) and keeps
them for the request; views ask `game()` for the game itself, loaded once with its sides and
players, and `night()` for the night. This is also where the table's access check goes, so
that no route of a game or a night can pass it by: `tests/web/test_door.py` and
`tests/web/test_night_door.py` fail for a route with one in its address that does not come in.

A read sees one state. SQLite's WAL gives a read transaction one snapshot; on PostgreSQL the
door peeks at the game or night outside a transaction (all that a 304 needs), and a read that
goes on to draw a page reads it again in a REPEATABLE READ transaction (`settle`, called once
the answer is known not to be a 304), so that the kept drawing of the revision read and the
rows read beside it are of the same moment.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from sqlalchemy import Integer, Select, bindparam, exists, null, select

from ..extensions import db
from ..services import push
from ..services.access import PIN
from ..services.errors import NotFound
from ..services.loading import game_with_sides
from ..services.nights import night_of
from ..store.models import Game, Night, NightTable, Phone, TableSetting

READS = frozenset({"GET", "HEAD"})
GONE = "when_the_game_is_gone"
GAME = Game.__table__
SETTING = TableSetting.__table__
PHONE = Phone.__table__
PHONE_KEY = "phone"
"""The session's signed-in phone (`access.py`): its id, a row of `phone` while signed in."""
PIN_HASH = select(SETTING.c.value).where(SETTING.c.key == PIN).scalar_subquery().label("pin_hash")
SIGNED_IN = exists().where(PHONE.c.id == bindparam("phone")).label("phone_signed_in")
STATE = select(
    GAME.c.id,
    GAME.c.revision,
    GAME.c.over,
    GAME.c.follow_token,
    GAME.c.join_token,
    GAME.c.next_game_id,
    PIN_HASH,
    SIGNED_IN,
).where(GAME.c.id == bindparam("key"), GAME.c.deleted_at.is_(None))
"""What the door reads of a game, the table's PIN and whether the phone is signed in, in one
Core statement compiled once:
all that a 304 needs, and all that the access check needs (`access.py`). A deleted game is not
there, as if it were gone for good (it can be brought back for a while, from the recently
deleted games, which are not behind this door)."""
NIGHT = Night.__table__
NIGHT_TABLE = NightTable.__table__


def _night_state(*where: Any, table: Any = None) -> Select[Any]:
    table = null().cast(Integer) if table is None else table
    return select(
        NIGHT.c.id,
        NIGHT.c.revision,
        NIGHT.c.follow_token,
        NIGHT.c.ended_at,
        table.label("table"),
        PIN_HASH,
        SIGNED_IN,
    ).where(*where, NIGHT.c.deleted_at.is_(None))


NIGHT_STATES = {
    "night_id": _night_state(NIGHT.c.id == bindparam("key")),
    "standings_token": _night_state(NIGHT.c.follow_token == bindparam("key")),
    "card_token": _night_state(
        NIGHT_TABLE.c.night_id == NIGHT.c.id,
        NIGHT_TABLE.c.token == bindparam("key"),
        table=NIGHT_TABLE.c.number,
    ),
}
"""What the door reads of a night, the same way: by its id (the director's pages), its standings
link (the standings and results) or one of its table cards (and then the card's table)."""
ADDRESSES = ("game_id", *NIGHT_STATES)
"""The names a route gives what it follows in its address; a route of a game or a night names
it so, and only so (the door tests find one that does not)."""
View = TypeVar("View", bound=Callable[..., object])


def when_gone(endpoint: str) -> Callable[[View], View]:
    """A view whose write, sent again for a game it deleted (a double tap), goes to `endpoint`
    rather than to "no such game"."""

    def mark(view: View) -> View:
        setattr(view, GONE, endpoint)
        return view

    return mark


def enter(endpoint: str | None, values: dict[str, Any] | None) -> None:
    """Come in to the game or night the address names: what it is, its revision and the rest
    the door reads kept for this request."""
    name = next((name for name in ADDRESSES if name in (values or {})), None)
    if values is None or name is None:
        return
    g.address = (name, values.pop(name))
    # On PostgreSQL a read peeks in one statement outside any transaction: most reads are polls
    # answered 304 from that alone, and a transaction would cost two more round trips to the
    # server (BEGIN, ROLLBACK). A read that goes on to draw a page `settle`s first.
    peek = request.method in READS and db.engine.dialect.name == "postgresql"
    if peek:
        db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    g.peeked = peek
    _read(endpoint)


def _read(endpoint: str | None) -> None:
    name, key = g.address
    phone = session.get(PHONE_KEY)
    values = {"key": key, "phone": phone if isinstance(phone, str) else ""}
    statement = STATE if name == "game_id" else NIGHT_STATES[name]
    state = db.session.connection().execute(statement, values).one_or_none()
    if state is None:
        gone = getattr(current_app.view_functions.get(endpoint or ""), GONE, None)
        if gone is not None and request.method not in READS:
            abort(redirect(url_for(gone)))
        raise NotFound(f"no such {'game' if name == 'game_id' else 'night'}: {key!r}")
    g.kind = "game" if name == "game_id" else "night"
    g.followed_id, g.revision, g.door_state = state.id, state.revision, state
    setattr(g, f"{g.kind}_id", state.id)  # templates name it so: g.game_id, g.night_id


def read_again(game_id: str, phone: str) -> Any:
    """What the door reads of a game for a `phone`, read again outside any request (an event
    stream asking whether the phone may still follow it); None once the game is gone."""
    with db.engine.connect() as connection:
        return connection.execute(STATE, {"key": game_id, "phone": phone}).one_or_none()


def night_still_there(night_id: str) -> bool:
    """Whether a night is there (not deleted), read again outside any request (its event
    stream, asking before it names a new revision)."""
    with db.engine.connect() as connection:
        found = connection.execute(NIGHT_STATES["night_id"], {"key": night_id, "phone": ""})
        return found.first() is not None


def settle() -> None:
    """Before a read draws anything: on PostgreSQL, what the door peeked at is read again in a
    REPEATABLE READ transaction, so that the page, its rows and the revision it is kept under
    are all of one moment (each statement outside a transaction sees its own)."""
    if not g.pop("peeked", False):
        return
    db.session.rollback()  # gives back the connection outside a transaction
    db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    _read(request.endpoint)


def inside() -> bool:
    """Whether this request came in through the door (its address names a game or a night)."""
    return "kind" in g


def in_game() -> bool:
    """Whether this request came in through a game's door."""
    return bool(g.get("kind") == "game")


def in_night() -> bool:
    """Whether this request came in through a night's door."""
    return bool(g.get("kind") == "night")


def followed() -> str:
    """What this request follows, as the push names it: `game:<id>` or `night:<id>`."""
    make = push.game_key if in_game() else push.night_key
    return make(str(g.followed_id))


def game_id() -> str:
    """The id of the game this request is about."""
    assert in_game()
    return str(g.followed_id)


def night_id() -> str:
    """The id of the night this request is about."""
    assert in_night()
    return str(g.followed_id)


def revision() -> str:
    """The game's or night's revision as this request read it when it came in."""
    return str(g.revision)


def over() -> bool:
    """Whether the game was over when this request came in."""
    return bool(g.door_state.over)


def state() -> Any:
    """What the door read: of a game, its revision, whether it is over, its links, the game
    played after it; of a night, its revision, its standings link, when it ended and the table
    of the card in the address; and the PIN and whether the phone is signed in."""
    return g.door_state


def pin_hash() -> str | None:
    """The hash of the PIN set on the settings page, read with the game or night."""
    hashed: str | None = g.door_state.pin_hash
    return hashed


def phone_signed_in() -> bool:
    """Whether the session's phone was signed in, read with the game or night."""
    return bool(g.door_state.phone_signed_in)


def game() -> Game:
    """The game with its sides and players, read once per request (its hands on demand)."""
    if "game" not in g:
        g.game = game_with_sides(game_id())
    loaded: Game = g.game
    return loaded


def night() -> Night:
    """The night (its pairs, tables and rounds on demand), read once per request."""
    if "night" not in g:
        g.night = night_of(night_id())
    loaded: Night = g.night
    return loaded


def table() -> int:
    """The number of the table whose card is in the address."""
    number: int = g.door_state.table
    return number


def init_app(app: Flask) -> None:
    app.url_value_preprocessor(enter)

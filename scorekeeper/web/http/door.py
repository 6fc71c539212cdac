"""The one door to a game, a club night or a season: every route with one in its address comes
in here.

Before any view or `before_request` hook runs, `enter` takes the followed thing out of the
address (a game's `game_id`; a night's `night_id`, its standings link's `standings_token`, or
one of its table cards' `card_token`; a season's standings link, `season_token`), reads its
revision (404 when there is none) and keeps them for the request; views ask `game()` for the
game itself, loaded once with its sides and players, `night()` for the night and `season()`
for the season. A season's revision is made of its own and its nights' (`store.seasons`): the
door reads them in its one statement, a row per night.

This is also where the table's access check goes, so that no route of a game, a night or a
season can pass it by: `tests/web/test_door.py` and `tests/web/test_night_door.py` fail for a
route with one in its address that does not come in.

A read sees one state. The door peeks at the game or night in one statement through the
driver, outside any transaction (`database.peek`: all that a 304, or a page kept drawn, needs),
and a read that goes on to draw a page reads it again in a transaction (`settle`: REPEATABLE
READ on PostgreSQL; a read transaction of SQLite's WAL sees one snapshot), so that the kept
drawing of the revision read and the rows read beside it are of the same moment: at once for
most views (`caching.not_modified`), and for a view of a game whose page is kept drawn
(`peeks`) only when it draws (`game()`, `kept()`). A write reads in its own transaction.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, TypeVar

from flask import Flask, abort, current_app, g, redirect, request, session, url_for
from sqlalchemy import Integer, Select, bindparam, exists, func, null, select

from ..extensions import db
from ..services import keeping, push
from ..services import kept as kept_games
from ..services.access import PIN
from ..services.errors import NotFound
from ..services.kept import KeptGame
from ..services.loading import game_with_sides
from ..services.nights import night_of
from ..services.seasons import season_of
from ..store import database
from ..store.models import Game, Hand, Night, NightTable, Phone, TableSetting
from ..store.seasons import SEASON, Season, revisions_of, season_rows

READS = frozenset({"GET", "HEAD"})
GONE = "when_the_game_is_gone"
GAME = Game.__table__
SETTING = TableSetting.__table__
PHONE = Phone.__table__
HAND = Hand.__table__
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
    select(func.max(HAND.c.position))
    .where(HAND.c.game_id == GAME.c.id)
    .scalar_subquery()
    .label("last_position"),
    push.stamp_column(),
).where(GAME.c.id == bindparam("key"), GAME.c.deleted_at.is_(None))
"""What the door reads of a game, the table's PIN and whether the phone is signed in, in one
Core statement compiled once:
all that a 304 needs, and all that the access check needs (`access.py`), with the access stamp
it was read at (`services/push.py`); and the place of the
game's last hand, by which a page kept drawn knows whether hands were recorded since
(`services/kept.py`). A deleted game is not
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
SEASON_STATE = season_rows(SEASON.c.follow_token == bindparam("key"), columns=(PIN_HASH, SIGNED_IN))
"""What the door reads of a season, by its standings link: a row per night, from which its
revision is made (`store.seasons.revisions_of`)."""
SEASON_ADDRESS = "season_token"
KINDS = {"game_id": "game", SEASON_ADDRESS: "season"}
"""What an address's name follows; a night's names are the rest (`NIGHT_STATES`)."""
ADDRESSES = ("game_id", *NIGHT_STATES, SEASON_ADDRESS)
"""The names a route gives what it follows in its address; a route of a game, a night or a
season names it so, and only so (the door tests find one that does not)."""


class SeasonState(NamedTuple):
    """What the door read of a season, its rows made one: its revision made of its nights'."""

    id: str
    revision: str
    follow_token: str
    pin_hash: str | None
    phone_signed_in: bool


def _season_state(rows: Sequence[Any]) -> SeasonState | None:
    if not rows:
        return None
    first = rows[0]
    revision = revisions_of(rows)[first.id]
    return SeasonState(
        first.id, revision, first.follow_token, first.pin_hash, bool(first.phone_signed_in)
    )


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
    # A poll, or a page kept drawn, peeks in one statement through the driver, outside any
    # transaction: most are answered from that alone (a 304, the page kept), and a transaction
    # would cost two more round trips to the server (BEGIN, ROLLBACK). One that goes on to draw
    # a page reads again (`settle`, `kept`); any other request reads in a transaction, where
    # what it reads next sees the same moment. A hand saved peeks too: its write reads the game
    # again inside its own lock, and what it reads before is the game kept (`kept`).
    given = request.environ.get(GIVEN)
    if given is not None:  # an event stream's page, at a revision it knows all of (`GIVEN`)
        g.peeked = True
        _came_in(endpoint, given)
        return
    polled = request.method in READS and "If-None-Match" in request.headers
    if _view_peeks(endpoint) or polled:
        g.peeked = True
        if _in_season_address():
            rows = database.peek(_statement(), _values(), every=True)
            _came_in(endpoint, _season_state(rows))
        else:
            _came_in(endpoint, database.peek(_statement(), _values()))
        return
    if request.method in READS:
        _snapshot()
    _read(endpoint)


GIVEN = "scorekeeper.door.given"
"""The WSGI environ's key of what the door would read, given by an event stream that drew its
page's body for its phone (pages/events.py) at a revision whose game it knows is the one it
read and hands recorded since (`services/kept.py`), at the same access stamp
(`services/push.py`): what it read then, at the revision since. Only the app puts it there (a
client's headers come in as `HTTP_…`)."""
State = namedtuple("State", [column.key for column in STATE.selected_columns])  # type: ignore[misc]


def moved_on(state: Any, revision: str, last_position: int, over: bool) -> Any:
    """What the door read of a game (`state()`), as it is at a later `revision` made by hands
    recorded alone, with its last hand at place `last_position`."""
    read = state._asdict()
    return State(**{**read, "revision": revision, "last_position": last_position, "over": over})


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


def _in_season_address() -> bool:
    return bool(g.address[0] == SEASON_ADDRESS)


def _statement() -> Select[Any]:
    name, _key = g.address
    if name == SEASON_ADDRESS:
        return SEASON_STATE
    return STATE if name == "game_id" else NIGHT_STATES[name]


def _values() -> dict[str, str]:
    phone = session.get(PHONE_KEY)
    return {"key": g.address[1], "phone": phone if isinstance(phone, str) else ""}


def _read(endpoint: str | None) -> None:
    read = db.session.connection().execute(_statement(), _values())
    _came_in(endpoint, _season_state(read.all()) if _in_season_address() else read.one_or_none())


def _came_in(endpoint: str | None, state: Any) -> None:
    name, key = g.address
    if state is None:
        gone = getattr(current_app.view_functions.get(endpoint or ""), GONE, None)
        if gone is not None and request.method not in READS:
            abort(redirect(url_for(gone)))
        raise NotFound(f"no such {KINDS.get(name, 'night')}: {key!r}")
    g.kind = KINDS.get(name, "night")
    g.followed_id, g.revision, g.door_state = state.id, state.revision, state
    if g.kind == "game":
        g.over = bool(state.over)  # the driver's own value when peeked (SQLite: 0 or 1)
    setattr(g, f"{g.kind}_id", state.id)  # templates name it so: g.game_id, g.night_id…
    keeping.following(followed())  # what is kept in this request is this game's or night's


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
    """Before a read draws anything: what the door peeked at is read again in a transaction
    (REPEATABLE READ on PostgreSQL; SQLite's reads in one see one snapshot), so that the page,
    its rows and the revision it is kept under are all of one moment (a peek sees the moment
    it ran). Once per request, and only for a read that draws: a poll answered 304, and a page
    kept drawn, never read more than the peek."""
    if not g.pop("peeked", False):
        return
    _snapshot()
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


def in_season() -> bool:
    """Whether this request came in through a season's door (its standings link)."""
    return bool(g.get("kind") == "season")


def followed() -> str:
    """What this request follows, as the push names it: `game:<id>`, `night:<id>` or
    `season:<id>`."""
    make = {"game": push.game_key, "season": push.season_key}.get(g.kind, push.night_key)
    return make(str(g.followed_id))


def game_id() -> str:
    """The id of the game this request is about."""
    assert in_game()
    return str(g.followed_id)


def night_id() -> str:
    """The id of the night this request is about."""
    assert in_night()
    return str(g.followed_id)


def season_id() -> str:
    """The id of the season this request is about."""
    assert in_season()
    return str(g.followed_id)


def revision() -> str:
    """The game's, night's or season's revision as this request read it when it came in."""
    return str(g.revision)


def over() -> bool:
    """Whether the game was over at the revision this request reads (`kept` may move it on)."""
    return bool(g.over)


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


def night() -> Night:
    """The night (its pairs, tables and rounds on demand), read once per request, in the
    snapshot of the revision the door read (`settle`)."""
    if "night" not in g:
        settle()
        g.night = night_of(night_id())
    loaded: Night = g.night
    return loaded


def season() -> Season:
    """The season, read once per request, in the snapshot of the revision the door read
    (`settle`)."""
    if "season" not in g:
        settle()
        g.season = season_of(season_id())
    loaded: Season = g.season
    return loaded


def table() -> int:
    """The number of the table whose card is in the address."""
    number: int = g.door_state.table
    return number


def init_app(app: Flask) -> None:
    app.url_value_preprocessor(enter)

"""What the database keeps: each game as it was set up and each hand as it was entered.

Totals, minimums and the winner are not stored as facts: they are replayed by the rules engine
from the recorded hands. `Game.over`, `Side.total`, `Side.won` and `Entry.hand_score` are a copy
of the last replay, kept only so that lists of games need not replay every game.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import JSON, BigInteger, ForeignKey, Index, String, Text, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column, relationship

from ...rules import SetKind
from ..extensions import Base, db

NAME_LENGTH = 40
KEY_LENGTH = 3 * NAME_LENGTH
"""A player key is a name casefolded, and casefolding makes at most three characters of one."""
TOKEN_LENGTH = 40
REVISION_LENGTH = 16
SHARE_TOKEN_LENGTH = 24
PHONE_ID_LENGTH = 24
ADDRESS_LENGTH = 64
"""The longest client address a PIN guess is counted under (`http.access.client_address`)."""
START_SCORE_LIMIT = 100_000
"""A score carried over from paper is within ± this; a larger one is a typing slip."""
LARGEST_ID = 2**31 - 1
"""The largest number an INTEGER column holds on PostgreSQL (SQLite's hold up to 2**63 - 1): ids,
versions and hand numbers are INTEGER columns, and a larger number in a query is an error there,
not a row that is not found. Row ids fit in it (`columns.ROW_ID`), and no number past it is ever
looked up (`http.converters.whole_number`)."""
SCORE = BigInteger
"""The column of a score the replay gives (a hand's, a total): a game file's hand may hold up to
10^9 card points in hand or melded, so a few hands pass PostgreSQL's 32-bit `integer`."""


# Flask-SQLAlchemy builds `db.Model` at run time from Base's bases and body, adding table names and
# binds; a type checker cannot follow a base class made at run time (python/mypy#8603), so to it a
# model is the Base it was built from.
if TYPE_CHECKING:
    Model = Base
else:
    Model = db.Model


def now() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


def new_game_id() -> str:
    """A random, unguessable id for URLs."""
    return secrets.token_urlsafe(12)


def new_token() -> str:
    """A form's one-time token: sent twice (a double tap), the form still does its work once."""
    return secrets.token_urlsafe(16)


def new_share_token() -> str:
    """A follow or join link's token: unguessable, and not the game's id (which lists show)."""
    return secrets.token_urlsafe(16)


def new_phone_id() -> str:
    """A signed-in phone's id, kept in its session: unguessable, so a phone cannot borrow
    another's sign-in."""
    return secrets.token_urlsafe(16)


def new_revision() -> str:
    """A game's next revision: random, so that no two states of a game ever share one."""
    return secrets.token_hex(REVISION_LENGTH // 2)


def player_key(name: str) -> str:
    """How a player is recognised across games: case and spacing do not matter.

    >>> player_key("  Ana   María ")
    'ana maría'
    """
    return " ".join(name.split()).casefold()


class Game(Model):
    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_game_id)
    system_id: Mapped[str] = mapped_column(String(20), index=True)
    options: Mapped[list[str]] = mapped_column(JSON, default=list)
    house_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    created_at: Mapped[datetime] = mapped_column(default=now, index=True)
    updated_at: Mapped[datetime] = mapped_column(default=now, onupdate=now, index=True)
    over: Mapped[bool] = mapped_column(default=False, index=True)
    revision: Mapped[str] = mapped_column(String(REVISION_LENGTH), default="", server_default="")
    """A new random value at every write to the game (`new_revision`): what is worked out from
    the game (its replay, its scoreboard) is cached in memory under it, so it is right in
    every process and after a restore, where a counter could come round to a used number."""
    name: Mapped[str | None] = mapped_column(String(NAME_LENGTH), default=None)
    """A name the table gave the game; None shows it by its players."""
    archived_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    """When it was put away: an archived game is off the home page, not out of the history."""
    token: Mapped[str | None] = mapped_column(String(TOKEN_LENGTH), default=None, unique=True)
    """The one-time token of the form that started it, so that a form sent twice starts one."""
    first_dealer: Mapped[int] = mapped_column(default=0, server_default="0")
    """Who dealt the first hand: a place in the order of play (`rules.seating`), from 0."""
    follow_token: Mapped[str] = mapped_column(
        String(SHARE_TOKEN_LENGTH), default=new_share_token, unique=True
    )
    """The follow link's token: whoever has it may watch this game (`access.py`)."""
    join_token: Mapped[str] = mapped_column(
        String(SHARE_TOKEN_LENGTH), default=new_share_token, unique=True
    )
    """The join link's token: whoever has it may record, correct and delete its hands."""
    next_game_id: Mapped[str | None] = mapped_column(String(24), default=None)
    """The game this table played next ("Play again"), where the phones following this one go
    (`http/access.py`'s `played_on`); None until then."""

    deleted_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    """When it was deleted: out of every list and page, it can be brought back until
    `services.games.KEPT_DELETED` has passed, then it is purged for good."""
    night_id: Mapped[str | None] = mapped_column(ForeignKey("night.id"), default=None, index=True)
    """The club night whose round this game is (a table's game of one round), None for a game
    of its own: it is an ordinary game in the history and the statistics all the same."""

    sides: Mapped[list[Side]] = relationship(
        back_populates="game", order_by="Side.position", cascade="all, delete-orphan"
    )
    hands: Mapped[list[Hand]] = relationship(
        back_populates="game", order_by="Hand.position", cascade="all, delete-orphan"
    )

    @property
    def live_hands(self) -> list[Hand]:
        """The hands that count: recorded and not deleted, in order of play."""
        return [hand for hand in self.hands if hand.deleted_at is None]


class Side(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    start_score: Mapped[int] = mapped_column(default=0)
    total: Mapped[int | None] = mapped_column(SCORE, default=None)
    """Copy of the last replay's total, for lists and statistics."""
    won: Mapped[bool | None] = mapped_column(default=None)
    # Copies of the last replay too, summed over the side's live hands, so that statistics add
    # up sides rather than every entry (`services.figures`); None until first replayed.
    hands: Mapped[int | None] = mapped_column(default=None)
    best: Mapped[int | None] = mapped_column(SCORE, default=None)
    """The side's best hand score; None also while it has played no hand."""
    went_out: Mapped[int | None] = mapped_column(default=None)
    red_threes: Mapped[int | None] = mapped_column(default=None)
    natural_canastas: Mapped[int | None] = mapped_column(default=None)
    mixed_canastas: Mapped[int | None] = mapped_column(default=None)
    sambas: Mapped[int | None] = mapped_column(default=None)
    black_sambas: Mapped[int | None] = mapped_column(default=None)
    super_sambas: Mapped[int | None] = mapped_column(default=None)
    wild_canastas: Mapped[int | None] = mapped_column(default=None)
    sevens_canastas: Mapped[int | None] = mapped_column(default=None)
    red_three_canastas: Mapped[int | None] = mapped_column(default=None)
    team: Mapped[str | None] = mapped_column(Text, default=None)
    """Copy of who played on the side, for statistics to group sides by (`services.figures`):
    each named player's key and name in UTF-8 hexadecimal, `KEY:NAME`, joined by commas (so
    that no name can break it apart); None when no player is named."""
    # Copies of the game's system, whether it is over and when it began (`services.figures`),
    # so that statistics add up the sides alone, read in order from one index that holds every
    # figure they add (`ix_side_statistics`): no join with the games and no sort.
    system_id: Mapped[str | None] = mapped_column(String(20), default=None)
    over: Mapped[bool | None] = mapped_column(default=None)
    created_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="sides")
    players: Mapped[list[Player]] = relationship(
        back_populates="side", order_by="Player.position", cascade="all, delete-orphan"
    )


SET_COLUMNS: Mapping[SetKind, str] = {kind: f"{kind.value}s" for kind in SetKind}
"""The column of `Side` counting the sets of each kind the side made."""
SIDE_TALLIES = ("hands", "best", "went_out", "red_threes", *SET_COLUMNS.values())
"""The columns of `Side` that statistics add up, copied from the last replay."""
SIDE_STATISTICS = ("team", "system_id", "created_at", "over", "won", "total", "start_score",
                   *SIDE_TALLIES, "game_id")  # fmt: skip
"""Everything statistics read of a side, in the order they group it (`tallies._teams`)."""
Index(
    "ix_side_statistics",
    *(Side.__table__.c[column] for column in SIDE_STATISTICS),
    # Only sides with a named player count (and a family's sides often have none).
    sqlite_where=Side.__table__.c.team.is_not(None),
    postgresql_where=Side.__table__.c.team.is_not(None),
)


class Player(Model):
    # A side's team (`Side.team`) is spelled again from its named players and their names, read
    # from the first index alone (services.figures.store_teams), not from the table; and the
    # names each player was written with, from the second (store.tallies.names_of).
    __table_args__ = (
        Index("ix_player_side_id_key_name", "side_id", "key", "name"),
        Index("ix_player_key_name", "key", "name"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id"), index=True)
    position: Mapped[int]
    name: Mapped[str] = mapped_column(String(NAME_LENGTH), default="")
    key: Mapped[str] = mapped_column(String(KEY_LENGTH), default="", index=True)
    """`player_key(name)`, or another player's key once merged into them."""

    side: Mapped[Side] = relationship(back_populates="players")


class Hand(Model):
    __table_args__ = (
        UniqueConstraint("game_id", "token"),
        # Two phones can never both record hand N: the database refuses the second.
        UniqueConstraint("game_id", "position", name="uq_hand_game_position"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), index=True)
    position: Mapped[int]
    ended_by: Mapped[str] = mapped_column(String(20))
    token: Mapped[str] = mapped_column(String(TOKEN_LENGTH))
    """The form's one-time token, so that a form sent twice records one hand."""
    version: Mapped[int] = mapped_column(default=1)
    """Counts corrections, so that a correction made from a stale page is noticed."""
    created_at: Mapped[datetime] = mapped_column(default=now)
    deleted_at: Mapped[datetime | None] = mapped_column(default=None)

    game: Mapped[Game] = relationship(back_populates="hands")
    entries: Mapped[list[Entry]] = relationship(
        back_populates="hand", order_by="Entry.side_position", cascade="all, delete-orphan"
    )
    corrections: Mapped[list[Correction]] = relationship(
        back_populates="hand", order_by="Correction.id", cascade="all, delete-orphan"
    )


class Entry(Model):
    """One side's record of one hand, as entered (the fields of a game file's entry)."""

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id"), index=True)
    side_position: Mapped[int]
    went_out: Mapped[bool] = mapped_column(default=False)
    concealed: Mapped[bool] = mapped_column(default=False)
    opening_meld: Mapped[int | None] = mapped_column(default=None)
    sets: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    melded_points: Mapped[int] = mapped_column(default=0)
    hand_points: Mapped[int] = mapped_column(default=0)
    red_threes: Mapped[int] = mapped_column(default=0)
    red_threes_in_hand: Mapped[int] = mapped_column(default=0)
    players_holding_red_threes: Mapped[int] = mapped_column(default=0)
    penalties: Mapped[dict[str, int]] = mapped_column(JSON, default=dict)
    hand_score: Mapped[int | None] = mapped_column(SCORE, default=None)
    """Copy of the last replay's score of this entry, for statistics."""

    hand: Mapped[Hand] = relationship(back_populates="entries")


class Correction(Model):
    """A change to a recorded hand: what it was, what it became, and when.

    `after` is None when the hand was deleted; `before` is None when a deleted hand was brought
    back.
    """

    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id"), index=True)
    at: Mapped[datetime] = mapped_column(default=now)
    before: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    after: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)

    hand: Mapped[Hand] = relationship(back_populates="corrections")


class HouseRule(Model):
    """A table's own rules, named and reused for new games; games keep a snapshot of them."""

    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    system_id: Mapped[str] = mapped_column(String(20))
    options: Mapped[list[str]] = mapped_column(JSON, default=list)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    """The game file's `house_rules` keys other than `name`."""
    created_at: Mapped[datetime] = mapped_column(default=now)
    updated_at: Mapped[datetime] = mapped_column(default=now, onupdate=now)


class TableSetting(Model):
    """A setting of the table's own, made from the app's pages (the PIN, hashed)."""

    key: Mapped[str] = mapped_column(String(40), primary_key=True)
    value: Mapped[str] = mapped_column(String(400))


class PinAttempt(Model):
    """Wrong PINs sent from one address, and when the last came: the next try waits longer."""

    address: Mapped[str] = mapped_column(String(ADDRESS_LENGTH), primary_key=True)
    failures: Mapped[int]
    last_at: Mapped[datetime]


class Phone(Model):
    """A phone signed in at this table: what its session says it may do (the PIN entered, its
    share links) counts only while its row is here (`http/access.py` says why a row per phone).
    Signing the phone out deletes the row, so a copy of its cookie taken before is worth nothing;
    signing every phone out deletes them all."""

    id: Mapped[str] = mapped_column(String(PHONE_ID_LENGTH), primary_key=True)
    signed_in_at: Mapped[datetime] = mapped_column(default=now)


class PlayerMerge(Model):
    """One player's rows counted as another's (a merge, or a rename to a name already taken),
    kept so that it can be undone: the rows it changed and what they were called before."""

    id: Mapped[int] = mapped_column(primary_key=True)
    key: Mapped[str] = mapped_column(String(KEY_LENGTH))
    """The key merged away: what the rows take back when the merge is undone."""
    into: Mapped[str] = mapped_column(String(KEY_LENGTH), index=True)
    """The key the rows took."""
    players: Mapped[list[int]] = mapped_column(JSON, default=list)
    """The ids of the `Player` rows that changed."""
    names: Mapped[list[str]] = mapped_column(JSON, default=list)
    """Their names before, in the same order (a rename changed them too)."""
    at: Mapped[datetime] = mapped_column(default=now)
    undone_at: Mapped[datetime | None] = mapped_column(default=None)


class Night(Model):
    """A club night: pairs at numbered tables playing rounds, each table's round an ordinary
    game (`Game.night_id`), the pairs moving between rounds by a movement (`scorekeeper.nights`)."""

    id: Mapped[str] = mapped_column(String(24), primary_key=True, default=new_game_id)
    name: Mapped[str] = mapped_column(String(NAME_LENGTH))
    system_id: Mapped[str] = mapped_column(String(20))
    options: Mapped[list[str]] = mapped_column(JSON, default=list)
    house_rules: Mapped[dict[str, Any] | None] = mapped_column(JSON, default=None)
    """The house rules every round's game is played under (each game keeps its own copy)."""
    movement: Mapped[str] = mapped_column(String(20))
    ranking: Mapped[str] = mapped_column(String(20))
    round_count: Mapped[int]
    round_hands: Mapped[int | None] = mapped_column(default=None)
    """A round is this many hands; None: a round is played to the game's target."""
    round_minutes: Mapped[int | None] = mapped_column(default=None)
    """The round clock, shown on the room's screen; None: no clock."""
    current_round: Mapped[int] = mapped_column(default=0)
    """The round being played or last played; 0 before the first starts."""
    created_at: Mapped[datetime] = mapped_column(default=now)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    """When the director ended the night: its table cards open no game any more."""
    revision: Mapped[str] = mapped_column(String(REVISION_LENGTH), default=new_revision)
    """A new value whenever a hand is saved at one of its tables, a round starts or ends, or
    the director changes something: the standings are drawn once per revision."""
    follow_token: Mapped[str] = mapped_column(
        String(SHARE_TOKEN_LENGTH), default=new_share_token, unique=True
    )
    """The standings' link (the room's screen, the phones): whoever has it may watch."""
    token: Mapped[str | None] = mapped_column(String(TOKEN_LENGTH), default=None, unique=True)
    """The one-time token of the form that set it up (a double tap sets up one night)."""
    deleted_at: Mapped[datetime | None] = mapped_column(default=None, index=True)
    """As a game's: with its games, kept for `KEPT_DELETED`, to be brought back."""
    season_id: Mapped[str | None] = mapped_column(ForeignKey("season.id"), default=None, index=True)
    """The one season it counts in (`store.seasons.Season`), if any."""

    pairs: Mapped[list[Pair]] = relationship(
        back_populates="night", order_by="Pair.number", cascade="all, delete-orphan"
    )
    tables: Mapped[list[NightTable]] = relationship(
        back_populates="night", order_by="NightTable.number", cascade="all, delete-orphan"
    )
    rounds: Mapped[list[NightRound]] = relationship(
        back_populates="night", order_by="NightRound.number", cascade="all, delete-orphan"
    )


class Pair(Model):
    """Two players who play the night together, known by their number (the movement's)."""

    __table_args__ = (UniqueConstraint("night_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("night.id"), index=True)
    number: Mapped[int]
    first: Mapped[str] = mapped_column(String(NAME_LENGTH))
    second: Mapped[str] = mapped_column(String(NAME_LENGTH))
    present: Mapped[bool] = mapped_column(default=True)
    """False once it left (between rounds): its later opponents sit out."""

    night: Mapped[Night] = relationship(back_populates="pairs")


class NightTable(Model):
    """A numbered table of a night, with its card's token: the one link its phone opens."""

    __table_args__ = (UniqueConstraint("night_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("night.id"), index=True)
    number: Mapped[int]
    token: Mapped[str] = mapped_column(
        String(SHARE_TOKEN_LENGTH), default=new_share_token, unique=True
    )

    night: Mapped[Night] = relationship(back_populates="tables")


class NightRound(Model):
    """One round of a night: who sits where (printed before play), when it started and ended,
    and, kept when it starts, who sat out and who had left (`nights.as_played`): its tables as
    played are the seats that got a game, and a pair of the night in none of them had not
    arrived. A pair leaving or arriving later changes the rounds to come, never this one."""

    __table_args__ = (UniqueConstraint("night_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    night_id: Mapped[str] = mapped_column(ForeignKey("night.id"), index=True)
    number: Mapped[int]
    started_at: Mapped[datetime | None] = mapped_column(default=None)
    ended_at: Mapped[datetime | None] = mapped_column(default=None)
    sitting_out: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    """The pairs there without a game, by number; None until the round starts."""
    absent: Mapped[list[int] | None] = mapped_column(JSON, default=None)
    """The pairs that had left when it started, by number; None until the round starts."""

    night: Mapped[Night] = relationship(back_populates="rounds")
    seats: Mapped[list[Seating]] = relationship(
        back_populates="round", order_by="Seating.table", cascade="all, delete-orphan"
    )


class Seating(Model):
    """One table in one round: the north-south and east-west pairs (by number), and the game
    they play once the round starts."""

    __table_args__ = (UniqueConstraint("round_id", "table"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("night_round.id"), index=True)
    table: Mapped[int]
    ns: Mapped[int]
    ew: Mapped[int]
    game_id: Mapped[str | None] = mapped_column(ForeignKey("game.id"), default=None, index=True)
    counting: Mapped[str | None] = mapped_column(String(20), default=None)
    """What its game counts as (`nights.Counting`), chosen when its round was ended with it
    unfinished; None: the game as played (a game without a hand is not played)."""

    round: Mapped[NightRound] = relationship(back_populates="seats")

"""History: every game, filtered and paged; statistics per player and partnership; players renamed
and merged.

Everything here reads the copies of the last replay (`Side.total`, `Side.won`, `Entry.hand_score`)
so that no game is replayed to list it or to count it.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import format_percent
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from sqlalchemy import Select, and_, case, func, or_, select, update
from sqlalchemy.orm import selectinload
from werkzeug.wrappers import Response
from wtforms import SelectField, StringField
from wtforms.validators import DataRequired, Length

from .. import rules
from .converters import whole_number
from .database import writing
from .models import NAME_LENGTH, Entry, Game, Hand, Player, Side, db, player_key
from .services import revise_games_of

bp = Blueprint("history", __name__)

PAGE_SIZE = 20
STATUSES = ("all", "playing", "finished")
PARTNERSHIPS_SHOWN = 30
"""On /stats, the partnerships with most games; each player's page lists all of theirs."""


# --- the list of games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class SideRow:
    name: str
    total: int
    won: bool
    players: list[str]


@dataclass(frozen=True)
class GameRow:
    """A game as the list shows it."""

    id: str
    system_id: str
    created_at: datetime
    over: bool
    winner: str | None  # None while playing, and for a tie
    sides: list[SideRow]


@dataclass(frozen=True)
class GamePage:
    rows: list[GameRow]
    page: int
    newer: int | None  # the page number of newer games, if any
    older: int | None


def _row(game: Game) -> GameRow:
    sides = [
        SideRow(
            name=side.name,
            total=side.total or 0,
            won=bool(side.won),
            players=[p.name for p in side.players if p.name],
        )
        for side in game.sides
    ]
    winner = next((side.name for side in sides if side.won), None)
    return GameRow(game.id, game.system_id, game.created_at, game.over, winner, sides)


def _filtered(
    query: Select[Any], player: str, system: str, status: str, side_names: bool
) -> Select[Any]:
    key = player_key(player)
    if key:
        played = Side.players.any(Player.key == key)
        named = func.lower(Side.name) == key
        query = query.where(Game.sides.any(or_(played, named) if side_names else played))
    if system:
        query = query.where(Game.system_id == system)
    if status == "playing":
        query = query.where(Game.over.is_(False))
    elif status == "finished":
        query = query.where(Game.over.is_(True))
    return query


def game_page(
    player: str = "",
    system: str = "",
    status: str = "all",
    page: int = 1,
    side_names: bool = True,
) -> GamePage:
    """One page of games, newest first; a player matches by key, or by the name of their side.

    A page past the last lists nothing and links back to the last one.
    """
    page = max(page, 1)
    query = _filtered(select(Game), player, system, status, side_names)
    found = db.session.scalar(select(func.count()).select_from(query.subquery())) or 0
    last = max(1, -(-found // PAGE_SIZE))
    if page > last:  # and its offset might not even fit in a database integer
        return GamePage(rows=[], page=page, newer=last, older=None)
    games = db.session.scalars(
        query.options(selectinload(Game.sides).selectinload(Side.players))
        .order_by(Game.created_at.desc(), Game.id.desc())
        .limit(PAGE_SIZE)
        .offset((page - 1) * PAGE_SIZE)
    ).all()
    return GamePage(
        rows=[_row(game) for game in games],
        page=page,
        newer=page - 1 if page > 1 else None,
        older=page + 1 if page < last else None,
    )


# --- statistics ----------------------------------------------------------------------------------

SET_KINDS = tuple(rules.SetKind)


@dataclass
class Tally:
    """What a player or a partnership did: games, wins and what their sides scored hand by hand."""

    games: int = 0
    finished: int = 0
    wins: int = 0
    hands: int = 0
    score: int = 0
    best: int | None = None
    went_out: int = 0
    red_threes: int = 0
    sets: dict[rules.SetKind, int] = field(default_factory=dict)

    def add_games(self, games: int, finished: int, wins: int) -> None:
        self.games += games
        self.finished += finished
        self.wins += wins

    def add_hands(self, row: Sequence[Any]) -> None:
        """Add hands, their summed score, best score, times went out, red threes, sets by kind."""
        hands, score, best, went_out, red_threes, *sets = row
        self.hands += hands or 0
        self.score += score or 0
        if best is not None:
            self.best = best if self.best is None else max(self.best, best)
        self.went_out += went_out or 0
        self.red_threes += red_threes or 0
        for kind, made in zip(SET_KINDS, sets, strict=True):
            if made:
                self.sets[kind] = self.sets.get(kind, 0) + made

    @property
    def win_rate(self) -> str | None:
        """Wins among finished games, as the page's language writes a percentage."""
        if not self.finished:
            return None
        return str(format_percent(self.wins / self.finished))

    @property
    def average(self) -> int | None:
        """The average hand score, rounded."""
        return round(self.score / self.hands) if self.hands else None

    @property
    def sets_made(self) -> list[tuple[str, int]]:
        """(label, how many) for each kind of set made at least once, in the rule book's order."""
        return [(kind.label, self.sets[kind]) for kind in SET_KINDS if self.sets.get(kind)]


@dataclass(frozen=True)
class PlayerStats:
    key: str
    name: str
    tally: Tally


@dataclass(frozen=True)
class PartnershipStats:
    keys: tuple[str, ...]
    names: list[str]
    tally: Tally


def _side_hands(key: str | None) -> Any:
    """Each side's hands summed up: one GROUP BY over the entries of live hands, by game and
    side position (the entry's side), so that the entries are read once."""
    query = (
        select(
            Hand.game_id.label("game_id"),
            Entry.side_position.label("position"),
            func.count(Entry.id).label("hands"),
            func.sum(Entry.hand_score).label("score"),
            func.max(Entry.hand_score).label("best"),
            func.sum(case((Entry.went_out.is_(True), 1), else_=0)).label("went_out"),
            func.sum(Entry.red_threes).label("red_threes"),
            *(
                func.sum(Entry.sets[kind.value].as_integer()).label(f"set_{kind.value}")
                for kind in SET_KINDS
            ),
        )
        .join(Hand, Entry.hand_id == Hand.id)
        .where(Hand.deleted_at.is_(None))
        .group_by(Hand.game_id, Entry.side_position)
    )
    if key is not None:
        query = query.where(Hand.game_id.in_(_games_of(key)))
    return query.subquery()


def _games_of(key: str) -> Select[Any]:
    return select(Side.game_id).join(Player, Player.side_id == Side.id).where(Player.key == key)


def _side_rows(key: str | None) -> dict[int, list[Any]]:
    """What each side (of `key`'s games, or of all) did: whether its game is over, whether it won,
    then its hands as `Tally.add_hands` takes them."""
    hands = _side_hands(key)
    query = (
        select(
            Side.id,
            Game.over,
            Side.won,
            hands.c.hands,
            hands.c.score,
            hands.c.best,
            hands.c.went_out,
            hands.c.red_threes,
            *(hands.c[f"set_{kind.value}"] for kind in SET_KINDS),
        )
        .join(Game, Side.game_id == Game.id)
        .outerjoin(hands, and_(hands.c.game_id == Side.game_id, hands.c.position == Side.position))
    )
    if key is not None:
        query = query.where(Side.game_id.in_(_games_of(key)))
    return {side_id: row for side_id, *row in db.session.execute(query)}


@dataclass(frozen=True)
class _Seat:
    side_id: int
    key: str
    name: str
    when: datetime


def _seats(key: str | None) -> list[_Seat]:
    """Every named player's place on a side (in `key`'s games, or in all)."""
    query = (
        select(Player.side_id, Player.key, Player.name, Game.created_at)
        .join(Side, Player.side_id == Side.id)
        .join(Game, Side.game_id == Game.id)
        .where(Player.key != "")
    )
    if key is not None:
        query = query.where(Side.game_id.in_(_games_of(key)))
    return [_Seat(*row) for row in db.session.execute(query)]


def _latest_names(seats: Iterable[_Seat]) -> dict[str, str]:
    latest: dict[str, tuple[datetime, str]] = {}
    for seat in seats:
        if seat.key not in latest or (seat.when, seat.name) > latest[seat.key]:
            latest[seat.key] = (seat.when, seat.name)
    return {key: " ".join(name.split()) for key, (_when, name) in latest.items()}


def player_names() -> dict[str, str]:
    """Each player's key and the name they went by in their most recent game."""
    query = (
        select(Player.key, Player.name, func.max(Game.created_at))
        .join(Side, Player.side_id == Side.id)
        .join(Game, Side.game_id == Game.id)
        .where(Player.key != "")
        .group_by(Player.key, Player.name)
    )
    return _latest_names(_Seat(0, *row) for row in db.session.execute(query))


def statistics(key: str | None = None) -> tuple[list[PlayerStats], list[PartnershipStats]]:
    """Statistics of every named player and partnership, most games first; with `key`, of that
    player and of the partnerships they were in. Two queries, whatever the number of games."""
    sides = _side_rows(key)
    seats = _seats(key)
    names = _latest_names(seats)
    members: dict[int, set[str]] = defaultdict(set)
    for seat in seats:
        members[seat.side_id].add(seat.key)
    players: dict[str, Tally] = defaultdict(Tally)
    partnerships: dict[tuple[str, ...], Tally] = defaultdict(Tally)
    for side_id, keys in members.items():
        over, won, *hands = sides[side_id]
        counted = [players[player] for player in keys if key is None or player == key]
        if len(keys) >= 2 and (key is None or key in keys):
            counted.append(partnerships[tuple(sorted(keys))])
        for tally in counted:
            tally.add_games(1, int(over), int(bool(won)))
            tally.add_hands(hands)
    return (
        sorted(
            (PlayerStats(k, names[k], tally) for k, tally in players.items()),
            key=lambda p: (-p.tally.games, p.name.casefold()),
        ),
        sorted(
            (
                PartnershipStats(keys, [names[k] for k in keys], tally)
                for keys, tally in partnerships.items()
            ),
            key=lambda p: (-p.tally.games, [n.casefold() for n in p.names]),
        ),
    )


# --- renaming and merging players ----------------------------------------------------------------


class PlayerRefused(ValueError):
    """A rename or merge that cannot be done; nothing was changed."""


def _known(key: str) -> bool:
    return db.session.scalar(select(Player.id).where(Player.key == key).limit(1)) is not None


def rename_player(key: str, new_name: str) -> tuple[str, bool]:
    """Give a player a new name in every game; returns the new key and whether that merged them
    into a player who already had it."""
    name = new_name.strip()
    if not name:
        raise PlayerRefused("a player needs a name")
    if len(name) > NAME_LENGTH:
        raise PlayerRefused(f"names are at most {NAME_LENGTH} characters: {name!r}")
    new_key = player_key(name)
    with writing():
        if not key or not _known(key):
            raise PlayerRefused(f"no player {key!r}")
        merged = new_key != key and _known(new_key)
        revise_games_of(key)
        db.session.execute(update(Player).where(Player.key == key).values(name=name, key=new_key))
    return new_key, merged


def merge_players(key: str, into: str) -> None:
    """Count a player's games as another player's from now on: their rows take the other's key."""
    with writing():
        if not key or not _known(key):
            raise PlayerRefused(f"no player {key!r}")
        if into == key or not into or not _known(into):
            raise PlayerRefused(f"cannot merge {key!r} into {into!r}")
        revise_games_of(key)
        db.session.execute(update(Player).where(Player.key == key).values(key=into))


# --- views ---------------------------------------------------------------------------------------


class RenameForm(FlaskForm):
    name = StringField(
        _l("New name"),
        validators=[DataRequired(), Length(max=NAME_LENGTH)],
        render_kw={
            "maxlength": NAME_LENGTH,
            "autocomplete": "off",
            "aria-describedby": "rename-name-hint",
        },
    )


class MergeForm(FlaskForm):
    into = SelectField(_l("The same person as"), validators=[DataRequired()])


def _page_number() -> int:
    """The `?page=` asked for; one that is not a page number (0, -1, abc, 10^30) is a 404."""
    page = whole_number(request.args.get("page", "1"))
    if page is None:
        abort(404)
    return page


@bp.get("/games")
def games() -> str:
    player = request.args.get("player", "")[: NAME_LENGTH * 2]
    system = request.args.get("system", "")
    if system not in rules.SYSTEMS:
        system = ""
    status = request.args.get("status", "all")
    if status not in STATUSES:
        status = "all"
    found = game_page(player, system, status, _page_number())
    filters = {"player": player, "system": system, "status": status}
    return render_template(
        "history/games.html",
        page=found,
        filters=filters,
        shown_filters={k: v for k, v in filters.items() if v and v != "all"},
        systems=rules.SYSTEMS,
        statuses=[("all", _("All")), ("playing", _("In progress")), ("finished", _("Finished"))],
    )


@bp.get("/stats")
def stats() -> str:
    players, partnerships = statistics()
    return render_template(
        "history/stats.html",
        players=players,
        partnerships=partnerships[:PARTNERSHIPS_SHOWN],
        partnerships_left=max(len(partnerships) - PARTNERSHIPS_SHOWN, 0),
    )


def _merge_form(key: str) -> MergeForm:
    form = MergeForm(prefix="merge")
    others = player_names()
    form.into.choices = sorted(
        (
            (k, f"{name} ({k})" if player_key(name) != k else name)
            for k, name in others.items()
            if k != key
        ),
        key=lambda choice: choice[1].casefold(),
    )
    return form


def _player_page(
    key: str, rename: RenameForm, merge: MergeForm, status: int = 200
) -> tuple[str, int]:
    found, partnerships = statistics(key)
    if not found:
        abort(404)
    recent = game_page(player=key, side_names=False).rows
    return render_template(
        "history/player.html",
        player=found[0],
        partnerships=partnerships,
        games=recent,
        more_games=len(recent) == PAGE_SIZE,
        rename=rename,
        merge=merge,
        systems=rules.SYSTEMS,
    ), status


@bp.get("/players/<path:key>")
def player(key: str) -> tuple[str, int]:
    rename = RenameForm(prefix="rename")
    return _player_page(key, rename, _merge_form(key))


@bp.post("/players/<path:key>/rename")
def rename(key: str) -> Response | tuple[str, int]:
    if not _known(key):
        abort(404)
    form = RenameForm(prefix="rename")
    if form.validate_on_submit():
        try:
            new_key, merged = rename_player(key, form.name.data or "")
        except PlayerRefused:
            form.name.errors = [_("Write a name.")]
        else:
            if merged:
                flash(
                    _(
                        "Renamed. A player of that name already existed:"
                        " their games now count together."
                    )
                )
            else:
                flash(_("Renamed."))
            return redirect(url_for("history.player", key=new_key))
    return _player_page(key, form, _merge_form(key), 422)


@bp.post("/players/<path:key>/merge")
def merge(key: str) -> Response | tuple[str, int]:
    if not _known(key):
        abort(404)
    form = _merge_form(key)
    if form.validate_on_submit():
        merge_players(key, form.into.data or "")
        flash(_("Merged: their games now count together."))
        return redirect(url_for("history.player", key=form.into.data))
    return _player_page(key, RenameForm(prefix="rename"), form, 422)

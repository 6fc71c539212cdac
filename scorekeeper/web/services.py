"""What the web app does to games, as functions of plain values: each one transaction.

Views call these; these call the rules engine to check and the database to keep.
"""

from __future__ import annotations

import copy
import json
import secrets
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from threading import Lock
from typing import Any, NamedTuple

from cachetools import LRUCache, cached
from sqlalchemy import Select, func, inspect, or_, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import joinedload, selectinload
from sqlalchemy.orm.attributes import set_committed_value

from .. import rules
from ..rules.fields import ENTRY_FIELDS, FieldRef, entry_of, held, plain, value_of
from ..rules.gamefile import hand_data, read_hand
from . import schema
from .database import writing
from .models import (
    NAME_LENGTH,
    REVISION_LENGTH,
    SET_COLUMNS,
    Correction,
    Entry,
    Game,
    Hand,
    Player,
    Side,
    db,
    now,
    player_key,
)


class NotFound(LookupError):
    """No such game, hand or house rule: the web layer answers it as a 404."""


class HandRefused(Exception):
    """A hand that breaks the rules; it was not recorded."""

    def __init__(self, violations: Sequence[rules.Violation]) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = list(violations)


class HandChanged(Exception):
    """The hand was corrected or deleted by someone else since the form was opened."""

    def __init__(self, current: Hand) -> None:
        super().__init__(f"hand {current.id} is now at version {current.version}")
        self.current = current


class HandTaken(Exception):
    """Someone else recorded the hand this form was opened for; nothing was recorded."""

    def __init__(self, recorded: Sequence[Hand]) -> None:
        super().__init__(", ".join(f"hand {h.position}" for h in recorded) or "a hand")
        self.recorded = list(recorded)


class HandSaved(Exception):
    """This form's hand was saved already, and what was sent now differs from it."""

    def __init__(self, saved: Hand) -> None:
        super().__init__(f"hand {saved.position} was saved from this form")
        self.saved = saved


class GameRefused(Exception):
    """A game file or set-up that breaks the rules; nothing was stored."""

    def __init__(self, violations: Sequence[rules.Violation]) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = list(violations)


@dataclass(frozen=True)
class NewSide:
    """A side as the new-game form gives it."""

    name: str
    players: Sequence[str]
    start_score: int = 0


SystemKey = tuple[str, tuple[str, ...], str]
"""What a game's rules are read from: system id, options, house rules as canonical JSON."""


def system_key(game: Game) -> SystemKey:
    house = json.dumps(game.house_rules, sort_keys=True) if game.house_rules else ""
    return game.system_id, tuple(sorted(game.options or ())), house


@lru_cache(maxsize=64)
def system_for(key: SystemKey) -> rules.RuleSystem:
    """The rules a key describes, read once: a RuleSystem is frozen, so pages share it."""
    system_id, options, house = key
    return rules.read_system(system_id, dict.fromkeys(options, True), json.loads(house or "null"))


def system_of(game: Game) -> rules.RuleSystem:
    """The rules a game is played under: its system, options and house rules."""
    return system_for(system_key(game))


def engine_entry(entry: Entry) -> rules.Entry:
    """A recorded entry for the rules engine: its columns are the entry's fields."""
    return entry_of({field.name: getattr(entry, field.name) for field in ENTRY_FIELDS})


def engine_hand(hand: Hand) -> rules.Hand:
    return rules.Hand(tuple(engine_entry(e) for e in hand.entries), rules.EndedBy(hand.ended_by))


def engine_game(game: Game, hands: Sequence[rules.Hand] | None = None) -> rules.Game:
    """The game for the rules engine, with its recorded hands or with `hands` instead."""
    return rules.Game(
        system=system_of(game),
        sides=tuple(
            rules.Side(side.name, len(side.players), side.start_score) for side in game.sides
        ),
        hands=tuple(engine_hand(h) for h in game.live_hands) if hands is None else tuple(hands),
        first_dealer=game.first_dealer or 0,  # None on a row not stored yet (a restore's)
    )


def replay(game: Game) -> rules.GameResult:
    """The game replayed from its recorded hands, as they are in this transaction."""
    return rules.replay(engine_game(game))


GAMES_KEPT = 64
"""Games whose replay each process keeps in memory: more than a club has tables."""
REPLAYS: LRUCache[tuple[str, str], rules.GameResult] = LRUCache(GAMES_KEPT)
REPLAYS_LOCK = Lock()


def _kept(game: Game) -> tuple[str, str]:
    return game.id, game.revision


@cached(REPLAYS, key=_kept, lock=REPLAYS_LOCK)
def kept_replay(game: Game) -> rules.GameResult:
    """The replay of the game as stored, kept under its revision for the pages that follow.

    Only for a game as read: a write replays afresh (`replay`) and keeps what it stored (`_keep`).
    """
    return replay(with_hands(game))


def _keep(game_id: str, revision: str, result: rules.GameResult) -> None:
    """Keep a replay that was committed under this revision (a later page reads it)."""
    with REPLAYS_LOCK:
        REPLAYS[game_id, revision] = result


def with_hands(game: Game) -> Game:
    """The game with its hands and their entries, then their corrections, in two statements if
    they were not loaded yet: a page that needs only the sides never loads the hands."""
    if "hands" in inspect(game).unloaded:
        hands = (
            db.session.scalars(
                select(Hand)
                .where(Hand.game_id == game.id)
                .order_by(Hand.position)
                .options(joinedload(Hand.entries), selectinload(Hand.corrections))
            )
            .unique()
            .all()
        )
        set_committed_value(game, "hands", hands)
    return game


def new_revision() -> str:
    """A game's next revision: random, so that no two states of a game ever share one."""
    return secrets.token_hex(REVISION_LENGTH // 2)


def revise_games_of(key: str) -> None:
    """Give the games a player played a new revision: their pages show the player's name."""
    games = select(Side.game_id).join(Player).where(Player.key == key)
    db.session.execute(update(Game).where(Game.id.in_(games)).values(revision=new_revision()))


def revision_of(game_id: str) -> str:
    """The game's revision, read alone (a page kept under it needs nothing else); NotFound."""
    revision = db.session.scalar(select(Game.revision).where(Game.id == game_id))
    if revision is None:
        raise NotFound(f"no game {game_id!r}")
    return revision


def game_with_sides(game_id: str, locked: bool = False) -> Game:
    """A game with its sides and players, in one statement; NotFound if there is none.

    `locked`: inside `writing()`, locked for writing until commit (see `lock_game`).
    """
    query = (
        select(Game)
        .where(Game.id == game_id)
        .options(joinedload(Game.sides).joinedload(Side.players))
    )
    if locked:
        # The lock is on the game's row alone (OF game): PostgreSQL refuses to lock the
        # nullable side of the outer joins that bring the sides and players along.
        query = query.with_for_update(of=Game)
    game = db.session.scalars(query).unique().one_or_none()
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    return game


@dataclass(frozen=True)
class Change:
    """One value of a corrected hand: the side and field (both None for how the hand ended),
    before and after."""

    side: int | None
    field: FieldRef | None
    before: object
    after: object


def changes(before: dict[str, Any] | None, after: dict[str, Any] | None) -> list[Change]:
    """What a correction changed, value by value (nothing listed for a deletion or a return)."""
    if before is None or after is None:
        return []
    old_hand, new_hand = read_hand(before), read_hand(after)
    found = []
    if old_hand.ending != new_hand.ending:
        found.append(Change(None, None, old_hand.ending, new_hand.ending))
    for side, (old, new) in enumerate(zip(old_hand.entries, new_hand.entries, strict=True)):
        for ref in sorted(held(old) | held(new), key=lambda ref: ref.name):
            was, now_ = value_of(old, ref), value_of(new, ref)
            if was != now_:
                found.append(Change(side, ref, was, now_))
    return found


def _fill(record: Hand, hand: rules.Hand) -> None:
    record.ended_by = hand.ended_by.value
    record.entries = [Entry(side_position=i, **plain(e)) for i, e in enumerate(hand.entries)]


Figures = tuple[bool | None, list[tuple[int | None, bool | None]], list[list[int | None]]]
"""A game's copied figures: whether it is over, each side's (total, won), each hand's scores."""


def _figures(game: Game) -> Figures:
    """The copied figures that lists and statistics read, as stored on the rows."""
    return (
        game.over,
        [(side.total, side.won) for side in game.sides],
        [[entry.hand_score for entry in hand.entries] for hand in game.live_hands],
    )


def _replayed_figures(game: Game, result: rules.GameResult) -> Figures:
    """The same figures as the replay gives them: what `_remember` stores."""
    return (
        result.game_over,
        [
            (result.totals[index], result.game_over and result.winner == index)
            for index in range(len(game.sides))
        ],
        [[side.hand_score for side in scored.sides] for scored in result.hands],
    )


def _remember(game: Game, result: rules.GameResult, last: Sequence[Hand] | None = None) -> None:
    """Copy the replay's totals, winner and hand scores onto the rows that lists read, and give
    the game a new revision.

    `last`: the hands whose scores to copy, the replay's last ones (by default every live hand;
    a new hand copies its own only, and the others are not even loaded).
    """
    over, sides, scores = _replayed_figures(game, result)
    game.over = bool(over)
    game.updated_at = now()
    game.revision = new_revision()
    for side, (total, won) in zip(game.sides, sides, strict=True):
        side.total, side.won = total, won
    _tally_sides(game, result, last)
    hands = game.live_hands if last is None else last
    for hand, hand_scores in zip(hands, scores[len(scores) - len(hands) :], strict=True):
        for entry, score in zip(hand.entries, hand_scores, strict=True):
            entry.hand_score = score


# Everything a replay reads, in a statement each rather than one per hand and entry.
FOR_REPLAY = (
    selectinload(Game.sides).selectinload(Side.players),
    selectinload(Game.hands).selectinload(Hand.entries),
)


def _whole_games(ids: Sequence[str]) -> Sequence[Game]:
    """Games with everything a replay reads, loaded in a few statements."""
    return db.session.scalars(select(Game).where(Game.id.in_(ids)).options(*FOR_REPLAY)).all()


def _batches(query: Select[Any], size: int = 500) -> Iterator[list[str]]:
    """The game ids the query selects, a few hundred at a time (memory stays small)."""
    ids: list[str] = list(db.session.scalars(query))
    for start in range(0, len(ids), size):
        yield ids[start : start + size]


def games_differing_from_replay() -> list[str]:
    """The ids of the games whose stored figures are not what replaying their hands gives."""
    differing = []
    for ids in _batches(select(Game.id).order_by(Game.id)):
        for game in _whole_games(ids):
            if _figures(game) != _replayed_figures(game, replay(game)):
                differing.append(game.id)
        db.session.rollback()
    return differing


@dataclass(frozen=True)
class Checkup:
    """What `repair_figures` did: games replayed, and how many of them it repaired."""

    games: int
    repaired: int


def repair_figures() -> Checkup:
    """Replay every game and store the replay's figures where they differ."""
    games = repaired = 0
    for ids in _batches(select(Game.id).order_by(Game.id)):
        with writing():
            for game in _whole_games(ids):
                games += 1
                result = replay(game)
                if _figures(game) != _replayed_figures(game, result):
                    _remember(game, result)
                    repaired += 1
    return Checkup(games, repaired)


def refresh_stale() -> int:
    """Replay the games whose copied figures are missing (after an upgrade); how many."""
    missing = or_(Side.total.is_(None), Side.hands.is_(None))
    stale = select(Game.id).where(Game.sides.any(missing)).order_by(Game.id)
    refreshed = 0
    for ids in _batches(stale):
        with writing():
            for game in _whole_games(ids):
                _remember(game, replay(game))
                refreshed += 1
    return refreshed


def _side_rows(sides: Sequence[NewSide]) -> list[Side]:
    """The rows of a new game's sides and players, in seating order."""
    return [
        Side(
            position=i,
            name=side.name,
            start_score=side.start_score,
            players=[
                Player(position=j, name=name, key=player_key(name))
                for j, name in enumerate(side.players)
            ],
        )
        for i, side in enumerate(sides)
    ]


def create_game(
    system_id: str,
    options: Sequence[str],
    sides: Sequence[NewSide],
    house_rules: dict[str, Any] | None = None,
    *,
    first_dealer: int = 0,
    token: str | None = None,
) -> str:
    """Set up a new game and return its id; refuses a table the system does not allow.

    `token`: the form's one-time token. A token already used starts nothing: the answer is the
    game it started, so a form sent twice (a double tap) starts one game.
    """
    game = Game(
        system_id=system_id,
        options=sorted(options),
        house_rules=house_rules,
        first_dealer=first_dealer,
        token=token,
    )
    game.sides = _side_rows(sides)
    result = rules.replay(engine_game(game, []))
    if result.game_violations:
        raise GameRefused(result.game_violations)
    _remember(game, result)
    return _start(game, token)


def _start(game: Game, token: str | None) -> str:
    """Store a new game, unless its form's token started one already; the game's id."""
    try:
        with writing():
            if token is not None:
                started = _started_by(token)
                if started is not None:
                    return started
            db.session.add(game)
            db.session.flush()
            game_id = game.id  # read now: after the commit it would begin another transaction
    except IntegrityError:
        # Only a token taken between the check and the insert (on a server database): it won.
        db.session.rollback()
        started = _started_by(token) if token is not None else None
        if started is None:
            raise
        return started
    return game_id


def _started_by(token: str) -> str | None:
    """The game a form's one-time token started, if any."""
    return db.session.scalar(select(Game.id).where(Game.token == token))


def play_again(game_id: str, token: str) -> str:
    """A new game for the same table: the same system, options, house rules (the game's own
    copy), sides, players and seats, every score back to 0; its id. NotFound if there is none.

    The deal goes on round the table: whoever would have dealt the next hand deals the first.
    """
    old = game_with_sides(game_id)
    seats = rules.seating(engine_game(old, []).sides)
    sides = [NewSide(side.name, [p.name for p in side.players]) for side in old.sides]
    return create_game(
        old.system_id,
        old.options,
        sides,
        copy.deepcopy(old.house_rules),
        first_dealer=seats.index(kept_replay(old).next_dealer),
        token=token,
    )


@contextmanager
def _game_change(game_id: str) -> Iterator[Game]:
    """One change to how a game is shown (its name, whether archived), not to its hands: the
    game locked, then a new revision, under which its replay is kept as it was."""
    with writing():
        game = lock_game(game_id, everything=False)
        result = kept_replay(game)
        yield game
        game.revision = new_revision()
        revision = game.revision
    _keep(game_id, revision, result)


def rename_game(game_id: str, name: str) -> None:
    """Give a game a name; an empty one takes the name away (the game goes by its players)."""
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH:
        raise ValueError(f"names are at most {NAME_LENGTH} characters: {name!r}")
    with _game_change(game_id) as game:
        game.name = name or None


def archive_game(game_id: str, archived: bool = True) -> None:
    """Put a game away from the home page (it stays in the history), or bring it back."""
    with _game_change(game_id) as game:
        if archived and game.archived_at is None:
            game.archived_at = now()
        elif not archived:
            game.archived_at = None


def delete_game(game_id: str) -> bool:
    """Delete a game for good, with its sides, players, hands and their corrections; False if
    there is no such game (deleted already, by a double tap or on another phone)."""
    with writing():
        try:
            game = lock_game(game_id)
        except NotFound:
            return False
        db.session.delete(game)
    return True


def new_token() -> str:
    return secrets.token_urlsafe(16)


def lock_game(game_id: str, everything: bool = True) -> Game:
    """Inside `writing()`: the game, locked for writing until commit; NotFound if there is none.

    On PostgreSQL the lock is the game's row (`SELECT … FOR UPDATE`); SQLite ignores that
    clause, and its write transaction (BEGIN IMMEDIATE, see database.py) already holds the lock.
    `everything`: with all that a replay reads (its hands), not only the sides.
    """
    game = game_with_sides(game_id, locked=True)
    return with_hands(game) if everything else game


@contextmanager
def _game_write(game_id: str) -> Iterator[Game]:
    """One write to a game: lock it, let the caller change it, re-derive its figures, commit."""
    with writing():
        game = lock_game(game_id)
        yield game
        db.session.flush()
        db.session.expire(game, ["hands"])
        result = replay(with_hands(game))
        _remember(game, result)
        revision = game.revision
    _keep(game_id, revision, result)


def last_position(game_id: str) -> int:
    """The number of the last hand recorded in this game, deleted or not (0 before the first)."""
    return db.session.scalar(select(func.max(Hand.position)).where(Hand.game_id == game_id)) or 0


def live_number(hand: Hand) -> int | None:
    """A hand's number as the scoreboard shows it (None once deleted), counted by the database."""
    if hand.deleted_at is not None:
        return None
    counted = select(func.count(Hand.id)).where(
        Hand.game_id == hand.game_id, Hand.deleted_at.is_(None), Hand.position <= hand.position
    )
    return db.session.scalar(counted)


def same_hand(record: Hand, hand: rules.Hand) -> bool:
    """Whether a recorded hand is what `hand` says."""
    return hand_data(engine_hand(record)) == hand_data(hand)


class Recorded(NamedTuple):
    """A recorded hand's id and its number on the scoreboard (None once deleted), read before
    the commit: after it, reading the hand again would cost a statement."""

    hand_id: int
    number: int | None


def record_hand(game_id: str, hand: rules.Hand, token: str, after: int | None = None) -> Recorded:
    """Record the next hand if it keeps the rules.

    A token already used records nothing: the same hand sent again is answered with the hand it
    recorded, another one with HandSaved. `after` is the last hand's number when the form was
    opened: a hand recorded since by someone else is HandTaken.

    Only the new hand is scored and checked, on top of the game's kept replay: saving costs the
    same in a game of 5 hands as in one of 100.
    """
    try:
        with writing():
            game = lock_game(game_id, everything=False)
            already: Hand | None = db.session.scalar(
                select(Hand).filter_by(game_id=game_id, token=token)
            )
            if already is not None:
                if not same_hand(already, hand):
                    raise HandSaved(already)
                return Recorded(already.id, live_number(already))
            if after is not None:
                since = _live_since(game_id, after)
                if since:
                    raise HandTaken(since)
            before = kept_replay(game)
            position = last_position(game_id) + 1
            record = Hand(game_id=game_id, position=position, token=token)
            _fill(record, hand)
            result = rules.extend(engine_game(game, []), before, engine_hand(record))
            if result.hands[-1].violations:
                raise HandRefused(result.hands[-1].violations)
            db.session.add(record)
            _remember(game, result, [record])
            db.session.flush()
            recorded, revision = Recorded(record.id, len(result.hands)), game.revision
    except IntegrityError:
        # The lock makes this impossible; if it ever happens, the other write won: say so.
        db.session.rollback()
        won: Hand | None = db.session.scalar(select(Hand).filter_by(game_id=game_id, token=token))
        if won is not None:
            return Recorded(won.id, live_number(won))
        raise HandTaken([]) from None
    _keep(game_id, revision, result)
    return recorded


def _live_since(game_id: str, after: int) -> list[Hand]:
    """The live hands recorded after hand number `after` (by position)."""
    query = (
        select(Hand)
        .where(Hand.game_id == game_id, Hand.position > after, Hand.deleted_at.is_(None))
        .order_by(Hand.position)
    )
    return list(db.session.scalars(query))


def _claim(game: Game, hand_id: int, version: int | None, *, deleted: bool = False) -> Hand:
    """The hand, bumped to the next version; HandChanged if it moved on since `version`.

    `deleted`: whether the hand must be a deleted one (to bring it back) or a live one.
    """
    record = db.session.get(Hand, hand_id)
    if record is None or record.game_id != game.id:
        raise NotFound(f"no hand {hand_id} in game {game.id!r}")
    moved_on = version is not None and record.version != version
    if moved_on or (record.deleted_at is not None) != deleted:
        raise HandChanged(record)
    record.version += 1
    return record


def correct_hand(game_id: str, hand_id: int, hand: rules.Hand, version: int) -> Hand:
    """Replace a recorded hand; the old version is kept as a correction."""
    with _game_write(game_id) as game:
        record = _claim(game, hand_id, version)
        live = game.live_hands
        index = live.index(record)
        hands = [engine_hand(h) for h in live]
        hands[index] = hand
        result = rules.replay(engine_game(game, hands))
        if result.hands[index].violations:
            raise HandRefused(result.hands[index].violations)
        before = hand_data(engine_hand(record))
        _fill(record, hand)
        record.corrections.append(Correction(before=before, after=hand_data(hand)))
    return record


def delete_hand(game_id: str, hand_id: int, version: int) -> Hand:
    """Take a hand out of the game; it stays in the history, from where it can come back."""
    with _game_write(game_id) as game:
        record = _claim(game, hand_id, version)
        record.deleted_at = now()
        record.corrections.append(Correction(before=hand_data(engine_hand(record)), after=None))
    return record


def restore_hand(game_id: str, hand_id: int) -> Hand:
    """Bring a deleted hand back in its place, unless that breaks a rule (HandRefused).

    HandChanged if it is back already (someone else brought it back first).
    """
    with _game_write(game_id) as game:
        record = _claim(game, hand_id, None, deleted=True)
        live = game.live_hands
        back = sorted([*live, record], key=lambda h: h.position)
        broken_before = _broken(live, rules.replay(engine_game(game)))
        result = rules.replay(engine_game(game, [engine_hand(h) for h in back]))
        broken = [
            violation
            for h, scored in zip(back, result.hands, strict=True)
            for violation in scored.violations
            if (h.id, violation.code, violation.side) not in broken_before
        ]
        if broken or result.game_violations:
            raise HandRefused([*broken, *result.game_violations])
        record.deleted_at = None
        record.corrections.append(Correction(before=None, after=hand_data(engine_hand(record))))
    return record


def _broken(hands: Sequence[Hand], result: rules.GameResult) -> set[tuple[int, str, int | None]]:
    """The rules already broken, hand by hand (a restore is refused only for new ones)."""
    return {
        (h.id, violation.code, violation.side)
        for h, scored in zip(hands, result.hands, strict=True)
        for violation in scored.violations
    }


def import_game(data: object) -> str:
    """Store a game file as a new game if it breaks no rule and the database can keep it;
    GameFileError, GameRefused or SchemaError if not."""
    game = rules.read_game(data)
    result = rules.replay(game)
    if result.has_violations:
        raise GameRefused(
            [*result.game_violations, *(v for h in result.hands for v in h.violations)]
        )
    raw: dict[str, Any] = data  # type: ignore[assignment]
    names: list[list[str]] = []
    for i, side_data in enumerate(raw["sides"]):
        players = side_data.get("player_names") or []
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise rules.GameFileError(f"sides[{i}].player_names", "expected a list of names")
        names.append(players)
    house = rules.game_data(game).get("house_rules")
    record = Game(
        system_id=game.system.id,
        options=sorted(game.system.options_on),
        house_rules=house,
        first_dealer=game.first_dealer,
    )
    record.sides = _side_rows(
        [
            NewSide(side.name, (names[i] + [""] * side.players)[: side.players], side.start_score)
            for i, side in enumerate(game.sides)
        ]
    )
    for position, hand in enumerate(game.hands, start=1):
        hand_record = Hand(position=position, token=new_token())
        _fill(hand_record, hand)
        record.hands.append(hand_record)
    schema.check_game_file(record)  # what the engine read but the database must not keep
    _remember(record, result)
    with writing():
        db.session.add(record)
        db.session.flush()
        game_id = record.id  # read now: after the commit it would begin another transaction
    return game_id


def export_game(game: Game) -> dict[str, Any]:
    """The game as a game file; importing it gives the same game."""
    data = rules.game_data(engine_game(game))
    for side_data, side in zip(data["sides"], game.sides, strict=True):
        side_data["player_names"] = [p.name for p in side.players]
    return data


# --- what statistics add up ---------------------------------------------------------------------


def _tally_sides(game: Game, result: rules.GameResult, last: Sequence[Hand] | None) -> None:
    """Copy onto each side what statistics add up of its live hands: how many, the best score,
    times gone out, red threes and sets by kind.

    The scores come from the replay; the rest from the entries, all of them, or with `last` (a
    new hand, the others not loaded) the new ones added to the counts already stored.
    """
    for index, side in enumerate(game.sides):
        scores = [scored.sides[index].hand_score for scored in result.hands]
        side.hands = len(scores)
        side.best = max(scores, default=None)
        afresh = last is None or side.went_out is None
        counted = game.live_hands if afresh else (last or [])
        entries = [hand.entries[index] for hand in counted]
        side.went_out = (0 if afresh else side.went_out or 0) + sum(e.went_out for e in entries)
        side.red_threes = (0 if afresh else side.red_threes or 0) + sum(
            e.red_threes for e in entries
        )
        for kind, column in SET_COLUMNS.items():
            made = sum(e.sets.get(kind.value, 0) for e in entries)
            setattr(side, column, (0 if afresh else getattr(side, column) or 0) + made)


# --- renaming and merging players ----------------------------------------------------------------


class PlayerRefused(ValueError):
    """A rename or merge that cannot be done; nothing was changed."""


def _known(key: str) -> bool:
    return db.session.scalar(select(Player.id).where(Player.key == key).limit(1)) is not None


def rename_player(key: str, new_name: str) -> tuple[str, bool]:
    """Give a player a new name in every game; returns the new key and whether that merged them
    into a player who already had it. NotFound if no game has the player."""
    name = new_name.strip()
    if not name:
        raise PlayerRefused("a player needs a name")
    if len(name) > NAME_LENGTH:
        raise PlayerRefused(f"names are at most {NAME_LENGTH} characters: {name!r}")
    new_key = player_key(name)
    with writing():
        if not key or not _known(key):
            raise NotFound(f"no player {key!r}")
        merged = new_key != key and _known(new_key)
        revise_games_of(key)
        db.session.execute(update(Player).where(Player.key == key).values(name=name, key=new_key))
    return new_key, merged


def merge_players(key: str, into: str) -> None:
    """Count a player's games as another player's from now on: their rows take the other's key.

    NotFound if no game has the player; PlayerRefused if `into` is them or no one."""
    with writing():
        if not key or not _known(key):
            raise NotFound(f"no player {key!r}")
        if into == key or not into or not _known(into):
            raise PlayerRefused(f"cannot merge {key!r} into {into!r}")
        revise_games_of(key)
        db.session.execute(update(Player).where(Player.key == key).values(key=into))

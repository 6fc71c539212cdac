"""Hands: record the next one, correct one, delete one, bring one back; and what a correction
changed."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

from sqlalchemy import ColumnElement, func, select
from sqlalchemy.exc import IntegrityError

from ... import rules
from ...rules.fields import FieldRef, held, plain, value_of
from ...rules.gamefile import hand_data, read_hand
from ..extensions import db
from ..store.database import writing
from ..store.models import Correction, Entry, Game, Hand, now
from ..store.reads import HandRead
from . import kept, push
from .engine import engine_game, engine_hand, game_changed, replay, replay_of
from .errors import HandChanged, HandRefused, HandSaved, HandTaken, NotFound, StoredHand
from .figures import store_figures
from .loading import lock_game, lock_game_with, with_hands
from .night_tables import hand_at_table, round_over
from .outcomes import store_outcomes
from .ratings import rate_game


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


def fill_hand(record: Hand, hand: rules.Hand) -> None:
    """Write a hand onto its row: how it ended, and each side's entry."""
    record.ended_by = hand.ended_by.value
    record.entries = [Entry(side_position=i, **plain(e)) for i, e in enumerate(hand.entries)]


@contextmanager
def _game_write(game_id: str, *, director: bool) -> Iterator[Game]:
    """One write to a game: lock it, let the caller change it, re-derive its figures, commit.
    `director`: the write is made behind the table's PIN (a night's ended round takes no other:
    night_tables.ForTheDirector)."""
    with writing():
        game = lock_game(game_id)
        hand_at_table(game, 0, new=False, director=director)
        yield game
        db.session.flush()
        db.session.expire(game, ["hands"])
        result = replay(with_hands(game))
        store_figures(game, result)
        if game.over:
            rate_game(game)
        if game.night_id is not None and round_over(game) is not None:
            store_outcomes([game.night_id])  # the director's correction of a round over
        revision = game.revision
    game_changed(game_id, revision, result)


def last_position(game_id: str) -> int:
    """The number of the last hand recorded in this game, deleted or not (0 before the first)."""
    return db.session.scalar(select(func.max(Hand.position)).where(Hand.game_id == game_id)) or 0


def live_number(hand: Hand, live: Sequence[Hand] | None = None) -> int | None:
    """A hand's number as the scoreboard shows it (None once deleted): counted among `live`, the
    game's live hands where a page has them loaded, by the database otherwise."""
    if hand.deleted_at is not None:
        return None
    if live is not None:
        return sum(1 for other in live if other.position <= hand.position)
    counted = select(func.count(Hand.id)).where(
        Hand.game_id == hand.game_id, Hand.deleted_at.is_(None), Hand.position <= hand.position
    )
    return db.session.scalar(counted)


def stored(record: Hand) -> StoredHand:
    """What a refusal tells of a recorded hand, read inside the write's transaction."""
    return StoredHand(
        record.id, record.position, live_number(record), record.version, engine_hand(record)
    )


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

    Only the new hand is scored and checked, on top of the game's cached replay: saving costs the
    same in a game of 5 hands as in one of 100.
    """
    try:
        with writing():
            # The access stamp with them: what tells the followers' streams whether who may
            # follow changed before this hand (services/push.py).
            game, (last, already_id, stamp) = lock_game_with(
                game_id, *_places(game_id, token), push.stamp_column()
            )
            push.stamp_read(stamp)
            if already_id is not None:
                already = db.session.get_one(Hand, already_id)
                if not same_hand(already, hand):
                    raise HandSaved(stored(already))
                return Recorded(already.id, live_number(already))
            if after is not None and (last or 0) > after:
                since = _live_since(game_id, after)
                if since:
                    raise HandTaken([stored(h) for h in since])
            was = game.revision
            as_kept, result = _append(game, hand, token, (last or 0) + 1)
            if game.over:
                rate_game(game)
            recorded, revision = Recorded(as_kept.id, len(result.hands)), game.revision
            # This process keeps the game at its new revision before the commit tells the
            # followers of it (push: after_commit), or their pages, drawn at once, would read
            # the whole game again; a revision that never commits is never asked for.
            game_changed(game_id, revision, result)
            kept.recorded(game_id, was, revision, as_kept)
    except IntegrityError:
        # The lock makes this impossible; if it ever happens, the other write won: say so.
        db.session.rollback()
        won: Hand | None = db.session.scalar(select(Hand).filter_by(game_id=game_id, token=token))
        if won is not None:
            return Recorded(won.id, live_number(won))
        raise HandTaken([]) from None
    return recorded


def _places(game_id: str, token: str) -> tuple[ColumnElement[Any], ColumnElement[Any]]:
    """The place of the game's last hand (deleted or not) and the id of the hand recorded with
    `token`, if any: what a new hand's write checks, read with the locked game."""
    last = select(func.max(Hand.position)).where(Hand.game_id == game_id)
    used = select(Hand.id).where(Hand.game_id == game_id, Hand.token == token)
    return last.scalar_subquery(), used.scalar_subquery()


def _append(
    game: Game, hand: rules.Hand, token: str, position: int
) -> tuple[HandRead, rules.GameResult]:
    """Inside a write that locked `game`: `hand` recorded in place `position`, after its last
    one, if it keeps the rules (HandRefused), scored on top of the game's cached replay; the hand
    as the pages keep it, and the new replay."""
    # The replay kept at the revision locked (the hand form read the game): no hand read again.
    before = kept.replay_at(game.id, game.revision) or replay_of(game)
    hand_at_table(game, len(before.hands), new=True)
    record = Hand(game_id=game.id, position=position, token=token)
    fill_hand(record, hand)
    as_recorded = engine_hand(record)
    result = rules.extend(engine_game(game, []), before, as_recorded)
    if result.hands[-1].violations:
        raise HandRefused(result.hands[-1].violations)
    db.session.add(record)
    was = game.revision
    store_figures(game, result, [record])
    # Derived from the revision before and the hand: a process that keeps the game reads this
    # hand alone (services/kept.py).
    game.revision = kept.revision_after(was, position, token)
    db.session.flush()
    read = HandRead(record.id, position, 1, token, None, as_recorded, record.created_at)
    return read, result


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
        raise HandChanged(stored(record))
    record.version += 1
    return record


def correct_hand(
    game_id: str, hand_id: int, hand: rules.Hand, version: int, *, director: bool = False
) -> int:
    """Replace a recorded hand, the old version kept as a correction; the hand's id."""
    with _game_write(game_id, director=director) as game:
        record = _claim(game, hand_id, version)
        live = game.live_hands
        index = live.index(record)
        hands = [engine_hand(h) for h in live]
        hands[index] = hand
        result = rules.replay(engine_game(game, hands))
        if result.hands[index].violations:
            raise HandRefused(result.hands[index].violations)
        before = hand_data(engine_hand(record))
        fill_hand(record, hand)
        record.corrections.append(Correction(before=before, after=hand_data(hand)))
    return hand_id


def delete_hand(game_id: str, hand_id: int, version: int, *, director: bool = False) -> int:
    """Take a hand out of the game; it stays in the history, from where it can come back. The
    hand's id."""
    with _game_write(game_id, director=director) as game:
        record = _claim(game, hand_id, version)
        record.deleted_at = now()
        record.corrections.append(Correction(before=hand_data(engine_hand(record)), after=None))
    return hand_id


def restore_hand(game_id: str, hand_id: int, *, director: bool = False) -> int:
    """Bring a deleted hand back in its place, unless that breaks a rule (HandRefused); its id.

    HandChanged if it is back already (someone else brought it back first).
    """
    with _game_write(game_id, director=director) as game:
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
    return hand_id


def _broken(hands: Sequence[Hand], result: rules.GameResult) -> set[tuple[int, str, int | None]]:
    """The rules already broken, hand by hand (a restore is refused only for new ones)."""
    return {
        (h.id, violation.code, violation.side)
        for h, scored in zip(hands, result.hands, strict=True)
        for violation in scored.violations
    }

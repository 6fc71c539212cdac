"""What each process keeps of the games that are being followed: each game as its pages read it
(`store/reads.py`) and its replay, at the latest revision read here; extended by the hands
recorded since rather than read again.

A hand recorded onto a game gives it a revision derived from the one before and from the hand
(`revision_after`); every other write a random one. So a process that keeps a game at revision
R and finds it at revision S reads only the hands past the last it has: if the revision
derived from R through each of them, in order, is S (and each is still as it was recorded:
version 1, not deleted), nothing else changed and the game at S is the kept one and those
hands. Otherwise it reads the game whole again: a correction, a deletion, a hand brought back,
a rename, in any process, gives a random revision that no hand recorded derives. The process
that saves a hand is told the hand itself (`recorded`) and reads nothing.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, replace

from flask import Flask, current_app

from ... import rules
from ..store.reads import GameRead, HandRead, read_game, read_hands
from .engine import REPLAYS, system_of
from .errors import NotFound
from .keeping import Keeping, kept_by
from .push import game_key


def revision_after(revision: str, position: int, token: str) -> str:
    """A game's revision once a hand is recorded onto it at `revision`, in place `position`
    with the one-time token `token`: derived, not drawn at random, so that a process that
    keeps the game at `revision` tells from that hand alone that nothing else changed.

    As unique as a random one: `revision` was never reused, nor is a hand's token in a game.

    >>> revision_after("0123456789abcdef", 7, "tok") == revision_after("0123456789abcdef", 7, "tok")
    True
    """
    made = hashlib.blake2s(f"{revision}\n{position}\n{token}".encode(), digest_size=8)
    return made.hexdigest()


@dataclass(frozen=True)
class KeptGame:
    """A game as its pages read it, and its replay, at one revision."""

    game: GameRead
    replay: rules.GameResult


class Kept:
    """The games kept by this process, by id: each at the latest revision read here, while it is
    followed (`services/keeping.py`)."""

    def __init__(self) -> None:
        self.games: Keeping[str, KeptGame] = Keeping(1)

    def get(self, game_id: str) -> KeptGame | None:
        return self.games.get(game_id)

    def keep(self, kept: KeptGame) -> None:
        self.games.keep(kept.game.id, kept, game_key(kept.game.id))


EXTENSION = "scorekeeper.kept"


def _kept() -> Kept:
    """This app's kept games (one app a process: a test's apps keep theirs apart)."""
    found: Kept = current_app.extensions[EXTENSION]
    return found


def init_app(app: Flask) -> None:
    app.extensions[EXTENSION] = Kept()
    kept_by(app, EXTENSION, app.extensions[EXTENSION].games)


def game_at(game_id: str, revision: str, last: int, begin: Callable[[], None]) -> KeptGame:
    """The game at `revision` (the door's, with its last hand at place `last`): kept; kept and
    extended by the hands recorded since (one statement); or read whole (three), at the
    revision found then, which is later than `revision` when the game changed meanwhile.
    `begin` is called before anything is read (the request's reads begin their snapshot)."""
    kept = _kept().get(game_id)
    if kept is not None and kept.game.revision == revision:
        return kept
    begin()
    found, known = None, None
    if kept is not None and last > kept.game.last_position:
        since = read_hands(game_id, kept.game.last_position)
        found = _extended(kept, revision, since)
        known = (kept.game.last_position, since)
    if found is None:
        found = _read_whole(game_id, known)
    _kept().keep(found)
    return found


def _extended(kept: KeptGame, revision: str, since: list[HandRead]) -> KeptGame | None:
    """`kept` and the hands recorded onto it since (`since`, every hand past its last), if
    that is all that made `revision`; None when anything else changed."""
    derived = kept.game.revision
    for count, hand in enumerate(since, start=1):
        if hand.version != 1 or hand.deleted_at is not None:
            return None
        derived = revision_after(derived, hand.position, hand.token)
        if derived == revision:
            # A hand recorded after `revision` (read in a later moment) waits for its own.
            return _with_hands(kept, revision, since[:count])
    return None


def _engine_game(game: GameRead) -> rules.Game:
    """The game for the rules engine, without its hands (each replayed or extended onto it)."""
    return rules.Game(
        system=system_of(game),
        sides=tuple(rules.Side(s.name, len(s.players), s.start_score) for s in game.sides),
        first_dealer=game.first_dealer,
    )


def _cached_replay(game_id: str, revision: str) -> rules.GameResult | None:
    """The replay a write in this process stored for the revision it made (`game_changed`)."""
    return REPLAYS.get((game_id, revision))


def _with_hands(kept: KeptGame, revision: str, new: list[HandRead]) -> KeptGame:
    replayed = _cached_replay(kept.game.id, revision)
    if replayed is None:
        engine = _engine_game(kept.game)
        replayed = kept.replay
        for hand in new:
            replayed = rules.extend(engine, replayed, hand.hand)
    game = replace(kept.game, revision=revision, hands=(*kept.game.hands, *new))
    return KeptGame(game, replayed)


def _read_whole(game_id: str, known: tuple[int, list[HandRead]] | None) -> KeptGame:
    """The game read whole; `known`: the hands past a place, read already in this request."""
    game = read_game(game_id, known)
    if game is None:
        raise NotFound(f"no game {game_id!r}")
    replayed = _cached_replay(game.id, game.revision)
    if replayed is None:
        live = tuple(hand.hand for hand in game.live_hands)
        replayed = rules.replay(replace(_engine_game(game), hands=live))
    return KeptGame(game, replayed)


def recorded(game_id: str, before: str, revision: str, hand: HandRead) -> None:
    """A hand recorded in this process, as its write is about to commit: a game kept at
    `before` is kept at `revision` with `hand`, and nothing is read again for it."""
    kept = _kept().get(game_id)
    if kept is not None and kept.game.revision == before:
        _kept().keep(_with_hands(kept, revision, [hand]))


def moved_on(game_id: str, revision: str, since: str, last: int) -> KeptGame | None:
    """The game kept here, if it is at `revision` and that revision was made from `since` (with
    its last hand at place `last`) by hands recorded alone: nothing else of the game changed
    (its links, its name, the game played after it); None otherwise. Reads nothing."""
    found = _kept().get(game_id)
    if found is None or found.game.revision != revision:
        return None
    derived = since
    for hand in found.game.hands:
        if hand.position <= last:
            continue
        if hand.version != 1 or hand.deleted_at is not None:
            return None
        derived = revision_after(derived, hand.position, hand.token)
    return found if derived == revision else None


def replay_at(game_id: str, revision: str) -> rules.GameResult | None:
    """The game's replay at `revision`, if this process has it: the game kept at that revision,
    or the replay a write here stored for it. A save reads the hands before it only without."""
    kept = _kept().get(game_id)
    if kept is not None and kept.game.revision == revision:
        return kept.replay
    return _cached_replay(game_id, revision)

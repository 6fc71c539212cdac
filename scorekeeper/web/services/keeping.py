"""What each process keeps in memory, sized by the games followed there, not by a count of entries.

Four things are kept: the drawn parts (`presenters/parts.py`), the games as their pages read
them with their replays (`services/kept.py`), the replays that writes stored
(`services/engine.py`), and each night as a season's standings read it (`services/outcomes.py`,
one entry a night). Each entry kept belongs to a game or a night, named as the push names it
(`game:<id>`; a part drawn outside any game, to a group of its own). A game is **followed** here
while anything of it is asked for or kept, or a request comes in through its door (`following`:
a page, a poll answered 304, a hand saved), in all three at once. So a club's thousand tables,
each with a hand every minute or two and phones that look at once, keep all that they draw, and
a process keeps as much as the games played on it need:

- a game followed in the last `FOLLOWED_FOR` seconds keeps its entries, however many such games
  there are, up to the bound below;
- a game nobody has followed for that long is let go whole (at the next entry kept anywhere:
  no thread sweeps), so that a club's evening ends with what it kept given back;
- within a game, past `entries` entries the one asked for longest ago goes first: the parts of
  the revisions before the latest, which nobody asks for again.

The bound on memory, per process and per thing kept: `GAMES` games of `entries` entries each.
Past `GAMES` games followed at once, the game followed longest ago is let go first, as a LRU cache
would. What a followed game weighs is measured by `benchmarks/kept_weight.py` (about 180 KiB at
10 hands, 750 KiB at 100) and said in the README with the bound.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Any, Generic, TypeVar

from flask import Flask, current_app, g, has_request_context

Key = TypeVar("Key", bound=Hashable)
Value = TypeVar("Value")

FOLLOWED_FOR = 15 * 60.0
"""Seconds a game stays followed after anything of it was last asked for or kept: longer than a
table takes over a hand, a break, or a phone put away between rounds."""
GAMES = 2000
"""The most games kept at once, per process and per thing kept: twice a big club night."""
FOLLOWS = "scorekeeper.keeping.follows"
EXTENSION = "scorekeeper.keeping"
PROCESS: list[Keeping[Any, Any]] = []
"""What the process keeps for every app (the replays), told by `following` with the app's own."""


def following(whose: Hashable) -> None:
    """What this request follows (the door's game or night): followed now in all that is kept,
    and whose the entries kept in this request are."""
    g.setdefault(FOLLOWS, whose)
    for keeps in (*current_app.extensions.get(EXTENSION, {}).values(), *PROCESS):
        keeps.follow(whose)


def kept_by(app: Flask, what: str, keeps: Keeping[Any, Any]) -> None:
    """`keeps` is the app's own `what` (its parts, its games): told by `following` of its
    requests. Made again (a test or a benchmark forgetting all, as a process that just
    started), it takes the place of the one before, which is let go with all it kept."""
    app.extensions.setdefault(EXTENSION, {})[what] = keeps


def whose() -> Hashable:
    """Whose the entries kept in this request are: what it follows, or None (a page of no game,
    or no request: kept in a group of their own, followed whenever any of them is asked for)."""
    return g.get(FOLLOWS) if has_request_context() else None


class _Followed(Generic[Key, Value]):
    """A game's entries, the one asked for longest ago first, and when it was last followed."""

    __slots__ = ("at", "entries")

    def __init__(self, at: float) -> None:
        self.entries: OrderedDict[Key, Value] = OrderedDict()
        self.at = at


class Keeping(Generic[Key, Value]):
    """Entries kept by game (see the module): `get` and `keep`, safe from many threads."""

    def __init__(
        self,
        entries: int,
        *,
        games: int = GAMES,
        followed_for: float = FOLLOWED_FOR,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.entries = entries
        """The most entries of one game."""
        self.games = games
        self.followed_for = followed_for
        self.clock = clock
        """Seconds, as time.monotonic counts them (a test gives its own)."""
        self.lock = Lock()
        self._games: OrderedDict[Hashable, _Followed[Key, Value]] = OrderedDict()
        """By when each was last followed, the longest ago first."""
        self._whose: dict[Key, Hashable] = {}
        self.hits = 0
        self.misses = 0
        self.let_go = 0
        """Entries let go so far: with their game, or as the oldest of a game past `entries`."""

    def get(self, key: Key, *, again: bool = False) -> Value | None:
        """The entry kept under `key`, if any: its game is followed now. `again`: asked again
        for the same want (after waiting for another thread's drawing), not counted twice."""
        with self.lock:
            game = self._whose.get(key)
            if game is None and key not in self._whose:
                self.misses += not again
                return None
            followed = self._games[game]
            followed.entries.move_to_end(key)
            self._follow(game, followed)
            self.hits += 1
            self.misses -= again
            return followed.entries[key]

    def keep(self, key: Key, value: Value, whose: Hashable) -> None:
        """Keep `value` under `key`, as an entry of the game `whose`; let go what is due."""
        with self.lock:
            now = self.clock()
            self._let_go_unfollowed(now)
            if self._whose.get(key, whose) != whose:
                self._drop(key)
            followed = self._games.get(whose)
            if followed is None:
                followed = self._games[whose] = _Followed(now)
            self._follow(whose, followed)
            followed.entries[key] = value
            followed.entries.move_to_end(key)
            self._whose[key] = whose
            while len(followed.entries) > self.entries:
                self._drop(next(iter(followed.entries)))
            while len(self._games) > self.games:
                self._let_go_game(next(iter(self._games)))

    def follow(self, whose: Hashable) -> None:
        """The game `whose` is followed now (if anything of it is kept)."""
        with self.lock:
            followed = self._games.get(whose)
            if followed is not None:
                self._follow(whose, followed)

    def followed(self) -> list[Hashable]:
        """The games kept, the one followed longest ago first."""
        with self.lock:
            return list(self._games)

    def entries_of(self, whose: Hashable) -> int:
        """How many entries of the game `whose` are kept."""
        with self.lock:
            followed = self._games.get(whose)
            return 0 if followed is None else len(followed.entries)

    def __len__(self) -> int:
        with self.lock:
            return len(self._whose)

    def _follow(self, whose: Hashable, followed: _Followed[Key, Value]) -> None:
        followed.at = self.clock()
        self._games.move_to_end(whose)

    def _let_go_unfollowed(self, now: float) -> None:
        while self._games:
            whose, followed = next(iter(self._games.items()))
            if now - followed.at < self.followed_for:
                return
            self._let_go_game(whose)

    def _let_go_game(self, whose: Hashable) -> None:
        followed = self._games.pop(whose)
        for key in followed.entries:
            del self._whose[key]
        self.let_go += len(followed.entries)

    def _drop(self, key: Key) -> None:
        whose = self._whose.pop(key)
        followed = self._games[whose]
        del followed.entries[key]
        self.let_go += 1
        if not followed.entries:
            del self._games[whose]

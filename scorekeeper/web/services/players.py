"""Players: rename one in every game, or count one's games as another's."""

from __future__ import annotations

from sqlalchemy import select, update

from ..database import writing
from ..models import NAME_LENGTH, Game, Player, Side, db, new_revision, player_key
from .errors import NotFound, PlayerRefused


def _known(key: str) -> bool:
    return db.session.scalar(select(Player.id).where(Player.key == key).limit(1)) is not None


def revise_games_of(key: str) -> None:
    """Give the games a player played a new revision: their pages show the player's name."""
    games = select(Side.game_id).join(Player).where(Player.key == key)
    db.session.execute(update(Game).where(Game.id.in_(games)).values(revision=new_revision()))


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

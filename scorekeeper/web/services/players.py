"""Players: rename one in every game, or count one's games as another's, and undo that."""

from __future__ import annotations

from sqlalchemy import select, update

from ..extensions import db
from ..store.database import writing
from ..store.models import (
    NAME_LENGTH,
    Game,
    Night,
    Player,
    PlayerMerge,
    Side,
    new_revision,
    now,
    player_key,
)
from . import push
from .errors import MergeNotUndone, NotFound, PlayerRefused
from .figures import store_teams
from .outcomes import carry, rekey
from .ratings import rerate


def _known(key: str) -> bool:
    return db.session.scalar(select(Player.id).where(Player.key == key).limit(1)) is not None


def revise_games_of(key: str) -> None:
    """Give the games a player played a new revision: their pages show the player's name; and
    their nights: a season reads its players from the nights' games (`store.seasons`), so its
    standings, whose revision is made of its nights', show the name or the merge at once."""
    played = select(Side.game_id).join(Player).where(Player.key == key)
    # The games locked in order of id first, as every write that locks games takes them
    # (`nights._lock_games`): an update locks them in the order it finds them, and against a
    # night's delete or end, each write would hold a game the other waits for (PostgreSQL: a
    # deadlock).
    db.session.execute(
        select(Game.id).where(Game.id.in_(played)).order_by(Game.id).with_for_update()
    )
    revision = new_revision()
    revised = db.session.execute(
        update(Game)
        .where(Game.id.in_(played))
        .values(revision=revision)
        .returning(Game.id, Game.night_id)
    ).all()
    for game_id, _night in revised:
        push.changed(push.game_key(game_id), revision)
    night_ids = {night for _game, night in revised if night is not None}
    if night_ids:
        # The nights before their outcome rows, as the director's writes take them: the other
        # way round, each write would hold what the other waits for (PostgreSQL: a deadlock).
        db.session.execute(
            select(Night.id).where(Night.id.in_(night_ids)).order_by(Night.id).with_for_update()
        )
        carry(night_ids, revision)
        db.session.execute(
            update(Night)
            .where(Night.id.in_(night_ids))
            .values(revision=revision)
            .execution_options(synchronize_session=False)
        )
        for night_id in night_ids:
            push.changed(push.night_key(night_id), revision)


def _record_merge(key: str, into: str) -> None:
    """Keep which rows a merge is about to change, and their names, so that it can be undone."""
    rows = db.session.execute(
        select(Player.id, Player.name).where(Player.key == key).order_by(Player.id)
    ).all()
    db.session.add(
        PlayerMerge(
            key=key,
            into=into,
            players=[row.id for row in rows],
            names=[row.name for row in rows],
        )
    )


def rename_player(key: str, new_name: str) -> tuple[str, bool]:
    """Give a player a new name in every game; returns the new key and whether that merged them
    into a player who already had it (a merge that can be undone). NotFound if no game has the
    player."""
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
        if merged:
            _record_merge(key, new_key)
        revise_games_of(key)
        db.session.execute(update(Player).where(Player.key == key).values(name=name, key=new_key))
        store_teams(select(Player.side_id).where(Player.key == new_key))
        rekey(select(Player.id).where(Player.key == new_key))
        if new_key != key:
            rerate({key, new_key})
    return new_key, merged


def merge_players(key: str, into: str) -> None:
    """Count a player's games as another player's from now on: their rows take the other's key.

    NotFound if no game has the player; PlayerRefused if `into` is them or no one."""
    with writing():
        if not key or not _known(key):
            raise NotFound(f"no player {key!r}")
        if into == key or not into or not _known(into):
            raise PlayerRefused(f"cannot merge {key!r} into {into!r}")
        _record_merge(key, into)
        revise_games_of(key)
        db.session.execute(update(Player).where(Player.key == key).values(key=into))
        store_teams(select(Player.side_id).where(Player.key == into))
        rekey(select(Player.id).where(Player.key == into))
        rerate({key, into})


def undo_merge(merge_id: int) -> str:
    """Give the rows a merge changed their key and names back, so that the two players count
    apart again; the key they have again. NotFound if there is no such merge; MergeNotUndone
    if it was undone already or one of its rows has another key since (renamed, merged again).

    Rows of games purged since are gone with their games: the rest are given back."""
    with writing():
        merge = db.session.scalar(
            select(PlayerMerge).where(PlayerMerge.id == merge_id).with_for_update()
        )
        if merge is None:
            raise NotFound(f"no merge {merge_id}")
        if merge.undone_at is not None:
            raise MergeNotUndone(f"merge {merge_id} was undone already", merge.into, True)
        names = dict(zip(merge.players, merge.names, strict=True))
        rows = db.session.scalars(select(Player).where(Player.id.in_(merge.players))).all()
        changed = [row.id for row in rows if row.key != merge.into]
        if changed:
            raise MergeNotUndone(
                f"players {changed} have another key than {merge.into!r} since", merge.into
            )
        revise_games_of(merge.into)
        for row in rows:
            row.key, row.name = merge.key, names[row.id]
        store_teams(select(Player.side_id).where(Player.id.in_(merge.players)))
        rekey(select(Player.id).where(Player.id.in_(merge.players)))
        merge.undone_at = now()
        rerate({merge.key, merge.into})
        key = merge.key
    return key

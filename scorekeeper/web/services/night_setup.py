"""Setting a club night up: its pairs, tables and every round's seating by its movement (what
happens to it afterwards: nights.py)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select

from ... import nights, rules
from ..extensions import db
from ..store.database import writing
from ..store.models import Night, NightRound, NightTable, Pair, Seating
from .nights import NightRefused, slots
from .seasons import night_added


@dataclass(frozen=True)
class NewNight:
    """A night as its set-up form gives it."""

    name: str
    system_id: str
    options: Sequence[str]
    house_rules: dict[str, Any] | None
    movement: nights.Movement
    ranking: nights.Ranking
    round_count: int
    round_hands: int | None
    round_minutes: int | None
    pairs: Sequence[tuple[str, str]]
    season_id: str | None = None
    """The season it counts in, if any (`seasons.night_added`)."""


def check_new_night(new: NewNight) -> None:
    """NightRefused for a night that cannot be played: a system without tables of two pairs,
    a movement with too few pairs or too many rounds, a player in two pairs."""
    system = rules.SYSTEMS[new.system_id]
    if (2, 2) not in system.tables:
        raise NightRefused("no-pairs-table", "system_id", system=system.id)
    seen: dict[str, int] = {}
    for number, pair in enumerate(new.pairs, start=1):
        for name in pair:
            key = " ".join(name.split()).casefold()
            if key in seen:
                raise NightRefused("player-twice", "pairs", name=name, first=seen[key], pair=number)
            seen[key] = number
    try:
        nights.movement(new.movement, slots(len(new.pairs)), new.round_count)
    except nights.MovementError:
        if len(new.pairs) < 2:
            raise NightRefused("too-few-pairs", "pairs") from None
        most = nights.most_rounds(new.movement, len(new.pairs))
        raise NightRefused("too-many-rounds", "round_count", most=most) from None


def set_up_night(new: NewNight, token: str | None = None) -> str:
    """Store a night with its pairs, tables and every round's seating, in its season if it
    names one; its id. A form's token already used sets up nothing: the answer is the night it
    set up. A season that is not there or is full refuses the night (`SeasonRefused`): then
    nothing is set up."""
    check_new_night(new)
    numbers = slots(len(new.pairs))
    night = Night(
        name=new.name,
        system_id=new.system_id,
        options=sorted(new.options),
        house_rules=new.house_rules,
        movement=new.movement.value,
        ranking=new.ranking.value,
        round_count=new.round_count,
        round_hands=new.round_hands,
        round_minutes=new.round_minutes,
        token=token,
    )
    night.pairs = [
        Pair(number=i, first=first, second=second)
        for i, (first, second) in enumerate(new.pairs, start=1)
    ]
    night.tables = [NightTable(number=t) for t in range(1, nights.tables_for(numbers) + 1)]
    # Seated over every number, the ghost's too: its table is a sit-out, and a pair that arrives
    # takes its number (`add_pair`).
    night.rounds = [
        NightRound(
            number=r.number,
            seats=[Seating(table=s.table, ns=s.ns, ew=s.ew) for s in r.seats],
        )
        for r in nights.movement(new.movement, numbers, new.round_count)
    ]
    with writing():
        if token is not None:
            done = db.session.scalar(select(Night.id).where(Night.token == token))
            if done is not None:
                return done
        db.session.add(night)
        db.session.flush()
        night_id = night.id
        if new.season_id is not None:
            night_added(new.season_id, night_id)
    return night_id

"""A night's rounds as the movement planned them and as they were played: what its standings
(services.outcomes) and its writes (services.nights) read of a round."""

from __future__ import annotations

from ... import nights
from ..store.models import Night, NightRound


def planned(played: NightRound) -> nights.Round:
    """A round's seating as the movement (or the director) planned it, every number seated."""
    return nights.Round(
        played.number, tuple(nights.Seat(s.table, s.ns, s.ew) for s in played.seats)
    )


def round_as_played(night: Night, played: NightRound) -> nights.Round:
    """A round as played, from what it kept when it started (its seats that got a game, who sat
    out, who had left); a round to come, as it would be played by the pairs here now."""
    if played.started_at is None:
        return nights.as_played(
            planned(played),
            [pair.number for pair in night.pairs],
            [pair.number for pair in night.pairs if pair.present],
        )
    return nights.Round(
        played.number,
        tuple(nights.Seat(s.table, s.ns, s.ew) for s in played.seats if s.game_id is not None),
        tuple(played.sitting_out or ()),
        tuple(played.absent or ()),
    )

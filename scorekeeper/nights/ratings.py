"""Every player's rating (and every standing pair's), by OpenSkill's Plackett-Luce model
(the `openskill` library, pure Python): a Bayesian rating for team games, in the family of
TrueSkill. Each one's skill is a bell curve, `mu` its middle and `sigma` its spread (the
uncertainty); a game won moves the winners' `mu` up and the losers' down, the more so the less
certain they were and the more surprising the result, and every game played narrows `sigma`.
The figure that ranks is `mu - 3 sigma` (`Rating.ordinal`), which a new player's wide spread
keeps low until their games say more.

A game is rated once, when it ends: its sides ranked by their totals, equal totals a draw.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model and its defaults: a new player's `mu` 25, `sigma` 25/3."""


@dataclass(frozen=True)
class Rating:
    """One player's (or pair's) rating: `mu` the skill's middle, `sigma` its uncertainty, and
    how many rated games it rests on."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def spread(self) -> float:
        """How far the skill may be from its middle: three `sigma` either side (nearly sure)."""
        return 3 * self.sigma

    @property
    def ordinal(self) -> float:
        """What ranks: the skill we are nearly sure of (the middle less its spread).

        >>> Rating().ordinal
        0.0
        """
        return self.mu - self.spread


def rate(sides: Sequence[Sequence[Rating]], totals: Sequence[int]) -> list[list[Rating]]:
    """The ratings of each side's players after a game whose sides ended on `totals` (higher
    is better; equal totals are a draw).

    >>> won, lost = rate([[Rating(), Rating()], [Rating(), Rating()]], [3000, 1200])
    >>> won[0].mu > 25 > lost[0].mu, won[0].sigma < 25 / 3, won[0].games
    (True, True, 1)
    """
    if len(sides) != len(totals) or len(sides) < 2 or not all(sides):
        raise ValueError("A rated game has two sides or more, each with its players and total.")
    teams = [[MODEL.rating(mu=one.mu, sigma=one.sigma) for one in side] for side in sides]
    after = MODEL.rate(teams, scores=[float(total) for total in totals])
    return [
        [Rating(new.mu, new.sigma, one.games + 1) for one, new in zip(side, team, strict=True)]
        for side, team in zip(sides, after, strict=True)
    ]

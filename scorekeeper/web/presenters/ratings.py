"""What the pages show of ratings: the ones the club's choice of pool reads (every system
together, or each system apart: `services.ratings.systems_apart`), and a player's rating over
time as a chart (the running totals' chart, `presenters.chart`, drawn the same way)."""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass

from ...nights.ratings import Rating
from ..services.ratings import Who, rating_steps
from ..services.ratings import shown_ratings as ratings_shown
from ..wording import decimal
from .chart import Chart, drawn, nice_scale


@dataclass(frozen=True)
class Shown:
    """A rating as a page shows it: its pool ("all", or the system's id) and the rating."""

    pool: str
    rating: Rating


def shown_ratings(whos: Collection[Who], system: str, apart: bool) -> dict[Who, list[Shown]]:
    """The ratings of players (or pairs) the club's choice reads (`services.shown_ratings`)."""
    found = ratings_shown(whos, system, apart)
    return {
        who: [Shown(pool, one) for pool, one in by_pool.items()] for who, by_pool in found.items()
    }


def rating_chart(key: str, pool: str, names: tuple[str, str]) -> Chart | None:
    """A player's rating after each of their rated games in `pool`, and the rating less its ±
    (what ranks), as the chart of a game's running totals draws; None before two games.
    `names` name the two lines in the page's language."""
    rows = rating_steps(key, pool)
    if len(rows) < 2:
        return None
    middle = [rows[0][0], *(mu for _, _, mu, _ in rows)]
    sure = [rows[0][0] - 3 * rows[0][1], *(mu - 3 * sigma for _, _, mu, sigma in rows)]
    scale = nice_scale(math.floor(min(0, *sure)), math.ceil(max(*middle, *sure)), least=1)
    return drawn(list(zip(names, (middle, sure), strict=True)), scale, str, lambda v: decimal(v, 1))

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
from .chart import HEIGHT, LEFT, RIGHT, TOP, WIDTH, Chart, Line, nice_scale

BOTTOM = 22


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
    low, high, step = nice_scale(math.floor(min(0, *sure)), math.ceil(max(*middle, *sure)), least=1)
    games = len(rows)

    def x(index: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * index / games, 1)

    def y(value: float) -> float:
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low), 1)

    lines = [
        Line(name, " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values)),
             (x(games), y(values[-1])), style)
        for style, (name, values) in enumerate(zip(names, (middle, sure), strict=True))
    ]  # fmt: skip
    every = max(1, -(-games // 8))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        label_x=LEFT - 4,
        right=WIDTH - RIGHT,
        bottom=HEIGHT - 6,
        lines=lines,
        y_ticks=[(y(v), y(v) + 4, str(v)) for v in range(low, high + 1, step)],
        x_ticks=[(x(i), str(i)) for i in range(0, games + 1, every)],
        zero=y(0) if low < 0 else None,
        target=None,
        description="; ".join(
            f"{name}: " + ", ".join(decimal(v, 1) for v in values[1:])
            for name, values in zip(names, (middle, sure), strict=True)
        ),
    )

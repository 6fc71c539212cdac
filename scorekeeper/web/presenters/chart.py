"""The running totals as a chart: coordinates worked out here, so the template only draws them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ... import rules
from ..wording import numbers

WIDTH, HEIGHT = 320, 180
LEFT, RIGHT, TOP, BOTTOM = 44, 8, 10, 22


@dataclass(frozen=True)
class Line:
    """One side's running total, hand by hand."""

    side: str
    points: str  # "x,y x,y …" for <polyline>
    last: tuple[float, float]
    style: int  # which of the chart's line styles (colour and dash) to use


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: float  # x where the plot begins
    label_x: float  # x where the score labels end, just before it
    right: float  # x where it ends
    bottom: float  # y of the hand numbers' baseline
    lines: list[Line]
    y_ticks: list[tuple[float, float, str]]  # (y of the line, y of its label, label)
    x_ticks: list[tuple[float, str]]
    zero: float | None  # y of the 0 line when totals go negative
    target: float | None  # y of the target line when it is in view
    description: str  # the same totals in words, for screen readers


MOST_TICKS = 8
"""Labels on the score axis, whatever the totals: a 148-pixel axis holds no more."""


def nice_scale(low: int, high: int) -> tuple[int, int, int]:
    """The score axis from `low` to `high`: its ends and the step between labels.

    The step is the smallest "nice number" (1, 2, 2.5 or 5 × 10^k, at least 100) that covers
    the totals in at most MOST_TICKS labels, so that any total, however large, gives a few ticks.
    """
    magnitude = 100
    while True:
        for step in (magnitude, 2 * magnitude, 5 * magnitude // 2, 5 * magnitude):
            bottom, top = (low // step) * step, -(-high // step) * step
            if top == bottom:
                top += step
            if (top - bottom) // step + 1 <= MOST_TICKS:
                return bottom, top, step
        magnitude *= 10


def running_totals(
    sides: Sequence[str], starts: Sequence[int], result: rules.GameResult, target: int | None
) -> Chart | None:
    """The chart of a game's totals after each hand; None before the first hand."""
    if not result.hands:
        return None
    series = [
        [start, *(hand.sides[i].total for hand in result.hands)] for i, start in enumerate(starts)
    ]
    values = [v for totals in series for v in totals]
    low, high = min(0, *values), max(0, *values)
    if target is not None and high >= 0.6 * target:
        high = max(high, target)
    low, high, step = nice_scale(low, high)
    hands = len(result.hands)

    def across(index: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * index / hands

    def down(value: int) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (high - value) / (high - low)

    def x(index: int) -> float:
        return round(across(index), 1)

    def y(value: int) -> float:
        return round(down(value), 1)

    def point(index: int, value: int) -> str:
        # "x,y" as round(…, 1) writes them, without making the floats (602 points at 300 hands).
        return f"{across(index):.1f},{down(value):.1f}"

    lines = [
        Line(
            side=name,
            points=" ".join([point(i, v) for i, v in enumerate(totals)]),
            last=(x(hands), y(totals[-1])),
            style=index % 5,
        )
        for index, (name, totals) in enumerate(zip(sides, series, strict=True))
    ]
    every = max(1, -(-hands // 8))
    number = numbers()
    description = "; ".join(
        f"{name}: " + ", ".join(number(v) for v in totals[1:])
        for name, totals in zip(sides, series, strict=True)
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        label_x=LEFT - 4,
        right=WIDTH - RIGHT,
        bottom=HEIGHT - 6,
        lines=lines,
        # A label's baseline 4 below its line centres the digits on it.
        y_ticks=[(y(v), y(v) + 4, number(v)) for v in range(low, high + 1, step)],
        x_ticks=[(x(i), str(i)) for i in range(0, hands + 1, every)],
        zero=y(0) if low < 0 else None,
        target=y(target) if target is not None and target <= high else None,
        description=description,
    )

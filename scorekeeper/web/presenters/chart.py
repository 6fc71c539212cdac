"""The running totals as a chart: coordinates worked out here, so the template only draws them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

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


def nice_scale(low: int, high: int, least: int = 100) -> tuple[int, int, int]:
    """The score axis from `low` to `high`: its ends and the step between labels.

    The step is the smallest "nice number" (1, 2, 2.5 or 5 × 10^k, at least `least`: 100 for
    scores, 1 for ratings) that covers the values in at most MOST_TICKS labels, so that any
    value, however large, gives a few ticks.
    """
    magnitude = least
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
    number = numbers()
    # Totals are whole numbers: each is written as it is (a chart of 300 hands writes 600).
    said = cast(Callable[[float], str], number)
    return drawn(list(zip(sides, series, strict=True)), nice_scale(low, high), number, said, target)


def drawn(
    series: Sequence[tuple[str, Sequence[float]]],
    scale: tuple[int, int, int],
    label: Callable[[int], str],
    said: Callable[[float], str],
    target: int | None = None,
) -> Chart:
    """The chart of named series of values, each from its start (x = 0) on, on the value axis
    `scale` (its ends and step, `nice_scale`): the axis labelled by `label`, the values
    described in words by `said` (the first, where each series starts, left out)."""
    low, high, step = scale
    count = max(len(values) for _, values in series) - 1

    wide, tall, span = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM, high - low

    def across(index: int) -> float:
        return LEFT + wide * index / count

    def down(value: float) -> float:
        return TOP + tall * (high - value) / span

    def x(index: int) -> float:
        return round(across(index), 1)

    def y(value: float) -> float:
        return round(down(value), 1)

    # "x,y" as across() and down() place them and round(…, 1) writes them, worked out in line
    # (602 points at 300 hands, a call each was a third of the chart's time).
    lines = [
        Line(
            side=name,
            points=" ".join(
                [
                    f"{LEFT + wide * i / count:.1f},{TOP + tall * (high - v) / span:.1f}"
                    for i, v in enumerate(values)
                ]
            ),
            last=(x(len(values) - 1), y(values[-1])),
            style=index % 5,
        )
        for index, (name, values) in enumerate(series)
    ]
    every = max(1, -(-count // 8))
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        label_x=LEFT - 4,
        right=WIDTH - RIGHT,
        bottom=HEIGHT - 6,
        lines=lines,
        # A label's baseline 4 below its line centres the digits on it.
        y_ticks=[(y(v), y(v) + 4, label(v)) for v in range(low, high + 1, step)],
        x_ticks=[(x(i), str(i)) for i in range(0, count + 1, every)],
        zero=y(0) if low < 0 else None,
        target=y(target) if target is not None and target <= high else None,
        description="; ".join(
            f"{name}: " + ", ".join(said(v) for v in values[1:]) for name, values in series
        ),
    )

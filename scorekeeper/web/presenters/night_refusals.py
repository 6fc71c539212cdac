"""Why a club night's write was refused, in words: a refusal's code (`NightRefused`) and each
problem of a round's seating (`nights.SeatingProblem`)."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext as _

from ... import nights
from ..services.nights import NightRefused
from ..store.columns import NIGHT_PAIRS


def refusal_text(refused: NightRefused) -> str:
    """A refused night write, in words."""
    v = refused.values
    messages: dict[str, Callable[[], str]] = {
        "no-pairs-table": lambda: _("This system is not played by two pairs at a table."),
        "player-twice": lambda: _(
            "%(name)s is in two pairs: a player plays in one pair only.", name=v.get("name", "")
        ),
        "too-few-pairs": lambda: _("A night needs at least two pairs."),
        "too-many-rounds": lambda: _(
            "This movement has at most %(most)s rounds for these pairs before two pairs meet"
            " again.",
            most=v.get("most", 0),
        ),
        "night-over": lambda: _("This night has ended: nothing more can change."),
        "round-started": lambda: _(
            "Round %(round)s has started: its seating can no longer change.", round=v.get("round")
        ),
        "not-next-round": lambda: _(
            "Round %(round)s is not the next round: the page was old. Here is the night as it"
            " is now.",
            round=v.get("round"),
        ),
        "round-in-play": lambda: _(
            "Round %(round)s is still being played: end it first.", round=v.get("round")
        ),
        "round-not-in-play": lambda: _(
            "Round %(round)s is not being played: it ended already, or has not started.",
            round=v.get("round"),
        ),
        "no-tables": lambda: _(
            "Round %(round)s has no table with two pairs: there is nothing to play.",
            round=v.get("round"),
        ),
        "not-a-number": lambda: _(
            "“%(sent)s” is not a round or pair number: nothing was changed.",
            sent=v.get("sent", ""),
        ),
        "nothing-to-count": lambda: _(
            "Table %(table)s recorded no hand: its game was not played, and cannot count as it"
            " stands.",
            table=v.get("table"),
        ),
        "table-changed": lambda: _(
            "Table %(table)s has played on since this page was drawn: here it is as it is now.",
            table=v.get("table"),
        ),
        "no-such-round": lambda: _("There is no round %(round)s.", round=v.get("round")),
        "no-such-pair": lambda: _("There is no pair %(pair)s.", pair=v.get("pair")),
        "pair-left": lambda: _("Pair %(pair)s has left already.", pair=v.get("pair")),
        "no-free-place": lambda: _(
            "Every place is taken: a night holds at most %(most)s pairs.", most=NIGHT_PAIRS
        ),
    }
    return messages.get(refused.code, lambda: refused.code)()


def seating_problem(problem: nights.SeatingProblem) -> str:
    """A problem of a round's seating, in words."""
    if problem.code == "no-tables":
        return _(
            "Round %(round)s has no table: give at least one table two pairs.", round=problem.round
        )
    if problem.code == "twice":
        return _(
            "Table %(table)s: pair %(pair)s is already at another table this round.",
            table=problem.table,
            pair=problem.pair,
        )
    if problem.code == "itself":
        return _(
            "Table %(table)s: pair %(pair)s cannot play itself.",
            table=problem.table,
            pair=problem.pair,
        )
    return _("Table %(table)s: there is no pair %(pair)s.", table=problem.table, pair=problem.pair)


def counted_text(table: int, counting: nights.Counting) -> str:
    """What a table's game stopped unfinished by the end of its round counts as, in words."""
    if counting is nights.Counting.AS_IT_STANDS:
        return _("Table %(table)s stopped unfinished: its game counts as it stood.", table=table)
    return _("Table %(table)s stopped unfinished: its game counts as not played.", table=table)

"""The hand form's page model: which hand it is, the totals and minimums before it, the scores
typed so far, where each problem sits, and its rows (kept across games of the same set-up while
nothing is typed)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from flask import render_template
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup

from ... import rules
from ..forms.hand import HandFields, Row, listed, rows_for
from ..services.engine import replay_of, system_key
from ..services.loading import with_hands
from ..store.models import Game, Hand
from . import parts


@dataclass(frozen=True)
class SummarySide:
    """One side in the summary under the hand form: its score of the hand, once known, and
    its total with it."""

    name: str
    hand: int | None
    total: int


def problem_places(form: HandFields, rows: Sequence[Row], loose: Sequence[str]) -> list[str]:
    """Where each problem of the form is, in the order of the page: the id of the control's
    place for those next to one, `problems` (the top of the page) for the others."""
    places = [f"cell-{form.ending.id}"] * len(form.ending.errors)
    for row in rows:
        for side in form.sides:
            field = side.form[row.field]
            places += [f"cell-{field.id}"] * len(field.errors)
    return ["problems"] * len(loose) + places


def opened(form: HandFields, rows: Sequence[Row]) -> set[str]:
    """The folded groups of rows that hold something: a value or a problem."""
    return {
        row.group
        for row in rows
        for side in form.sides
        if side.form[row.field].data or side.form[row.field].errors
    }


def hand_form_page(
    game: Game,
    system: rules.RuleSystem,
    form: HandFields,
    *,
    hand: Hand | None = None,
    loose: Sequence[str] | None = None,
    preview: rules.HandResult | None = None,
    theirs: rules.HandResult | None = None,
    taken: bool = False,
    refused: bool = False,
    broken: Sequence[rules.Violation] = (),
    blank: bool = False,
) -> parts.Drawn:
    """The hand form, the same for every visitor; `refused`: a Save that did not save (a
    preview's problems are not), for the rules `broken` or what was typed; `blank`: a new
    hand's form, nothing typed."""
    number, minimums, totals = _before(game, hand)
    rows = rows_for(system, max(len(side.players) for side in game.sides))
    loose = loose or []
    # A refused Save lists every problem at the top, each a link to its field: the first
    # screen says what is wrong, whatever the length of the form.
    problems = listed(form, rows, list(broken), game, system) if refused else []
    places = (
        [p.place or "problems" for p in problems] if problems else problem_places(form, rows, loose)
    )
    rows_drawn = _drawn_rows(game, form, rows, minimums, blank)
    title = (
        _("Correct hand %(number)s", number=number)
        if hand is not None
        else _("Hand %(number)s", number=number)
    )
    body = render_template(
        "hands/_form.html",
        game=game,
        system=system,
        form=form,
        rows_drawn=rows_drawn,
        hand=hand,
        number=number,
        title=title,
        loose=loose,
        preview=preview,
        summary=_summary(game, preview, totals),
        problems=places,
        listed=problems,
        theirs=theirs,
        taken=taken,
        refused=refused,
        blank=blank,
    )
    return parts.Drawn(title, Markup(body))


def _before(game: Game, hand: Hand | None) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The hand's number, and each side's first-meld minimum and total before it: the next hand's
    for a new one. Counted by place, not looked up: a hand deleted meanwhile is shown where it
    was, with the totals and minimums before that place."""
    result = replay_of(game)
    if hand is None:
        return result.next_hand, tuple(result.next_minimums), tuple(result.totals)
    before = sum(1 for h in with_hands(game).live_hands if h.position < hand.position)
    if before < len(result.hands):
        scored = result.hands[before].sides
        minimums = tuple(side.min_opening_meld for side in scored)
        return before + 1, minimums, tuple(side.total - side.hand_score for side in scored)
    return before + 1, tuple(result.next_minimums), tuple(result.totals)


def _summary(
    game: Game, preview: rules.HandResult | None, totals: Sequence[int]
) -> list[SummarySide]:
    """The summary under the form: each side's score of the hand once known, and its total."""
    if preview is not None:
        return [
            SummarySide(side.name, score.hand_score, score.total)
            for side, score in zip(game.sides, preview.sides, strict=True)
        ]
    return [
        SummarySide(side.name, None, total) for side, total in zip(game.sides, totals, strict=True)
    ]


def _drawn_rows(
    game: Game, form: HandFields, rows: Sequence[Row], minimums: Sequence[int], blank: bool
) -> Markup:
    """The form's rows. A blank form's read only what its key names: kept across revisions and
    games, they are not drawn again after every save (they are most of drawing the form)."""

    def draw() -> Markup:
        return Markup(
            render_template(
                "hands/_rows.html",
                game=game,
                form=form,
                rows=rows,
                opened=opened(form, rows),
                minimums=minimums,
            )
        )

    if not blank:
        return draw()
    setup = tuple((side.name, len(side.players)) for side in game.sides)
    key = ("hand rows", system_key(game), setup, tuple(minimums), str(get_locale()))
    return parts.kept(key, draw)

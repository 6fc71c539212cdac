"""The hand form's page model: which hand it is, the totals and minimums before it, the scores
typed so far, its rows (`form_rows.py`: their labels, and the rare ones folded away; kept
across games of the same set-up while nothing is typed), and where each problem sits. The
form's fields and their reading are the form's (`forms/hand.py`)."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum

from flask import render_template
from flask_babel import get_locale
from flask_babel import gettext as _
from markupsafe import Markup, escape

from ... import rules
from ...rules.fields import refs, value_of
from ...rules.hands import Ending
from ..forms.hand import HandFields, ending_value
from ..services.engine import engine_game, engine_hand, replay_of, system_key
from ..services.kept import KeptGame
from ..services.loading import with_hands
from ..store.models import Game, Hand
from ..store.reads import GameLike
from ..wording import cite, ending_label, label_of, number, say
from . import parts
from .form_rows import Row, field_of, rows_for


@dataclass(frozen=True)
class Problem:
    """A problem of a refused hand as the top of its form lists it: in words, with its side;
    the rule it breaks, cited, when it breaks one; and the id of its field's place, if any."""

    words: str
    rule: Markup | None = None
    place: str | None = None


def listed(
    form: HandFields,
    rows: list[Row],
    violations: list[rules.Violation],
    game: Game,
    system: rules.RuleSystem,
) -> list[Problem]:
    """Every problem of a refused hand in the order of the form, those of no field first: the
    broken rules, or (a form the engine never saw) what is wrong with what was typed."""
    order = {f"cell-{form.ending.id}": -1}
    for index, row in enumerate(rows):
        for side in form.sides:
            order[f"cell-{side.form[row.field].id}"] = index
    problems = []
    for violation in violations:
        field = field_of(form, system, violation.side, violation.field)
        place = None if field is None else f"cell-{field.id}"
        problems.append(Problem(say(violation.message), cite(violation.rule, game.id), place))
    if not violations:
        problems += [Problem(str(e), place=f"cell-{form.ending.id}") for e in form.ending.errors]
        for row in rows:
            for index, side in enumerate(form.sides):
                field = side.form[row.field]
                problems += [
                    Problem(
                        _(
                            "%(side)s, %(field)s: %(problem)s",
                            side=game.sides[index].name,
                            field=label_of(row.control.ref),
                            problem=error,
                        ),
                        place=f"cell-{field.id}",
                    )
                    for error in field.errors
                ]
    return sorted(problems, key=lambda p: -2 if p.place is None else order.get(p.place, -2))


def cited(violation: rules.Violation, game_id: str) -> Markup:
    """A broken rule in words, with a link to its paragraph in this game's rules."""
    return Markup("{} ({})").format(say(violation.message), cite(violation.rule, game_id))


def place_violations(
    form: HandFields, violations: list[rules.Violation], game_id: str, system: rules.RuleSystem
) -> list[Markup]:
    """Put each violation's message next to the field it is about (or the one the form asks
    for it); return the rest."""
    loose = []
    for violation in violations:
        message = cited(violation, game_id)
        field = field_of(form, system, violation.side, violation.field)
        if field is None:
            loose.append(message)
        else:
            field.errors = [*field.errors, message]
    return loose


def place_conflicts(
    form: HandFields, theirs: rules.Hand, mine: rules.Hand, system: rules.RuleSystem
) -> None:
    """Next to each value that another phone saved differently meanwhile, both: "they 45 /
    you 40", so that whoever saves again sees what they keep or undo."""
    for side, (their_entry, my_entry) in enumerate(zip(theirs.entries, mine.entries, strict=False)):
        for ref in refs(system):
            they, you = value_of(their_entry, ref), value_of(my_entry, ref)
            field = None if they == you else field_of(form, system, side, ref)
            if field is not None:
                message = _("they %(theirs)s / you %(mine)s", theirs=_said(they), mine=_said(you))
                field.errors = [*field.errors, message]


def _said(value: bool | int | None) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return number(value)


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


class Kind(Enum):
    """What the hand form answers with: a form opened, or what became of one sent."""

    BLANK = "blank"  # a new hand's form, nothing typed: the same for every visitor
    OPENED = "opened"  # a hand's form to correct, or one drawn again after − / + or Count
    PREVIEWED = "previewed"  # the typed hand scored, each broken rule next to its field
    MISTYPED = "mistyped"  # a preview of what reads as no hand (not a number, no ending)
    REFUSED = "refused"  # a Save of a hand that breaks the rules, or of what reads as no hand
    CHANGED = "changed"  # a correction's Save: someone else corrected the hand meanwhile
    DELETED = "deleted"  # a correction's Save: someone else deleted the hand meanwhile
    TAKEN = "taken"  # a new hand's Save: someone else recorded a hand since it was opened
    CLOSED = "closed"  # a new hand's Save at a club night's table that takes no more

    @property
    def saved_nothing(self) -> bool:
        """Whether this is a Save that saved nothing: the page says so, above everything."""
        return self in SAVED_NOTHING


SAVED_NOTHING = frozenset({Kind.REFUSED, Kind.CHANGED, Kind.DELETED, Kind.TAKEN, Kind.CLOSED})


@dataclass(frozen=True)
class Outcome:
    """What the hand form answers with, one value for every case: the page is drawn from it,
    with the form as it was typed (`hand_form_page`), and its HTTP status is the view's."""

    kind: Kind
    typed: rules.Hand | None = None
    """The hand as typed, when what was typed reads as one (PREVIEWED, REFUSED, CHANGED)."""
    broken: tuple[rules.Violation, ...] = ()
    """The rules a refused Save breaks, as the save found them (REFUSED)."""
    theirs: rules.Hand | None = None
    """The hand as another phone saved it meanwhile (CHANGED)."""
    number: int | None = None
    """The number of the hand someone else recorded (TAKEN), or the round that takes no more
    hands (CLOSED)."""
    hands: int | None = None
    """The hands of a round that has all of them (CLOSED; None: the round has ended)."""


def hand_form_page(
    game: Game | KeptGame,
    system: rules.RuleSystem,
    form: HandFields,
    outcome: Outcome,
    hand: Hand | None = None,
) -> parts.Drawn:
    """The hand form as `outcome` leaves it, the same for every visitor: `hand` is the recorded
    hand it corrects (None: a new hand). Each problem is placed here, next to its field or at
    the top; what was typed stays in `form`. A new hand's form, nothing typed (Kind.BLANK), is
    drawn from the game kept (`KeptGame`), and reads nothing."""
    if isinstance(game, KeptGame):
        return _blank(game, system, form)
    number, minimums, totals = _before(game, hand)
    rows = rows_for(system, max(len(side.players) for side in game.sides))
    kind, typed = outcome.kind, outcome.typed
    scored = typed is not None and kind in (Kind.PREVIEWED, Kind.REFUSED)
    preview = _in_place(game, typed, hand) if scored and typed is not None else None
    theirs = _theirs(game, outcome, hand)
    # The one-time token is a hidden field: its message has no place of its own.
    loose: list[str] = [*form.token.errors, *_said_of(outcome)]
    if kind is Kind.PREVIEWED and preview is not None:
        loose += place_violations(form, list(preview.violations), game.id, system)
    place_violations(form, list(outcome.broken), game.id, system)
    if kind is Kind.CHANGED and outcome.theirs is not None and typed is not None:
        place_conflicts(form, outcome.theirs, typed, system)
    # A refused Save lists every problem at the top, each a link to its field (those of no
    # field too): the first screen says what is wrong, whatever the length of the form.
    problems = listed(form, rows, list(outcome.broken), game, system) if kind.saved_nothing else []
    places = (
        [p.place or "problems" for p in problems] if problems else problem_places(form, rows, loose)
    )
    title = (
        _("Correct hand %(number)s", number=number)
        if hand is not None
        else _("Hand %(number)s", number=number)
    )
    return _drawn(
        game,
        system,
        form,
        title,
        rows_drawn=_drawn_rows(game, form, rows, minimums, blank=False),
        hand=hand,
        number=number,
        loose=loose,
        preview=preview,
        summary=_summary(game, preview, totals),
        problems=places,
        listed=problems,
        theirs=theirs,
        taken=kind is Kind.TAKEN,
        refused=kind.saved_nothing,
        blank=False,
    )


@dataclass(frozen=True)
class Blank:
    """What a new hand's form, nothing typed, shows of the game at one revision: its drawing
    (`_blank`) is kept under `shows`, what it shows that a game's revisions may change but a
    hand recorded seldom does (the side's names, the first-meld minimums); the rest goes into
    its holes (`holes`): the title, the last hand's place and the totals."""

    shows: Hashable
    title: str
    after: int
    totals: tuple[int, ...]

    def holes(self) -> dict[str, str]:
        """The holes' values, as the page writes them."""
        return {
            "title": str(escape(self.title)),
            "after": str(self.after),
            **{f"total-{index}": number(total) for index, total in enumerate(self.totals)},
        }


def blank(kept: KeptGame) -> Blank:
    """What a new hand's form shows of the game kept, at its revision."""
    game, result = kept.game, kept.replay
    sides = tuple((side.name, tuple(p.name for p in side.players)) for side in game.sides)
    return Blank(
        shows=(system_key(game), sides, tuple(result.next_minimums)),
        title=_("Hand %(number)s", number=result.next_hand),
        after=game.last_position,
        totals=tuple(result.totals),
    )


def _blank(kept: KeptGame, system: rules.RuleSystem, form: HandFields) -> parts.Drawn:
    """A new hand's form, nothing typed, as every visitor gets it, kept across revisions (its
    rows across games too): from the game kept and its replay, what a hand recorded changes
    left as holes (`Blank`)."""
    game, result = kept.game, kept.replay
    rows = rows_for(system, max(len(side.players) for side in game.sides))
    minimums = tuple(result.next_minimums)
    form.after.data = parts.hole("after")
    title = parts.hole("title")
    return _drawn(
        game,
        system,
        form,
        title,
        rows_drawn=_drawn_rows(game, form, rows, minimums, blank=True),
        hand=None,
        loose=[],
        preview=None,
        summary=_summary(game, None, result.totals),
        totals=[parts.hole(f"total-{index}") for index in range(len(game.sides))],
        problems=problem_places(form, rows, []),
        listed=[],
        theirs=None,
        taken=False,
        refused=False,
        blank=True,
    )


def _drawn(
    game: GameLike, system: rules.RuleSystem, form: HandFields, title: str, **values: object
) -> parts.Drawn:
    """The hand form drawn (`hands/_form.html`) with `values`, and its title."""
    endings = {ending_value(e): ending_label(e, game) for e in Ending.every(len(game.sides))}
    body = parts.draw(
        lambda: render_template(
            "hands/_form.html",
            game=game,
            system=system,
            form=form,
            endings=endings,
            title=title,
            **values,
        )
    )
    return parts.Drawn(title, body)


def _theirs(game: Game, outcome: Outcome, hand: Hand | None) -> rules.HandResult | None:
    """What another phone saved meanwhile, scored: the hand it corrected in its place, or the
    hand it recorded."""
    if outcome.kind is Kind.CHANGED and outcome.theirs is not None:
        return _in_place(game, outcome.theirs, hand)
    if outcome.kind is Kind.TAKEN and outcome.number:
        return replay_of(game).hands[outcome.number - 1]
    return None


def _said_of(outcome: Outcome) -> list[str]:
    """What the top of the form says of a Save that another phone or the night stopped."""
    if outcome.kind is Kind.CHANGED:
        return [
            _(
                "Someone changed this hand while you were correcting it. Their version is "
                "shown below, yours is in the form: save again to keep yours."
            )
        ]
    if outcome.kind is Kind.DELETED:
        return [_("Someone deleted this hand while you were correcting it.")]
    if outcome.kind is Kind.TAKEN:
        return [
            _(
                "Someone else saved hand %(number)s meanwhile: theirs is shown below, yours "
                "is still in the form.",
                number=outcome.number,
            )
        ]
    if outcome.kind is Kind.CLOSED and outcome.hands is not None:
        return [
            _(
                "Round %(round)s is %(hands)s hands, all played here: this hand was not saved.",
                round=outcome.number,
                hands=outcome.hands,
            )
        ]
    if outcome.kind is Kind.CLOSED:
        return [
            _(
                "Round %(round)s has ended: this table's game takes no more hands, and this"
                " hand was not saved.",
                round=outcome.number,
            )
        ]
    return []


def _place(game: Game, hand: Hand) -> int:
    """How many live hands come before a recorded hand: counted by place, not looked up, so that
    a hand deleted meanwhile is shown, and scored, where it was."""
    return sum(1 for h in with_hands(game).live_hands if h.position < hand.position)


def _before(game: Game, hand: Hand | None) -> tuple[int, tuple[int, ...], tuple[int, ...]]:
    """The hand's number, and each side's first-meld minimum and total before it: the next hand's
    for a new one."""
    result = replay_of(game)
    if hand is None:
        return result.next_hand, tuple(result.next_minimums), tuple(result.totals)
    before = _place(game, hand)
    if before < len(result.hands):
        scored = result.hands[before].sides
        minimums = tuple(side.min_opening_meld for side in scored)
        return before + 1, minimums, tuple(side.total - side.hand_score for side in scored)
    return before + 1, tuple(result.next_minimums), tuple(result.totals)


def _in_place(game: Game, typed: rules.Hand, hand: Hand | None) -> rules.HandResult:
    """A hand scored as the next one, or in the place of the recorded `hand` it corrects."""
    if hand is None:
        return rules.extend(engine_game(game, []), replay_of(game), typed).hands[-1]
    index = _place(game, hand)
    hands = [engine_hand(h) for h in with_hands(game).live_hands if h.id != hand.id]
    hands.insert(index, typed)
    return rules.replay(engine_game(game, hands)).hands[index]


def _summary(
    game: GameLike, preview: rules.HandResult | None, totals: Sequence[int]
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
    game: GameLike, form: HandFields, rows: Sequence[Row], minimums: Sequence[int], blank: bool
) -> parts.Kept:
    """The form's rows. A blank form's read only what its key names: kept across revisions and
    games, they are not drawn again after every save (they are most of drawing the form)."""

    def draw() -> parts.Kept:
        return parts.draw(
            lambda: render_template(
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

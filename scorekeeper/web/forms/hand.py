"""The hand form: its lines for a system, a form class per system and table, what it reads as
a hand for the engine, and each broken rule placed next to its field."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import current_app
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.i18n import translations
from markupsafe import Markup
from werkzeug.datastructures import MultiDict
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    Form,
    FormField,
    HiddenField,
    IntegerField,
    RadioField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3
from wtforms.form import BaseForm
from wtforms.meta import DefaultMeta
from wtforms.validators import InputRequired, Length, Optional

from ... import rules
from ...rules.fields import (
    ENTRY_FIELDS,
    EntryField,
    FieldKind,
    FieldRef,
    asked_as,
    caught_holding,
    entry_of,
    held,
    refs,
    value_of,
)
from ...rules.hands import Ending
from ..http.converters import Within
from ..http.i18n import Translator, number, say
from ..presenters.labels import ending_label, label_of
from ..services.engine import SystemKey, engine_hand, system_for, system_key, system_of
from ..store.models import TOKEN_LENGTH, Game, Hand
from ..templating import cite

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


@dataclass(frozen=True)
class Row:
    """One line of the hand form: a field shown for every side side by side."""

    ref: FieldRef
    label: str
    kind: str  # "points", "counter", "pick" (a count picked in one tap) or "check"
    rule_topic: str
    counter: str | None = None  # the card counter's prefix, `melded` for `melded_cards`
    group: str = "main"  # "main", or folded away as rare: "more-sets" or "penalties"

    @property
    def field(self) -> str:
        """The control's name within a side's part of the form: `melded_points`, `set_samba`."""
        return self.ref.name


ROW_KINDS = {FieldKind.FLAG: "check", FieldKind.POINTS: "points"}


COMMON_SETS = frozenset(
    {rules.SetKind.NATURAL_CANASTA, rules.SetKind.MIXED_CANASTA, rules.SetKind.SAMBA}
)
"""The sets of most hands; a system's others fold under "More sets", but for those its book asks
for and the one it is named after (black-samba's black samba)."""


PICKED = frozenset({"red_threes"})
"""Counts small enough to pick in one tap (0 to the red threes in the deck), not count up..."""


PICK_MOST = 6
"""...when the numbers to pick from fit on one line of a phone: up to three decks' red threes."""


PENALTY_FIELDS = frozenset({"red_threes_in_hand", "players_holding_red_threes", "penalties"})
"""What a side pays for, rare at the table: folded under "Penalties"."""


def row_label(ref: FieldRef, system: rules.RuleSystem) -> str:
    """A row's label, with what one of it costs where the field says so (−750 each)."""
    cost = ref.entry_field.cost(system) if ref.key is None else None
    label = label_of(ref)
    return label if cost is None else f"{label} ({say(cost)})"


def _group(ref: FieldRef, system: rules.RuleSystem) -> str:
    if ref.field in PENALTY_FIELDS:
        return "penalties"
    booked = {kind for kinds, _count in system.book for kind in kinds}
    named_after = ref.key is not None and ref.key.value == system.id.replace("-", "_")
    if (
        isinstance(ref.key, rules.SetKind)
        and ref.key not in COMMON_SETS | booked
        and not named_after
    ):
        return "more-sets"
    return "main"


def _kind(ref: FieldRef, system: rules.RuleSystem) -> str:
    if ref.field in PICKED and rules.Deck(system.decks, 0).red_threes <= PICK_MOST:
        return "pick"
    return ROW_KINDS.get(ref.entry_field.kind, "counter")


def rows_for(system: rules.RuleSystem, players: int | None = None) -> list[Row]:
    """The form's lines for a system (its fields, sets and penalties), check boxes last;
    `players` (the most on a side) leaves out what means nothing at that table."""
    rows = [
        Row(
            ref,
            row_label(ref, system),
            _kind(ref, system),
            ref.entry_field.topic,
            ref.name.removesuffix("_points") if ref.entry_field.cards else None,
            _group(ref, system),
        )
        for ref in refs(system, players=players)
        if not ref.entry_field.by_ending
    ]
    return sorted(rows, key=lambda row: row.kind == "check")


def ending_value(ending: Ending) -> str:
    """How the form's radio names an ending: `out-0` for the first side going out, `stock`."""
    return "stock" if ending.side is None else f"out-{ending.side}"


def ending_of(value: object, sides: int) -> Ending | None:
    """The ending a radio value names, among those of a hand of `sides` sides; None if none."""
    return next((e for e in Ending.every(sides) if ending_value(e) == value), None)


def _count(label: str = "") -> IntegerField:
    return IntegerField(
        label,
        default=0,
        validators=[Optional(), Within(0, 9999)],
        render_kw=NUMBER,
    )


class SubForm(Form):
    """A part of the hand form: WTForms' own messages in the page's language, as in FlaskForm."""

    class Meta(DefaultMeta):
        def get_translations(self, form: BaseForm) -> Translator:
            if current_app.config.get("WTF_I18N_ENABLED", True):
                return translations
            return super().get_translations(form)


class CardsForm(SubForm):
    """The card counter: how many of each card group, turned into points."""


for _card in rules.Card:
    setattr(CardsForm, _card.value, _count())


def _control(field: EntryField, kind: str, red_threes: int) -> Field:
    """The form control for one field of a side's entry."""
    if kind == "pick":
        return RadioField(
            choices=[SelectChoice(n, str(n)) for n in range(red_threes + 1)], coerce=int, default=0
        )
    if field.kind is FieldKind.FLAG:
        return BooleanField()
    if field.kind is FieldKind.POINTS:
        # Empty until typed (no 0 to delete first), read as 0; a first meld stays unnoted.
        shown = NUMBER if field.optional else {**NUMBER, "placeholder": "0"}
        return IntegerField(validators=[Optional(), Within(0, field.most)], render_kw=shown)
    return IntegerField(default=0, validators=[Optional(), Within(0, field.most)], render_kw=NUMBER)


def entry_form_class(system: rules.RuleSystem, red_threes: int) -> type[Form]:
    """A side's part of the hand form: a control per row, and a card counter where it helps;
    `red_threes`: how many the table's deck holds, the most a side can pick."""

    class EntryForm(SubForm):
        pass

    for row in rows_for(system):
        setattr(EntryForm, row.field, _control(row.ref.entry_field, row.kind, red_threes))
        if row.counter is not None:
            setattr(EntryForm, f"{row.counter}_cards", FormField(CardsForm))
    return EntryForm


class HandFields(FlaskForm):
    """The hand form's fields, read by name; `hand_form` makes them for one game."""

    ending: RadioField
    token: HiddenField
    version: HiddenField
    after: HiddenField
    sides: FieldList[FormField[Form]]


def hand_form(
    game: Game, formdata: Any = None, data: Any = None, *, after: int | None = None
) -> HandFields:
    """The form for one hand of this game: as sent (`formdata`), filled from a recorded hand
    (`data`), or a new hand's, opened after hand number `after` (the last one recorded, deleted
    or not). It reads nothing from the database: what it needs of the game comes with its sides."""
    endings = tuple(
        (ending_value(ending), ending_label(ending, game))
        for ending in Ending.every(len(game.sides))
    )
    red_threes = system_of(game).deck(sum(len(side.players) for side in game.sides)).red_threes
    form_class = _hand_form_class(system_key(game), endings, red_threes)
    if formdata is not None:
        return form_class(formdata=formdata)
    if data is None and after is not None:
        data = {"after": str(after)}
    return form_class(formdata=None, data=data)


@lru_cache(maxsize=64)
def _hand_form_class(
    key: SystemKey, endings: tuple[tuple[str, str], ...], red_threes: int
) -> type[HandFields]:
    """The hand form of one system, for sides whose endings read `endings` (value, label) and
    a deck of `red_threes`: made once, since making a form class costs more than filling one in."""
    side_count = len(endings) - 1  # each side going out, and the stock running out

    class HandForm(HandFields):
        ending = RadioField(
            _l("How did the hand end?"),
            choices=[SelectChoice(value, label) for value, label in endings],
            validators=[InputRequired(_l("Choose who went out, or that nobody did."))],
        )
        token = HiddenField(
            validators=[
                Length(
                    max=TOKEN_LENGTH,
                    message=_l("This form was not made here: open the hand form again."),
                )
            ]
        )
        version = HiddenField()
        after = HiddenField()  # the last hand's number when a new hand's form was opened
        sides = FieldList(
            FormField(entry_form_class(system_for(key), red_threes)),
            min_entries=side_count,
            max_entries=side_count,
        )

    return HandForm


def hand_from_form(form: HandFields, system: rules.RuleSystem) -> rules.Hand:
    """The hand the form describes, for the rules engine (a form that passed validation)."""
    ending = ending_of(form.ending.data, len(form.sides)) or Ending.STOCK
    rows = rows_for(system)
    entries = []
    for index, side in enumerate(form.sides):
        values: dict[str, Any] = {"went_out": ending.side == index}
        for row in rows:
            field, data = row.ref.entry_field, side.form[row.field].data
            if row.ref.key is not None:
                values.setdefault(field.name, {})[row.ref.key] = int(data or 0)
            elif field.kind is FieldKind.FLAG:
                values[field.name] = bool(data)
            else:
                values[field.name] = data if field.optional else int(data or 0)
        for field in ENTRY_FIELDS:
            told_by = field.told_by(system)
            if told_by is not None:
                values[field.name] = values[told_by]
        entries.append(entry_of(values))
    return rules.Hand(tuple(entries), ending.ended_by)


def form_data(hand: Hand) -> dict[str, Any]:
    """A recorded hand as data for its correction form."""
    engine = engine_hand(hand)
    # Where the form asks only how many players were caught holding red threes, a hand
    # recorded with red threes left in hand alone (a game file's) answers it as it scored.
    sides = [
        {ref.name: value_of(e, ref) for ref in held(e)}
        | {"players_holding_red_threes": caught_holding(e)}
        for e in engine.entries
    ]
    return {
        "ending": ending_value(engine.ending),
        "version": str(hand.version),
        "sides": sides,
        "token": hand.token,
    }


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
        place = None
        if violation.side is not None and violation.field is not None:
            ref = asked_as(system, violation.field)
            entry = form.sides[violation.side].form
            field = form.ending if ref.field == "went_out" else entry._fields.get(ref.name)
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
                            field=label_of(row.ref),
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
        field = None
        ref = violation.field
        if violation.side is not None and ref is not None:
            ref = asked_as(system, ref)
            entry = form.sides[violation.side].form
            field = form.ending if ref.field == "went_out" else entry._fields.get(ref.name)
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
        entry = form.sides[side].form
        for ref in refs(system):
            they, you = value_of(their_entry, ref), value_of(my_entry, ref)
            if they == you:
                continue
            asked = asked_as(system, ref)
            field = form.ending if asked.field == "went_out" else entry._fields.get(asked.name)
            if field is not None:
                message = _("they %(theirs)s / you %(mine)s", theirs=_said(they), mine=_said(you))
                field.errors = [*field.errors, message]


def _said(value: bool | int | None) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return _("yes") if value else _("no")
    return number(value)


def adjust(formdata: MultiDict[str, str], system: rules.RuleSystem) -> MultiDict[str, str]:
    """Without JavaScript the − / + and Count buttons post the form: apply them here."""
    data = formdata.copy()
    bump = data.pop("bump", None)
    if bump and ":" in bump:
        name, step = bump.rsplit(":", 1)
        try:
            value = int(data.get(name) or 0) + int(step)
        except ValueError:
            value = None
        if value is not None:
            data[name] = str(max(0, value))
    count = data.pop("count", None)
    if count:
        prefix = count  # e.g. sides-0-melded
        try:
            counts = {
                card: int(data.get(f"{prefix}_cards-{card.value}") or 0) for card in rules.Card
            }
            data[f"{prefix}_points"] = str(rules.card_points(counts))
        except ValueError:
            pass
    return data

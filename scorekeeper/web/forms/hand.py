"""The hand form's fields and their reading: the control each field of a side's entry is asked
with, a form class per system and table, what a sent form reads as for the engine, and the data
that fills it from a recorded hand. How the form is laid out, and where each problem is shown,
is the presenter's (`presenters/hand_form.py`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from flask import current_app
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from flask_wtf.i18n import translations
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
    caught_holding,
    entry_of,
    held,
    refs,
    value_of,
)
from ...rules.hands import Ending
from ..services.engine import SystemKey, engine_hand, system_for, system_key, system_of
from ..store.models import TOKEN_LENGTH, Hand
from ..store.reads import GameLike
from ..wording import Translator, form_messages
from .validators import Within

NUMBER = {"inputmode": "numeric", "pattern": "[0-9]*", "autocomplete": "off"}


@dataclass(frozen=True)
class Control:
    """How the form asks one field of a side's entry, the same for every side."""

    ref: FieldRef
    kind: str  # "points", "counter", "pick" (a count picked in one tap) or "check"
    counter: str | None = None  # the card counter's prefix, `melded` for `melded_cards`

    @property
    def field(self) -> str:
        """The control's name within a side's part of the form: `melded_points`, `set_samba`."""
        return self.ref.name


CONTROL_KINDS = {FieldKind.FLAG: "check", FieldKind.POINTS: "points"}


PICKED = frozenset({"red_threes"})
"""Counts small enough to pick in one tap (0 to the red threes in the deck), not count up..."""


PICK_MOST = 6
"""...when the numbers to pick from fit on one line of a phone: up to three decks' red threes."""


def _kind(ref: FieldRef, system: rules.RuleSystem) -> str:
    if ref.field in PICKED and rules.Deck(system.decks, 0).red_threes <= PICK_MOST:
        return "pick"
    return CONTROL_KINDS.get(ref.entry_field.kind, "counter")


def controls(system: rules.RuleSystem, players: int | None = None) -> list[Control]:
    """The controls of a side's part of the form for a system (its fields, sets and penalties;
    how the hand ended is asked once for all sides); `players` (the most on a side) leaves out
    what means nothing at that table."""
    return [
        Control(
            ref,
            _kind(ref, system),
            ref.name.removesuffix("_points") if ref.entry_field.cards else None,
        )
        for ref in refs(system, players=players)
        if not ref.entry_field.by_ending
    ]


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


class Messages(DefaultMeta):
    """WTForms' own messages in the page's language, as in FlaskForm, but each language's
    catalog loaded once (`wording.form_messages`)."""

    def get_translations(self, form: BaseForm) -> Translator:
        if current_app.config.get("WTF_I18N_ENABLED", True):
            return form_messages() or translations
        return super().get_translations(form)


class SubForm(Form):
    """A part of the hand form."""

    Meta = Messages


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
    """A side's part of the hand form: its controls, and a card counter where it helps;
    `red_threes`: how many the table's deck holds, the most a side can pick."""

    class EntryForm(SubForm):
        pass

    for control in controls(system):
        field = _control(control.ref.entry_field, control.kind, red_threes)
        setattr(EntryForm, control.field, field)
        if control.counter is not None:
            setattr(EntryForm, f"{control.counter}_cards", FormField(CardsForm))
    return EntryForm


class HandFields(FlaskForm):
    """The hand form's fields, read by name; `hand_form` makes them for one game."""

    class Meta(Messages, FlaskForm.Meta):
        """FlaskForm's (its CSRF token), with WTForms' messages loaded once."""

    ending: RadioField
    token: HiddenField
    version: HiddenField
    after: HiddenField
    sides: FieldList[FormField[Form]]


def hand_form(
    game: GameLike, formdata: Any = None, data: Any = None, *, after: int | None = None
) -> HandFields:
    """The form for one hand of this game: as sent (`formdata`), filled from a recorded hand
    (`data`), or a new hand's, opened after hand number `after` (the last one recorded, deleted
    or not). It reads nothing from the database: what it needs of the game comes with its sides."""
    red_threes = system_of(game).deck(sum(len(side.players) for side in game.sides)).red_threes
    form_class = _hand_form_class(system_key(game), len(game.sides), red_threes)
    if formdata is not None:
        return form_class(formdata=formdata)
    if data is None and after is not None:
        data = {"after": str(after)}
    return form_class(formdata=None, data=data)


@lru_cache(maxsize=64)
def _hand_form_class(key: SystemKey, side_count: int, red_threes: int) -> type[HandFields]:
    """The hand form of one system, for `side_count` sides and a deck of `red_threes`: made
    once, since making a form class costs more than filling one in. The endings' words are the
    page's (they name the sides): the form knows each by its value."""

    class HandForm(HandFields):
        ending = RadioField(
            _l("How did the hand end?"),
            choices=[SelectChoice(ending_value(e)) for e in Ending.every(side_count)],
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
    sides = [_fields_of(side.form) for side in form.sides]
    return _hand(form.ending.data, sides, system)


def _fields_of(side: Form) -> Callable[[str], Any]:
    """A side's values by control, as its fields read them."""
    return lambda name: side[name].data


def _hand(
    ending_sent: object, sides: Sequence[Callable[[str], Any]], system: rules.RuleSystem
) -> rules.Hand:
    """The hand of the ending chosen and each side's values, read by control (`sides`): what
    the form's fields or a plain reading of the form sent (`sent_hand`) hold."""
    ending = ending_of(ending_sent, len(sides)) or Ending.STOCK
    asked = controls(system)
    entries = []
    for index, side in enumerate(sides):
        values: dict[str, Any] = {"went_out": ending.side == index}
        for control in asked:
            field, data = control.ref.entry_field, side(control.field)
            if control.ref.key is not None:
                values.setdefault(field.name, {})[control.ref.key] = int(data or 0)
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


@dataclass
class Hidden:
    """The hand form's hidden values: its one-time token, the last hand's number when a new
    hand's form was opened, the version of the hand a correction opened; what a save reads and,
    when another phone saved meanwhile, changes for the form sent back."""

    token: str | None
    after: str | None
    version: str | None

    @classmethod
    def of(cls, form: HandFields) -> Hidden:
        return cls(form.token.data, form.after.data, form.version.data)

    def into(self, form: HandFields) -> None:
        form.token.data, form.after.data, form.version.data = self.token, self.after, self.version


@dataclass(frozen=True)
class Sent:
    """A new hand's form as sent, read plainly: the hand, and the form's hidden values."""

    hand: rules.Hand
    hidden: Hidden


class _Unplain(Exception):
    """A value the plain reading does not take: the form, built whole, says what of it."""


def sent_hand(formdata: MultiDict[str, str], game: GameLike) -> Sent | None:
    """A new hand's form as sent, read and checked without building the form's fields (a save
    costs less by it); None when anything sent is not plainly a good value, or not plainly
    where the form reads it: then the form built whole reads it (`hand_form`), and says what
    is wrong next to the field. What this takes the form takes too, and reads the same
    (tests/web/test_sent_hands.py). The CSRF token is the caller's to have checked."""
    system = system_of(game)
    red_threes = system.deck(sum(len(side.players) for side in game.sides)).red_threes
    count = len(game.sides)
    try:
        if sorted(_indices(formdata)) != list(range(count)):
            raise _Unplain
        endings = {ending_value(e) for e in Ending.every(count)}
        ending = _first(formdata, "ending")
        token = _first(formdata, "token")
        if ending not in endings or (token is not None and len(token) > TOKEN_LENGTH):
            raise _Unplain
        asked = controls(system)
        sides = [_side(formdata, f"sides-{i}-", asked, red_threes) for i in range(count)]
    except _Unplain:
        return None
    hidden = Hidden(token, _first(formdata, "after"), _first(formdata, "version"))
    return Sent(_hand(ending, sides, system), hidden)


def _indices(formdata: MultiDict[str, str]) -> set[int]:
    """The sides' indices the form's names carry, as WTForms' FieldList finds them."""
    found = set()
    for name in formdata:
        if name.startswith("sides-"):
            index = name[len("sides-") :].split("-", 1)[0]
            if index.isdigit():
                found.add(int(index))
    return found


def _first(formdata: MultiDict[str, str], name: str) -> str | None:
    values = formdata.getlist(name)
    return values[0] if values else None


def _number(formdata: MultiDict[str, str], name: str, most: int, default: int | None) -> int | None:
    """A whole number field as WTForms reads it (blank: None; missing: its default), if it is
    one from 0 to `most`."""
    value = _first(formdata, name)
    if value is None:
        return default
    if not value.strip():
        return None
    try:
        number = int(value)
    except ValueError:
        raise _Unplain from None
    if not 0 <= number <= most:
        raise _Unplain
    return number


def _side(
    formdata: MultiDict[str, str], prefix: str, asked: Sequence[Control], red_threes: int
) -> Callable[[str], Any]:
    """One side's values by control (`asked`), read as its fields would (`_control`), each
    checked."""
    values: dict[str, Any] = {}
    for control in asked:
        name, field = prefix + control.field, control.ref.entry_field
        if control.kind == "pick":
            value = _first(formdata, name)
            try:
                picked = 0 if value is None else int(value)
            except ValueError:
                raise _Unplain from None
            if not 0 <= picked <= red_threes:
                raise _Unplain
            values[control.field] = picked
        elif field.kind is FieldKind.FLAG:
            values[control.field] = _first(formdata, name) not in (None, "false", "")
        else:
            zero = None if field.kind is FieldKind.POINTS else 0
            values[control.field] = _number(formdata, name, field.most, zero)
        if control.counter is not None:
            for card in rules.Card:
                _number(formdata, f"{prefix}{control.counter}_cards-{card.value}", 9999, 0)
    return values.__getitem__


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

"""The house-rule form: a field for each number a system has, read back through the engine with
every problem next to its field."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    Field,
    FieldList,
    FormField,
    IntegerField,
    SelectField,
    StringField,
)
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]  # new in WTForms 3.3
from wtforms.validators import DataRequired, Length, Optional

from ... import rules
from ..store.models import NAME_LENGTH
from ..wording import say

Kind = rules.HouseRuleKind

EMPTY_ROWS = 2
"""Empty first-meld rows offered below a system's own, for rows the table adds."""
MOST_ROWS = 20
"""The most first-meld rows a form sent back is shown with."""


Pairs = tuple[tuple[int | None, int], ...]


def _same_minimums(a: Pairs, b: Pairs) -> bool:
    """Whether two first-meld tables ask the same: the first pair covers every total below it."""
    return len(a) == len(b) and a[0][1] == b[0][1] and a[1:] == b[1:]


def _whole_pairs(pairs: Pairs) -> list[list[int]]:
    """The table as a game file writes it: a first pair open below gets a total under the next."""
    written = []
    for index, (lowest, minimum) in enumerate(pairs):
        if lowest is None:
            following = pairs[index + 1][0] if index + 1 < len(pairs) else None
            lowest = 0 if following is None else min(0, following - 5)
        written.append([lowest, minimum])
    return written


def _part_of(entry: rules.HouseRuleKey, part: str) -> Callable[[rules.RuleSystem], Any]:
    return lambda system: entry.of(system).get(part)


def changes_from(
    system_id: str, options: Sequence[str], entered: Mapping[str, Any]
) -> dict[str, Any]:
    """The house-rule keys whose values differ from the system's (None means the system's).

    A number equal to the system's, with or without the chosen options, is not a change: the
    form shows the system's own numbers, and an option's numbers apply unless changed.
    """
    plain = rules.get_system(system_id)
    chosen = rules.get_system(system_id, options)

    def differs(value: Any, read: Callable[[rules.RuleSystem], Any]) -> bool:
        return value is not None and value != read(plain) and value != read(chosen)

    found: dict[str, Any] = {}
    for entry in rules.HOUSE_RULES:
        value = entered.get(entry.key)
        if entry.kind is Kind.WORDS or value is None:
            continue  # the name is the house rule's own column
        if entry.kind is Kind.POINTS_BY_PART:
            parts = {
                part: points
                for part, points in value.items()
                if differs(points, _part_of(entry, part))
            }
            if parts:
                found[entry.key] = parts
        elif entry.kind is Kind.MINIMUMS:
            if not _same_minimums(value, entry.of(plain)):
                found[entry.key] = _whole_pairs(value)
        elif differs(value, entry.of):
            found[entry.key] = value
    return found


class MinimumRow(FlaskForm):
    class Meta:
        csrf = False

    lowest = IntegerField(
        _l("From a total of"), validators=[Optional()], render_kw={"inputmode": "numeric"}
    )
    minimum = IntegerField(
        _l("First meld of at least"), validators=[Optional()], render_kw={"inputmode": "numeric"}
    )


FIELD_NAMES = {"set_bonuses": "bonus", "opening_minimums": "first_meld"}
"""Form names kept from before the table (pages and tests use them); other keys are their own."""


def field_name(entry: rules.HouseRuleKey, part: str | None = None) -> str:
    """The form field of a house-rule key, or of one part of it (`bonus_samba`)."""
    name = FIELD_NAMES.get(entry.key, entry.key)
    return name if part is None else f"{name}_{part}"


def house_rule_keys(system: rules.RuleSystem) -> list[rules.HouseRuleKey]:
    """The house-rule keys a system has, in the table's order."""
    return [entry for entry in rules.HOUSE_RULES if entry.has(system)]


@dataclass
class Asked:
    """One house-rule key as the form asks it: its fields (one per part) and, for a table, the
    problems of its rows."""

    entry: rules.HouseRuleKey
    fields: list[Field]
    errors: list[str]


def rows_sent(formdata: Mapping[str, Any]) -> int:
    """How many first-meld rows a sent form holds (at most `MOST_ROWS`): a refused form shows
    every row typed, even when another phone has shortened the house rule's table meanwhile.

    >>> rows_sent({"first_meld-0-lowest": "0", "first_meld-3-minimum": "150", "name": "x"})
    4
    """
    row = re.compile(rf"{FIELD_NAMES['opening_minimums']}-(\d{{1,3}})-")
    indices = [int(found[1]) for key in formdata if (found := row.match(key))]
    return min(max(indices, default=-1) + 1, MOST_ROWS)


def house_rule_form(system: rules.RuleSystem, rows: int) -> FlaskForm:
    """The form for one system's house rule: a field for each number it has, and its options."""

    number = {"inputmode": "numeric"}

    class HouseRuleForm(FlaskForm):
        pass

    for option_id in system.options:
        setattr(
            HouseRuleForm,
            f"option_{option_id}",
            BooleanField(_l(rules.OPTIONS[option_id].label)),
        )
    for entry in house_rule_keys(system):
        name = field_name(entry)
        if entry.kind is Kind.WORDS:
            field: Any = StringField(
                _l(entry.label),
                validators=[DataRequired(), Length(max=NAME_LENGTH)],
            )
        elif entry.kind is Kind.CHOICE:
            choices = [SelectChoice(value, _l(words)) for value, words in entry.choices.items()]
            # Not sent (an older page) is the system's own reading, as an empty number is.
            field = SelectField(_l(entry.label), choices=choices, validators=[Optional()])
        elif entry.kind is Kind.MINIMUMS:
            field = FieldList(FormField(MinimumRow), min_entries=rows, max_entries=rows)
        elif entry.kind is Kind.POINTS_BY_PART:
            for part in entry.parts(system):
                label = say(entry.part_label(part, system)).capitalize()
                setattr(
                    HouseRuleForm,
                    field_name(entry, part),
                    IntegerField(label, validators=[Optional()], render_kw=number),
                )
            continue
        else:
            field = IntegerField(_l(entry.label), validators=[Optional()], render_kw=number)
        setattr(HouseRuleForm, name, field)
    return HouseRuleForm()


def asked(form: FlaskForm, system: rules.RuleSystem, row_errors: list[str]) -> list[Asked]:
    """What the form asks, key by key, as the page lays it out."""
    found = []
    for entry in house_rule_keys(system):
        if entry.kind is Kind.POINTS_BY_PART:
            fields = [form[field_name(entry, part)] for part in entry.parts(system)]
        else:
            fields = [form[field_name(entry)]]
        found.append(Asked(entry, fields, row_errors if entry.kind is Kind.MINIMUMS else []))
    return found


def prefill(form: FlaskForm, system: rules.RuleSystem, name: str, options: Collection[str]) -> None:
    for option_id in system.options:
        form[f"option_{option_id}"].data = option_id in options
    for entry in house_rule_keys(system):
        value = entry.of(system)
        if entry.kind is Kind.WORDS:
            form[field_name(entry)].data = name
        elif entry.kind is Kind.POINTS_BY_PART:
            for part in entry.parts(system):
                form[field_name(entry, part)].data = value.get(part)
        elif entry.kind is Kind.MINIMUMS:
            pairs: list[tuple[int | None, int | None]] = [*value, *[(None, None)] * EMPTY_ROWS]
            for row, (lowest, minimum) in zip(_rows(form, entry), pairs, strict=True):
                row.form.lowest.data = lowest
                row.form.minimum.data = minimum
        else:
            form[field_name(entry)].data = value


def _rows(form: FlaskForm, entry: rules.HouseRuleKey) -> FieldList[FormField[MinimumRow]]:
    return cast("FieldList[FormField[MinimumRow]]", form[field_name(entry)])


def _read_rows(rows: FieldList[FormField[MinimumRow]]) -> tuple[Pairs | None, list[int], list[str]]:
    """The first-meld table as entered, empty rows left out, the number of the row each pair
    comes from, and what is wrong with the rows."""
    pairs: list[tuple[int | None, int]] = []
    numbers = []
    problems = []
    for index, row in enumerate(rows, start=1):
        lowest, minimum = row.form.lowest.data, row.form.minimum.data
        if lowest is None and minimum is None:
            continue
        if minimum is None:
            problems.append(_("Row %(number)s: give the minimum for this total.", number=index))
        elif lowest is None and pairs:
            problems.append(
                _("Row %(number)s: give the total this minimum starts from.", number=index)
            )
        else:
            pairs.append((lowest, minimum))
            numbers.append(index)
    if not pairs and not problems:
        problems.append(_("The first-meld table needs at least one row."))
    return (tuple(pairs) if pairs else None), numbers, problems


def _entered(
    form: FlaskForm, system: rules.RuleSystem
) -> tuple[dict[str, Any], list[int], list[str]]:
    """The form's values by house-rule key, the form row of each first-meld pair, and what is
    wrong with the first-meld rows."""
    values: dict[str, Any] = {}
    numbers: list[int] = []
    row_errors: list[str] = []
    for entry in house_rule_keys(system):
        if entry.kind is Kind.POINTS_BY_PART:
            values[entry.key] = {
                part: form[field_name(entry, part)].data for part in entry.parts(system)
            }
        elif entry.kind is Kind.MINIMUMS:
            values[entry.key], numbers, row_errors = _read_rows(_rows(form, entry))
        elif entry.kind is Kind.WORDS:
            values[entry.key] = (form[field_name(entry)].data or "").strip()
        else:
            values[entry.key] = form[field_name(entry)].data
    return values, numbers, row_errors


def _show_problems(
    form: FlaskForm,
    problems: list[rules.HouseRuleProblem],
    numbers: list[int],
    row_errors: list[str],
) -> list[str]:
    """Each problem next to its field (a first-meld row's above the table); those of no field."""
    elsewhere = []
    for problem in problems:
        message = say(problem.message)
        entry = rules.HOUSE_RULES_BY_KEY.get(problem.key)
        place = None if entry is None else field_name(entry, problem.part)
        if entry is not None and entry.kind is Kind.MINIMUMS:
            if problem.row is not None and problem.row < len(numbers):
                message = _(
                    "Row %(number)s: %(problem)s", number=numbers[problem.row], problem=message
                )
            row_errors.append(message)
        elif place is not None and place in form:
            form[place].errors = [*form[place].errors, message]
        else:
            elsewhere.append(message)
    return elsewhere


@dataclass
class Sent:
    """A sent house-rule form read through the engine: what it keeps and what is wrong with it."""

    name: str
    options: list[str]
    changes: dict[str, Any]
    row_errors: list[str]  # the first-meld table's, shown above its rows
    problems: list[str]  # those of no field
    valid: bool


def read_form(form: FlaskForm, system: rules.RuleSystem) -> Sent:
    """What the form asks to keep; every problem is placed next to its field at once."""
    valid = form.validate()
    options = [o for o in system.options if form[f"option_{o}"].data]
    entered, numbers, row_errors = _entered(form, system)
    changes = changes_from(system.id, options, entered)
    chosen = rules.get_system(system.id, options)
    # One reading of the whole house rule names every wrong number at once.
    _, found = rules.read_house_rules({**changes, "name": entered["name"]}, chosen)
    problems = _show_problems(form, found, numbers, row_errors)
    ok = valid and not found and not row_errors
    return Sent(entered["name"], options, changes, row_errors, problems, ok)

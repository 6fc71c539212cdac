"""House rules: a table's own numbers, named and kept for new games.

A profile stores only what differs from its system, so it says exactly what it changes. Games
copy the profile when they start (`Game.house_rules`), so editing or deleting a profile never
changes a game already played under it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response
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

from .. import rules
from ..rules.readings import Reading
from .converters import whole_number
from .csrf import form_view
from .database import writing
from .i18n import say
from .models import NAME_LENGTH, HouseRule, db
from .rulebook import differences, render_rules
from .services import NotFound

bp = Blueprint("house_rules", __name__)
Kind = rules.HouseRuleKind

EMPTY_ROWS = 2
"""Empty first-meld rows offered below a system's own, for rows the table adds."""

Pairs = tuple[tuple[int | None, int], ...]


def derived_system(profile: HouseRule) -> rules.RuleSystem:
    """The system a profile describes: its base system, options and numbers."""
    return rules.read_system(
        profile.system_id, dict.fromkeys(profile.options, True), snapshot(profile)
    )


def snapshot(profile: HouseRule) -> dict[str, Any]:
    """The profile as a game file's `house_rules`, which a new game keeps as its own copy."""
    return {"name": profile.name, **profile.rules}


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
            continue  # the name is the profile's own column
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


def save_house_rule(
    rule_id: int | None, name: str, system_id: str, options: Sequence[str], changes: dict[str, Any]
) -> int:
    """Keep a new or edited profile and return its id (games keep their own copies)."""
    with writing():
        profile = HouseRule() if rule_id is None else _stored(rule_id)
        profile.name = name
        profile.system_id = system_id
        profile.options = sorted(options)
        profile.rules = changes
        db.session.add(profile)
        db.session.flush()
        saved = profile.id  # read now: after the commit it would begin another transaction
    return saved


def delete_house_rule(rule_id: int) -> None:
    """Forget a profile; games started from it keep their rules."""
    with writing():
        db.session.delete(_stored(rule_id))


def _stored(rule_id: int) -> HouseRule:
    profile = db.session.get(HouseRule, rule_id)
    if profile is None:
        raise NotFound(f"no house rule {rule_id}")
    return profile


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
                _l(entry.label), validators=[DataRequired(), Length(max=NAME_LENGTH)]
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


def _prefill(
    form: FlaskForm, system: rules.RuleSystem, name: str, options: Collection[str]
) -> None:
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


def asked_for(system: rules.RuleSystem, args: Mapping[str, str]) -> rules.RuleSystem:
    """The system with the house-rule values a link asks for, each key by its own name and its
    value as a game file writes it (`?red_three_values={"each_minus": 600}`; words may go bare:
    `?tie_at_target=shared`). A value the system cannot take is left out."""
    values: dict[str, Any] = {}
    for entry in house_rule_keys(system):
        if entry.key not in args:
            continue
        try:
            value = json.loads(args[entry.key])
        except (ValueError, RecursionError):  # not JSON (or absurdly nested): taken as words
            value = args[entry.key]
        read, problems = rules.read_house_rule(entry, system, value)
        if read is not None and not problems:
            values[entry.key] = read
    if not values:
        return system
    return rules.with_house_rules(system, rules.HouseRules(**values))


@bp.app_template_global()
def start_house_rule(reading: Reading) -> str:
    """The link that opens a new house rule reading it the other way, at that key's field."""
    system = rules.SYSTEMS[reading.system]
    entry = rules.HOUSE_RULES_BY_KEY[reading.key]
    part = next(iter(reading.other)) if entry.kind is Kind.POINTS_BY_PART else None
    value = reading.other if isinstance(reading.other, str) else json.dumps(reading.other)
    query: dict[str, Any] = {"system": system.id, entry.key: value}
    return url_for("house_rules.new", _anchor=field_name(entry, part), **query)


def _edit(profile: HouseRule | None, system: rules.RuleSystem) -> str | Response | tuple[str, int]:
    """Show the form for a new or edited profile, or keep it and go back to the list; a new one
    opens with the values its link asks for."""
    shown = asked_for(system, request.args) if profile is None else derived_system(profile)
    form = house_rule_form(system, len(shown.opening_minimums) + EMPTY_ROWS)
    sent = read_form(form, system) if form.is_submitted() else None
    if sent is None:
        name = profile.name if profile else (shown.house_rules and shown.house_rules.name)
        _prefill(form, shown, name or "", shown.options_on)
    elif sent.valid:
        rule_id = None if profile is None else profile.id
        rule_id = save_house_rule(rule_id, sent.name, system.id, sent.options, sent.changes)
        return redirect(url_for("house_rules.index", _anchor=f"house-rule-{rule_id}"))
    return render_template(
        "house_rules/form.html",
        form=form,
        system=system,
        profile=profile,
        asked=asked(form, system, [] if sent is None else sent.row_errors),
        problems=[] if sent is None else sent.problems,
    ), (200 if sent is None else 422)


@bp.get("/house-rules")
def index() -> str:
    profiles = db.session.scalars(select(HouseRule).order_by(HouseRule.name)).all()
    listed = []
    for profile in profiles:
        system = derived_system(profile)
        listed.append(
            (
                profile,
                rules.SYSTEMS[profile.system_id],
                differences(system),
                [say(rules.OPTIONS[o].label) for o in sorted(system.options_on)],
            )
        )
    return render_template("house_rules/index.html", profiles=listed)


@bp.route("/house-rules/new", methods=["GET", "POST"])
@form_view
def new() -> str | Response | tuple[str, int]:
    """First the system the house rule starts from, then its numbers."""
    system_id = request.args.get("system")
    if system_id is None or system_id not in rules.SYSTEMS:
        return render_template("house_rules/system.html", systems=rules.SYSTEMS.values())
    return _edit(None, rules.SYSTEMS[system_id])


@bp.route("/house-rules/<id:rule_id>/edit", methods=["GET", "POST"])
@form_view
def edit(rule_id: int) -> str | Response | tuple[str, int]:
    profile = db.get_or_404(HouseRule, rule_id)
    return _edit(profile, rules.SYSTEMS[profile.system_id])


@bp.post("/house-rules/<id:rule_id>/delete")
def delete(rule_id: int) -> Response:
    delete_house_rule(rule_id)
    return redirect(url_for("house_rules.index"))


@bp.get("/house-rules/<id:rule_id>")
def rules_page(rule_id: int) -> str:
    """The rules page of a house rule: its system's page with the table's own numbers."""
    profile = db.get_or_404(HouseRule, rule_id)
    return render_rules(derived_system(profile))


def profiles() -> list[HouseRule]:
    """The saved profiles, by name, as the new-game flow offers them."""
    return list(db.session.scalars(select(HouseRule).order_by(HouseRule.name)).all())


def profile_or_404(value: str | None) -> HouseRule:
    """The profile a `?house=` argument names."""
    rule_id = whole_number(value)
    if rule_id is None:
        abort(404)
    return db.get_or_404(HouseRule, rule_id)

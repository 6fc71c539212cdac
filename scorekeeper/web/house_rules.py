"""House rules: a table's own numbers, named and kept for new games.

A profile stores only what differs from its system, so it says exactly what it changes. Games
copy the profile when they start (`Game.house_rules`), so editing or deleting a profile never
changes a game already played under it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from sqlalchemy import select
from werkzeug.wrappers import Response
from wtforms import BooleanField, FieldList, FormField, IntegerField, StringField
from wtforms.validators import DataRequired, Length, Optional

from .. import rules
from .converters import whole_number
from .database import writing
from .i18n import say
from .models import NAME_LENGTH, HouseRule, db
from .rulebook import differences, render_rules
from .services import NotFound

bp = Blueprint("house_rules", __name__)

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


def changes_from(
    system_id: str,
    options: Sequence[str],
    target: int | None,
    set_bonuses: dict[str, int | None],
    going_out_bonus: int | None,
    sets_to_go_out: int | None,
    opening_minimums: Pairs | None,
) -> dict[str, Any]:
    """The house-rule keys whose values differ from the system's (None means the system's).

    A number equal to the system's, with or without the chosen options, is not a change: the
    form shows the system's own numbers, and an option's numbers apply unless changed.
    """
    plain = rules.get_system(system_id)
    chosen = rules.get_system(system_id, options)

    def differs(value: int | None, read: Any) -> bool:
        return value is not None and value != read(plain) and value != read(chosen)

    found: dict[str, Any] = {}
    if differs(target, lambda s: s.target):
        found["target"] = target
    bonuses = {
        kind: bonus
        for kind, bonus in set_bonuses.items()
        if differs(bonus, lambda s, k=kind: s.set_bonuses.get(rules.SetKind(k)))
    }
    if bonuses:
        found["set_bonuses"] = bonuses
    if differs(going_out_bonus, lambda s: s.going_out_bonus):
        found["going_out_bonus"] = going_out_bonus
    if differs(sets_to_go_out, lambda s: s.sets_to_go_out):
        found["sets_to_go_out"] = sets_to_go_out
    if opening_minimums and not _same_minimums(opening_minimums, plain.opening_minimums):
        found["opening_minimums"] = _whole_pairs(opening_minimums)
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


class HouseRuleFields(FlaskForm):
    """The fields read by name; `house_rule_form` makes them, the last three only for systems
    played to a target."""

    name: StringField
    going_out_bonus: IntegerField
    target: IntegerField
    sets_to_go_out: IntegerField
    first_meld: FieldList[FormField[MinimumRow]]


def house_rule_form(system: rules.RuleSystem, rows: int) -> HouseRuleFields:
    """The form for one system's house rule: the fields of the numbers it has."""

    number = {"inputmode": "numeric"}

    class HouseRuleForm(HouseRuleFields):
        name = StringField(_l("Name"), validators=[DataRequired(), Length(max=NAME_LENGTH)])
        going_out_bonus = IntegerField(
            _l("Bonus for going out"), validators=[Optional()], render_kw=number
        )

    for option_id in system.options:
        setattr(
            HouseRuleForm,
            f"option_{option_id}",
            BooleanField(_l(rules.OPTIONS[option_id].label)),
        )
    for kind in system.set_bonuses:
        setattr(
            HouseRuleForm,
            f"bonus_{kind.value}",
            IntegerField(say(kind.label).capitalize(), validators=[Optional()], render_kw=number),
        )
    if system.hands_in_game is None:
        HouseRuleForm.target = IntegerField(
            _l("Points that end the game"), validators=[Optional()], render_kw=number
        )
        HouseRuleForm.sets_to_go_out = IntegerField(
            _l("Sets needed to go out"), validators=[Optional()], render_kw=number
        )
        HouseRuleForm.first_meld = FieldList(
            FormField(MinimumRow), min_entries=rows, max_entries=rows
        )
    return HouseRuleForm()


def _prefill(
    form: HouseRuleFields, system: rules.RuleSystem, name: str, options: Collection[str]
) -> None:
    form.name.data = name
    for option_id in system.options:
        form[f"option_{option_id}"].data = option_id in options
    for kind, bonus in system.set_bonuses.items():
        form[f"bonus_{kind.value}"].data = bonus
    form.going_out_bonus.data = system.going_out_bonus
    if system.hands_in_game is None:
        form.target.data = system.target
        form.sets_to_go_out.data = system.sets_to_go_out
        pairs: list[tuple[int | None, int | None]] = [*system.opening_minimums]
        pairs += [(None, None)] * EMPTY_ROWS
        for row, (lowest, minimum) in zip(form.first_meld, pairs, strict=True):
            row.form.lowest.data = lowest
            row.form.minimum.data = minimum


def _read_rows(form: HouseRuleFields) -> tuple[Pairs | None, list[str]]:
    """The first-meld table as entered, empty rows left out, and what is wrong with it."""
    pairs: list[tuple[int | None, int]] = []
    problems = []
    for index, row in enumerate(form.first_meld, start=1):
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
    if not pairs and not problems:
        problems.append(_("The first-meld table needs at least one row."))
    return (tuple(pairs) if pairs else None), problems


def _place(form: HouseRuleFields, where: str) -> str | None:
    """The form field that a game file's place (`house_rules.set_bonuses.samba`) belongs to."""
    key = where.removeprefix("house_rules.")
    if key.startswith("opening_minimums"):
        return "first_meld" if "first_meld" in form else None
    if key.startswith("set_bonuses."):
        key = "bonus_" + key.removeprefix("set_bonuses.")
    return key if key in form and key != "first_meld" else None


def _edit(profile: HouseRule | None, system: rules.RuleSystem) -> str | Response | tuple[str, int]:
    """Show the form for a new or edited profile, or keep it and go back to the list."""
    shown = system if profile is None else derived_system(profile)
    form = house_rule_form(system, len(shown.opening_minimums) + EMPTY_ROWS)
    if not form.is_submitted():
        _prefill(form, shown, "" if profile is None else profile.name, shown.options_on)
    table_errors: list[str] = []
    problems: list[str] = []
    if form.is_submitted():
        valid = form.validate()
        options = [o for o in system.options if form[f"option_{o}"].data]
        has_table = system.hands_in_game is None
        pairs, table_errors = _read_rows(form) if has_table else (None, [])
        name = (form.name.data or "").strip()
        changes = changes_from(
            system.id,
            options,
            form.target.data if has_table else None,
            {k.value: form[f"bonus_{k.value}"].data for k in system.set_bonuses},
            form.going_out_bonus.data,
            form.sets_to_go_out.data if has_table else None,
            pairs,
        )
        # Each number on its own, so that every wrong one is named at once; then all together.
        parts = [{key: value} for key, value in changes.items() if key != "set_bonuses"]
        parts += [{"set_bonuses": {k: v}} for k, v in changes.get("set_bonuses", {}).items()]
        found = False
        for part in [*parts, {**changes, "name": name}]:
            try:
                rules.read_system(system.id, dict.fromkeys(options, True), part)
            except rules.GameFileError as error:
                found = True
                problem = str(error).removeprefix(f"{error.where}: ")
                place = _place(form, error.where)
                if place == "first_meld":
                    table_errors.append(problem)
                elif place is not None:
                    form[place].errors = [*form[place].errors, problem]
                else:
                    problems.append(problem)
                if len(part) > 1:
                    break
        if valid and not found and not table_errors:
            rule_id = save_house_rule(
                None if profile is None else profile.id, name, system.id, options, changes
            )
            return redirect(url_for("house_rules.index", _anchor=f"house-rule-{rule_id}"))
    return render_template(
        "house_rules/form.html",
        form=form,
        system=system,
        profile=profile,
        table_errors=table_errors,
        problems=problems,
    ), (422 if form.is_submitted() else 200)


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
def new() -> str | Response | tuple[str, int]:
    """First the system the house rule starts from, then its numbers."""
    system_id = request.args.get("system")
    if system_id is None or system_id not in rules.SYSTEMS:
        return render_template("house_rules/system.html", systems=rules.SYSTEMS.values())
    return _edit(None, rules.SYSTEMS[system_id])


@bp.route("/house-rules/<id:rule_id>/edit", methods=["GET", "POST"])
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

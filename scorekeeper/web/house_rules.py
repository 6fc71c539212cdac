"""House rules: a table's own numbers, named and kept for new games.

A profile stores only what differs from its system, so it says exactly what it changes. Games
copy the profile when they start (`Game.house_rules`), so editing or deleting a profile never
changes a game already played under it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, abort, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from .. import rules
from ..rules.readings import Reading
from .access import Access, needs
from .converters import whole_number
from .csrf import form_view
from .forms.house_rule import (
    EMPTY_ROWS,
    Kind,
    asked,
    field_name,
    house_rule_form,
    house_rule_keys,
    prefill,
    read_form,
    rows_sent,
)
from .i18n import say
from .models import HouseRule, db
from .rulebook import differences, render_rules
from .services.house_rules import delete_house_rule, save_house_rule

bp = Blueprint("house_rules", __name__)


def derived_system(profile: HouseRule) -> rules.RuleSystem:
    """The system a profile describes: its base system, options and numbers."""
    return rules.read_system(
        profile.system_id, dict.fromkeys(profile.options, True), snapshot(profile)
    )


def snapshot(profile: HouseRule) -> dict[str, Any]:
    """The profile as a game file's `house_rules`, which a new game keeps as its own copy."""
    return {"name": profile.name, **profile.rules}


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
    rows = len(shown.opening_minimums) + EMPTY_ROWS
    form = house_rule_form(system, max(rows, rows_sent(request.form)))
    sent = read_form(form, system) if form.is_submitted() else None
    if sent is None:
        name = profile.name if profile else (shown.house_rules and shown.house_rules.name)
        prefill(form, shown, name or "", shown.options_on)
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
@needs(Access.TABLE)
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
@needs(Access.TABLE)
def new() -> str | Response | tuple[str, int]:
    """First the system the house rule starts from, then its numbers."""
    system_id = request.args.get("system")
    if system_id is None or system_id not in rules.SYSTEMS:
        return render_template("house_rules/system.html", systems=rules.SYSTEMS.values())
    return _edit(None, rules.SYSTEMS[system_id])


@bp.route("/house-rules/<id:rule_id>/edit", methods=["GET", "POST"])
@form_view
@needs(Access.TABLE)
def edit(rule_id: int) -> str | Response | tuple[str, int]:
    profile = db.get_or_404(HouseRule, rule_id)
    return _edit(profile, rules.SYSTEMS[profile.system_id])


@bp.post("/house-rules/<id:rule_id>/delete")
@needs(Access.TABLE)
def delete(rule_id: int) -> Response:
    delete_house_rule(rule_id)
    return redirect(url_for("house_rules.index"))


@bp.get("/house-rules/<id:rule_id>")
@needs(Access.TABLE)
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

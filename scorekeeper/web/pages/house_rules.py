"""House rules: a table's own numbers, named and kept for new games.

A house rule stores only what differs from its system, so it says exactly what it changes. Games
copy the house rule when they start (`Game.house_rules`), so editing or deleting a house rule never
changes a game already played under it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from flask import Blueprint, redirect, render_template, request, url_for
from sqlalchemy import select
from werkzeug.wrappers import Response

from ... import rules
from ..extensions import db
from ..forms.house_rule import (
    EMPTY_ROWS,
    asked,
    house_rule_form,
    house_rule_keys,
    prefill,
    read_form,
    rows_sent,
)
from ..http.access import Access, needs
from ..http.csrf import form_view
from ..presenters.rulebook import differences, render_rules
from ..services.house_rules import delete_house_rule, house_rule_system, save_house_rule
from ..store.models import HouseRule
from ..wording import say

bp = Blueprint("house_rules", __name__)


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


def _edit(
    house_rule: HouseRule | None, system: rules.RuleSystem
) -> str | Response | tuple[str, int]:
    """Show the form for a new or edited house rule, or keep it and go back to the list; a new one
    opens with the values its link asks for."""
    shown = asked_for(system, request.args) if house_rule is None else house_rule_system(house_rule)
    rows = len(shown.opening_minimums) + EMPTY_ROWS
    form = house_rule_form(system, max(rows, rows_sent(request.form)))
    sent = read_form(form, system) if form.is_submitted() else None
    if sent is None:
        name = house_rule.name if house_rule else (shown.house_rules and shown.house_rules.name)
        prefill(form, shown, name or "", shown.options_on)
    elif sent.valid:
        rule_id = None if house_rule is None else house_rule.id
        rule_id = save_house_rule(rule_id, sent.name, system.id, sent.options, sent.changes)
        return redirect(url_for("house_rules.index", _anchor=f"house-rule-{rule_id}"))
    return render_template(
        "house_rules/form.html",
        form=form,
        system=system,
        house_rule=house_rule,
        asked=asked(form, system, [] if sent is None else sent.row_errors),
        problems=[] if sent is None else sent.problems,
    ), (200 if sent is None else 422)


@bp.get("/house-rules")
@needs(Access.PIN)
def index() -> str:
    house_rules = db.session.scalars(select(HouseRule).order_by(HouseRule.name)).all()
    listed = []
    for house_rule in house_rules:
        system = house_rule_system(house_rule)
        listed.append(
            (
                house_rule,
                rules.SYSTEMS[house_rule.system_id],
                differences(system),
                [say(rules.OPTIONS[o].label) for o in sorted(system.options_on)],
            )
        )
    return render_template("house_rules/index.html", house_rules=listed)


@bp.route("/house-rules/new", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def new() -> str | Response | tuple[str, int]:
    """First the system the house rule starts from, then its numbers."""
    system_id = request.args.get("system")
    if system_id is None or system_id not in rules.SYSTEMS:
        return render_template("house_rules/system.html", systems=rules.SYSTEMS.values())
    return _edit(None, rules.SYSTEMS[system_id])


@bp.route("/house-rules/<id:rule_id>/edit", methods=["GET", "POST"])
@form_view
@needs(Access.PIN)
def edit(rule_id: int) -> str | Response | tuple[str, int]:
    house_rule = db.get_or_404(HouseRule, rule_id)
    return _edit(house_rule, rules.SYSTEMS[house_rule.system_id])


@bp.post("/house-rules/<id:rule_id>/delete")
@needs(Access.PIN)
def delete(rule_id: int) -> Response:
    delete_house_rule(rule_id)
    return redirect(url_for("house_rules.index"))


@bp.get("/house-rules/<id:rule_id>")
@needs(Access.PIN)
def rules_page(rule_id: int) -> str:
    """The rules page of a house rule: its system's page with the table's own numbers."""
    house_rule = db.get_or_404(HouseRule, rule_id)
    return render_rules(house_rule_system(house_rule))

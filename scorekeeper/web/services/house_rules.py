"""House rules: keep a table's own numbers for new games, or forget them; and the system a
house rule describes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import rules
from ..extensions import db
from ..store.database import writing
from ..store.models import HouseRule
from .errors import NotFound


def house_rule_system(house_rule: HouseRule) -> rules.RuleSystem:
    """The system a house rule describes: its base system, options and numbers."""
    return rules.read_system(
        house_rule.system_id, dict.fromkeys(house_rule.options, True), as_game_rules(house_rule)
    )


def as_game_rules(house_rule: HouseRule) -> dict[str, Any]:
    """A house rule as a game file's `house_rules`, which a new game keeps as its own copy."""
    return {"name": house_rule.name, **house_rule.rules}


def save_house_rule(
    rule_id: int | None, name: str, system_id: str, options: Sequence[str], changes: dict[str, Any]
) -> int:
    """Keep a new or edited house_rule and return its id (games keep their own copies)."""
    with writing():
        house_rule = HouseRule() if rule_id is None else _stored(rule_id)
        house_rule.name = name
        house_rule.system_id = system_id
        house_rule.options = sorted(options)
        house_rule.rules = changes
        db.session.add(house_rule)
        db.session.flush()
        saved = house_rule.id  # read now: after the commit it would begin another transaction
    return saved


def delete_house_rule(rule_id: int) -> None:
    """Forget a house_rule; games started from it keep their rules."""
    with writing():
        db.session.delete(_stored(rule_id))


def _stored(rule_id: int) -> HouseRule:
    house_rule = db.session.get(HouseRule, rule_id)
    if house_rule is None:
        raise NotFound(f"no house rule {rule_id}")
    return house_rule

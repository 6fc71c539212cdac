"""House rules: keep a table's own numbers as a profile for new games, or forget one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..database import writing
from ..models import HouseRule, db
from .errors import NotFound


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

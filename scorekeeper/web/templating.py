"""Every template global and filter, registered in one place (`install`): what templates may call
besides the values their view gives them."""

from __future__ import annotations

import json
from typing import Any

from flask import Flask, url_for
from flask_babel import get_locale

from .. import rules
from ..rules.readings import Reading
from .forms.house_rule import field_name
from .http import door, stream
from .http.access import may_record_hands, played_on, signed_in
from .http.i18n import LANGUAGES
from .presenters.rulebook import card_values
from .wording import cite, decimal, number, say, signed


def rules_url() -> str:
    """Where the header's "Rules" leads: inside a game, that game's rules (the comparison is
    one tap further); anywhere else, the comparison."""
    if door.in_game():
        return url_for("rules.game_rules", game_id=door.game_id())
    return url_for("rules.index")


def start_house_rule(reading: Reading) -> str:
    """The link that opens a new house rule reading it the other way, at that key's field."""
    system = rules.SYSTEMS[reading.system]
    entry = rules.HOUSE_RULES_BY_KEY[reading.key]
    part = next(iter(reading.other)) if entry.kind is rules.HouseRuleKind.POINTS_BY_PART else None
    value = reading.other if isinstance(reading.other, str) else json.dumps(reading.other)
    query: dict[str, Any] = {"system": system.id, entry.key: value}
    return url_for("house_rules.new", _anchor=field_name(entry, part), **query)


def heartbeat() -> float:
    """Seconds between a stream's heartbeats (read when asked: a test shortens them), after
    which a following page takes a silent stream for a dead connection."""
    return stream.HEARTBEAT


def install(app: Flask) -> None:
    """Give every template the app's filters and globals."""
    app.jinja_env.filters.update(number=number, decimal=decimal, signed=signed, say=say, cite=cite)
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES,
        get_locale=get_locale,
        may_record_hands=may_record_hands,  # a phone that may only follow sees no controls
        signed_in=signed_in,  # the header's one-tap "Sign out"
        played_on=played_on,  # where a following page's phone goes once the table played again
        rules_url=rules_url,
        card_values=card_values,  # the hand form's card counter and its script read it
        start_house_rule=start_house_rule,
        heartbeat=heartbeat,
    )

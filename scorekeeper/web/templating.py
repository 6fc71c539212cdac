"""Every template global and filter, registered in one place (`install`): what templates may call
besides the values their view gives them."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from flask import Flask, get_flashed_messages, request, url_for
from flask_wtf.csrf import generate_csrf

from .. import rules
from ..rules.readings import Reading
from .forms.house_rule import field_name
from .http import compress, door, stream
from .http.access import may_record_hands, played_on, signed_in
from .http.i18n import LANGUAGES
from .presenters import parts
from .presenters.rulebook import card_values
from .presenters.seasons import night_figures
from .wording import (
    cite,
    decimal,
    decimals,
    language,
    locale,
    number,
    page_title,
    say,
    signed,
    translated,
)


def rules_url() -> str:
    """Where the header's "Rules" leads: inside a game, that game's rules (the comparison is
    one tap further); anywhere else, the comparison."""
    if door.in_game():
        return url_for("rules.game_rules", game_id=door.game_id())
    return url_for("rules.index")


def csrf_token() -> str:
    """The visitor's CSRF token; in a page drawn for every visitor (`parts.kept_page`), the hole
    where each visitor's goes."""
    if parts.drawing():
        return parts.hole(compress.CSRF)
    return generate_csrf()


def page_address() -> str:
    """The address of this page, query and all; in a page drawn for every visitor, the hole
    where each answer's goes (a page kept whole is kept whatever its query)."""
    if parts.drawing():
        return parts.hole(compress.ADDRESS)
    return compress.page_address()


def revision() -> str:
    """The revision of the game the page shows; in a page drawn for every visitor, the hole
    where the revision answered goes (a page kept across revisions shows the one asked for)."""
    if parts.drawing():
        return parts.hole(compress.REVISION)
    return door.revision()


def start_house_rule(reading: Reading) -> str:
    """The link that opens a new house rule reading it the other way, at that key's field."""
    system = rules.SYSTEMS[reading.system]
    entry = rules.HOUSE_RULES_BY_KEY[reading.key]
    part = next(iter(reading.other)) if entry.kind is rules.HouseRuleKind.POINTS_BY_PART else None
    value = reading.other if isinstance(reading.other, str) else json.dumps(reading.other)
    query: dict[str, Any] = {"system": system.id, entry.key: value}
    return url_for("house_rules.new", _anchor=field_name(entry, part), **query)


def notices(
    with_categories: bool = False, category_filter: Iterable[str] = ()
) -> list[str] | list[tuple[str, str]]:
    """The notices waiting for this phone's next page (Flask's flashed messages, shown once),
    taken by a page the phone opens (`Sec-Fetch-Mode: navigate`, or a browser that does not
    say); a page's own script asking for its page again (following a night: `cors`) takes none,
    for it swaps in only the parts that follow the night. A round started on the director's
    page is heard by that page's stream while the phone goes to the page that says so: the
    script's ask leaves the notice to that page. (Not `Sec-Fetch-Dest`: a page opened through
    the service worker, sw.js, comes with `empty` as a script's ask does.) Asked as Flask's
    `get_flashed_messages`, whose place it takes in the templates."""
    if request.headers.get("Sec-Fetch-Mode", "navigate") != "navigate":
        return []
    return get_flashed_messages(with_categories, category_filter)


def heartbeat() -> float:
    """Seconds between a stream's heartbeats (read when asked: a test shortens them), after
    which a following page takes a silent stream for a dead connection."""
    return stream.HEARTBEAT


def install(app: Flask) -> None:
    """Give every template the app's filters and globals."""
    # In place of Flask-WTF's `csrf_token`, which knows nothing of kept pages; a context
    # processor, as Flask-WTF gives its own (one registered later wins).
    app.context_processor(lambda: {"csrf_token": csrf_token})
    app.jinja_env.filters.update(number=number, decimal=decimal, signed=signed, say=say, cite=cite)
    # In place of Flask-Babel's, which look the language up at each sentence: in a drawing,
    # the language looked up once for it (wording.one_language).
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=translated,
        ngettext=lambda s, p, n: language().translations.ungettext(s, p, n),
        pgettext=lambda c, s: language().translations.upgettext(c, s),
        npgettext=lambda c, s, p, n: language().translations.unpgettext(c, s, p, n),
        newstyle=True,
    )
    app.jinja_env.globals.update(
        LANGUAGES=LANGUAGES,
        get_locale=locale,
        may_record_hands=may_record_hands,  # a phone that may only follow sees no controls
        signed_in=signed_in,  # the header's one-tap "Sign out"
        played_on=played_on,  # where a following page's phone goes once the table played again
        rules_url=rules_url,
        card_values=card_values,  # the hand form's card counter and its script read it
        start_house_rule=start_house_rule,
        heartbeat=heartbeat,
        get_flashed_messages=notices,  # a page's script following it leaves them to the page
        page_address=page_address,  # where the language switch brings the phone back
        revision=revision,  # the game's revision a following page shows
        page_title=page_title,  # a following page's, told again by its stream
        decimals=decimals,  # a page of thousands of figures writes each value once
        night_figures=night_figures,  # a season's row of nights as its text writes them
    )

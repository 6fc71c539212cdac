"""An empty stock, as the pages and the hand form say it (issue 27): in classic, denexa,
black-samba and fournier play goes on after the stock ran out, and a side that then goes out has
gone out and earns the bonus; only in super-samba does the stock stop a hand (rules/play.py,
going out)."""

from __future__ import annotations

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules

from .helpers import GOES_OUT, STAYS_IN, Actions, section

PLAY_GOES_ON = ["classic", "denexa", "black-samba", "fournier"]

NOBODY_OUT = {
    "en": "Nobody went out (play stopped after the stock ran out)",
    "es": "Nadie cerró (el juego se paró después de acabarse el mazo)",
}
NOBODY_OUT_WITHOUT_BOOK = {
    "en": "Nobody went out (the stock ran out before any side had its book)",
    "es": "Nadie cerró (se acabó el mazo antes de que un equipo tuviera su libro)",
}
TABLES = {"classic": "2x2", "denexa": "2x2", "black-samba": "2x2", "fournier": "2x2"}


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("system_id", [*PLAY_GOES_ON, "super-samba"])
def test_the_hand_form_says_nobody_went_out_in_the_systems_words(
    client: FlaskClient, actions: Actions, system_id: str, language: str
) -> None:
    game_id = actions.new_game(system_id, "2x2")
    form = client.get(f"/games/{game_id}/hands/new", headers={"Accept-Language": language}).text
    wanted = NOBODY_OUT_WITHOUT_BOOK if system_id == "super-samba" else NOBODY_OUT
    unwanted = NOBODY_OUT if system_id == "super-samba" else NOBODY_OUT_WITHOUT_BOOK
    assert wanted[language] in form
    assert unwanted[language] not in form
    assert "The stock ran out" not in form and "Se acabó el mazo" not in form


@pytest.mark.parametrize("system_id", PLAY_GOES_ON)
def test_every_page_where_play_goes_on_says_a_side_may_still_go_out(
    client: FlaskClient, system_id: str
) -> None:
    going_out = section(client.get(f"/rules/{system_id}").text, "going-out")
    assert "nobody goes out and nobody earns it" not in going_out
    assert "a side that goes out after it ran out has gone out" in going_out
    bonus = f"{rules.SYSTEMS[system_id].going_out_bonus:,}"
    stock = going_out.split("What happens when the stock runs out?")[1]
    assert f"earn{'s' if system_id == 'classic' else 'ing'} the {bonus}" in stock


def test_super_samba_says_its_hand_stops_at_once_on_an_empty_stock(client: FlaskClient) -> None:
    going_out = section(client.get("/rules/super-samba").text, "going-out")
    # Line 77: only what an empty stock does while no team has its book; the rest our reading.
    assert "While no team has its book, the hand stops at once with nobody out." in going_out
    assert "Our reading: if a team has it, play goes on until someone goes out." in going_out


@pytest.mark.parametrize("system_id", PLAY_GOES_ON)
def test_a_side_that_went_out_after_the_stock_ran_out_is_recorded_out_and_earns_the_bonus(
    actions: Actions, system_id: str
) -> None:
    went_out, stopped = actions.new_game(system_id), actions.new_game(system_id)
    actions.record_hand(went_out, [GOES_OUT, STAYS_IN], ending="out-0")
    actions.record_hand(stopped, [GOES_OUT, STAYS_IN], ending="stock")
    out = actions.result(went_out)["hands"][0]["sides"][0]["hand_score"]
    nobody_out = actions.result(stopped)["hands"][0]["sides"][0]["hand_score"]
    assert out - nobody_out == rules.SYSTEMS[system_id].going_out_bonus

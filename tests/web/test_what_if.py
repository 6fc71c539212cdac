"""What if we read it the other way? A game's totals and winner under each other reading of its
system, beside the real ones, without changing the game (scorekeeper/web/presenters/what_if.py)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.rules.readings import READINGS, Reading
from scorekeeper.web.presenters.what_if import flipped

from .helpers import GOES_OUT, STAYS_IN, Actions


def rows_of(page: str, anchor: str) -> list[list[str]]:
    """The rows of a reading's table: the side (or "Winner"), as played, read the other way."""
    section = page[page.index(f'id="{anchor}"') :]
    section = section[: section.index("</section>")]
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', section, re.S)
    return [[name, *re.findall(r"<td>(?:<b>)?([^<]*)", cells)] for name, cells in rows]


def reading(system: str, key: str) -> Reading:
    return next(r for r in READINGS if r.system == system and r.key == key)


def test_the_scoreboard_links_each_other_reading_of_its_system(actions: Actions) -> None:
    game_id = actions.new_game("denexa")
    page = html.unescape(actions.scoreboard(game_id))
    assert f'href="/games/{game_id}/what-if#reading-1"' in page
    assert "A samba earns 1,500, as in the other texts." in page


def test_each_systems_scoreboard_links_its_own_readings(actions: Actions) -> None:
    """The links are worked out once for every game of the same rules, never another's: a
    classic game's scoreboard drawn after a Denexa one's (in one process) links classic's."""
    denexa = html.unescape(actions.scoreboard(actions.new_game("denexa")))
    classic = html.unescape(actions.scoreboard(actions.new_game("classic")))
    assert "A samba earns 1,500, as in the other texts." in denexa
    assert "A samba earns 1,500" not in classic


def test_the_links_are_in_the_pages_language(client: FlaskClient, actions: Actions) -> None:
    """Worked out once per rules and language: a Spanish scoreboard drawn after an English one
    links each reading in Spanish."""
    english = html.unescape(actions.scoreboard(actions.new_game("denexa")))
    game_id = actions.new_game("denexa")
    spanish = html.unescape(client.get(f"/games/{game_id}", headers={"Accept-Language": "es"}).text)
    assert "A samba earns 1,500, as in the other texts." in english
    assert f'href="/games/{game_id}/what-if#reading-1"' in spanish
    assert "A samba earns 1,500" not in spanish


def test_a_denexa_game_read_the_other_way_gives_its_samba_1500(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("denexa")
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    page = html.unescape(client.get(f"/games/{game_id}/what-if").text)
    # Us: 260 melded, a natural canasta 500, a samba, 200 for going out; Them: 150 - 30 + 300.
    assert rows_of(page, "reading-1") == [
        ["Us", "1,460", "2,460"],
        ["Them", "420", "420"],
        ["Winner", "none yet", "none yet"],
    ]


def test_a_game_played_to_its_end_shows_the_winner_either_way(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("denexa", start_scores=(9000, 8500))
    actions.record_hand(game_id, [STAYS_IN, GOES_OUT], ending="out-1")
    page = html.unescape(client.get(f"/games/{game_id}/what-if").text)
    # Them reach 9,960 as played and 10,960 with a samba at 1,500: the other reading ends it.
    assert rows_of(page, "reading-1")[-1] == ["Winner", "none yet", "Them"]


def test_seeing_what_if_changes_nothing_of_the_game(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game("denexa")
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])

    def revision() -> str:
        """The game's revision, the first part of its pages' ETag: every write makes a new one."""
        return str(client.get(f"/games/{game_id}").headers["ETag"]).split(".")[0]

    before = actions.result(game_id), revision()
    assert client.get(f"/games/{game_id}/what-if").status_code == 200
    assert (actions.result(game_id), revision()) == before


def test_the_what_if_page_is_a_game_page_with_an_etag(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game("classic")
    first = client.get(f"/games/{game_id}/what-if")
    again = client.get(
        f"/games/{game_id}/what-if", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304


def test_a_hand_the_other_reading_refuses_is_said_plainly(client: FlaskClient) -> None:
    even = {"sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 460}
    went_out = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
    game = {
        "variant": "classic",
        "sides": [
            {"name": "Us", "players": 2, "start_score": 8000},
            {"name": "Them", "players": 2, "start_score": 8000},
        ],
        # Both reach 10,460: as we read it play goes on and Us wins hand 2; read as a shared
        # game at the target, the game ended with hand 1 and hand 2 comes after its end.
        "hands": [
            {"ended_by": "going_out", "entries": [went_out, even]},
            {"ended_by": "going_out", "entries": [went_out, {"hand_points": 30}]},
        ],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    page = html.unescape(client.get(location + "/what-if").text)
    tie = page[page.index('id="reading-2"') :]
    assert "Read this way, hand 2 would have been refused:" in tie[: tie.index("</section>")]
    assert rows_of(page, "reading-2")[-1] == ["Winner", "Us", "a tie"]


def test_a_game_that_is_not_there_has_no_what_if(client: FlaskClient) -> None:
    assert client.get("/games/nothing-here/what-if").status_code == 404


@pytest.mark.parametrize(
    ("house_rules", "the_reading", "otherwise", "expected"),
    [
        (None, reading("denexa", "set_bonuses"), False, {"set_bonuses": {"samba": 1500}}),
        (
            {"set_bonuses": {"samba": 1500, "mixed_canasta": 400}},
            reading("denexa", "set_bonuses"),
            True,
            {"set_bonuses": {"mixed_canasta": 400}},
        ),
        ({"set_bonuses": {"samba": 1500}}, reading("denexa", "set_bonuses"), True, {}),
        (
            {"going_out_bonus": 300},
            reading("fournier", "melded_points_for"),
            False,
            {"going_out_bonus": 300, "melded_points_for": "side_that_went_out"},
        ),
        ({"tie_at_target": "shared"}, reading("classic", "tie_at_target"), True, {}),
    ],
)
def test_the_other_reading_flips_one_key_of_the_house_rules(
    house_rules: dict[str, Any] | None, the_reading: Reading, otherwise: bool, expected: Any
) -> None:
    assert flipped(house_rules, the_reading, otherwise) == expected

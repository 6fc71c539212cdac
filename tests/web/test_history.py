"""The list of all games: newest first, filtered by player, system and status, twenty a page."""

from __future__ import annotations

import re

import pytest
from flask.testing import FlaskClient

from .helpers import BIG_HAND, game_file, games_page, import_game, listed


def test_the_home_page_links_to_all_games(client: FlaskClient) -> None:
    assert 'href="/games"' in client.get("/").text


def test_games_are_listed_newest_first(client: FlaskClient) -> None:
    first = import_game(client, game_file())
    second = import_game(client, game_file())
    third = import_game(client, game_file())
    assert listed(games_page(client)) == [third, second, first]


def test_a_game_shows_its_system_sides_totals_and_status(client: FlaskClient) -> None:
    import_game(client, game_file(names=("Los Primos", "Them")))
    import_game(client, game_file(hands=(BIG_HAND, BIG_HAND)))
    page = games_page(client)
    assert "Samba (classic, 2–6 players)" in page
    assert "Los Primos <b>2,710</b> · Them <b>265</b>" in page
    assert "Us <b>11,200</b> · Them <b>−100</b>" in page
    assert "in progress" in page
    assert "finished: Us won" in page


def test_the_player_filter_recognises_a_player_despite_case_and_spacing(
    client: FlaskClient,
) -> None:
    with_ana = import_game(client, game_file(players=(("Ana", "Bo"), ("Cy", "Di"))))
    with_spaced_ana = import_game(client, game_file(players=(("Cy", "Di"), (" ana ", "Bo"))))
    import_game(client, game_file(players=(("Anabel", "Bo"), ("Cy", "Di"))))
    assert listed(games_page(client, "?player=ANA")) == [with_spaced_ana, with_ana]
    assert listed(games_page(client, "?player=++aNa++")) == [with_spaced_ana, with_ana]


def test_the_player_filter_also_finds_a_side_by_its_name(client: FlaskClient) -> None:
    cousins = import_game(client, game_file(names=("Los Primos", "Them")))
    import_game(client, game_file())
    assert listed(games_page(client, "?player=los+primos")) == [cousins]


def test_the_system_filter_lists_only_that_system(client: FlaskClient) -> None:
    classic = import_game(client, game_file())
    denexa = import_game(client, game_file(system="denexa"))
    assert listed(games_page(client, "?system=denexa")) == [denexa]
    assert listed(games_page(client, "?system=classic")) == [classic]
    assert listed(games_page(client, "?system=nonsense")) == [denexa, classic]


@pytest.mark.parametrize(
    ("status", "expected"),
    [("playing", ["playing"]), ("finished", ["won"]), ("all", ["won", "playing"])],
)
def test_the_status_filter_tells_games_in_progress_from_finished_ones(
    client: FlaskClient, status: str, expected: list[str]
) -> None:
    ids = {
        "playing": import_game(client, game_file()),
        "won": import_game(client, game_file(hands=(BIG_HAND, BIG_HAND))),
    }
    assert listed(games_page(client, f"?status={status}")) == [ids[name] for name in expected]


def test_the_filter_form_keeps_what_was_chosen(client: FlaskClient) -> None:
    page = games_page(client, "?player=Ana&system=denexa&status=finished")
    assert re.search(r'<input[^>]*name="player"[^>]*value="Ana"', page)
    assert '<option value="denexa" selected>' in page
    assert '<option value="finished" selected>' in page
    assert '<label for="player">' in page


def test_games_come_twenty_a_page_with_newer_and_older_links(client: FlaskClient) -> None:
    ids = [import_game(client, game_file()) for _ in range(25)]
    first = games_page(client)
    assert listed(first) == ids[::-1][:20]
    assert 'href="/games?page=2"' in first
    assert "Newer" not in first
    second = games_page(client, "?page=2")
    assert listed(second) == ids[::-1][20:]
    assert 'href="/games?page=1"' in second
    assert "Older" not in second


def test_the_page_links_keep_the_filters(client: FlaskClient) -> None:
    for _ in range(21):
        import_game(client, game_file(system="denexa"))
    page = games_page(client, "?system=denexa&player=ana")
    assert 'href="/games?page=2&amp;player=ana&amp;system=denexa"' in page


def test_a_page_past_the_last_lists_nothing(client: FlaskClient) -> None:
    import_game(client, game_file())
    page = games_page(client, "?page=9")
    assert listed(page) == []
    assert "No games match." in page


def test_a_script_in_a_name_is_shown_as_text(client: FlaskClient) -> None:
    import_game(client, game_file(players=(("<script>alert(1)</script>", "Bo"), ("Cy", "Di"))))
    for url in ("/games", "/stats", "/players/%3Cscript%3Ealert(1)%3C%2Fscript%3E"):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "<script>alert(1)" not in page.text
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page.text

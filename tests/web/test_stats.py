"""Statistics per player and partnership, and renaming and merging players, checked against
games scored by hand with the classic rules (docs/scoring.md)."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.store.queries import PAGE_SIZE

from .helpers import (
    BIG_HAND,
    FIRST_HAND,
    SECOND_HAND,
    cards,
    game_file,
    hidden,
    import_game,
    listed,
    stats,
)


@pytest.fixture
def two_games(client: FlaskClient) -> list[str]:
    """Ana and Bo against Cy and Di, unfinished; then " ana " and Bo beat Cy and Eve 11,200 to −100.

    Ana's side scored 2710, 30, 5600, 5600 in four hands; Cy's side 265, 1450, −50, −50.
    """
    return [
        import_game(client, game_file((("Ana", "Bo"), ("Cy", "Di")), (FIRST_HAND, SECOND_HAND))),
        import_game(client, game_file(((" ana ", "Bo"), ("Cy", "Eve")), (BIG_HAND, BIG_HAND))),
    ]


def test_a_player_counts_their_games_wins_and_hands(
    client: FlaskClient, two_games: list[str]
) -> None:
    assert stats(client)["ana"] == {
        "Games": "2",
        "Finished": "1",
        "Wins": "1",
        "Win rate of finished games": "100%",
        "Hands": "4",
        "Average hand": "+3,485",  # (2710 + 30 + 5600 + 5600) / 4
        "Best hand": "+5,600",
        "Best hand: system": "Samba (classic, 2–6 players)",
        "Went out": "3",
        "Red threes": "2",
        "set: natural canasta": "3",
        "set: samba": "7",
    }


def test_a_player_who_never_won_has_a_win_rate_of_nought(
    client: FlaskClient, two_games: list[str]
) -> None:
    assert stats(client)["Cy"] == {
        "Games": "2",
        "Finished": "1",
        "Wins": "0",
        "Win rate of finished games": "0%",
        "Hands": "4",
        "Average hand": "+404",  # (265 + 1450 − 50 − 50) / 4 = 403.75
        "Best hand": "+1,450",
        "Best hand: system": "Samba (classic, 2–6 players)",
        "Went out": "1",
        "Red threes": "1",
        "set: natural canasta": "2",
        "set: mixed canasta": "1",
    }


def test_wins_and_win_rate_count_only_finished_games(client: FlaskClient) -> None:
    import_game(client, game_file(hands=(FIRST_HAND,)))
    ana = stats(client)["Ana"]
    shown = (ana["Games"], ana["Wins"], ana["Win rate of finished games"], ana["Hands"])
    assert shown == ("1", "0", "–", "1")


def test_a_player_is_shown_by_the_name_of_their_latest_game(
    client: FlaskClient, two_games: list[str]
) -> None:
    found = stats(client)
    assert "ana" in found
    assert "Ana" not in found


def test_a_partnership_counts_the_games_of_its_side(
    client: FlaskClient, two_games: list[str]
) -> None:
    found = stats(client)
    together = found["ana & Bo"]
    assert (together["Games"], together["Wins"], together["Hands"]) == ("2", "1", "4")
    assert together["Average hand"] == "+3,485"
    assert found["Cy & Di"]["Games"] == found["Cy & Eve"]["Games"] == "1"
    assert found["Cy & Eve"]["Best hand"] == "−50"


def test_the_page_is_folded_by_section_with_the_players_open(
    client: FlaskClient, two_games: list[str]
) -> None:
    page = client.get("/stats").text
    sections = re.findall(r"<details class=\"section\"( open)?>\s*<summary><h2>(\w+)", page)
    assert sections == [(" open", "Players"), ("", "Partnerships")]


def test_unnamed_players_make_no_player_and_no_partnership(client: FlaskClient) -> None:
    import_game(client, game_file((("Ana", ""), ("", ""))))
    assert list(stats(client)) == ["Ana"]


def test_a_deleted_hand_no_longer_counts(client: FlaskClient, two_games: list[str]) -> None:
    page = client.get(f"/games/{two_games[0]}").text
    first = int(re.findall(r'<tr id="hand-(\d+)">', page)[0])
    response = client.post(f"/games/{two_games[0]}/hands/{first}/delete", data={"version": "1"})
    assert response.status_code in (302, 303), response.text
    ana = stats(client)["ana"]
    assert (ana["Hands"], ana["Best hand"], ana["Red threes"]) == ("3", "+5,600", "0")


def test_a_player_page_shows_their_games_and_numbers(
    client: FlaskClient, two_games: list[str]
) -> None:
    page = client.get("/players/ana").text
    assert listed(page) == two_games[::-1]
    assert cards(page)[""]["Average hand"] == "+3,485"
    assert cards(page)["ana & Bo"]["Games"] == "2"


def test_a_player_page_lists_their_latest_games_newest_first_but_not_the_deleted(
    client: FlaskClient,
) -> None:
    """A page of them (`queries.PAGE_SIZE`), linked to all their games; Ana plays twice in one
    of them (two players typed alike): listed once."""
    games = [
        import_game(client, game_file((("Ana", "Bo"), ("Cy", "Di")), (FIRST_HAND,)))
        for _ in range(PAGE_SIZE + 1)
    ]
    twice = import_game(client, game_file((("Ana", "Bo"), ("ANA", "Di")), (FIRST_HAND,)))
    assert client.post(f"/games/{games[-1]}/delete").status_code == 302
    page = client.get("/players/ana").text
    assert listed(page) == [twice, *games[-2::-1]][:PAGE_SIZE]
    assert "All their games" in page


def test_a_player_page_counts_their_partnerships_as_the_statistics_page_does(
    client: FlaskClient, two_games: list[str]
) -> None:
    assert cards(client.get("/players/ana").text)["ana & Bo"] == stats(client)["ana & Bo"]


def test_a_player_page_names_a_partner_as_their_latest_game_does_even_one_without_them(
    client: FlaskClient, two_games: list[str]
) -> None:
    import_game(client, game_file((("BO", "Cy"), ("Di", "Eve")), (FIRST_HAND,)))
    assert "ana & BO" in cards(client.get("/players/ana").text)


def test_an_unknown_player_is_not_found(client: FlaskClient, two_games: list[str]) -> None:
    assert client.get("/players/nobody").status_code == 404
    assert client.post("/players/nobody/rename", data={"rename-name": "X"}).status_code == 404
    assert client.post("/players/nobody/merge", data={"merge-into": "ana"}).status_code == 404


def test_renaming_a_player_renames_them_in_every_game(
    client: FlaskClient, two_games: list[str]
) -> None:
    response = client.post("/players/ana/rename", data={"rename-name": "  Ana María "})
    assert response.status_code == 302
    assert response.headers["Location"] == "/players/ana%20mar%C3%ADa"
    assert client.get("/players/ana").status_code == 404
    page = client.get(response.headers["Location"]).text
    assert "Renamed." in page
    assert cards(page)[""]["Games"] == "2"
    assert "ana" not in stats(client)
    assert stats(client)["Ana María"]["Games"] == "2"


@pytest.mark.parametrize(
    ("name", "message"),
    [("", "This field is required."), ("   ", "This field is required."), ("x" * 41, "40")],
)
def test_a_rename_without_a_name_or_too_long_is_refused(
    client: FlaskClient, two_games: list[str], name: str, message: str
) -> None:
    response = client.post("/players/ana/rename", data={"rename-name": name})
    assert response.status_code == 422
    assert message in response.text
    assert stats(client)["ana"]["Games"] == "2"


def test_renaming_to_a_name_already_taken_merges_and_says_so(
    client: FlaskClient, two_games: list[str]
) -> None:
    response = client.post("/players/di/rename", data={"rename-name": "EVE"})
    assert response.status_code == 302
    page = client.get(response.headers["Location"]).text
    assert "A player of that name already existed" in page
    found = stats(client)
    assert "Di" not in found
    assert found["Eve"]["Games"] == "2"  # the name of their latest game


def test_merging_a_player_combines_their_statistics(
    client: FlaskClient, two_games: list[str]
) -> None:
    import_game(client, game_file((("Anita", "Zoe"), ("Cy", "Di")), (BIG_HAND,)))
    assert '<option value="anita">Anita</option>' in client.get("/players/ana/merge").text
    response = client.post("/players/anita/merge", data={"merge-into": "ana"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/players/ana"
    found = stats(client)
    assert "ana" not in found
    merged = found["Anita"]  # the name of their latest game
    assert (merged["Games"], merged["Hands"], merged["Went out"]) == ("3", "5", "4")
    assert client.get("/players/anita").status_code == 404


def test_a_player_cannot_be_merged_into_themself_or_a_stranger(
    client: FlaskClient, two_games: list[str]
) -> None:
    for into in ("ana", "nobody"):
        response = client.post("/players/ana/merge", data={"merge-into": into})
        assert response.status_code == 422
    assert stats(client)["ana"]["Games"] == "2"


def test_the_rename_and_merge_forms_carry_a_csrf_token(csrf_client: FlaskClient) -> None:
    import_game(csrf_client, game_file())
    page = csrf_client.get("/players/ana").text
    assert len(re.findall(r'name="rename-csrf_token"', page)) == 1
    merging = csrf_client.get("/players/ana/merge").text
    assert len(re.findall(r'name="merge-csrf_token"', merging)) == 1
    assert hidden(page, "rename-csrf_token")
    refused = csrf_client.post("/players/ana/rename", data={"rename-name": "Eva"})
    assert refused.status_code == 400
    token = hidden(page, "rename-csrf_token")
    accepted = csrf_client.post(
        "/players/ana/rename", data={"rename-name": "Eva", "rename-csrf_token": token}
    )
    assert accepted.status_code == 302


def test_statistics_are_laid_out_as_cards_not_wide_tables(
    client: FlaskClient, two_games: list[str]
) -> None:
    page = client.get("/stats").text
    assert "<table" not in page
    assert page.count('class="stat-card"') == 5  # ana, Bo, Cy, Di, Eve


@pytest.fixture
def three_systems(client: FlaskClient, two_games: list[str]) -> str:
    """The two classic games, and a Fournier game of Ana and Bo's (game id returned)."""
    players = (("ana", "Bo"), ("Cy", "Di"))
    return import_game(client, game_file(players, hands=(BIG_HAND,), system="fournier"))


def test_statistics_filter_by_system(client: FlaskClient, three_systems: str) -> None:
    every = stats(client)["ana"]
    by_system = {}
    for system in ("classic", "fournier"):
        response = client.get(f"/stats?system={system}")
        assert response.status_code == 200
        assert 'aria-current="page"' in response.text
        by_system[system] = cards(response.text)["ana"]
        assert "Best hand: system" not in by_system[system]  # the page says which system
    assert (every["Games"], by_system["classic"]["Games"], by_system["fournier"]["Games"]) == (
        "3",
        "2",
        "1",
    )
    assert by_system["fournier"]["Hands"] == "1"


def test_the_best_hand_says_which_system_it_was_played_in(
    client: FlaskClient, three_systems: str
) -> None:
    every = stats(client)["ana"]

    def best(system: str) -> int:
        shown = cards(client.get(f"/stats?system={system}").text)["ana"]["Best hand"]
        return int(shown.replace(",", "").replace("+", ""))

    bests = {system: best(system) for system in ("classic", "fournier")}
    top = max(bests, key=lambda system: bests[system])
    assert every["Best hand"] == f"+{bests[top]:,}"
    names = {"classic": "Samba (classic, 2–6 players)", "fournier": "Samba (Fournier)"}
    assert every["Best hand: system"] == names[top]


def test_an_unknown_system_shows_every_system(client: FlaskClient, three_systems: str) -> None:
    assert cards(client.get("/stats?system=bridge").text)["ana"]["Games"] == "3"
    assert cards(client.get("/players/ana?system=bridge").text)[""]["Games"] == "3"


def test_a_player_page_filters_by_system(client: FlaskClient, three_systems: str) -> None:
    page = client.get("/players/ana?system=fournier")
    assert page.status_code == 200
    assert cards(page.text)[""]["Games"] == "1"
    assert listed(page.text) == [three_systems]
    never = client.get("/players/ana?system=denexa")  # a system Ana never played
    assert never.status_code == 200
    assert cards(never.text)[""]["Games"] == "0"
    assert "<h1>ana · Samba (Denexa)</h1>" in never.text
    assert listed(never.text) == []
    assert client.get("/players/nobody?system=denexa").status_code == 404


def test_a_filtered_player_page_still_offers_everyone_to_merge_into(
    client: FlaskClient, three_systems: str
) -> None:
    # The choice of every player is on a page of its own (a big club's player page would read
    # every team's names for it), linked from the player's page whatever it is filtered by.
    for system in ("", "denexa", "fournier"):  # denexa: a system Ana never played
        page = client.get("/players/ana", query_string={"system": system} if system else {}).text
        assert '<a class="button" id="merge-link" href="/players/ana/merge">' in page
        assert "<option" not in page
    offered = re.findall(r'<option[^>]*value="([^"]*)"', client.get("/players/ana/merge").text)
    assert offered == ["bo", "cy", "di", "eve"]


@pytest.mark.parametrize("name", ["/Ana", "//Ana", "/\\evil.example", "A//B", "100%41"])
def test_a_player_whose_name_has_slashes_has_a_page_of_their_own(
    client: FlaskClient, name: str
) -> None:
    import_game(client, game_file(((name, "Bo"), ("Cy", "Di")), (FIRST_HAND,)))
    links = re.findall(r'href="(/players/[^"]*)"', client.get("/stats").text)
    theirs = [link for link in links if link not in ("/players/bo", "/players/cy", "/players/di")]
    page = client.get(html.unescape(theirs[0]))
    assert page.status_code == 200
    assert html.escape(name) in page.text
    renamed = client.post(html.unescape(theirs[0]) + "/rename", data={"rename-name": name + "x"})
    assert renamed.status_code == 302
    assert client.get(renamed.headers["Location"]).status_code == 200

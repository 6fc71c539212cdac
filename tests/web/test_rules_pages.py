"""The rules pages say what the engine does, in our words, with the source cited."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.web.presenters.rulebook import TOPICS, questions

from .helpers import Actions, section

pytestmark = pytest.mark.once  # the rules pages are drawn from the engine, whatever the database


@pytest.mark.parametrize("system_id", list(rules.SYSTEMS))
def test_every_topic_has_a_section_citing_its_source(client: FlaskClient, system_id: str) -> None:
    system = rules.SYSTEMS[system_id]
    page = client.get(f"/rules/{system_id}").text
    for topic in TOPICS:
        assert f"Source: {system.source}, {system.sections[topic]}" in section(page, topic)


@pytest.mark.parametrize(
    ("system_id", "topic", "words"),
    [
        ("denexa", "sets", "Samba 500"),
        ("classic", "sets", "Samba 1,500"),
        ("super-samba", "sets", "Super samba 5,000"),
        ("black-samba", "sets", "Black samba 1,000"),
        ("denexa", "first-meld", "7,000 and up 160"),
        ("classic", "first-meld", "below 1,500 50"),
        ("fournier", "first-meld", "3,000 and up 120"),
        ("super-samba", "first-meld", "Hand 4 150"),
        ("fournier", "first-meld", "going out concealed"),
        ("fournier", "going-out", "at least 1 set (a canasta or a samba)"),
        ("super-samba", "going-out", "Going out earns 2,000"),
        ("fournier", "red-threes", "each costs 500"),
        ("classic", "red-threes", "each player caught holding red threes"),
        ("black-samba", "red-threes", "All 6 together are worth 1,200"),
        ("denexa", "penalties", "Took the upcard and could not use it 50"),
        ("super-samba", "end-of-game", "A game is 4 hands"),
        ("super-samba", "table", "6 decks with 12 jokers: 324 cards"),
        ("classic", "sets", "Mixed canasta 5"),
        ("super-samba", "sets", "Super samba 11"),
        ("black-samba", "sets", "Black samba 6"),
        ("classic", "sets", "3 decks hold 132 natural cards"),
        ("super-samba", "sets", "7 decks hold 308 natural cards"),
        (
            "super-samba",
            "going-out",
            "An empty stock stops the hand with nobody out, but only while no side has its whole",
        ),
    ],
)
def test_a_rules_page_shows_the_engines_numbers(
    client: FlaskClient, system_id: str, topic: str, words: str
) -> None:
    assert words in section(client.get(f"/rules/{system_id}").text, topic)


def test_the_comparison_marks_what_one_system_does_differently(client: FlaskClient) -> None:
    page = client.get("/rules").text
    samba = re.search(r"<h2[^>]*>Samba</h2>.*?</dl>", page, re.S)
    assert samba is not None
    unusual = re.findall(r'<dd class="unusual">([^<]*)', samba.group(0))
    assert [value.strip() for value in unusual] == ["500", "2,000"]


def test_an_unknown_system_has_no_rules_page(client: FlaskClient) -> None:
    assert client.get("/rules/canasta").status_code == 404


def test_a_games_rules_page_shows_its_house_rules_next_to_the_system(
    client: FlaskClient,
) -> None:
    game = {
        "variant": "denexa",
        "house_rules": {"name": "Samba 1500", "set_bonuses": {"samba": 1500}, "target": 5000},
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    page = client.get(location + "/rules").text
    house = section(page.replace('<section class="house"', '<section id="house"'), "house")
    assert "Samba 500 1,500" in house
    assert "Target 10,000 5,000" in house
    assert "Samba 1,500" in section(page, "sets")
    assert "reaches 5,000" in section(page, "end-of-game")


def test_a_refused_hand_links_each_message_to_the_paragraph_it_cites(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    response = actions.post_hand(game_id, [{"melded_points": "100"}, {}])
    assert response.status_code == 422
    assert f'href="/games/{game_id}/rules#going-out"' in response.text


@pytest.mark.parametrize("system_id", ["classic", "denexa", "black-samba", "fournier"])
def test_only_super_samba_keeps_a_hand_going_on_an_empty_stock(
    client: FlaskClient, system_id: str
) -> None:
    assert "whole book" not in section(client.get(f"/rules/{system_id}").text, "going-out")


def test_the_natural_cards_a_set_takes_are_said_in_spanish(client: FlaskClient) -> None:
    page = client.get("/rules/super-samba", headers={"Accept-Language": "es"}).text
    sets = section(page, "sets")
    assert "6 barajas tienen 264 cartas naturales" in sets
    assert "Canasta de comodines" not in sets.split("como mínimo:")[1]


def answer(page: str, question_id: str) -> str:
    """The text of one answer of "Questions tables ask", tags removed, its citation included."""
    found = re.search(rf'<div class="question" id="q-{question_id}">.*?</div>', page, re.S)
    assert found is not None, question_id
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


@pytest.mark.parametrize(
    ("system_id", "cited"),
    [
        ("denexa", "Denexa Games, Samba, Card ranks and scoring, “Black 3s”"),
        ("black-samba", "Initial Meld Points, “Card Points”"),
        ("super-samba", "Samba with Super Sambas rule sheet, Individual Point Values"),
        ("fournier", "Fournier, Reglamento de la Samba, “Cada Tres Negro”"),
    ],
)
def test_the_black_threes_value_cites_the_passage_that_gives_it(
    client: FlaskClient, system_id: str, cited: str
) -> None:
    said = answer(client.get(f"/rules/{system_id}").text, "black-three")
    assert cited in said
    assert "Our reading" not in said


def test_classic_says_it_gives_no_card_values_and_marks_ours_as_a_reading(
    client: FlaskClient,
) -> None:
    page = client.get("/rules/classic").text
    for question_id in ("black-three", "card-in-hand"):
        said = answer(page, question_id)
        assert said.startswith(
            f"{said.split('?')[0]}? Our reading: This text gives no card values at all"
        )


@pytest.mark.parametrize(
    ("system_id", "question_id", "words"),
    [
        ("denexa", "all-six-undeclared", "Our reading: The text pays 1,000 when all six are held"),
        ("denexa", "black-threes-meld", "Our reading: Only as the hand finishes, that is, when"),
        ("super-samba", "pile-how-much", "Our reading: You take every card above the topmost wild"),
        ("super-samba", "pile-how", "at least 7 cards to pick up, counting only those above"),
        ("classic", "pile-black-three", "Our reading: The text mentions only in passing"),
        ("denexa", "canasta-size", "Exactly seven: a meld stops there"),
        ("super-samba", "canasta-size", "Exactly seven: a meld stops there"),
        ("classic", "canasta-size", "a finished canasta may take more natural cards"),
        ("black-samba", "canasta-size", "a finished canasta may take more natural cards"),
        ("fournier", "canasta-size", "Our reading: The text gives no size; we take seven"),
        ("denexa", "drawn", "1 card a turn"),
        ("super-samba", "drawn", "3 a turn; with six players, 2."),
        ("classic", "dealt", "15 each; with six players, 13 each."),
        ("super-samba", "dealt", "Two piles of 25 each"),
        ("black-samba", "pile-how-much", "and then 4 more"),
        ("super-samba", "seven-discard", "Only when it is the last card in your hand."),
    ],
)
def test_a_question_of_play_is_answered_with_the_engines_numbers_and_readings_marked(
    client: FlaskClient, system_id: str, question_id: str, words: str
) -> None:
    assert words in answer(client.get(f"/rules/{system_id}").text, question_id)


@pytest.mark.parametrize("system_id", list(rules.SYSTEMS))
def test_every_system_answers_at_least_25_questions_each_with_its_own_citation(
    client: FlaskClient, system_id: str
) -> None:
    page = client.get(f"/rules/{system_id}").text
    ids = re.findall(r'<div class="question" id="q-([\w-]+)">', page)
    assert len(ids) >= 25
    source = rules.SYSTEMS[system_id].source
    for question_id in ids:
        assert f"{source}, " in answer(page, question_id), question_id


@pytest.mark.parametrize("system_id", list(rules.SYSTEMS))
def test_a_rules_page_opens_with_the_search_and_its_topics_and_answers_under_each(
    client: FlaskClient, system_id: str
) -> None:
    """Issue 35: what settles an argument first; every question under the topic it is about."""
    page = client.get(f"/rules/{system_id}").text
    main = page.split("<main>", 1)[1]
    search, topics = main.index('role="search"'), main.index('<nav class="topics"')
    assert search < topics < main.index("<section")
    nav = main[topics : main.index("</nav>", topics)]
    sections = re.findall(r'<section id="([\w-]+)" class="rule-section"', main)
    assert re.findall(r'<a class="topic" href="#([\w-]+)">', nav) == sections == list(TOPICS)
    assert 'class="questions" id="questions"' not in main
    with client.application.test_request_context():
        topic_of = {q.id: q.topic for q in questions(rules.SYSTEMS[system_id])}
    for topic in sections:
        body = re.search(rf'<section id="{topic}" class="rule-section".*?</section>', main, re.S)
        assert body is not None
        for question in re.findall(r'<div class="question" id="q-([\w-]+)">', body.group(0)):
            assert topic_of[question] == topic, question
    asked = re.findall(r'<div class="question" id="q-([\w-]+)">', main)
    assert len(asked) == len(set(asked)) >= 35  # each once


def test_a_games_rules_open_with_the_way_back_then_the_search_and_the_topics(
    client: FlaskClient,
) -> None:
    game = {
        "variant": "denexa",
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    main = client.get(location + "/rules").text.split("<main>", 1)[1]
    back = main.index(f'<a href="{location}">')
    assert (
        back < main.index("<h1") < main.index('role="search"') < main.index('<nav class="topics"')
    )


def test_a_rules_page_kept_drawn_is_each_languages_and_each_games_own(
    client: FlaskClient,
) -> None:
    """A rules page's body is drawn once and kept (pages/rules.py): asked again it is the same,
    but never another language's, and a game's rules are its own game's, house rules and way
    back to its scoreboard included, even beside another game of the same system."""
    english = client.get("/rules/denexa").text
    spanish = client.get("/rules/denexa", headers={"Accept-Language": "es"}).text
    assert (
        '<html lang="es"' in spanish and "Buscar" in spanish and "Search the rules" not in spanish
    )
    assert _main(client.get("/rules/denexa").text) == _main(english)
    assert "The five Samba systems" in client.get("/rules").text
    assert (
        "The five Samba systems" not in client.get("/rules", headers={"Accept-Language": "es"}).text
    )
    plain = {
        "variant": "denexa",
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    }
    house = {**plain, "house_rules": {"name": "Samba 1500", "set_bonuses": {"samba": 1500}}}
    first, second = (
        client.post("/games/import", json=g).headers["Location"] for g in (plain, house)
    )
    first_rules = client.get(first + "/rules").text
    second_rules = client.get(second + "/rules").text
    assert f'<a href="{first}">' in first_rules and first not in second_rules
    assert "Samba 1500" in second_rules and "Samba 1500" not in first_rules
    assert _main(client.get(first + "/rules").text) == _main(first_rules)


def _main(page: str) -> str:
    """A page's main part (the header around it holds the visitor's CSRF token, signed anew
    each second)."""
    return page.split("<main>", 1)[1]

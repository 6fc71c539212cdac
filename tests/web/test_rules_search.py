"""Settle a dispute in two taps: each rules page opens with the questions tables ask, answered
from the engine's numbers, and every system's page can be searched in both languages."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules


def answer(page: str, question: str) -> str:
    """The words of one answer of a rules page, tags removed."""
    found = re.search(rf'<div class="question" id="q-{question}">.*?</div>', page, re.S)
    assert found is not None, question
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", found.group(0))).split())


def found(page: str) -> list[tuple[str, str]]:
    """What a search found: each link's address and words."""
    links = re.findall(r'<ol class="found">.*?</ol>', page, re.S)
    if not links:
        return []
    return [
        (href, " ".join(html.unescape(re.sub(r"<[^>]+>", "", words)).split()))
        for href, words in re.findall(r'<a href="([^"]+)">(.*?)</a>', links[0], re.S)
    ]


@pytest.mark.parametrize(
    ("system_id", "question", "words"),
    [
        ("black-samba", "red-and-black-samba", "Yes: any two sets count, ‘red’ (all natural)"),
        ("black-samba", "going-out", "It needs at least 2 sets (canastas or sambas)"),
        ("fournier", "going-out", "It needs at least 1 set (a canasta or a samba)"),
        ("classic", "first-meld", "below 1,500: 50; 1,500 to 2,995: 90"),
        ("super-samba", "first-meld", "It goes by the hand: Hand 1: 50; Hand 2: 90"),
        ("classic", "red-three", "With two sets, 100 each; without them, −100 each."),
        ("fournier", "red-three", "without them, −500 each. All 6 together: 1,000, or −3,000."),
        ("black-samba", "red-three", "Once the side has melded this hand, 100 each"),
        ("super-samba", "red-three", "Always 100 each, sets or no sets"),
        ("classic", "red-three-in-hand", "−750 for each player caught holding any"),
        ("black-samba", "red-three-in-hand", "Nothing: they are laid down at once"),
        ("denexa", "black-three", "−5 each"),
        ("denexa", "card-in-hand", "Jokers (50), Twos (20)"),
    ],
)
def test_each_rules_page_answers_the_questions_tables_ask(
    client: FlaskClient, system_id: str, question: str, words: str
) -> None:
    assert words in answer(client.get(f"/rules/{system_id}").text, question)


@pytest.mark.parametrize("system_id", list(rules.SYSTEMS))
def test_every_answer_cites_the_rule_it_comes_from(client: FlaskClient, system_id: str) -> None:
    page = client.get(f"/rules/{system_id}").text
    questions = re.findall(r'<div class="question" id="q-([a-z-]+)">(.*?)</div>', page, re.S)
    assert len(questions) >= 6
    for question, text in questions:
        assert f'<a href="/rules/{system_id}#' in text, question


def test_the_black_samba_answer_follows_the_option_asking_for_a_red_set(
    client: FlaskClient,
) -> None:
    game = {
        "variant": "black-samba",
        "options": {"one_red_set_to_go_out": True},
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
        "hands": [],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    words = answer(client.get(location + "/rules").text, "red-and-black-samba")
    assert "Yes: two sets, and one of them ‘red’" in words
    assert "two ‘black’ sets alone would not do" in words


def test_searching_finds_the_black_samba_going_out_answer_first(client: FlaskClient) -> None:
    page = client.get("/rules/search", query_string={"q": "go out red samba black samba"}).text
    href, words = found(page)[0]
    assert href == "/rules/black-samba#q-red-and-black-samba"
    assert "Can we go out with one ‘red’ samba and one ‘black’ samba?" in words


def test_words_typed_side_by_side_find_the_place_that_has_them_so_first(
    client: FlaskClient,
) -> None:
    page = client.get("/rules/search", query_string={"q": "red samba"}).text
    assert found(page)[0][0] == "/rules/black-samba#q-red-and-black-samba"


def test_searching_in_spanish_finds_the_spanish_answer(client: FlaskClient) -> None:
    client.set_cookie("lang", "es")
    page = client.get("/rules/search", query_string={"q": "cerrar samba roja samba negra"}).text
    href, words = found(page)[0]
    assert href == "/rules/black-samba#q-red-and-black-samba"
    assert "¿Podemos cerrar con una samba ‘roja’ y una samba ‘negra’?" in words


def test_a_search_ignores_case_and_accents(client: FlaskClient) -> None:
    client.set_cookie("lang", "es")
    typed = client.get("/rules/search", query_string={"q": "COMODIN"}).text
    assert found(typed) and found(typed) == found(
        client.get("/rules/search", query_string={"q": "comodín"}).text
    )


def test_a_search_that_finds_nothing_says_so(client: FlaskClient) -> None:
    page = client.get("/rules/search", query_string={"q": "zzyzx"}).text
    assert found(page) == []
    assert "Nothing in the rules matches “zzyzx”" in html.unescape(page)


def test_an_empty_search_is_the_form_alone(client: FlaskClient) -> None:
    page = client.get("/rules/search").text
    assert 'role="search"' in page and found(page) == []


def test_every_rules_page_has_the_search_form(client: FlaskClient) -> None:
    for path in ["/rules", *(f"/rules/{s}" for s in rules.SYSTEMS)]:
        assert 'action="/rules/search"' in client.get(path).text, path

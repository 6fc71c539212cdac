"""Settle a dispute in two taps: each rules page opens with the questions tables ask, answered
from the engine's numbers, and every system's page can be searched in both languages."""

from __future__ import annotations

import html
import re

import pytest
from flask.testing import FlaskClient

from scorekeeper import rules

pytestmark = pytest.mark.once  # the rules pages are drawn from the engine, whatever the database


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


def search(client: FlaskClient, query: str, system: str | None = None, language: str = "en"):
    """The places found, from a system's page (its own first) or from anywhere."""
    args = {"q": query, **({"system": system} if system else {})}
    return client.get("/rules/search", query_string=args, headers={"Accept-Language": language})


def other_systems(page: str) -> list[str]:
    """The addresses listed under "the other systems", one tap away."""
    block = re.search(r'<details class="other-systems".*?</details>', page, re.S)
    return re.findall(r'<a href="([^"]+)">', block.group(0)) if block else []


@pytest.mark.parametrize(
    ("system_id", "query", "language", "first"),
    [
        ("black-samba", "six red threes", "en", "q-all-six-undeclared"),
        ("classic", "concealed", "en", "q-concealed"),
        ("black-samba", "concealed", "en", "q-concealed"),
        ("super-samba", "discard a seven", "en", "q-seven-discard"),
        (
            "classic",
            "take the pile with one natural and a wild card",
            "en",
            "q-pile-one-natural-and-wild",
        ),
        ("fournier", "comodín en una canasta terminada", "es", "q-wild-to-finished"),
        ("denexa", "pozo congelado", "es", "q-pile-frozen"),
        ("denexa", "frozen pile", "es", "q-pile-frozen"),  # English words, a Spanish page
        ("classic", "stock runs out go out", "en", "q-stock-empty"),
        ("black-samba", "black three on top", "en", "q-pile-black-three"),
    ],
)
def test_a_search_from_a_systems_page_answers_for_that_system_first(
    client: FlaskClient, system_id: str, query: str, language: str, first: str
) -> None:
    page = search(client, query, system_id, language).text
    href, _ = found(page)[0]
    assert href == f"/rules/{system_id}#{first}"
    assert all(f"/rules/{system_id}#" not in other for other in other_systems(page))


def test_the_other_systems_are_one_tap_away_and_marked_as_such(client: FlaskClient) -> None:
    page = search(client, "concealed", "black-samba").text
    others = other_systems(page)
    assert "/rules/fournier#q-concealed" in others
    assert '<details class="other-systems"' in page and "other system</span>" in page


@pytest.mark.parametrize(
    ("typed", "same_as"),
    [
        ("five players", "5 players"),
        ("6 red threes", "six red three"),
        ("seis treses rojos", "6 tres rojo"),
        ("comodines", "comodín"),
        ("canastas", "canasta"),
        ("1500", "1,500"),
    ],
)
def test_numbers_as_words_or_digits_and_plurals_find_the_same_places(
    client: FlaskClient, typed: str, same_as: str
) -> None:
    language = "es" if any(c in typed for c in "íñ") or "treses" in typed else "en"
    first = found(search(client, typed, "classic", language).text)
    assert first and first == found(search(client, same_as, "classic", language).text)


def test_a_game_searches_its_own_system_first_and_links_to_its_own_rules(
    client: FlaskClient,
) -> None:
    game = {
        "variant": "fournier",
        "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    }
    location = client.post("/games/import", json=game).headers["Location"]
    rules_page = client.get(location + "/rules").text
    game_id = location.rsplit("/", 1)[1]
    assert '<input type="hidden" name="system" value="fournier">' in rules_page
    assert f'<input type="hidden" name="game" value="{game_id}">' in rules_page
    page = client.get(
        "/rules/search", query_string={"q": "concealed", "system": "fournier", "game": game_id}
    ).text
    assert found(page)[0][0] == f"/games/{game_id}/rules#q-concealed"


def test_an_answer_comes_before_a_section_that_merely_holds_the_words(
    client: FlaskClient,
) -> None:
    for query in ("red threes", "frozen"):
        hrefs = [href for href, _ in found(search(client, query, "denexa").text)]
        answers = ["#q-" in href for href in hrefs]
        assert answers[0] and answers == sorted(answers, reverse=True), hrefs
    # A section is found when no answer holds the words.
    hrefs = [href for href, _ in found(search(client, "decks hold natural cards", "denexa").text)]
    assert "/rules/denexa#sets" in hrefs

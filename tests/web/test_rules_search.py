"""Settle a dispute in two taps: each rules page answers the questions tables ask under their
topics, from the engine's numbers, and everything a system's page says (answers, sentences, the
rows of its tables, our readings) can be searched in both languages, the passage that answers
shown with the words found marked (issue 35)."""

from __future__ import annotations

import html
import re

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.web.presenters import rules_passages

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
        ("classic", "red-three", "All 6 together: 1,000, or −600."),
        ("fournier", "red-three", "Without them, −500 each, so −3,000 for all 6 (our reading"),
        ("black-samba", "red-three", "If the side has melded this hand, 100 each, and all 6"),
        ("black-samba", "red-three", "the text does not say how much, and we read −100 each"),
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
        ("penalties", "penalty"),
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


def passages(page: str) -> list[tuple[str, str, str]]:
    """What a search found for the system searched first: each result's address, the passage
    it shows, and that passage with the words found in [brackets]."""
    block = re.search(r'<ol class="found">(.*?)</ol>', page, re.S)
    items = re.findall(r"<li>(.*?)</li>", block.group(1), re.S) if block else []
    shown = []
    for item in items:
        href = re.search(r'<a href="([^"]+)">', item)
        passage = re.search(r'<p class="passage">(.*?)</p>', item, re.S)
        assert href is not None and passage is not None, item
        marked = re.sub(r"<mark>(.*?)</mark>", r"[\1]", passage.group(1))
        words = " ".join(html.unescape(re.sub(r"<[^>]+>", "", marked)).split())
        shown.append((href.group(1), words.replace("[", "").replace("]", ""), words))
    return shown


@pytest.mark.parametrize(
    ("system_id", "query", "language", "anchor", "shown"),
    [
        # A table's row: the penalties, the first meld, the card values, the set bonuses.
        (
            "denexa",
            "penalty upcard",
            "en",
            "penalties",
            "Took the [upcard] and could not use it: 50",
        ),
        (
            "denexa",
            "no poder usarla",
            "es",
            "penalties",
            "Tomar la carta del pozo y [no] [poder] [usarla]: 50",
        ),
        ("denexa", "first meld 7000", "en", "q-first-meld", "[7,000] and up: 160"),
        ("super-samba", "canasta of sevens bonus", "en", "sets", "[Canasta] of [sevens]: 2,000"),
        ("classic", "joker points", "en", "table", "[Joker]: 50"),
        # A section's sentence.
        ("super-samba", "most sambas", "en", "sets", "at [most] 4 [sambas]"),
        (
            "classic",
            "decks hold natural cards",
            "en",
            "sets",
            "3 [decks] [hold] 132 [natural] [cards]",
        ),
        # One of our readings.
        ("fournier", "equal totals", "en", "end-of-game", "nor of [equal] [totals]"),
        ("fournier", "totales iguales", "es", "end-of-game", "ni de [totales] [iguales]"),
    ],
)
def test_a_search_shows_the_passage_that_answers_with_the_words_found_marked(
    client: FlaskClient, system_id: str, query: str, language: str, anchor: str, shown: str
) -> None:
    found = passages(search(client, query, system_id, language).text)
    assert found, query
    wanted = shown.replace("[", "").replace("]", "")
    first = next((f for f in found if wanted in f[1]), None)
    assert first is not None, (query, found[:3])
    assert found.index(first) < 3, (query, found[:3])  # above a phone's keyboard
    assert first[0] == f"/rules/{system_id}#{anchor}"
    if "[" in shown:
        assert shown in first[2], first[2]


def test_the_passage_that_says_the_words_comes_before_one_under_a_heading_that_does(
    client: FlaskClient,
) -> None:
    found = passages(search(client, "penalty upcard", "denexa").text)
    assert found[0][1].startswith("Took the upcard and could not use it: 50 Source: Denexa")
    # The other rows of "What each penalty costs" say one of the words; the section's sentence
    # is only under the heading "Penalties" (one word, as a plural): it comes after them all.
    assert found[-1][1].startswith("Each is charged to the side at fault")


def test_an_answer_in_two_places_shows_both(client: FlaskClient) -> None:
    found = passages(search(client, "red three left in hand", "denexa").text)
    assert [href for href, _, _ in found[:2]] == [
        "/rules/denexa#q-red-three-in-hand",
        "/rules/denexa#penalties",
    ]
    assert found[0][1].startswith("−500 for each one.")
    assert found[1][1].startswith("Each red three left in hand: 500")


def test_no_fixed_number_of_results_hides_an_answer(client: FlaskClient) -> None:
    found = passages(search(client, "canasta", "super-samba").text)
    assert len(found) > 20
    page = search(client, "canasta", "super-samba").text
    assert "places in Samba with Super Sambas" in html.unescape(page)


def test_every_passage_of_a_page_is_found_in_both_languages(app: Flask) -> None:
    with app.test_request_context():
        english, spanish = rules_passages.passages("en"), rules_passages.passages("es")
    assert len(english) == len(spanish) > 400
    assert [(p.system_id, p.anchor) for p in english] == [(p.system_id, p.anchor) for p in spanish]
    kinds = {p.anchor.split("-")[0] for p in english}
    assert {"q", "table", "penalties", "sets", "variations", "end"} <= kinds

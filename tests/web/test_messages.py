"""Messages people quote: right with 1 and with 2, for any side name, in English and in Spanish."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from flask import Flask
from flask_babel import gettext, ngettext

from scorekeeper.rules import Text, read_game, replay
from scorekeeper.web.wording import decimal, number, say, signed
from tests.rules.helpers import BOOK

pytestmark = pytest.mark.once  # the messages' words are the same whatever the database

Json = dict[str, Any]


def game(variant: str, *entries: Json, names: tuple[str, ...] = ("Nosotros", "Ana"), **more: Any):
    """A game of one hand ended by going out, its sides named `names`, two players each
    (one each with three sides)."""
    players = 1 if len(names) == 3 else 2
    return {
        "variant": variant,
        "options": more.get("options", {}),
        "sides": [{"name": name, "players": players} for name in names],
        "hands": [{"ended_by": more.get("ended_by", "going_out"), "entries": list(entries)}],
        **({"house_rules": more["house_rules"]} if "house_rules" in more else {}),
    }


def texts(data: Json) -> list[Text]:
    """Every violation message and score line of the game's hand."""
    result = replay(read_game(data))
    found: list[Text] = [v.message for v in result.hands[0].violations]
    return found + [line.label for side in result.hands[0].sides for line in side.lines]


def said(app: Flask, language: str, data: Json) -> list[str]:
    """Every violation message and score line of the game's hand, in `language`."""
    with app.test_request_context(headers={"Accept-Language": language}):
        return [say(text) for text in texts(data)]


TWO_SETS = {"sets": {"natural_canasta": 1, "mixed_canasta": 1}, "melded_points": 200}
STOCK = {"ended_by": "stock_exhausted"}

# (what, game file, English, Spanish): each phrase is one whole message or score line; one that
# ends in "…" is how a message starts, one that starts with "…" how it ends.
MESSAGES = [
    (
        "went out with 1 set",
        game("classic", {"went_out": True, "sets": {"samba": 1}, "melded_points": 100}, {}),
        "Nosotros went out with 1 set, but …",
        "Cierre de Nosotros con 1 jugada, pero …",
    ),
    (
        "went out with 2 sets",
        game("classic", {"went_out": True, **TWO_SETS}, {}, house_rules={"sets_to_go_out": 3}),
        "Nosotros went out with 2 sets, but …",
        "Cierre de Nosotros con 2 jugadas, pero …",
    ),
    (
        "needs at least 1 set",
        game("fournier", {}, {"went_out": True, "melded_points": 60}),
        "… needs at least 1 set (a canasta or a samba) to go out",
        "… exige al menos 1 jugada (canasta o samba) para cerrar",
    ),
    (
        "needs at least 2 sets",
        game("classic", {"went_out": True, "sets": {"samba": 1}, "melded_points": 100}, {}),
        "… needs at least 2 sets (canastas or sambas) to go out",
        "… exige al menos 2 jugadas (canastas o sambas) para cerrar",
    ),
    (
        "two sides went out",
        game("classic", {"went_out": True, **TWO_SETS}, {"went_out": True, **TWO_SETS}),
        "Only one side can go out, yet Nosotros and Ana each went out",
        "Solo un equipo puede cerrar, pero se anotaron cierres de Nosotros y Ana",
    ),
    (
        "three sides went out",
        game(
            "classic",
            *[{"went_out": True, **TWO_SETS}] * 3,
            names=("Nosotros", "Ana", "Ellos"),
        ),
        "Only one side can go out, yet Nosotros, Ana and Ellos each went out",
        "Solo un equipo puede cerrar, pero se anotaron cierres de Nosotros, Ana y Ellos",
    ),
    (
        "1 red three left in hand",
        game("denexa", {"red_threes_in_hand": 1}, {}, **STOCK),
        "1 red three left in hand",
        "1 tres rojo en la mano",
    ),
    (
        "2 red threes left in hand",
        game("denexa", {"red_threes_in_hand": 2}, {}, **STOCK),
        "2 red threes left in hand",
        "2 treses rojos en la mano",
    ),
    (
        "1 player holding red threes",
        game("classic", {"red_threes_in_hand": 1, "players_holding_red_threes": 1}, {}, **STOCK),
        "1 player caught holding red threes",
        "1 jugador con treses rojos en la mano",
    ),
    (
        "2 players holding red threes",
        game("classic", {"red_threes_in_hand": 2, "players_holding_red_threes": 2}, {}, **STOCK),
        "2 players caught holding red threes",
        "2 jugadores con treses rojos en la mano",
    ),
    (
        "1 red three on the table",
        game("classic", {"red_threes": 1, **TWO_SETS}, {}, **STOCK),
        "1 red three",
        "1 tres rojo",
    ),
    (
        "2 red threes on the table",
        game("classic", {"red_threes": 2, **TWO_SETS}, {}, **STOCK),
        "2 red threes",
        "2 treses rojos",
    ),
    (
        "1 red three counting minus",
        game("classic", {"red_threes": 1}, {}, **STOCK),
        "1 red three, minus: fewer than two sets",
        "1 tres rojo, en contra: menos de dos jugadas",
    ),
    (
        "2 red threes counting minus",
        game("black-samba", {"red_threes": 2}, {}, **STOCK),
        "2 red threes, minus: the side has not melded",
        "2 treses rojos, en contra: el equipo no ha bajado",
    ),
    (
        "1 samba",
        game("classic", {"sets": {"samba": 1}, "melded_points": 100}, {}, **STOCK),
        "1 × samba, 1,500",
        "1 × samba, 1.500",
    ),
    (
        "2 sambas",
        game("classic", {"sets": {"samba": 2}, "melded_points": 200}, {}, **STOCK),
        "2 × samba, 1,500 each",
        "2 × samba, 1.500 cada una",
    ),
    (
        "the book short of 1 natural canasta and the canasta of sevens",
        game(
            "super-samba",
            {
                "went_out": True,
                "sets": {**BOOK, "natural_canasta": 4, "sevens_canasta": 0},
                "melded_points": 2000,
            },
            {},
        ),
        "Nosotros went out without the book: needs a canasta of sevens, has none; "
        "needs 5 natural canastas, has 4",
        "Cierre de Nosotros sin el libro: hace falta una canasta de sietes, no hay ninguna; "
        "hacen falta 5 canastas limpias, hay 4",
    ),
    (
        "the book with 1 natural canasta of 5",
        game(
            "super-samba",
            {"went_out": True, "sets": {**BOOK, "natural_canasta": 1}, "melded_points": 2000},
            {},
        ),
        "Nosotros went out without the book: needs 5 natural canastas, has 1",
        "Cierre de Nosotros sin el libro: hacen falta 5 canastas limpias, hay 1",
    ),
    (
        "the book without any natural canasta",
        game(
            "super-samba",
            {"went_out": True, "sets": {**BOOK, "natural_canasta": 0}, "melded_points": 2000},
            {},
        ),
        "Nosotros went out without the book: needs 5 natural canastas, has none",
        "Cierre de Nosotros sin el libro: hacen falta 5 canastas limpias, no hay ninguna",
    ),
    (
        "2 sets, neither natural",
        game(
            "black-samba",
            {"went_out": True, "sets": {"mixed_canasta": 2}, "melded_points": 200},
            {},
            options={"one_red_set_to_go_out": True},
        ),
        "Nosotros went out with 2 sets, but neither is natural: one of them must be a natural "
        "canasta or a samba",
        "Cierre de Nosotros con 2 jugadas, pero ninguna de las dos es limpia: una de ellas debe "
        "ser canasta limpia o samba",
    ),
    (
        "3 sets, none natural",
        game(
            "black-samba",
            {
                "went_out": True,
                "sets": {"mixed_canasta": 2, "black_samba": 1},
                "melded_points": 300,
            },
            {},
            options={"one_red_set_to_go_out": True},
        ),
        "Nosotros went out with 3 sets, but none of them is natural: one of them must be a "
        "natural canasta or a samba",
        "Cierre de Nosotros con 3 jugadas, pero ninguna es limpia: una de ellas debe ser canasta "
        "limpia o samba",
    ),
    (
        "a number below zero, named in words",
        game("classic", {}, {"hand_points": -5}, **STOCK),
        "Ana, “Card points left in hand”: give a whole number, zero or more, not −5",
        "Ana, «Puntos de las cartas en la mano»: pon un número entero, cero o mayor, no −5",
    ),
    (
        "a first meld too low, for a side called Ellos",
        game(
            "classic",
            {"opening_meld": 45, "melded_points": 100},
            {},
            names=("Ellos", "Ana"),
            **STOCK,
        ),
        "Ellos: a first meld of 45 is too low; Ellos needed 50",
        "Ellos: una primera salida de 45 es demasiado baja; el mínimo de Ellos era 50",
    ),
    (
        "sets needing more natural cards than three decks hold",
        game(
            "classic",
            {"sets": {"natural_canasta": 11}, "melded_points": 3000},
            {"sets": {"mixed_canasta": 12}, "melded_points": 3000},
            **STOCK,
        ),
        "These sets need at least 137 natural cards (4 up to ace); 3 decks hold 132",
        "Estas jugadas necesitan al menos 137 cartas naturales (del 4 al as); 3 barajas tienen 132",
    ),
    (
        "a super-samba book complete when the stock ran out",
        game("super-samba", {}, {"sets": BOOK, "melded_points": 2000}, **STOCK),
        "Ana has its whole book, and a hand ends with the stock exhausted only while no side "
        "has one",
        "Ana tiene su libro completo, y una mano solo termina al agotarse el mazo mientras ningún "
        "equipo lo tiene",
    ),
]


def says(message: str, phrase: str) -> bool:
    if phrase.endswith("…"):
        return message.startswith(phrase[:-1])
    if phrase.startswith("…"):
        return message.endswith(phrase[1:])
    return message == phrase


@pytest.mark.parametrize(
    ("data", "english", "spanish"),
    [(d, en, es) for _, d, en, es in MESSAGES],
    ids=[what for what, *_ in MESSAGES],
)
def test_a_message_reads_right_in_english_and_spanish(app, data, english, spanish):
    for language, phrase in (("en", english), ("es", spanish)):
        found = said(app, language, data)
        assert any(says(m, phrase) for m in found), (language, found)
    engine = [str(text) for text in texts(data)]  # as `scorekeeper check` writes it
    assert any(says(m, english) for m in engine), engine


# (msgid, values, English, Spanish) for the web layer's own sentences about a side.
WEB = [
    ("%(side)s went out", {"side": "Nosotros"}, "Nosotros went out", "Cierre: Nosotros"),
    ("%(side)s went out", {"side": "Ana"}, "Ana went out", "Cierre: Ana"),
    (
        "%(side)s won with %(total)s.",
        {"side": "Nosotros", "total": "10.260"},
        "Nosotros won with 10.260.",
        "Victoria de Nosotros con 10.260.",
    ),
    ("finished: %(side)s won", {"side": "Ana"}, "finished: Ana won", "terminada: victoria de Ana"),
]


@pytest.mark.parametrize(("msgid", "values", "english", "spanish"), WEB)
def test_a_side_name_needs_no_agreement(app, msgid, values, english, spanish):
    for language, phrase in (("en", english), ("es", spanish)):
        with app.test_request_context(headers={"Accept-Language": language}):
            assert gettext(msgid, **values) == phrase


PARTNERSHIPS = (
    "%(count)s partnership with fewer games is on each player's page.",
    "%(count)s partnerships with fewer games are on each player's page.",
)


@pytest.mark.parametrize(
    ("count", "language", "phrase"),
    [
        (1, "en", "1 partnership with fewer games is on each player's page."),
        (2, "en", "2 partnerships with fewer games are on each player's page."),
        (1, "es", "1 pareja más con menos partidas aparece en la página de cada jugador."),
        (2, "es", "Otras 2 parejas con menos partidas aparecen en la página de cada jugador."),
    ],
)
def test_the_statistics_count_partnerships_left_in_the_plural_of_each_language(
    app, count, language, phrase
):
    with app.test_request_context(headers={"Accept-Language": language}):
        assert ngettext(*PARTNERSHIPS, count, count=number(count)) == phrase


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize(
    ("value", "written", "with_sign"),
    [(-5, "−5", "−5"), (-1500, "−1?500", "−1?500"), (0, "0", "0"), (200, "200", "+200")],
)
def test_negative_numbers_take_the_minus_sign_everywhere(app, language, value, written, with_sign):
    separator = "," if language == "en" else "."
    with app.test_request_context(headers={"Accept-Language": language}):
        assert number(value) == written.replace("?", separator)
        assert signed(value) == with_sign.replace("?", separator)
        assert say(Text("%(points)s", {"points": value})) == written.replace("?", separator)
    assert str(Text("%(points)s", {"points": value})) == written.replace("?", ",")


@pytest.mark.parametrize(
    ("language", "value", "written"),
    [
        ("en", 1.0, "1"),
        ("en", 1.5, "1.5"),
        ("en", 4 / 3, "1.33"),
        ("es", 1.5, "1,5"),  # 1.5 reads as one thousand five hundred there
        ("es", 1500.5, "1.500,5"),
        ("es", -0.5, "−0,5"),
        ("en", Fraction(1198), "1,198"),  # a season's figure, whole
        ("es", Fraction(-1500), "−1.500"),
        ("en", Fraction(2193, 2), "1,096.5"),
        ("es", Fraction(4, 3), "1,33"),
    ],
)
def test_a_pairs_wins_are_written_with_each_languages_decimal_point(app, language, value, written):
    with app.test_request_context(headers={"Accept-Language": language}):
        assert decimal(value) == written

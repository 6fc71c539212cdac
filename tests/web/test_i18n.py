"""English and Spanish: every string translated, Spanish pages, numbers as each language writes."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from flask.testing import FlaskClient

from scorekeeper import rules
from scorekeeper.rules.headings import HEADINGS

from .helpers import Actions

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
ES_PO = TRANSLATIONS / "es" / "LC_MESSAGES" / "messages.po"
ES_MO = TRANSLATIONS / "es" / "LC_MESSAGES" / "messages.mo"
KEYWORDS = {**DEFAULT_KEYWORDS, "N_": None, "P_": (1, 2), "C_": ((1, "c"), 2), "_l": None}
PLACEHOLDER = re.compile(r"%\(\w+\)s")
QUOTED = re.compile(r"“[^”]+”")

# The English a Spanish page must never show.
ENGLISH = (
    "Record hand",
    "First meld",
    "Save hand",
    "went out",
    "Scoreboard",
    "natural canasta",
    "Not a valid integer",
    "Number must be",
    "This field is required",
    "New game",
    "Preview",
)

# The classic game won by Us with 10,260 (cases/public/classic-game-won.json).
GAME_WON = {
    "variant": "classic",
    "options": {},
    "sides": [
        {"name": "Us", "players": 2, "start_score": 7800},
        {"name": "Them", "players": 2, "start_score": 8100},
    ],
    "hands": [
        {
            "ended_by": "going_out",
            "entries": [
                {
                    "went_out": True,
                    "sets": {"samba": 1, "natural_canasta": 1},
                    "melded_points": 260,
                },
                {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30},
            ],
        }
    ],
}


Msgid = tuple[str | None, str | tuple[str, ...]]
"""A message as extracted: its context (None without one) and its id."""


def extracted() -> set[Msgid]:
    """Every msgid in the code and templates, extracted as babel.cfg says (a plural one as the
    pair of its singular and plural), with its context."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg, str(ROOT / "babel.cfg"))
    found: set[Msgid] = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        str(ROOT), method_map, options_map, keywords=KEYWORDS
    ):
        if isinstance(message, tuple):
            found.add((context, tuple(m for m in message if m)))
        elif message:
            found.add((context, message))
    return found


def translated(catalog: Catalog, extracted: Msgid) -> bool:
    """Whether the catalog has Spanish for a msgid, in every plural form for a plural one."""
    context, msgid = extracted
    message = catalog.get(msgid[0] if isinstance(msgid, tuple) else msgid, context=context)
    if not message:
        return False
    if isinstance(msgid, tuple) and tuple(message.id) != msgid:
        return False
    strings = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return all(strings)


def spanish_po() -> Catalog:
    with ES_PO.open("rb") as po:
        return read_po(po)


def text_of(page: str) -> str:
    """What a person reads (or hears) on a page: its text and labels, without the markup."""
    labels = " ".join(re.findall(r'(?:aria-label|placeholder|title)="([^"]*)"', page))
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + labels)


def citations() -> list[str]:
    """Rule citations name sections of the source documents as they are written: the opening
    words they quote, and beside our Spanish name of a heading, the text's own."""
    cited = {str(s.cite(topic)) for s in rules.SYSTEMS.values() for topic in s.sections}
    cited |= {f"({heading})" for heading in HEADINGS} | {s.source for s in rules.SYSTEMS.values()}
    cited |= {
        quoted
        for s in rules.SYSTEMS.values()
        for quoted in QUOTED.findall(" ".join(s.sections.values()))
    }
    return sorted(cited, key=len, reverse=True)


def english_left(page: str) -> list[str]:
    """English phrases of the catalog (and the known ones) still on a Spanish page."""
    text = text_of(page)
    for cited in citations():
        text = text.replace(cited, " ")
    phrases = set(ENGLISH)
    for message in spanish_po():
        if (
            message.id
            and message.string != message.id
            and not PLACEHOLDER.search(str(message.id))
            and message.context != "heading"  # a text's heading, cited beside ours
        ):
            phrases.add(str(message.id))
    return sorted(p for p in phrases if re.search(rf"(?<!\w){re.escape(p)}(?!\w)", text))


@pytest.fixture
def es_client(client: FlaskClient) -> FlaskClient:
    client.environ_base["HTTP_ACCEPT_LANGUAGE"] = "es"
    return client


@pytest.fixture
def es_actions(es_client: FlaskClient) -> Actions:
    return Actions(es_client)


@pytest.mark.once  # the catalogs alone
def test_every_string_has_a_spanish_translation() -> None:
    catalog = spanish_po()
    messages = extracted()
    assert len(messages) > 100
    untranslated = [m[1] for m in sorted(messages, key=str) if not translated(catalog, m)]
    assert not untranslated, f"no Spanish for: {untranslated}"
    fuzzy = [str(m.id) for m in catalog if m.id and m.fuzzy]
    assert not fuzzy, f"fuzzy Spanish for: {fuzzy}"


@pytest.mark.once  # the catalogs alone
def test_translations_keep_their_placeholders() -> None:
    for message in spanish_po():
        if message.id:
            assert sorted(PLACEHOLDER.findall(str(message.string))) == sorted(
                PLACEHOLDER.findall(str(message.id))
            ), message.id


def plain(text: object) -> object:
    """A message's id or text comparable across readers: a plural one is a list in the .mo."""
    return tuple(text) if isinstance(text, list | tuple) else text


@pytest.mark.once  # the catalogs alone
def test_compiled_catalog_agrees_with_the_po() -> None:
    po = spanish_po()
    with ES_MO.open("rb") as mo_file:
        mo = read_mo(mo_file)
    wanted = {plain(m.id): plain(m.string) for m in po if m.id and m.string and not m.fuzzy}
    compiled = {plain(m.id): plain(m.string) for m in mo if m.id}
    assert compiled == wanted, "run: pybabel compile -d scorekeeper/translations"


def test_spanish_pages_have_no_english(es_client: FlaskClient, es_actions: Actions) -> None:
    pages = {
        url: es_client.get(url)
        for url in (
            "/",
            "/games/new",
            "/games/new?system=classic",
            "/games/new?system=classic&table=2x2",
            "/games/new?system=fournier&table=2x2",
            "/games/new?system=super-samba",
            "/games/import",
            "/settings",
            "/restore",
        )
    }
    game_id = es_actions.new_game(names=("Ana", "Luis"))
    pages["scoreboard"] = es_client.get(f"/games/{game_id}")
    pages["hand form"] = es_client.get(f"/games/{game_id}/hands/new")
    refused = es_actions.post_hand(game_id, [{"melded_points": "0"}, {"melded_points": "0"}])
    assert refused.status_code == 422
    pages["refused hand"] = refused
    for url, response in pages.items():
        assert response.status_code in (200, 422), url
        assert '<html lang="es">' in response.text, url
        assert english_left(response.text) == [], url

    assert "Anotar la mano 1" in pages["scoreboard"].text
    assert "Primera salida" in pages["hand form"].text
    assert "Canasta limpia" in pages["hand form"].text
    assert "Guardar la mano" in pages["hand form"].text
    assert "Cierre: Ana" in pages["refused hand"].text
    assert "Esta mano no se ha guardado." in pages["refused hand"].text


def test_form_messages_of_wtforms_are_spanish(es_client: FlaskClient, es_actions: Actions) -> None:
    names = es_client.post(
        "/games/new?system=classic&table=2x2",
        data={"side_list-0-name": "", "side_list-1-name": "Luis", "side_list-0-start_score": "x"},
    )
    assert "Este campo es obligatorio." in names.text
    assert "No es un valor entero válido." in names.text
    assert english_left(names.text) == []

    game_id = es_actions.new_game(names=("Ana", "Luis"))
    response = es_actions.post_hand(game_id, [{"melded_points": "abc"}, {"hand_points": "-5"}])
    assert response.status_code == 422
    assert "No es un valor entero válido." in response.text
    assert "El número debe estar entre 0 y 99999." in response.text
    assert english_left(response.text) == []
    no_ending = es_client.post(f"/games/{game_id}/hands/new", data={"sides-0-melded_points": "0"})
    assert "Elige quién cerró, o que nadie cerró." in no_ending.text


@pytest.mark.parametrize(("language", "written"), [("en", "10,260"), ("es", "10.260")])
def test_numbers_follow_the_language(client: FlaskClient, language: str, written: str) -> None:
    created = client.post("/games/import", json=GAME_WON)
    assert created.status_code == 201, created.text
    page = client.get(created.headers["Location"], headers={"Accept-Language": language}).text
    assert written in text_of(page)
    winner = "Us won with 10,260." if language == "en" else "Victoria de Us con 10.260."
    assert winner in text_of(page)


def test_english_is_the_default(client: FlaskClient) -> None:
    page = client.get("/").text
    assert '<html lang="en">' in page
    assert "New game" in page


def test_the_language_switch_is_remembered(client: FlaskClient) -> None:
    response = client.post("/language", data={"lang": "es", "next": "/games/new"})
    assert response.status_code == 302
    assert response.headers["Location"] == "/games/new"
    assert "lang=es" in response.headers["Set-Cookie"]
    page = client.get("/games/new").text
    assert '<html lang="es">' in page
    assert "¿A qué Samba jugáis?" in page
    assert english_left(page) == []

    client.post("/language", data={"lang": "en"})
    assert "Which Samba do you play?" in client.get("/games/new").text


def test_the_chosen_language_beats_the_browser(client: FlaskClient) -> None:
    client.post("/language", data={"lang": "en"})
    page = client.get("/", headers={"Accept-Language": "es"}).text
    assert '<html lang="en">' in page


def test_an_error_page_speaks_the_pages_language(es_client: FlaskClient) -> None:
    response = es_client.get("/games/no-such-game")
    assert response.status_code == 404
    assert "Aquí no hay tal página ni partida." in response.text
    assert "requested URL" not in response.text

"""A season's pages (issue 38): the director sets it up and changes it, its standings have
their own link and QR, its results come as CSV in the page's language, and a refusal says what
was wrong next to it, with everything typed still there."""

from __future__ import annotations

import csv
import io
import re

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import select

from scorekeeper.web.extensions import db
from scorekeeper.web.services import seasons as service
from scorekeeper.web.services.ratings import rating_of
from scorekeeper.web.store.models import Night
from scorekeeper.web.store.seasons import Season

from .apps import statements
from .nights import FIRST, SECOND, play_night, seated
from .seasons import season_form, set_up_season, standings_url


def test_a_season_set_up_on_its_page_shows_its_standings_with_link_and_qr(
    client: FlaskClient,
) -> None:
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    season_id = set_up_season(client, first, second)
    url = standings_url(client, season_id)
    page = client.get(url).text
    assert "Ranked by points by place" in page and "<svg" in page
    rows = re.findall(r'<tr data-player="([^"]+)" data-place="(\d*)" data-figure="([^"]+)" '
                      r'data-nights="(\d+)"', page)  # fmt: skip
    assert len(rows) == 8 and {nights for *_, nights in rows} == {"2"}
    assert re.search(r'<tr data-pair="eva\|fede" [^>]*data-nights="2"', page)
    assert '<a href="/players/ana">Ana</a>' in page  # each player's page, from the season
    listed = client.get("/seasons").text
    assert "Spring" in listed and url in listed


def test_the_results_come_as_csv_in_the_pages_language(client: FlaskClient) -> None:
    first = play_night(client, FIRST, "First")
    season_id = set_up_season(client, first)
    url = standings_url(client, season_id)
    english = list(csv.reader(io.StringIO(client.get(f"{url}/results.csv").text)))
    assert english[0] == ["Place", "Player", "Nights", "Season", "Rating", "±", "First"]
    assert len(english) == 9 and {row[2] for row in english[1:]} == {"1"}
    spanish = client.get(f"{url}/results.csv", headers={"Accept-Language": "es"}).text
    assert spanish.splitlines()[0] == "Puesto,Jugador,Noches,Temporada,Valoración,±,First"


def test_a_refused_season_says_why_next_to_the_field_and_keeps_what_was_typed(
    client: FlaskClient, app: Flask
) -> None:
    first = play_night(client, FIRST, "First")
    set_up_season(client, first, name="Spring")
    response = client.post(
        "/seasons/new", data=season_form(client, name="Summer", best="3", nights=[first])
    )
    assert response.status_code == 422
    assert "The best 3 nights cannot count in a season of 1 nights." in response.text
    assert 'value="Summer"' in response.text and 'value="3"' in response.text
    response = client.post("/seasons/new", data=season_form(client, name="Summer", nights=[first]))
    assert response.status_code == 422
    assert "First already counts in the season Spring" in response.text
    with app.app_context():
        assert db.session.scalars(select(Season.name)).all() == ["Spring"]


def test_a_season_changed_and_deleted_keeps_its_nights(client: FlaskClient, app: Flask) -> None:
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    season_id = set_up_season(client, first)
    changed = season_form(client, name="Spring", measure="wins", nights=[first, second])
    assert client.post(f"/seasons/{season_id}/edit", data=changed).status_code == 302
    page = client.get(standings_url(client, season_id)).text
    assert "Ranked by wins" in page and "Second" in page
    assert client.post(f"/seasons/{season_id}/delete").status_code == 302
    with app.app_context():
        assert db.session.scalars(select(Season)).all() == []
        assert {n.season_id for n in db.session.scalars(select(Night))} == {None}
    assert client.get(f"/seasons/{season_id}/edit").status_code == 404


def test_a_players_page_shows_their_rating_with_its_spread_and_how_it_is_computed(
    client: FlaskClient,
) -> None:
    assert 'id="rating"' not in client.get("/players/ana").text  # no game yet: no page at all
    play_night(client, FIRST, "First")
    page = client.get("/players/ana").text
    found = re.search(
        r'class="rating-figure" data-pool="all" data-mu="([^"]+)" data-sigma="([^"]+)"'
        r' data-games="1"',
        page,
    )
    assert found
    mu, sigma = float(found[1]), float(found[2])
    shown = re.search(r"<strong>([\d.]+) ± ([\d.]+)</strong>", page)
    assert shown and "OpenSkill" in page
    assert abs(float(shown[1]) - mu) < 0.05 and abs(float(shown[2]) - 3 * sigma) < 0.05
    spanish = client.get("/players/ana", headers={"Accept-Language": "es"}).text
    assert "Valoración" in spanish and "de 1 partida valorada" in spanish
    # The club counts every system together (its choice, by default): one rating, whatever
    # system the page is about.
    assert 'data-pool="all"' in client.get("/players/ana?system=denexa").text


def test_a_players_page_lists_every_night_they_played_with_partner_and_place(
    client: FlaskClient, app: Flask
) -> None:
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    page = client.get("/players/ana").text
    rows = re.findall(r'<tr data-night="([^"]+)" data-place="(\d+)" data-partner="([^"]+)"', page)
    assert [(night, partner) for night, _place, partner in rows] == [
        (first, "beto"),
        (second, "carla"),
    ]
    with app.app_context():
        winners = {
            night: {seats[1][0], seats[2][1]}
            for night, seats in ((n, seated(app, n)) for n in (first, second))
        }
    ana_pair = {first: 1, second: 1}  # Ana is pair 1 both nights
    for night, place, _partner in rows:
        assert (place == "1") is (ana_pair[night] in winners[night])
    assert "Noche" in client.get("/players/ana", headers={"Accept-Language": "es"}).text


def test_the_results_come_as_text_in_english_and_spanish(client: FlaskClient) -> None:
    first = play_night(client, FIRST, "First")
    url = standings_url(client, set_up_season(client, first))
    english = client.get(f"{url}/results.txt")
    assert english.headers["Content-Disposition"] == "attachment; filename=season.txt"
    lines = english.text.splitlines()
    assert lines[0] == "Spring" and lines[1].startswith("Ranked by points by place")
    assert lines[2] == "N1: First"
    assert re.search(
        r"^1\. Ana: 3\.5 — 1 night \(N1 3\.5\) — Rating [\d.]+ ± [\d.]+$", english.text, re.M
    )
    spanish = client.get(f"{url}/results.txt", headers={"Accept-Language": "es"}).text
    assert "Parejas que siguieron juntas" in spanish
    assert re.search(
        r"^1\. Ana: 3,5 — 1 noche \(N1 3,5\) — Valoración [\d,]+ ± [\d,]+$", spanish, re.M
    )


def test_a_season_ranked_by_rating_places_by_the_ratings_kept_and_shows_pairs_ratings(
    client: FlaskClient, app: Flask
) -> None:
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    refused = client.post(
        "/seasons/new", data=season_form(client, nights=[first], measure="rating", best="1")
    )
    assert refused.status_code == 422
    assert "A season ranked by rating counts every night" in refused.text
    assert 'value="1"' in refused.text  # what was typed stays
    season_id = set_up_season(client, first, second, measure="rating", minimum="2")
    page = client.get(standings_url(client, season_id)).text
    assert "Ranked by rating" in page and "every system's games together" in page
    with app.app_context():
        ordinals = {
            name.casefold(): rating_of((name.casefold(), "")) for pair in FIRST for name in pair
        }
        eva_fede = rating_of(("eva", "fede"))
    rows = re.findall(r'data-player="([^"]+)" data-place="(\d*)" data-figure="([^"]+)"', page)
    assert [key for key, _, _ in rows] == sorted(
        ordinals,
        key=lambda k: (-ordinals[k].ordinal, k),  # type: ignore[union-attr]
    )
    assert all(place for _, place, _ in rows)  # every player played both nights
    # Eva and Fede stayed together: their pair's rating, with its ±, ranks them as a pair.
    pair = re.search(r'data-pair="eva\|fede" data-place="(\d+)".*?data-mu="([^"]+)"', page, re.S)
    assert pair and eva_fede is not None and float(pair[2]) == eva_fede.mu
    assert f"{eva_fede.mu:.1f} ± {eva_fede.spread:.1f}" in page
    # A pair together one night only is not listed among the pairs (its players are).
    assert 'data-pair="ana|beto"' not in page and 'data-player="ana"' in page


def test_the_standings_and_a_players_page_ask_as_much_for_three_nights_as_for_one(
    client: FlaskClient, app: Flask
) -> None:
    # Five years of a club are 250 nights: a page that asked once per night would not hold them
    # (benchmarks/season.py times them).
    season_id = set_up_season(client, play_night(client, FIRST, "First"))
    pages = [standings_url(client, season_id), "/players/ana", "/players/ana?system=classic"]

    def counted() -> list[int]:
        counts = []
        for page in pages:
            client.get(page)  # once before counting: what is kept in memory is kept now
            with statements(app) as seen:
                assert client.get(page).status_code == 200
            counts.append(len(seen))
        return counts

    one = counted()
    later = [play_night(client, SECOND, "Second"), play_night(client, FIRST, "Third")]
    with app.app_context():
        for night_id in later:
            service.add_night(season_id, night_id)
    assert counted() == one


def as_text(cell: str) -> str:
    """A figure of the CSV (3.50, [1.50]) as the text writes it in English (3.5, [1.5])."""
    written = f"{float(cell.strip('[]')):g}"
    return written if cell == cell.strip("[]") else f"[{written}]"


def test_the_results_give_each_rating_and_bracket_the_nights_that_do_not_count(
    client: FlaskClient, app: Flask
) -> None:
    """As the page shows them: the rating beside each player, and the nights past the best N
    struck through (in brackets in the CSV and the text)."""
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    url = standings_url(client, set_up_season(client, first, second, best="1"))
    rows = list(csv.reader(io.StringIO(client.get(f"{url}/results.csv").text)))
    assert rows[0][4:] == ["Rating", "±", "First", "Second"]
    text = client.get(f"{url}/results.txt").text
    assert "In brackets: a night that is not among the best that count." in text
    for place, name, played, figure, middle, spread, *nights in rows[1:]:
        assert played == "2"  # everyone played both nights: one counts, the best
        counted = [night for night in nights if not night.startswith("[")]
        left_out = [night.strip("[]") for night in nights if night.startswith("[")]
        assert len(counted) == len(left_out) == 1 and float(counted[0]) >= float(left_out[0])
        assert figure == counted[0]
        with app.app_context():
            rating = rating_of((name.lower(), ""))
        assert rating and (middle, spread) == (f"{rating.mu:.1f}", f"{rating.spread:.1f}")
        said = ", ".join(f"N{n} {as_text(night)}" for n, night in enumerate(nights, 1))
        line = f"{place}. {name}: {as_text(figure)} — 2 nights ({said})"
        assert f"{line} — Rating {middle} ± {spread}\n" in text
    spanish = client.get(f"{url}/results.txt", headers={"Accept-Language": "es"}).text
    assert "Entre corchetes: una noche que no está entre las mejores que cuentan." in spanish
    assert re.search(
        r"^1\. \w+: 3,5 — 2 noches \(N1 \[?3,5\]?, N2 \[?[\d,]+\]?\) — Valoración", spanish, re.M
    )


def test_the_page_strikes_through_the_nights_the_csv_brackets(client: FlaskClient) -> None:
    """Each player's nights on the page are the CSV's, a figure struck through where the CSV
    brackets it: also where one figure counts in one row and not in another (the page writes
    each different figure once for all its rows)."""
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    url = standings_url(client, set_up_season(client, first, second, best="1"))
    rows = list(csv.reader(io.StringIO(client.get(f"{url}/results.csv").text)))[1:]
    drawn = re.findall(r"<tr data-player=.*?</tr>", client.get(url).text, re.S)
    assert len(drawn) == len(rows) > 1
    seen: dict[bool, set[float]] = {True: set(), False: set()}  # struck: figures
    for row, html in zip(rows, drawn, strict=True):
        cells = re.findall(r'<td class="num round">(.*?)</td>', html)
        shown = [(cell.startswith("<s>"), float(cell.strip("</s>"))) for cell in cells]
        assert shown == [(n.startswith("["), float(n.strip("[]"))) for n in row[6:]], row
        line = re.findall(r"<span>N\d+&nbsp;(.*?)</span>", html)  # under the name, on a phone
        assert [(cell.startswith("<s>"), float(cell.strip("</s>"))) for cell in line] == shown
        for struck, figure in shown:
            seen[struck].add(figure)
    assert seen[True] & seen[False]  # a figure both struck and not: the case that could go wrong

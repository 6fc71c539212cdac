"""A night added to a season (issue 38, point 1): when it is set up (the set-up form offers the
seasons, none chosen unless the director chooses one; a full one shown and why), or afterwards
on the season's page, which also takes one out; and what cannot be done refused next to its
field, with everything typed still there and nothing changed."""

from __future__ import annotations

import re
from pathlib import Path

from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import func, select

from scorekeeper.nights import Rule
from scorekeeper.web.extensions import db
from scorekeeper.web.services import seasons as service
from scorekeeper.web.services.seasons import SeasonPlan
from scorekeeper.web.store.models import Night

from .apps import TEST_CONFIG, built_app, database_url
from .nights import FIRST, SECOND, night_form, play_night
from .races import together


def season(app: Flask, name: str, *nights: str, planned: int | None = None) -> str:
    with app.app_context():
        return service.set_up_season(SeasonPlan(name, Rule(), nights, planned), name)


def nights_of(app: Flask, season_id: str) -> list[str]:
    with app.app_context():
        return [night.name for night in service.season_nights(season_id)]


def night_count(app: Flask) -> int:
    with app.app_context():
        return int(db.session.scalar(select(func.count()).select_from(Night)) or 0)


def set_up_in(client: FlaskClient, season_id: str, name: str) -> object:
    form = night_form(FIRST, name=name, season=season_id, round_count="1")
    return client.post(f"/nights/new?pairs={len(FIRST)}", data=form)


def test_the_set_up_form_offers_the_seasons_none_chosen_and_a_full_one_not_at_all(
    app: Flask, client: FlaskClient
) -> None:
    assert 'name="season"' not in client.get("/nights/new?pairs=4").text  # no season yet
    first = play_night(client, FIRST, "First")
    open_id = season(app, "Spring", planned=2)
    full_id = season(app, "Winter", first, planned=1)
    page = client.get("/nights/new?pairs=4").text
    assert re.search(r'<input checked id="season-0" name="season" type="radio" value="">', page)
    assert f'value="{open_id}"> Spring (0 of 2 nights)' in page
    full = re.search(rf'<input[^>]* value="{full_id}">', page)
    assert full and "disabled" in full[0] and "checked" not in full[0]
    assert "Winter: full, it has its 1 night" in page
    assert "change its number of nights on its page" in page
    spanish = client.get("/nights/new?pairs=4", headers={"Accept-Language": "es"}).text
    assert "Spring (0 de 2 noches)" in spanish and "Temporada en que cuenta" in spanish


def test_a_night_set_up_in_a_season_counts_in_it_and_in_its_standings(
    app: Flask, client: FlaskClient
) -> None:
    season_id = season(app, "Spring", planned=2)
    made = set_up_in(client, season_id, "Tuesday")
    assert made.status_code == 302  # type: ignore[attr-defined]
    assert nights_of(app, season_id) == ["Tuesday"]
    without = client.post("/nights/new?pairs=4", data=night_form(FIRST, round_count="1"))
    assert without.status_code == 302  # none chosen: in no season
    assert nights_of(app, season_id) == ["Tuesday"]


def test_a_full_season_refuses_the_night_next_to_its_field_keeping_what_was_typed(
    app: Flask, client: FlaskClient
) -> None:
    """As when another director set up its last night while this form was open."""
    season_id = season(app, "Spring", planned=1)
    assert set_up_in(client, season_id, "First").status_code == 302  # type: ignore[attr-defined]
    before = night_count(app)
    refused = set_up_in(client, season_id, "Second")
    text = refused.text  # type: ignore[attr-defined]
    assert refused.status_code == 422  # type: ignore[attr-defined]
    errors = re.search(r'<ul class="errors" id="season-errors"><li>([^<]+)</li>', text)
    assert errors and errors[1].startswith("Spring has its 1 night already")
    assert 'value="Second"' in text and 'value="Carla"' in text  # what was typed
    assert night_count(app) == before and nights_of(app, season_id) == ["First"]
    with app.app_context():
        assert service.delete_season(season_id)
    gone = set_up_in(client, season_id, "Third")
    assert gone.status_code == 422  # type: ignore[attr-defined]
    assert "That season is no longer there: choose again." in gone.text  # type: ignore[attr-defined]
    assert night_count(app) == before


def test_two_nights_set_up_at_once_for_a_seasons_last_place_one_is_refused(
    tmp_path: Path,
) -> None:
    """On a database file (or PostgreSQL), so that the two requests each have a connection."""
    app = built_app({**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "s.db")})
    season_id = season(app, "Spring", planned=1)
    phones = [app.test_client(), app.test_client()]
    answers = together(
        [
            lambda phone=phone, name=name: set_up_in(phone, season_id, name)
            for phone, name in zip(phones, ("Left", "Right"), strict=True)
        ]
    )
    assert sorted(a.status_code for a in answers) == [302, 422]
    assert len(nights_of(app, season_id)) == 1 and night_count(app) == 1


def edit_form(client: FlaskClient, season_id: str, **fields: object) -> dict[str, object]:
    page = client.get(f"/seasons/{season_id}/edit").text
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', page)
    assert token
    return {"name": "Spring", "measure": "places", "minimum": "1", "token": token[1], **fields}


def test_the_season_page_adds_a_night_afterwards_and_takes_one_out(
    app: Flask, client: FlaskClient
) -> None:
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    season_id = season(app, "Spring", first)
    added = client.post(f"/seasons/{season_id}/edit", data=edit_form(
        client, season_id, nights=[first, second]))  # fmt: skip
    assert added.status_code == 302 and nights_of(app, season_id) == ["First", "Second"]
    out = client.post(f"/seasons/{season_id}/edit", data=edit_form(
        client, season_id, nights=[second]))  # fmt: skip
    assert out.status_code == 302 and nights_of(app, season_id) == ["Second"]
    with app.app_context():
        assert db.session.get(Night, first).season_id is None  # type: ignore[union-attr]


def test_a_night_of_another_season_added_on_the_season_page_is_refused_changing_nothing(
    app: Flask, client: FlaskClient
) -> None:
    first, second = play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")
    spring = season(app, "Spring", first)
    summer = season(app, "Summer", second)
    sent = edit_form(client, summer, name="Summer renamed", nights=[second, first])
    refused = client.post(f"/seasons/{summer}/edit", data=sent)
    assert refused.status_code == 422
    errors = re.search(r'<ul class="errors" id="nights-errors"><li>([^<]+)</li>', refused.text)
    assert errors and errors[1] == (
        "First already counts in the season Spring: a night counts in one season."
    )
    assert 'value="Summer renamed"' in refused.text  # what was typed
    assert re.search(rf'<input checked id="nights-\d" name="nights" type="checkbox" '
                     rf'value="{first}">', refused.text)  # fmt: skip
    assert nights_of(app, spring) == ["First"] and nights_of(app, summer) == ["Second"]
    with app.app_context():
        assert service.season_of(summer).name == "Summer"


def test_more_nights_ticked_than_the_season_is_to_have_are_refused_next_to_them(
    app: Flask, client: FlaskClient
) -> None:
    made = [
        client.post("/nights/new?pairs=4", data=night_form(FIRST, name=name, round_count="1"))
        for name in ("First", "Second", "Third")
    ]
    first, second, third = [answer.headers["Location"].split("/")[2] for answer in made]
    season_id = season(app, "Spring", first, planned=2)
    sent = edit_form(client, season_id, name="Spring renamed", planned="2",
                     nights=[first, second, third])  # fmt: skip
    for language, said in (
        ("en", "3 nights chosen for a season of 2 nights: choose fewer, or give it more nights"),
        ("es", "3 noches elegidas para una temporada de 2 noches: elige menos, o dale más"),
    ):
        refused = client.post(
            f"/seasons/{season_id}/edit", data=sent, headers={"Accept-Language": language}
        )
        assert refused.status_code == 422
        errors = re.search(r'<ul class="errors" id="nights-errors"><li>([^<]+)</li>', refused.text)
        assert errors and errors[1].startswith(said), errors
        assert 'value="Spring renamed"' in refused.text  # what was typed
        for night_id in (first, second, third):
            assert re.search(rf'<input checked id="nights-\d" name="nights" type="checkbox" '
                             rf'value="{night_id}">', refused.text)  # fmt: skip
    assert nights_of(app, season_id) == ["First"]
    with app.app_context():
        assert service.season_of(season_id).name == "Spring"
    sent["planned"] = "3"  # given more nights in the same form: saved
    assert client.post(f"/seasons/{season_id}/edit", data=sent).status_code == 302
    assert nights_of(app, season_id) == ["First", "Second", "Third"]

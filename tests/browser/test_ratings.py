"""A player's rating over time and a season ranked by rating, on a phone of 360 px: the chart is
drawn on the server, says its values in words, and neither page scrolls
sideways or has anything axe-core finds wrong, in English and Spanish."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.web.nights import FIRST, SECOND, play_night

from .helpers import axe_violations, browser_app, new_page, serving


@pytest.mark.parametrize("language", ["en-US", "es"])
def test_the_rating_chart_and_a_season_by_rating_read_on_a_small_phone(
    browser: Any, axe: str, tmp_path: Path, language: str
) -> None:
    app = browser_app(tmp_path, WTF_CSRF_ENABLED=False)
    client = app.test_client()
    nights = [play_night(client, FIRST, "First"), play_night(client, SECOND, "Second")]
    form = client.get("/seasons/new").text
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', form)
    assert token
    sent = {"name": "Spring", "measure": "rating", "minimum": "1", "token": token[1]}
    made = client.post("/seasons/new", data={**sent, "nights": nights})
    edit = client.get(made.headers["Location"]).text
    link = re.search(r'id="season-standings" href="http://[^/]+([^"]+)"', edit)
    assert link
    server = serving(app)
    base = next(server)
    page = new_page(browser, "360x740", language=language)
    try:
        for address in ("/players/ana", link[1]):
            page.goto(base + address)
            assert page.evaluate("document.documentElement.scrollWidth") <= 360, address
            assert axe_violations(page, axe) == [], address
        page.goto(base + "/players/ana")
        chart = page.locator("#rating svg.chart")
        assert chart.is_visible() and chart.bounding_box()["width"] <= 360
        said = page.locator("#rating-chart-desc").text_content() or ""
        assert said.count(";") == 1 and ("Rating" in said or "Valoración" in said)
        page.goto(base + link[1])
        assert page.locator("tr[data-pair] td.rating[data-mu]").count() >= 2
    finally:
        page.context.close()
        next(server, None)

"""A club's season through the test client, as its director sets it up: the set-up form as its
page sends it, a season made from nights, and the link of its standings."""

from __future__ import annotations

import re

from flask.testing import FlaskClient


def season_form(client: FlaskClient, **fields: object) -> dict[str, object]:
    page = client.get("/seasons/new").text
    token = re.search(r'name="token" type="hidden" value="([^"]+)"', page)
    assert token
    return {"name": "Spring", "measure": "places", "minimum": "1", "token": token[1], **fields}


def set_up_season(client: FlaskClient, *nights: str, **fields: object) -> str:
    response = client.post("/seasons/new", data=season_form(client, nights=list(nights), **fields))
    assert response.status_code == 302, response.text
    return response.headers["Location"].split("/")[2]


def standings_url(client: FlaskClient, season_id: str) -> str:
    found = re.search(
        r'id="season-standings" href="http://[^/]+([^"]+)"',
        client.get(f"/seasons/{season_id}/edit").text,
    )
    assert found
    return found[1]

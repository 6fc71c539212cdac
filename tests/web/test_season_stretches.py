"""A season of more nights than its page shows at once (issue 38, five years of a club): the page
shows each night's figure for ten nights at a time, the latest, and links to the others
(`?from=`), so that a year's season is not a page of 1 MB; the CSV has every night."""

from __future__ import annotations

import csv
import io
import re

from flask.testing import FlaskClient

from .nights import FIRST, play_night, set_up
from .seasons import set_up_season, standings_url


def heads(page: str) -> list[str]:
    """The nights heading the players' columns."""
    table = page.split('id="season-players"')[1].split("</thead>")[0]
    return re.findall(r'<th scope="col" class="num round">([^<]+)</th>', table)


def cells(page: str, key: str) -> list[str]:
    """A player's figure of each night shown, as the table's cells."""
    row = page.split(f'<tr data-player="{key}"')[1].split("</tr>")[0]
    return re.findall(r'<td class="num round">(.*?)</td>', row)


def test_a_season_of_many_nights_shows_ten_at_a_time_and_links_to_the_others(
    client: FlaskClient,
) -> None:
    played = play_night(client, FIRST, "Night 1")
    later = [set_up(client, FIRST, name=f"Night {n}", round_count="1") for n in range(2, 13)]
    url = standings_url(client, set_up_season(client, played, *later))

    latest = client.get(url).text
    assert heads(latest) == [f"Night {number}" for number in range(3, 13)]
    assert cells(latest, "ana") == ["–"] * 10  # not played (yet)
    assert "N3&nbsp;" not in latest and "<span>N3: Night 3</span>" in latest
    links = re.findall(r'<a href="([^"]+)">(N\d+–N\d+)</a>', latest)
    assert links == [(f"{url}?from=1", "N1–N10")]
    assert '<strong aria-current="page">N3–N12</strong>' in latest

    first = client.get(f"{url}?from=1").text
    assert heads(first) == [f"Night {number}" for number in range(1, 11)]
    figure = re.search(r'<tr data-player="ana" data-place="\d+" data-figure="([^"]+)"', first)
    assert figure and cells(first, "ana") == [figure[1], *["–"] * 9]
    assert f"N1&nbsp;{figure[1]}" in first  # the phone's line under the name
    assert re.findall(r'<a href="([^"]+)">(N\d+–N\d+)</a>', first) == [(url, "N3–N12")]

    # Past the last night (as after nights were taken out of the season): the latest.
    assert heads(client.get(f"{url}?from=12").text) == heads(latest)
    for wrong in ("0", "-1", "abc", "1.5", "", "²", str(10**30)):
        assert client.get(url, query_string={"from": wrong}).status_code == 404, wrong

    every = list(csv.reader(io.StringIO(client.get(f"{url}/results.csv").text)))
    assert every[0][-12:] == [f"Night {number}" for number in range(1, 13)]

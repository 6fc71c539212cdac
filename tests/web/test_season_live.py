"""A season's standings follow its nights as they are played (issue 38, point 2): their pages
come in through the door by the season's link, with a revision made of the season's and its
nights' (`store.seasons.season_revision`), so a phone whose copy is current gets a 304 and one
whose copy is not gets the standings as they are now; and the season's event stream names a
new revision when a game is saved at a table of one of its nights, a round starts or ends, or
the season changes."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.nights import Measure, Rule
from scorekeeper.web.presenters import parts
from scorekeeper.web.services import keeping, outcomes, players, push
from scorekeeper.web.services import seasons as service
from scorekeeper.web.services.seasons import SeasonPlan

from .apps import TEST_CONFIG, built_app, database_url, statements
from .helpers import GOES_OUT, STAYS_IN, Actions, without_tokens
from .nights import FIRST, SECOND, cards, end, play_night, set_up, start, table_game
from .streams import Stream


def season_of(app: Flask, *night_ids: str) -> tuple[str, str]:
    """A season of these nights: its id and its standings' address."""
    with app.app_context():
        season_id = service.set_up_season(SeasonPlan("Spring", Rule(), night_ids), "t")
        return season_id, f"/season/{service.season_of(season_id).follow_token}"


def night_in_play(client: FlaskClient, pairs: list[tuple[str, str]], name: str) -> str:
    """A night of two rounds whose first is being played."""
    night_id = set_up(client, pairs, name=name, round_count="2", round_hands="2")
    start(client, night_id, 1)
    return night_id


def game_at(client: FlaskClient, night_id: str, table: int) -> str:
    found = table_game(client, cards(client, night_id)[table])
    assert found is not None
    return found


def unchanged(client: FlaskClient, url: str, etag: str) -> bool:
    return client.get(url, headers={"If-None-Match": etag}).status_code == 304


def test_the_season_standings_answer_304_until_a_game_of_one_of_its_nights_is_saved(
    app: Flask, client: FlaskClient
) -> None:
    night_id = night_in_play(client, FIRST, "First")
    season_id, url = season_of(app, night_id)
    first = client.get(url)
    etag = first.headers["ETag"]
    assert first.status_code == 200 and etag.startswith(f'W/"season:{season_id}.')
    with statements(app) as seen:
        assert unchanged(client, url, etag)
    assert len(seen) <= 2, seen  # the door's one read (a peek and its BEGIN on PostgreSQL)
    for page in ("/results.csv", "/results.txt"):
        assert unchanged(client, url + page, client.get(url + page).headers["ETag"])

    elsewhere = night_in_play(client, SECOND, "Not in the season")
    Actions(client).record_hand(game_at(client, elsewhere, 1), [GOES_OUT, STAYS_IN])
    assert unchanged(client, url, etag)  # a night of no season changes nothing here

    Actions(client).record_hand(game_at(client, night_id, 1), [GOES_OUT, STAYS_IN])
    saved = client.get(url, headers={"If-None-Match": etag})
    assert saved.status_code == 200 and saved.headers["ETag"] != etag
    assert saved.text != first.text  # the new result is there
    assert f'data-revision="{revision_in(saved.text)}"' in saved.text


def test_the_season_standings_are_drawn_once_per_revision_whoever_asks(
    app: Flask, client: FlaskClient
) -> None:
    """A year's season is a large page: a second phone (no ETag) gets the drawing the first
    made, reading only what the door reads; a phone that asks at another address gets its
    own link and QR; a saved game draws it again."""
    night_id = night_in_play(client, FIRST, "First")
    _season_id, url = season_of(app, night_id)
    first = client.get(url)
    with statements(app) as seen:
        again = app.test_client().get(url)
    assert without_tokens(again.text) == without_tokens(first.text)  # but for its CSRF token
    assert len(seen) <= 2, seen  # the door's one read (a peek and its BEGIN on PostgreSQL)
    for results in (url + "/results.csv", url + "/results.txt"):
        written = client.get(results).text
        with statements(app) as seen:
            assert app.test_client().get(results).text == written
        assert len(seen) <= 2, (results, seen)
    elsewhere = app.test_client().get(url, base_url="http://192.168.1.20:5000")
    assert "http://192.168.1.20:5000/season/" in elsewhere.text
    assert "http://localhost/season/" not in elsewhere.text
    Actions(client).record_hand(game_at(client, night_id, 1), [GOES_OUT, STAYS_IN])
    with statements(app) as seen:
        saved = app.test_client().get(url)
    assert saved.text != first.text and len(seen) > 2


def revision_in(page: str) -> str:
    found = re.search(r'id="following" hidden data-stream="[^"]+" data-revision="([^"]+)"', page)
    assert found
    return found[1]


@pytest.mark.parametrize(
    "change",
    ["round ended", "season renamed", "night taken out", "player renamed"],
)
def test_every_change_to_what_the_season_shows_gives_it_another_revision(
    app: Flask, client: FlaskClient, change: str
) -> None:
    night_id = night_in_play(client, FIRST, "First")
    Actions(client).record_hand(game_at(client, night_id, 1), [GOES_OUT, STAYS_IN])
    season_id, url = season_of(app, night_id)
    etag = client.get(url).headers["ETag"]
    if change == "round ended":
        end(client, night_id, 1)
    else:
        with app.app_context():
            if change == "player renamed":
                players.rename_player("ana", "Anabel")
            else:
                kept = () if change == "night taken out" else (night_id,)
                service.change_season(season_id, SeasonPlan("Summer", Rule(), kept))
    assert not unchanged(client, url, etag)


def test_a_night_in_play_names_its_players_as_spelled_beside_a_night_kept(
    app: Flask, client: FlaskClient
) -> None:
    """A night in play is worked out from its tables, its pairs' names read apart from those of
    a night whose outcome rows are kept (read with them): both show the names as spelled."""
    over = play_night(client, SECOND, "Over")
    playing = night_in_play(client, [("Iris", "Juan"), *FIRST[1:]], "Playing")
    Actions(client).record_hand(game_at(client, playing, 1), [GOES_OUT, STAYS_IN])
    season_id, url = season_of(app, over, playing)
    with app.app_context():
        assert over in outcomes._kept_reads(service.season_nights(season_id))
        assert playing not in outcomes._kept_reads(service.season_nights(season_id))
    page = client.get(url).text
    for name in ("Ana", "Iris", "Juan", "Eva"):
        assert f"{name}</a>" in page, name  # not its key (ana)


def nights_read(app: Flask) -> int:
    """How many nights' reads this app's season pages have read so far (not found kept)."""
    kept: keeping.Keeping[tuple[str, str], outcomes.SeasonRead] = app.extensions[outcomes.EXTENSION]
    return kept.misses


@pytest.mark.parametrize("change", ["hand saved", "round ended", "player renamed", "rule changed"])
def test_a_season_drawn_again_after_a_change_reads_only_its_night_and_shows_it_at_once(
    app: Flask, client: FlaskClient, change: str
) -> None:
    """Each night's read is kept in the process under its revision (services/outcomes.py):
    the standings drawn after one of its nights changed read that night alone, and are what a
    process that kept nothing draws."""
    ended = play_night(client, SECOND, "Before")
    playing = night_in_play(client, FIRST, "Now")
    Actions(client).record_hand(game_at(client, playing, 1), [GOES_OUT, STAYS_IN])
    season_id, url = season_of(app, ended, playing)
    before = client.get(url).text
    assert nights_read(app) == 2
    if change == "hand saved":
        Actions(client).record_hand(
            game_at(client, playing, 2), [STAYS_IN, GOES_OUT], ending="out-1"
        )
    elif change == "round ended":
        end(client, playing, 1)
    elif change == "player renamed":
        with app.app_context():
            players.rename_player("carla", "Carlota")  # of both nights
    else:  # no night changed: what each gives by the new rule
        with app.app_context():
            plan = SeasonPlan("Spring", Rule(Measure.WINS), (ended, playing))
            service.change_season(season_id, plan)
    drawn, read = client.get(url).text, nights_read(app)
    parts.init_app(app)  # nothing kept: drawn as by a process that just started
    outcomes.init_app(app)
    fresh = client.get(url).text
    assert without_tokens(drawn) == without_tokens(fresh) != without_tokens(before)
    # carla played both nights
    assert read == {"player renamed": 4, "rule changed": 2}.get(change, 3)
    # Named as each night spells its pairs, keyed as the games' rows name them now.
    assert ('data-player="carlota"' in drawn) is (change == "player renamed")


@pytest.fixture
def streaming(tmp_path: Path) -> Iterator[Flask]:
    """An app holding streams, on a database file (its push watcher runs)."""
    config = {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, "live.sqlite3")}
    yield built_app({**config, "STREAMS": 3, "STREAM_SECONDS": 60})


def test_the_season_stream_names_a_new_revision_when_a_game_of_its_nights_is_saved(
    streaming: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Told by the saving process at once, without the watcher (read once an hour here)."""
    monkeypatch.setattr(push, "WATCH_EVERY", 3600.0)
    director = streaming.test_client()
    night_id = night_in_play(director, FIRST, "First")
    _season_id, url = season_of(streaming, night_id)
    phone = streaming.test_client()
    stream = Stream(phone, f"{url}/events")
    try:
        first = stream.next_event()
        assert first is not None and first["data"] == revision_in(phone.get(url).text)
        Actions(director).record_hand(
            game_at(director, night_id, 2), [STAYS_IN, GOES_OUT], ending="out-1"
        )
        changed = stream.next_event()
        assert changed is not None and changed["data"] != first["data"]
        assert changed["data"] == revision_in(phone.get(url).text)
    finally:
        stream.close()


def test_a_season_deleted_ends_its_stream_and_its_link(streaming: Flask) -> None:
    director = streaming.test_client()
    night_id = night_in_play(director, FIRST, "First")
    season_id, url = season_of(streaming, night_id)
    stream = Stream(streaming.test_client(), f"{url}/events")
    try:
        assert stream.next_event() is not None
        with streaming.app_context():
            assert service.delete_season(season_id)
        gone = stream.next_event()
        assert gone is not None and gone.get("event") == "gone"
    finally:
        stream.close()
    assert director.get(url).status_code == 404


def test_a_season_followed_is_read_again_after_a_write_to_its_nights_and_no_other(
    streaming: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A home game's hand reads no season's revision, even with a season's stream open here:
    only a write to a night or a season does."""
    monkeypatch.setattr(push, "WATCH_EVERY", 3600.0)
    director = streaming.test_client()
    night_id = night_in_play(director, FIRST, "First")
    _season_id, url = season_of(streaming, night_id)
    home = Actions(director).new_game()
    stream = Stream(streaming.test_client(), f"{url}/events")
    try:
        assert stream.next_event() is not None
        with statements(streaming) as seen:
            Actions(director).record_hand(home, [GOES_OUT, STAYS_IN])
        assert [s for s in seen if "FROM season" in s] == []
        table = game_at(director, night_id, 1)
        with statements(streaming) as seen:
            Actions(director).record_hand(table, [GOES_OUT, STAYS_IN])
        # Once by the saving request; on PostgreSQL the watcher, nudged by the write's own
        # notice, may read it again meanwhile.
        assert 1 <= len([s for s in seen if "FROM season" in s]) <= 2
        assert stream.next_event() is not None
    finally:
        stream.close()


def test_a_season_of_its_best_night_says_so_in_the_singular_in_both_languages(
    app: Flask, client: FlaskClient
) -> None:
    night_id = night_in_play(client, FIRST, "First")
    with app.app_context():
        plan = SeasonPlan("Spring", Rule(best=1), (night_id,))
        season_id = service.set_up_season(plan, "t")
        url = f"/season/{service.season_of(season_id).follow_token}"
    for suffix, language, words in (
        ("", "en", "The best night of each player counts."),
        ("/results.txt", "en", "The best night of each player counts."),
        ("", "es", "Cuenta la mejor noche de cada jugador."),
        ("/results.txt", "es", "Cuenta la mejor noche de cada jugador."),
    ):
        assert words in client.get(url + suffix, headers={"Accept-Language": language}).text


def test_a_notice_of_a_night_from_another_process_nudges_the_watcher_of_a_season_followed() -> None:
    """PostgreSQL's notice of a night's (or a season's) change, heard by the listener, which
    cannot read: the watcher reads the seasons followed here at once rather than within a
    second; the notice's own revision is never taken for the season's."""
    hub = push.Hub()
    hub.kind("season", lambda ids: {}, made_of=("season", "night"))
    with hub.watching("season:s", "1"):
        hub.heard("game:g 2")
        assert not hub.nudged.is_set()
        hub.heard("season:s")
        assert hub.nudged.is_set() and hub.revision("season:s") == "1"
        hub.nudged.clear()
        hub.heard("night:n 3")
        assert hub.nudged.is_set() and hub.revision("season:s") == "1"
    hub.nudged.clear()
    hub.heard("night:n 4")
    assert not hub.nudged.is_set()  # no season followed here

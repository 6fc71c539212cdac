"""Forms carry a CSRF token; without it nothing is written.

A lost session cookie (the phone cleared it, the server's key changed) must not lose what was
typed: every form comes back as it was sent, with a fresh token and "Your session expired;
press ... again", and pressing again works. Views without a form answer with the error page.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from scorekeeper.web.http.csrf import is_form_view
from scorekeeper.web.services import access as access_service

from .apps import TEST_CONFIG, built_app, everything, stored_games
from .helpers import GOES_OUT, STAYS_IN, Forms, hand_fields, hidden, input_value

NAMES = {"side_list-0-name": "Us", "side_list-1-name": "Them"}


def new_game(client: FlaskClient) -> str:
    page = client.get("/games/new?system=classic&table=2x2").text
    response = client.post(
        "/games/new?system=classic&table=2x2",
        data={**NAMES, "csrf_token": hidden(page, "csrf_token")},
    )
    assert response.status_code == 302
    return response.headers["Location"].removeprefix("/games/")


def test_a_new_game_without_a_csrf_token_is_refused(
    csrf_app: Flask, csrf_client: FlaskClient
) -> None:
    response = csrf_client.post("/games/new?system=classic&table=2x2", data=NAMES)
    assert response.status_code == 400
    assert "Your session expired; press “Start the game” again." in response.text
    assert stored_games(csrf_app) == 0


def test_a_new_game_with_the_pages_csrf_token_is_set_up(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    assert csrf_client.get(f"/games/{game_id}").status_code == 200


def test_a_hand_without_a_csrf_token_is_refused(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    response = csrf_client.post(
        f"/games/{game_id}/hands/new", data=hand_fields([GOES_OUT, STAYS_IN])
    )
    assert response.status_code == 400
    assert csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"] == []


def test_a_hand_with_the_pages_csrf_token_is_recorded(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    page = csrf_client.get(f"/games/{game_id}/hands/new").text
    data = hand_fields(
        [GOES_OUT, STAYS_IN],
        csrf_token=hidden(page, "csrf_token"),
        token=hidden(page, "token"),
    )
    response = csrf_client.post(f"/games/{game_id}/hands/new", data=data)
    assert response.status_code == 302
    assert len(csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"]) == 1


def test_deleting_a_hand_without_a_csrf_token_is_refused(csrf_client: FlaskClient) -> None:
    game_id = new_game(csrf_client)
    page = csrf_client.get(f"/games/{game_id}/hands/new").text
    csrf_client.post(
        f"/games/{game_id}/hands/new",
        data=hand_fields([GOES_OUT, STAYS_IN], csrf_token=hidden(page, "csrf_token")),
    )
    hand_id = csrf_client.get(f"/games/{game_id}").text.split('<tr id="hand-')[1].split('"')[0]
    response = csrf_client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": 1})
    assert response.status_code == 400
    assert len(csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"]) == 1


# --- a lost session cookie, form by form ----------------------------------------------------


@dataclass(frozen=True)
class Typed:
    """A form as a person left it: the page it is on, where it posts, what they typed."""

    page: str
    action: str  # the form's action on the page ("" posts back to the page)
    typed: dict[str, str]
    button: str = ""  # the words of the button pressed, for "press ... again"
    upload: bytes | None = None
    shown: dict[str, str] = field(default_factory=dict)  # field id → value shown again
    script_posts_to: str = ""  # where the page's script sends the form instead
    upload_field: str = "game_file"

    @property
    def url(self) -> str:
        return self.script_posts_to or self.action or self.page

    def data(self, page: str) -> dict[str, Any]:
        """The form's fields as the page has them, with what was typed over them."""
        sent: dict[str, Any] = dict(Forms(page).found[self.action])
        sent.update(self.typed)
        if self.upload is not None:
            sent[self.upload_field] = (io.BytesIO(self.upload), "upload.json")
        return sent


GAME = {
    "variant": "classic",
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["Ana", "Bo"]},
        {"name": "Them", "players": 2, "player_names": ["Cy", "Di"]},
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


def imported(client: FlaskClient) -> tuple[str, int]:
    """A game of Ana and Bo against Cy and Di with one hand played: its id and the hand's."""
    response = client.post("/games/import", json=GAME)
    assert response.status_code == 201, response.text
    game_id = response.get_json()["id"]
    hand_id = client.get(f"/games/{game_id}").text.split('<tr id="hand-')[1].split('"')[0]
    return game_id, int(hand_id)


def house_rule(client: FlaskClient) -> int:
    """A Denexa house rule made through its form."""
    form = Typed("/house-rules/new?system=denexa", "", {"name": "Casa Pérez"})
    page = client.get(form.page).text
    response = client.post(form.page, data=form.data(page))
    assert response.status_code == 302, response.text
    return int(response.headers["Location"].rsplit("-", 1)[1])


def new_game_form(client: FlaskClient) -> Typed:
    typed = {
        "side_list-0-name": "Los Primos",
        "side_list-0-start_score": "1234",
        "side_list-1-name": "Las Tías",
    }
    path = "/games/new?system=classic&table=2x2"
    return Typed(path, "", typed, "Start the game", shown=typed)


def hand_form(client: FlaskClient) -> Typed:
    game_id, _ = imported(client)
    typed = hand_fields([GOES_OUT, STAYS_IN], action="save")
    shown = {"sides-0-melded_points": "260", "sides-1-hand_points": "30", "sides-0-set_samba": "1"}
    return Typed(f"/games/{game_id}/hands/new", "", typed, "Save hand", shown=shown)


def correction_form(client: FlaskClient) -> Typed:
    game_id, hand_id = imported(client)
    typed = {"sides-0-melded_points": "300", "action": "save"}
    path = f"/games/{game_id}/hands/{hand_id}/edit"
    return Typed(path, "", typed, "Save the correction", shown={"sides-0-melded_points": "300"})


def new_house_rule_form(client: FlaskClient) -> Typed:
    typed = {"name": "Casa Gómez", "bonus_samba": "1600"}
    return Typed("/house-rules/new?system=denexa", "", typed, "Keep these house rules", shown=typed)


def house_rule_edit_form(client: FlaskClient) -> Typed:
    path = f"/house-rules/{house_rule(client)}/edit"
    typed = {"name": "Casa Ruiz", "going_out_bonus": "150"}
    return Typed(path, "", typed, "Keep these house rules", shown=typed)


def rename_form(client: FlaskClient) -> Typed:
    imported(client)
    typed = {"rename-name": "Anabel"}
    return Typed("/players/ana", "/players/ana/rename", typed, "Rename", shown=typed)


def merge_form(client: FlaskClient) -> Typed:
    imported(client)
    return Typed("/players/ana/merge", "/players/ana/merge", {"merge-into": "bo"}, "Merge")


def import_form(client: FlaskClient) -> Typed:
    return Typed("/games/import", "", {}, "Import", upload=json.dumps(GAME).encode())


def game_rename_form(client: FlaskClient) -> Typed:
    game_id, _ = imported(client)
    typed = {"game-name": "Los jueves"}
    path = f"/games/{game_id}/manage"
    return Typed(path, f"/games/{game_id}/rename", typed, "Keep the name", shown=typed)


def pin_form(client: FlaskClient) -> Typed:
    """The PIN, right this time after a wrong one: it clears the address's wrong tries."""
    with client.application.app_context():
        access_service.set_pin("2468", None)
        access_service.guess_pin("127.0.0.1", "1111", str(access_service.stored_pin_hash()))
    return Typed("/pin?next=/stats", "/pin", {"pin": "2468"}, "Enter")


def pin_settings_form(client: FlaskClient) -> Typed:
    return Typed("/settings/pin", "", {"new": "1357", "again": "1357"}, "Keep the PIN")


def rating_pool_form(client: FlaskClient) -> Typed:
    return Typed("/settings", "/settings/ratings", {"pool": "apart"}, "Save")


def renew_links_button(client: FlaskClient) -> Typed:
    game_id, _ = imported(client)
    return Typed(f"/games/{game_id}/share", f"/games/{game_id}/share/renew", {})


def restore_form(client: FlaskClient) -> Typed:
    """A backup of another scorekeeper, restored into this empty one."""
    other = built_app(TEST_CONFIG).test_client()
    imported(other)
    backup = other.get("/backup.json").data
    return Typed("/restore", "", {}, "Restore", upload=backup, upload_field="backup_file")


def night(client: FlaskClient, pairs: int = 5, started: bool = False) -> str:
    """A club night set up through its form (and its round 1 started); its id."""
    path = f"/nights/new?pairs={pairs}"
    data = dict(Forms(client.get(path).text).found[""])
    data.update({"name": "Martes", "round_count": "2"})
    data.update({f"pairs-{i}-{k}": f"{k}{i}" for i in range(pairs) for k in ("first", "second")})
    made = client.post(path, data=data)
    assert made.status_code == 302, made.text
    night_id = made.headers["Location"].split("/")[2]
    if started:
        director_button(client, night_id, "start", {"round": "1"})
    return night_id


def director_button(client: FlaskClient, night_id: str, action: str, typed: dict[str, str]) -> None:
    path, url = f"/nights/{night_id}", f"/nights/{night_id}/{action}"
    data = {**dict(Forms(client.get(path).text).found[url]), **typed}
    assert client.post(url, data=data).status_code == 302


def new_night_form(client: FlaskClient) -> Typed:
    typed = {"name": "Martes", "pairs-0-first": "Ana", "pairs-0-second": "Bo"}
    typed.update({"pairs-1-first": "Cy", "pairs-1-second": "Di", "round_count": "1"})
    return Typed("/nights/new?pairs=2", "", typed, "Set up the night", shown={"name": "Martes"})


def seating_form(client: FlaskClient) -> Typed:
    night_id = night(client, pairs=4)
    typed = {"seats-0-ew": "3", "seats-1-ew": "4"}
    path = f"/nights/{night_id}/seating?round=2"
    return Typed(path, "", typed, "Save the seating", shown={"seats-0-ew": "3"})


def arriving_pair_form(client: FlaskClient) -> Typed:
    night_id = night(client)
    typed = {"arriving-first": "Zoe", "arriving-second": "Yan"}
    path = f"/nights/{night_id}"
    return Typed(path, f"{path}/arrives", typed, "A pair arrives", shown={"arriving-first": "Zoe"})


def end_round_form(client: FlaskClient) -> Typed:
    """Round 1 ended, its tables unfinished: what each counts as, asked."""
    path = f"/nights/{night(client, started=True)}/end-round"
    return Typed(f"{path}?round=1", path, {"table_1": "not-played"}, "End round 1")


def end_night_form(client: FlaskClient) -> Typed:
    """The night ended during round 1, on the page that asks first (what each unfinished table
    counts as, too): the director's page only links to it."""
    path = f"/nights/{night(client, started=True)}/end"
    return Typed(path, path, {}, "End the night")


def night_button(
    action: str, page: str = "", typed: dict[str, str] | None = None, started: bool = False
) -> Callable[[FlaskClient], Typed]:
    """A director's button, on the page that shows it."""

    def button(client: FlaskClient) -> Typed:
        night_id = night(client, started=started)
        path = f"/nights/{night_id}"
        return Typed(f"{path}{page}", f"{path}/{action}" if action else "", typed or {})

    return button


def confirmation(
    action: str, asked: str = "", started: bool = False
) -> Callable[[FlaskClient], Typed]:
    """A director's write asked first (a pair's leaving), on the page that asks (its button)."""

    def button(client: FlaskClient) -> Typed:
        path = f"/nights/{night(client, started=started)}/{action}"
        return Typed(f"{path}{asked}", path, {})

    return button


def pair_returns_button(client: FlaskClient) -> Typed:
    night_id = night(client)
    path = f"/nights/{night_id}"
    left = client.post(
        f"{path}/leaves",
        data=dict(Forms(client.get(f"{path}/leaves?pair=2").text).found[f"{path}/leaves"]),
    )
    assert left.status_code == 302, left.text
    return Typed(path, f"{path}/returns", {"pair": "2"})


def bring_back_night_button(client: FlaskClient) -> Typed:
    night_id = night(client)
    path = f"/nights/{night_id}/delete"
    deleted = client.post(path, data=dict(Forms(client.get(path).text).found[""]))
    assert deleted.status_code == 302, deleted.text
    return Typed("/nights", "/nights/deleted", {})


def season(client: FlaskClient) -> str:
    """A season of one night, set up through its form; its id."""
    night_id = night(client)
    data = dict(Forms(client.get("/seasons/new").text).found[""])
    data.update({"name": "Primavera", "nights": night_id})
    made = client.post("/seasons/new", data=data)
    assert made.status_code == 302, made.text
    return made.headers["Location"].split("/")[2]


def new_season_form(client: FlaskClient) -> Typed:
    night(client)
    return Typed("/seasons/new", "", {"name": "Primavera"}, "Save the season",
                 shown={"name": "Primavera"})  # fmt: skip


def season_edit_form(client: FlaskClient) -> Typed:
    path = f"/seasons/{season(client)}/edit"
    return Typed(path, "", {"name": "Verano", "best": "1"}, "Save the season",
                 shown={"name": "Verano"})  # fmt: skip


def season_delete_button(client: FlaskClient) -> Typed:
    season_id = season(client)
    return Typed(f"/seasons/{season_id}/edit", f"/seasons/{season_id}/delete", {})


# Every POST view with a form: after a CSRF failure it shows the form again.
WITH_A_FORM: dict[str, Callable[[FlaskClient], Typed]] = {
    "games.new": new_game_form,
    "games.rename": game_rename_form,
    "hands.new": hand_form,
    "hands.edit": correction_form,
    "house_rules.new": new_house_rule_form,
    "house_rules.edit": house_rule_edit_form,
    "history.rename": rename_form,
    "history.merge": merge_form,
    "game_files.import_file": import_form,  # checks its own token (it also takes JSON)
    "sharing.enter_pin": pin_form,
    "sharing.pin_settings": pin_settings_form,
    "settings.rating_pool": rating_pool_form,
    "backup.restore": restore_form,
    "nights.new": new_night_form,
    "nights.seating": seating_form,
    "director.pair_arrives": arriving_pair_form,
    "director.end_round": end_round_form,
    "director.end_night": end_night_form,
    "seasons.new": new_season_form,
    "seasons.edit": season_edit_form,
}


def language_button(client: FlaskClient) -> Typed:
    return Typed("/", "/language", {"lang": "es"})


def delete_button(client: FlaskClient) -> Typed:
    game_id, hand_id = imported(client)
    path = f"/games/{game_id}/hands/{hand_id}/delete"
    return Typed(path, path, {})


def bring_back_button(client: FlaskClient) -> Typed:
    game_id, hand_id = imported(client)
    path = f"/games/{game_id}/hands/{hand_id}"
    page = client.get(f"{path}/delete").text
    deleted = client.post(f"{path}/delete", data=dict(Forms(page).found[f"{path}/delete"]))
    assert deleted.status_code == 302, deleted.text
    return Typed(path, f"{path}/restore", {})


def house_rule_delete_button(client: FlaskClient) -> Typed:
    rule_id = house_rule(client)
    return Typed("/house-rules", f"/house-rules/{rule_id}/delete", {})


def game_button(action: str, page: str = "/manage") -> Callable[[FlaskClient], Typed]:
    """A button of a game's own (archive, delete, play again), on the page that shows it."""

    def button(client: FlaskClient) -> Typed:
        game_id, _ = imported(client)
        return Typed(f"/games/{game_id}{page}", f"/games/{game_id}/{action}", {})

    return button


def unarchive_button(client: FlaskClient) -> Typed:
    game_id, _ = imported(client)
    path, action = f"/games/{game_id}/manage", f"/games/{game_id}/archive"
    archived = client.post(action, data=dict(Forms(client.get(path).text).found[action]))
    assert archived.status_code == 302, archived.text
    return Typed(path, f"/games/{game_id}/unarchive", {})


def bring_back_game_button(client: FlaskClient) -> Typed:
    game_id, _ = imported(client)
    path = f"/games/{game_id}/delete"
    deleted = client.post(path, data=dict(Forms(client.get(path).text).found[path]))
    assert deleted.status_code == 302, deleted.text
    return Typed("/games/deleted", "/games/deleted", {})


def undo_merge_button(client: FlaskClient) -> Typed:
    form = merge_form(client)
    merged = client.post(form.action, data=form.data(client.get(form.page).text))
    assert merged.status_code == 302, merged.text
    return Typed("/players/bo", "/merges/1/undo", {})


# Every POST view without a form of its own: after a CSRF failure, the error page.
WITHOUT_A_FORM: dict[str, Callable[[FlaskClient], Typed]] = {
    "games.language": language_button,
    "sharing.sign_out": lambda client: Typed("/settings/pin", "/pin/forget", {}),
    "sharing.renew_links": renew_links_button,
    "games.archive": game_button("archive"),
    "games.unarchive": unarchive_button,
    "games.delete": game_button("delete", "/delete"),
    "games.play_again": game_button("again", ""),
    "hands.delete": delete_button,
    "hands.restore": bring_back_button,
    "house_rules.delete": house_rule_delete_button,
    "games.bring_back": bring_back_game_button,
    "history.undo": undo_merge_button,
    "nights.renew_cards": night_button("cards/renew", "/cards"),
    "director.start_round": night_button("start"),
    "director.ranking": night_button("ranking", typed={"ranking": "points"}),
    "director.pair_leaves": confirmation("leaves", "?pair=2"),
    "director.pair_returns": pair_returns_button,
    "nights.delete": night_button("", "/delete"),
    "nights.bring_back": bring_back_night_button,
    "seasons.delete": season_delete_button,
}


# POST views without a form of their own whose button shows only on a table with a PIN (where a
# phone without its session is refused at the door: tests/web/test_access.py).
BEHIND_A_PIN = {
    "sharing.sign_out_every_phone": "/settings/pin/sign-out-everyone",
    "sharing.remove_stored_pin": "/settings/pin/remove-stored",
}


def post_without_session(client: FlaskClient, form: Typed) -> tuple[dict[str, Any], Any]:
    """Open the page, lose the session cookie, send the form: what was sent, and the answer."""
    page = client.get(form.page).text
    data = form.data(page)
    client.delete_cookie("session")
    return data, client.post(form.url, data=data)


def test_every_post_view_is_known_with_or_without_a_form(csrf_app: Flask) -> None:
    posting = {
        rule.endpoint for rule in csrf_app.url_map.iter_rules() if "POST" in (rule.methods or ())
    }
    assert posting == set(WITH_A_FORM) | set(WITHOUT_A_FORM) | set(BEHIND_A_PIN)
    with csrf_app.test_request_context():
        assert {endpoint for endpoint in posting if is_form_view(endpoint)} == set(WITH_A_FORM)


@pytest.mark.parametrize("endpoint", WITH_A_FORM)
def test_a_form_sent_without_its_session_comes_back_as_typed_and_sends_again(
    csrf_app: Flask, csrf_client: FlaskClient, endpoint: str
) -> None:
    form = WITH_A_FORM[endpoint](csrf_client)
    before = everything(csrf_app)
    sent, response = post_without_session(csrf_client, form)

    assert response.status_code == 400
    assert everything(csrf_app) == before
    page = response.text
    assert f"Your session expired; press “{form.button}” again." in page
    assert 'role="alert" id="session-expired"' in page
    for field_id, value in form.shown.items():
        assert input_value(page, field_id) == value
    if endpoint == "history.merge":
        assert '<option selected value="bo">' in page
    fresh = dict(Forms(page).found[form.action])
    csrf_field = next(name for name in fresh if name.endswith("csrf_token"))
    assert fresh[csrf_field] not in ("", sent.get(csrf_field))

    again = csrf_client.post(form.url, data=form.data(page))
    assert again.status_code == 302, again.text
    assert everything(csrf_app) != before


@pytest.mark.parametrize("endpoint", WITHOUT_A_FORM)
def test_a_button_sent_without_its_session_writes_nothing_and_says_so(
    csrf_app: Flask, csrf_client: FlaskClient, endpoint: str
) -> None:
    form = WITHOUT_A_FORM[endpoint](csrf_client)
    before = everything(csrf_app)
    _, response = post_without_session(csrf_client, form)
    assert response.status_code == 400
    assert "This form has expired" in response.text
    assert everything(csrf_app) == before
    assert "lang=" not in response.headers.get("Set-Cookie", "")


@pytest.mark.parametrize("endpoint", BEHIND_A_PIN)
def test_a_pin_button_sent_without_its_token_writes_nothing(
    csrf_app: Flask, csrf_client: FlaskClient, endpoint: str
) -> None:
    page = csrf_client.get("/settings/pin").text
    sent = {**dict(Forms(page).found[""]), "new": "2468", "again": "2468"}
    assert csrf_client.post("/settings/pin", data=sent).status_code == 302
    before = everything(csrf_app)
    response = csrf_client.post(BEHIND_A_PIN[endpoint], data={})
    assert response.status_code == 400
    assert everything(csrf_app) == before


def test_a_hand_sent_again_after_the_session_expired_is_recorded_once(
    csrf_client: FlaskClient,
) -> None:
    form = hand_form(csrf_client)
    game_id = form.page.split("/")[2]
    _, refused = post_without_session(csrf_client, form)
    assert "This hand was not saved." in refused.text
    assert 'checked id="ending-0"' in refused.text or 'id="ending-0" checked' in refused.text
    again = csrf_client.post(form.page, data=form.data(refused.text))
    assert again.status_code == 302
    hands = csrf_client.get(f"/games/{game_id}/result.json").get_json()["hands"]
    assert len(hands) == 2


def test_a_form_for_a_game_that_is_gone_is_not_found_even_without_a_session(
    csrf_app: Flask, csrf_client: FlaskClient
) -> None:
    form = hand_form(csrf_client)
    page = csrf_client.get(form.page).text
    csrf_client.delete_cookie("session")
    response = csrf_client.post("/games/no-such-game/hands/new", data=form.data(page))
    assert response.status_code == 404


def test_a_json_post_without_a_session_is_answered_in_json(csrf_client: FlaskClient) -> None:
    response = csrf_client.post("/games/new?system=classic&table=2x2", json=NAMES)
    assert response.status_code == 400
    assert response.get_json()["error"] == "This form has expired"

"""Double submits, corrections (also concurrent ones) and deletions, re-deriving what follows."""

from __future__ import annotations

import html
from typing import Any

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.pages import hands
from scorekeeper.web.services import hands as hand_service

from .helpers import GOES_OUT, STAYS_IN, Actions, errors_of, hand_fields, hidden, input_value


def edit_url(game_id: str, hand_id: int) -> str:
    return f"/games/{game_id}/hands/{hand_id}/edit"


def test_the_same_hand_form_posted_twice_records_one_hand(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    page = client.get(f"/games/{game_id}/hands/new").text
    data = hand_fields([GOES_OUT, STAYS_IN], token=hidden(page, "token"))
    first = client.post(f"/games/{game_id}/hands/new", data=data)
    second = client.post(f"/games/{game_id}/hands/new", data=data)
    assert first.status_code == second.status_code == 302
    assert first.headers["Location"] == second.headers["Location"]
    assert len(actions.result(game_id)["hands"]) == 1


def test_two_hand_forms_opened_apart_record_two_hands(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    tokens = [hidden(client.get(f"/games/{game_id}/hands/new").text, "token") for _ in "ab"]
    assert tokens[0] != tokens[1]
    for token in tokens:
        data = hand_fields([STAYS_IN, STAYS_IN], ending="stock", token=token)
        assert client.post(f"/games/{game_id}/hands/new", data=data).status_code == 302
    assert len(actions.result(game_id)["hands"]) == 2


def test_the_second_of_two_concurrent_corrections_is_shown_both_versions(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    mine = client.get(edit_url(game_id, hand_id)).text
    yours = client.get(edit_url(game_id, hand_id)).text
    assert hidden(mine, "version") == hidden(yours, "version") == "1"

    first = hand_fields(
        [{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version=hidden(mine, "version")
    )
    assert client.post(edit_url(game_id, hand_id), data=first).status_code == 302
    assert actions.result(game_id)["totals"][0] == 2500

    second = hand_fields(
        [{**GOES_OUT, "melded_points": "280"}, STAYS_IN], version=hidden(yours, "version")
    )
    clash = client.post(edit_url(game_id, hand_id), data=second)
    assert clash.status_code == 409
    assert "Their version" in clash.text
    assert "+2,500" in clash.text  # theirs, scored
    assert input_value(clash.text, "sides-0-melded_points") == "280"  # mine, still typed
    # Both values beside the field that differs, and beside no other.
    assert "they 300 / you 280" in errors_of(clash.text, "sides-0-melded_points")
    assert clash.text.count(" / you ") == clash.text.count("they 300 / you 280")
    assert hidden(clash.text, "version") == "2"
    assert actions.result(game_id)["totals"][0] == 2500

    again = {**second, "version": hidden(clash.text, "version")}
    assert client.post(edit_url(game_id, hand_id), data=again).status_code == 302
    assert actions.result(game_id)["totals"][0] == 2480

    scoreboard = html.unescape(actions.scoreboard(game_id))
    corrections = scoreboard.split('id="corrections-title"', 1)[1]  # not the news above
    assert corrections.count("corrected") == 2
    assert "Us · Card points melded: 260 → 300" in scoreboard
    assert "Us · Card points melded: 300 → 280" in scoreboard
    hand_page = client.get(f"/games/{game_id}/hands/{hand_id}").text
    assert hand_page.count("What it was") == 2
    # In words, as the hand form asks them, not as the game file spells them.
    assert "<li>Us · Card points melded: 300</li>" in html.unescape(hand_page)
    assert '"melded_points"' not in html.unescape(hand_page)


def test_a_deleted_hand_shows_what_it_was_in_words(client: FlaskClient, actions: Actions) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    page = client.get(f"/games/{game_id}/hands/{hand_id}/delete").text
    deleted = client.post(
        f"/games/{game_id}/hands/{hand_id}/delete", data={"version": hidden(page, "version")}
    )
    assert deleted.status_code == 302
    shown = html.unescape(client.get(f"/games/{game_id}/hands/{hand_id}").text)
    assert "A deleted hand" in shown and "What it was" in shown
    was = shown.split("What it was", 1)[1].split("</details>", 1)[0]
    assert "How the hand ended: Us went out" in was
    assert "<li>Us · Card points melded: 260</li>" in was
    assert "<li>Them · Card points melded: 150</li>" in was
    assert "{" not in was


def test_correcting_an_early_hand_re_derives_the_later_minimums(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])  # Us: 2,460
    actions.record_hand(game_id, [{"melded_points": "60"}, {}], ending="stock")
    first_id, _ = actions.hand_ids(game_id)
    result = actions.result(game_id)
    assert [h["sides"][0]["min_opening_meld"] for h in result["hands"]] == [50, 90]
    assert result["next_min_opening_meld"][0] == 90
    assert "First meld 90" in actions.scoreboard(game_id)

    lower = hand_fields(
        [{"set_natural_canasta": "2", "melded_points": "100"}, STAYS_IN], version="1"
    )  # Us: 1,300
    assert client.post(edit_url(game_id, first_id), data=lower).status_code == 302
    result = actions.result(game_id)
    assert [h["sides"][0]["min_opening_meld"] for h in result["hands"]] == [50, 50]
    assert result["totals"][0] == 1300 + 60
    assert result["next_min_opening_meld"][0] == 50
    assert "First meld 50" in actions.scoreboard(game_id)


def test_correcting_the_winning_hand_can_take_the_win_away(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game(start_scores=(9000, 0))
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    assert actions.result(game_id)["winner"] == 0
    (hand_id,) = actions.hand_ids(game_id)
    quiet = hand_fields([STAYS_IN, STAYS_IN], ending="stock", version="1")
    assert client.post(edit_url(game_id, hand_id), data=quiet).status_code == 302
    result = actions.result(game_id)
    assert (result["game_over"], result["winner"]) == (False, None)
    assert "won with" not in actions.scoreboard(game_id)
    assert client.get(f"/games/{game_id}/hands/new").status_code == 200


def test_a_correction_that_breaks_a_rule_is_refused_and_keeps_the_hand(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    bad = hand_fields([{**GOES_OUT, "melded_points": "261"}, STAYS_IN], version="1")
    response = client.post(edit_url(game_id, hand_id), data=bad)
    assert response.status_code == 422
    assert input_value(response.text, "sides-0-melded_points") == "261"
    assert actions.result(game_id)["totals"][0] == 2460
    assert "Corrections" not in actions.scoreboard(game_id)


def test_deleting_a_hand_re_derives_the_totals_and_keeps_it_in_the_history(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")
    first_id, second_id = actions.hand_ids(game_id)
    assert actions.result(game_id)["totals"] == [2460 + 420, 420 + 420]

    response = client.post(f"/games/{game_id}/hands/{first_id}/delete", data={"version": "1"})
    assert response.status_code == 302
    result = actions.result(game_id)
    assert result["totals"] == [420, 420]
    assert len(result["hands"]) == 1
    assert actions.hand_ids(game_id) == [second_id]
    assert "A deleted hand</a>" in actions.scoreboard(game_id)
    page = client.get(f"/games/{game_id}/hands/{first_id}")
    assert page.status_code == 200
    assert "A deleted hand" in page.text
    assert "deleted" in page.text.split("Corrections")[1]
    edit = client.get(edit_url(game_id, first_id))
    assert edit.status_code == 302


def test_deleting_with_a_stale_version_changes_nothing(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    corrected = hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version="1")
    client.post(edit_url(game_id, hand_id), data=corrected)
    response = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": "1"})
    assert response.status_code == 302
    assert "changed=1" in response.headers["Location"]
    assert len(actions.result(game_id)["hands"]) == 1


def test_a_correction_of_who_went_out_is_told_in_words(
    client: FlaskClient, actions: Actions
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    version = hidden(client.get(edit_url(game_id, hand_id)).text, "version")
    swapped = hand_fields([GOES_OUT, GOES_OUT], ending="out-1", version=version)
    assert client.post(edit_url(game_id, hand_id), data=swapped).status_code == 302
    scoreboard = html.unescape(actions.scoreboard(game_id))
    assert "How the hand ended: Us went out → Them went out" in scoreboard
    assert "Them · Card points left in hand: 30 → 0" in scoreboard


DELETED = "Someone deleted this hand while you were correcting it."


@pytest.mark.parametrize(
    ("pressed", "field", "shown"),
    [
        ({}, "melded_points", "300"),
        ({"action": "preview"}, "melded_points", "300"),
        ({"bump": "sides-0-set_samba:1"}, "set_samba", "2"),
        ({"count": "sides-0-melded"}, "melded_points", "0"),
    ],
)
def test_a_correction_sent_after_another_phone_deleted_the_hand_keeps_what_was_typed(
    client: FlaskClient, actions: Actions, pressed: dict[str, str], field: str, shown: str
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    (hand_id,) = actions.hand_ids(game_id)
    version = hidden(client.get(edit_url(game_id, hand_id)).text, "version")
    deleted = client.post(f"/games/{game_id}/hands/{hand_id}/delete", data={"version": version})
    assert deleted.status_code == 302

    typed = hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version=version)
    response = client.post(edit_url(game_id, hand_id), data={**typed, **pressed})
    assert response.status_code == 409
    assert DELETED in response.text
    assert "Correct hand 1" in response.text
    assert input_value(response.text, f"sides-0-{field}") == shown
    assert actions.result(game_id)["hands"] == []


def test_a_hand_deleted_between_reading_it_and_saving_its_correction_is_a_conflict(
    client: FlaskClient, actions: Actions, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = actions.new_game()
    actions.record_hand(game_id, [GOES_OUT, STAYS_IN])
    actions.record_hand(game_id, [STAYS_IN, STAYS_IN], ending="stock")
    first_id, _second_id = actions.hand_ids(game_id)
    correct = hands.correct_hand

    def deleted_first(*args: Any, **kwargs: Any) -> Any:
        # Another phone's delete commits after this view read the hand, before its own write.
        hand_service.delete_hand(game_id, first_id, 1)
        return correct(*args, **kwargs)

    monkeypatch.setattr(hands, "correct_hand", deleted_first)
    typed = hand_fields([{**GOES_OUT, "melded_points": "300"}, STAYS_IN], version="1")
    response = client.post(edit_url(game_id, first_id), data=typed)
    assert response.status_code == 409
    assert DELETED in response.text
    assert "Correct hand 1" in response.text
    assert input_value(response.text, "sides-0-melded_points") == "300"
    assert actions.result(game_id)["totals"] == [420, 420]

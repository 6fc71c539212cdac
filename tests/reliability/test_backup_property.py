"""Whatever a table does through the app, its backup restores exactly.

A hypothesis state machine plays random sequences of what people do through the web app (new
games of every system with odd names in many scripts, hands, corrections, deletions, renames and
merges of players and merges undone, house rules and games under them, games deleted and brought
back), then backs up, restores into an empty
database and compares everything: the backup of the restored database, and every game's
result and scoreboard.
"""

from __future__ import annotations

import html
import json
import re
from contextlib import ExitStack
from typing import Any
from urllib.parse import quote

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, precondition, rule
from sqlalchemy import select

from scorekeeper import rules
from scorekeeper.web.extensions import db
from scorekeeper.web.services.restore import restore
from scorekeeper.web.store.models import NAME_LENGTH, Game, HouseRule, Player, PlayerMerge, Side
from tests import postgres
from tests.figures import FIGURES
from tests.web.apps import TEST_CONFIG, built_app
from tests.web.helpers import Actions, linked_hands

ODD_NAMES = [
    "ß" * 40,  # casefolds to 80 letters
    "ΐ" * 40,  # casefolds to 120
    "Straße" * 6,
    "İstanbul",
    "ﬃ ligature",
    "José Núñez",
    "Ὀδυσσεύς",
    "ΣΊΣΥΦΟΣ",
    "Наташа Ёлкина",
    "李小龍",
    "さくら",
    "محمد",
    "עִבְרִית",
    "👩‍👩‍👧‍👦",
    "🃏 Joker",
    "e\u0301e\u0301 combining",
    "Z\u0335\u0321a\u0336lgo",
    "  Ana   María  ",
    "x" * NAME_LENGTH,
]
LETTERS = "aAßẞéÉñçøåæœΐΣσςЖжЁё李龍さカمحעִ👩‍🃏\u0301 İıﬃ"


def names(least: int = 1) -> st.SearchStrategy[str]:
    """Names people type: odd ones from many scripts, or random mixes of their letters."""
    drawn = st.one_of(
        st.sampled_from(ODD_NAMES),
        st.text(alphabet=LETTERS, min_size=least, max_size=NAME_LENGTH),
    )
    return drawn.filter(lambda name: len(name.strip()) >= least)


def inputs(page: str) -> dict[str, str]:
    """What a form on the page would send as it is: its text and number inputs, checked boxes."""
    found: dict[str, str] = {}
    for tag in re.findall(r"<input[^>]*>", page):
        name = re.search(r'name="([^"]*)"', tag)
        if name is None or 'type="submit"' in tag:
            continue
        if 'type="checkbox"' in tag and "checked" not in tag:
            continue
        value = re.search(r'value="([^"]*)"', tag)
        found[html.unescape(name.group(1))] = html.unescape(value.group(1)) if value else ""
    return found


def entry_fields(system: rules.RuleSystem, entry: rules.Entry) -> dict[str, str]:
    fields = {
        "opening_meld": "",
        "melded_points": str(entry.melded_points),
        "hand_points": str(entry.hand_points),
        "red_threes": str(entry.red_threes),
        "red_threes_in_hand": "0",
    }
    fields.update({f"set_{k.value}": str(entry.count(k)) for k in rules.SetKind if system.has(k)})
    fields.update({f"penalty_{p.value}": str(entry.penalties.get(p, 0)) for p in system.penalties})
    return fields


def hands(system: rules.RuleSystem, sides: int, players: int) -> st.SearchStrategy[rules.Hand]:
    """Hands as a table plays them, mostly within the rules (the engine has the last word)."""
    kinds = [kind for kind in rules.SetKind if system.has(kind)]

    @st.composite
    def hand(draw: st.DrawFn) -> rules.Hand:
        entries = []
        for _ in range(sides):
            made = draw(st.lists(st.sampled_from(kinds), max_size=3, unique=True))
            sets = {kind: 1 for kind in made}
            least = sum(kind.least_card_points for kind in made)
            penalties = {}
            if system.penalties and draw(st.integers(0, 4)) == 0:
                penalties = {draw(st.sampled_from(list(system.penalties))): 1}
            entries.append(
                rules.Entry(
                    sets=sets,
                    melded_points=least + 5 * draw(st.integers(0, 30)),
                    hand_points=5 * draw(st.integers(0, 20)),
                    red_threes=draw(st.integers(0, 1)),
                    penalties=penalties,
                )
            )
        able = [i for i, entry in enumerate(entries) if system.can_go_out(entry.sets)]
        out = draw(st.sampled_from([None, *able]))
        if out is None:
            return rules.Hand(tuple(entries), rules.EndedBy.STOCK_EXHAUSTED)
        went = entries[out]
        entries[out] = rules.Entry(
            went_out=True,
            sets=went.sets,
            melded_points=went.melded_points,
            hand_points=0 if players == 1 else went.hand_points,
            red_threes=went.red_threes,
            penalties=went.penalties,
        )
        return rules.Hand(tuple(entries))

    return hand()


def _comparable(page: bytes) -> bytes:
    """A page without its forms' one-time tokens, which differ on every request, and without
    the revision its script follows (a restored game is at a revision of its own)."""
    page = re.sub(rb'<input[^>]*name="(csrf_token|token)"[^>]*>', b"", page)
    return re.sub(rb'data-revision="[^"]*"', b"", page)


class Table(RuleBasedStateMachine):
    """A database used the way people use the app, backed up and restored at the end."""

    def __init__(self) -> None:
        super().__init__()
        self.example_databases = ExitStack()
        self.example_databases.enter_context(postgres.databases_of_one_example())
        self.app: Flask = built_app(TEST_CONFIG)
        self.client: FlaskClient = self.app.test_client()
        self.actions = Actions(self.client)
        self.games: list[str] = []
        self.deleted: list[str] = []
        """Games deleted and not brought back: kept, and so in the backup."""
        self.house_rules: list[int] = []
        self.steps = 0

    # --- what people do --------------------------------------------------------------------------

    def _post_new_game(
        self, url: str, table: tuple[int, int], data: st.DataObject, options: list[str]
    ) -> None:
        sides, players = table
        form = {f"option_{option}": "y" for option in options}
        for i in range(sides):
            form[f"side_list-{i}-name"] = data.draw(names())
            form[f"side_list-{i}-start_score"] = str(data.draw(st.integers(-100_000, 100_000)))
            for j in range(players):
                form[f"side_list-{i}-players-{j}"] = data.draw(names(least=0))
        form["first_dealer"] = str(data.draw(st.integers(0, sides * players - 1)))
        response = self.client.post(f"{url}&table={sides}x{players}", data=form)
        assert response.status_code == 302, response.text
        self.games.append(response.headers["Location"].removeprefix("/games/"))

    @initialize(data=st.data())
    def first_game(self, data: st.DataObject) -> None:
        self.new_game(data)

    @rule(data=st.data())
    def new_game(self, data: st.DataObject) -> None:
        system = data.draw(st.sampled_from(list(rules.SYSTEMS.values())))
        table = data.draw(st.sampled_from(system.tables))
        options = (
            data.draw(st.lists(st.sampled_from(system.options), unique=True))
            if system.options
            else []
        )
        self._post_new_game(f"/games/new?system={system.id}", table, data, options)
        self.steps += 1

    @rule(data=st.data(), bonus=st.integers(0, 40))
    def new_house_rule(self, data: st.DataObject, bonus: int) -> None:
        system = data.draw(st.sampled_from(list(rules.SYSTEMS.values())))
        url = f"/house-rules/new?system={system.id}"
        form = inputs(self.client.get(url).text)
        form["name"] = data.draw(names())
        form["going_out_bonus"] = str(5 * bonus)
        response = self.client.post(url, data=form)
        assert response.status_code == 302, response.text
        self.house_rules.append(int(response.headers["Location"].rsplit("-", 1)[1]))
        self.steps += 1

    @precondition(lambda self: self.house_rules)
    @rule(data=st.data())
    def new_game_under_house_rules(self, data: st.DataObject) -> None:
        house = data.draw(st.sampled_from(self.house_rules))
        with self.app.app_context():
            house_rule = db.session.get(HouseRule, house)
            assert house_rule is not None
            system = rules.SYSTEMS[house_rule.system_id]
        table = data.draw(st.sampled_from(system.tables))
        self._post_new_game(f"/games/new?house={house}", table, data, [])
        self.steps += 1

    def _game_file(self, game_id: str) -> dict[str, Any]:
        response = self.client.get(f"/games/{game_id}/export.json")
        assert response.status_code == 200
        data: dict[str, Any] = response.get_json()
        return data

    def _draw_hand(
        self, data: st.DataObject, game: dict[str, Any]
    ) -> tuple[rules.RuleSystem, rules.Hand]:
        system = rules.read_game(game).system
        sides = game["sides"]
        return system, data.draw(hands(system, len(sides), sides[0]["players"]))

    def _fields(self, system: rules.RuleSystem, hand: rules.Hand) -> dict[str, str]:
        out = hand.went_out()
        form = {"ending": f"out-{out[0]}" if out else "stock"}
        for i, entry in enumerate(hand.entries):
            form.update({f"sides-{i}-{k}": v for k, v in entry_fields(system, entry).items()})
        return form

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def record_hand(self, data: st.DataObject) -> None:
        game_id = data.draw(st.sampled_from(self.games))
        game = self._game_file(game_id)
        system, hand = self._draw_hand(data, game)
        game["hands"].append(rules.game_data(rules.Game(system, (), (hand,)))["hands"][0])
        broken = rules.check_game_data(game)["hands"][-1]["violations"]
        response = self.client.post(f"/games/{game_id}/hands/new", data=self._fields(system, hand))
        # A game that is over takes no more hands: the form says so (hand-after-game-over).
        assert response.status_code == (422 if broken else 302), (broken, game)
        self.steps += 1

    def _live_hand(self, data: st.DataObject) -> tuple[str, int, int, str] | None:
        """A recorded hand: its game, its id, its place among the live hands, its version."""
        game_id = data.draw(st.sampled_from(self.games))
        ids = self.actions.hand_ids(game_id)
        if not ids:
            return None
        index = data.draw(st.integers(0, len(ids) - 1))
        page = self.client.get(f"/games/{game_id}/hands/{ids[index]}/edit").text
        version = re.search(r'name="version"[^>]*value="(\d+)"', page) or re.search(
            r'value="(\d+)"[^>]*name="version"', page
        )
        assert version, "no version on the correction form"
        return game_id, ids[index], index, version.group(1)

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def correct_hand(self, data: st.DataObject) -> None:
        found = self._live_hand(data)
        if found is None:
            return
        game_id, hand_id, index, version = found
        game = self._game_file(game_id)
        system, hand = self._draw_hand(data, game)
        game["hands"][index] = rules.game_data(rules.Game(system, (), (hand,)))["hands"][0]
        broken = rules.check_game_data(game)["hands"][index]["violations"]
        response = self.client.post(
            f"/games/{game_id}/hands/{hand_id}/edit",
            data={**self._fields(system, hand), "version": version},
        )
        assert response.status_code == (422 if broken else 302), (broken, game)
        self.steps += 1

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def delete_hand(self, data: st.DataObject) -> None:
        found = self._live_hand(data)
        if found is None:
            return
        game_id, hand_id, _index, version = found
        response = self.client.post(
            f"/games/{game_id}/hands/{hand_id}/delete", data={"version": version}
        )
        assert response.status_code == 302, response.text
        self.steps += 1

    @precondition(lambda self: self.games)
    @rule(
        data=st.data(),
        action=st.sampled_from(["rename", "archive", "unarchive", "again", "delete"]),
    )
    def manage_game(self, data: st.DataObject, action: str) -> None:
        """Name a game, archive it or bring it back, play it again, or delete it."""
        game_id = data.draw(st.sampled_from(self.games))
        form = {
            "rename": {"game-name": data.draw(names(least=0))},
            "again": {"token": data.draw(st.sampled_from(["one", "two", "three"]))},
        }.get(action, {})
        response = self.client.post(f"/games/{game_id}/{action}", data=form)
        assert response.status_code == 302, response.text
        if action == "again":
            started = response.headers["Location"].removeprefix("/games/")
            if started not in self.games:  # a token used before answers with its game
                self.games.append(started)
        if action == "delete":
            self.games.remove(game_id)
            self.deleted.append(game_id)
        self.steps += 1

    @precondition(lambda self: self.deleted)
    @rule(data=st.data())
    def bring_back(self, data: st.DataObject) -> None:
        game_id = data.draw(st.sampled_from(self.deleted))
        response = self.client.post("/games/deleted", data={"game": game_id})
        assert response.status_code == 302, response.text
        self.deleted.remove(game_id)
        self.games.append(game_id)
        self.steps += 1

    def _keys(self) -> list[str]:
        with self.app.app_context():
            # A player of deleted games only has no page until a game of theirs is brought back.
            query = (
                select(Player.key)
                .join(Side)
                .join(Game)
                .where(Player.key != "", Game.deleted_at.is_(None))
                .distinct()
                .order_by(Player.key)
            )
            return list(db.session.scalars(query))

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def rename_player(self, data: st.DataObject) -> None:
        keys = self._keys()
        if not keys:
            return
        key = data.draw(st.sampled_from(keys))
        response = self.client.post(
            f"/players/{quote(key, safe='')}/rename", data={"rename-name": data.draw(names())}
        )
        assert response.status_code == 302, response.text
        self.steps += 1

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def merge_players(self, data: st.DataObject) -> None:
        keys = self._keys()
        if len(keys) < 2:
            return
        key, into = data.draw(st.lists(st.sampled_from(keys), min_size=2, max_size=2, unique=True))
        response = self.client.post(
            f"/players/{quote(key, safe='')}/merge", data={"merge-into": into}
        )
        assert response.status_code == 302, response.text
        self.steps += 1

    @precondition(lambda self: self.games)
    @rule(data=st.data())
    def undo_merge(self, data: st.DataObject) -> None:
        """Undo a merge, or be told it can no longer be undone."""
        with self.app.app_context():
            merges = list(db.session.scalars(select(PlayerMerge.id).order_by(PlayerMerge.id)))
        if not merges:
            return
        merge = data.draw(st.sampled_from(merges))
        assert self.client.post(f"/merges/{merge}/undo").status_code == 302
        self.steps += 1

    # --- and then the backup -------------------------------------------------------------------

    def teardown(self) -> None:
        try:
            self._restore_exactly()
        finally:
            self.example_databases.close()  # the next example takes this one's copies again

    def _restore_exactly(self) -> None:
        response = self.client.get("/backup.json")
        assert response.status_code == 200
        backup = json.loads(response.get_data(as_text=True))
        restored = built_app(TEST_CONFIG)
        with restored.app_context():
            assert restore(json.loads(json.dumps(backup))) == len(self.games) + len(self.deleted)
        other = restored.test_client()
        assert json.loads(other.get("/backup.json").get_data(as_text=True)) == backup
        here = self.app.test_client()  # no flashed message left over from the last action

        def same(page: str) -> str:
            """The page, drawn alike by both apps."""
            mine, theirs = here.get(page), other.get(page)
            assert mine.status_code == 200, page
            assert theirs.status_code == 200, page
            assert _comparable(theirs.data) == _comparable(mine.data), page
            return mine.get_data(as_text=True)

        pages = ["/", "/games", "/stats", "/house-rules"]
        pages += [f"/players/{quote(key, safe='')}" for key in self._keys()]
        for page in pages:
            same(page)
        for game_id in self.games:
            scoreboard = same(f"/games/{game_id}")
            for page in ("/result.json", "/export.json", "/export.csv", "/rules"):
                same(f"/games/{game_id}{page}")
            # Each hand the scoreboard links (read from it, not asked for a second time).
            for hand_id in linked_hands(scoreboard):
                same(f"/games/{game_id}/hands/{hand_id}")
        FIGURES["property-test backups restored exactly"] += 1
        FIGURES["actions performed"] += self.steps


Table.TestCase.settings = settings(
    max_examples=postgres.examples(30),
    stateful_step_count=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.usefixtures("figures")
class TestBackupsRestoreExactly(Table.TestCase):  # type: ignore[misc,valid-type]
    """Random sequences of app actions, each backed up and restored exactly."""

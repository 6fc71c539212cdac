"""Every kind of page the app shows, set up quickly, for the accessibility and phone checks.

Games are imported as game files (POST /games/import, JSON) instead of typed in; the one
correction is made through the hand form, as a person would.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CASES = Path(__file__).resolve().parents[1] / "cases"
SYSTEM_IDS = ("classic", "denexa", "black-samba", "super-samba", "fournier")
LONG_NAMES = (
    "Abcdefghijklmnopqrstuvwxyzabcdefghijklmn",
    "NopqrstuvwxyzabcdefghijklmnopqrstuvwxyzA",
)

# Us goes out in hand 1, Them in hand 2: a classic game well short of 10,000.
GOES_OUT = {"went_out": True, "sets": {"samba": 1, "natural_canasta": 1}, "melded_points": 260}
STAYS_IN = {"sets": {"mixed_canasta": 1}, "melded_points": 150, "hand_points": 30}


def player_names(side: str) -> list[str]:
    """Two players per side, named after it (at most 40 characters, like every name)."""
    return [f"Ana {side}"[:40], f"Bob {side}"[:40]]


def game_file(names: tuple[str, str] = ("Us", "Them")) -> dict[str, Any]:
    """A classic game of two teams of two with two hands played."""
    return {
        "variant": "classic",
        "options": {},
        "sides": [
            {"name": name, "players": 2, "player_names": player_names(name)} for name in names
        ],
        "hands": [
            {"ended_by": "going_out", "entries": [GOES_OUT, STAYS_IN]},
            {"ended_by": "going_out", "entries": [STAYS_IN, GOES_OUT]},
        ],
    }


def finished_game_file(names: tuple[str, str] = ("Us", "Them")) -> dict[str, Any]:
    """The public case in which Us crosses 10,000: the scoreboard shows the winner."""
    data: dict[str, Any] = json.loads((CASES / "classic-game-won.json").read_text())
    for side, name in zip(data["sides"], names, strict=True):
        side["name"] = name
    return data


def import_game(page: Any, base_url: str, data: dict[str, Any]) -> str:
    """Import a game file; returns its scoreboard's path."""
    response = page.request.post(
        base_url + "/games/import",
        data=json.dumps(data),
        headers={"Content-Type": "application/json"},
    )
    assert response.status == 201, response.text()
    location: str = response.headers["location"]
    return location.removeprefix(base_url)


def hand_paths(page: Any, base_url: str, scoreboard: str) -> list[str]:
    """The breakdown pages of a game's hands, in order."""
    page.goto(base_url + scoreboard)
    rows = page.locator("table.hands tbody tr").evaluate_all("rows => rows.map(r => r.id)")
    return [f"{scoreboard}/hands/{row.removeprefix('hand-')}" for row in rows]


def correct_first_hand(page: Any, base_url: str, scoreboard: str) -> None:
    """Change what Them held in hand 1, through the correction form."""
    first = hand_paths(page, base_url, scoreboard)[0]
    page.goto(base_url + first + "/edit")
    page.locator("#sides-1-hand_points").fill("45")
    with page.expect_event("load"):
        page.locator("button[name=action][value=save]").click()
    assert page.url.startswith(base_url + scoreboard), page.url


@dataclass(frozen=True)
class Games:
    """The games the pages are shown with."""

    playing: str
    finished: str
    hand: str
    corrected_hand: str
    player: str
    house_rule: str


def set_up_games(page: Any, base_url: str, names: tuple[str, str] = ("Us", "Them")) -> Games:
    playing = import_game(page, base_url, game_file(names))
    finished = import_game(page, base_url, finished_game_file(names))
    correct_first_hand(page, base_url, playing)
    first, second = hand_paths(page, base_url, playing)
    player = "/players/" + " ".join(player_names(names[0])[0].split()).casefold()
    return Games(
        playing=playing,
        finished=finished,
        hand=second,
        corrected_hand=first,
        player=player,
        house_rule=make_house_rule(page, base_url, f"Casa {names[0]}"[:40]),
    )


def make_house_rule(page: Any, base_url: str, name: str) -> str:
    """A Denexa house rule with sambas at 1,500, made through its form; its rules page."""
    page.goto(base_url + "/house-rules/new?system=denexa")
    page.locator("#name").fill(name)
    page.locator("#bonus_samba").fill("1500")
    with page.expect_event("load"):
        page.locator("main form button[type=submit]").last.click()
    links = page.locator("a[href^='/house-rules/']").evaluate_all(
        "links => links.map(a => a.getAttribute('href'))"
    )
    rule = [link for link in links if re.fullmatch(r"/house-rules/\d+", link)]
    assert rule, page.url
    return str(rule[0])


def refused_house_rule(page: Any, base_url: str) -> None:
    """The house-rule form sent back: a name of spaces, and a first-meld table going down."""
    page.goto(base_url + "/house-rules/new?system=classic")
    page.locator("#name").fill("   ")
    page.locator("#first_meld-1-lowest").fill("100")
    with page.expect_event("load"):
        page.locator("main form button[type=submit]").last.click()
    assert page.locator(".errors").count() >= 1


def refused_names(page: Any, base_url: str) -> None:
    """The names form sent back: side names of spaces only are no names."""
    page.goto(base_url + "/games/new?system=black-samba&table=2x2")
    page.locator("#side_list-0-name").fill("   ")
    page.locator("#side_list-1-name").fill(" ")
    with page.expect_event("load"):
        page.locator("form.stack button[type=submit]").click()
    assert page.locator(".errors").count() >= 2


def refused_hand(path: str) -> Callable[[Any, str], None]:
    """The hand form sent back: the first side went out with nothing melded."""

    def open_refused(page: Any, base_url: str) -> None:
        page.goto(base_url + path)
        page.locator("#ending-0").check()
        page.locator("#sides-1-melded_points").fill("12")
        # Without JavaScript the answer is a new page; with it, the same page shows the answer.
        page.locator("button[name=action][value=save]").click()
        # #problems is on the form before it is sent: wait for what only the answer has, and
        # for the answer's page to have loaded its styles (axe reads colours).
        page.locator("#problems .errors").wait_for()
        page.wait_for_load_state()

    return open_refused


def hand_with_preview(path: str) -> Callable[[Any, str], None]:
    """The hand form part filled in, with the preview of the scores showing."""

    def open_preview(page: Any, base_url: str) -> None:
        page.goto(base_url + path)
        page.locator("#ending-0").check()
        page.locator("#sides-0-set_samba").fill("1")
        page.locator("#sides-0-set_natural_canasta").fill("1")
        page.locator("#sides-0-melded_points").fill("260")
        page.locator("#sides-1-melded_points").fill("150")
        preview = page.locator(".preview-button")
        if preview.is_visible():  # without JavaScript, Preview asks for the scores
            with page.expect_event("load"):
                preview.click()
        # With it, the summary at the bottom scores the hand as it is typed.
        page.locator("#summary .hand-score", has_text="+").first.wait_for()
        # Every point of the hand, unfolded, so that the checks see it too.
        breakdown = page.locator("#breakdown")
        if not breakdown.evaluate("d => d.open"):
            breakdown.locator("summary").click()
        breakdown.locator(".side-score").first.wait_for()

    return open_preview


def refused_restore(page: Any, base_url: str) -> None:
    """The restore form sent back: the scorekeeper already holds games."""
    page.goto(base_url + "/restore")
    backup = page.request.get(base_url + "/backup.json").body()
    page.locator("#backup_file").set_input_files(
        {"name": "backup.json", "mimeType": "application/json", "buffer": backup}
    )
    with page.expect_event("load"):
        page.locator("main form button[type=submit]").click()
    assert page.locator("#backup_file-errors").count() == 1


def wrong_pin(page: Any, base_url: str) -> None:
    """The PIN's form sent back: no PIN is set here, so a PIN of spaces is the wrong one."""
    page.goto(base_url + "/pin")
    page.locator("#pin").fill("  ")
    with page.expect_event("load"):
        page.locator("main form button[type=submit]").click()


def refused_pin_settings(page: Any, base_url: str) -> None:
    """The PIN's settings sent back: the two new PINs differ."""
    page.goto(base_url + "/settings/pin")
    page.locator("#new").fill("1357")
    page.locator("#again").fill("1358")
    with page.expect_event("load"):
        page.locator("main form.stack button[type=submit]").click()
    assert page.locator("#again-errors").count() == 1


def recently_deleted(page: Any, base_url: str) -> None:
    """Recently deleted, with a game deleted through its confirmation."""
    scoreboard = import_game(page, base_url, game_file(("Deleted", "Gone")))
    page.goto(base_url + scoreboard + "/delete")
    with page.expect_event("load"):
        page.locator("main form button[type=submit]").click()
    page.goto(base_url + "/games/deleted")
    assert page.locator("form[action='/games/deleted'] button").count() >= 1


def merged_player(page: Any, base_url: str) -> None:
    """A player page offering to undo a merge into the player (made through its form)."""
    import_game(page, base_url, game_file(("Merged", "Kept")))
    page.goto(base_url + "/players/ana merged")
    with page.expect_event("load"):
        page.locator("#merge-link").click()
    page.locator("#merge-into").select_option("bob merged")
    with page.expect_event("load"):
        page.locator("form[action$='/merge'] button[type=submit]").click()
    page.goto(base_url + "/players/bob merged")
    assert page.locator("form[action$='/undo'] button").count() >= 1


def visit(path: str) -> Callable[[Any, str], None]:
    def open_path(page: Any, base_url: str) -> None:
        page.goto(base_url + path)

    return open_path


def searched(path: str, typed: str) -> Callable[[Any, str], None]:
    """A rules page with words typed into its search, their results shown under it (by
    static/js/search.js, without leaving the page)."""

    def type_words(page: Any, base_url: str) -> None:
        page.goto(base_url + path)
        page.locator("#rules-q").fill(typed)
        page.locator(f'#search-results [data-query="{typed}"] ol.found').first.wait_for()

    return type_words


def pages(games: Games) -> dict[str, Callable[[Any, str], None]]:
    """Every page, by name, each a way to get there (all but the empty home page)."""
    hand_form = games.playing + "/hands/new"
    return {
        "home": visit("/"),
        "new-game-system": visit("/games/new"),
        "new-game-table": visit("/games/new?system=classic"),
        "new-game-names": visit("/games/new?system=classic&table=2x2"),
        "new-game-table-black-samba": visit("/games/new?system=black-samba"),
        "new-game-names-black-samba": visit("/games/new?system=black-samba&table=2x2"),
        "new-game-table-fournier": visit("/games/new?system=fournier"),
        "new-game-names-refused": refused_names,
        "new-game-names-alone": visit("/games/new?system=classic&table=5x1"),
        "scoreboard": visit(games.playing),
        "scoreboard-finished": visit(games.finished),
        "follow": visit(games.playing + "/follow"),
        "follow-finished": visit(games.finished + "/follow"),
        "table-display": visit(games.playing + "/display"),
        "table-display-finished": visit(games.finished + "/display"),
        "hand-form": visit(hand_form),
        "hand-form-preview": hand_with_preview(hand_form),
        "hand-form-refused": refused_hand(hand_form),
        "hand-correction-form": visit(games.hand + "/edit"),
        "hand": visit(games.hand),
        "hand-corrected": visit(games.corrected_hand),
        "import": visit("/games/import"),
        "not-found": visit("/games/no-such-game"),
        "rules": visit("/rules"),
        **{f"rules-{system}": visit(f"/rules/{system}") for system in SYSTEM_IDS},
        "game-rules": visit(games.playing + "/rules"),
        "rules-search": visit("/rules/search?q=red+three+in+hand"),
        # From a game: its system's passages first, the other systems' folded under them.
        "game-rules-search": visit(
            f"/rules/search?q=red+three+in+hand&system=classic&game={games.playing.split('/')[-1]}"
        ),
        "game-rules-searched": searched(games.playing + "/rules", "red three in hand"),
        "what-if": visit(games.playing + "/what-if"),
        "games": visit("/games"),
        "games-filtered": visit("/games?player=ana&status=playing"),
        "stats": visit("/stats"),
        "player": visit(games.player),
        "player-merge": visit(games.player + "/merge"),
        "house-rules": visit("/house-rules"),
        "house-rule-form": visit("/house-rules/new?system=black-samba"),
        "house-rule-refused": refused_house_rule,
        "house-rule": visit(games.house_rule),
        "new-game-from-house-rule": visit("/games/new"),
        "manage-game": visit(games.playing + "/manage"),
        "delete-game": visit(games.playing + "/delete"),
        "archived-games": visit("/games/archived"),
        "settings": visit("/settings"),
        "restore": visit("/restore"),
        "restore-refused": refused_restore,
        "share": visit(games.playing + "/share"),
        "result": visit(games.finished + "/result"),
        "pin": visit("/pin?next=/stats"),
        "pin-wrong": wrong_pin,
        "pin-settings": visit("/settings/pin"),
        "pin-settings-refused": refused_pin_settings,
        "recently-deleted": recently_deleted,
        "player-merged": merged_player,
    }


NO_JS_PAGES = (
    "hand-form",
    "hand-form-refused",
    "hand-correction-form",
    "new-game-names-refused",
    "house-rule-refused",
)


OPEN_ALL_DETAILS = "() => document.querySelectorAll('details').forEach(d => { d.open = true; })"


def every_state(page: Any, server: str, plain: Any | None = None) -> Iterator[tuple[str, Any]]:
    """Every page the app shows, each drawn once in `page`: its name and the page showing it,
    to check before going on to the next. The empty home page first, then `pages` of games
    whose sides have 40-letter names (set up here), then the names form filled with long names;
    with `plain` (a page whose scripts never arrive), the pages that work without JavaScript
    (NO_JS_PAGES) after them, named "…-without-js"."""
    page.goto(server + "/")
    yield "home-empty", page
    every_page = pages(set_up_games(page, server, LONG_NAMES))
    for name, open_page in every_page.items():
        open_page(page, server)
        yield name, page
    page.goto(server + "/games/new?system=classic&table=3x2")
    for index, side_name in enumerate(LONG_NAMES * 2):
        if page.locator(f"#side_list-{index}-name").count():
            page.locator(f"#side_list-{index}-name").fill(side_name)
    for field in page.locator("input[id*=players]").all():
        field.fill("Wwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwwww")
    yield "new-game-names-long", page
    if plain is not None:
        for name in NO_JS_PAGES:
            every_page[name](plain, server)
            yield f"{name}-without-js", plain

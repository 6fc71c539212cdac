"""The public cases (docs/game-file.md): each game file gives its expected result.

They are compared the way `check-cases` compares them: the violations of each hand and of the
game as sets of (code, side); the scores, totals, end and winner only when no violation is
expected; and the exit status of the command, 0 or 1.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scorekeeper.rules import check_game_data
from tests.command import scorekeeper

CASES = Path(__file__).resolve().parent.parent / "cases"
CASE_FILES = sorted(p for p in CASES.glob("*.json") if not p.name.endswith(".expected.json"))
CASE_NAMES = [p.stem for p in CASE_FILES]
SCRIPT = Path(sys.executable).parent / (
    "scorekeeper.exe" if sys.platform == "win32" else "scorekeeper"
)

Json = dict[str, Any]


def game_file(name: str) -> Path:
    return CASES / f"{name}.json"


def expected(name: str) -> Json:
    result: Json = json.loads((CASES / f"{name}.expected.json").read_text(encoding="utf-8"))
    return result


def violation_set(items: list[Json] | None) -> set[tuple[Any, Any]]:
    return {(v.get("code"), v.get("side")) for v in items or []}


def expects_a_violation(want: Json) -> bool:
    return bool(want["game_violations"]) or any(h["violations"] for h in want["hands"])


def differences(got: object, want: Json) -> list[str]:
    """What differs between a result and its expected answer, read as check-cases reads it."""
    if not isinstance(got, dict):
        return ["result is not a JSON object"]
    diffs = []
    got_game, want_game = (
        violation_set(got.get("game_violations")),
        violation_set(want["game_violations"]),
    )
    if got_game != want_game:
        diffs.append(f"game_violations {sorted(got_game)} != {sorted(want_game)}")
    got_hands = got.get("hands") or []
    if len(got_hands) != len(want["hands"]):
        return [*diffs, f"{len(got_hands)} hands in result, {len(want['hands'])} expected"]
    for n, (g, w) in enumerate(zip(got_hands, want["hands"], strict=True), start=1):
        gv, wv = violation_set(g.get("violations")), violation_set(w["violations"])
        if gv != wv:
            diffs.append(f"hand {n}: violations {sorted(gv, key=str)} != {sorted(wv, key=str)}")
    if expects_a_violation(want):
        return diffs
    for n, (g, w) in enumerate(zip(got_hands, want["hands"], strict=True), start=1):
        for s, (gs, ws) in enumerate(zip(g.get("sides") or [], w["sides"], strict=False)):
            for key in ("hand_score", "total", "min_opening_meld"):
                if gs.get(key) != ws[key]:
                    diffs.append(f"hand {n} side {s}: {key} {gs.get(key)} != {ws[key]}")
    for key in ("totals", "game_over", "winner"):
        if got.get(key) != want[key]:
            diffs.append(f"{key} {got.get(key)} != {want[key]}")
    return diffs


def run_check(*command: str, path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, "check", str(path)], capture_output=True, text=True, timeout=60, check=False
    )


def test_the_public_cases_are_here():
    assert len(CASE_NAMES) >= 27
    for name in CASE_NAMES:
        assert (CASES / f"{name}.expected.json").is_file(), name


@pytest.mark.parametrize("name", CASE_NAMES)
def test_the_engine_gives_each_public_case_its_expected_result(name):
    want = expected(name)
    got = check_game_data(json.loads(game_file(name).read_text(encoding="utf-8")))
    assert differences(got, want) == []
    has_violations = bool(got["game_violations"]) or any(h["violations"] for h in got["hands"])
    assert has_violations == expects_a_violation(want)


@pytest.mark.parametrize("name", CASE_NAMES)
def test_the_command_gives_each_public_case_its_expected_result(name):
    want = expected(name)
    run = scorekeeper("check", str(game_file(name)))
    assert differences(json.loads(run.stdout), want) == []
    assert run.returncode == (1 if expects_a_violation(want) else 0), run.stderr


@pytest.mark.parametrize("name", ["classic-first-hand", "classic-opening-meld-too-low"])
def test_the_installed_scorekeeper_command_gives_a_public_case_its_expected_result(name):
    assert SCRIPT.is_file(), f"no console script at {SCRIPT}; is the project installed?"
    want = expected(name)
    run = run_check(str(SCRIPT), path=game_file(name))
    assert differences(json.loads(run.stdout), want) == []
    assert run.returncode == (1 if expects_a_violation(want) else 0), run.stderr


def test_a_wrong_score_would_be_noticed():
    want = expected("classic-first-hand")
    got = json.loads(json.dumps(want))
    got["hands"][0]["sides"][1]["hand_score"] += 5
    got["totals"][0] = 0
    assert differences(got, want) == [
        "hand 1 side 1: hand_score 270 != 265",
        "totals [0, 265] != [2710, 265]",
    ]


def test_a_missing_violation_would_be_noticed_and_scores_then_ignored():
    want = expected("classic-opening-meld-too-low")
    got = json.loads(json.dumps(want))
    got["hands"][0]["violations"] = []
    got["totals"] = [0, 0]
    assert len(differences(got, want)) == 1
    assert differences(got, want)[0].startswith("hand 1: violations [] != ")

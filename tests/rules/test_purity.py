"""The rules engine is pure (scorekeeper/rules/__init__.py): the engine and `scorekeeper check`
load nothing of the web app, and the engine passes `mypy --strict`."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

from tests.helpers import unavailable

ROOT = Path(__file__).resolve().parent.parent.parent
A_CLEAN_GAME = ROOT / "tests" / "cases" / "classic-first-hand.json"
WEB_PACKAGES = ("flask", "sqlalchemy", "werkzeug", "wtforms", "jinja2")


def modules_loaded_by(script: str, *args: str) -> list[str]:
    """The names in sys.modules after `script` ran in a fresh Python; it prints them as JSON."""
    run = subprocess.run(
        [sys.executable, "-c", script, *args],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    modules: list[str] = json.loads(run.stdout)
    return modules


def web_modules(modules: list[str]) -> list[str]:
    return [name for name in modules if name.lower().startswith(WEB_PACKAGES)]


IMPORT_THE_ENGINE_AND_THE_COMMAND = """
import json, sys
import scorekeeper.rules, scorekeeper.cli, scorekeeper.nights
print(json.dumps(sorted(sys.modules)))
"""

RUN_PYTHON_M_SCOREKEEPER_CHECK = """
import contextlib, io, json, runpy, sys
sys.argv = ["scorekeeper", "check", sys.argv[1]]
with contextlib.redirect_stdout(io.StringIO()) as out:
    try:
        runpy.run_module("scorekeeper", run_name="__main__", alter_sys=True)
    except SystemExit as end:
        status = end.code
assert status == 0, status
assert json.loads(out.getvalue())["totals"] == [2710, 265]
print(json.dumps(sorted(sys.modules)))
"""


def test_the_web_packages_are_recognised():
    assert web_modules(["flask_sqlalchemy", "jinja2.ext", "Werkzeug", "json", "sqlite3"]) == [
        "flask_sqlalchemy",
        "jinja2.ext",
        "Werkzeug",
    ]


def test_importing_the_engine_and_the_command_loads_no_web_package():
    modules = modules_loaded_by(IMPORT_THE_ENGINE_AND_THE_COMMAND)
    assert "scorekeeper.rules" in modules
    assert "scorekeeper.cli" in modules
    assert "scorekeeper.nights" in modules  # a club night's movements and rankings too
    assert web_modules(modules) == []


def test_python_m_scorekeeper_check_loads_no_web_package():
    modules = modules_loaded_by(RUN_PYTHON_M_SCOREKEEPER_CHECK, str(A_CLEAN_GAME))
    assert "scorekeeper.rules.replay" in modules
    assert web_modules(modules) == []


def test_the_engine_passes_mypy_strict(tmp_path):
    if importlib.util.find_spec("mypy") is None:
        unavailable("mypy is not installed in this environment (pip install -e '.[test]')")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "mypy",
            "--strict",
            "--cache-dir",
            str(tmp_path / "mypy_cache"),
            "scorekeeper/rules",
            "scorekeeper/nights",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Success" in run.stdout

"""`python3 dev.py` sets up with uv when it can be had and with pip where it cannot.

dev.py is a script at the top of the repository, so it is loaded from its file; no command really
runs: the tests stand in for `subprocess.run` and `shutil.which` and look at what was asked.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]

Command = list[str]


def load_dev() -> ModuleType:
    spec = importlib.util.spec_from_file_location("dev", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


dev = load_dev()


@pytest.fixture
def venv(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A .venv of the test's own, already made, with nothing installed yet."""
    folder = tmp_path / ".venv"
    (folder / "bin").mkdir(parents=True)
    (folder / "bin" / "python").touch()
    monkeypatch.setattr(dev, "VENV", folder)
    monkeypatch.setattr(dev, "BIN", folder / "bin")
    monkeypatch.setattr(dev, "PYTHON", folder / "bin" / "python")
    monkeypatch.setattr(dev, "STAMP", folder / ".installed")
    return folder


def commands(
    monkeypatch: pytest.MonkeyPatch,
    *,
    uv_on_path: bool,
    answer: Callable[[Command], int] = lambda command: 0,
) -> list[Command]:
    """The commands dev.py runs from now on; `answer` gives each one's exit status."""
    ran: list[Command] = []

    def run(command: Command, check: bool = False, **_: object) -> subprocess.CompletedProcess[str]:
        ran.append(command)
        status = answer(command)
        if check and status != 0:
            raise subprocess.CalledProcessError(status, command)
        return subprocess.CompletedProcess(command, status, "", "")

    monkeypatch.setattr(dev.subprocess, "run", run)
    monkeypatch.setattr(
        dev.shutil, "which", lambda name: f"/usr/bin/{name}" if uv_on_path else None
    )
    return ran


def is_uv_install(command: Command) -> bool:
    return command[1:3] == ["pip", "install"] and "uv" in Path(command[0]).name


def is_pip_install_of_the_project(command: Command) -> bool:
    return command[1:4] == ["-m", "pip", "install"] and "-e" in command


def is_pip_install_of_uv(command: Command) -> bool:
    return command[1:4] == ["-m", "pip", "install"] and command[-1] == "uv"


def test_uv_on_the_path_installs_the_project_into_the_venv(
    venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran = commands(monkeypatch, uv_on_path=True)

    assert dev.install("/repo[test]") == "uv"

    assert ran == [
        ["/usr/bin/uv", "pip", "install", "--quiet", "--compile-bytecode",
         "--python", str(venv / "bin" / "python"), "-e", "/repo[test]"],
    ]  # fmt: skip


def test_without_uv_on_the_path_pip_puts_uv_into_the_venv_and_uv_installs(
    venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def answer(command: Command) -> int:
        if is_pip_install_of_uv(command):
            (venv / "bin" / "uv").touch()
        return 0

    ran = commands(monkeypatch, uv_on_path=False, answer=answer)

    assert dev.install("/repo[test]") == "uv"

    assert is_pip_install_of_uv(ran[0])
    assert "--only-binary" in ran[0], "uv must never be built from its source"
    assert ran[1][0] == str(venv / "bin" / "uv")
    assert is_uv_install(ran[1])
    assert len(ran) == 2


def test_uv_already_in_the_venv_is_used_without_asking_pip(
    venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (venv / "bin" / "uv").touch()
    ran = commands(monkeypatch, uv_on_path=False)

    assert dev.install("/repo") == "uv"

    assert [command[0] for command in ran] == [str(venv / "bin" / "uv")]


def test_where_no_uv_can_be_had_pip_installs_the_project(
    venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No wheel of uv for this machine (Termux) or no package index: pip's install of uv fails.
    ran = commands(
        monkeypatch, uv_on_path=False, answer=lambda command: int(is_pip_install_of_uv(command))
    )

    assert dev.install("/repo[test]") == "pip"

    assert is_pip_install_of_uv(ran[0])
    assert is_pip_install_of_the_project(ran[1])
    assert ran[1][0] == str(venv / "bin" / "python")
    assert ran[1][-1] == "/repo[test]"
    assert len(ran) == 2


def test_when_uv_fails_pip_installs_the_project(
    venv: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = commands(monkeypatch, uv_on_path=True, answer=lambda command: int(is_uv_install(command)))

    assert dev.install("/repo[test]") == "pip"

    assert is_uv_install(ran[0])
    assert is_pip_install_of_the_project(ran[1])
    assert len(ran) == 2
    assert "installing with pip instead" in capsys.readouterr().out


def test_a_uv_that_cannot_be_started_leaves_the_work_to_pip(
    venv: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def answer(command: Command) -> int:
        if is_uv_install(command):
            raise PermissionError(13, "Permission denied", command[0])
        return 0

    ran = commands(monkeypatch, uv_on_path=True, answer=answer)

    assert dev.install("/repo") == "pip"

    assert is_pip_install_of_the_project(ran[-1])


def test_set_up_says_how_long_it_took_and_with_what_and_is_not_repeated(
    venv: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    ran = commands(monkeypatch, uv_on_path=True)

    dev.ensure_venv("[test]")
    dev.ensure_venv("[test]")

    assert len(ran) == 1, "the second run finds the stamp of the same pyproject.toml"
    output = capsys.readouterr().out
    assert "Set up in " in output
    assert output.rstrip().endswith(" s with uv.")


def test_other_extras_install_again(venv: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    ran = commands(monkeypatch, uv_on_path=True)

    dev.ensure_venv("[test]")
    dev.ensure_venv("")

    assert [command[-1] for command in ran] == [f"{ROOT}[test]", str(ROOT)]


def test_translations_write_a_catalog_only_when_its_messages_changed(tmp_path: Path) -> None:
    kept, made = tmp_path / "messages.pot", tmp_path / "made.pot"
    header = '"POT-Creation-Date: {}\\n"\n"Generated-By: Babel {}\\n"\n'
    kept.write_text(header.format("2026-11-21 13:49+0000", "2.18.0") + 'msgid "Hand"\n')
    made.write_text(header.format("2026-11-27 09:00+0000", "2.19.0") + 'msgid "Hand"\n')
    before = kept.read_text()
    dev.keep(made, kept)  # made again on an unchanged tree: only its date and Babel differ
    assert kept.read_text() == before
    made.write_text(made.read_text() + 'msgid "Side"\n')
    dev.keep(made, kept)
    assert kept.read_text() == made.read_text()


def test_a_selection_with_nothing_for_postgresql_passes_its_second_run(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(dev, "postgresql_missing", lambda: False)

    def beside(code: int) -> object:
        process = subprocess.Popen(["python3", "-c", f"print('pass'); raise SystemExit({code})"])
        output = tmp_path / f"{code}.txt"
        output.write_text("its output\n")
        return dev.Beside(process, output)

    assert dev.finish_on_postgresql(beside(dev.NOTHING_SELECTED)) == 0
    assert dev.finish_on_postgresql(beside(1)) == 1
    assert dev.finish_on_postgresql(beside(0)) == 0


def test_the_postgresql_pass_runs_beside_the_sqlite_one_and_both_count(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Started before the linters and the SQLite pass, on PostgreSQL, with a pytest cache of its
    own; its output shown after the SQLite pass's; a failure of either fails the run."""
    for name in ("ensure_venv", "ensure_npm_tools", "ensure_browser_tools"):
        monkeypatch.setattr(dev, name, lambda *_: None)
    monkeypatch.setattr(dev, "lint_scripts", lambda: 0)
    monkeypatch.setattr(dev, "tracked_changes", lambda: "")
    monkeypatch.setattr(dev, "postgresql_missing", lambda: False)
    monkeypatch.setattr(dev.tempfile, "tempdir", str(tmp_path))  # where its output is kept
    monkeypatch.setenv(dev.BYTECODE_KEPT, "1")
    events: list[str] = []

    class Process:
        def __init__(self, command: list[str], *, env: dict[str, str], stdout: Any, **_: Any):
            assert env["SCOREKEEPER_TEST_DATABASE"] == "postgresql"
            assert dev.BYTECODE_KEPT not in env
            assert "cache_dir=.pytest_cache/postgresql" in command
            events.append("postgresql started")
            stdout.write(b"on postgresql: 3 passed\n")

        def wait(self) -> int:
            events.append("postgresql waited for")
            return codes["postgresql"]

        def poll(self) -> int | None:
            return None

        def send_signal(self, signal: int) -> None:
            events.append(f"postgresql sent {dev.signal.Signals(signal).name}")

    def run(*args: str) -> int:
        if args[0] != "pytest":
            events.append(f"{args[0]} ran")
            return codes.get(args[0], 0)  # the linters
        assert "SCOREKEEPER_TEST_DATABASE" not in dev.os.environ
        assert dev.BYTECODE_KEPT not in dev.os.environ  # each module compiled once a run
        events.append("sqlite ran")
        return codes["sqlite"]

    monkeypatch.setattr(dev.subprocess, "Popen", Process)
    monkeypatch.setattr(dev, "run", run)
    codes: dict[str, int] = {}
    for sqlite, postgresql, expected in ((0, 0, 0), (1, 0, 1), (0, 1, 1), (0, 5, 0)):
        codes.update(sqlite=sqlite, postgresql=postgresql)
        events.clear()
        assert dev.test(["-x"]) == expected
        linters = ["ruff ran", "ruff ran", "mypy ran"]
        assert events == ["postgresql started", *linters, "sqlite ran", "postgresql waited for"]
        assert capsys.readouterr().out.endswith("on postgresql: 3 passed\n")

    # A linter that fails ends the run, and the PostgreSQL pass as Ctrl-C would.
    codes.update(sqlite=0, postgresql=0, mypy=1)
    events.clear()
    assert dev.test(["-x"]) == 1
    assert events[-2:] == ["postgresql sent SIGINT", "postgresql waited for"]
    assert "sqlite ran" not in events
    assert list(tmp_path.iterdir()) == [], "the output kept is removed in every case"


def test_the_scripts_lint_runs_the_pinned_eslint_and_fails_ci_without_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[tuple[str, ...]] = []
    monkeypatch.setattr(dev, "run", lambda *args: ran.append(args) or 0)
    monkeypatch.setattr(dev, "ESLINT", tmp_path / "eslint")
    monkeypatch.setenv("CI", "true")
    assert dev.lint_scripts() == 1  # none installed: under CI a failure, not a skip
    monkeypatch.delenv("CI")
    assert dev.lint_scripts() == 0 and ran == []
    (tmp_path / "eslint").mkdir()
    (tmp_path / "eslint" / "package.json").write_text(json.dumps({"version": dev.ESLINT_PINNED}))
    assert dev.lint_scripts() == 0
    assert ran == [("node", str(tmp_path / "eslint" / "bin" / "eslint.js"), "static")]

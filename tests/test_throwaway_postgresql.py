"""The run's throw-away PostgreSQL (tests/postgres.py) starts only when a test needs it, once for
every process of the run, so that one engine test runs in seconds."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import postgres
from tests.helpers import unavailable

ROOT = Path(__file__).resolve().parents[1]


def environment(folder: Path) -> dict[str, str]:
    """The environment of a process of a run whose cluster goes in `folder`, not started yet."""
    kept = {name: value for name, value in os.environ.items() if name != postgres.URL_SETTING}
    return {**kept, postgres.FOLDER_SETTING: str(folder)}


def test_a_run_of_engine_tests_starts_no_postgresql(tmp_path: Path) -> None:
    # Starting a cluster begins by asking pg_config where PostgreSQL's programs are: this one
    # notes that it was asked, and says none.
    asked = tmp_path / "asked"
    (tmp_path / "pg_config").write_text(f"#!/bin/sh\ntouch {asked}\nexit 1\n")
    (tmp_path / "pg_config").chmod(0o755)
    env = {
        name: value
        for name, value in os.environ.items()
        if name not in (postgres.URL_SETTING, postgres.FOLDER_SETTING)
    }
    env["PATH"] = f"{tmp_path}{os.pathsep}{env.get('PATH', '')}"
    one_file = ["-q", "-p", "no:cacheprovider", "tests/rules/test_going_out.py"]
    run = subprocess.run(
        [sys.executable, "-m", "pytest", *one_file],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert not asked.exists()


def test_the_processes_of_a_run_share_the_cluster_the_first_of_them_started() -> None:
    if postgres.binaries() is None:
        unavailable("PostgreSQL is not installed (apt-get install postgresql)")
    # In /tmp itself, as the run's: the `postgres` user must reach it when the tests run as root.
    folder = postgres.reserve()
    try:
        asking = [
            subprocess.Popen(
                [sys.executable, "-c", "from tests import postgres; print(postgres.server_url())"],
                cwd=ROOT,
                env=environment(folder),
                stdout=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        urls = {process.communicate()[0].strip() for process in asking}
        assert urls == {f"postgresql+psycopg://postgres@/postgres?host={folder}"}
        assert (folder / "data").is_dir()
    finally:
        postgres.remove(folder)
    assert not folder.exists()


def test_a_cluster_that_cannot_start_is_tried_once_and_its_reason_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    looked: list[None] = []

    def no_postgresql() -> None:
        looked.append(None)

    monkeypatch.setattr(postgres, "binaries", no_postgresql)
    monkeypatch.setattr(postgres, "_refusal", [])
    monkeypatch.delenv(postgres.URL_SETTING, raising=False)
    monkeypatch.setenv(postgres.FOLDER_SETTING, str(tmp_path))
    assert (postgres.server_url(), postgres.server_url()) == ("", "")
    assert postgres.why_none() == "PostgreSQL is not installed (apt-get install postgresql)"
    assert (tmp_path / "refused").read_text() == postgres.why_none()
    assert len(looked) == 1

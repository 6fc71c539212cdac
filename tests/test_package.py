"""The package carries everything it serves: the wheel, installed outside the checkout, runs.

The wheel test takes a minute or two (it installs the dependencies into a new environment, from
pip's cache when it can): `pytest -m 'not package'` leaves it out.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import free_port, wait_until_answering

ROOT = Path(__file__).resolve().parents[1]
# What the build reads: the project's description, the package and the folders mapped into it.
SOURCES = ("pyproject.toml", "README.md", "scorekeeper", "templates", "static")
GAME = {
    "variant": "classic",
    "sides": [{"name": "Us", "players": 2}, {"name": "Them", "players": 2}],
    "hands": [
        {
            "entries": [
                {"went_out": True, "sets": {"natural_canasta": 2}, "melded_points": 300},
                {"melded_points": 60, "hand_points": 20},
            ]
        }
    ],
}


def test_every_python_package_of_the_source_is_listed_for_the_wheel() -> None:
    """pyproject lists the packages (templates/ and static/ are mapped in): a new one must be."""
    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    on_disk = {
        ".".join(path.parent.relative_to(ROOT).parts)
        for path in (ROOT / "scorekeeper").rglob("*.py")
        if "__pycache__" not in path.parts
    }
    assert on_disk <= listed, f"add {sorted(on_disk - listed)} to pyproject's packages"


@dataclass
class Installed:
    """A fresh environment with the wheel installed, and the folders the app may write to."""

    python: Path
    scorekeeper: Path
    environment: dict[str, str]
    data: Path


def install_the_wheel(work: Path) -> Installed:
    """Build the wheel from a copy of the sources and install it into a new environment."""
    source = work / "source"
    source.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, source / name, ignore=shutil.ignore_patterns("__pycache__")
            )
        else:
            shutil.copy2(ROOT / name, source / name)
    # The build works in the copy, so the checkout gets no build/ or egg-info from the test; and
    # without PYTHONPATH, or pip would take the checkout for the project already installed.
    outside = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    run(sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", work / "dist",
        cwd=source, env=outside)  # fmt: skip
    (wheel,) = (work / "dist").glob("*.whl")
    venv = work / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=work)
    python = venv / "bin" / "python"
    # uv, where dev.py found one, installs into the new one (in seconds, from its cache, as it
    # set up .venv: pip took half a minute of the test's minute); else this environment's pip.
    uv = shutil.which("uv") or shutil.which("uv", path=str(Path(sys.executable).parent))
    if uv is not None:
        run(uv, "pip", "install", "--quiet", "--compile-bytecode", "--python", python, wheel,
            cwd=work, env=outside)  # fmt: skip
    else:
        run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet",
            "--disable-pip-version-check", wheel, cwd=work, env=outside)  # fmt: skip
    environment = {
        # Nothing of the checkout: no PYTHONPATH, a home and a data folder of the test's own.
        "PATH": f"{venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}",
        "HOME": str(work / "home"),
        "XDG_DATA_HOME": str(work / "data"),  # where platformdirs puts the per-user data folder
        "LANG": "C.UTF-8",
    }
    return Installed(python, venv / "bin" / "scorekeeper", environment, work / "data")


def run(*command: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    """What a command prints; what it said on standard error when it fails."""
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True)
    assert done.returncode == 0, f"{command}: {done.stdout}{done.stderr}"
    return done.stdout


@dataclass
class Answer:
    status: int
    text: str
    headers: dict[str, str]


def fetch(url: str, *, language: str = "en", game: object = None, host: str = "") -> Answer:
    """A page as a phone asks for it; a game file is posted as JSON; `host` names another host
    in the Host header."""
    body = None if game is None else json.dumps(game).encode()
    request = urllib.request.Request(url, data=body, headers={"Accept-Language": language})
    if host:
        request.add_header("Host", host)
    if body is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return Answer(response.status, response.read().decode(), dict(response.headers))
    except urllib.error.HTTPError as error:
        return Answer(error.code, error.read().decode(), dict(error.headers))


@contextmanager
def serving(installed: Installed, work: Path) -> Iterator[str]:
    """`scorekeeper serve` from the installed wheel, stopped whatever happens."""
    port = free_port()
    log_file = work / "serve.log"
    with log_file.open("w") as log:
        process = subprocess.Popen(
            [installed.scorekeeper, "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=work,
            env=installed.environment,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        try:
            wait_until_answering(process, port, log=log_file)  # up once it accepts connections
            yield f"http://127.0.0.1:{port}"
        finally:
            process.terminate()
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.mark.package
def test_the_wheel_installed_outside_the_checkout_upgrades_and_serves_its_pages(
    tmp_path: Path,
) -> None:
    installed = install_the_wheel(tmp_path)
    where = run(installed.python, "-c", "import scorekeeper; print(scorekeeper.__file__)",
                cwd=tmp_path, env=installed.environment)  # fmt: skip
    assert "site-packages" in where
    assert str(ROOT) not in where

    run(installed.scorekeeper, "upgrade", cwd=tmp_path, env=installed.environment)
    instance = installed.data / "samba-scorekeeper"
    assert (instance / "scorekeeper.sqlite3").stat().st_size > 0

    with serving(installed, tmp_path) as server:
        home = fetch(f"{server}/")
        assert home.status == 200
        assert "New game" in home.text
        assert "Server" not in home.headers
        assert "frame-ancestors 'none'" in home.headers["Content-Security-Policy"]
        assert fetch(f"{server}/", host="evil.example").status == 400

        imported = fetch(f"{server}/games/import", game=GAME)
        assert imported.status == 201, imported.text
        scoreboard = f"{server}{imported.headers['Location']}"
        english = fetch(scoreboard)
        assert english.status == 200
        assert "Record hand 2" in english.text
        spanish = fetch(scoreboard, language="es")
        assert spanish.status == 200
        assert "Anotar la mano 2" in spanish.text

        stylesheet = fetch(f"{server}/static/style.css")
        assert stylesheet.status == 200
        assert ":root {" in stylesheet.text

        # The result to send and the installable app: templates and files beyond HTML and CSS.
        assert "<textarea" in fetch(f"{scoreboard}/result").text
        assert fetch(f"{scoreboard}/scoreboard.svg").text.startswith("<?xml")
        assert 'addEventListener("fetch"' in fetch(f"{server}/sw.js").text
        assert fetch(f"{server}/static/icons/icon.svg").text.startswith("<svg")

    assert len((instance / "secret_key").read_text()) == 64
    site_packages = next(installed.python.parents[1].glob("lib/python*/site-packages"))
    # Every template and static file, in whatever folder (a blueprint's, a partial's).
    for folder in ("templates", "static"):
        shipped = {p.relative_to(ROOT / folder) for p in (ROOT / folder).rglob("*") if p.is_file()}
        carried = site_packages / "scorekeeper" / "web" / folder
        assert {p for p in shipped if not (carried / p).is_file()} == set(), folder
    assert not (site_packages / "instance").exists()
    assert not list(site_packages.rglob("secret_key"))
    assert not list(site_packages.rglob("*.sqlite3"))

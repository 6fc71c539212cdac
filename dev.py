#!/usr/bin/env python3
"""Set up the virtual environment and run: `python3 dev.py serve` or `python3 dev.py test`.

    python3 dev.py serve [--host H] [--port P]   the app, for the phones on this network
    python3 dev.py test                          everything CI runs, in parallel
    python3 dev.py test --quick                  lint, types, the engine and the web tests
    python3 dev.py test tests/rules/test_going_out.py   one file (or one test: FILE::NAME)
    python3 dev.py screenshots                   take the README's pictures again
    python3 dev.py translations                  extract, update and compile the translations

Needs only Python 3.11+. The first run makes `.venv/` and installs the project into it, with uv
when it can be had (on the PATH, or from the package index into .venv) and with pip where it
cannot; later runs reinstall only when pyproject.toml has changed. Options after `test` go to
pytest.

`translations` runs Babel's pybabel: it extracts the messages that babel.cfg names into
scorekeeper/translations/messages.pot, updates each language's messages.po from it (new messages
to translate, changed ones marked fuzzy, gone ones kept as obsolete) and compiles its
messages.mo. A catalog is written only when its messages changed, not merely its date: run on
an unchanged tree, it changes no file.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed"
NPM = VENV / "npm"
AXE = NPM / "node_modules" / "axe-core" / "axe.min.js"
ESLINT = NPM / "node_modules" / "eslint"
NPM_PACKAGES = ("axe-core@^4.10", "eslint@9.39.5", "@eslint/js@9.39.5", "globals@16.5.0")
"""What the tests take from npm into .venv/npm: axe-core for the accessibility tests, and ESLint
(pinned, with its rule sets; eslint.config.mjs) for the browser's scripts. A .venv/npm with
another ESLint than the one pinned here is installed again."""
WORKERS = str(2 * (os.cpu_count() or 1))
"""pytest's processes: two per core. Half of a test's time is spent waiting on a server, a
browser or PostgreSQL (a whole run on two cores used 54 % of them with one process per core),
and every test waits on conditions, not on the clock, so a busier machine only makes it slower."""
QUICK = ("tests/rules", "tests/web", "scorekeeper")
"""What `dev.py test --quick` runs: a couple of minutes, for daily work."""


INSTALLED_WITH = "bytecode"
"""What the installs of .venv do besides pyproject.toml's, in its stamp: a .venv set up before
they did it is set up again. The libraries are compiled to bytecode when installed (pip always
does it; uv with --compile-bytecode): where PYTHONDONTWRITEBYTECODE is set, as on this project's
machines, every Python started (a server, a worker, a benchmark: hundreds in a test run) would
otherwise compile Flask, SQLAlchemy and Alembic again (importing the app took 3.8 s of CPU
without their bytecode and 1.4 s with it, measured here)."""


def ensure_venv(extras: str) -> None:
    """Create .venv and install the project with `extras`, unless that is already done."""
    if sys.version_info < (3, 11):  # noqa: UP036 - this script may be started by an older Python
        sys.exit(f"Samba Scorekeeper needs Python 3.11 or newer, not {sys.version.split()[0]}.")
    wanted = hashlib.sha256(
        (ROOT / "pyproject.toml").read_bytes() + extras.encode() + INSTALLED_WITH.encode()
    ).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    started = time.monotonic()
    if not PYTHON.exists():
        print("Creating the virtual environment in .venv ...", flush=True)
        # With pip even when uv installs: pip is the fallback, and tests/test_package.py installs
        # the wheel with the environment's own pip.
        venv.EnvBuilder(with_pip=True).create(VENV)
    print(f"Installing Samba Scorekeeper{extras} into .venv ...", flush=True)
    installer = install(f"{ROOT}{extras}")
    STAMP.write_text(wanted)
    print(f"Set up in {time.monotonic() - started:.1f} s with {installer}.", flush=True)


def install(project: str) -> str:
    """Install `project` (editable) into .venv with uv when it can be had, else with pip; say
    which did it. uv resolves and installs several times faster than pip; pip is everywhere."""
    uv = find_uv()
    if uv is not None:
        try:
            subprocess.run(
                [
                    uv,
                    "pip",
                    "install",
                    "--quiet",
                    "--compile-bytecode",
                    "--python",
                    str(PYTHON),
                    "-e",
                    project,
                ],
                check=True,
            )
            return "uv"
        except (OSError, subprocess.CalledProcessError) as error:
            # uv reads no pip.conf: a machine that reaches its packages only through pip's
            # settings (a mirror, a proxy, local wheels) still gets set up, by pip.
            print(f"uv could not install it ({error}); installing with pip instead ...", flush=True)
    subprocess.run([*pip_install(), "-e", project], check=True)
    return "pip"


def pip_install() -> list[str]:
    """The environment's pip, installing quietly."""
    return [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]


def find_uv() -> str | None:
    """uv on the PATH, or the one in .venv, or one that pip puts there now; None where there is
    none to be had (offline, or no uv wheel for this machine, as under Termux)."""
    on_path = shutil.which("uv")
    if on_path is not None:
        return on_path
    uv = BIN / ("uv.exe" if os.name == "nt" else "uv")
    if not uv.exists():
        # A wheel only: building uv from its source (Rust) takes far longer than pip ever would.
        bootstrap = subprocess.run(
            [
                *pip_install(),
                "--only-binary",
                ":all:",
                "uv",
            ],
            capture_output=True,
            text=True,
            check=False,
        )
        if bootstrap.returncode != 0 or not uv.exists():
            print("uv cannot be had here; installing with pip ...", flush=True)
            return None
    return str(uv)


def ensure_npm_tools() -> None:
    """axe-core and ESLint from npm into .venv/npm, unless they are there, ESLint as pinned."""
    npm = shutil.which("npm")
    if npm and (not AXE.exists() or eslint_version() != ESLINT_PINNED):
        print("Installing axe-core and ESLint (npm) into .venv/npm ...", flush=True)
        subprocess.run(
            [npm, "install", "--prefix", str(NPM), "--no-audit", "--no-fund", "--silent",
             *NPM_PACKAGES],
            check=False,
        )  # fmt: skip


ESLINT_PINNED = next(name.split("@")[1] for name in NPM_PACKAGES if name.startswith("eslint@"))


def eslint_version() -> str | None:
    """The version of ESLint in .venv/npm, if any."""
    try:
        return str(json.loads((ESLINT / "package.json").read_text())["version"])
    except (OSError, ValueError, KeyError):
        return None


def lint_scripts() -> int:
    """ESLint on the browser's scripts; without npm, said plainly and skipped, except under CI."""
    if eslint_version() is None:
        print("ESLint is missing (no npm?): the scripts' lint is SKIPPED.", flush=True)
        return 1 if os.environ.get("CI") else 0
    return run("node", str(ESLINT / "bin" / "eslint.js"), "static")


def ensure_browser_tools() -> None:
    """Chromium and nginx come from the system. Say plainly what is missing."""
    if not shutil.which("chromium"):
        print(
            "Chromium is not installed (apt-get install chromium): "
            "the browser tests will be SKIPPED.",
            flush=True,
        )
    elif not shutil.which("chromium-headless-shell"):
        print(
            "Chromium's headless shell is not installed (apt-get install chromium-headless-shell): "
            "the browser tests run in the whole Chromium, with more CPU.",
            flush=True,
        )
    if shutil.which("chromium") and not AXE.exists():
        print("axe-core is missing (no npm?): the accessibility tests will be SKIPPED.", flush=True)
    # Debian keeps it in /usr/sbin, off a user's PATH.
    if not shutil.which("nginx") and not shutil.which("nginx", path="/usr/sbin:/usr/local/sbin"):
        print(
            "nginx is not installed (apt-get install nginx): the slow-client test will be SKIPPED.",
            flush=True,
        )


def run(*args: str) -> int:
    """Run a command of .venv's (or, for node, the system's)."""
    print("$", " ".join(args), flush=True)
    program = (shutil.which("node") or "node") if args[0] == "node" else str(BIN / args[0])
    return subprocess.run([program, *args[1:]], cwd=ROOT).returncode


def serve(argv: list[str]) -> int:
    ensure_venv("")
    # Reachable from phones on the same network unless --host says otherwise (the last wins).
    return run("scorekeeper", "serve", "--host", "0.0.0.0", *argv)


def tracked_changes() -> str | None:
    """`git status --porcelain` of the checkout (None outside a git checkout)."""
    if not shutil.which("git") or not (ROOT / ".git").exists():
        return None
    status = subprocess.run(
        ["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    return status.stdout if status.returncode == 0 else None


def lint() -> int:
    """ruff, its formatting, mypy and ESLint: 0 when all pass."""
    for step in (
        ("ruff", "check", "."),
        ("ruff", "format", "--check", "."),
        ("mypy",),
    ):
        if run(*step) != 0:
            return 1
    return lint_scripts()


BYTECODE_KEPT = "PYTHONDONTWRITEBYTECODE"
"""Unset for a test run, so that each module of the checkout is compiled once a run and read
by every process after: with it set (as on this project's machines), each of pytest's workers
rewrote the asserts of every test module again (collecting took 11 s of CPU a worker, 3.3 s
with them kept), and every server or benchmark the tests start compiled the app's modules again
(0.2 s each). What is written goes to `__pycache__` folders, which git ignores."""


def test(argv: list[str]) -> int:
    quick = "--quick" in argv
    argv = [arg for arg in argv if arg != "--quick"]
    os.environ.pop(BYTECODE_KEPT, None)
    ensure_venv("[test]")
    ensure_npm_tools()
    if not quick:
        ensure_browser_tools()
    before = tracked_changes()
    # The PostgreSQL pass runs beside the linters and the SQLite pass: its workers mostly wait
    # on PostgreSQL, and the SQLite pass's on browsers and servers, so each fills the other's
    # waits instead of leaving the cores idle for minutes (and the linters use one core).
    beside = 0 if quick else start_on_postgresql(argv)
    code = lint()
    if code != 0:
        stop_on_postgresql(beside)
        if isinstance(beside, Beside):
            beside.output.unlink()
        return code
    if quick:
        # The engine, the package's doctests and the web app: no browser, no reliability,
        # nothing slow.
        code = run("pytest", "-n", WORKERS, "-m", "not slow", *QUICK, *argv)
    else:
        code = run("pytest", "-n", WORKERS, *argv)
        code = finish_on_postgresql(beside) or code
    # A test run writes nothing of the repository's (pictures included: `dev.py screenshots`).
    after = tracked_changes()
    if code == 0 and before != after:
        print("The test run changed the checkout (git status --porcelain):", flush=True)
        print(after, flush=True)
        return 1
    return code


NOTHING_SELECTED = 5
"""pytest's exit status when no test was selected (pytest.ExitCode.NO_TESTS_COLLECTED)."""


def postgresql_missing() -> bool:
    """Whether this machine lacks PostgreSQL's initdb (Debian keeps it off the PATH)."""
    found = list(Path("/usr/lib/postgresql").glob("*/bin/initdb"))
    return not found and not shutil.which("initdb") and not shutil.which("pg_config")


def stop_on_postgresql(beside: Beside | int) -> None:
    """Stop the PostgreSQL pass as Ctrl-C does, so that it removes its throw-away server."""
    if isinstance(beside, Beside) and beside.process.poll() is None:
        beside.process.send_signal(signal.SIGINT)
        beside.process.wait()


class Beside:
    """The PostgreSQL pass started beside the SQLite one: its process and the file that keeps
    its output until the SQLite pass's has been shown."""

    def __init__(self, process: subprocess.Popen[bytes], output: Path) -> None:
        self.process = process
        self.output = output


PG_WORKERS = str(os.cpu_count() or 1)
"""The PostgreSQL pass's processes, beside the SQLite pass's WORKERS: one per core."""


def start_on_postgresql(argv: list[str]) -> Beside | int:
    """The web and reliability suites again, their apps on a throw-away PostgreSQL that pytest
    starts in a temporary folder and removes (tests/postgres.py), started now in the background;
    without PostgreSQL, said plainly and skipped (1, a failure, under CI)."""
    if postgresql_missing():
        print(
            "PostgreSQL is not installed (apt-get install postgresql): "
            "the tests on PostgreSQL are SKIPPED.",
            flush=True,
        )
        return 1 if os.environ.get("CI") else 0
    # The same options; what runs on PostgreSQL is chosen in one place, tests/conftest.py
    # (ON_BOTH, less what is marked `sqlite`).
    # A cache of its own (the two passes end near the same moment), unless there is none.
    cached = "no:cacheprovider" not in "".join(argv)
    cache = ("-o", "cache_dir=.pytest_cache/postgresql") if cached else ()
    command = [str(BIN / "pytest"), "-n", PG_WORKERS, *cache, *argv]
    print("$ SCOREKEEPER_TEST_DATABASE=postgresql", *command, "&", flush=True)
    descriptor, name = tempfile.mkstemp(prefix="samba-postgresql-", suffix=".txt")
    output = Path(name)
    with os.fdopen(descriptor, "wb") as sink:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, "SCOREKEEPER_TEST_DATABASE": "postgresql"},
            stdout=sink,
            stderr=subprocess.STDOUT,
        )
    return Beside(process, output)


def finish_on_postgresql(beside: Beside | int) -> int:
    """Wait for the PostgreSQL pass, show its output, and say how it went (0: passed). A
    selection of engine tests alone (`dev.py test tests/rules/…`) has none to run there:
    pytest says so with exit status 5, which is no failure."""
    if isinstance(beside, int):
        return beside
    try:
        code = beside.process.wait()
    except KeyboardInterrupt:
        stop_on_postgresql(beside)
        raise
    finally:
        print("\n--- the same tests on PostgreSQL (run beside) ---", flush=True)
        sys.stdout.write(beside.output.read_text(encoding="utf-8", errors="replace"))
        sys.stdout.flush()
        beside.output.unlink()
    return 0 if code == NOTHING_SELECTED else code


def screenshots(argv: list[str]) -> int:
    """Take the README's pictures again: the browser tests marked `screenshots`, writing into
    docs/screenshots/ (a test run writes them to a temporary folder)."""
    ensure_venv("[test]")
    ensure_npm_tools()
    ensure_browser_tools()
    os.environ["SCOREKEEPER_SCREENSHOTS"] = str(ROOT / "docs" / "screenshots")
    return run("pytest", "-m", "screenshots", "tests/browser", *argv)


TRANSLATIONS = ROOT / "scorekeeper" / "translations"
STAMPS = ("POT-Creation-Date:", "Generated-By:")
"""Header lines that say when and by which Babel a catalog was made, not what it holds."""


def translations(argv: list[str]) -> int:
    """Extract, update and compile the translations; write only what changed (see above)."""
    if argv:
        print("python3 dev.py translations takes no options.")
        return 2
    ensure_venv("[test]")
    template = TRANSLATIONS / "messages.pot"
    with tempfile.TemporaryDirectory() as scratch:
        made = Path(scratch) / "messages.pot"
        # The options the catalogs were made with: babel.cfg's keywords, locations with line
        # numbers, Babel's order and width in the template; the .po files unwrapped.
        if run("pybabel", "-q", "extract", "-F", "babel.cfg", "-o", str(made), ".") != 0:
            return 1
        keep(made, template)
        for po in sorted(TRANSLATIONS.glob("*/LC_MESSAGES/messages.po")):
            updated = Path(scratch) / f"{po.parent.parent.name}.po"
            shutil.copyfile(po, updated)
            update = ("update", "--no-wrap", "-i", str(template), "-o", str(updated))
            if run("pybabel", "-q", *update, "-l", po.parent.parent.name) != 0:
                return 1
            keep(updated, po)
    return run("pybabel", "-q", "compile", "-d", str(TRANSLATIONS))


def keep(made: Path, kept: Path) -> None:
    """Put the catalog `made` in the place of `kept` if their messages differ."""

    def messages(path: Path) -> list[str]:
        lines = path.read_text(encoding="utf-8").splitlines()
        return [line for line in lines if not line.strip('"').startswith(STAMPS)]

    if kept.exists() and messages(made) == messages(kept):
        return
    shutil.copyfile(made, kept)
    print(f"{os.path.relpath(kept, ROOT)}: written", flush=True)


def main() -> int:
    commands = {
        "serve": serve,
        "test": test,
        "screenshots": screenshots,
        "translations": translations,
    }
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        print(__doc__.strip())
        return 2
    return commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    sys.exit(main())

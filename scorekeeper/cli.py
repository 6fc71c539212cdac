"""The `scorekeeper` command: `check` a game file; `upgrade` the database and `serve` the web
app; `backup` and `restore` the database; `doctor` repairs its stored totals; `clear-pin`
removes the PIN set from a phone, for whoever holds the machine. The app's settings
(scorekeeper/web/settings.py: SCOREKEEPER_DATABASE_URL and the rest) choose the database.

`check` must start fast, so the web app (Flask, SQLAlchemy) is imported only by the commands
that need it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from .rules import GameFileError, check_game_data


class Unreadable(Exception):
    """A file that cannot be read as JSON; the message is one line naming it."""


def read_json(path: str) -> object:
    """The JSON in a file, or in standard input for `-`."""
    name = "standard input" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise Unreadable(f"{name}: cannot read it: {_one_line(error)}") from None
    try:
        return json.loads(text)
    except (ValueError, RecursionError) as error:  # ValueError: bad JSON, or a huge number
        raise Unreadable(f"{name}: not JSON: {_one_line(error)}") from None


def check(path: str) -> int:
    """Print the result of a game file; exit 0 if nothing is wrong, 1 if something is, 2 if
    the file is not a game file (docs/game-file.md)."""
    name = "standard input" if path == "-" else path
    try:
        result = check_game_data(read_json(path))
    except Unreadable as error:
        print(error, file=sys.stderr)
        return 2
    except GameFileError as error:
        print(f"{name}: {error}", file=sys.stderr)
        return 2
    try:
        json.dump(result, sys.stdout, ensure_ascii=False, indent=1)
        sys.stdout.write("\n")
        sys.stdout.flush()
    except BrokenPipeError:  # the reader stopped early (| head): not our problem
        sys.stderr.close()
    broken = result["game_violations"] or any(h["violations"] for h in result["hands"])
    return 1 if broken else 0


def _one_line(error: BaseException) -> str:
    """The error in one line; a database error without the SQL it was running."""
    error = getattr(error, "orig", None) or error
    return " ".join(str(error).split()) or type(error).__name__


def backup(path: str) -> int:
    """Write the backup of the configured database to `path` (- for stdout); 0, or 2 on error.

    Written as it is read, a game at a time; into a file beside `path` that takes its name only
    once whole, so that a failed backup never passes for one."""
    import os
    import tempfile

    from sqlalchemy.exc import SQLAlchemyError

    from .web import create_app
    from .web.services.backup import backup_text

    written = None
    try:
        with create_app().app_context():
            if path == "-":
                for text in backup_text():
                    sys.stdout.write(text)
                sys.stdout.flush()
                return 0
            target = Path(path)
            handle, written = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}-")
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                for text in backup_text():
                    out.write(text)
            os.replace(written, target)
            written = None
    except SQLAlchemyError as error:
        print(f"cannot read the database: {_one_line(error)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        sys.stderr.close()
        return 2
    except OSError as error:
        print(f"{path}: cannot write it: {_one_line(error)}", file=sys.stderr)
        return 2
    finally:
        if written is not None:
            Path(written).unlink(missing_ok=True)
    return 0


def restore(path: str) -> int:
    """Load a backup into the configured database, which must be empty; 0, or 2 on error."""
    name = "standard input" if path == "-" else path
    try:
        data = read_json(path)
    except Unreadable as error:
        print(error, file=sys.stderr)
        return 2

    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from .web.services.restore import BackupError
    from .web.services.restore import restore as restore_data

    try:
        with _database():
            games = restore_data(data)
    except BackupError as error:
        print(f"{name}: {_one_line(error)}", file=sys.stderr)
        return 2
    except (SQLAlchemyError, CommandError) as error:
        print(f"cannot write to the database: {_one_line(error)}", file=sys.stderr)
        return 2
    print(f"{name}: restored {games} games")
    return 0


def doctor() -> int:
    """Replay every game and repair the stored totals that differ; 0, or 2 on a database error."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from .web.services.figures import repair_figures

    try:
        with _database():
            checkup = repair_figures()
    except (SQLAlchemyError, CommandError) as error:
        print(f"cannot repair the database: {_one_line(error)}", file=sys.stderr)
        return 2
    print(f"{checkup.games} games replayed, {checkup.repaired} repaired")
    return 0


def clear_pin() -> int:
    """Remove the PIN set on the settings page (forgotten, or set by a prank) and the wrong
    guesses counted, and sign every phone out; 0, or 2 on a database error. Whoever can run
    this holds the machine and its database: the table's owner."""
    from alembic.util import CommandError
    from flask import current_app
    from sqlalchemy.exc import SQLAlchemyError

    from .web.services.access import remove_stored_pin, sign_out_every_phone

    try:
        with _database():
            removed = remove_stored_pin()
            signed_out = sign_out_every_phone()
            by_server = bool(current_app.config.get("PIN"))
    except (SQLAlchemyError, CommandError) as error:
        print(f"cannot clear the PIN: {_one_line(error)}", file=sys.stderr)
        return 2
    print(
        ("The PIN set from a phone is removed" if removed else "No PIN was set from a phone")
        + f"; {signed_out} phones signed out."
    )
    if by_server:
        print("SCOREKEEPER_PIN is set: it is the table's PIN until it is unset.")
    return 0


def upgrade() -> int:
    """Bring the configured database up to date, without serving it; 0, or 2 on error."""
    from alembic.util import CommandError
    from sqlalchemy.exc import SQLAlchemyError

    from .web import create_app
    from .web.serving import upgrade as upgrade_database

    try:
        refreshed = upgrade_database(create_app())
    except (SQLAlchemyError, CommandError) as error:
        print(f"cannot upgrade the database: {_one_line(error)}", file=sys.stderr)
        return 2
    print(f"The database is up to date ({refreshed} games' stored totals refreshed).")
    return 0


@contextmanager
def _database() -> Iterator[None]:
    """The configured database, brought up to date, in an app context."""
    import logging

    import flask_migrate

    from .web import create_app

    with create_app().app_context():
        logging.disable(logging.INFO)  # Alembic's "running upgrade" lines are not news
        try:
            flask_migrate.upgrade()
        finally:
            logging.disable(logging.NOTSET)
        yield


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Samba Scorekeeper: score and check Samba games."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check_cmd = commands.add_parser("check", help="score and check a game file (- for stdin)")
    check_cmd.add_argument("game_file", help="a game file (docs/game-file.md), or - for stdin")
    commands.add_parser("upgrade", help="bring the database up to date (the migrations)")
    serve_cmd = commands.add_parser("serve", help="upgrade the database and run the web app")
    serve_cmd.add_argument(
        "--host", help="0.0.0.0 to reach it from phones (default: SCOREKEEPER_HOST, 127.0.0.1)"
    )
    serve_cmd.add_argument("--port", type=int, help="default: SCOREKEEPER_PORT, 5000")
    backup_cmd = commands.add_parser("backup", help="write every game and house rule as JSON")
    backup_cmd.add_argument("file", nargs="?", default="-", help="where to write it (- for stdout)")
    restore_cmd = commands.add_parser("restore", help="load a backup into an empty database")
    restore_cmd.add_argument("file", help="a file written by `scorekeeper backup` (- for stdin)")
    commands.add_parser(
        "doctor", help="replay every game and repair stored totals that differ from the replay"
    )
    commands.add_parser(
        "clear-pin",
        help="remove the PIN set from a phone (forgotten, or a prank) and sign every phone out",
    )
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.game_file)
    if args.command == "backup":
        return backup(args.file)
    if args.command == "restore":
        return restore(args.file)
    if args.command == "doctor":
        return doctor()
    if args.command == "clear-pin":
        return clear_pin()
    if args.command == "upgrade":
        return upgrade()
    if args.command == "serve":
        from .web.serving import serve

        return serve(args.host, args.port)
    return 2  # pragma: no cover - argparse refuses unknown commands

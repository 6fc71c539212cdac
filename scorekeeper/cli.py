"""The `scorekeeper` command: `check` a game file; `serve` the web app.

`check` must start fast, so the web app (Flask, SQLAlchemy) is imported only by the commands
that need it.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .rules import GameFileError, check_game_data


def check(path: str) -> int:
    """Print the result of a game file; exit 0 if nothing is wrong, 1 if something is, 2 if
    the file is not a game file (cases/FORMAT.md)."""
    name = "standard input" if path == "-" else path
    try:
        text = sys.stdin.read() if path == "-" else Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        print(f"{name}: cannot read it: {error}", file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # ValueError: bad JSON, or a huge number
        print(f"{name}: not JSON: {error}", file=sys.stderr)
        return 2
    try:
        result = check_game_data(data)
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


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="scorekeeper", description="Samba Scorekeeper: score and check Samba games."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    check_cmd = commands.add_parser("check", help="score and check a game file (- for stdin)")
    check_cmd.add_argument("game_file", help="a game file (cases/FORMAT.md), or - for stdin")
    serve_cmd = commands.add_parser("serve", help="run the web app (waitress)")
    serve_cmd.add_argument("--host", default="127.0.0.1", help="0.0.0.0 to reach it from phones")
    serve_cmd.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    if args.command == "check":
        return check(args.game_file)
    if args.command == "serve":
        from .web.serving import serve

        return serve(args.host, args.port)
    return 2  # pragma: no cover - argparse refuses unknown commands

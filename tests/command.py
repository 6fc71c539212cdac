"""`scorekeeper …` run in the test's own process: what a run prints and its exit status, without
starting a Python for each (tests/rules/test_purity.py and the console-script tests in
tests/rules/test_public_cases.py still start real ones)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from unittest import mock

from scorekeeper import cli


def scorekeeper(
    *args: str, stdin: str | None = None, env: Mapping[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """`cli.main(args)` with `stdin` as standard input and `env` added to the environment."""
    with mock.patch.dict(os.environ, env or {}), _streams(stdin or "") as (out, err):
        try:
            status = cli.main(list(args))
        except SystemExit as end:  # argparse exits on a wrong command line
            status = end.code if isinstance(end.code, int) else 2
        return subprocess.CompletedProcess(["scorekeeper", *args], status, _text(out), _text(err))


@contextmanager
def _streams(stdin: str) -> Iterator[tuple[io.TextIOWrapper, io.TextIOWrapper]]:
    """Standard streams that encode as a process's do: what cannot be written fails the same."""
    saved = sys.stdin, sys.stdout, sys.stderr
    sys.stdin = io.TextIOWrapper(io.BytesIO(stdin.encode()), "utf-8", "surrogateescape")
    sys.stdout = io.TextIOWrapper(io.BytesIO(), "utf-8", "strict")
    sys.stderr = io.TextIOWrapper(io.BytesIO(), "utf-8", "backslashreplace")
    try:
        yield sys.stdout, sys.stderr
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    buffer = stream.buffer
    assert isinstance(buffer, io.BytesIO)
    return buffer.getvalue().decode()

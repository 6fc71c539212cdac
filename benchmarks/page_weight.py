#!/usr/bin/env python3
"""Print each page's weight over the wire on first load: the HTML and everything it loads.

Serves the app with waitress on 127.0.0.1 (a free port, a throw-away database), fills a game
with a few hands, then fetches each page like a browser with an empty cache and adds up the bytes
of the HTML, stylesheets, scripts (with the modules they import, as the browser fetches them before
it runs any: not those imported only when needed, as the screen's video), fonts and images it
references. The target: the scoreboard
at most 12 KiB (issue 4 asked 40 KiB; the table's phones load it on a club's busy Wi-Fi, so
each page loads only the styles and script it uses). It exits 1 over the budget, so that
tests/test_benchmarks.py fails. Run: `.venv/bin/python benchmarks/page_weight.py`.
"""

from __future__ import annotations

import gzip
import json
import re
import tempfile
import threading
import urllib.parse
import urllib.request
from html.parser import HTMLParser
from pathlib import Path

import waitress
from flask_migrate import upgrade

from scorekeeper.web import create_app

BUDGET = 12 * 1024
GAME = {
    "variant": "classic",
    "sides": [
        {"name": "Us", "players": 2, "player_names": ["Ana", "Bob"]},
        {"name": "Them", "players": 2, "player_names": ["Carla", "Dani"]},
    ],
    "hands": [
        {
            "entries": [
                {
                    "went_out": True,
                    "sets": {"natural_canasta": 1, "samba": 1},
                    "melded_points": 310,
                    "red_threes": 2,
                },
                {
                    "sets": {"mixed_canasta": 1},
                    "melded_points": 150,
                    "hand_points": 85,
                    "red_threes": 1,
                },
            ]
        }
    ]
    * 3,
}


class Assets(HTMLParser):
    """The files a page makes the browser load."""

    def __init__(self) -> None:
        super().__init__()
        self.urls: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "link" and found.get("rel") in ("stylesheet", "icon", "preload"):
            self.urls.append(found.get("href") or "")
        elif tag in ("script", "img") and found.get("src"):
            self.urls.append(found["src"] or "")


STATIC_IMPORT = re.compile(rb"""^import\s[^;]*?from\s+["'](\.[^"']+)["']""", re.MULTILINE)
"""A module's static import (`import { x } from "./x.js"`), which the browser loads with it."""


def loaded(base: str, urls: list[str]) -> list[tuple[bytes, int]]:
    """Each file, and each module its scripts import, once: its body and its bytes on the
    wire."""
    seen: dict[str, tuple[bytes, int]] = {}
    waiting = [urllib.parse.urljoin(base + "/", url) for url in urls]
    while waiting:
        url = waiting.pop()
        if url in seen:
            continue
        seen[url] = fetch(url)
        if url.endswith(".js"):
            body = seen[url][0]
            waiting += [urllib.parse.urljoin(url, m.decode()) for m in STATIC_IMPORT.findall(body)]
    return list(seen.values())


def fetch(url: str) -> tuple[bytes, int]:
    """The body and the bytes that crossed the wire for it (compressed if the server did)."""
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request) as response:
        raw = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            return gzip.decompress(raw), len(raw)
        return raw, len(raw)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        app = create_app(
            {
                "SECRET_KEY": "benchmark",
                "SQLALCHEMY_DATABASE_URI": f"sqlite:///{Path(folder) / 'games.sqlite3'}",
            }
        )
        with app.app_context():
            upgrade()
        server = waitress.create_server(app, host="127.0.0.1", port=0)
        base = f"http://127.0.0.1:{server.effective_port}"  # type: ignore[union-attr]
        threading.Thread(target=server.run, daemon=True).start()
        try:
            request = urllib.request.Request(
                f"{base}/games/import",
                data=json.dumps(GAME).encode(),
                headers={"Content-Type": "application/json"},
            )
            with urllib.request.urlopen(request) as response:
                game = json.load(response)["location"]
            hand_id = _first_hand(base, game)
            pages = {
                "games list": "/",
                "new game": "/games/new",
                "new game names": "/games/new?system=classic&table=2x2",
                "scoreboard": game,
                "hand form": game + "/hands/new",
                "hand breakdown": f"{game}/hands/{hand_id}",
                "import": "/games/import",
            }
            print(
                f"{'bytes on the wire':<18} {'html':>7} {'assets':>7} {'total':>7}"
                f"  {'uncompressed':>12}"
            )
            over = False
            for name, path in pages.items():
                html, html_wire = fetch(base + path)
                parser = Assets()
                parser.feed(html.decode("utf-8"))
                assets = loaded(base, parser.urls)
                total = html_wire + sum(wire for _, wire in assets)
                plain = len(html) + sum(len(body) for body, _ in assets)
                marker = ""
                if name == "scoreboard":
                    over = total > BUDGET
                    marker = "  > budget!" if over else f"  (budget {BUDGET // 1024} KiB)"
                print(
                    f"{name:<18} {html_wire:>7,} {total - html_wire:>7,} {total:>7,}"
                    f"  {plain:>12,}{marker}"
                )
        finally:
            server.close()
    return 1 if over else 0


def _first_hand(base: str, game: str) -> str:
    html, _ = fetch(base + game)
    marker = '<tr id="hand-'
    start = html.decode("utf-8").index(marker) + len(marker)
    return html.decode("utf-8")[start:].split('"', 1)[0]


if __name__ == "__main__":
    raise SystemExit(main())

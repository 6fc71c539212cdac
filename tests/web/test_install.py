"""The installable app: the manifest, its icons, and the service worker that keeps pages already
seen readable offline."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from scorekeeper.web.presenters import icons

from .apps import TEST_CONFIG, built_app

ICONS = Path(__file__).resolve().parents[2] / "static" / "icons"


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_manifest_opens_the_home_page_full_screen_in_the_tables_green(
    client: FlaskClient,
) -> None:
    response = client.get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response.mimetype == "application/manifest+json"
    manifest = response.get_json(force=True)
    assert manifest["name"] == "Samba Scorekeeper"
    assert manifest["start_url"] == manifest["scope"] == "/"
    assert manifest["display"] == "standalone"
    assert manifest["theme_color"] == "#0b5d3b"


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_manifest_names_icons_that_are_served_at_their_sizes(client: FlaskClient) -> None:
    listed = client.get("/manifest.webmanifest").get_json(force=True)["icons"]
    purposes = {icon.get("purpose", "any") for icon in listed}
    assert purposes == {"any", "maskable"}
    for icon in listed:
        response = client.get(icon["src"])
        assert response.status_code == 200, icon["src"]
        assert response.mimetype == icon["type"]
        if icon["type"] == "image/png":
            width, height = png_size(response.data)
            assert f"{width}x{height}" == icon["sizes"]
        response.close()
    assert {"192x192", "512x512"} <= {icon["sizes"] for icon in listed}


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_manifest_speaks_the_pages_language(client: FlaskClient) -> None:
    client.set_cookie("lang", "es")
    manifest = client.get("/manifest.webmanifest").get_json(force=True)
    assert manifest["lang"] == "es"
    assert manifest["description"] == "Lleva la cuenta de la Samba en la mesa de juego."


def test_every_page_links_the_manifest_the_icon_and_the_theme_colour(
    client: FlaskClient,
) -> None:
    for page in ("/", "/rules", "/stats", "/no-such-page"):
        text = client.get(page).text
        assert '<link rel="manifest" href="/manifest.webmanifest"' in text, page
        assert 'href="/static/icons/icon.svg"' in text and 'name="theme-color"' in text, page
        assert 'type="module" src="/static/js/page.js" data-worker="/sw.js"></script>' in text, page


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_worker_is_served_from_the_top_of_the_site_and_checked_each_time(
    client: FlaskClient,
) -> None:
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "text/javascript"
    assert "no-cache" in response.headers["Cache-Control"]
    assert 'addEventListener("fetch"' in response.text
    response.close()


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_worker_touches_no_write_and_keeps_nothing_marked_no_store(client: FlaskClient) -> None:
    worker = client.get("/sw.js").text
    assert 'if (request.method !== "GET") return;' in worker
    assert 'indexOf("no-store") === -1' in worker


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_worker_keeps_every_module_and_the_video_as_it_is_installed(
    client: FlaskClient,
) -> None:
    """A module a page loads only when it needs it (the screen's) is there offline too."""
    worker = client.get("/sw.js").text
    static = Path(__file__).resolve().parents[2] / "static"
    files = sorted(
        f"/static/{path.relative_to(static).as_posix()}"
        for folder in ("js", "media")
        for path in (static / folder).iterdir()
    )
    assert "/static/js/screen.js" in files and "/static/media/awake.webm" in files
    kept = re.search(r"var AHEAD = (\[.*?\]);", worker)
    assert kept is not None and json.loads(kept.group(1)) == files


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_manifest_and_the_worker_need_no_pin() -> None:
    fresh = built_app({**TEST_CONFIG, "PIN": "2468"}).test_client()
    assert fresh.get("/").status_code == 403
    assert fresh.get("/manifest.webmanifest").status_code == 200
    assert fresh.get("/sw.js").status_code == 200


@pytest.mark.once  # the manifest, the worker and the icons: no database
def test_the_icons_are_what_the_drawing_draws() -> None:
    """The files are made by `python -m scorekeeper.web.presenters.icons`; the smallest is drawn
    again here (the larger take seconds), and every one has the size its name says."""
    assert (ICONS / "icon-192.png").read_bytes() == icons.png(192)
    assert (ICONS / "icon.svg").read_text() == icons.svg()
    for name in icons.FILES:
        size = int(name.removesuffix(".png").rsplit("-", 1)[1])
        assert png_size((ICONS / name).read_bytes()) == (size, size)

"""`scorekeeper serve` behind the README's nginx (https), with `SCOREKEEPER_PROXY_FIX=1`, as a
club runs it: waitress must leave the proxy's X-Forwarded-For and X-Forwarded-Proto for the app
to read. Two phones that nginx sees at two addresses (127.0.0.2 and 127.0.0.3, both loopback)
are two addresses to the app: one's wrong PINs do not make the other wait. The app knows it is
reached over https: its cookies are `Secure` and its share links say `https://`."""

from __future__ import annotations

import http.client
import re
import subprocess
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlencode

import pytest

from scorekeeper.web.services.access import FREE_TRIES
from tests.helpers import free_port, scorekeeper_serve
from tests.reverse_proxy import nginx_binary, nginx_in_front, unchecked_tls

pytestmark = [pytest.mark.slow, pytest.mark.once]

PIN = "2468"


def serve(tmp_path: Path, port: int) -> subprocess.Popen[bytes]:
    """The real `scorekeeper serve` on 127.0.0.1:`port`, with a PIN, behind one proxy."""
    settings = {
        "SCOREKEEPER_DATABASE_URL": f"sqlite:///{tmp_path / 'club.sqlite3'}",
        "SCOREKEEPER_INSTANCE_PATH": str(tmp_path / "instance"),
        "SCOREKEEPER_SECRET_KEY": "proxied",
        "SCOREKEEPER_PIN": PIN,
        "SCOREKEEPER_PROXY_FIX": "1",
        "SCOREKEEPER_LOG_LEVEL": "WARNING",
    }
    return scorekeeper_serve(port, settings)


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[int]:
    """`scorekeeper serve` behind the README's nginx with TLS: nginx's port."""
    if nginx_binary() is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx)")
    app_port = free_port()
    server = serve(tmp_path, app_port)
    try:
        with nginx_in_front(app_port, tmp_path / "nginx", tls=True) as proxy_port:
            yield proxy_port
    finally:
        server.terminate()
        server.wait(timeout=30)


class Phone:
    """A phone that nginx sees at `address`: https requests keeping their session cookie."""

    def __init__(self, port: int, address: str) -> None:
        self.port, self.address = port, address
        self.cookie = ""
        self.set_cookies: list[str] = []

    def send(self, method: str, path: str, data: dict[str, str] | None = None) -> tuple[int, str]:
        connection = http.client.HTTPSConnection(
            "127.0.0.1",
            self.port,
            timeout=30,
            context=unchecked_tls(),
            source_address=(self.address, 0),
        )
        try:
            headers = {"Cookie": self.cookie} if self.cookie else {}
            body = urlencode(data) if data is not None else None
            if body is not None:
                headers["Content-Type"] = "application/x-www-form-urlencoded"
                # A browser's, on a form of this site: over https the CSRF check wants it, of
                # the host the app is told (nginx passes `$host`, as on port 443, without one).
                headers["Referer"] = f"https://127.0.0.1{path}"
            connection.request(method, path, body=body, headers=headers)
            response = connection.getresponse()
            page = response.read().decode()
            for header in response.headers.get_all("Set-Cookie") or []:
                self.set_cookies.append(header)
                if header.startswith("session="):
                    self.cookie = header.split(";", 1)[0]
            return response.status, response.getheader("Location") or page
        finally:
            connection.close()

    def post(self, path: str, data: dict[str, str]) -> tuple[int, str]:
        """A form sent as a browser sends it: its page opened first, its CSRF token sent back."""
        status, page = self.send("GET", path)
        assert status == 200, page
        token = re.search(r'name="csrf_token"[^>]*value="([^"]*)"', page)
        assert token is not None, page
        return self.send("POST", path, {**data, "csrf_token": token.group(1)})


def test_behind_nginx_serve_tells_phones_apart_and_knows_it_is_https(
    proxied: int, figures: Counter[str]
) -> None:
    guesser, player = Phone(proxied, "127.0.0.2"), Phone(proxied, "127.0.0.3")
    wrong = {"pin": "0000", "next": "/"}
    statuses = [guesser.post("/pin", wrong)[0] for _ in range(FREE_TRIES + 1)]
    assert statuses == [422] * FREE_TRIES + [429]  # the guesser waits
    # The other phone, at another address, is not made to wait for the guesser's guesses.
    assert player.post("/pin", wrong)[0] == 422
    status, _ = player.post("/pin", {"pin": PIN, "next": "/"})
    figures["phones told apart behind nginx"] += 2
    assert status == 302
    assert player.set_cookies and all("; Secure" in c for c in player.set_cookies)
    names = {"side_list-0-name": "Us", "side_list-1-name": "Them"}
    status, where = player.post("/games/new?system=classic&table=2x2", names)
    assert status == 302, where
    status, page = player.send("GET", f"{where}/share")
    assert status == 200, page
    links = re.findall(r'data-share="(?:follow|join)" href="([^"]+)"', page)
    assert len(links) == 2 and all(link.startswith("https://127.0.0.1/") for link in links), links

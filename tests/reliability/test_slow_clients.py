"""The reverse proxy holds slow clients off the app, as the README's "Host it for a club" says.

More slow clients than waitress's whole connection limit, each with a request begun and never
finished, lock a phone out of `scorekeeper serve` (tests/reliability/test_idle_connections.py,
and waitress never drops one that sends a byte now and then). Held at the README's nginx instead,
they leave the app untouched: nginx passes a request on only once it has it whole.
"""

from __future__ import annotations

import resource
import urllib.request
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.web.serving import WAITRESS
from tests.helpers import free_port, unavailable
from tests.reverse_proxy import SlowClients, nginx_binary, nginx_in_front

from .live import start_server

pytestmark = [pytest.mark.slow, pytest.mark.once]

SLOW_CLIENTS = WAITRESS["connection_limit"] + 50


@pytest.fixture
def proxied(tmp_path: Path) -> Iterator[int]:
    """`scorekeeper serve` behind the README's nginx: the proxy's port."""
    if nginx_binary() is None:
        unavailable("nginx is not installed (Debian: apt-get install nginx)")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < 4 * SLOW_CLIENTS and soft != resource.RLIM_INFINITY:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(4 * SLOW_CLIENTS, hard), hard))
    app_port = free_port()
    server = start_server(tmp_path / "games.sqlite3", app_port)
    try:
        # Plain HTTP: a test machine's 800 TLS handshakes can take longer than nginx lets a
        # client take for its request's headers (60 s), and what holds slow clients off is
        # the same with TLS (benchmarks/slow_clients.py measures it so).
        with nginx_in_front(app_port, tmp_path / "nginx", tls=False) as proxy_port:
            yield proxy_port
    finally:
        server.terminate()
        server.wait(timeout=30)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def test_slow_clients_held_at_the_proxy_leave_a_phone_answered(
    proxied: int, figures: Counter[str]
) -> None:
    slow = SlowClients(proxied, SLOW_CLIENTS, tls=False)
    try:
        slow.send_a_line()
        with urllib.request.urlopen(f"http://127.0.0.1:{proxied}/", timeout=30) as answer:
            status = answer.status
        slow.send_a_line()
        kept = slow.kept()
    finally:
        slow.close()
    figures["slow clients held at the proxy"] += kept
    assert status == 200
    # The phone was answered while the proxy still held more slow clients than waitress's whole
    # connection limit.
    assert kept > WAITRESS["connection_limit"]

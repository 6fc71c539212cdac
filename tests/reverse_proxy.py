"""The README's nginx in front of the app, as a throw-away on 127.0.0.1, and slow clients.

The server block is read from the README's "Host it for a club" as printed there; only what
cannot be the same on a test machine is changed (the address it listens on, a self-signed
certificate, the app's port), and a README that no longer has those lines fails loudly. Around
it goes what Debian's own `nginx.conf` sets (`worker_processes auto`) with what the README adds to
it (`worker_rlimit_nofile`, `worker_connections`), and its pid, logs and temporary files in a
folder of its own.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.helpers import free_port, wait_until_answering

ROOT = Path(__file__).resolve().parents[1]


def nginx_binary() -> str | None:
    return shutil.which("nginx") or shutil.which("nginx", path="/usr/sbin:/usr/local/sbin")


def readme_nginx_server() -> str:
    """The nginx server block of the README's "Host it for a club"."""
    return _readme_block("With nginx:")


def _readme_block(after: str) -> str:
    """The first indented block after `after` in the README's "Host it for a club"."""
    section = (ROOT / "README.md").read_text().split("### Host it for a club", 1)[1]
    lines = section.split(after, 1)[1].splitlines()[1:]
    block: list[str] = []
    for line in lines:
        if line.startswith("    "):
            block.append(line[4:])
        elif line.strip() and block:
            break
    return "\n".join(block).strip()


def readme_nginx_main() -> tuple[str, str]:
    """What the README's "Host it for a club" puts in nginx.conf: the lines of its main context,
    and the body of its `events` block."""
    text = _readme_block("in `/etc/nginx/nginx.conf`")
    main, _, events = text.partition("events {")
    return main.strip(), events.rsplit("}", 1)[0].strip()


def _replaced(text: str, old: str, new: str) -> str:
    assert old in text, f"the README's nginx example no longer has {old!r}"
    return text.replace(old, new)


def local_server_block(app_port: int, port: int, folder: Path, tls: bool) -> str:
    """The README's server block, listening on 127.0.0.1:`port` with a self-signed certificate
    (or, without `tls`, plain HTTP), passing to the app on `app_port`."""
    certificate, key = folder / "certificate.pem", folder / "key.pem"
    curve = "ec_paramgen_curve:prime256v1"
    command = ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", curve, "-nodes"]
    where = ["-keyout", str(key), "-out", str(certificate)]
    subprocess.run(
        [*command, "-days", "1", "-subj", "/CN=127.0.0.1", *where], check=True, capture_output=True
    )
    block = readme_nginx_server()
    block = _replaced(block, "listen 443 ssl;", f"listen 127.0.0.1:{port}{' ssl' if tls else ''};")
    block = _replaced(
        block, "/etc/letsencrypt/live/scores.example.org/fullchain.pem", str(certificate)
    )
    block = _replaced(block, "/etc/letsencrypt/live/scores.example.org/privkey.pem", str(key))
    return _replaced(block, "http://127.0.0.1:8000", f"http://127.0.0.1:{app_port}")


@contextmanager
def nginx_in_front(app_port: int, folder: Path, tls: bool = True) -> Iterator[int]:
    """nginx with the README's server block in front of the app on `app_port`; its port."""
    binary = nginx_binary()
    assert binary is not None, "nginx is not installed"
    folder.mkdir(parents=True, exist_ok=True)
    port = free_port()
    temporary = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    # As root, nginx would run its workers as `nobody`, who cannot write in this folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    config = folder / "nginx.conf"
    main, events = readme_nginx_main()
    config.write_text(
        f"{user}worker_processes auto;\ndaemon off;\npid {folder / 'nginx.pid'};\n"
        f"error_log {folder / 'error.log'};\n{main}\n"
        f"events {{\n    {events}\n}}\n"
        f"http {{\n    access_log off;\n{temporary}\n"
        f"{local_server_block(app_port, port, folder, tls)}\n}}\n"
    )
    command = [binary, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(config)]
    server = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_until_answering(server, port, log=folder / "error.log")
        yield port
    finally:
        server.terminate()
        server.wait(timeout=30)


def unchecked_tls() -> ssl.SSLContext:
    """TLS that takes the throw-away's self-signed certificate."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class SlowClients:
    """Connections that each start a request and then send one more header line now and then,
    never finishing it (slowloris): a server that waits for each request's end keeps them all."""

    def __init__(self, port: int, count: int, tls: bool) -> None:
        self.sockets: list[socket.socket] = []
        self.lines_sent = 0
        for _ in range(count):
            sock = socket.create_connection(("127.0.0.1", port), timeout=10)
            if tls:
                sock = unchecked_tls().wrap_socket(sock)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            self.sockets.append(sock)

    def send_a_line(self) -> None:
        """One more header line on each connection."""
        for sock in self.sockets:
            # One the server dropped fails: `kept` counts those.
            with contextlib.suppress(OSError):
                sock.sendall(f"X-Line-{self.lines_sent}: still coming\r\n".encode())
        self.lines_sent += 1

    def kept(self) -> int:
        """How many the server still holds open, neither closed nor answered."""
        return sum(_still_open(sock) for sock in self.sockets)

    def close(self) -> None:
        for sock in self.sockets:
            sock.close()


def _still_open(sock: socket.socket) -> bool:
    sock.setblocking(False)
    try:
        sock.recv(1)
        return False  # closed, or answered (nginx's 408)
    except (BlockingIOError, ssl.SSLWantReadError):
        return True
    except OSError:
        return False
    finally:
        sock.setblocking(True)

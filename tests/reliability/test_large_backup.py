"""A club's backup, at a size a test can afford (1,500 hands), through a live server on the run's
database: restored from the phone's form, downloaded whole and equal to what was restored, and
another phone answered while the download streams (a backup is read a game at a time, not
built whole while every other phone waits). benchmarks/backup.py times 25,000 hands."""

from __future__ import annotations

import http.client
import io
import json
import threading
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

from werkzeug.datastructures import FileStorage
from werkzeug.test import encode_multipart

from tests.club_backup import club_backup

from .live import database_app, served

HANDS = 1500


def request(base_url: str, method: str, path: str, body: bytes = b"", kind: str = "") -> bytes:
    where = urlsplit(base_url)
    connection = http.client.HTTPConnection(where.hostname or "", where.port, timeout=120)
    try:
        headers = {"Content-Type": kind} if kind else {}
        connection.request(method, path, body or None, headers)
        response = connection.getresponse()
        content = response.read()
        assert response.status in (200, 302), (response.status, content[:300])
        return content
    finally:
        connection.close()


def test_a_club_backup_restores_from_the_phone_and_streams_while_others_are_answered(
    tmp_path: Path, figures: Counter[str]
) -> None:
    data = club_backup(HANDS)
    app = database_app(tmp_path / "club.sqlite3")
    with served(app) as base_url:
        file = FileStorage(io.BytesIO(json.dumps(data).encode()), "backup.json")
        boundary, body = encode_multipart({"backup_file": file})
        kind = f"multipart/form-data; boundary={boundary}"
        request(base_url, "POST", "/restore", body, kind)

        downloaded: list[bytes] = []
        answered_meanwhile = 0
        download = threading.Thread(
            target=lambda: downloaded.append(request(base_url, "GET", "/backup.json"))
        )
        download.start()
        while download.is_alive():
            request(base_url, "GET", "/healthz")
            answered_meanwhile += 1 if download.is_alive() else 0
        download.join()
    figures["hands backed up through a live server"] += HANDS
    assert json.loads(downloaded[0])["games"] == data["games"]
    assert answered_meanwhile >= 1

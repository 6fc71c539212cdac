"""A club's backup and restore make the same statements whatever the number of hands (or of club
nights): each table is read (or written) once, never a hand at a time (benchmarks/backup.py
times them at 1,000, 10,000 and 25,000 hands)."""

from __future__ import annotations

import json
from pathlib import Path

from flask import Flask

from scorekeeper.web.extensions import db
from scorekeeper.web.services.restore import restore
from tests.club_backup import club_backup

from .apps import TEST_CONFIG, built_app, database_url, statements

BACKUP_READS = 21
"""A BEGIN and the access check's read, then the backup's own BEGIN and one read of each of the
seventeen tables it holds: games, sides, players, hands, entries, corrections; nights, pairs,
tables, rounds, seats; house rules and merges of players; seasons, ratings, rated games and
rating steps; and the club's choice of rating pool."""


def restored_club(tmp_path: Path, hands: int, *, nights: bool = False) -> tuple[Flask, list[str]]:
    """A new database holding a club of `hands` hands (played at club nights if `nights`), and
    the restore's statements."""
    app = built_app(
        {**TEST_CONFIG, "SQLALCHEMY_DATABASE_URI": database_url(tmp_path, f"{hands}-{nights}.db")}
    )
    with statements(app, with_access=True) as seen, app.app_context():
        restored = restore(club_backup(hands, hands_a_game=5, nights=nights))
        assert restored == (hands + 4) // 5
    return app, seen


def backed_up(app: Flask) -> tuple[dict[str, object], list[str]]:
    """The backup downloaded from the app, and its statements."""
    with statements(app, with_access=True) as seen:
        answer = app.test_client().get("/backup.json")
        body = answer.get_data()
    assert answer.status_code == 200
    data: dict[str, object] = json.loads(body)
    return data, seen


def test_a_backup_makes_the_same_statements_for_10_hands_as_for_300(tmp_path: Path) -> None:
    small, _ = restored_club(tmp_path, 10)
    large, _ = restored_club(tmp_path, 300)
    small_data, small_statements = backed_up(small)
    large_data, large_statements = backed_up(large)
    assert len(large_statements) == len(small_statements) <= BACKUP_READS, large_statements
    assert large_data["games"] == club_backup(300, hands_a_game=5)["games"]
    assert small_data["games"] == club_backup(10, hands_a_game=5)["games"]


def test_a_restore_makes_the_same_statements_for_10_hands_as_for_300(tmp_path: Path) -> None:
    _, small = restored_club(tmp_path, 10)
    _, large = restored_club(tmp_path, 300)
    assert len(large) == len(small) <= 20, large


def test_club_nights_back_up_and_restore_in_the_same_statements_for_1_night_as_for_10(
    tmp_path: Path,
) -> None:
    """300 hands in 60 games are ten nights; 10 hands in 2 games, one night's first round."""
    small, small_restore = restored_club(tmp_path, 10, nights=True)
    large, large_restore = restored_club(tmp_path, 300, nights=True)
    _, without_nights = restored_club(tmp_path, 300)
    # Each of the five tables of the nights is written in one statement, and what each night
    # gave its pairs is worked out in a fixed number (services.outcomes, 25 nights at a time).
    assert len(large_restore) == len(small_restore) == len(without_nights) + 5 + 10, large_restore
    small_data, small_statements = backed_up(small)
    large_data, large_statements = backed_up(large)
    assert len(large_statements) == len(small_statements) <= BACKUP_READS, large_statements
    assert small_data["nights"] == club_backup(10, hands_a_game=5, nights=True)["nights"]
    large_file = club_backup(300, hands_a_game=5, nights=True)
    assert len(large_file["nights"]) == 10
    assert large_data["nights"] == large_file["nights"]
    assert large_data["games"] == large_file["games"]


def test_the_backup_is_sent_as_it_is_read(app: Flask, tmp_path: Path) -> None:
    """The download is streamed: its first part leaves before the last game is read."""
    club, _ = restored_club(tmp_path, 60)
    answer = club.test_client().get("/backup.json", buffered=False)
    chunks = iter(answer.response)
    first = next(chunks)
    assert first.startswith(b'{"format": "samba-scorekeeper-backup"')
    rest = b"".join(chunks)
    answer.close()
    assert len(json.loads(first + rest)["games"]) == 12
    assert "Content-Length" not in answer.headers
    with club.app_context():
        db.session.remove()

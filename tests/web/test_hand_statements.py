"""What a saved hand costs the database, request by request, is the same in a game of 10 hands
as in one of 100: a fixed count of statements for each kind of request a table makes around a
hand (issue 36). Counts, not times, so that a slow machine cannot fail them; the times are
`benchmarks/cpu.py`'s.

The order is a table's: the recording phone opens the hand form and saves, its scoreboard is
drawn, the followers ask for it again (kept, or unchanged: 304), and the other following pages
are drawn and asked again. A count that grows with the game, or one statement more anywhere,
fails the kind's test.
"""

from __future__ import annotations

import re
import threading

import pytest
from flask import Flask
from flask.testing import FlaskClient

from .apps import statements
from .helpers import GOES_OUT, STAYS_IN, game_of, hand_fields, hidden
from .streams import Stream

COUNTS = {
    "save": 9,
    "scoreboard ?saved=N, drawn": 1,
    "a follower's stream, the page's parts": 0,
    "scoreboard, kept": 1,
    "scoreboard 304": 1,
    "state.json": 1,
    "state.json 304": 1,
    "follow page, drawn": 1,
    "follow page, kept": 1,
    "display, drawn": 1,
    "display, kept": 1,
    "hand form, drawn": 1,
    "hand form, kept": 1,
}
"""Each kind's statements (the door's peek is one). A save: the peek, the lock (SQLite's BEGIN
IMMEDIATE; PostgreSQL's SELECT … FOR UPDATE), the game with its sides and, in the same
statement, the place of the last hand and whether the form's token was used, and the writes
(the game's revision, the hand, its two entries, the two sides' figures). A follower's stream
tells its page the parts that changed without a statement: the hand's revision is made of the
one its phone was let in at and the hand this process keeps, at the same access stamp, so its
access check holds as it was read then (pages/events.py; tests/web/test_stream_access.py)."""


def counted(app: Flask, client: FlaskClient, hands: int) -> dict[str, int]:
    """A game of `hands` hands, kept by this process as the phones opened it; a hand saved and
    every kind of request of the table after it, each with the statements it ran."""
    game_id = game_of(client, hands)
    board = f"/games/{game_id}"
    shown = client.get(board).text
    revision = re.search(r'data-revision="([^"]+)"', shown).group(1)  # type: ignore[union-attr]
    follower = Stream(client, f"{board}/events?page=games.scoreboard&since={revision}")
    assert follower.next_event() is not None  # it named the revision shown
    form = client.get(f"{board}/hands/new").text
    sent = hand_fields(
        [GOES_OUT, STAYS_IN], token=hidden(form, "token"), after=hidden(form, "after")
    )
    counts: dict[str, int] = {}

    def ask(kind: str, path: str, status: int = 200, **options: object) -> dict[str, str]:
        with statements(app, thread=threading.get_ident()) as seen:
            answer = client.open(path, **options)  # type: ignore[arg-type]
        assert answer.status_code == status, (kind, answer.status_code, answer.text[:500])
        counts[kind] = len(seen)
        return dict(answer.headers)

    with statements(app, thread=follower.reader.ident) as streamed:
        saved = ask("save", f"{board}/hands/new", 302, method="POST", data=sent)
        news = follower.next_event()
    # The page's body, whole at 100 hands (hand 101 begins a new block of rows) or in parts.
    assert news is not None and news["data"].startswith('{"revision"'), news
    counts["a follower's stream, the page's parts"] = len(streamed)  # it ends by its lifetime
    assert f"saved={hands + 1}" in saved["Location"]
    ask("scoreboard ?saved=N, drawn", saved["Location"])
    etag = ask("scoreboard, kept", board)["ETag"]
    ask("scoreboard 304", board, 304, headers={"If-None-Match": etag})
    etag = ask("state.json", f"{board}/state.json")["ETag"]
    ask("state.json 304", f"{board}/state.json", 304, headers={"If-None-Match": etag})
    for page, name in (("/follow", "follow page"), ("/display", "display")):
        ask(f"{name}, drawn", f"{board}{page}")
        ask(f"{name}, kept", f"{board}{page}")
    # The blank form of the new revision: its fields kept across revisions, its holes filled.
    ask("hand form, drawn", f"{board}/hands/new")
    ask("hand form, kept", f"{board}/hands/new")
    return counts


@pytest.fixture(scope="module")
def counts_by_length() -> dict[int, dict[str, int]]:
    """Each kind's count in a game of 10 hands and in one of 100 (one app: both are kept)."""
    from .apps import TEST_CONFIG, built_app

    app = built_app({**TEST_CONFIG, "STREAMS": 2, "STREAM_SECONDS": 60})
    client = app.test_client()
    return {hands: counted(app, client, hands) for hands in (10, 100)}


@pytest.mark.parametrize("kind", COUNTS)
def test_a_request_around_a_saved_hand_runs_a_fixed_number_of_statements(
    counts_by_length: dict[int, dict[str, int]], kind: str
) -> None:
    found = {hands: counts[kind] for hands, counts in counts_by_length.items()}
    assert found == {10: COUNTS[kind], 100: COUNTS[kind]}, found

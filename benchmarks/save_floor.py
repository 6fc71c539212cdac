#!/usr/bin/env python3
"""What saving a hand costs at the least with this stack, side by side with the bare response.

Issue 9 asks for saving a hand in at most 5× the bare Flask response. This script serves, each
under waitress in its own process, three apps: the bare one of `pages.py`; a *floor* app that does
only what any save of a hand must do with the project's libraries (a Flask-WTF form of the hand
form's size with its CSRF token, read the game with its sides under the write lock, insert a hand
and its two entries and update the game and its two sides through the SQLAlchemy ORM, commit
with fsync, redirect), and nothing of the rules; and the app itself. It prints the median time of
each and their ratios to the bare response. It prints, it never asserts.

Run: `.venv/bin/python benchmarks/save_floor.py [--runs N]` (200 saves of each by default).
"""

from __future__ import annotations

import argparse
import multiprocessing
import re
import secrets
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from flask import Flask, redirect, url_for
from flask_migrate import upgrade
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import FlaskForm
from flask_wtf.csrf import CSRFProtect
from sqlalchemy import ForeignKey, event, select
from sqlalchemy.orm import DeclarativeBase, Mapped, joinedload, mapped_column, relationship
from werkzeug.wrappers import Response
from wtforms import Form, FormField, IntegerField, RadioField, StringField
from wtforms.fields import FieldList

sys.path.insert(0, str(Path(__file__).resolve().parent))
from pages import Client, bare_app, config, form_fields, game_file, timed

from scorekeeper.web import create_app
from scorekeeper.web.services.game_files import import_game

RUNS = 200
CARDS = 13
"""Card-counter fields under each of the two counted rows of a side, as in the hand form."""


class Base(DeclarativeBase):
    pass


class Game(Base):
    __tablename__ = "game"
    id: Mapped[int] = mapped_column(primary_key=True)
    revision: Mapped[str] = mapped_column(default="")
    sides: Mapped[list[Side]] = relationship(order_by="Side.id")


class Side(Base):
    __tablename__ = "side"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    total: Mapped[int] = mapped_column(default=0)
    players: Mapped[list[Player]] = relationship()


class Player(Base):
    __tablename__ = "player"
    id: Mapped[int] = mapped_column(primary_key=True)
    side_id: Mapped[int] = mapped_column(ForeignKey("side.id"))


class Hand(Base):
    __tablename__ = "hand"
    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("game.id"))
    token: Mapped[str] = mapped_column(unique=True)
    entries: Mapped[list[Entry]] = relationship()


class Entry(Base):
    __tablename__ = "entry"
    id: Mapped[int] = mapped_column(primary_key=True)
    hand_id: Mapped[int] = mapped_column(ForeignKey("hand.id"))
    melded_points: Mapped[int] = mapped_column(default=0)
    hand_points: Mapped[int] = mapped_column(default=0)


class Cards(Form):
    pass


for _card in range(CARDS):
    setattr(Cards, f"c{_card}", IntegerField(default=0))


class SideFields(Form):
    set_natural_canasta = IntegerField(default=0)
    set_mixed_canasta = IntegerField(default=0)
    set_samba = IntegerField(default=0)
    opening_meld = IntegerField()
    melded_points = IntegerField()
    hand_points = IntegerField()
    red_threes = IntegerField(default=0)
    red_threes_in_hand = IntegerField(default=0)
    melded_points_cards = FormField(Cards)
    hand_points_cards = FormField(Cards)


class HandForm(FlaskForm):
    ending = RadioField(choices=["out-0", "out-1", "stock"])
    token = StringField()
    after = StringField()
    sides = FieldList(FormField(SideFields), min_entries=2, max_entries=2)


def floor_app(uri: str) -> Flask:
    """Only what any save must do: form and CSRF, locked read, ORM writes, fsynced commit."""
    app = Flask("floor")
    app.config.update(SECRET_KEY="floor", SQLALCHEMY_DATABASE_URI=uri, WTF_CSRF_TIME_LIMIT=None)
    db = SQLAlchemy(model_class=Base)
    db.init_app(app)
    CSRFProtect(app)
    with app.app_context():

        @event.listens_for(db.engine, "connect")
        def settings(connection: Any, _record: Any) -> None:
            connection.isolation_level = None
            for pragma in ("journal_mode=WAL", "synchronous=FULL", "foreign_keys=ON"):
                connection.execute(f"PRAGMA {pragma}")

        @event.listens_for(db.engine, "begin")
        def immediate(connection: Any) -> None:
            connection.exec_driver_sql("BEGIN IMMEDIATE")

        db.create_all()
        game = Game(sides=[Side(players=[Player(), Player()]) for _ in range(2)])
        db.session.add(game)
        db.session.commit()

    @app.route("/save", methods=["GET", "POST"])
    def save() -> Response | str:
        form = HandForm()
        if not form.validate_on_submit():
            return str(form.csrf_token)
        query = select(Game).options(joinedload(Game.sides).joinedload(Side.players))
        game = db.session.scalars(query.where(Game.id == 1)).unique().one()
        hand = Hand(game_id=game.id, token=form.token.data)
        for side, sent in zip(game.sides, form.sides, strict=True):
            melded = sent.form.melded_points.data or 0
            hand.entries.append(Entry(melded_points=melded))
            side.total += melded
        game.revision = secrets.token_hex(8)
        db.session.add(hand)
        db.session.commit()
        return redirect(url_for("save", saved=hand.id))

    return app


def serve(kind: str, uri: str, ports: Any) -> None:
    import waitress

    makers = {
        "app": lambda: create_app(config(uri)),
        "floor": lambda: floor_app(uri),
        # pages.py's bare app reads a game for its 304 floor (not asked here): the app's file.
        "bare": lambda: bare_app(uri),
    }
    app = makers[kind]()
    server = waitress.create_server(app, host="127.0.0.1", port=0)
    ports.put(server.effective_port)  # type: ignore[union-attr]
    server.run()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="saves of each app measured")
    runs = parser.parse_args().runs
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as folder:
        uri = f"sqlite:///{Path(folder) / 'app.sqlite3'}"
        app = create_app({**config(uri), "TESTING": True})
        with app.app_context():
            upgrade()
            game_id = import_game(game_file(20))
        ports = spawn.Queue()
        uris = {"app": uri, "floor": f"sqlite:///{Path(folder) / 'floor.sqlite3'}", "bare": uri}
        clients = {}
        servers = []
        for kind, where in uris.items():
            server = spawn.Process(target=serve, args=(kind, where, ports))
            server.start()
            servers.append(server)
            clients[kind] = Client(ports.get(timeout=60))
        try:
            measure(clients, game_id, runs)
        finally:
            for server in servers:
                server.terminate()
                server.join()


def csrf_of(client: Client, path: str) -> dict[str, str]:
    _, page = client.send("GET", path)
    found = re.search(rb'<input[^>]*name="csrf_token"[^>]*value="([^"]+)"', page)
    return {"csrf_token": found.group(1).decode()} if found else {}


def measure(clients: dict[str, Client], game_id: str, runs: int) -> None:
    path = {"app": f"/games/{game_id}/hands/new", "floor": "/save", "bare": "/bytes/300"}
    csrf = {kind: csrf_of(client, path[kind]) for kind, client in clients.items()}
    times: dict[str, list[float]] = {kind: [] for kind in clients}
    for run in range(runs):
        for kind, client in clients.items():
            took, status, content = timed(
                client, "POST", path[kind], {**form_fields(20 + run), **csrf[kind]}
            )
            if status >= 400:
                # Nothing measured: the benchmark no longer fits the app (tests/test_benchmarks.py).
                raise SystemExit(f"{kind} answered {status}: {content[:200]!r}")
            times[kind].append(took)
    bare = statistics.median(times["bare"])
    print(f"{'save a hand':28} {'ms':>6} {'× bare':>7}")
    for kind, label in (
        ("bare", "bare Flask"),
        ("floor", "floor (form, ORM, fsync)"),
        ("app", "the app"),
    ):
        ms = statistics.median(times[kind])
        print(f"{label:28} {ms:6.2f} {ms / bare:6.1f}×")


if __name__ == "__main__":
    main()

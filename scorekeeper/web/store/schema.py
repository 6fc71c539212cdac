"""What the database may keep, column by column: the one schema that every write of the app and
every restore pass, so that anything the app stored restores and nothing a restore lets in makes
a page fail.

`check(row)` raises `SchemaError` naming the column (`sets.joker`, `before.entries[1]`) and the
problem. Rows are checked with what their game says about them: an entry's set kinds are those
of its game's system, a correction's hands have one entry per side of its game.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy import event, inspect
from sqlalchemy.orm import Session, scoped_session

from ... import rules
from ...rules.fields import ENTRY_FIELDS
from ...rules.house import LARGEST
from .columns import (
    COLUMNS,
    COUNT,
    NAME,
    SchemaError,
    check_columns,
    whole,
)
from .models import (
    Correction,
    Entry,
    Game,
    Hand,
    HouseRule,
    Player,
    PlayerMerge,
    Side,
)


def system_of(system_id: str, option_ids: list[str], house_rules: object) -> rules.RuleSystem:
    """The rules of a game or house rule, read as a game file's would be."""
    try:
        return rules.read_system(system_id, dict.fromkeys(option_ids, True), house_rules)
    except rules.GameFileError as error:
        place = {"variant": "system_id", "options": "options"}.get(error.where, error.where)
        raise SchemaError(place, str(error).removeprefix(f"{error.where}: ")) from None


def _house_rules(value: dict[str, Any], where: str) -> None:
    """A house rule's words (its name) fit a column; the engine reads its numbers."""
    for entry in rules.HOUSE_RULES:
        words = value.get(entry.key)
        if entry.kind is rules.HouseRuleKind.WORDS and words is not None:
            try:
                NAME(words)
            except SchemaError as error:
                raise error.inside(f"{where}.{entry.key}") from None


def check_game(game: Game) -> rules.RuleSystem:
    """A game's own columns and its table; the rules it is played under."""
    check_columns(game)
    if game.house_rules is not None:
        _house_rules(game.house_rules, "house_rules")
    system = system_of(game.system_id, game.options, game.house_rules)
    _numbered("sides", "position", [side.position for side in game.sides])
    for index, side in enumerate(game.sides):
        _numbered(f"sides[{index}].players", "position", [p.position for p in side.players])
    table = rules.Game(
        system, tuple(rules.Side(side.name, len(side.players)) for side in game.sides)
    )
    if rules.check_table(table):
        layout = " + ".join(str(len(side.players)) for side in game.sides) or "no sides"
        raise SchemaError("sides", f"{system.id} is not played by a table of {layout} players")
    seats = table.players
    if isinstance(game.first_dealer, int) and game.first_dealer >= seats:
        raise SchemaError("first_dealer", f"expected a seat from 0 to {seats - 1}")
    for index, hand in enumerate(game.hands):  # before comparing them, what they are
        for column in ("position", "token"):
            try:
                COLUMNS[Hand][column](getattr(hand, column))
            except SchemaError as error:
                raise error.inside(f"hands[{index}].{column}") from None
    positions = [hand.position for hand in game.hands]
    if len(set(positions)) != len(positions):
        raise SchemaError("hands", "two hands have the same position")
    tokens = [hand.token for hand in game.hands]
    if len(set(tokens)) != len(tokens):
        raise SchemaError("hands", "two hands have the same token")
    return system


def _numbered(where: str, column: str, positions: list[object]) -> None:
    """Rows in seating order, numbered 0, 1, … without a gap or a repeat."""
    for index, position in enumerate(positions):
        try:
            whole(0, LARGEST)(position)
        except SchemaError as error:
            raise error.inside(f"{where}[{index}].{column}") from None
    numbers = sorted(p for p in positions if isinstance(p, int))
    if numbers != list(range(len(positions))):
        raise SchemaError(where, f"{column}s must be 0 to {len(positions) - 1}, each once")


def check_hand(hand: Hand, sides: int) -> None:
    """A hand's columns, and one entry for each side of its game."""
    check_columns(hand)
    _numbered("entries", "side_position", [entry.side_position for entry in hand.entries])
    if len(hand.entries) != sides:
        raise SchemaError("entries", f"{len(hand.entries)} entries for {sides} sides")


def _counts(value: dict[str, Any], known: Iterable[str], what: str) -> None:
    names = sorted(known)
    for name, count in value.items():
        if name not in names:
            known_ones = f"known: {', '.join(names)}" if names else "they have none"
            raise SchemaError(str(name), f"not a {what} of this game's rules; {known_ones}")
        try:
            COUNT(count)
        except SchemaError as error:
            raise error.inside(name) from None


def check_entry(entry: Entry, system: rules.RuleSystem) -> None:
    """An entry's columns; its sets and penalties of kinds its game's rules have."""
    check_columns(entry)
    for field in ENTRY_FIELDS:
        if field.kind.grouped:
            known = (key.value for key in field.keys(system))
            try:
                _counts(getattr(entry, field.name), known, field.kind.key_word)
            except SchemaError as error:
                raise error.inside(field.name) from None


def check_correction(correction: Correction, game: Game) -> None:
    """A correction's columns; `before` and `after` each a hand as the app writes it, for the
    game's rules and sides (None only for a deleted hand, or one brought back)."""
    check_columns(correction)
    if correction.before is None and correction.after is None:
        raise SchemaError("after", "a correction changes a hand: before or after must be a hand")
    for column in ("before", "after"):
        value = getattr(correction, column)
        if value is not None:
            try:
                _hand_as_written(value, game)
            except SchemaError as error:
                raise error.inside(column) from None


def _hand_as_written(value: dict[str, Any], game: Game) -> None:
    """A hand in a correction reads back, through the engine's game-file reader, as itself."""
    file = {
        "variant": game.system_id,
        "options": dict.fromkeys(game.options, True),
        "house_rules": game.house_rules,
        "sides": [{"name": "", "players": max(len(side.players), 1)} for side in game.sides],
        "hands": [value],
    }
    try:
        read = rules.read_game(file)
    except rules.GameFileError as error:
        raise SchemaError(error.where.removeprefix("hands[0]."), _problem(error)) from None
    for index, entry in enumerate(read.hands[0].entries):
        if entry.bad_numbers:
            bad = entry.bad_numbers[0]
            raise SchemaError(
                f"entries[{index}].{bad.field}", f"expected a whole number up to {LARGEST:,}"
            )
    written = rules.game_data(read)["hands"][0]
    if not _same(written, value):
        raise SchemaError("", "not a hand as the app writes it")


def _problem(error: rules.GameFileError) -> str:
    return str(error).removeprefix(f"{error.where}: ")


def _same(a: object, b: object) -> bool:
    """Equal, and of the same types all the way down (1 is not 1.0 or True here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        assert isinstance(b, dict)
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        assert isinstance(b, list)
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return a == b


def check_game_file(game: Game) -> None:
    """A game read from a game file, not stored yet, and every row it holds, each problem placed
    as the file places it (`house_rules.name`, `sides[1].player_names[0]`).

    The engine reads any name; the database keeps names of a bounded length that it can encode.
    An import checks here before its write, so such a file is refused naming the key, not
    stopped by the flush.
    """
    system = check_game(game)
    for i, side in enumerate(game.sides):
        with _at(f"sides[{i}]"):
            check_columns(side)
        for j, player in enumerate(side.players):
            try:
                check_columns(player)  # its name; its key is made from the name
            except SchemaError as error:
                raise SchemaError(f"sides[{i}].player_names[{j}]", error.problem) from None
    for i, hand in enumerate(game.hands):
        with _at(f"hands[{i}]"):
            check_hand(hand, len(game.sides))
        for j, entry in enumerate(hand.entries):
            with _at(f"hands[{i}].entries[{j}]"):
                check_entry(entry, system)


@contextmanager
def _at(where: str) -> Iterator[None]:
    """A problem found inside, placed at `where`."""
    try:
        yield
    except SchemaError as error:
        raise error.inside(where) from None


def check_merge(merge: PlayerMerge) -> None:
    """A merge's columns; a name for each row it changed, and two players, not one."""
    check_columns(merge)
    if len(merge.names) != len(merge.players):
        raise SchemaError("names", f"{len(merge.names)} names for {len(merge.players)} players")
    if merge.key == merge.into:
        raise SchemaError("into", "a player is not merged into themselves")


def check_house_rule(rule: HouseRule) -> None:
    """A house rule's columns, and numbers its system can be played with."""
    check_columns(rule)
    if "name" in rule.rules:
        raise SchemaError("rules.name", "the name is the house rule's own column")
    try:
        system_of(rule.system_id, rule.options, {"name": rule.name, **rule.rules})
    except SchemaError as error:
        place = error.where.replace("house_rules", "rules", 1)
        raise SchemaError(place, error.problem) from None


class Checker:
    """Checks rows, reading each game's rules once however many of its rows are checked.

    A restore checks whole games (`whole_games`): their table, their hands' numbers and tokens.
    The app's own writes check the rows they write, with the rules their game is played under.
    """

    def __init__(self, whole_games: bool = True) -> None:
        self.whole_games = whole_games
        self._systems: dict[int, rules.RuleSystem] = {}

    def system(self, game: Game) -> rules.RuleSystem:
        if id(game) not in self._systems:
            self._systems[id(game)] = (
                check_game(game)
                if self.whole_games
                else system_of(game.system_id, game.options, game.house_rules)
            )
        return self._systems[id(game)]

    def check(self, record: Any) -> None:
        """Whatever row it is, with what its game (reached through its relationships) says."""
        game = _game_of(record)
        if isinstance(record, Game):
            check_game(record)
        elif isinstance(record, HouseRule):
            check_house_rule(record)
        elif isinstance(record, PlayerMerge):
            check_merge(record)
        elif game is None:  # a row not in a game yet: its game is checked when it gets one
            check_columns(record)
        elif isinstance(record, Hand):
            check_hand(record, len(game.sides))
        elif isinstance(record, Entry):
            check_entry(record, self.system(game))
        elif isinstance(record, Correction):
            self.system(game)
            check_correction(record, game)
        else:
            check_columns(record)


def _game_of(record: Any) -> Game | None:
    if isinstance(record, Side | Hand):
        return record.game
    if isinstance(record, Entry | Correction):
        return None if record.hand is None else record.hand.game
    if isinstance(record, Player):
        return None if record.side is None else record.side.game
    return None


def check(record: Any) -> None:
    """One row, with what its game says about it; SchemaError if the database must not keep it."""
    Checker().check(record)


def check_changes(record: Any) -> None:
    """The columns a write changes in a stored row (a house rule: the whole of it).

    The rest of the row was checked when it was written, or predates this schema: a value an
    older version let in is for the upgrade to mend, not a reason to refuse today's write.
    """
    if isinstance(record, HouseRule):
        check_house_rule(record)
        return
    state = inspect(record)
    columns = COLUMNS[type(record)]
    # Only the columns set since the row was read can have changed (each keeps its value of
    # before in the row's state): a game's save sets a few of its many.
    touched = columns.keys() - state.unmodified_intersection(columns)
    for key, check_value in columns.items():
        if key in touched and state.attrs[key].history.has_changes():
            value = state.dict.get(key)
            try:
                check_value(value)
            except SchemaError as error:
                if value is None:
                    raise SchemaError(key, "must not be null") from None
                raise error.inside(key) from None


def check_session(session: Any) -> None:
    """Every new or changed row of a session about to be flushed (a `before_flush` listener)."""
    checker = Checker(whole_games=False)
    new = session.new  # built afresh on each access: once, not once a row
    for record in [*new, *session.dirty]:
        if type(record) not in COLUMNS:
            continue
        try:
            if record in new:
                checker.check(record)
            elif session.is_modified(record):
                check_changes(record)
        except SchemaError as error:
            raise error.inside(type(record).__name__) from None


def _check_flush(session: Session, _context: object, _instances: object) -> None:
    check_session(session)


def check_every_write(session: scoped_session[Any]) -> None:
    """Have every row the app's session writes pass the schema a restore checks, so that every
    backup restores (`create_app` calls it; once is enough for every app sharing the session)."""
    if not event.contains(session, "before_flush", _check_flush):
        event.listen(session, "before_flush", _check_flush)

"""The rule checks: everything wrong with a hand, reported at once, each as a value.

Each violation code is one small function, registered under its code in `CHECKS` (as systems
are under their id) by the decorator of what it looks at: one side's entry (`entry_check`), the
whole hand (`hand_check`) or the table (`table_check`). The decorator also names the topic whose
section of the system's text the violation cites (`RuleSystem.sections`); the checks run in the
order of this module. docs/violations.md says what each code means.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Generic, Protocol, TypeVar

from .fields import ENTRY_FIELDS, NUMBER_FIELDS, POINTS_FIELDS, FieldRef
from .hands import BadNumber, EndedBy, Entry, Game, Hand, Side
from .scoring import HOLDERS
from .systems import Deck, Penalty, RuleSystem, SetKind, kinds_text
from .words import N_, P_, Plural, Rule, Text, join, number


@dataclass(frozen=True)
class Violation:
    """A broken rule: its code, the side it concerns (None for the whole hand or game), the
    field of that side's entry it is about (None if none), a message and the rule it cites."""

    code: str
    side: int | None
    message: Text
    rule: Rule
    field: FieldRef | None = None


@dataclass(frozen=True)
class Found:
    """What a check found: its words, the field it is about, and the side it concerns and the
    topic it cites where these are not the check's own."""

    template: str | Plural
    values: Mapping[str, str | int | Text] = field(default_factory=dict)
    at: FieldRef | None = None
    topic: str | None = None
    side: int | None = None


class Seen(Protocol):
    """What a check looks at, which turns what it found into a violation."""

    def violation(self, code: str, topic: str, found: Found) -> Violation: ...


@dataclass(frozen=True)
class AtTable:
    """What a check of the table sees: the game."""

    game: Game

    def violation(self, code: str, topic: str, found: Found) -> Violation:
        message = Text(found.template, found.values)
        return Violation(
            code, found.side, message, self.system.cite(found.topic or topic), found.at
        )

    @property
    def system(self) -> RuleSystem:
        return self.game.system


@dataclass(frozen=True)
class InHand(AtTable):
    """What a check of the whole hand sees: the hand as the checks read it (`_readable`), each
    side's unreadable numbers (`invalid-number`), and whether the game was already over."""

    hand: Hand
    bad_numbers: tuple[tuple[BadNumber, ...], ...]
    unreadable: tuple[frozenset[str], ...]
    game_over: bool

    @classmethod
    def of(cls, game: Game, hand: Hand, game_over: bool) -> InHand:
        """The hand as the checks see it; an entry for each side, in seating order."""
        bad = tuple(tuple(_bad_numbers(entry)) for entry in hand.entries)
        unreadable = tuple(frozenset(each.field for each in numbers) for numbers in bad)
        sides = zip(game.sides, hand.entries, unreadable, strict=True)
        readable = tuple(_readable(entry, paths) for _, entry, paths in sides)
        return cls(game, replace(hand, entries=readable), bad, unreadable, game_over)

    def total(self, *kinds: SetKind) -> int:
        """How many sets of these kinds all sides recorded."""
        return sum(entry.count(kind) for entry in self.hand.entries for kind in kinds)


@dataclass(frozen=True)
class OfSide:
    """What a check of one side's entry sees: the hand, which side, and its first-meld minimum."""

    in_hand: InHand
    index: int
    minimum: int

    @property
    def system(self) -> RuleSystem:
        return self.in_hand.system

    @property
    def side(self) -> Side:
        return self.in_hand.game.sides[self.index]

    @property
    def entry(self) -> Entry:
        """The side's entry as the checks read it: an unreadable number 0 (`_readable`)."""
        return self.in_hand.hand.entries[self.index]

    @property
    def bad_numbers(self) -> tuple[BadNumber, ...]:
        return self.in_hand.bad_numbers[self.index]

    @property
    def unreadable(self) -> frozenset[str]:
        """The paths of the side's fields whose numbers could not be read."""
        return self.in_hand.unreadable[self.index]

    def violation(self, code: str, topic: str, found: Found) -> Violation:
        message = Text(found.template, {"side": self.side.name, **found.values})
        return Violation(
            code, self.index, message, self.system.cite(found.topic or topic), found.at
        )


S = TypeVar("S", bound=Seen)
Finds = Callable[[S], Iterable[Found]]


@dataclass(frozen=True)
class Check(Generic[S]):
    """One violation code: the rule topic it cites and the function that finds it."""

    code: str
    topic: str
    find: Finds[S]

    def run(self, seen: S) -> list[Violation]:
        return [seen.violation(self.code, self.topic, found) for found in self.find(seen)]


CHECKS: dict[str, Check[Any]] = {}
"""Every check by its violation code, in the order they run."""

ENTRY_CHECKS: list[Check[OfSide]] = []
HAND_CHECKS: list[Check[InHand]] = []
TABLE_CHECKS: list[Check[AtTable]] = []


def _registry(into: list[Check[S]]) -> Callable[[str, str], Callable[[Finds[S]], Finds[S]]]:
    """A decorator registering a check under its code and rule topic, into `CHECKS` and `into`."""

    def check(code: str, topic: str) -> Callable[[Finds[S]], Finds[S]]:
        def register(find: Finds[S]) -> Finds[S]:
            if code in CHECKS:
                raise ValueError(f"two checks report {code!r}")
            CHECKS[code] = Check(code, topic, find)
            into.append(CHECKS[code])
            return find

        return register

    return check


entry_check = _registry(ENTRY_CHECKS)
hand_check = _registry(HAND_CHECKS)
table_check = _registry(TABLE_CHECKS)


def check_table(game: Game) -> list[Violation]:
    """Every problem with the table the game is played at."""
    seen = AtTable(game)
    return [violation for check in TABLE_CHECKS for violation in check.run(seen)]


def check_hand(game: Game, hand: Hand, minimums: Sequence[int], game_over: bool) -> list[Violation]:
    """Every problem with one hand: each side's entry in turn, then the hand across sides."""
    seen = InHand.of(game, hand, game_over)
    found: list[Violation] = []
    for index in range(len(game.sides)):
        side = OfSide(seen, index, minimums[index])
        found += [violation for check in ENTRY_CHECKS for violation in check.run(side)]
    found += [violation for check in HAND_CHECKS for violation in check.run(seen)]
    return found


@table_check("wrong-player-count", "table")
def _wrong_player_count(seen: AtTable) -> Iterator[Found]:
    """A system is played at certain tables only (so many sides of so many players)."""
    system, sides = seen.system, seen.game.sides
    players = {side.players for side in sides}
    if (len(sides), players.pop() if len(players) == 1 else 0) not in system.tables:
        yield Found(
            N_("%(system)s is played by %(allowed)s (sides × players); this table is %(got)s"),
            {
                "system": Text(system.name),
                "allowed": ", ".join(f"{s}×{p}" for s, p in system.tables),
                "got": " + ".join(str(side.players) for side in sides),
            },
        )


@entry_check("invalid-number", "scoring")
def _invalid_number(seen: OfSide) -> Iterator[Found]:
    """Counts and points are whole numbers of zero or more; a bad one is reported once."""
    for bad in seen.bad_numbers:
        at = FieldRef.from_path(bad.field)
        yield Found(
            N_("%(side)s, “%(field)s”: give a whole number, zero or more, not %(given)s"),
            {"field": at.label, "given": bad.given},
            at,
        )


@entry_check("not-multiple-of-5", "scoring")
def _not_multiple_of_5(seen: OfSide) -> Iterator[Found]:
    """Every card is worth a multiple of 5, so card points come in fives."""
    for name in POINTS_FIELDS:
        value = getattr(seen.entry, name)
        if value is not None and value % 5:
            yield Found(
                N_("%(side)s: %(value)s points cannot be, every card is worth a multiple of 5"),
                {"value": value},
                FieldRef(name),
            )


@entry_check("set-not-in-variant", "sets")
def _set_not_in_variant(seen: OfSide) -> Iterator[Found]:
    """A side records only the kinds of set its system has."""
    system = seen.system
    for kind, count in seen.entry.sets.items():
        if count > 0 and not system.has(kind):
            yield Found(
                N_("%(side)s: %(system)s has no %(kind)s"),
                {"system": Text(system.name), "kind": Text(kind.label)},
                FieldRef("sets", kind),
            )


@entry_check("penalty-not-in-variant", "penalties")
def _penalty_not_in_variant(seen: OfSide) -> Iterator[Found]:
    """A side is charged only the penalties its system has (asking to go out: *going-out*)."""
    system = seen.system
    for penalty, count in seen.entry.penalties.items():
        if count > 0 and penalty not in system.penalties:
            yield Found(
                N_("%(side)s: %(system)s has no penalty for this: %(what)s"),
                {"system": Text(system.name), "what": Text(penalty.label)},
                FieldRef("penalties", penalty),
                PENALTY_TOPICS.get(penalty),
            )


@entry_check("sets-need-more-points", "sets")
def _sets_need_more_points(seen: OfSide) -> Iterator[Found]:
    """The melded points hold at least the card points of the sets recorded."""
    entry = seen.entry
    least = sum(kind.least_card_points * n for kind, n in entry.sets.items() if n > 0)
    if entry.melded_points < least and "melded_points" not in seen.unreadable:
        yield Found(
            N_(
                "%(side)s: the sets recorded hold at least %(least)s card points, "
                "but melded points are %(melded)s"
            ),
            {"least": least, "melded": entry.melded_points},
            FieldRef("melded_points"),
        )


@entry_check("opening-meld-too-low", "first-meld")
def _opening_meld_too_low(seen: OfSide) -> Iterator[Found]:
    """A first meld reaches the side's minimum, unless it melded nothing or is exempt."""
    entry, minimum = seen.entry, seen.minimum
    exempt = seen.system.concealed_exempt and entry.went_out and entry.concealed
    # A side that laid nothing down has no first meld to check, whatever 0 it was given.
    melded = entry.has_melded() or bool(entry.opening_meld)
    if entry.opening_meld is not None and entry.opening_meld < minimum and melded and not exempt:
        yield Found(
            N_("%(side)s: a first meld of %(meld)s is too low; %(side)s needed %(minimum)s"),
            {"meld": entry.opening_meld, "minimum": minimum},
            FieldRef("opening_meld"),
        )


@entry_check("opening-meld-exceeds-melded", "first-meld")
def _opening_meld_exceeds_melded(seen: OfSide) -> Iterator[Found]:
    """A first meld is part of what the side melded, so worth no more than all of it."""
    entry = seen.entry
    meld = entry.opening_meld
    if meld is not None and meld > entry.melded_points and "melded_points" not in seen.unreadable:
        yield Found(
            N_(
                "%(side)s: the first meld (%(meld)s) is worth more than all that was melded "
                "(%(melded)s)"
            ),
            {"meld": meld, "melded": entry.melded_points},
            FieldRef("opening_meld"),
        )


@entry_check("went-out-without-sets", "going-out")
def _went_out_without_sets(seen: OfSide) -> Iterator[Found]:
    """A side goes out only with the sets its system asks for (super-samba: the book)."""
    entry = seen.entry
    sets_known = not any(FieldRef.from_path(path).field == "sets" for path in seen.unreadable)
    if entry.went_out and sets_known and not seen.system.can_go_out(entry.sets):
        template, values = _why_not_out(seen.system, entry)
        yield Found(template, values, FieldRef("went_out"))


@entry_check("went-out-holding-cards", "going-out")
def _went_out_holding_cards(seen: OfSide) -> Iterator[Found]:
    """In an individual game, the player who goes out holds no cards."""
    entry = seen.entry
    if (
        entry.went_out
        and seen.side.players == 1
        and (entry.hand_points or entry.red_threes_in_hand)
    ):
        yield Found(
            N_("%(side)s went out, so %(side)s can hold no cards"), {}, FieldRef("hand_points")
        )


@entry_check("impossible-red-three-holders", "penalties")
def _impossible_red_three_holders(seen: OfSide) -> Iterator[Found]:
    """Classic: players caught holding red threes are the side's, each with one in hand."""
    entry = seen.entry
    if not seen.system.red_threes.in_hand_by_player:
        return
    why = _why_not_held(seen.side, entry, "red_threes_in_hand" not in seen.unreadable)
    if why is not None:
        yield Found(
            N_("%(side)s: %(holders)s, but %(why)s"),
            {"holders": Text(HOLDERS, {"count": entry.players_holding_red_threes}), "why": why},
            FieldRef("players_holding_red_threes"),
        )


@entry_check("samba-limit", "sets")
def _samba_limit(seen: OfSide) -> Iterator[Found]:
    """Super-samba: a side has at most four sambas, at most one of them a super samba."""
    if seen.system.samba_limit is None:
        return
    sambas, supers = seen.system.samba_limit
    entry = seen.entry
    if (
        entry.count(SetKind.SAMBA) + entry.count(SetKind.SUPER_SAMBA) > sambas
        or entry.count(SetKind.SUPER_SAMBA) > supers
    ):
        yield Found(
            N_(
                "%(side)s: a side may have at most %(sambas)s sambas, "
                "at most %(supers)s of them super"
            ),
            {"sambas": sambas, "supers": supers},
            FieldRef("sets", SetKind.SAMBA),
        )


@hand_check("several-went-out", "going-out")
def _several_went_out(seen: InHand) -> Iterator[Found]:
    """At most one side goes out in a hand."""
    out = seen.hand.went_out()
    if len(out) > 1:
        names = [seen.game.sides[i].name for i in out]
        yield Found(
            N_("Only one side can go out, yet %(names)s each went out"),
            {"names": join(names, last=N_("%(a)s and %(b)s"))},
        )


@hand_check("nobody-went-out", "going-out")
def _nobody_went_out(seen: InHand) -> Iterator[Found]:
    """A hand that ended by going out has a side that went out."""
    if seen.hand.ended_by is EndedBy.GOING_OUT and not seen.hand.went_out():
        yield Found(N_("The hand ended by going out, but no side went out"))


@hand_check("went-out-but-stock-ended", "going-out")
def _went_out_but_stock_ended(seen: InHand) -> Iterator[Found]:
    """A hand that ended with the stock exhausted has no side that went out."""
    if seen.hand.ended_by is EndedBy.STOCK_EXHAUSTED and seen.hand.went_out():
        yield Found(
            N_(
                "Nobody went out is chosen, yet a side is marked as going out: a side that went "
                "out after the stock ran out went out"
            )
        )


@hand_check("stock-ended-with-book-complete", "going-out")
def _stock_ended_with_book_complete(seen: InHand) -> Iterator[Found]:
    """Super-samba: the stock ends a hand only while no side has its whole book."""
    if seen.hand.ended_by is not EndedBy.STOCK_EXHAUSTED or not seen.system.book:
        return
    for index, entry in enumerate(seen.hand.entries):
        if seen.system.can_go_out(entry.sets):
            yield Found(
                N_(
                    "%(side)s has its whole book, and a hand ends with the "
                    "stock exhausted only while no side has one"
                ),
                {"side": seen.game.sides[index].name},
                FieldRef("went_out"),
                side=index,
            )


@hand_check("too-many-red-threes", "red-threes")
def _too_many_red_threes(seen: InHand) -> Iterator[Found]:
    """The sides hold no more red threes, on the table and in hand, than the deck."""
    count = sum(e.red_threes + e.red_threes_in_hand for e in seen.hand.entries)
    if count > seen.game.deck.red_threes:
        yield Found(
            N_("%(count)s red threes recorded, but the deck holds only %(deck)s"),
            {"count": count, "deck": seen.game.deck.red_threes},
        )


@hand_check("too-many-sets", "sets")
def _too_many_sets(seen: InHand) -> Iterator[Found]:
    """The sets are no more than the cards in play can make (each limit: `SET_LIMITS`)."""
    for limit in SET_LIMITS:
        found = limit(seen)
        if found is not None:
            yield found


@hand_check("impossible-natural-cards", "sets")
def _impossible_natural_cards(seen: InHand) -> Iterator[Found]:
    """The sets need no more natural cards (4 up to Ace) than the decks hold."""
    deck = seen.game.deck
    naturals = sum(k.least_natural_cards * n for e in seen.hand.entries for k, n in e.sets.items())
    if naturals > deck.natural_cards:
        yield Found(
            P_(
                "These sets need at least %(count)s natural card (4 up to ace); "
                "%(decks)s decks hold %(have)s",
                "These sets need at least %(count)s natural cards (4 up to ace); "
                "%(decks)s decks hold %(have)s",
            ),
            {"count": naturals, "decks": deck.decks, "have": deck.natural_cards},
        )


@hand_check("hand-after-game-over", "end-of-game")
def _hand_after_game_over(seen: InHand) -> Iterator[Found]:
    """No hand is played once the game is over."""
    if seen.game_over:
        yield Found(N_("The game was already over before this hand"))


def _wild_cards_short(seen: InHand) -> Found | None:
    """Mixed canastas and black sambas hold a wild card, a wild canasta seven."""
    needed = seen.total(SetKind.MIXED_CANASTA, SetKind.BLACK_SAMBA) + 7 * seen.total(
        SetKind.WILD_CANASTA
    )
    have = seen.game.deck.wild_cards
    if needed <= have:
        return None
    return Found(
        N_("These sets need at least %(needed)s wild cards; the deck has %(have)s"),
        {"needed": needed, "have": have},
    )


def _too_many_sambas(seen: InHand) -> Found | None:
    """Each deck has four suits, each making one samba."""
    count, decks = seen.total(SetKind.SAMBA, SetKind.SUPER_SAMBA), seen.game.deck.decks
    if count <= 4 * decks:
        return None
    return Found(
        N_("%(count)s sambas recorded; %(decks)s decks allow at most %(most)s"),
        {"count": count, "decks": decks, "most": 4 * decks},
    )


def _eights_to_tens_short(seen: InHand) -> Found | None:
    """Every samba holds one 8, 9 and 10 of its suit, a black samba at least two of them."""
    sambas = seen.total(SetKind.SAMBA, SetKind.SUPER_SAMBA)
    needed = 3 * sambas + 2 * seen.total(SetKind.BLACK_SAMBA)
    decks = seen.game.deck.decks
    if needed <= 12 * decks:
        return None
    return Found(
        N_(
            "These sambas need at least %(needed)s eights, nines and tens; "
            "%(decks)s decks hold %(have)s"
        ),
        {"needed": needed, "decks": decks, "have": 12 * decks},
    )


def canastas_beside_sambas(deck: Deck, sambas: int) -> int:
    """The most natural canastas (of sevens too) the cards leave beside `sambas` sambas and
    super sambas (docs/violations.md, *too-many-sets*).

    Every samba takes one 8, 9 and 10 of its suit, and one card of each rank pair 4/J, 5/Q, 6/K
    and 7/A (a samba from 4 takes the 4, one to the ace the J): of the S sambas, k take the low
    card of each pair and S − k the high one, and the best k is the one that leaves most.

    >>> canastas_beside_sambas(Deck(3, 6), 0), canastas_beside_sambas(Deck(3, 6), 12)
    (11, 4)
    """
    per_rank = 4 * deck.decks
    if sambas > per_rank:
        return 0  # more sambas than eights of a suit: `_too_many_sambas` says so already
    middle = 3 * ((per_rank - sambas) // 7)
    pairs = max(
        (per_rank - k) // 7 + (per_rank - sambas + k) // 7
        for k in range(max(0, sambas - per_rank), min(sambas, per_rank) + 1)
    )
    return middle + 4 * pairs


def _natural_canastas_beside_sambas(seen: InHand) -> Found | None:
    """The sambas take cards of the ranks natural canastas need: so many canastas are left."""
    deck = seen.game.deck
    sambas = seen.total(SetKind.SAMBA, SetKind.SUPER_SAMBA)
    count = seen.total(SetKind.NATURAL_CANASTA, SetKind.SEVENS_CANASTA)
    room = canastas_beside_sambas(deck, sambas)
    if not (0 < sambas <= 4 * deck.decks and room < count <= 11 * deck.canastas_per_rank):
        return None
    return Found(
        N_(
            "%(count)s natural canastas recorded beside %(sambas)s sambas; "
            "%(decks)s decks leave room for at most %(most)s"
        ),
        {"count": count, "sambas": sambas, "decks": deck.decks, "most": room},
    )


def _too_many_natural_canastas(seen: InHand) -> Found | None:
    """Eleven ranks (4 up to Ace), each making so many canastas."""
    deck = seen.game.deck
    count = seen.total(SetKind.NATURAL_CANASTA, SetKind.SEVENS_CANASTA)
    if count <= 11 * deck.canastas_per_rank:
        return None
    return Found(
        N_("%(count)s natural canastas recorded; %(decks)s decks allow at most %(most)s"),
        {"count": count, "decks": deck.decks, "most": 11 * deck.canastas_per_rank},
    )


def _too_many_sevens_canastas(seen: InHand) -> Found | None:
    """The sevens make so many canastas."""
    deck = seen.game.deck
    count = seen.total(SetKind.SEVENS_CANASTA)
    if count <= deck.canastas_per_rank:
        return None
    return Found(
        N_("%(count)s canastas of sevens recorded; %(decks)s decks allow at most %(most)s"),
        {"count": count, "decks": deck.decks, "most": deck.canastas_per_rank},
    )


def _red_three_canasta_short(seen: InHand) -> Found | None:
    """A side's canasta of red threes holds seven of its red threes on the table."""
    for entry, unreadable in zip(seen.hand.entries, seen.unreadable, strict=True):
        short = 7 * entry.count(SetKind.RED_THREE_CANASTA) > entry.red_threes
        if short and "red_threes" not in unreadable:
            return Found(N_("A canasta of red threes needs seven red threes on the table"))
    return None


def _cards_short(seen: InHand) -> Found | None:
    """Every set holds seven cards at least."""
    count = sum(n for e in seen.hand.entries for n in e.sets.values() if n > 0)
    have = seen.game.deck.cards
    if 7 * count <= have:
        return None
    return Found(
        N_("%(count)s sets need %(needed)s cards; the deck has %(have)s"),
        {"count": count, "needed": 7 * count, "have": have},
    )


SET_LIMITS: tuple[Callable[[InHand], Found | None], ...] = (
    _wild_cards_short,
    _too_many_sambas,
    _eights_to_tens_short,
    _natural_canastas_beside_sambas,
    _too_many_natural_canastas,
    _too_many_sevens_canastas,
    _red_three_canasta_short,
    _cards_short,
)
"""What `too-many-sets` finds, in the order it reports them."""


def _why_not_held(side: Side, entry: Entry, held_known: bool) -> Text | None:
    """Why the players recorded as caught holding red threes cannot be (classic), or None: a
    player is caught only with a red three left in hand, and each holds one at least. Without
    a readable count of red threes in hand, only the side's players bound them."""
    holders, held = entry.players_holding_red_threes, entry.red_threes_in_hand
    if holders and not held and held_known:
        return Text(N_("no red three was left in hand"))
    if holders > side.players:
        return Text(
            P_("the side has only %(count)s player", "the side has only %(count)s players"),
            {"count": side.players},
        )
    if holders > held and held_known:
        return Text(
            P_(
                "only %(count)s red three was left in hand",
                "only %(count)s red threes were left in hand",
            ),
            {"count": held},
        )
    return None


def _readable(entry: Entry, unreadable: frozenset[str]) -> Entry:
    """The entry as the checks after `invalid-number` see it: an unreadable first meld not
    noted, every other unreadable number 0."""
    # No other check uses an unreadable number (docs/violations.md, *invalid-number*): as 0 it
    # can only make them find too few of something, never too many, and those that would find
    # too few skip it.
    if not unreadable:
        return entry
    values: dict[str, object] = {}
    for entry_field in ENTRY_FIELDS:
        value = getattr(entry, entry_field.name)
        if entry_field.kind.grouped:
            values[entry_field.name] = {
                key: 0 if FieldRef(entry_field.name, key).path in unreadable else count
                for key, count in value.items()
            }
        elif entry_field.name in unreadable:
            values[entry_field.name] = None if entry_field.optional else 0
    return replace(entry, **values)  # type: ignore[arg-type]


def _bad_numbers(entry: Entry) -> list[BadNumber]:
    """The numbers of an entry that are not whole numbers of zero or more (`invalid-number`)."""
    bad = list(entry.bad_numbers)
    for name in NUMBER_FIELDS:
        value = getattr(entry, name)
        if value is not None and value < 0:
            bad.append(BadNumber(name, number(value)))
    for entry_field in ENTRY_FIELDS:
        if entry_field.kind.grouped:
            for key, count in getattr(entry, entry_field.name).items():
                if count < 0:
                    bad.append(BadNumber(FieldRef(entry_field.name, key).path, number(count)))
    return bad


PENALTY_TOPICS = {
    Penalty.WENT_OUT_AFTER_REFUSAL: "going-out",
    Penalty.COULD_NOT_GO_OUT_AFTER_ASKING: "going-out",
}
"""Where a text speaks of asking to go out: a system without these penalties is cited there."""

SETS_COUNTED: dict[SetKind, Plural] = {
    SetKind.NATURAL_CANASTA: P_("%(count)s natural canasta", "%(count)s natural canastas"),
    SetKind.MIXED_CANASTA: P_("%(count)s mixed canasta", "%(count)s mixed canastas"),
    SetKind.SAMBA: P_("%(count)s samba", "%(count)s sambas"),
    SetKind.BLACK_SAMBA: P_("%(count)s black samba", "%(count)s black sambas"),
    SetKind.SUPER_SAMBA: P_("%(count)s super samba", "%(count)s super sambas"),
    SetKind.WILD_CANASTA: P_("%(count)s canasta of wild cards", "%(count)s canastas of wild cards"),
    SetKind.SEVENS_CANASTA: P_("%(count)s canasta of sevens", "%(count)s canastas of sevens"),
    SetKind.RED_THREE_CANASTA: P_(
        "%(count)s canasta of red threes", "%(count)s canastas of red threes"
    ),
}


def _why_not_out(
    system: RuleSystem, entry: Entry
) -> tuple[str | Plural, dict[str, str | int | Text]]:
    """What a side that went out lacked: the parts of the book that are short, the sets it
    needed, or (black-samba's option `one_red_set_to_go_out`) a natural set among them."""
    if system.book:
        short = [
            _short(kinds, n, entry)
            for kinds, n in system.book
            if sum(entry.count(k) for k in kinds) < n
        ]
        return N_("%(side)s went out without the book: %(short)s"), {
            "short": join(short, N_("%(a)s; %(b)s"))
        }
    count = entry.sets_of(system)
    if system.natural_set_to_go_out and count >= (system.sets_to_go_out or 0):
        template = (
            N_(
                "%(side)s went out with %(count)s sets, but neither is natural: one of them "
                "must be a natural canasta or a samba"
            )
            if count == 2
            else P_(
                "%(side)s went out with %(count)s set, but it is not natural: it must be "
                "a natural canasta or a samba",
                "%(side)s went out with %(count)s sets, but none of them is natural: one of them "
                "must be a natural canasta or a samba",
            )
        )
        return template, {"count": count}
    return P_(
        "%(side)s went out with %(count)s set, but %(system)s needs %(needed)s to go out",
        "%(side)s went out with %(count)s sets, but %(system)s needs %(needed)s to go out",
    ), {"count": count, "system": Text(system.name), "needed": system.going_out_requirement()}


def _short(kinds: frozenset[SetKind], needed: int, entry: Entry) -> Text:
    """One part of the book a side lacks: what it needs and what it has."""
    has = sum(entry.count(k) for k in kinds)
    ordered = [k for k in SetKind if k in kinds]
    if needed == 1 or len(ordered) > 1:
        what = kinds_text(kinds)
        if needed == 1:
            return Text(N_("needs a %(what)s, has none"), {"what": what})
        what = Text(N_("%(count)s × %(what)s"), {"count": needed, "what": what})
    else:
        what = Text(SETS_COUNTED[ordered[0]], {"count": needed})
    if has:
        return Text(N_("needs %(what)s, has %(has)s"), {"what": what, "has": has})
    return Text(N_("needs %(what)s, has none"), {"what": what})

"""The rule checks: everything wrong with a hand, reported at once, each as a value.

The codes are those of RULES.md, *What the checks catch*.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

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


def check_table(game: Game) -> list[Violation]:
    """Whether the sides and players form a table the system allows."""
    system = game.system
    players = {side.players for side in game.sides}
    table = (len(game.sides), players.pop() if len(players) == 1 else 0)
    if table in system.tables:
        return []
    allowed = ", ".join(f"{s}×{p}" for s, p in system.tables)
    layout = " + ".join(str(side.players) for side in game.sides)
    return [
        Violation(
            "wrong-player-count",
            None,
            Text(
                N_("%(system)s is played by %(allowed)s (sides × players); this table is %(got)s"),
                {"system": Text(system.name), "allowed": allowed, "got": layout},
            ),
            system.cite("table"),
        )
    ]


def check_hand(game: Game, hand: Hand, minimums: Sequence[int], game_over: bool) -> list[Violation]:
    """Every problem with one hand: per side, then across sides."""
    found: list[Violation] = []
    unreadable = [_unreadable(entry) for entry in hand.entries]
    for index, (side, entry) in enumerate(zip(game.sides, hand.entries, strict=True)):
        found += _check_entry(
            game.system, index, side, entry, unreadable[index], minimums[index], game.players
        )
    readable = replace(
        hand,
        entries=tuple(_readable(e, bad) for e, bad in zip(hand.entries, unreadable, strict=True)),
    )
    found += _check_across(game, readable, unreadable)
    if game_over:
        found.append(
            Violation(
                "hand-after-game-over",
                None,
                Text(N_("The game was already over before this hand")),
                game.system.cite("end-of-game"),
            )
        )
    return found


def _check_entry(
    system: RuleSystem,
    index: int,
    side: Side,
    given: Entry,
    unreadable: frozenset[str],
    minimum: int,
    players: int,
) -> list[Violation]:
    found: list[Violation] = []

    def report(
        code: str, topic: str, at: FieldRef, template: str | Plural, **values: str | int | Text
    ) -> None:
        text = Text(template, {"side": side.name, **values})
        found.append(Violation(code, index, text, system.cite(topic), at))

    for bad in _bad_numbers(given):
        at = FieldRef.from_path(bad.field)
        report(
            "invalid-number",
            "scoring",
            at,
            N_("%(side)s, “%(field)s”: give a whole number, zero or more, not %(given)s"),
            field=at.label,
            given=bad.given,
        )
    # RULES.md: an unreadable number is reported once and no other check uses it. The checks
    # below see it as 0 (None for a first meld, which is then not checked), which can only
    # find too few of something, never too many: those that would find too few skip it.
    entry = _readable(given, unreadable)
    for name in POINTS_FIELDS:
        value = getattr(entry, name)
        if value is not None and value % 5:
            report(
                "not-multiple-of-5",
                "scoring",
                FieldRef(name),
                N_("%(side)s: %(value)s points cannot be, every card is worth a multiple of 5"),
                value=value,
            )
    for kind, count in entry.sets.items():
        if count > 0 and not system.has(kind):
            report(
                "set-not-in-variant",
                "sets",
                FieldRef("sets", kind),
                N_("%(side)s: %(system)s has no %(kind)s"),
                system=Text(system.name),
                kind=Text(kind.label),
            )
    for penalty, count in entry.penalties.items():
        if count > 0 and penalty not in system.penalties:
            report(
                "penalty-not-in-variant",
                PENALTY_TOPICS.get(penalty, "penalties"),
                FieldRef("penalties", penalty),
                N_("%(side)s: %(system)s has no penalty for this: %(what)s"),
                system=Text(system.name),
                what=Text(penalty.label),
            )
    least = sum(kind.least_card_points * n for kind, n in entry.sets.items() if n > 0)
    if entry.melded_points < least and "melded_points" not in unreadable:
        report(
            "sets-need-more-points",
            "sets",
            FieldRef("melded_points"),
            N_(
                "%(side)s: the sets recorded hold at least %(least)s card points, "
                "but melded points are %(melded)s"
            ),
            least=least,
            melded=entry.melded_points,
        )
    exempt = system.concealed_exempt and entry.went_out and entry.concealed
    # A side that laid nothing down has no first meld to check, whatever 0 it was given.
    melded = entry.has_melded() or bool(entry.opening_meld)
    if entry.opening_meld is not None and entry.opening_meld < minimum and melded and not exempt:
        report(
            "opening-meld-too-low",
            "first-meld",
            FieldRef("opening_meld"),
            N_("%(side)s: a first meld of %(meld)s is too low; %(side)s needed %(minimum)s"),
            meld=entry.opening_meld,
            minimum=minimum,
        )
    if (
        entry.opening_meld is not None
        and entry.opening_meld > entry.melded_points
        and "melded_points" not in unreadable
    ):
        report(
            "opening-meld-exceeds-melded",
            "first-meld",
            FieldRef("opening_meld"),
            N_(
                "%(side)s: the first meld (%(meld)s) is worth more than all that was melded "
                "(%(melded)s)"
            ),
            meld=entry.opening_meld,
            melded=entry.melded_points,
        )
    sets_known = not any(FieldRef.from_path(path).field == "sets" for path in unreadable)
    if entry.went_out and sets_known and not system.can_go_out(entry.sets):
        template, values = _why_not_out(system, entry)
        report("went-out-without-sets", "going-out", FieldRef("went_out"), template, **values)
    if entry.went_out and side.players == 1 and (entry.hand_points or entry.red_threes_in_hand):
        report(
            "went-out-holding-cards",
            "going-out",
            FieldRef("hand_points"),
            N_("%(side)s went out, so %(side)s can hold no cards"),
        )
    why_not_held = (
        _why_not_held(side, entry, "red_threes_in_hand" not in unreadable)
        if system.red_threes.in_hand_by_player
        else None
    )
    if why_not_held is not None:
        report(
            "impossible-red-three-holders",
            "penalties",
            FieldRef("players_holding_red_threes"),
            N_("%(side)s: %(holders)s, but %(why)s"),
            holders=Text(HOLDERS, {"count": entry.players_holding_red_threes}),
            why=why_not_held,
        )
    if system.samba_limit is not None:
        sambas, supers = system.samba_limit
        if (
            entry.count(SetKind.SAMBA) + entry.count(SetKind.SUPER_SAMBA) > sambas
            or entry.count(SetKind.SUPER_SAMBA) > supers
        ):
            report(
                "samba-limit",
                "sets",
                FieldRef("sets", SetKind.SAMBA),
                N_(
                    "%(side)s: a side may have at most %(sambas)s sambas, "
                    "at most %(supers)s of them super"
                ),
                sambas=sambas,
                supers=supers,
            )
    return found


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


def _unreadable(entry: Entry) -> frozenset[str]:
    """The paths of the fields whose numbers could not be read (`invalid-number`)."""
    return frozenset(bad.field for bad in _bad_numbers(entry))


def _readable(entry: Entry, unreadable: frozenset[str]) -> Entry:
    """The entry as the checks after `invalid-number` see it: an unreadable first meld not
    noted, every other unreadable number 0."""
    if not unreadable:
        return entry
    values: dict[str, object] = {}
    for field in ENTRY_FIELDS:
        value = getattr(entry, field.name)
        if field.kind.grouped:
            values[field.name] = {
                key: 0 if FieldRef(field.name, key).path in unreadable else count
                for key, count in value.items()
            }
        elif field.name in unreadable:
            values[field.name] = None if field.optional else 0
    return replace(entry, **values)  # type: ignore[arg-type]


def _bad_numbers(entry: Entry) -> list[BadNumber]:
    bad = list(entry.bad_numbers)
    for name in NUMBER_FIELDS:
        value = getattr(entry, name)
        if value is not None and value < 0:
            bad.append(BadNumber(name, number(value)))
    for field in ENTRY_FIELDS:
        if field.kind.grouped:
            for key, count in getattr(entry, field.name).items():
                if count < 0:
                    bad.append(BadNumber(FieldRef(field.name, key).path, number(count)))
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


def _check_across(game: Game, hand: Hand, unreadable: Sequence[frozenset[str]]) -> list[Violation]:
    """The checks of the whole hand, on readable entries (`_readable`)."""
    system = game.system
    found: list[Violation] = []

    def report(code: str, topic: str, template: str | Plural, **values: str | int | Text) -> None:
        found.append(Violation(code, None, Text(template, values), system.cite(topic)))

    out = hand.went_out()
    if len(out) > 1:
        report(
            "several-went-out",
            "going-out",
            N_("Only one side can go out, yet %(names)s each went out"),
            names=join([game.sides[i].name for i in out], last=N_("%(a)s and %(b)s")),
        )
    if hand.ended_by is EndedBy.GOING_OUT and not out:
        report(
            "nobody-went-out",
            "going-out",
            N_("The hand ended by going out, but no side went out"),
        )
    if hand.ended_by is EndedBy.STOCK_EXHAUSTED and out:
        report(
            "went-out-but-stock-ended",
            "going-out",
            N_(
                "Nobody went out is chosen, yet a side is marked as going out: a side that went "
                "out after the stock ran out went out"
            ),
        )
    if hand.ended_by is EndedBy.STOCK_EXHAUSTED and system.book:
        # Super-samba's text stops a hand on an empty stock only while no side has its book.
        for index, entry in enumerate(hand.entries):
            if system.can_go_out(entry.sets):
                found.append(
                    Violation(
                        "stock-ended-with-book-complete",
                        index,
                        Text(
                            N_(
                                "%(side)s has its whole book, and a hand ends with the "
                                "stock exhausted only while no side has one"
                            ),
                            {"side": game.sides[index].name},
                        ),
                        system.cite("going-out"),
                        FieldRef("went_out"),
                    )
                )
    deck = game.deck
    red_threes = sum(e.red_threes + e.red_threes_in_hand for e in hand.entries)
    if red_threes > deck.red_threes:
        report(
            "too-many-red-threes",
            "red-threes",
            N_("%(count)s red threes recorded, but the deck holds only %(deck)s"),
            count=red_threes,
            deck=deck.red_threes,
        )
    for template, values in _impossible_sets(system, hand, deck, unreadable):
        report("too-many-sets", "sets", template, **values)
    naturals = sum(k.least_natural_cards * n for e in hand.entries for k, n in e.sets.items())
    if naturals > deck.natural_cards:
        report(
            "impossible-natural-cards",
            "sets",
            P_(
                "These sets need at least %(count)s natural card (4 up to ace); "
                "%(decks)s decks hold %(have)s",
                "These sets need at least %(count)s natural cards (4 up to ace); "
                "%(decks)s decks hold %(have)s",
            ),
            count=naturals,
            decks=deck.decks,
            have=deck.natural_cards,
        )
    return found


def canastas_beside_sambas(deck: Deck, sambas: int) -> int:
    """The most natural canastas (of sevens too) the cards leave beside `sambas` sambas and
    super sambas (RULES.md, `too-many-sets`).

    Every samba takes one 8, 9 and 10 of its suit, and one card of each rank pair 4/J, 5/Q, 6/K
    and 7/A (a samba from 4 takes the 4, one to the ace the J): of the S sambas, k take the low
    card of each pair and S − k the high one, and the best k is the one that leaves most.

    >>> canastas_beside_sambas(Deck(3, 6), 0), canastas_beside_sambas(Deck(3, 6), 12)
    (11, 4)
    """
    per_rank = 4 * deck.decks
    if sambas > per_rank:
        return 0  # more sambas than eights of a suit: `too-many-sets` says so already
    middle = 3 * ((per_rank - sambas) // 7)
    pairs = max(
        (per_rank - k) // 7 + (per_rank - sambas + k) // 7
        for k in range(max(0, sambas - per_rank), min(sambas, per_rank) + 1)
    )
    return middle + 4 * pairs


def _impossible_sets(
    system: RuleSystem, hand: Hand, deck: Deck, unreadable: Sequence[frozenset[str]]
) -> list[tuple[str, dict[str, str | int | Text]]]:
    """What the recorded sets need that the cards in play cannot give (RULES.md)."""

    def total(*kinds: SetKind) -> int:
        return sum(e.count(k) for e in hand.entries for k in kinds)

    decks, wild_cards, canastas_per_rank = deck.decks, deck.wild_cards, deck.canastas_per_rank
    problems: list[tuple[str, dict[str, str | int | Text]]] = []
    needs_wild = total(SetKind.MIXED_CANASTA, SetKind.BLACK_SAMBA) + 7 * total(SetKind.WILD_CANASTA)
    if needs_wild > wild_cards:
        problems.append(
            (
                N_("These sets need at least %(needed)s wild cards; the deck has %(have)s"),
                {"needed": needs_wild, "have": wild_cards},
            )
        )
    sambas = total(SetKind.SAMBA, SetKind.SUPER_SAMBA)
    if sambas > 4 * decks:
        problems.append(
            (
                N_("%(count)s sambas recorded; %(decks)s decks allow at most %(most)s"),
                {"count": sambas, "decks": decks, "most": 4 * decks},
            )
        )
    # Every samba holds one 8, 9 and 10 of its suit, a black samba at least two of them.
    eights_to_tens = 3 * sambas + 2 * total(SetKind.BLACK_SAMBA)
    if eights_to_tens > 12 * decks:
        problems.append(
            (
                N_(
                    "These sambas need at least %(needed)s eights, nines and tens; "
                    "%(decks)s decks hold %(have)s"
                ),
                {"needed": eights_to_tens, "decks": decks, "have": 12 * decks},
            )
        )
    naturals = total(SetKind.NATURAL_CANASTA, SetKind.SEVENS_CANASTA)
    room = canastas_beside_sambas(deck, sambas)
    if 0 < sambas <= 4 * decks and room < naturals <= 11 * canastas_per_rank:
        problems.append(
            (
                N_(
                    "%(count)s natural canastas recorded beside %(sambas)s sambas; "
                    "%(decks)s decks leave room for at most %(most)s"
                ),
                {"count": naturals, "sambas": sambas, "decks": decks, "most": room},
            )
        )
    if naturals > 11 * canastas_per_rank:
        problems.append(
            (
                N_("%(count)s natural canastas recorded; %(decks)s decks allow at most %(most)s"),
                {"count": naturals, "decks": decks, "most": 11 * canastas_per_rank},
            )
        )
    sevens = total(SetKind.SEVENS_CANASTA)
    if sevens > canastas_per_rank:
        problems.append(
            (
                N_("%(count)s canastas of sevens recorded; %(decks)s decks allow at most %(most)s"),
                {"count": sevens, "decks": decks, "most": canastas_per_rank},
            )
        )
    for entry, bad in zip(hand.entries, unreadable, strict=True):
        if (
            7 * entry.count(SetKind.RED_THREE_CANASTA) > entry.red_threes
            and "red_threes" not in bad
        ):
            problems.append((N_("A canasta of red threes needs seven red threes on the table"), {}))
            break
    all_sets = sum(n for e in hand.entries for n in e.sets.values() if n > 0)
    if 7 * all_sets > deck.cards:
        problems.append(
            (
                N_("%(count)s sets need %(needed)s cards; the deck has %(have)s"),
                {"count": all_sets, "needed": 7 * all_sets, "have": deck.cards},
            )
        )
    return problems

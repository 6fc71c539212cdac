"""The rules pages, in the app's own words, with every number read from the rules engine.

A page is a list of sections, one per topic; a violation or a score line that cites a topic links
to its section (`/rules/<system>#<topic>`), so page and scoring can never disagree.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from flask import Blueprint, abort, render_template, url_for
from flask_babel import gettext as _
from markupsafe import Markup

from .. import rules
from .i18n import number, say
from .models import Game, db
from .services import system_of

TOPICS = (
    "table",
    "melds",
    "sets",
    "first-meld",
    "going-out",
    "red-threes",
    "penalties",
    "scoring",
    "end-of-game",
)


@dataclass
class Section:
    """One paragraph group of a rules page."""

    topic: str
    title: str
    paragraphs: list[str] = field(default_factory=list)
    table: list[tuple[str, str]] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    source: str = ""


def titles() -> dict[str, str]:
    return {
        "table": _("Players and cards"),
        "melds": _("Melds"),
        "sets": _("Sets and their bonuses"),
        "first-meld": _("The first meld"),
        "going-out": _("Going out"),
        "red-threes": _("Red threes"),
        "penalties": _("Penalties"),
        "scoring": _("Scoring a hand"),
        "end-of-game": _("End of the game"),
    }


def table_text(sides: int, players: int) -> str:
    if players == 1:
        return _("%(count)s players, each on their own", count=sides)
    return _("%(count)s teams of %(players)s", count=sides, players=players)


def _minimums(system: rules.RuleSystem) -> list[tuple[str, str]]:
    if system.opening_minimums_by_hand:
        return [
            (_("Hand %(number)s", number=n), number(m))
            for n, m in enumerate(system.opening_minimums_by_hand, start=1)
        ]
    rows = []
    pairs = system.opening_minimums
    for index, (lowest, minimum) in enumerate(pairs):
        following = pairs[index + 1][0] if index + 1 < len(pairs) else None
        if index == 0:  # the first pair also covers every total below it
            total = (
                _("below %(total)s", total=number(following))
                if following is not None
                else _("any total")
            )
        elif following is None:
            total = _("%(total)s and up", total=number(lowest or 0))
        else:
            total = _("%(low)s to %(high)s", low=number(lowest or 0), high=number(following - 5))
        rows.append((total, number(minimum)))
    return rows


def _red_threes(system: rules.RuleSystem, in_deck: int) -> list[str]:
    rule = system.red_threes
    when = {
        rules.RedThreesPlus.WITH_TWO_SETS: _(
            "Red threes laid on the table count plus once the side has at least two sets; "
            "otherwise they count minus."
        ),
        rules.RedThreesPlus.ONCE_MELDED: _(
            "Red threes laid on the table count plus once the side has melded this hand; "
            "otherwise they count minus."
        ),
        rules.RedThreesPlus.ALWAYS: _("Red threes laid on the table always count plus."),
    }[rule.plus_when]
    said = [when, _("Each is worth %(points)s.", points=number(rule.each))]
    if rule.all_of_them is not None:
        said.append(
            _(
                "All %(count)s together are worth %(points)s.",
                count=in_deck,
                points=number(rule.all_of_them),
            )
        )
    if rule.plus_when is not rules.RedThreesPlus.ALWAYS:
        said.append(_("Counting minus, each costs %(points)s.", points=number(rule.minus_each)))
        if rule.minus_all_of_them is not None:
            said.append(
                _(
                    "All %(count)s counting minus cost %(points)s.",
                    count=in_deck,
                    points=number(rule.minus_all_of_them),
                )
            )
    if rule.in_hand_per_player:
        said.append(
            _(
                "Each player caught holding red threes when the hand ends costs the side "
                "%(points)s, however many they hold.",
                points=number(rule.in_hand_per_player),
            )
        )
    elif rule.in_hand_each:
        said.append(
            _(
                "Each red three still in a hand when the hand ends costs %(points)s.",
                points=number(rule.in_hand_each),
            )
        )
    else:
        said.append(_("Red threes are laid down at once, so none is ever left in a hand."))
    return said


def page(system: rules.RuleSystem) -> list[Section]:
    """Every section of a system's rules page."""
    heads = titles()
    sections = {topic: Section(topic, heads[topic]) for topic in TOPICS}
    for topic, section in sections.items():
        section.source = str(system.cite(topic))
    for topic, words in system.readings:
        sections[topic].readings.append(say(words))

    players_at = {s * p for s, p in system.tables}
    decks = sorted({system.deck(n) for n in players_at}, key=lambda deck: deck.decks)
    table = sections["table"]
    table.paragraphs.append(
        _("Tables: %(tables)s.", tables=", ".join(table_text(s, p) for s, p in system.tables))
    )
    for deck in decks:
        table.paragraphs.append(
            _(
                "%(decks)s decks with %(jokers)s jokers: %(cards)s cards, %(wild)s of them wild "
                "(jokers and twos).",
                decks=deck.decks,
                jokers=deck.jokers,
                cards=number(deck.cards),
                wild=deck.wild_cards,
            )
        )
    if system.decks_for_six_players:
        table.paragraphs.append(
            _("Six players use %(decks)s decks.", decks=system.decks_for_six_players)
        )
    card_names = {
        rules.Card.JOKER: _("Joker"),
        rules.Card.TWO: _("Two"),
        rules.Card.ACE: _("Ace"),
        rules.Card.EIGHT_TO_KING: _("King down to 8"),
        rules.Card.FOUR_TO_SEVEN: _("7 down to 4"),
        rules.Card.BLACK_THREE: _("Black three"),
    }
    table.table = [(card_names[c], number(p)) for c, p in rules.CARD_POINTS.items()]

    melds = sections["melds"]
    melds.paragraphs.append(
        _(
            "A meld is three or more cards of one rank, or three or more cards of one suit in "
            "sequence, from 4 up to the ace. Partners share their melds. Jokers and twos are "
            "wild: they stand in for other cards in a canasta, at most two of them; a sequence "
            "takes none."
        )
    )
    if system.has(rules.SetKind.BLACK_SAMBA):
        melds.paragraphs.append(
            _("Here a sequence may take one wild card: completed, it is a black samba.")
        )
    if system.has(rules.SetKind.WILD_CANASTA):
        melds.paragraphs.append(
            _(
                "Here wild cards may also form a canasta of their own, and red threes a canasta "
                "of red threes."
            )
        )

    sets = sections["sets"]
    sets.paragraphs.append(
        _(
            "A set is a finished meld of seven cards: a canasta (one rank) or a samba (seven "
            "in sequence in one suit). Unfinished melds score only their cards."
        )
    )
    sets.table = [
        (say(kind.label).capitalize(), number(bonus)) for kind, bonus in system.set_bonuses.items()
    ]
    if system.all_sambas_bonus:
        sets.paragraphs.append(
            _(
                "A side that completes all %(count)s sambas it may have, exactly one of them a "
                "super samba, scores %(points)s more.",
                count=(system.samba_limit or (4, 1))[0],
                points=number(system.all_sambas_bonus),
            )
        )

    first = sections["first-meld"]
    first.paragraphs.append(
        _(
            "Each hand, a side's first meld must be worth at least the minimum below, by the "
            "side's total at the start of the hand. Only card values count, never bonuses."
        )
        if not system.opening_minimums_by_hand
        else _("The first meld of each hand must be worth at least the minimum for that hand.")
    )
    first.table = _minimums(system)
    if system.concealed_exempt:
        first.paragraphs.append(
            _(
                "A side that goes out by laying its whole hand down at once (going out "
                "concealed) needs no minimum."
            )
        )

    going = sections["going-out"]
    going.paragraphs += [
        _("A side may go out once it has %(needed)s.", needed=say(system.going_out_requirement())),
        _(
            "Going out earns %(points)s. When the stock runs out, nobody goes out and nobody "
            "earns it.",
            points=number(system.going_out_bonus),
        ),
        _(
            "In a game of single players the one who goes out holds no cards; partners of the "
            "player who went out may still hold cards, and those count against the side."
        ),
    ]
    sections["red-threes"].paragraphs += _red_threes(system, decks[0].red_threes)

    penalties = sections["penalties"]
    penalties.table = [
        (say(p.label).capitalize(), number(points)) for p, points in system.penalties.items()
    ]
    if not system.penalties:
        penalties.paragraphs.append(
            _("Besides red threes left in hand, this system charges no penalties.")
        )
    else:
        penalties.paragraphs.append(_("Each is charged to the side at fault, every time."))

    sections["scoring"].paragraphs += [
        _(
            "A side's hand score: the card points it melded, minus the card points left in its "
            "hands, plus its set bonuses, its red threes and going out, minus penalties."
        ),
        _("The running total adds up the hand scores and can be negative."),
    ]
    end = sections["end-of-game"]
    if system.hands_in_game:
        end.paragraphs.append(
            _(
                "A game is %(count)s hands; the highest total then wins, and equal totals are a "
                "tie.",
                count=system.hands_in_game,
            )
        )
    else:
        end.paragraphs.append(
            _(
                "The game ends when a side reaches %(target)s after a hand; the highest total "
                "wins.",
                target=number(system.target or 0),
            )
        )
    return list(sections.values())


def differences(system: rules.RuleSystem) -> list[tuple[str, str, str]]:
    """What a house rule changes: (what, in the system, in the house rule)."""
    base = rules.get_system(system.id, system.options_on)
    found = []
    for change in rules.house_differences(system, base):
        kind = change.entry.kind
        if kind is rules.HouseRuleKind.MINIMUMS:
            was, now = (
                "; ".join(f"{total}: {points}" for total, points in _minimums(s))
                for s in (base, system)
            )
        elif kind is rules.HouseRuleKind.COUNT:
            was, now = str(change.was or 0), str(change.now or 0)
        elif kind is rules.HouseRuleKind.CHOICE:
            was, now = (say(change.entry.choices[value]) for value in (change.was, change.now))
        else:
            was, now = number(change.was or 0), number(change.now or 0)
        label = say(change.label)
        found.append((label.capitalize() if change.part else label, was, now))
    return found


@dataclass
class Fact:
    """One row of the side-by-side comparison: a value per system, the unusual ones marked."""

    label: str
    values: list[tuple[str, bool]]  # (value, differs from most systems)


def comparison(systems: list[rules.RuleSystem]) -> list[Fact]:
    """The five systems side by side, on the points where tables most often disagree."""

    def fact(label: str, read: Callable[[rules.RuleSystem], str]) -> Fact:
        values = [read(s) for s in systems]
        usual = Counter(values).most_common(1)[0][0]
        return Fact(label, [(v, v != usual) for v in values])

    def bonus(kind: rules.SetKind) -> Callable[[rules.RuleSystem], str]:
        return lambda s: number(s.set_bonuses[kind]) if s.has(kind) else "–"

    return [
        fact(_("Tables"), lambda s: ", ".join(f"{a}×{b}" for a, b in s.tables)),
        fact(_("Decks"), lambda s: str(s.decks)),
        fact(_("Samba"), bonus(rules.SetKind.SAMBA)),
        fact(_("Black samba"), bonus(rules.SetKind.BLACK_SAMBA)),
        fact(_("Super samba"), bonus(rules.SetKind.SUPER_SAMBA)),
        fact(_("Going out"), lambda s: number(s.going_out_bonus)),
        fact(_("To go out"), lambda s: say(s.going_out_requirement())),
        fact(_("First meld below 0"), lambda s: number(s.opening_minimum(-5, 1))),
        fact(_("First meld from 7,000"), lambda s: number(s.opening_minimum(7000, 4))),
        fact(
            _("Red threes count plus"),
            lambda s: {
                rules.RedThreesPlus.WITH_TWO_SETS: _("with two sets"),
                rules.RedThreesPlus.ONCE_MELDED: _("once melded"),
                rules.RedThreesPlus.ALWAYS: _("always"),
            }[s.red_threes.plus_when],
        ),
        fact(_("A red three counting minus"), lambda s: number(-s.red_threes.minus_each)),
        fact(
            _("A red three left in hand"),
            lambda s: number(-(s.red_threes.in_hand_each or s.red_threes.in_hand_per_player)),
        ),
        fact(_("Penalties"), lambda s: str(len(s.penalties))),
        fact(
            _("Game ends"),
            lambda s: (
                _("after %(count)s hands", count=s.hands_in_game)
                if s.hands_in_game
                else _("at %(target)s", target=number(s.target or 0))
            ),
        ),
    ]


bp = Blueprint("rulebook", __name__)


@bp.get("/rules")
def index() -> str:
    systems = list(rules.SYSTEMS.values())
    return render_template("rules/index.html", systems=systems, facts=comparison(systems))


@bp.get("/rules/<system_id>")
def system_page(system_id: str) -> str:
    if system_id not in rules.SYSTEMS:
        abort(404)
    return render_rules(rules.SYSTEMS[system_id])


@bp.get("/games/<game_id>/rules")
def game_rules(game_id: str) -> str:
    """The rules a game is played under: its system with its options and house rules."""
    game = db.get_or_404(Game, game_id)
    return render_rules(system_of(game), game)


def render_rules(system: rules.RuleSystem, game: Game | None = None) -> str:
    """A rules page; for a game or a house rule it begins with what differs from the system."""
    return render_template(
        "rules/system.html",
        system=system,
        sections=page(system),
        game=game,
        differences=differences(system),
        options=[say(rules.OPTIONS[o].label) for o in sorted(system.options_on)],
    )


@bp.app_template_filter("cite")
def cite(rule: rules.Rule, game_id: str | None = None) -> Markup:
    """A citation that links to the paragraph of the rules page explaining it."""
    if game_id:
        url = url_for("rulebook.game_rules", game_id=game_id, _anchor=rule.topic)
    else:
        url = url_for("rulebook.system_page", system_id=rule.system, _anchor=rule.topic)
    return Markup('<a href="{}">{}</a>').format(url, str(rule))

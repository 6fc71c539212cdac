"""A side's score for one hand, as lines that each say where their points come from.

hand score = melded card points − card points left in hand + set bonuses + red-three score
           + going-out bonus − red threes left in hand − penalties   (docs/scoring.md)
"""

from __future__ import annotations

from dataclasses import dataclass

from .hands import EndedBy, Entry
from .systems import Deck, RedThreesPlus, RuleSystem, SetKind
from .words import N_, P_, Plural, Rule, Text

HOLDERS = P_(
    "%(count)s player caught holding red threes",
    "%(count)s players caught holding red threes",
)
"""Classic's players caught holding red threes: a line of the score, and what a check names."""


@dataclass(frozen=True)
class Line:
    """One part of a hand score: what it is, its points, and the rule it comes from."""

    label: Text
    points: int
    rule: Rule


def score_entry(system: RuleSystem, entry: Entry, ended_by: EndedBy, deck: Deck) -> list[Line]:
    """Every line of one side's hand score; their sum is the hand score."""
    lines: list[Line] = []

    def add(points: int, topic: str, template: str | Plural, **values: str | int | Text) -> None:
        if points:
            lines.append(Line(Text(template, values), points, system.cite(topic)))

    if melded_points_count(system, entry, ended_by):
        add(entry.melded_points, "scoring", N_("Cards melded"))
    elif entry.melded_points:
        # Said with 0 points, so that the breakdown shows why the cards laid down earn nothing.
        lines.append(
            Line(
                Text(
                    N_("Cards melded (%(points)s): only the side that went out scores them"),
                    {"points": entry.melded_points},
                ),
                0,
                system.cite("scoring"),
            )
        )
    add(-entry.hand_points, "scoring", N_("Cards left in hand"))
    for kind in SetKind:
        count = entry.count(kind)
        bonus = system.set_bonuses.get(kind, 0)
        add(
            count * bonus,
            "sets",
            P_("%(count)s × %(kind)s, %(bonus)s", "%(count)s × %(kind)s, %(bonus)s each"),
            count=count,
            kind=Text(kind.label),
            bonus=bonus,
        )
    if system.all_sambas_bonus and _has_all_sambas(system, entry):
        add(system.all_sambas_bonus, "sets", N_("All four sambas, one of them a super samba"))
    lines.extend(_red_threes(system, entry, deck))
    if entry.went_out and ended_by is EndedBy.GOING_OUT:
        add(system.going_out_bonus, "going-out", N_("Going out"))
    rule = system.red_threes
    if entry.red_threes_in_hand:
        add(
            -entry.red_threes_in_hand * rule.in_hand_each,
            "penalties",
            P_("%(count)s red three left in hand", "%(count)s red threes left in hand"),
            count=entry.red_threes_in_hand,
        )
    # Only a red three left in hand is caught: without one, nobody holds any (the checks say
    # so when players are recorded as caught all the same).
    holders = (entry.players_holding_red_threes or 1) if entry.red_threes_in_hand else 0
    add(
        -holders * rule.in_hand_per_player,
        "penalties",
        HOLDERS,
        count=holders,
    )
    for penalty, count in entry.penalties.items():
        add(
            -count * system.penalties.get(penalty, 0),
            "penalties",
            N_("Penalty: %(what)s × %(count)s"),
            what=Text(penalty.label),
            count=count,
        )
    return lines


def melded_points_count(system: RuleSystem, entry: Entry, ended_by: EndedBy) -> bool:
    """Whether this side's melded card points score: always, unless a house rule gives them to
    the side that went out alone, in a hand that ended by going out."""
    if system.melded_points_for != "side_that_went_out":
        return True
    return entry.went_out or ended_by is EndedBy.STOCK_EXHAUSTED


def _has_all_sambas(system: RuleSystem, entry: Entry) -> bool:
    """Super-samba: every samba a side may have, exactly one of them a super samba."""
    if system.samba_limit is None:
        return False
    sambas, supers = system.samba_limit
    total = entry.count(SetKind.SAMBA) + entry.count(SetKind.SUPER_SAMBA)
    return total == sambas and entry.count(SetKind.SUPER_SAMBA) == supers


def red_threes_count_plus(system: RuleSystem, entry: Entry) -> bool:
    """Whether this side's red threes on the table score plus this hand."""
    when = system.red_threes.plus_when
    if when is RedThreesPlus.ALWAYS:
        return True
    if when is RedThreesPlus.ONCE_MELDED:
        return entry.has_melded()
    return entry.sets_of(system) >= 2


def _red_threes(system: RuleSystem, entry: Entry, deck: Deck) -> list[Line]:
    count = entry.red_threes
    rule = system.red_threes
    # Whether those still in hand count toward all of them is a reading (house rule
    # `all_red_threes`); they are charged as left in hand all the same.
    held = count + (entry.red_threes_in_hand if rule.all_counted == "held" else 0)
    all_of_them = held == deck.red_threes
    if not count and not all_of_them:
        return []
    rule_cite = system.cite("red-threes")
    values: dict[str, str | int | Text] = {"count": count}
    if red_threes_count_plus(system, entry):
        if all_of_them and rule.all_of_them is not None:
            values["count"] = held
            return [Line(Text(N_("All %(count)s red threes"), values), rule.all_of_them, rule_cite)]
        plus = P_("%(count)s red three", "%(count)s red threes")
        return [Line(Text(plus, values), count * rule.each, rule_cite)]
    why = {
        RedThreesPlus.WITH_TWO_SETS: P_(
            "%(count)s red three, minus: fewer than two sets",
            "%(count)s red threes, minus: fewer than two sets",
        ),
        RedThreesPlus.ONCE_MELDED: P_(
            "%(count)s red three, minus: the side has not melded",
            "%(count)s red threes, minus: the side has not melded",
        ),
    }[rule.plus_when]
    if all_of_them and rule.minus_all_of_them is not None:
        values["count"] = held
        return [Line(Text(why, values), -rule.minus_all_of_them, rule_cite)]
    return [Line(Text(why, values), -count * rule.minus_each, rule_cite)]

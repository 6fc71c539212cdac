"""What a season's pages show: its players and pairs ranked by its rule across its nights
(`nights.seasons`), each night read as its own standings read it, and each one's figure night
by night."""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from fractions import Fraction

from flask_babel import gettext as _
from flask_babel import ngettext

from ... import nights
from ...nights.seasons import Night as SeasonNight
from ..services.seasons import SeasonRefused, SeasonRoom, rule_of, season_nights
from ..store.models import Night
from ..store.queries import night_tables
from ..store.seasons import Season, nights_of, pair_players
from .nights import placed


@dataclass(frozen=True)
class NightColumn:
    """One night of the season, as its standings head a column."""

    id: str
    name: str
    finished: bool


@dataclass(frozen=True)
class SeasonRow:
    """One player (or pair) of the season: place (None: under the minimum), names, figure,
    nights played, and each night's figure (None: not played), marked when it counts."""

    place: int | None
    who: tuple[str, ...]
    names: str
    figure: Fraction
    nights: int
    by_night: list[tuple[Fraction | None, bool]]


@dataclass(frozen=True)
class SeasonStandings:
    """A season's standings as its nights stand now."""

    name: str
    rule: nights.Rule
    nights: list[NightColumn]
    players: list[SeasonRow]
    pairs: list[SeasonRow]
    in_play: list[str]
    """The names of the nights still being played (they count as they stand)."""
    problem: str | None = None
    """Why the season cannot be ranked now (a player in two pairs of one night, after a merge
    in the history), in the engine's words; then no one is listed."""


def read_nights(played: list[Night]) -> list[SeasonNight]:
    """Each night as the season reads it: its pairs' players and its standings as played."""
    if not played:
        return []
    players = pair_players([night.id for night in played])
    return [
        SeasonNight(
            night.id,
            players[night.id],
            placed(night, night_tables(night.id), nights.Ranking(night.ranking))[0],
            night.ended_at is not None,
        )
        for night in played
    ]


@dataclass(frozen=True)
class PlayerNight:
    """One night a player played: with whom, their place among the pairs that played it, and
    what they made there."""

    id: str
    name: str
    standings_token: str
    date: str
    partner: str
    partner_key: str
    place: int
    pairs: int
    wins: float
    points: int
    games: int


def player_nights(key: str) -> list[PlayerNight]:
    """The nights a player played, each as its own standings place them (by its ranking)."""
    played = nights_of(key)
    shown = []
    for night, read in zip(played, read_nights(played), strict=True):
        number = next((n for n, keys in read.pairs.items() if key in keys), None)
        there = [s for s in read.standings if nights.seasons.played(s)]
        standing = next((s for s in there if s.pair == number), None)
        if number is None or standing is None:
            continue  # at the night, with no game that counted
        pair = next(p for p in night.pairs if p.number == number)
        first = read.pairs[number][0] == key
        shown.append(
            PlayerNight(
                night.id,
                night.name,
                night.follow_token,
                night.created_at.date().isoformat(),
                pair.second if first else pair.first,
                read.pairs[number][1 if first else 0],
                1 + sum(1 for s in there if s.place < standing.place),
                len(there),
                standing.wins,
                standing.points,
                standing.games,
            )
        )
    return shown


def _names(nights_read: list[SeasonNight], night_list: list[Night]) -> dict[str, str]:
    """Each player key's name, as the latest night spells it."""
    spelled: dict[str, str] = {}
    for read, night in zip(nights_read, night_list, strict=True):
        for pair in night.pairs:
            keys = read.pairs.get(pair.number)
            if keys is not None:
                spelled[keys[0]], spelled[keys[1]] = pair.first, pair.second
    return spelled


def season_standings(season: Season) -> SeasonStandings:
    """The season's players and pairs ranked by its rule, from its nights as they stand."""
    night_list = season_nights(season.id)
    read = read_nights(night_list)
    rule = rule_of(season)
    problem: str | None = None
    try:
        ranked = nights.rank(read, rule)
    except nights.SeasonError as error:
        ranked, problem = nights.Season([], []), str(error)
    spelled = _names(read, night_list)

    def rows(standings: list[nights.SeasonStanding]) -> list[SeasonRow]:
        return [
            SeasonRow(
                standing.place,
                standing.who,
                " & ".join(spelled.get(key, key) for key in standing.who),
                standing.figure,
                standing.nights,
                [
                    (standing.by_night.get(night.id), night.id in standing.counted)
                    for night in night_list
                ],
            )
            for standing in standings
        ]

    return SeasonStandings(
        season.name,
        rule,
        [NightColumn(n.id, n.name, n.ended_at is not None) for n in night_list],
        rows(ranked.players),
        rows(ranked.pairs),
        [n.name for n in night_list if n.id in ranked.in_play],
        problem,
    )


def _figure(value: Fraction) -> str:
    """A season's figure as CSV gives it: whole, or with two decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def results_csv(shown: SeasonStandings, headings: list[str], unranked: str) -> str:
    """The season's players as CSV: place (or `unranked`), player, nights played, the season's
    figure, and each night's figure (empty: not played)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headings + [night.name for night in shown.nights])
    for row in shown.players:
        writer.writerow(
            [
                unranked if row.place is None else row.place,
                row.names,
                row.nights,
                _figure(row.figure),
                *("" if figure is None else _figure(figure) for figure, _ in row.by_night),
            ]
        )
    return out.getvalue()


def refusal_text(refused: SeasonRefused) -> str:
    """What a refused season's write says, next to the field it is about."""
    values = refused.values
    if refused.code == "best-too-many":
        return _(
            "The best %(count)s nights cannot count in a season of %(nights)s nights.", **values
        )
    if refused.code == "minimum-too-many":
        return _("Nobody can play %(count)s nights in a season of %(nights)s nights.", **values)
    if refused.code == "night-in-another-season":
        return _(
            "%(night)s already counts in the season %(season)s: a night counts in one season.",
            **values,
        )
    if refused.code == "season-full":
        return ngettext(
            "%(season)s has its %(num)s night already: give it more nights on its page, or"
            " choose another season.",
            "%(season)s has all its %(num)s nights already: give it more nights on its page, or"
            " choose another season.",
            values["nights"],
            season=values["season"],
        )
    if refused.code == "no-such-season":
        return _("That season is no longer there: choose again.")
    return _("A night chosen is no longer there: choose again.")


def season_choice(room: SeasonRoom) -> str:
    """A season as a night's set-up offers it: its name, and its nights (of how many)."""
    if room.planned is None:
        return ngettext(
            "%(season)s (%(num)s night so far)",
            "%(season)s (%(num)s nights so far)",
            room.nights,
            season=room.name,
        )
    if room.full:
        return ngettext(
            "%(season)s: full, it has its %(num)s night",
            "%(season)s: full, it has all its %(num)s nights",
            room.planned,
            season=room.name,
        )
    return ngettext(
        "%(season)s (%(count)s of %(num)s night)",
        "%(season)s (%(count)s of %(num)s nights)",
        room.planned,
        season=room.name,
        count=room.nights,
    )

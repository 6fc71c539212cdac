"""What a season's pages show: its players and pairs ranked by its rule across its nights
(`nights.seasons`), each night read as its own standings read it, and each one's figure night
by night."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape

from ... import nights
from ...nights.ratings import Rating
from ...nights.seasons import Night as SeasonNight
from ..services import outcomes
from ..services.ratings import pool_of, ratings_among
from ..services.seasons import SeasonRefused, SeasonRoom, rule_of, season_nights
from ..store.models import Night
from ..store.seasons import ALL_SYSTEMS, Season, nights_of, pair_names


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
    rating: Rating | None = None
    """Its rating in the club's pool (a pair's as a pair), None before its first rated game."""


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
    pool: str = "all"
    """The ratings' pool the club's choice reads: "all", or the system of most of its nights."""
    problem: str | None = None
    """Why the season cannot be ranked now (a player in two pairs of one night, after a merge
    in the history), in the engine's words; then no one is listed."""

    @property
    def labels(self) -> list[str]:
        """Each night's label in the page's language, its number in the season (N1, N2…): what
        names it in the line under each name (`night_line`) and the text's list of nights."""
        return [_("N%(number)s", number=number) for number in range(1, len(self.nights) + 1)]


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
    """The nights a player played, each as its own standings place them (by its ranking): from
    what the nights' rows keep of the player's pair, or worked out where they are stale."""
    played = nights_of(key)
    kept = outcomes.kept_of_player(key, played)
    live = outcomes.worked_out([night for night in played if night.id not in kept])
    for read in live:
        number = next((n for n, keys in read.pairs.items() if key in keys), None)
        given = next((o for o in read.outcomes if o.pair == number), None)
        if given is not None:
            night = next(n for n in played if n.id == read.id)
            pair = next(p for p in night.pairs if p.number == number)
            kept[read.id] = (given, read.pairs[given.pair], (pair.first, pair.second))
    shown = []
    for night in played:
        if night.id not in kept or not kept[night.id][0].played:
            continue  # at the night, with no game that counted
        given, keys, names = kept[night.id]
        other = 1 if keys[0] == key else 0
        shown.append(
            PlayerNight(
                night.id,
                night.name,
                night.follow_token,
                night.created_at.date().isoformat(),
                names[other],
                keys[other],
                given.place,
                given.pairs,
                given.wins,
                given.points,
                given.games,
            )
        )
    return shown


def _names(nights_read: list[SeasonNight]) -> dict[str, str]:
    """Each player key's name, as the latest night spells it."""
    spelled: dict[str, str] = {}
    names = pair_names([read.id for read in nights_read])
    for read in nights_read:
        for number, (first, second) in names[read.id].items():
            keys = read.pairs.get(number)
            if keys is not None:
                spelled[keys[0]], spelled[keys[1]] = first, second
    return spelled


def season_pool(night_list: list[Night]) -> str:
    """The ratings' pool of a season: every system's, or (each system apart, as the club may
    choose) the system most of its nights are played in (the first set up of those level)."""
    systems = Counter(night.system_id for night in night_list)
    return pool_of(systems.most_common(1)[0][0]) if systems else ALL_SYSTEMS


def season_standings(season: Season) -> SeasonStandings:
    """The season's players and pairs ranked by its rule, from its nights as they stand, each
    with its rating as kept (the rule by rating ranks by them)."""
    night_list = season_nights(season.id)
    read = outcomes.as_the_season_reads(night_list)
    rule = rule_of(season)
    pool = season_pool(night_list)
    keys = {key for night in read for pair in night.pairs.values() for key in pair}
    rated = ratings_among(keys, pool)
    by_who: dict[tuple[str, ...], Rating] = {
        (a,) if not b else (a, b): rating for (a, b), rating in rated.items()
    }
    problem: str | None = None
    try:
        ranked = nights.rank(read, rule, by_who)
    except nights.SeasonError as error:
        ranked, problem = nights.Season([], []), str(error)
    spelled = _names(read)

    ids = [night.id for night in night_list]

    def row(standing: nights.SeasonStanding) -> SeasonRow:
        counted, figures = set(standing.counted), standing.by_night
        return SeasonRow(
            standing.place,
            standing.who,
            " & ".join(spelled.get(key, key) for key in standing.who),
            standing.figure,
            standing.nights,
            [(figures.get(night), night in counted) for night in ids],
            by_who.get(standing.who),
        )

    def rows(standings: list[nights.SeasonStanding]) -> list[SeasonRow]:
        return [row(standing) for standing in standings]

    return SeasonStandings(
        season.name,
        rule,
        [NightColumn(n.id, n.name, n.ended_at is not None) for n in night_list],
        rows(ranked.players),
        rows(ranked.pairs),
        [n.name for n in night_list if n.id in ranked.in_play],
        problem=problem,
        pool=pool,
    )


def night_cells(
    by_night: list[tuple[Fraction | None, bool]], written: Callable[[Fraction], str]
) -> Markup:
    """A season's row of the standings, its figure of each night as the table's cells: a dash
    for a night not played, struck through for a night not among those that count. Written
    here in one piece, each different cell once: a year's season has 20,000 of them, which as
    a loop of the template took longer than the rest of the page."""
    cells: dict[tuple[int, int, bool], str] = {}
    drawn = []
    for figure, counted in by_night:
        if figure is None:
            drawn.append('<td class="num round">–</td>')
            continue
        key = (figure.numerator, figure.denominator, counted)
        if key not in cells:
            cells[key] = f'<td class="num round">{_shown(written(figure), counted)}</td>'
        drawn.append(cells[key])
    return Markup("".join(drawn))


def night_line(
    by_night: list[tuple[Fraction | None, bool]],
    written: Callable[[Fraction], str],
    labels: list[str],
) -> Markup:
    """The same row's nights as a phone shows them under the name: each night played by its
    label (N1, N2…) and figure, struck through when it does not count; in one piece too, each
    different figure written once."""
    shown: dict[tuple[int, int, bool], Markup] = {}
    drawn = []
    for (figure, counted), label in zip(by_night, labels, strict=True):
        if figure is None:
            continue
        key = (figure.numerator, figure.denominator, counted)
        if key not in shown:
            shown[key] = _shown(written(figure), counted)
        drawn.append(f" · <span>{escape(label)}&nbsp;{shown[key]}</span>")
    return Markup("".join(drawn))


def _shown(text: str, counted: bool) -> Markup:
    """A night's figure, struck through when it is not among the nights that count."""
    return escape(text) if counted else Markup("<s>%s</s>") % text


def _figure(value: Fraction) -> str:
    """A season's figure as CSV gives it: whole, or with two decimals."""
    return str(value.numerator) if value.denominator == 1 else f"{float(value):.2f}"


def _counted(text: str, counted: bool) -> str:
    """A night's figure as the season's CSV and text give it: in brackets when it is not among
    the nights that count (the page strikes it through)."""
    return text if counted else f"[{text}]"


def results_csv(shown: SeasonStandings, headings: list[str], unranked: str) -> str:
    """The season's players as CSV: place (or `unranked`), player, nights played, the season's
    figure, the rating and its ± (empty before the first rated game), and each night's figure
    (empty: not played; in brackets: not among the nights that count)."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(headings + [night.name for night in shown.nights])
    for row in shown.players:
        rating = row.rating
        writer.writerow(
            [
                unranked if row.place is None else row.place,
                row.names,
                row.nights,
                _figure(row.figure),
                "" if rating is None else f"{rating.mu:.1f}",
                "" if rating is None else f"{rating.spread:.1f}",
                *(
                    "" if figure is None else _counted(_figure(figure), counted)
                    for figure, counted in row.by_night
                ),
            ]
        )
    return out.getvalue()


def night_figures(
    by_night: list[tuple[Fraction | None, bool]],
    written: Callable[[Fraction], str],
    labels: list[str],
) -> str:
    """A row's nights as the season's text gives them: each night played by its label and
    figure, in brackets when it does not count (N1 3, N2 [1], N4 2)."""
    return ", ".join(
        f"{label} {_counted(written(figure), counted)}"
        for (figure, counted), label in zip(by_night, labels, strict=True)
        if figure is not None
    )


def refusal_text(refused: SeasonRefused) -> str:
    """What a refused season's write says, next to the field it is about."""
    values = refused.values
    if refused.code == "best-too-many":
        return _(
            "The best %(count)s nights cannot count in a season of %(nights)s nights.", **values
        )
    if refused.code == "best-by-rating":
        return _("A season ranked by rating counts every night: leave the best nights empty.")
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
    if refused.code == "more-than-planned":
        return ngettext(
            "%(count)s nights chosen for a season of %(num)s night: choose fewer, or give it"
            " more nights above.",
            "%(count)s nights chosen for a season of %(num)s nights: choose fewer, or give it"
            " more nights above.",
            values["nights"],
            count=values["count"],
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

"""What a season's pages show: its players and pairs ranked by its rule across its nights
(`nights.seasons`), each night read as its own standings read it, and each one's figure night
by night."""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property

from flask import url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup, escape

from ... import nights
from ...nights.ratings import Rating
from ...nights.seasons import Night as SeasonNight
from ..services import outcomes
from ..services.ratings import Who, pool_of, ratings_among
from ..services.seasons import SeasonRefused, SeasonRoom, rule_of, season_nights
from ..store.models import Night
from ..store.seasons import ALL_SYSTEMS, Season, nights_of
from ..wording import decimal, decimals


@dataclass(frozen=True)
class NightColumn:
    """One night of the season, as its standings head a column."""

    id: str
    name: str
    finished: bool


@dataclass(frozen=True)
class SeasonRow:
    """One player (or pair) of the season: place (None: under the minimum), names, figure,
    nights played, and each night's figure (`by_night`), marked when it counts."""

    place: int | None
    who: tuple[str, ...]
    names: str
    figure: Fraction
    nights: int
    figures: Mapping[str, Fraction]
    """Each night's figure by the night's id, for the nights played."""
    counted: frozenset[str]
    """The nights that count (the best N)."""
    ids: Sequence[str]
    """Every night of the season, in order."""
    rating: Rating | None = None
    """Its rating in the club's pool (a pair's as a pair), None before its first rated game."""

    def between(self, start: int, end: int) -> list[tuple[Fraction | None, bool]]:
        """The figure of each of the season's nights from `start` to before `end` (None: not
        played), and whether it counts."""
        figures, counted = self.figures, self.counted
        return [(figures.get(night), night in counted) for night in self.ids[start:end]]

    @cached_property
    def by_night(self) -> list[tuple[Fraction | None, bool]]:
        """Each night's figure, every night of the season (its page shows ten at a time)."""
        return self.between(0, len(self.ids))


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


def _names(reads: list[outcomes.SeasonRead]) -> dict[str, str]:
    """Each player key's name, as the latest night spells it."""
    spelled: dict[str, str] = {}
    for read in reads:
        for number, (first, second) in read.names.items():
            keys = read.night.pairs.get(number)
            if keys is not None:
                spelled[keys[0]], spelled[keys[1]] = first, second
    return spelled


def season_pool(night_list: list[Night]) -> str:
    """The ratings' pool of a season: every system's, or (each system apart, as the club may
    choose) the system most of its nights are played in (the first set up of those level)."""
    systems = Counter(night.system_id for night in night_list)
    return pool_of(systems.most_common(1)[0][0]) if systems else ALL_SYSTEMS


def _listed(read: list[SeasonNight]) -> list[Who]:
    """Who the standings may list, as ratings are kept: every player, and every pair that was
    together on two nights or more (a pair of one night is not listed)."""
    keys = {key for night in read for pair in night.pairs.values() for key in pair}
    pairs = Counter((a, b) if a <= b else (b, a) for night in read for a, b in night.pairs.values())
    return [(key, "") for key in keys] + [(a, b) for (a, b), n in pairs.items() if n > 1]


def season_standings(season: Season) -> SeasonStandings:
    """The season's players and pairs ranked by its rule, from its nights as they stand, each
    with its rating as kept (the rule by rating ranks by them)."""
    night_list = season_nights(season.id)
    reads = outcomes.season_reads(night_list)
    read = [each.night for each in reads]
    rule = rule_of(season)
    pool = season_pool(night_list)
    rated = ratings_among(_listed(read), pool)
    by_who: dict[tuple[str, ...], Rating] = {
        (a,) if not b else (a, b): rating for (a, b), rating in rated.items()
    }
    problem: str | None = None
    try:
        ranked = nights.rank(read, rule, by_who)
    except nights.SeasonError as error:
        ranked, problem = nights.Season([], []), str(error)
    spelled = _names(reads)

    ids = [night.id for night in night_list]

    def row(standing: nights.SeasonStanding) -> SeasonRow:
        return SeasonRow(
            standing.place,
            standing.who,
            " & ".join(spelled.get(key, key) for key in standing.who),
            standing.figure,
            standing.nights,
            standing.by_night,
            frozenset(standing.counted),
            ids,
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


Written = dict[tuple[int, int, bool], str]
"""Each different night's figure (numerator, denominator, counted) as a page wrote it, once for
all its rows: a year's season has 20,000 figures, a few hundred different."""


def night_cells(
    by_night: list[tuple[Fraction | None, bool]],
    written: Callable[[Fraction], str],
    cells: Written,
) -> Markup:
    """A season's row of the standings, its figure of each night as the table's cells: a dash
    for a night not played, struck through for a night not among those that count. Written
    here in one piece, each different cell once a page (`cells`): a year's season has 20,000
    of them, which as a loop of the template took longer than the rest of the page."""
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
    labels: list[Markup],
    shown: Written,
) -> Markup:
    """The same row's nights as a phone shows them under the name: each night played by its
    label (N1, N2…, escaped once for every row) and figure, struck through when it does not
    count; in one piece too, each different figure written once a page (`shown`)."""
    drawn = []
    for (figure, counted), label in zip(by_night, labels, strict=True):
        if figure is None:
            continue
        key = (figure.numerator, figure.denominator, counted)
        if key not in shown:
            shown[key] = _shown(written(figure), counted)
        drawn.append(f" · <span>{label}&nbsp;{shown[key]}</span>")
    return Markup("".join(drawn))


def _shown(text: str, counted: bool) -> Markup:
    """A night's figure, struck through when it is not among the nights that count."""
    return escape(text) if counted else Markup("<s>%s</s>") % text


NIGHTS_SHOWN = 10
"""The nights whose figures a season's page shows at once: the latest, or ten from a night
asked for (`?from=`), each stretch a link away; the CSV has them all. A year's season
of 50 nights and 414 rows showed each of its 20,000 figures twice, a page of 1 MB."""


@dataclass(frozen=True)
class Stretch:
    """Nights a season's page shows together, as it links to them: from the night `first` (from
    1; None: the latest), named by their labels (N1–N10), `current` when shown."""

    first: int | None
    label: str
    current: bool


@dataclass(frozen=True)
class StandingsPage:
    """A season's standings as its page shows them: every player and pair, each with the
    figures of the nights `shown` (by their labels: N1, N2…), and the stretches of
    `NIGHTS_SHOWN` nights it links to (none when it shows them all)."""

    standings: SeasonStandings
    shown: list[tuple[str, NightColumn]]
    stretches: list[Stretch]
    players: list[Markup]
    """Each player's row of the table, written (`_row`)."""
    pairs: list[Markup]


def standings_page(standings: SeasonStandings, first: int | None) -> StandingsPage:
    """The season's page, showing the figures of the `NIGHTS_SHOWN` nights from night `first`
    (from 1), or the latest ones: also for a `first` too near the end for as many (or past it,
    as after a night was taken out of the season). Each row written here in one piece."""
    count = len(standings.nights)
    last_start = max(count - NIGHTS_SHOWN, 0)
    start = last_start if first is None or first > last_start else first - 1
    end = min(start + NIGHTS_SHOWN, count)

    every = standings.labels

    def stretch(begin: int, first: int | None) -> Stretch:
        last = min(begin + NIGHTS_SHOWN, count) - 1
        return Stretch(first, f"{every[begin]}–{every[last]}", begin == start)

    stretches = [stretch(begin, begin + 1) for begin in range(0, last_start, NIGHTS_SHOWN)]
    labels = every[start:end]
    escaped = [escape(label) for label in labels]
    written, said = decimals(), {}
    cells, line = Written(), Written()  # each different figure written once for all rows
    unplaced, rating, spread = _("not ranked"), _("Rating"), _("%(middle)s ± %(spread)s")
    words = (str(escape(unplaced)), str(escape(rating)), str(escape(spread)))  # once for all

    def shown(kind: str, row: SeasonRow) -> Markup:
        if row.nights not in said:
            said[row.nights] = ngettext("%(num)s night", "%(num)s nights", row.nights)
        link = url_for("history.player", key=row.who[0]) if kind == "player" else None
        theirs = row.between(start, end)
        figures = night_line(theirs, written, escaped, line), night_cells(theirs, written, cells)
        return _row(kind, row, written(row.figure), said[row.nights], link, figures, words)

    return StandingsPage(
        standings,
        list(zip(labels, standings.nights[start:end], strict=True)),
        [*stretches, stretch(last_start, None)] if count > NIGHTS_SHOWN else [],
        [shown("player", row) for row in standings.players],
        [shown("pair", row) for row in standings.pairs],
    )


def _row(
    kind: str,
    row: SeasonRow,
    figure: str,
    nights_said: str,
    link: str | None,
    figures: tuple[Markup, Markup],
    words: tuple[str, str, str],
) -> Markup:
    """A row of the season's table: its place (or `not ranked`), its name (linked to `link`),
    under it the nights played, each night's figure (`figures`: the line, then the cells) and
    its rating, then the nights, the season's figure and the rating as columns. Written here
    in one piece: a year's season has hundreds of rows, each a dozen values in the template."""
    not_ranked, rating_word, rating_said = words  # escaped
    line, cells = figures
    place = row.place or ""
    name: str = escape(row.names)
    if link is not None:
        name = f'<a href="{escape(link)}">{name}</a>'
    rated = data = under = ""
    if row.rating is not None:
        middle, spread = decimal(row.rating.mu, 1), decimal(row.rating.spread, 1)
        rated = rating_said % {"middle": middle, "spread": spread}  # digits: nothing to escape
        data = f' data-mu="{row.rating.mu}" data-sigma="{row.rating.sigma}"'
        under = f" · <span>{rating_word}&nbsp;{rated}</span>"
    figure, unplaced = escape(figure), f'<span class="hint">{not_ranked}</span>'
    return Markup(
        f'<tr data-{kind}="{escape("|".join(row.who))}" data-place="{place}"'
        f' data-figure="{figure}" data-nights="{row.nights}">\n'
        f'    <td class="place">{place or unplaced}</td>\n'
        f'    <th scope="row"><span class="pair-name"><span class="place-inline"'
        f' aria-hidden="true">{f"{place}." if place else f"({not_ranked})"} </span>{name}</span>\n'
        f'      <small class="by-round"><span>{escape(nights_said)}</span>{line}{under}</small>'
        f"</th>\n"
        f'    <td class="num nights">{row.nights}</td>\n'
        f'    <td class="num sum">{figure}</td>\n'
        f'    <td class="num rating"{data}>{rated or "–"}</td>\n'
        f"    {cells}\n"
        f"  </tr>\n"
    )


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

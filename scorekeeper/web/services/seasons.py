"""A club's seasons: set one up, change its rule or its nights, delete it (its nights stay).

A night counts in at most one season (`Night.season_id`): a write that would put a night in a
second season is refused, and the nights it names are locked first, so two directors adding the
same night at once cannot both win.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select, update

from ... import nights
from ..extensions import db
from ..store.database import writing
from ..store.models import Night, new_revision
from ..store.seasons import Season
from .errors import NotFound


class SeasonRefused(ValueError):
    """A season's write that cannot be done; nothing was changed. `code` says why (the pages
    word it), `field` what it is about, `values` what the words need."""

    def __init__(self, code: str, field: str, **values: Any) -> None:
        super().__init__(code)
        self.code, self.field, self.values = code, field, values


@dataclass(frozen=True)
class SeasonPlan:
    """What the director sets a season up with: its name, its rule, its nights (ids) and the
    nights it is to have (None: as many as it has)."""

    name: str
    rule: nights.Rule
    nights: tuple[str, ...]
    planned: int | None = None


def season_of(season_id: str, lock: bool = False) -> Season:
    """A season; NotFound if there is none."""
    query = select(Season).where(Season.id == season_id)
    if lock:
        query = query.with_for_update().execution_options(populate_existing=True)
    season = db.session.scalar(query)
    if season is None:
        raise NotFound(f"no season {season_id!r}")
    return season


def season_by_link(token: str) -> Season | None:
    """The season whose standings' link this is, if any."""
    return db.session.scalar(select(Season).where(Season.follow_token == token))


def seasons_listed() -> list[Season]:
    """Every season, newest first."""
    return list(db.session.scalars(select(Season).order_by(Season.created_at.desc(), Season.id)))


def season_names() -> dict[str, str]:
    """Every season's name, by id."""
    return {row.id: row.name for row in db.session.execute(select(Season.id, Season.name))}


@dataclass(frozen=True)
class SeasonRoom:
    """A season as a night's set-up offers it: its nights now and those it is to have."""

    id: str
    name: str
    nights: int
    planned: int | None

    @property
    def full(self) -> bool:
        """Whether it has all the nights it is to have: a night more is refused."""
        return self.planned is not None and self.nights >= self.planned


def seasons_with_room() -> list[SeasonRoom]:
    """Every season, newest first, with its nights (not deleted) counted, in one statement."""
    counted = (
        select(func.count(Night.id))
        .where(Night.season_id == Season.id, Night.deleted_at.is_(None))
        .scalar_subquery()
    )
    query = select(Season.id, Season.name, counted, Season.planned).order_by(
        Season.created_at.desc(), Season.id
    )
    return [SeasonRoom(*row) for row in db.session.execute(query)]


def season_nights(season_id: str) -> list[Night]:
    """A season's nights (not deleted), in the order they were set up."""
    query = (
        select(Night)
        .where(Night.season_id == season_id, Night.deleted_at.is_(None))
        .order_by(Night.created_at, Night.id)
    )
    return list(db.session.scalars(query))


def _check_rule(plan: SeasonPlan) -> None:
    """The rule must fit the season's nights, those it is to have or, more, those it has:
    refused with the field it is about. A season with neither (set up before its first night,
    its nights to be added as they are played) takes any rule: it is checked once it has. And
    it has no more nights than it is to have (as a night's set-up refuses a full season)."""
    if plan.planned is not None and len(plan.nights) > plan.planned:
        raise SeasonRefused(
            "more-than-planned", "nights", count=len(plan.nights), nights=plan.planned
        )
    rule, count = plan.rule, max(plan.planned or 0, len(plan.nights))
    if rule.measure is nights.Measure.RATING and rule.best is not None:
        raise SeasonRefused("best-by-rating", "best")
    if not count:
        return
    try:
        rule.check(count)
    except nights.SeasonError as error:
        field = error.where
        value = rule.best if field == "best" else rule.minimum
        raise SeasonRefused(f"{field}-too-many", field, count=value, nights=count) from None


def _place_nights(season: Season, night_ids: Sequence[str]) -> None:
    """Put exactly `night_ids` in the season, each locked and checked first: a night that is
    not there, or counts in another season, refuses the whole write."""
    wanted = set(night_ids)
    locked = db.session.scalars(
        select(Night)
        .where((Night.id.in_(wanted)) | (Night.season_id == season.id))
        .with_for_update()
        .execution_options(populate_existing=True)
    ).all()
    found = {night.id: night for night in locked if night.deleted_at is None}
    for night_id in night_ids:
        night = found.get(night_id)
        if night is None:
            raise SeasonRefused("no-such-night", "nights", night=night_id)
        if night.season_id not in (None, season.id):
            other = db.session.get(Season, night.season_id)
            raise SeasonRefused(
                "night-in-another-season",
                "nights",
                night=night.name,
                season=other.name if other else "",
            )
    for night in locked:
        night.season_id = season.id if night.id in wanted else None


def set_up_season(plan: SeasonPlan, token: str) -> str:
    """A new season with its rule and nights; the same form sent twice sets up one."""
    with writing():
        already = db.session.scalar(select(Season.id).where(Season.token == token))
        if already is not None:
            return already
        _check_rule(plan)
        season = Season(
            name=plan.name,
            measure=plan.rule.measure.value,
            best=plan.rule.best,
            minimum=plan.rule.minimum,
            planned=plan.planned,
            token=token,
        )
        db.session.add(season)
        db.session.flush()
        _place_nights(season, plan.nights)
        return season.id


def change_season(season_id: str, plan: SeasonPlan) -> None:
    """A season's name, rule and nights as the director now has them."""
    with writing():
        season = season_of(season_id, lock=True)
        _check_rule(plan)
        season.name, season.planned = plan.name, plan.planned
        season.measure = plan.rule.measure.value
        season.best, season.minimum = plan.rule.best, plan.rule.minimum
        _place_nights(season, plan.nights)
        season.revision = new_revision()


def add_night(season_id: str, night_id: str) -> None:
    """One night more in a season (a night set up for it, or added afterwards)."""
    with writing():
        night_added(season_id, night_id)


def night_added(season_id: str, night_id: str) -> None:
    """Inside a write: one night more in a season, which is locked first. Refused
    (`SeasonRefused`, about the field `season`) when the season is not there or already has
    all the nights it is to have; a night that counts in another season is refused too."""
    try:
        season = season_of(season_id, lock=True)
    except NotFound:
        raise SeasonRefused("no-such-season", "season") from None
    ids = [night.id for night in season_nights(season_id)]
    if night_id in ids:
        return
    if season.planned is not None and len(ids) >= season.planned:
        raise SeasonRefused("season-full", "season", season=season.name, nights=season.planned)
    _place_nights(season, [*ids, night_id])
    season.revision = new_revision()


def delete_season(season_id: str) -> bool:
    """Delete a season; its nights stay, in no season. False if there is no such season."""
    with writing():
        try:
            season = season_of(season_id, lock=True)
        except NotFound:
            return False
        db.session.execute(
            update(Night)
            .where(Night.season_id == season_id)
            .values(season_id=None)
            .execution_options(synchronize_session=False)
        )
        db.session.delete(season)
    return True


def rule_of(season: Season) -> nights.Rule:
    """A season's rule as the engine reads it."""
    return nights.Rule(nights.Measure(season.measure), season.best, season.minimum)

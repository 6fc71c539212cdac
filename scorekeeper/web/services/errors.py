"""What the services refuse with: the web layer answers each (a 404, a 409, a refused form)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ... import rules


class NotFound(LookupError):
    """No such game, hand or house rule: the web layer answers it as a 404."""


class HandRefused(Exception):
    """A hand that breaks the rules; it was not recorded."""

    def __init__(self, violations: Sequence[rules.Violation]) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = list(violations)


@dataclass(frozen=True)
class StoredHand:
    """A recorded hand as a write found it: plain values, still right after its transaction."""

    id: int
    position: int
    number: int | None
    """Its number on the scoreboard; None once deleted."""
    version: int
    hand: rules.Hand

    @property
    def deleted(self) -> bool:
        return self.number is None


class HandChanged(Exception):
    """The hand was corrected or deleted by someone else since the form was opened."""

    def __init__(self, current: StoredHand) -> None:
        super().__init__(f"hand {current.id} is now at version {current.version}")
        self.current = current


class HandTaken(Exception):
    """Someone else recorded the hand this form was opened for; nothing was recorded."""

    def __init__(self, recorded: Sequence[StoredHand]) -> None:
        super().__init__(", ".join(f"hand {h.position}" for h in recorded) or "a hand")
        self.recorded = list(recorded)


class HandSaved(Exception):
    """This form's hand was saved already, and what was sent now differs from it."""

    def __init__(self, saved: StoredHand) -> None:
        super().__init__(f"hand {saved.position} was saved from this form")
        self.saved = saved


class GameRefused(Exception):
    """A game file or set-up that breaks the rules; nothing was stored."""

    def __init__(self, violations: Sequence[rules.Violation]) -> None:
        super().__init__(", ".join(v.code for v in violations))
        self.violations = list(violations)


class PartOfANight(Exception):
    """A game of a club night's round, asked to be deleted on its own: the night's standings
    count it, and its director keeps that record (the night is deleted whole); nothing changed."""

    def __init__(self, night: str) -> None:
        super().__init__(night)
        self.night = night


class PlayerRefused(ValueError):
    """A rename or merge that cannot be done; nothing was changed."""


class ImportRefused(ValueError):
    """A game file not imported: the HTTP status, why in lines, and the rules it breaks."""

    def __init__(
        self,
        status: int,
        problems: list[str],
        violations: Sequence[rules.Violation] = (),
        not_json: bool = False,
    ) -> None:
        super().__init__(" ".join(problems))
        self.status, self.problems, self.violations = status, problems, violations
        self.not_json = not_json


class MergeNotUndone(PlayerRefused):
    """A merge that cannot be undone: undone already, or its rows have changed since (renamed,
    or merged again); nothing was changed."""

    def __init__(self, message: str, into: str, already: bool = False) -> None:
        super().__init__(message)
        self.into, self.already = into, already

"""The hand form's rows: one per field the system asks of a side, their labels, and the rare
ones folded into groups (`rows_for`); and a row's field in the form (`field_of`)."""

from __future__ import annotations

from dataclasses import dataclass

from wtforms import Field

from ... import rules
from ...rules.fields import FieldRef, asked_as
from ..forms.hand import Control, HandFields, controls
from ..wording import label_of, say


@dataclass(frozen=True)
class Row:
    """One line of the hand form: a control shown for every side side by side, its label, and
    the group it is shown in."""

    control: Control
    label: str
    group: str = "main"  # "main", or folded away as rare: "more-sets" or "penalties"

    @property
    def field(self) -> str:
        return self.control.field

    @property
    def kind(self) -> str:
        return self.control.kind

    @property
    def counter(self) -> str | None:
        return self.control.counter


COMMON_SETS = frozenset(
    {rules.SetKind.NATURAL_CANASTA, rules.SetKind.MIXED_CANASTA, rules.SetKind.SAMBA}
)
"""The sets of most hands; a system's others fold under "More sets", but for those its book asks
for and the one it is named after (black-samba's black samba)."""


PENALTY_FIELDS = frozenset({"red_threes_in_hand", "players_holding_red_threes", "penalties"})
"""What a side pays for, rare at the table: folded under "Penalties"."""


def row_label(ref: FieldRef, system: rules.RuleSystem) -> str:
    """A row's label, with what one of it costs where the field says so (−750 each)."""
    cost = ref.entry_field.cost(system) if ref.key is None else None
    label = label_of(ref)
    return label if cost is None else f"{label} ({say(cost)})"


def _group(ref: FieldRef, system: rules.RuleSystem) -> str:
    if ref.field in PENALTY_FIELDS:
        return "penalties"
    booked = {kind for kinds, _count in system.book for kind in kinds}
    named_after = ref.key is not None and ref.key.value == system.id.replace("-", "_")
    if (
        isinstance(ref.key, rules.SetKind)
        and ref.key not in COMMON_SETS | booked
        and not named_after
    ):
        return "more-sets"
    return "main"


def rows_for(system: rules.RuleSystem, players: int | None = None) -> list[Row]:
    """The form's lines for a system (its fields, sets and penalties), check boxes last;
    `players` (the most on a side) leaves out what means nothing at that table."""
    rows = [
        Row(control, row_label(control.ref, system), _group(control.ref, system))
        for control in controls(system, players)
    ]
    return sorted(rows, key=lambda row: row.kind == "check")


def field_of(
    form: HandFields, system: rules.RuleSystem, side: int | None, ref: FieldRef | None
) -> Field | None:
    """The control where the form asks a side's field (how the hand ended, for going out; the
    one question the form asks for it, for a field asked as another); None if it asks none."""
    if side is None or ref is None:
        return None
    asked = asked_as(system, ref)
    if asked.field == "went_out":
        return form.ending
    field: Field | None = form.sides[side].form._fields.get(asked.name)
    return field

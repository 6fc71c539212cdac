"""docs/game-file.md describes the whole format: every entry field and every house-rule key is
there, in a table of its own (the check codes are docs/violations.md's: test_docs.py)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper.rules.fields import ENTRY_FIELDS
from scorekeeper.rules.house import HOUSE_RULES, RED_THREE_PARTS
from scorekeeper.rules.systems import Penalty, SetKind

DOC = Path(__file__).resolve().parents[2] / "docs" / "game-file.md"


def table_rows(heading: str) -> set[str]:
    """The first cell of each row of the table under a heading, without its backquotes."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]
    return set(re.findall(r"^\| `([^`]+)` \|", section, re.M))


def test_every_entry_field_is_described() -> None:
    assert {field.name for field in ENTRY_FIELDS} == table_rows(
        "An entry: what one side did in a hand"
    )


def test_every_house_rule_key_is_described() -> None:
    assert {entry.key for entry in HOUSE_RULES} == table_rows("House rules")


@pytest.mark.parametrize(
    "name",
    [
        *(kind.value for kind in SetKind),
        *(penalty.value for penalty in Penalty),
        *RED_THREE_PARTS,
        "first_dealer",
        "player_names",
        "start_score",
        "ended_by",
        "stock_exhausted",
        "next_min_opening_meld",
    ],
)
def test_every_name_a_file_may_hold_is_written_down(name: str) -> None:
    assert f"`{name}`" in DOC.read_text(encoding="utf-8")

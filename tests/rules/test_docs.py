"""What the code cites is in the repository: docs/violations.md describes every code the checks
report, docs/readings.md every reading, docs/scoring.md the numbers a hand is scored with, and
nothing in the package or the tests points at a document that is not here."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from scorekeeper.rules import CARD_POINTS, SYSTEMS, SetKind, read_house_rules
from scorekeeper.rules.checks import CHECKS, ENTRY_CHECKS, HAND_CHECKS, TABLE_CHECKS
from scorekeeper.rules.readings import READINGS

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"

ABSENT = ("RULES" + ".md", "STYLE" + ".md")
"""Digests that live beside the project, not in it (spelt in pieces, so that this file passes)."""


def section(doc: str, heading: str) -> str:
    """The text under a `## ` heading of a document in docs/, up to the next one."""
    text = (DOCS / doc).read_text(encoding="utf-8")
    return text.split(f"\n## {heading}\n", 1)[1].split("\n## ", 1)[0]


def table(text: str) -> tuple[list[str], list[list[str]]]:
    """The header and the rows of the first table in a text, each row as its cells."""
    lines = [line for line in text.splitlines() if line.startswith("| ")]
    header, *rows = [[cell.strip() for cell in line.strip(" |").split(" | ")] for line in lines]
    return header, rows


def plain(cell: str) -> str:
    """A cell without the backquotes around it."""
    return cell.strip("`")


def test_a_table_is_read_row_by_row() -> None:
    text = "words\n\n| a | b |\n|---|---|\n| `x` | 1 |\n| y | 2 |\n\nmore"
    assert table(text) == (["a", "b"], [["`x`", "1"], ["y", "2"]])


CODES = table(section("violations.md", "The codes"))[1]
LOOKS_AT = {
    **{check.code: "the table" for check in TABLE_CHECKS},
    **{check.code: "a side's entry" for check in ENTRY_CHECKS},
    **{check.code: "the hand" for check in HAND_CHECKS},
}


def test_every_violation_code_is_described_in_the_order_the_checks_run() -> None:
    assert [plain(row[0]) for row in CODES] == list(CHECKS)


@pytest.mark.parametrize("row", CODES, ids=[plain(row[0]) for row in CODES])
def test_each_code_says_what_its_check_looks_at_and_which_topic_it_cites(row: list[str]) -> None:
    code, looks_at, cites, meaning = row
    assert looks_at == LOOKS_AT[plain(code)]
    assert re.findall(r"`([^`]+)`", cites)[0] == CHECKS[plain(code)].topic
    assert meaning


def test_the_topics_are_each_systems_sections() -> None:
    header, rows = table(section("violations.md", "Where each topic is in each system's text"))
    assert [plain(cell) for cell in header[1:]] == list(SYSTEMS)
    described = {plain(row[0]): row[1:] for row in rows}
    assert described == {
        topic: [system.sections[topic] for system in SYSTEMS.values()]
        for topic in SYSTEMS["classic"].sections
    }


def test_the_least_a_set_holds_is_what_the_checks_count() -> None:
    _, rows = table(section("violations.md", "The least a set holds"))
    assert {plain(kind): (int(points), int(naturals)) for kind, points, naturals in rows} == {
        kind.value: (kind.least_card_points, kind.least_natural_cards) for kind in SetKind
    }


def described_readings(system_id: str) -> set[tuple[str, str, str]]:
    """The readings docs/readings.md gives a system: topic, house-rule key, its value as JSON."""
    _, rows = table(section("readings.md", f"`{system_id}`"))
    found = set()
    for row in rows:
        key, value = plain(row[1]).split(": ", 1)
        found.add((plain(row[0]), key, value))
    return found


@pytest.mark.parametrize("system_id", list(SYSTEMS))
def test_every_reading_is_described_under_its_system_with_its_house_rule(system_id: str) -> None:
    taken = {
        (reading.topic, reading.key, json.dumps(reading.other, ensure_ascii=False))
        for reading in READINGS
        if reading.system == system_id
    }
    assert described_readings(system_id) == taken


@pytest.mark.parametrize("reading", READINGS, ids=lambda r: f"{r.system}-{r.topic}-{r.key}")
def test_the_house_rule_of_each_reading_is_one_its_system_takes(reading) -> None:
    house, problems = read_house_rules({reading.key: reading.other}, SYSTEMS[reading.system])
    assert problems == []
    assert getattr(house, reading.key) not in (None, {})


def test_the_card_values_are_the_engines() -> None:
    _, rows = table(section("scoring.md", "What the cards are worth"))
    assert {plain(card): int(points) for card, points in rows} == {
        card.value: points for card, points in CARD_POINTS.items()
    }


KINDS = {kind.value for kind in SetKind}


def test_the_bonuses_are_each_systems() -> None:
    header, rows = table(section("scoring.md", "The bonuses, system by system"))
    assert [plain(cell) for cell in header[1:]] == list(SYSTEMS)
    for row in rows:
        name, values = plain(row[0]), row[1:]
        for system, value in zip(SYSTEMS.values(), values, strict=True):
            if name in KINDS:
                expected = system.set_bonuses.get(SetKind(name))
            else:
                expected = getattr(system, name)
            assert (None if value == "–" else int(value)) == expected, (name, system.id)
    assert {plain(row[0]) for row in rows} >= KINDS


def files(top: Path) -> Iterator[Path]:
    """Every file under `top`, but those in hidden folders (.venv) and Python's caches."""
    for path in sorted(top.rglob("*")):
        parts = path.relative_to(top).parts
        if path.is_file() and not any(p.startswith(".") or p == "__pycache__" for p in parts):
            yield path


def mentions(top: Path, names: tuple[str, ...]) -> list[str]:
    """Where under `top` a file holds one of the names, as `path: name`."""
    return [
        f"{path.relative_to(top)}: {name}"
        for path in files(top)
        for name in names
        if name.encode() in path.read_bytes()
    ]


def test_the_scan_finds_a_name_and_leaves_out_the_virtual_environment(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "a.py").write_text(f'"""See {ABSENT[0]}."""\n')
    (tmp_path / ".venv").mkdir()
    (tmp_path / ".venv" / "b.py").write_text(ABSENT[1])
    assert mentions(tmp_path, ABSENT) == [f"pkg/a.py: {ABSENT[0]}"]


@pytest.mark.parametrize("top", ["scorekeeper", "tests"])
def test_nothing_cites_a_digest_kept_outside_the_repository(top: str) -> None:
    assert mentions(ROOT / top, ABSENT) == []


@pytest.mark.parametrize("top", ["scorekeeper", "tests"])
def test_every_document_cited_is_in_the_repository(top: str) -> None:
    cited = {
        name
        for path in files(ROOT / top)
        if path.suffix in (".py", ".html", ".txt", ".md")
        for name in re.findall(r"docs/[\w.-]+\.md", path.read_text(encoding="utf-8"))
    }
    assert cited
    assert {name for name in cited if not (ROOT / name).is_file()} == set()

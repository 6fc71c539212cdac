"""The web layer's rooms (docs/architecture.md): each room imports only the rooms the table in
docs/architecture.md says it may, no page imports another page, nothing but the app factory
imports a page, and no module of the package is in an import circle, even one for types only.
Each rule is checked on the source, so a new module is held to it the day it is written."""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from types import MappingProxyType

import pytest

pytestmark = pytest.mark.once
"""Checks of the source alone: no app, no database; run once."""

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "scorekeeper"
TEMPLATES = ROOT / "templates"
ARCHITECTURE = ROOT / "docs" / "architecture.md"
PAGES = "scorekeeper.web.pages"
FACTORY = "scorekeeper.web"
LONGEST = 500
"""Lines a module of the web layer may have: past it, it is split along its jobs (issue 33)."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path, known: set[str]) -> Iterator[str]:
    """Every module of `known` that `path` imports (see `imports_of`)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_of(path.read_text(encoding="utf-8"), package, known)


def imports_of(source: str, package: str, known: set[str]) -> Iterator[str]:
    """Every module a module of `package` imports, wherever the import stands (a function,
    `TYPE_CHECKING`): `from . import x` names the module x when there is one (`known`), else
    the package, whose name x is."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                module = f"{source}.{alias.name}"
                yield module if module in known else source


@functools.cache
def modules() -> Mapping[str, frozenset[str]]:
    """Each module of the package and the package's modules it imports: read once a run, by
    every test here (parsing the whole package was half a second each), and so not to be
    changed by one."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    paths = {name: path for name, path in paths.items() if ".migrations." not in name}
    known = set(paths)
    return MappingProxyType(
        {
            name: frozenset(set(imported(path, known)) & known - {name})
            for name, path in paths.items()
        }
    )


def room(module: str) -> str:
    """The room a module is in: `rules` for the engine, a folder of the web layer (`http`,
    `pages`, …) or a module of its own (`settings`, `nights`, `cli`, …); `app` for the web
    layer's own `__init__` (create_app)."""
    parts = module.split(".")[1:]
    if parts[:1] == ["web"]:
        parts = parts[1:] or ["app"]
    return parts[0] if parts else "scorekeeper"


ROW = re.compile(r"^\| `(?P<room>[\w]+)` \| (?P<imports>.*?) \|", re.MULTILINE)


def allowed() -> dict[str, set[str]]:
    """The table of docs/architecture.md ("Which room imports which"): each room and the rooms it
    may import. The test reads it from the document, so that there is one table, which people
    read and the test holds the code to."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    section = text.split("### Which room imports which", 1)[1].split("\n#", 1)[0]
    return {
        row["room"]: set(re.findall(r"`(\w+)`", row["imports"])) for row in ROW.finditer(section)
    }


def rooms_imported() -> dict[str, dict[str, set[str]]]:
    """Each room, the other rooms its modules import, and which of its modules import each."""
    found: dict[str, dict[str, set[str]]] = {}
    for name, imports in modules().items():
        by = found.setdefault(room(name), {})
        for other in {room(m) for m in imports} - {room(name)}:
            by.setdefault(other, set()).add(name)
    return found


def test_the_table_of_rooms_names_every_room() -> None:
    assert set(allowed()) == set(rooms_imported())


def test_each_room_imports_only_the_rooms_the_table_allows() -> None:
    table = allowed()
    beyond = {
        f"{name} imports {other}"
        for place, imports in rooms_imported().items()
        for other, names in imports.items()
        if other not in table.get(place, set())
        for name in sorted(names)
    }
    assert sorted(beyond) == []


def test_the_table_allows_no_import_the_rooms_do_not_make() -> None:
    """The table says what the code does, not more: an import no module makes any longer is
    taken out of it (and of the drawing of the rooms it gives)."""
    made = rooms_imported()
    unused = {
        f"{place} -> {other}"
        for place, others in allowed().items()
        for other in others
        if other not in made.get(place, {})
    }
    assert sorted(unused) == []


def test_every_page_module_is_a_blueprint_of_its_own_and_imports_no_other_page() -> None:
    found = {
        name: sorted(m for m in imports if m.startswith(f"{PAGES}.") and m != name)
        for name, imports in modules().items()
        if name.startswith(f"{PAGES}.")
    }
    assert found, "no page module found: has pages/ moved?"
    assert {name: pages for name, pages in found.items() if pages} == {}


def test_only_the_app_factory_imports_a_page() -> None:
    importers = {
        name
        for name, imports in modules().items()
        if not name.startswith(PAGES) and any(m.startswith(f"{PAGES}.") for m in imports)
    }
    assert importers == {FACTORY}


def test_no_module_of_the_web_layer_is_longer_than_500_lines() -> None:
    lengths = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path in (PACKAGE / "web").rglob("*.py")
    }
    assert lengths, "no module of the web layer found: has it moved?"
    assert {path: lines for path, lines in lengths.items() if lines > LONGEST} == {}


def test_templates_sit_in_a_folder_per_blueprint() -> None:
    """A blueprint's templates are in the folder of its name; what several blueprints include is
    in shared/, and only the layout (base.html, error.html) at the top."""
    blueprints = set(
        re.findall(
            r'Blueprint\("(\w+)"', "".join(p.read_text() for p in PACKAGE.glob("web/pages/*.py"))
        )
    )
    folders = {path.name for path in TEMPLATES.iterdir() if path.is_dir()}
    at_the_top = {path.name for path in TEMPLATES.iterdir() if path.is_file()}
    assert folders - blueprints == {"shared"}
    assert at_the_top == {"base.html", "error.html"}


def circle_from(start: str, graph: dict[str, set[str]]) -> list[str] | None:
    """A path of imports from `start` back to itself, if there is one."""
    stack = [(start, [start])]
    seen: set[str] = set()
    while stack:
        name, path = stack.pop()
        for other in sorted(graph.get(name, ())):
            if other == start:
                return [*path, start]
            if other not in seen:
                seen.add(other)
                stack.append((other, [*path, other]))
    return None


def package_parents(name: str) -> set[str]:
    """A module's packages: importing it runs their `__init__`, which is not a circle."""
    parts = name.split(".")
    return {".".join(parts[:i]) for i in range(1, len(parts))}


def test_no_module_of_the_package_is_in_an_import_circle() -> None:
    graph = {
        name: {m for m in imports if m not in package_parents(name)}
        for name, imports in modules().items()
    }
    circles = {name: circle_from(name, graph) for name in graph}
    assert {name: circle for name, circle in circles.items() if circle} == {}


KNOWN = {"scorekeeper.web.pages.games", "scorekeeper.web.http.door", "scorekeeper.rules"}


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..pages import games\n", {"scorekeeper.web.pages.games"}),
        ("from . import door\n", {"scorekeeper.web.http.door"}),
        ("from ... import rules\n", {"scorekeeper.rules"}),
        ("from .. import create_app\n", {"scorekeeper.web"}),
        ("from .door import game\n", {"scorekeeper.web.http.door"}),
    ],
)
def test_the_import_reader_resolves_relative_imports(source: str, expected: set[str]) -> None:
    """The reader the rules above rely on: a relative import is read as the module it names."""
    assert set(imports_of(source, "scorekeeper.web.http", KNOWN)) == expected


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("scorekeeper.rules.checks", "rules"),
        ("scorekeeper.nights", "nights"),
        ("scorekeeper.web", "app"),
        ("scorekeeper.web.wording", "wording"),
        ("scorekeeper.web.http.door", "http"),
    ],
)
def test_a_module_is_in_its_room(module: str, expected: str) -> None:
    assert room(module) == expected

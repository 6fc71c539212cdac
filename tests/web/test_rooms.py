"""The web layer's rooms (docs/architecture.md): no page imports another page, nothing but the app
factory imports a page, and no module of the package is in an import circle, even one for types
only. Each rule is checked on the source, so a new module is held to it the day it is written."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper"
PAGES = "scorekeeper.web.pages"
FACTORY = "scorekeeper.web"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported(path: Path) -> Iterator[str]:
    """Every module `path` imports (see `imports_of`)."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    return imports_of(path.read_text(encoding="utf-8"), package)


def imports_of(source: str, package: str) -> Iterator[str]:
    """Every module a module of `package` imports, wherever the import stands (a function,
    `TYPE_CHECKING`): `from . import x` names the module x too, when there is one."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            yield source
            yield from (f"{source}.{alias.name}" for alias in node.names)


def modules() -> dict[str, set[str]]:
    """Each module of the package and the package's modules it imports."""
    paths = {module_name(path): path for path in PACKAGE.rglob("*.py")}
    paths = {name: path for name, path in paths.items() if ".migrations." not in name}
    return {name: set(imported(path)) & set(paths) - {name} for name, path in paths.items()}


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


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("from ..pages import games\n", {"scorekeeper.web.pages", "scorekeeper.web.pages.games"}),
        ("from . import door\n", {"scorekeeper.web.http", "scorekeeper.web.http.door"}),
    ],
)
def test_the_import_reader_resolves_relative_imports(source: str, expected: set[str]) -> None:
    """The reader the rules above rely on: a relative import is read as the module it names."""
    assert expected <= set(imports_of(source, "scorekeeper.web.http"))

"""The engine's modules import one another one way only: no circle, not even one for types.

An import under `if TYPE_CHECKING:` or inside a function is an import all the same; the examples
in docstrings are not (they run in the doctests, after every module is loaded).
"""

from __future__ import annotations

import ast
from graphlib import CycleError, TopologicalSorter
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    """`scorekeeper.rules.house` for rules/house.py, `scorekeeper.rules` for its __init__.py."""
    return "scorekeeper.rules" if path.stem == "__init__" else f"scorekeeper.rules.{path.stem}"


def imported(source: str, module: str, is_package: bool = False) -> set[str]:
    """Every name an import of the source reaches for, as a module would be named: a module, or
    a name inside one (`scorekeeper.rules.systems.SetKind`), wherever the import stands."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[: None if is_package else -1]
                parent = package[: len(package) - node.level + 1]
                base = ".".join([*parent, *([node.module] if node.module else [])])
            names |= {f"{base}.{alias.name}" for alias in node.names}
    return names


def engine_imports() -> Graph:
    """Each module of the engine and the engine's modules it imports."""
    paths = sorted(PACKAGE.glob("*.py"))
    modules = {module_name(path) for path in paths}
    graph: Graph = {}
    for path in paths:
        module = module_name(path)
        names = imported(path.read_text(encoding="utf-8"), module, path.stem == "__init__")
        # `from .systems import SetKind` reaches for the module systems; `from . import words`
        # for the module words, not for the package.
        graph[module] = {
            name if name in modules else name.rsplit(".", 1)[0]
            for name in names
            if name in modules or name.rsplit(".", 1)[0] in modules
        } - {module}
    return graph


def circle(graph: Graph) -> list[str] | None:
    """Modules that import one another in a circle, the first again at the end; None if none."""
    try:
        TopologicalSorter(graph).prepare()
    except CycleError as error:
        found: list[str] = error.args[1]
        return found
    return None


def test_no_module_of_the_engine_imports_another_that_imports_it_back() -> None:
    graph = engine_imports()
    assert "scorekeeper.rules.systems" in graph["scorekeeper.rules.house"]
    assert circle(graph) is None


def test_a_circle_is_found_however_long() -> None:
    assert circle({"a": {"b"}, "b": {"c"}, "c": set()}) is None
    assert circle({"a": {"b"}, "b": {"a"}}) in (["a", "b", "a"], ["b", "a", "b"])
    assert len(circle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) or []) == 4


SOURCE = '''
"""A module.

>>> from .replay import replay
"""
from typing import TYPE_CHECKING
from . import words
from .systems import SetKind

if TYPE_CHECKING:
    from .house import HouseRules


def later():
    from ..web import app
    import json
'''


def test_imports_for_types_and_inside_functions_count_and_docstring_examples_do_not() -> None:
    assert imported(SOURCE, "scorekeeper.rules.checks") == {
        "typing.TYPE_CHECKING",
        "scorekeeper.rules.words",
        "scorekeeper.rules.systems.SetKind",
        "scorekeeper.rules.house.HouseRules",
        "scorekeeper.web.app",
        "json",
    }
    assert "scorekeeper.rules.words" in imported("from . import words", "scorekeeper.rules", True)

"""Helpers live in helper modules, conftests hold fixtures: a test finds what it shares by an
import from a module that says what it is (tests/web/apps.py, tests/browser/helpers.py, …),
never from a conftest, which pytest loads on its own, nor from another test file, which would
run that file's module code (and collect its tests twice under another name)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted([*(ROOT / "tests").rglob("*.py"), *(ROOT / "benchmarks").rglob("*.py")])


def imported(path: Path, root: Path = ROOT) -> list[tuple[int, str]]:
    """Each module `path` imports from, with the line; relative imports made absolute."""
    found = []
    package = list(path.relative_to(root).parent.parts)
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            if node.module is None:  # `from . import name`: each name is a module
                found += [(node.lineno, f"{module}.{alias.name}") for alias in node.names]
            else:
                found.append((node.lineno, module))
    return found


def is_test_module_or_conftest(module: str) -> bool:
    last = module.rsplit(".", 1)[-1]
    return last == "conftest" or last.startswith("test_")


def test_no_file_imports_from_a_conftest_or_a_test_module() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line}: {module}"
        for path in SOURCES
        for line, module in imported(path)
        if is_test_module_or_conftest(module)
    ]
    assert wrong == []


def is_fixture(function: ast.FunctionDef) -> bool:
    def named(decorator: ast.expr) -> str:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        return ast.unparse(target)

    return any(named(d) in ("pytest.fixture", "fixture") for d in function.decorator_list)


def test_conftests_define_fixtures_and_hooks_only() -> None:
    wrong = []
    for path in SOURCES:
        if path.name != "conftest.py":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: class {node.name}")
            elif isinstance(node, ast.FunctionDef) and not (
                is_fixture(node) or node.name.startswith("pytest_")
            ):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.name}()")
    assert wrong == []


def test_the_check_sees_each_way_of_importing_a_conftest_or_a_test_module(
    tmp_path: Path,
) -> None:
    package = tmp_path / "tests" / "web"
    package.mkdir(parents=True)
    lines = [
        "from .conftest import Actions",
        "from tests.web.conftest import TEST_CONFIG",
        "from .test_backup import tables",
        "from . import test_history",
        "import tests.conftest",
        "from .apps import built_app",
    ]
    (package / "test_example.py").write_text("\n".join(lines) + "\n")
    modules = [module for _line, module in imported(package / "test_example.py", tmp_path)]
    assert [is_test_module_or_conftest(module) for module in modules] == [
        True,
        True,
        True,
        True,
        True,
        False,
    ]

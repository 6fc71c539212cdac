"""The browser's scripts read `data-*` attributes and ids that the templates give; docs/scripts.md
lists each, with the templates that give it. A script that reads one the list does not name, a
name no script reads any more, or a listed template that stops giving it, fails here: a template
changed without its script (or the reverse) would otherwise break a page only in a browser."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.once
"""Checks of the scripts, the templates and docs/scripts.md alone: no app, no database; run once."""

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = ROOT / "static" / "js"
TEMPLATES = ROOT / "templates"
LIST = ROOT / "docs" / "scripts.md"


def kebab(name: str) -> str:
    """`dataset.playedOn` reads `data-played-on`."""
    return "data-" + re.sub(r"[A-Z]", lambda upper: "-" + upper.group().lower(), name)


def read_by(script: str) -> set[str]:
    """The hooks a script reads: `#id` and `data-name`; not the data-* it writes itself."""
    written = set(re.findall(r"dataset\.(\w+)\s*=(?!=)", script))
    written |= set(re.findall(r"delete\s+[\w.]+\.dataset\.(\w+)", script))
    hooks = {kebab(name) for name in re.findall(r"dataset\.(\w+)", script) if name not in written}
    hooks |= {
        kebab(name) for name in re.findall(r"""["'](\w+)["']\s+in\s+[\w.]+\.dataset""", script)
    }
    hooks |= {"#" + name for name in re.findall(r"""getElementById\(\s*["']([\w-]+)["']""", script)}
    for _quote, selector in re.findall(
        r"""(?:querySelector(?:All)?|closest)\(\s*(["'`])(.*?)\1""", script
    ):
        hooks |= {"#" + name for name in re.findall(r"#([A-Za-z][\w-]*)", selector)}
        hooks |= set(re.findall(r"\[(data-[\w-]+)", selector))
    return hooks


def listed() -> dict[str, tuple[set[str], list[str]]]:
    """docs/scripts.md's table: each hook, the scripts that read it, the templates that give it."""
    rows = re.findall(r"^\| `([#\w-]+)` \| ([^|]+) \| ([^|]+) \|$", LIST.read_text(), re.MULTILINE)
    return {
        hook: ({s.strip() for s in scripts.split(",")}, [t.strip() for t in templates.split(",")])
        for hook, scripts, templates in rows
    }


def gives(template: str, hook: str) -> bool:
    if hook.startswith("#"):
        return f'id="{hook[1:]}"' in template
    return re.search(r"\s" + re.escape(hook) + r"(?=[\s=>{])", template) is not None


def test_the_list_names_every_hook_a_script_reads_and_no_other() -> None:
    read: dict[str, set[str]] = {}
    for path in sorted(SCRIPTS.glob("*.js")):
        for hook in read_by(path.read_text(encoding="utf-8")):
            read.setdefault(hook, set()).add(path.name)
    assert read, "no script read anything: the patterns above no longer match the scripts"
    assert {hook: scripts for hook, (scripts, _) in listed().items()} == read


def test_every_template_listed_gives_its_hook() -> None:
    missing = [
        f"{template} no longer gives {hook}"
        for hook, (_, templates) in listed().items()
        for template in templates
        if not gives((TEMPLATES / template).read_text(encoding="utf-8"), hook)
    ]
    assert missing == []


def test_the_patterns_find_what_a_script_reads() -> None:
    script = """
      const hub = document.getElementById("following");
      hub.dataset.by = "stream";
      if ("elsewhere" in holder.dataset) go(hub.dataset.playedOn);
      document.querySelectorAll("[data-follow], #gone");
    """
    assert read_by(script) == {
        "#following",
        "data-elsewhere",
        "data-played-on",
        "data-follow",
        "#gone",
    }


def test_every_module_stays_under_500_lines() -> None:
    long = {
        path.name: n
        for path in SCRIPTS.glob("*.js")
        if (n := len(path.read_text().splitlines())) > 500
    }
    assert long == {}

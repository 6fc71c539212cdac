"""Words for people, kept translatable, and citations of the rule texts.

The engine never translates: it marks its English templates with `N_` (so that Babel can extract
them) and hands out `Text` values; the web layer translates the template and fills in the values.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol


def N_(template: str) -> str:
    """Mark an English template for translation without translating it here."""
    return template


@dataclass(frozen=True)
class Text:
    """A sentence for people: an English `%(name)s` template and the values to fill in.

    >>> str(Text("%(side)s scored %(points)s", {"side": "Us", "points": 10000}))
    'Us scored 10,000'
    """

    template: str
    values: Mapping[str, str | int | Text] = field(default_factory=dict)

    def render(self, translate: Translate | None = None) -> str:
        """The sentence, with `translate` (template → template) applied to it and its values."""
        template = translate(self.template) if translate else self.template
        return template % {k: _render_value(v, translate) for k, v in self.values.items()}

    def __str__(self) -> str:
        return self.render()


class Translate(Protocol):
    """What the web layer passes to `Text.render`: a gettext and a number format."""

    def __call__(self, template: str) -> str: ...

    def number(self, value: int) -> str: ...


def _render_value(value: str | int | Text, translate: Translate | None) -> str:
    if isinstance(value, Text):
        return value.render(translate)
    if isinstance(value, int):
        return translate.number(value) if translate else f"{value:,}"
    return value


@dataclass(frozen=True)
class Rule:
    """Where a rule comes from: the system, its source document and the section of it.

    `topic` names the paragraph of the app's own rules page that explains it.
    """

    system: str
    source: str
    section: str
    topic: str

    def as_dict(self) -> dict[str, str]:
        return {
            "system": self.system,
            "source": self.source,
            "section": self.section,
            "topic": self.topic,
        }

    def __str__(self) -> str:
        return f"{self.source}, {self.section}"

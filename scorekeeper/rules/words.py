"""Words for people, kept translatable, and citations of the rule texts.

The engine never translates: it marks its English templates with `N_` (and those that follow a
count with `P_`, so that Babel extracts them as plural entries) and hands out `Text` values; the
web layer translates the template and fills in the values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

MINUS = "\u2212"
"""The minus sign that every negative number is written with (−100, never -100)."""


def N_(template: str) -> str:
    """Mark an English template for translation without translating it here."""
    return template


def C_(context: str, template: str) -> str:
    """Mark an English template for translation in a context (`pgettext`): the same words may
    be said otherwise there (a text's heading "Going out" is not the bonus "Going out")."""
    return template


@dataclass(frozen=True)
class Plural:
    """An English template for a count of one and one for any other count."""

    singular: str
    plural: str

    def choose(self, count: int) -> str:
        return self.singular if count == 1 else self.plural


def P_(singular: str, plural: str) -> Plural:
    """Mark a template whose words follow the value `count` (1 set, 2 sets) for translation."""
    return Plural(singular, plural)


def number(value: int) -> str:
    """A whole number as the engine writes it, with the true minus sign.

    >>> number(-1500), number(10000)
    ('−1,500', '10,000')
    """
    return f"{value:,}".replace("-", MINUS)


@dataclass(frozen=True)
class Text:
    """A sentence for people: an English `%(name)s` template and the values to fill in.

    A `Plural` template is chosen by the value `count`, in each language by its own rule.

    >>> str(Text("%(side)s scored %(points)s", {"side": "Us", "points": 10000}))
    'Us scored 10,000'
    >>> str(Text(P_("%(count)s set", "%(count)s sets"), {"count": 1}))
    '1 set'
    """

    template: str | Plural
    values: Mapping[str, str | int | Text] = field(default_factory=dict)

    def render(self, translate: Translate | None = None) -> str:
        """The sentence, with `translate` (template → template) applied to it and its values."""
        template = self._template(translate)
        return template % {k: _render_value(v, translate) for k, v in self.values.items()}

    def _template(self, translate: Translate | None) -> str:
        if isinstance(self.template, str):
            return translate(self.template) if translate else self.template
        count = self.values["count"]
        if not isinstance(count, int):
            raise TypeError(f"the count of {self.template.plural!r} must be a number")
        if translate:
            return translate.plural(self.template.singular, self.template.plural, count)
        return self.template.choose(count)

    def __str__(self) -> str:
        return self.render()


def join(
    parts: Sequence[str | Text], pair: str = N_("%(a)s, %(b)s"), last: str | None = None
) -> str | Text:
    """Parts in a row, each pair joined by the template `pair`, the last by `last` if given:
    “Us, Them and You”, “a canasta of sevens or a samba”, “needs …; needs …”."""
    joined = parts[0]
    for index, part in enumerate(parts[1:], start=2):
        template = last if last is not None and index == len(parts) else pair
        joined = Text(template, {"a": joined, "b": part})
    return joined


class Translate(Protocol):
    """What the web layer passes to `Text.render`: a gettext, an ngettext and a number format."""

    def __call__(self, template: str) -> str: ...

    def plural(self, singular: str, plural: str, count: int) -> str: ...

    def number(self, value: int) -> str: ...


def _render_value(value: str | int | Text, translate: Translate | None) -> str:
    if isinstance(value, Text):
        return value.render(translate)
    if isinstance(value, int):
        return translate.number(value) if translate else number(value)
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

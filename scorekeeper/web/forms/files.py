"""Files sent from a phone, read: JSON within the limits a real game file or backup keeps."""

from __future__ import annotations

import json

from flask_babel import gettext as _

from ..wording import number

DEEPEST = 20
"""How deep lists and objects nest in a game file: a real one goes five deep."""
LONGEST_NUMBER = 100
"""Digits of one number in a game file: a real count has fewer than ten, and a longer number is
no use to anyone (Python refuses to read one of 4,300 digits)."""


class Unreadable(ValueError):
    """A body or file that is not a game file this app reads; says why, for people."""

    def __init__(self, problem: str, is_json: bool = True) -> None:
        super().__init__(problem)
        self.is_json = is_json


def _short_number(text: str) -> int:
    if len(text.lstrip("-")) > LONGEST_NUMBER:
        raise Unreadable(_("it has a number of %(digits)s digits.", digits=number(len(text))))
    return int(text)


def _depth(data: object) -> int:
    """How deep lists and objects nest in `data`, counted without recursing (up to DEEPEST + 1)."""
    deepest = 0
    stack: list[tuple[object, int]] = [(data, 1)]
    while stack and deepest <= DEEPEST:
        value, depth = stack.pop()
        if isinstance(value, dict):
            value = list(value.values())
        if isinstance(value, list):
            deepest = max(deepest, depth)
            stack.extend((child, depth + 1) for child in value)
    return deepest


def read_json(body: bytes) -> object:
    """A game file's JSON, or Unreadable: not JSON, nested too deep, or a number too long."""
    too_deep = Unreadable(_("lists and objects nest more than %(most)s deep.", most=DEEPEST))
    try:
        data = json.loads(body, parse_int=_short_number)
    except RecursionError:  # the parser's own limit, near a thousand
        raise too_deep from None
    except Unreadable:
        raise
    except ValueError:  # not JSON, or not UTF-8
        raise Unreadable(_("it is not JSON."), is_json=False) from None
    if _depth(data) > DEEPEST:
        raise too_deep
    return data

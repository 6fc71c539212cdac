"""QR codes of links, drawn on the server (a game's share links, a night's table cards)."""

from __future__ import annotations

from functools import lru_cache

import segno
from markupsafe import Markup


@lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """A QR code of `url`, drawn here as inline SVG (nothing from another site); drawn once
    per link (a season's or a night's standings draw theirs at every view: 10 ms each)."""
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")
    return Markup(svg)

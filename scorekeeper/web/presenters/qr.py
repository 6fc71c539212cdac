"""QR codes of links, drawn on the server (a game's share links, a night's table cards)."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(url: str) -> Markup:
    """A QR code of `url`, drawn here as inline SVG (nothing from another site)."""
    svg = segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")
    return Markup(svg)

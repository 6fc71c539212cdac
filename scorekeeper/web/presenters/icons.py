"""The app's icon, drawn in pure Python: three cards fanned on the table's green, the top one
with a red diamond. `python -m scorekeeper.web.icons` writes the files in `static/icons/` that
the manifest names (and a test checks that they are what this draws).

Each shape is a signed distance (negative inside), so its edge is smoothed by how far the
pixel's centre lies from it, without drawing at a larger size first.
"""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable, Iterator
from pathlib import Path

GREEN = (11, 93, 59)  # the theme colour, style.css's --accent
CARD = (251, 250, 247)
EDGE = (6, 54, 34)
RED = (198, 40, 40)

CARDS = ((0.36, 0.46), (0.5, 0.5), (0.64, 0.54))
"""Each card's centre in the unit square, back to front."""

Colour = tuple[int, int, int]
Shape = Callable[[float, float], float]  # (x, y) in the unit square → signed distance


def rounded_box(cx: float, cy: float, half_w: float, half_h: float, radius: float) -> Shape:
    def distance(x: float, y: float) -> float:
        dx = max(abs(x - cx) - half_w + radius, 0.0)
        dy = max(abs(y - cy) - half_h + radius, 0.0)
        inside = min(max(abs(x - cx) - half_w + radius, abs(y - cy) - half_h + radius), 0.0)
        return math.hypot(dx, dy) + inside - radius

    return distance


def diamond(cx: float, cy: float, half_w: float, half_h: float) -> Shape:
    def distance(x: float, y: float) -> float:
        # Scaled to the shorter half, which is close enough for a smooth edge.
        return (abs(x - cx) / half_w + abs(y - cy) / half_h - 1.0) * min(half_w, half_h) * 0.7

    return distance


def layers(scale: float) -> list[tuple[Shape, Colour]]:
    """The cards and the diamond, back to front, `scale` of the full size about the centre."""

    def at(value: float) -> float:
        return 0.5 + (value - 0.5) * scale

    half_w, half_h, radius, edge = 0.17 * scale, 0.24 * scale, 0.03 * scale, 0.012 * scale
    drawn: list[tuple[Shape, Colour]] = []
    for cx, cy in CARDS:
        drawn.append((rounded_box(at(cx), at(cy), half_w + edge, half_h + edge, radius), EDGE))
        drawn.append((rounded_box(at(cx), at(cy), half_w, half_h, radius), CARD))
    drawn.append((diamond(at(0.64), at(0.54), 0.08 * scale, 0.12 * scale), RED))
    return drawn


def pixels(size: int, maskable: bool) -> Iterator[bytes]:
    """Rows of RGBA. A maskable icon is green to its edges with the cards inside the central
    circle a launcher keeps; the other is a rounded green square, transparent at its corners."""
    background = rounded_box(0.5, 0.5, 0.5, 0.5, 0.0 if maskable else 0.18)
    drawn = layers(0.7 if maskable else 0.92)
    half_pixel = 0.5 / size
    for row in range(size):
        y = (row + 0.5) / size
        line = bytearray()
        for column in range(size):
            x = (column + 0.5) / size
            alpha = min(max(0.5 - background(x, y) / (2 * half_pixel), 0.0), 1.0)
            colour = GREEN
            for shape, paint in drawn:
                cover = min(max(0.5 - shape(x, y) / (2 * half_pixel), 0.0), 1.0)
                if cover:
                    colour = _mix(colour, paint, cover)
            line += bytes((*colour, round(alpha * 255)))
        yield bytes(line)


def _mix(under: Colour, over: Colour, cover: float) -> Colour:
    r, g, b = (round(u + (o - u) * cover) for u, o in zip(under, over, strict=True))
    return (r, g, b)


def png(size: int, maskable: bool = False) -> bytes:
    """The icon as a PNG file of `size` × `size` pixels."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    raw = b"".join(b"\x00" + row for row in pixels(size, maskable))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 9))
        + chunk(b"IEND", b"")
    )


def svg() -> str:
    """The icon as SVG, for browsers that take one: the same cards, in units of 1/100."""

    def at(value: float) -> float:
        return round((0.5 + (value - 0.5) * 0.92) * 100, 2)

    half_w, half_h = 17 * 0.92, 24 * 0.92
    shapes = ['<rect width="100" height="100" rx="18" fill="#0b5d3b"/>']
    for cx, cy in CARDS:
        shapes.append(
            f'<rect x="{at(cx) - half_w:.2f}" y="{at(cy) - half_h:.2f}" width="{2 * half_w:.2f}" '
            f'height="{2 * half_h:.2f}" rx="2.76" fill="#fbfaf7" stroke="#063622" '
            'stroke-width="2.2"/>'
        )
    x, y, w, h = at(0.64), at(0.54), 8 * 0.92, 12 * 0.92
    shapes.append(
        f'<path d="M{x:.2f} {y - h:.2f}L{x + w:.2f} {y:.2f}L{x:.2f} {y + h:.2f}L{x - w:.2f} '
        f'{y:.2f}Z" fill="#c62828"/>'
    )
    body = "".join(shapes)
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">{body}</svg>\n'


FILES: dict[str, Callable[[], bytes]] = {
    "icon-192.png": lambda: png(192),
    "icon-512.png": lambda: png(512),
    "maskable-512.png": lambda: png(512, maskable=True),
    "apple-touch-icon-180.png": lambda: png(180, maskable=True),
}
"""The icons the manifest and the pages name, by file name in `static/icons/`."""


def main(folder: str) -> None:
    """Write every icon into `folder`."""
    target = Path(folder)
    target.mkdir(parents=True, exist_ok=True)
    for name, draw in FILES.items():
        (target / name).write_bytes(draw())
    (target / "icon.svg").write_text(svg())


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "static/icons")

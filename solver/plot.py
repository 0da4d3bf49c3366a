"""The picture of a post-mortem: the double-dummy value over the course of the play, mistakes marked.

x is the number of cards played (vertical lines at the trick boundaries), y the declaring side's total (what it has
won plus the double-dummy value of the rest; a game without card points: the declarer's tricks). A perfect play is a
flat line; every card graded worse than ``ok`` is a circle, labelled with its number and card in the SVG.

Both formats are drawn here without dependencies: SVG as text, PNG by rasterising the same shapes (lines and
markers, no text: a font renderer is not worth its weight here) into a minimal PNG written with zlib and struct.
"""

from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass
from pathlib import Path
from html import escape as html_escape

from .errors import StichError
from .postmortem import PlayAnalysis


def escape(text: str) -> str:
    """XML text content (``&``, ``<``, ``>``): html's escape, since xml.sax.saxutils drags in urllib, http and email
    at ``import solver`` (a third of its import time)."""
    return html_escape(text, quote=False)


def quoteattr(text: str) -> str:
    """An XML attribute value, quoted."""
    return f'"{html_escape(text)}"'

WIDTH, HEIGHT = 760, 380
LEFT, RIGHT, TOP, BOTTOM = 56, 24, 28, 44

GRADE_COLOURS = {"inaccuracy": (230, 160, 0), "mistake": (230, 90, 0), "blunder": (200, 0, 0)}
LINE_COLOUR = (30, 90, 200)
TRICK_COLOUR = (200, 200, 200)
AXIS_COLOUR = (60, 60, 60)


@dataclass(frozen=True)
class Frame:
    """Maps (cards played, value) to picture coordinates."""

    cards: int
    low: int
    high: int

    def x(self, number: int) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * number / max(self.cards, 1)

    def y(self, value: int) -> float:
        span = max(self.high - self.low, 1)
        return HEIGHT - BOTTOM - (HEIGHT - TOP - BOTTOM) * (value - self.low) / span


def frame_of(analysis: PlayAnalysis) -> Frame:
    """The value axis always includes 0, so that small swings are not blown up into cliffs."""
    values = analysis.curve or (0,)
    return Frame(len(analysis.cards), min(0, min(values)), max(max(values), 1))


def _hex(colour: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % colour


def _value_ticks(frame: Frame) -> list[int]:
    """About five round values along the y axis."""
    span = frame.high - frame.low
    step = next((s for s in (1, 2, 5, 10, 20, 25, 50) if span / s <= 6), 100)
    first = -(-frame.low // step) * step
    return list(range(first, frame.high + 1, step))


def svg_text(analysis: PlayAnalysis) -> str:
    """The plot as an SVG document (one ``<circle class="mistake" data-card=...>`` per graded card)."""
    frame = frame_of(analysis)
    unit = "points" if analysis.measure == "points" else "tricks"
    side = "+".join(str(s) for s in analysis.declaring_side)
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
           f'<title>{escape(f"{analysis.game} {analysis.contract}: double-dummy {unit} of {side}")}</title>',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>']
    for end in analysis.trick_ends:
        x = frame.x(end)
        out.append(f'<line class="trick" x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{HEIGHT - BOTTOM}" '
                   f'stroke="{_hex(TRICK_COLOUR)}" stroke-dasharray="3,3"/>')
    for value in _value_ticks(frame):
        y = frame.y(value)
        out.append(f'<text class="tick" x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{value}</text>')
    out.append(f'<path class="axes" d="M{LEFT},{TOP} V{HEIGHT - BOTTOM} H{WIDTH - RIGHT}" fill="none" '
               f'stroke="{_hex(AXIS_COLOUR)}"/>')
    out.append(f'<text x="{(LEFT + WIDTH - RIGHT) / 2:.0f}" y="{HEIGHT - 10}" text-anchor="middle">cards played '
               f'(dashed: end of a trick)</text>')
    out.append(f'<text x="14" y="{(TOP + HEIGHT - BOTTOM) / 2:.0f}" text-anchor="middle" '
               f'transform="rotate(-90 14 {(TOP + HEIGHT - BOTTOM) / 2:.0f})">{escape(unit)} of {side}</text>')
    points = " ".join(f"{frame.x(i):.1f},{frame.y(v):.1f}" for i, v in enumerate(analysis.curve))
    out.append(f'<polyline class="value" points="{points}" fill="none" stroke="{_hex(LINE_COLOUR)}" '
               f'stroke-width="2"/>')
    for card in analysis.mistakes:
        x, y = frame.x(card.number), frame.y(analysis.curve[card.number])
        label = f"{card.number}. {card.card}"
        out.append(f'<circle class="mistake" data-card={quoteattr(card.card)} data-number="{card.number}" '
                   f'data-seat="{card.seat}" data-grade="{card.grade}" data-cost="{card.cost}" cx="{x:.1f}" '
                   f'cy="{y:.1f}" r="5" fill="{_hex(GRADE_COLOURS[card.grade])}"><title>'
                   f'{escape(f"{label} by seat {card.seat}: {card.grade}, cost {card.cost}")}</title></circle>')
        out.append(f'<text class="label" x="{x + 7:.1f}" y="{y - 7:.1f}">{escape(label)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# --- PNG --------------------------------------------------------------------------------------------------------


class Canvas:
    """An RGB raster with the two shapes the plot needs: thick lines and filled discs."""

    def __init__(self, width: int, height: int) -> None:
        self.width, self.height = width, height
        self.pixels = bytearray(b"\xff" * (width * height * 3))

    def dot(self, x: float, y: float, radius: float, colour: tuple[int, int, int]) -> None:
        r = int(radius + 1)
        cx, cy = int(round(x)), int(round(y))
        for py in range(cy - r, cy + r + 1):
            for px in range(cx - r, cx + r + 1):
                if 0 <= px < self.width and 0 <= py < self.height and (px - x) ** 2 + (py - y) ** 2 <= radius ** 2:
                    offset = (py * self.width + px) * 3
                    self.pixels[offset:offset + 3] = bytes(colour)

    def line(self, x1: float, y1: float, x2: float, y2: float, colour: tuple[int, int, int], width: float = 1.0,
             dash: int = 0) -> None:
        steps = int(max(abs(x2 - x1), abs(y2 - y1))) + 1
        for step in range(steps + 1):
            if dash and (step // dash) % 2:
                continue
            t = step / steps
            self.dot(x1 + (x2 - x1) * t, y1 + (y2 - y1) * t, width / 2, colour)

    def png(self) -> bytes:
        rows = b"".join(b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3])
                        for y in range(self.height))
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)  # 8-bit RGB
        return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, 9)) + \
            _chunk(b"IEND", b"")


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(analysis: PlayAnalysis) -> bytes:
    """The plot's shapes (trick lines, axes, value line, mistake markers) as a PNG, no text."""
    frame = frame_of(analysis)
    canvas = Canvas(WIDTH, HEIGHT)
    for end in analysis.trick_ends:
        canvas.line(frame.x(end), TOP, frame.x(end), HEIGHT - BOTTOM, TRICK_COLOUR, dash=3)
    canvas.line(LEFT, TOP, LEFT, HEIGHT - BOTTOM, AXIS_COLOUR)
    canvas.line(LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, HEIGHT - BOTTOM, AXIS_COLOUR)
    for value in _value_ticks(frame):
        canvas.line(LEFT - 4, frame.y(value), LEFT, frame.y(value), AXIS_COLOUR)
    for i in range(1, len(analysis.curve)):
        canvas.line(frame.x(i - 1), frame.y(analysis.curve[i - 1]), frame.x(i), frame.y(analysis.curve[i]),
                    LINE_COLOUR, width=2)
    for card in analysis.mistakes:
        canvas.dot(frame.x(card.number), frame.y(analysis.curve[card.number]), 5, GRADE_COLOURS[card.grade])
    return canvas.png()


def write_plot(analysis: PlayAnalysis, path: str | Path) -> Path:
    """Write the plot as SVG or PNG, chosen by the file's suffix; another suffix is bad input."""
    if not isinstance(analysis, PlayAnalysis):
        raise StichError(f"the plot is of a PlayAnalysis (from analyse_play), not {type(analysis).__name__}")
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix == ".svg":
        path.write_text(svg_text(analysis), encoding="utf-8")
    elif suffix == ".png":
        path.write_bytes(png_bytes(analysis))
    else:
        raise StichError(f"{path}: the plot is written as .svg or .png, not {suffix or 'a file without suffix'}")
    return path


__all__ = ["png_bytes", "svg_text", "write_plot"]

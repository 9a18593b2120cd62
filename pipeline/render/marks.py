"""Printer's marks on a press sheet: crop marks, registration targets, the slug line, calibration cross-hairs.

Geometry first (pure functions returning segments and circles in sheet pt, origin
bottom-left), drawing second (onto a reportlab canvas), so tests can check where a
mark sits without parsing a PDF.

All marks are drawn in the *registration colour*: the PDF Separation colour space
named ``All``, which paints every colorant of the device, spot plates included
(ISO 32000-1 §8.6.6.4), so each plate, the UV braille plate too, carries the marks.

Crop marks (DESIGN.md §4): one at each end of every trim line of the grid, outside
the bleed: it starts ``offset`` beyond the outermost trim (never nearer than the
bleed) and runs ``length`` (6 mm) outward, shortened only where the sheet ends.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Iterable, Sequence

from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.render.sheets import Grid, Rect

#: The registration colour: Separation "All" (every plate), full tint.
REGISTRATION = CMYKColorSep(1, 1, 1, 1, spotName="All")

_EPS = 1e-6


@dataclass(frozen=True)
class Segment:
    """A straight mark from ``(x0, y0)`` to ``(x1, y1)`` in sheet pt."""

    x0: float
    y0: float
    x1: float
    y1: float

    @property
    def length(self) -> float:
        return abs(self.x1 - self.x0) + abs(self.y1 - self.y0)  # marks are axis-parallel


@dataclass(frozen=True)
class Target:
    """A registration target: circle of ``radius`` at ``(x, y)`` with a cross through it (sheet pt)."""

    x: float
    y: float
    radius: float


def _unique(values: Iterable[float]) -> list[float]:
    out: list[float] = []
    for v in sorted(values):
        if not out or abs(v - out[-1]) > _EPS:
            out.append(v)
    return out


def crop_marks(trims: Sequence[Rect], bleeds: Sequence[Rect], sheet_w: float, sheet_h: float, offset: float, length: float) -> list[Segment]:
    """Crop marks for a grid of cards: both ends of every vertical and horizontal trim line.

    ``trims``/``bleeds``: every slot's trim and bled rectangle (sheet pt). A mark starts
    at ``max(offset, bleed)`` beyond the outermost trim on that side, so it never enters a
    card's bleed, and runs ``length`` pt away from the cards, clipped at the sheet edge.
    Returns the segments, vertical marks first (left to right, top then bottom).
    """
    top, bottom = max(r.y1 for r in trims), min(r.y0 for r in trims)
    left, right = min(r.x0 for r in trims), max(r.x1 for r in trims)
    start_top = max(top + offset, max(b.y1 for b in bleeds))
    start_bottom = min(bottom - offset, min(b.y0 for b in bleeds))
    start_left = min(left - offset, min(b.x0 for b in bleeds))
    start_right = max(right + offset, max(b.x1 for b in bleeds))
    out: list[Segment] = []
    for x in _unique(v for r in trims for v in (r.x0, r.x1)):
        out.append(Segment(x, start_top, x, min(start_top + length, sheet_h)))
        out.append(Segment(x, start_bottom, x, max(start_bottom - length, 0.0)))
    for y in _unique(v for r in trims for v in (r.y0, r.y1)):
        out.append(Segment(start_left, y, max(start_left - length, 0.0), y))
        out.append(Segment(start_right, y, min(start_right + length, sheet_w), y))
    return out


def side_crop_marks(grid: Grid, side: str) -> list[Segment]:
    """:func:`crop_marks` of every card on one side of a sheet, at the sheet preset's offset and length."""
    bleds, trims = grid.bled_and_trimmed(side)
    spec = grid.spec.crop_marks
    return crop_marks(trims, bleds, grid.width, grid.height, spec.offset, spec.length)


def _middle(items: Sequence[Rect]) -> Rect:
    return items[(len(items) - 1) // 2]


def registration_targets(grid: Grid, side: str, radius: float) -> list[Target]:
    """Registration targets in the margins on the top, left and right of the grid (the slug takes the bottom).

    Each sits midway between the sheet edge and the bled cards, on the centre line of the
    middle column (top) or middle row (sides), where no crop mark runs. The radius is
    shrunk to leave 1 pt to the edge and the cards; a margin too thin for a 2 pt target
    gets none. ``side`` is ``front``, ``back`` or ``braille`` (backs are mirrored).
    """
    bleds, trims = grid.bled_and_trimmed(side)
    top_edge, left_edge = max(b.y1 for b in bleds), min(b.x0 for b in bleds)
    right_edge = max(b.x1 for b in bleds)
    row_mid = _middle([trims[r * grid.cols] for r in range(grid.rows)]).centre[1]
    col_mid = _middle(trims[: grid.cols]).centre[0]
    out: list[Target] = []
    candidates = (
        (col_mid, (top_edge + grid.height) / 2, grid.height - top_edge),
        (left_edge / 2, row_mid, left_edge),
        ((right_edge + grid.width) / 2, row_mid, grid.width - right_edge),
    )
    for x, y, band in candidates:
        r = min(radius, band / 2 - 1.0)
        if r >= 2.0:
            out.append(Target(x, y, r))
    return out


def slug_position(grid: Grid, side: str, text_width: float, size: float, gap: float) -> tuple[float, float, float]:
    """Where the slug goes: ``(x, baseline_y, size)`` below the grid, ``gap`` clear of every bled card.

    The slug starts ``gap`` right of the first column's left trim line, between that
    column's crop marks; the type shrinks (never below 4 pt) when the text is wider
    than the column.
    """
    bleds, trims = grid.bled_and_trimmed(side)
    first = min(trims[: grid.cols], key=lambda r: r.x0)
    room = first.width - 2 * gap
    if text_width > room > 0:
        size = max(4.0, size * room / text_width)
    bottom = min(b.y0 for b in bleds)
    return first.x0 + gap, bottom - gap - size, size


def draw_segments(canvas: Canvas, segments: Iterable[Segment], weight: float) -> None:
    """Stroke the segments in the registration colour at ``weight`` pt (butt caps)."""
    canvas.saveState()
    canvas.setStrokeColor(REGISTRATION)
    canvas.setLineWidth(weight)
    canvas.setLineCap(0)
    for s in segments:
        canvas.line(s.x0, s.y0, s.x1, s.y1)
    canvas.restoreState()


def draw_target(canvas: Canvas, target: Target, weight: float) -> None:
    """A registration target: a circle and a cross extending 40 % beyond it, registration colour."""
    arm = target.radius * 1.4
    canvas.saveState()
    canvas.setStrokeColor(REGISTRATION)
    canvas.setLineWidth(weight)
    canvas.circle(target.x, target.y, target.radius, stroke=1, fill=0)
    canvas.line(target.x - arm, target.y, target.x + arm, target.y)
    canvas.line(target.x, target.y - arm, target.x, target.y + arm)
    canvas.restoreState()


def draw_text(canvas: Canvas, text: str, x: float, y: float, size: float, font: str) -> None:
    """A line of mark text (slug, calibration notes) in the registration colour."""
    canvas.saveState()
    canvas.setFillColor(REGISTRATION)
    canvas.setFont(font, size)
    canvas.drawString(x, y, text)
    canvas.restoreState()


def crosshair(x: float, y: float, arm: float) -> list[Segment]:
    """A calibration cross-hair at ``(x, y)``: a horizontal and a vertical line of ``arm`` pt each way
    (the back's mm scale is :func:`pipeline.render.calibration.scale_ticks`)."""
    return [Segment(x - arm, y, x + arm, y), Segment(x, y - arm, x, y + arm)]


def marks_pdf(grid: Grid, side: str, slugs: Sequence[str], font: str) -> bytes:
    """One sheet side's marks (crop marks, registration targets, slug) as reportlab PDF bytes.

    One page of ``grid.width`` × ``grid.height`` pt per slug text, in order, its TrimBox and
    BleedBox the whole sheet; ``font`` is a registered reportlab font name for the slug.
    """
    spec = grid.spec
    segments = side_crop_marks(grid, side)
    targets = registration_targets(grid, side, spec.registration.radius)
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(grid.width, grid.height), invariant=1, pageCompression=0, initialFontName=font, initialFontSize=spec.slug.size)
    for text in slugs:
        canvas.setTrimBox((0, 0, grid.width, grid.height))
        canvas.setBleedBox((0, 0, grid.width, grid.height))
        draw_segments(canvas, segments, spec.crop_marks.weight)
        for t in targets:
            draw_target(canvas, t, spec.registration.weight)
        x, y, size = slug_position(grid, side, stringWidth(text, font, spec.slug.size), spec.slug.size, spec.slug.gap)
        draw_text(canvas, text, x, y, size, font)
        canvas.showPage()
    canvas.save()
    return buf.getvalue()

"""Printer's marks on a press sheet: crop marks, registration targets, the slug line, calibration cross-hairs.

Geometry first (pure functions returning segments and circles in sheet pt, origin
bottom-left), drawing second (onto a reportlab canvas), so tests can check where a
mark sits without parsing a PDF.

All marks are drawn in the *registration colour*: the PDF Separation colour space
named ``All``, which paints every colorant of the device, spot plates included
(ISO 32000-1 §8.6.6.4), so each plate, the UV braille plate too, carries the marks.

Crop marks (DESIGN.md §4): one at each end of every trim line of the grid, outside
the bleed: it starts ``offset`` beyond the outermost trim (never nearer than the
bleed) and runs ``length`` (6 mm) outward, shortened where the printable area ends.

The printable area (:func:`printable_area`) is the sheet less the preset's ``margin``,
the band an office or digital printer cannot print (templates/sheets.yaml): every mark
and the slug stay inside it. A mark with no room at all is left out (on letter the 2 × 2
grid of bled cards reaches the 0.25 in band above and below, so the column marks there
go); :func:`pipeline.render.impose.impose` reports a short or missing mark as IM001.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from engine.units import pt_to_mm
from pipeline.render.sheets import Grid, Rect

MARK_SHORTENED = declare(
    "IM001",
    "crop-mark-shortened",
    Severity.warning,
    """A crop mark had to be cut short, or left out, because the printable area ends within its length (6 mm by default).

    Marks stay inside the sheet preset's ``margin`` (the band a printer cannot print). Short
    marks are harder to cut to; a missing one leaves its trim line to be measured.

    Fails: ``letter``: the 2 × 2 bled cards reach the 0.25 in band above and below, so the 8 column marks there are left out.
    Passes: ``a4``, ``12x18``, ``sra3`` (room for full 6 mm marks round the grid).
    """,
)
SLUG_LEFT_OUT = declare(
    "IM007",
    "slug-left-out",
    Severity.warning,
    """A sheet side has no room for its slug line inside the printable area, so it is left out.

    The slug (game, sheet n/N, side, flip, back offset) must stay ``gap`` clear of the bled
    cards and the crop marks and inside the preset's ``margin``, at 4 pt or more; a print
    shop then tells the sheets apart by the PDF's page labels only.

    Fails: ``tabloid`` (10 bled cards 5 × 2 leave 18 pt above and below and 27 pt beside the grid).
    Passes: ``letter``, ``a4``, ``12x18``, ``sra3`` (the slug runs turned in the left margin).
    """,
)

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


def printable_area(grid: Grid) -> Rect:
    """The part of the sheet a printer prints: the sheet less the preset's ``margin`` on every side (sheet pt)."""
    m = grid.spec.margin
    return Rect(m, m, grid.width - m, grid.height - m)


def crop_marks(trims: Sequence[Rect], bleeds: Sequence[Rect], sheet_w: float, sheet_h: float, offset: float, length: float,
               margin: float = 0.0) -> list[Segment]:
    """Crop marks for a grid of cards: both ends of every vertical and horizontal trim line.

    ``trims``/``bleeds``: every slot's trim and bled rectangle (sheet pt). A mark starts
    at ``max(offset, bleed)`` beyond the outermost trim on that side, so it never enters a
    card's bleed, and runs ``length`` pt away from the cards, clipped ``margin`` pt inside
    the sheet edge (the printable area); a mark left with less than 0.01 pt is left out.
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
        out.append(Segment(x, start_top, x, min(start_top + length, sheet_h - margin)))
        out.append(Segment(x, start_bottom, x, max(start_bottom - length, margin)))
    for y in _unique(v for r in trims for v in (r.y0, r.y1)):
        out.append(Segment(start_left, y, max(start_left - length, margin), y))
        out.append(Segment(start_right, y, min(start_right + length, sheet_w - margin), y))
    return [s for s in out if s.length >= 0.01 and _outward(s, start_top, start_bottom, start_left, start_right)]


def _outward(s: Segment, top: float, bottom: float, left: float, right: float) -> bool:
    """True when a clipped mark still runs away from the cards (a start beyond the printable edge would turn it round)."""
    if s.x0 == s.x1:
        return s.y1 >= s.y0 if s.y0 == top else s.y1 <= s.y0
    return s.x1 <= s.x0 if s.x0 == left else s.x1 >= s.x0


def crop_mark_count(grid: Grid, side: str) -> int:
    """How many crop marks a side would carry with room for all: two per distinct trim line."""
    _, trims = grid.bled_and_trimmed(side)
    return 2 * (len(_unique(v for r in trims for v in (r.x0, r.x1))) + len(_unique(v for r in trims for v in (r.y0, r.y1))))


def side_crop_marks(grid: Grid, side: str) -> list[Segment]:
    """:func:`crop_marks` of every card on one side of a sheet, at the sheet preset's offset and length,
    inside its printable area."""
    bleds, trims = grid.bled_and_trimmed(side)
    spec = grid.spec.crop_marks
    return crop_marks(trims, bleds, grid.width, grid.height, spec.offset, spec.length, grid.spec.margin)


def _middle(items: Sequence[Rect]) -> Rect:
    return items[(len(items) - 1) // 2]


def registration_targets(grid: Grid, side: str, radius: float) -> list[Target]:
    """Registration targets in the margins on the top, left and right of the grid (the slug takes the bottom).

    Each sits midway between the bled cards and the printable area's edge, on the centre line of the
    middle column (top) or middle row (sides), where no crop mark runs. The radius is
    shrunk so the cross (1.4 × the radius) keeps 1 pt from the printable edge and the cards; a band too thin
    for a 2 pt target gets none (letter's top band: the cards reach it). ``side`` is ``front``,
    ``back`` or ``braille`` (backs are mirrored).
    """
    bleds, trims = grid.bled_and_trimmed(side)
    area = printable_area(grid)
    top_edge, left_edge = max(b.y1 for b in bleds), min(b.x0 for b in bleds)
    right_edge = max(b.x1 for b in bleds)
    row_mid = _middle([trims[r * grid.cols] for r in range(grid.rows)]).centre[1]
    col_mid = _middle(trims[: grid.cols]).centre[0]
    out: list[Target] = []
    candidates = (
        (col_mid, (top_edge + area.y1) / 2, area.y1 - top_edge),
        ((left_edge + area.x0) / 2, row_mid, left_edge - area.x0),
        ((right_edge + area.x1) / 2, row_mid, area.x1 - right_edge),
    )
    for x, y, band in candidates:
        r = min(radius, (band / 2 - 1.0) / 1.4)
        if r >= 2.0:
            out.append(Target(x, y, r))
    return out


@dataclass(frozen=True)
class SlugPlace:
    """Where a slug line goes: baseline start ``(x, y)`` (sheet pt), type ``size`` (pt), ``angle`` 0
    (left to right) or 90 (turned counter-clockwise, read bottom to top)."""

    x: float
    y: float
    size: float
    angle: int = 0

    def box(self, width: float, font: str) -> Rect:
        """The ink area of a line ``width`` pt long (at :attr:`size`) set here in ``font`` (its ascent and descent)."""
        ascent, descent = getAscentDescent(font, self.size)
        if self.angle == 0:
            return Rect(self.x, self.y + descent, self.x + width, self.y + ascent)
        return Rect(self.x - ascent, self.y, self.x - descent, self.y + width)


def _slug_lanes(grid: Grid, side: str, gap: float) -> list[tuple[float, float, float, float, int]]:
    """Candidate lanes for the slug, best first: ``(x0, y0, length, thickness, angle)`` in sheet pt,
    the lane's start corner (lower left), its room along the text and across it."""
    bleds, trims = grid.bled_and_trimmed(side)
    area = printable_area(grid)
    first = min(trims[: grid.cols], key=lambda r: r.x0)
    bottom, left = min(b.y0 for b in bleds), min(b.x0 for b in bleds)
    marks = side_crop_marks(grid, side)
    outer_left = min([min(s.x0, s.x1) for s in marks if s.y0 == s.y1 and s.x1 < s.x0] or [left])
    lowest = min(trims, key=lambda r: (r.y0, r.x0))
    left_targets = [t for t in registration_targets(grid, side, grid.spec.registration.radius) if t.x < left]
    floor = min([t.y - 1.4 * t.radius for t in left_targets] or [area.y1 + gap])
    ceiling = max([t.y + 1.4 * t.radius for t in left_targets] or [area.y0 - gap])
    beyond = outer_left - gap - area.x0
    return [
        # below the first column, between its crop marks
        (first.x0 + gap, area.y0, first.width - 2 * gap, bottom - gap - area.y0, 0),
        # turned, in the left margin beyond the ends of the row marks, below the left target, then above it
        (area.x0, area.y0, min(floor - gap, area.y1) - area.y0, beyond, 90),
        (area.x0, ceiling + gap, area.y1 - ceiling - gap, beyond, 90),
        # turned, in the left margin beside the bottom row, between its crop marks (and below a target there)
        (area.x0, lowest.y0 + gap, min(lowest.y1, floor) - lowest.y0 - 2 * gap, left - gap - area.x0, 90),
    ]


def slug_position(grid: Grid, side: str, text_width: float, size: float, gap: float, font: str,
                  min_size: float = 4.0, lanes: Sequence[tuple[float, float, float, float, int]] | None = None) -> SlugPlace | None:
    """Where the slug goes, ``gap`` clear of every bled card, crop mark and target, inside the printable area.

    ``text_width`` is the slug's width at ``size`` pt. Tried in order: below the first
    column between its crop marks; turned 90° in the left margin beyond the row marks (below
    the left registration target, then above it); turned beside the bottom row. The first lane that holds the text at ``size`` takes it;
    when none does, the first that holds it shrunk to its length and thickness (never below ``min_size``). Returns None
    when no lane holds it at ``min_size`` (tabloid's 10-up grid leaves 9 pt bands). ``lanes``: this
    grid, side and gap's :func:`_slug_lanes`, when the caller places several slugs (they depend on neither text nor size).
    """
    lanes = _slug_lanes(grid, side, gap) if lanes is None else lanes
    for floor in (size, min_size):  # any lane at the full size first, then the first that holds it shrunk
        for x0, y0, length, thickness, angle in lanes:
            if length <= 0 or thickness <= 0:
                continue
            high, low = getAscentDescent(font, size)
            fit = min(size, size * length / text_width if text_width > 0 else size, size * thickness / (high - low))
            if fit < floor - 1e-9:
                continue
            ascent, descent = getAscentDescent(font, fit)
            if angle == 0:  # baseline high in the band, ``gap`` below the cards
                return SlugPlace(x0, y0 + thickness - ascent, fit, 0)
            return SlugPlace(x0 + thickness + descent, y0, fit, 90)  # box's right edge ``gap`` left of what it keeps clear of
    return None


def short_mark_findings(grid: Grid, side: str, path: str) -> list[Finding]:
    """IM001 when a crop mark of ``side`` is shorter than the preset's length or has no room at all; ``path`` is the sheet PDF."""
    spec = grid.spec
    segs, full = side_crop_marks(grid, side), crop_mark_count(grid, side)
    kept = min((s.length for s in segs), default=0.0)
    if len(segs) == full and kept >= spec.crop_marks.length - 0.01:
        return []
    parts = [f"the shortest runs {pt_to_mm(kept):.1f} mm instead of {pt_to_mm(spec.crop_marks.length):.1f} mm"] if kept < spec.crop_marks.length - 0.01 else []
    parts += [f"{full - len(segs)} of {full} have no room and are left out"] if len(segs) < full else []
    return [MARK_SHORTENED.finding(
        f"crop marks on the {side} of {spec.name} sheets stop at the {pt_to_mm(spec.margin):.2f} mm unprinted margin: {'; '.join(parts)}",
        Location(path), "choose a sheet with room round the grid (a4, 12x18, sra3) or reduce the back offset")]


def slug_findings(grid: Grid, side: str, texts: Sequence[str], font: str, path: str) -> list[Finding]:
    """IM007 when the longest of a side's slug ``texts`` fits no slug lane (:func:`slug_position`); ``path`` is the sheet PDF."""
    spec = grid.spec.slug
    longest = max(texts, key=lambda t: stringWidth(t, font, spec.size), default="")
    if not longest or slug_position(grid, side, stringWidth(longest, font, spec.size), spec.size, spec.gap, font) is not None:
        return []
    return [SLUG_LEFT_OUT.finding(
        f"the {side} of {grid.spec.name} sheets has no room for its slug line inside the {grid.spec.margin / 72:g} in unprinted margin",
        Location(path), "the page labels name each sheet; choose a sheet with wider margins round the grid (12x18, sra3) for a slug")]


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


def draw_text(canvas: Canvas, text: str, x: float, y: float, size: float, font: str, angle: int = 0) -> None:
    """A line of mark text (slug, calibration notes) in the registration colour, baseline from ``(x, y)``
    turned ``angle`` degrees counter-clockwise."""
    canvas.saveState()
    canvas.setFillColor(REGISTRATION)
    canvas.setFont(font, size)
    canvas.translate(x, y)
    canvas.rotate(angle)
    canvas.drawString(0, 0, text)
    canvas.restoreState()


def crosshair(x: float, y: float, arm: float) -> list[Segment]:
    """A calibration cross-hair at ``(x, y)``: a horizontal and a vertical line of ``arm`` pt each way
    (the back's mm scale is :func:`pipeline.render.calibration.scale_ticks`)."""
    return [Segment(x - arm, y, x + arm, y), Segment(x, y - arm, x, y + arm)]

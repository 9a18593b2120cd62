"""The duplex calibration sheet: cross-hairs at every card's trim centre, a numbered scale on the back, printed instructions.

Printed duplex and held to the light, each front cross-hair shows through the back,
next to the back's own cross-hair. The back's cross-hair carries a scale: a tick
every 1 mm to ±5 mm on both lines, numbered ``1`` … ``5`` mm from the centre, + to the
right and up and − to the left and down *as the back is seen* — the same axes as the back
offset (:class:`pipeline.render.sheets.BackOffset`: x right, y up in the back page's
own coordinates). Where the front cross-hair's centre falls on that scale is the
correction: the back printed at offset ``(dx, dy)`` needs ``(dx + x, dy + y)``. (The
back cross-hair sits at the ideal position shifted by the offset and the press's error
``e``; the front centre, seen from the back, reads ``x = −(offset + e)``; the offset
that cancels ``e`` is ``offset + x``.)

The numbers are :data:`TICK_LABEL_SIZE` (8 pt; ticks are 1 mm = 2.83 pt apart and
:data:`LINE_WEIGHT`, 0.5 pt): an 8 pt digit is wider than a millimetre, so as on a ruler
the even millimetres are numbered (2, 4) on longer ticks, the digit alone; which way is +
is printed once at each arm's end (``+x`` right, ``−x`` left, ``+y`` up, ``−y`` down, as
the back is seen). Each scale keeps to two quadrants, ticks pointing at their numbers,
so the two never overlap: x ticks and numbers above the line to the right and below it
to the left, y ticks and numbers left of the line going up and right of it going down.

The instructions are :data:`NOTE_SIZE` (9 pt), upright, inside the card areas (a
calibration sheet prints no cards): on the front in the half of each card above its
cross-hair, on the back in the half that lies over the front's empty half (below the
cross-hair for a sheet whose flip mirrors columns, above it when rows mirror), card by
card in reading order (:func:`note_regions`, :func:`plan_notes`). What does not fit there
goes on a third page, an instruction sheet of the same size (:func:`write_calibration`).
The slug runs in the margin at 8 pt or more (:func:`pipeline.render.marks.slug_position`),
or heads the instructions where the margin has no room for it.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import getAscentDescent, stringWidth
from reportlab.pdfgen.canvas import Canvas

from engine.units import mm_to_pt, pt_to_mm
from pipeline.render import marks
from pipeline.render.pdfx import FOGRA39, OutputCondition, finish
from pipeline.render.sheets import Grid, Rect

#: Type size of the instructions, pt (upright, inside the card areas).
NOTE_SIZE = 9.0
#: Baseline-to-baseline distance of instruction lines, pt.
NOTE_LEADING = 11.5
#: Type size of the scale's numbers, the axis labels and the slug, pt: the least a reader holding the sheet to a light reads.
TICK_LABEL_SIZE = 8.0
#: Stroke weight of the cross-hairs and the scale's ticks, pt.
LINE_WEIGHT = 0.5
#: Height of the numerals' ink above the baseline, em (Atkinson Hyperlegible Regular: 0.680 em for
#: 0–9, 0.668 for "+1"; measured with Pillow's ``getbbox`` at 1000 px, baseline anchor).
DIGIT_HEIGHT = 0.68
#: The scale's reach, mm either way (:func:`scale_ticks`).
SCALE_MM = 5
#: Length of each cross-hair arm, mm.
ARM_MM = 10
#: Room kept round a cross-hair for its axis labels and numbers, beyond the arm, pt.
LABEL_ROOM = 12.0


@dataclass(frozen=True)
class NoteLine:
    """One placed line of instructions: its text, its baseline start ``(x, y)`` (sheet pt), the type size (pt) and its width (pt)."""

    text: str
    x: float
    y: float
    size: float
    width: float


@dataclass(frozen=True)
class NotePlan:
    """The instructions of one side: ``lines`` placed on the sheet, ``left_over`` the words that did not fit."""

    lines: tuple[NoteLine, ...]
    left_over: str


def note_regions(grid: Grid, side: str) -> list[Rect]:
    """Where one side's instructions go, in reading order (top row first, left to right): in each card area (trim, ``gap`` inside it) the half
    clear of the cross-hair and its scale (:data:`LABEL_ROOM` beyond the arm) that faces an empty half on the
    other side — the upper half on the front; on the back the lower half when the flip mirrors columns (rows
    stay), the upper half when it mirrors rows (sheet pt)."""
    gap = grid.spec.slug.gap
    reach = mm_to_pt(ARM_MM) + LABEL_ROOM
    upper = side == "front" or not grid.mirror_columns
    _, trims = grid.bled_and_trimmed(side)
    out = []
    for t in trims:
        cy = t.centre[1]
        r = Rect(t.x0 + gap, cy + reach, t.x1 - gap, t.y1 - gap) if upper else Rect(t.x0 + gap, t.y0 + gap, t.x1 - gap, cy - reach)
        if r.width > 0 and r.height > 0:
            out.append(r)
    return sorted(out, key=lambda r: (-round(r.y1, 3), r.x0))  # reading order as this side is seen


def instructions(grid: Grid, side: str) -> str:
    """The printed instructions for one side of the calibration sheet (one paragraph)."""
    spec = grid.spec
    dx, dy = pt_to_mm(spec.back_offset.dx), pt_to_mm(spec.back_offset.dy)
    if side == "front":
        return (f"DUPLEX CALIBRATION, FRONT. 1. Print this sheet duplex ({spec.flip} flip) on the card stock, as the "
                "cards will print. 2. Hold it to a light with the BACK towards you: every cross-hair of this side "
                "shows through next to the numbered cross-hair of the back. Read the back; its notes say how.")
    return (f"DUPLEX CALIBRATION, BACK, printed with back offset {dx:+.2f}, {dy:+.2f} mm. "
            "1. Hold the sheet to a light, this side towards you: the front's cross-hair shows through. "
            f"2. Read where its centre falls on this side's scales: a tick every 1 mm to {SCALE_MM} mm each way, "
            "every 2 mm numbered, + to the right (x) and up (y), \u2212 to the left and down, as the labels "
            "+x, \u2212x, +y, \u2212y at the arm ends show. "
            "3. Add the readings to the back offset: new dx = old dx + x, new dy = old dy + y. "
            f"E.g. centre at x +1.5, y \u22120.5: --back-offset {dx + 1.5:.2f}mm,{dy - 0.5:.2f}mm. "
            "4. Print again and check that the centres meet on every card. "
            f"A reading beyond {SCALE_MM} mm means a misfeed or the wrong flip, not an offset to enter.")


def plan_notes(grid: Grid, side: str, font: str, text: str | None = None, size: float = NOTE_SIZE) -> NotePlan:
    """Wrap ``text`` (default :func:`instructions`) word by word into the :func:`note_regions` of one side,
    top to bottom, at ``size`` pt. Returns the placed lines and the words that did not fit (empty when all did)."""
    ascent, descent = getAscentDescent(font, size)
    lead = NOTE_LEADING * size / NOTE_SIZE
    words = (text if text is not None else instructions(grid, side)).split()
    lines: list[NoteLine] = []
    for region in note_regions(grid, side):
        y = region.y1 - ascent
        while words and y + descent >= region.y0 - 1e-9:
            taken: list[str] = []
            while words and stringWidth(" ".join(taken + words[:1]), font, size) <= region.width:
                taken.append(words.pop(0))
            if not taken:
                break
            line = " ".join(taken)
            lines.append(NoteLine(line, region.x0, y, size, stringWidth(line, font, size)))
            y -= lead
    return NotePlan(tuple(lines), " ".join(words))


@dataclass(frozen=True)
class TickLabel:
    """A number of the back's scale: ``text`` at ``(x, y)`` (baseline, sheet pt), aligned ``left``, ``right`` or ``centre`` on x."""

    text: str
    x: float
    y: float
    align: str


#: Tick lengths of the back's scale, pt: every millimetre, and the numbered even ones.
TICK, LONG_TICK = 2.0, 4.0


def _label_column(size: float) -> float:
    """How far the 4 mm number of the y scale stands beyond the 2 mm one, pt: the widest digit plus 1 pt
    (Atkinson Hyperlegible Regular at ``size`` pt), so the two, 1 line-height apart, never touch."""
    from pipeline.render.fonts import face

    return max(stringWidth(str(k), face("regular").name, size) for k in range(10)) + 1.0


def _tick_lengths(k: int, size: float) -> tuple[float, float]:
    """Lengths of the k mm ticks of the x and the y scale, pt: :data:`TICK` at odd millimetres,
    :data:`LONG_TICK` at the numbered even ones; the y scale's 4 mm tick runs on to its number's column."""
    if k % 2:
        return TICK, TICK
    return LONG_TICK, LONG_TICK + (_label_column(size) if k % 4 == 0 else 0.0)


def scale_ticks(cx: float, cy: float, reach_mm: int = SCALE_MM, size: float = TICK_LABEL_SIZE) -> list[marks.Segment]:
    """The ticks of the back's scale round a cross-hair centre ``(cx, cy)`` (pt), one every mm to ±``reach_mm``.

    Each tick points from its line towards its number: x ticks up for + and down for -,
    y ticks left for + and right for -, so each quadrant holds one scale's ticks and
    numbers only. :data:`TICK` (2 pt) at odd millimetres, :data:`LONG_TICK` (4 pt) at the
    numbered even ones, the y scale's 4 mm ticks on to their numbers (``size`` pt digits).
    """
    out = []
    for k in range(1, reach_mm + 1):
        d, (tx, ty) = mm_to_pt(k), _tick_lengths(k, size)
        out += [marks.Segment(cx + d, cy, cx + d, cy + tx), marks.Segment(cx - d, cy, cx - d, cy - tx),
                marks.Segment(cx, cy + d, cx - ty, cy + d), marks.Segment(cx, cy - d, cx + ty, cy - d)]
    return out


def scale_labels(cx: float, cy: float, size: float = TICK_LABEL_SIZE, reach_mm: int = SCALE_MM,
                 arm_mm: float = ARM_MM) -> list[TickLabel]:
    """The numbers ``2`` and ``4`` of the scale round a cross-hair centre ``(cx, cy)`` (pt) and the axis labels.

    8 pt digits are 4.7 pt wide and ticks 2.83 pt apart, so every other millimetre is
    numbered, as on a ruler. Each number is centred on its long tick, 0.6 pt beyond its end
    (:func:`scale_ticks`): x numbers above the line right of the centre and below it left
    of it, y numbers left of the line above the centre and right of it below. ``+x``,
    ``\u2212x``, ``+y``, ``\u2212y`` stand beyond the arms' ends (``arm_mm``). Ink extents use
    :data:`DIGIT_HEIGHT` (numerals and signs have no descenders).
    """
    from pipeline.render.fonts import face

    high = DIGIT_HEIGHT * size
    out: list[TickLabel] = []
    for k in range(2, reach_mm + 1, 2):
        d, (tx, ty) = mm_to_pt(k), _tick_lengths(k, size)
        out.append(TickLabel(str(k), cx + d, cy + tx + 0.6, "centre"))
        out.append(TickLabel(str(k), cx - d, cy - tx - 0.6 - high, "centre"))
        out.append(TickLabel(str(k), cx - ty - 0.6, cy + d - high / 2, "right"))
        out.append(TickLabel(str(k), cx + ty + 0.6, cy - d - high / 2, "left"))
    arm = mm_to_pt(arm_mm)
    out += [TickLabel("+x", cx + arm + 1.5, cy - high / 2, "left"), TickLabel("\u2212x", cx - arm - 1.5, cy - high / 2, "right"),
            TickLabel("+y", cx, cy + arm + 1.5 - face("regular").descent * size, "centre"),  # y's descender clear of the arm
            TickLabel("\u2212y", cx, cy - arm - 1.5 - high, "centre")]
    return out


def _slug(grid: Grid, side: str, note: str = "") -> str:
    """The calibration sheet's slug line; ``note`` (the build's draft mark and run) heads it."""
    spec, off = grid.spec, grid.spec.back_offset
    return (f"{note + ' · ' if note else ''}duplex calibration · {side} · {spec.name} {grid.orientation} · {spec.flip} flip · back offset "
            f"{pt_to_mm(off.dx):+.2f}, {pt_to_mm(off.dy):+.2f} mm")


def _draw_label(canvas: Canvas, label: TickLabel, font: str, size: float) -> None:
    canvas.saveState()
    canvas.setFillColor(marks.REGISTRATION)
    canvas.setFont(font, size)
    draw = {"left": canvas.drawString, "right": canvas.drawRightString, "centre": canvas.drawCentredString}[label.align]
    draw(label.x, label.y, label.text)
    canvas.restoreState()


def _slug_or_header(grid: Grid, side: str, font: str, note: str) -> tuple[marks.SlugPlace | None, str]:
    """The slug's place in the margin at :data:`TICK_LABEL_SIZE` or more, and the text that heads the
    instructions instead when the margin has no room (else "")."""
    spec, text = grid.spec, _slug(grid, side, note)
    size = max(spec.slug.size, TICK_LABEL_SIZE)
    place = marks.slug_position(grid, side, stringWidth(text, font, size), size, spec.slug.gap, font, min_size=TICK_LABEL_SIZE)
    return place, ("" if place is not None else text + ".")


def _draw_side(canvas: Canvas, grid: Grid, side: str, font: str, note: str) -> str:
    """One side of the sheet: crop marks, cross-hairs (and the back's scale), targets, slug, the instructions
    that fit; returns the words left over."""
    spec = grid.spec
    canvas.setTrimBox((0, 0, grid.width, grid.height))
    canvas.setBleedBox((0, 0, grid.width, grid.height))
    _, trims = grid.bled_and_trimmed(side)
    marks.draw_segments(canvas, marks.side_crop_marks(grid, side), spec.crop_marks.weight)
    hairs = [s for t in trims for s in marks.crosshair(*t.centre, mm_to_pt(ARM_MM)) + (scale_ticks(*t.centre) if side == "back" else [])]
    marks.draw_segments(canvas, hairs, LINE_WEIGHT)
    for t in trims if side == "back" else ():
        for label in scale_labels(*t.centre):
            _draw_label(canvas, label, font, TICK_LABEL_SIZE)
    for t in marks.registration_targets(grid, side, spec.registration.radius):
        marks.draw_target(canvas, t, spec.registration.weight)
    place, header = _slug_or_header(grid, side, font, note)
    if place is not None:
        marks.draw_text(canvas, _slug(grid, side, note), place.x, place.y, place.size, font, place.angle)
    plan = plan_notes(grid, side, font, f"{header} {instructions(grid, side)}".strip())
    for line in plan.lines:
        marks.draw_text(canvas, line.text, line.x, line.y, line.size, font)
    return plan.left_over


def _instruction_page(canvas: Canvas, grid: Grid, font: str, note: str) -> None:
    """The instruction sheet: the slug, then both sides' instructions in full, upright at :data:`NOTE_SIZE`
    (or smaller, never below :data:`TICK_LABEL_SIZE`, to fit one page), inside the printable area."""
    from reportlab.lib.utils import simpleSplit

    spec = grid.spec
    area = marks.printable_area(grid)
    canvas.setTrimBox((0, 0, grid.width, grid.height))
    canvas.setBleedBox((0, 0, grid.width, grid.height))
    paragraphs = [f"{_slug(grid, 'instructions', note)}.", instructions(grid, "front"), instructions(grid, "back")]
    size = NOTE_SIZE * 1.25
    while True:
        lines = [line for p in paragraphs for line in simpleSplit(p, font, size, area.width - 2 * spec.slug.gap) + [""]]
        if len(lines) * NOTE_LEADING * size / NOTE_SIZE <= area.height - 2 * spec.slug.gap or size <= TICK_LABEL_SIZE:
            break
        size = max(TICK_LABEL_SIZE, size - 0.5)
    ascent, _ = getAscentDescent(font, size)
    y = area.y1 - spec.slug.gap - ascent
    for line in lines:
        if line:
            marks.draw_text(canvas, line, area.x0 + spec.slug.gap, y, size, font)
        y -= NOTE_LEADING * size / NOTE_SIZE


def write_calibration(grid: Grid, path: str | Path, font: str, title: str = "", note: str = "",
                      condition: OutputCondition = FOGRA39) -> Path:
    """A duplex calibration sheet: page 1 (front) and page 2 (back), crop marks, cross-hairs, instructions.

    The front has a 10 mm cross-hair at each slot's trim centre; the back has one at each
    slot's back trim centre (mirrored for the flip, back offset applied) carrying a scale
    of 1 mm ticks to ±5 mm (:func:`scale_ticks`), numbered (:func:`scale_labels`). Each side
    carries its instructions inside the card areas (:func:`plan_notes`) and the slug (headed
    by ``note``, the build's draft mark). When either side's instructions do not fit, a third
    page, ``instructions``, carries both in full. Finished as PDF/X-1a:2003 with ``condition``'s
    output intent (the build's printing target). Returns ``path``.
    """
    data, labels = calibration_pdf(grid, font, note)
    return finish(data, path, title or f"duplex calibration ({grid.spec.name})", list(labels), condition=condition)


@lru_cache(maxsize=16)
def calibration_pdf(grid: Grid, font: str, note: str = "") -> tuple[bytes, tuple[str, ...]]:
    """The calibration sheet drawn (reportlab bytes, before :func:`~pipeline.render.pdfx.finish`) and its page labels.

    It depends on the grid (sheet, card size, flip, back offset), the font and the slug's ``note``
    only, not on the game: the build draws it once per process and paper, and each game's
    :func:`write_calibration` finishes those bytes with its own title (issue 22).
    """
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(grid.width, grid.height), invariant=1, initialFontName=font, initialFontSize=NOTE_SIZE)
    left_over = []
    for side in ("front", "back"):
        left_over.append(_draw_side(canvas, grid, side, font, note))
        canvas.showPage()
    labels = ("front", "back")
    if any(left_over):
        _instruction_page(canvas, grid, font, note)
        canvas.showPage()
        labels += ("instructions",)
    canvas.save()
    return buf.getvalue(), labels

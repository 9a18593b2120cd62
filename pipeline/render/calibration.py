"""The duplex calibration sheet: cross-hairs at every card's trim centre, a numbered scale on the back, printed instructions.

Printed duplex and held to the light, each front cross-hair shows through the back,
next to the back's own cross-hair. The back's cross-hair carries a scale: a tick
every 1 mm to ±5 mm on both lines, numbered ``+1`` … ``+5`` to the right and up and
``-1`` … ``-5`` to the left and down *as the back is seen* — the same axes as the back
offset (:class:`pipeline.render.sheets.BackOffset`: x right, y up in the back page's
own coordinates). Where the front cross-hair's centre falls on that scale is the
correction: the back printed at offset ``(dx, dy)`` needs ``(dx + x, dy + y)``. (The
back cross-hair sits at the ideal position shifted by the offset and the press's error
``e``; the front centre, seen from the back, reads ``x = −(offset + e)``; the offset
that cancels ``e`` is ``offset + x``.)

The numbers are 4 pt (ticks are 1 mm = 2.83 pt apart; read them with a loupe), each
centred on its tick. Each scale keeps to two quadrants, ticks pointing at their numbers,
so the two never overlap: x ticks and numbers above the line to the right and below it
to the left, y ticks and numbers left of the line going up and right of it going down;
odd and even millimetres on two staggered rows.

The instructions are :data:`NOTE_SIZE` (6 pt, the slug's size) and sit outside every
bled card: in lanes in the side margins (turned 90°, read bottom to top) and in the top
and bottom margins between each column's crop marks, clear of the registration targets,
the crop marks and the slug (:func:`note_lanes`). What does not fit in the margins is
left out and reported (:func:`plan_notes` returns it; :func:`notes_cut_findings` reports it as IM006).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from engine.units import mm_to_pt, pt_to_mm
from pipeline.render import marks
from pipeline.render.pdfx import FOGRA39, OutputCondition, finish
from pipeline.render.sheets import Grid, Rect

NOTES_CUT = declare(
    "IM006",
    "calibration-notes-cut",
    Severity.warning,
    """The duplex calibration sheet's margins cannot hold all its printed instructions at 6 pt.

    The instructions sit outside the cards (side, top and bottom margins, clear of the
    marks); what does not fit is left out, so the sheet reads incompletely.

    Fails: a sheet preset with ``margin: 0.1in`` (no lane wide enough for a 6 pt line).
    Passes: every shipped preset (letter, a4, tabloid, 12x18, sra3).
    """,
)

#: Type size of the instructions, pt: the slug's default (templates/sheets.yaml).
NOTE_SIZE = 6.0
#: Baseline-to-baseline distance of instruction lines, pt.
NOTE_LEADING = 7.5
#: Shortest stretch of a lane worth a line of text, pt.
MIN_LANE = 48.0
#: Type size of the scale's numbers, pt (ticks are 1 mm apart).
TICK_LABEL_SIZE = 4.0
#: Height of the numerals' ink above the baseline, em (Atkinson Hyperlegible Regular: 0.680 em for
#: 0–9, 0.668 for "+1"; measured with Pillow's ``getbbox`` at 1000 px, baseline anchor).
DIGIT_HEIGHT = 0.68
#: The scale's reach, mm either way (:func:`scale_ticks`).
SCALE_MM = 5
#: Length of each cross-hair arm, mm.
ARM_MM = 10


@dataclass(frozen=True)
class Lane:
    """A line position for instructions: baseline start ``(x, y)`` in sheet pt, room ``length`` pt
    along the baseline, ``angle`` 0 (left to right) or 90 (turned counter-clockwise, bottom to top)."""

    x: float
    y: float
    length: float
    angle: int

    def box(self, ascent: float, descent: float) -> Rect:
        """The area a line of text here may cover (``ascent``/``descent`` in pt, both positive)."""
        if self.angle == 0:
            return Rect(self.x, self.y - descent, self.x + self.length, self.y + ascent)
        return Rect(self.x - ascent, self.y, self.x + descent, self.y + self.length)


@dataclass(frozen=True)
class NoteLine:
    """One placed line of instructions: its text, its lane, the type size (pt) and its text width (pt)."""

    text: str
    lane: Lane
    size: float
    width: float


@dataclass(frozen=True)
class NotePlan:
    """The instructions of one side: ``lines`` placed, ``left_over`` the words that did not fit."""

    lines: tuple[NoteLine, ...]
    left_over: str


def _overlaps(a: Rect, b: Rect) -> bool:
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def _cut(lane: Lane, obstacles: Sequence[Rect], ascent: float, descent: float, pad: float) -> list[Lane]:
    """The pieces of ``lane`` (each at least :data:`MIN_LANE` long) that no obstacle crosses, ``pad`` pt clear."""
    box = lane.box(ascent, descent)
    along0 = box.x0 if lane.angle == 0 else box.y0
    pieces = [(along0, along0 + lane.length)]
    for o in obstacles:
        grown = Rect(o.x0 - pad, o.y0 - pad, o.x1 + pad, o.y1 + pad)
        if not _overlaps(box, grown):
            continue
        lo, hi = (grown.x0, grown.x1) if lane.angle == 0 else (grown.y0, grown.y1)
        pieces = [p for a, b in pieces for p in ((a, min(b, lo)), (max(a, hi), b)) if p[1] > p[0]]
    out = []
    for a, b in pieces:
        if b - a >= MIN_LANE:
            out.append(Lane(a, lane.y, b - a, 0) if lane.angle == 0 else Lane(lane.x, a, b - a, 90))
    return out


def _spans(values: list[tuple[float, float]]) -> list[tuple[float, float]]:
    out: list[tuple[float, float]] = []
    for a, b in sorted(values):
        if not out or abs(a - out[-1][0]) > 1e-6:
            out.append((a, b))
    return out


def obstacles(grid: Grid, side: str, slug: Rect | None) -> list[Rect]:
    """What instructions must keep clear of on one side: the bled cards, the crop marks,
    the registration targets (circle and cross) and the slug's box (sheet pt)."""
    spec = grid.spec
    bleds, _ = grid.bled_and_trimmed(side)
    out = list(bleds)
    w = spec.crop_marks.weight / 2
    for s in marks.side_crop_marks(grid, side):
        out.append(Rect(min(s.x0, s.x1) - w, min(s.y0, s.y1) - w, max(s.x0, s.x1) + w, max(s.y0, s.y1) + w))
    for t in marks.registration_targets(grid, side, spec.registration.radius):
        r = t.radius * 1.4  # the cross reaches 40 % beyond the circle
        out.append(Rect(t.x - r, t.y - r, t.x + r, t.y + r))
    if slug is not None:
        out.append(slug)
    return out


def note_lanes(grid: Grid, side: str, size: float, gap: float, blocked: Sequence[Rect], ascent: float, descent: float,
               edge: float = 2.0) -> list[Lane]:
    """Every lane for instructions outside the cards, in reading order.

    Side margins first, lines turned 90° (read with the sheet turned a quarter clockwise):
    the left margin then the right, a block of lines per card row from the bottom row up,
    each block's lines from left to right (edge inward on the left, cards outward on the
    right). Then the top margin and the bottom margin, a block per column between its trim
    lines from left to right, each block's lines from top to bottom. Every lane keeps ``gap`` pt from the cards,
    ``edge`` pt from the sheet edge and 1 pt from everything in ``blocked``.
    ``ascent``/``descent``: the font's at ``size``, pt, positive.
    """
    bleds, trims = grid.bled_and_trimmed(side)
    left, right = min(b.x0 for b in bleds), max(b.x1 for b in bleds)
    bottom, top = min(b.y0 for b in bleds), max(b.y1 for b in bleds)
    rows = _spans([(t.y0, t.y1) for t in trims])
    cols = _spans([(t.x0, t.x1) for t in trims])
    lead = NOTE_LEADING * size / NOTE_SIZE
    raw: list[Lane] = []
    xs, x = [], left - gap - descent
    while x - ascent >= edge:
        xs.append(x)
        x -= lead
    x = right + gap + ascent
    right_xs = []
    while x + descent <= grid.width - edge:
        right_xs.append(x)
        x += lead
    for margin in (sorted(xs), right_xs):
        raw += [Lane(x, y0 + gap, y1 - y0 - 2 * gap, 90) for y0, y1 in rows for x in margin]
    top_ys, y = [], top + gap + descent
    while y + ascent <= grid.height - edge:
        top_ys.append(y)
        y += lead
    bottom_ys, y = [], bottom - gap - ascent
    while y - descent >= edge:
        bottom_ys.append(y)
        y -= lead
    for band in (sorted(top_ys, reverse=True), bottom_ys):
        raw += [Lane(x0 + gap, y, x1 - x0 - 2 * gap, 0) for x0, x1 in cols for y in band]
    return [piece for lane in raw for piece in _cut(lane, blocked, ascent, descent, 1.0)]


def instructions(grid: Grid, side: str) -> str:
    """The printed instructions for one side of the calibration sheet (plain ASCII, one paragraph)."""
    spec = grid.spec
    dx, dy = pt_to_mm(spec.back_offset.dx), pt_to_mm(spec.back_offset.dy)
    if side == "front":
        return (f"DUPLEX CALIBRATION, FRONT. 1. Print this sheet duplex ({spec.flip} flip) on the card stock, as the "
                "cards will print. 2. Hold it to a light with the BACK towards you: every cross-hair of this side "
                "shows through next to the numbered cross-hair of the back. Read the back; its notes say how.")
    return (f"DUPLEX CALIBRATION, BACK, printed with back offset {dx:+.2f}, {dy:+.2f} mm. "
            "1. Hold the sheet to a light, this side towards you: the front's cross-hair shows through. "
            f"2. Read where its centre falls on this side's scales: a tick every 1 mm to {SCALE_MM} mm each way, "
            "numbered + to the right (x) and up (y), - to the left and down, as you look at this side. "
            "3. Add the readings to the back offset: new dx = old dx + x, new dy = old dy + y. "
            f"E.g. centre at x +1.5, y -0.5: --back-offset {dx + 1.5:.2f}mm,{dy - 0.5:.2f}mm. "
            "4. Print again and check that the centres meet on every card. "
            f"A reading beyond {SCALE_MM} mm means a misfeed or the wrong flip, not an offset to enter.")


def plan_notes(grid: Grid, side: str, font: str, text: str | None = None, size: float = NOTE_SIZE, note: str = "") -> NotePlan:
    """Wrap ``text`` (default :func:`instructions`) into the lanes of :func:`note_lanes`, word by word.

    The slug (drawn by :func:`write_calibration` below the first column) is kept clear.
    Returns the placed lines and the words that did not fit (empty when all did).
    """
    from pipeline.render.fonts import face

    spec = grid.spec
    regular = face("regular")
    ascent, descent = regular.ascent * size, -regular.descent * size
    slug_text = _slug(grid, side, note)
    sx, sy, ssize = marks.slug_position(grid, side, stringWidth(slug_text, font, spec.slug.size), spec.slug.size, spec.slug.gap)
    slug = Rect(sx, sy + regular.descent * ssize, sx + stringWidth(slug_text, font, ssize), sy + regular.ascent * ssize)
    lanes = note_lanes(grid, side, size, spec.slug.gap, obstacles(grid, side, slug), ascent, descent)
    words = (text if text is not None else instructions(grid, side)).split()
    lines: list[NoteLine] = []
    for lane in lanes:
        if not words:
            break
        taken: list[str] = []
        while words and stringWidth(" ".join(taken + words[:1]), font, size) <= lane.length:
            taken.append(words.pop(0))
        if taken:
            line = " ".join(taken)
            lines.append(NoteLine(line, lane, size, stringWidth(line, font, size)))
    return NotePlan(tuple(lines), " ".join(words))


@dataclass(frozen=True)
class TickLabel:
    """A number of the back's scale: ``text`` at ``(x, y)`` (baseline, sheet pt), aligned ``left``, ``right`` or ``centre`` on x."""

    text: str
    x: float
    y: float
    align: str


#: Tick lengths of the back's scale, pt: every millimetre, and the ±5 mm ends.
TICK, LONG_TICK = 2.0, 4.0


def notes_cut_findings(grid: Grid, font: str, calibration: Path, note: str = "") -> list[Finding]:
    """IM006 for each side of the calibration sheet (written at ``calibration``) whose instructions do not fit its margins."""
    out: list[Finding] = []
    for side in ("front", "back"):
        left_over = plan_notes(grid, side, font, note=note).left_over
        if left_over:
            out.append(NOTES_CUT.finding(
                f"the {side} of the {grid.spec.name} calibration sheet has no room for the end of its instructions: "
                f"{left_over[:60]}{' …' if len(left_over) > 60 else ''}", Location(str(calibration)),
                "widen the sheet margin or choose a larger sheet; the README explains how to read the sheet"))
    return out


def scale_ticks(cx: float, cy: float, reach_mm: int = SCALE_MM) -> list[marks.Segment]:
    """The ticks of the back's scale round a cross-hair centre ``(cx, cy)`` (pt), one every mm to ±``reach_mm``.

    Each tick points from its line towards its number: x ticks up for + and down for -,
    y ticks left for + and right for -, so each quadrant holds one scale's ticks and
    numbers only. :data:`TICK` long, :data:`LONG_TICK` at ±5 mm.
    """
    out = []
    for k in range(1, reach_mm + 1):
        d, t = mm_to_pt(k), LONG_TICK if k % 5 == 0 else TICK
        out += [marks.Segment(cx + d, cy, cx + d, cy + t), marks.Segment(cx - d, cy, cx - d, cy - t),
                marks.Segment(cx, cy + d, cx - t, cy + d), marks.Segment(cx, cy - d, cx + t, cy - d)]
    return out


def scale_labels(cx: float, cy: float, size: float = TICK_LABEL_SIZE, reach_mm: int = SCALE_MM) -> list[TickLabel]:
    """The numbers ``+1`` … ``+5`` / ``-1`` … ``-5`` of the scale round a cross-hair centre ``(cx, cy)`` (pt).

    Each number is centred on its tick, beyond the tick's end (:func:`scale_ticks`): x
    numbers above the line for + and below it for -, y numbers left of the line for + and
    right of it for -. Odd and even millimetres alternate between a near and a far row
    (column), so numbers 1 mm apart never touch. Ink extents use :data:`DIGIT_HEIGHT`
    (numerals and signs have no descenders).
    """
    from pipeline.render.fonts import face

    regular = face("regular")
    high = DIGIT_HEIGHT * size
    clear = LONG_TICK + 0.6  # from the line: beyond the longest tick
    row = high + 0.8
    widest = max(stringWidth(f"{s}{k}", regular.name, size) for s in "+-" for k in range(1, reach_mm + 1))
    out: list[TickLabel] = []
    for k in range(1, reach_mm + 1):
        d, far = mm_to_pt(k), (k % 2 == 0)
        shift = row if far else 0.0
        out.append(TickLabel(f"+{k}", cx + d, cy + clear + shift, "centre"))
        out.append(TickLabel(f"-{k}", cx - d, cy - clear - high - shift, "centre"))
        col = (widest + 1.0) if far else 0.0
        out.append(TickLabel(f"+{k}", cx - clear - col, cy + d - high / 2, "right"))
        out.append(TickLabel(f"-{k}", cx + clear + col, cy - d - high / 2, "left"))
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


def _draw_note(canvas: Canvas, line: NoteLine, font: str) -> None:
    canvas.saveState()
    canvas.translate(line.lane.x, line.lane.y)
    canvas.rotate(line.lane.angle)
    marks.draw_text(canvas, line.text, 0, 0, line.size, font)
    canvas.restoreState()


def write_calibration(grid: Grid, path: str | Path, font: str, title: str = "", note: str = "",
                      condition: OutputCondition = FOGRA39) -> Path:
    """A duplex calibration sheet: page 1 (front) and page 2 (back), crop marks, cross-hairs, instructions.

    The front has a 10 mm cross-hair at each slot's trim centre; the back has one at each
    slot's back trim centre (mirrored for the flip, back offset applied) carrying a scale
    of 1 mm ticks to ±5 mm (:func:`scale_ticks`), numbered (:func:`scale_labels`). Each side carries its
    instructions (:func:`plan_notes`) outside the cards, and the slug (headed by ``note``, the
    build's draft mark). Finished as
    PDF/X-1a:2003 with ``condition``'s output intent (the build's printing target). Returns ``path``.
    """
    spec = grid.spec
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(grid.width, grid.height), invariant=1, initialFontName=font, initialFontSize=spec.slug.size)
    arm = mm_to_pt(ARM_MM)
    for side in ("front", "back"):
        canvas.setTrimBox((0, 0, grid.width, grid.height))
        canvas.setBleedBox((0, 0, grid.width, grid.height))
        _, trims = grid.bled_and_trimmed(side)
        segs = marks.side_crop_marks(grid, side)
        for t in trims:
            segs += marks.crosshair(*t.centre, arm)
            if side == "back":
                segs += scale_ticks(*t.centre)
        marks.draw_segments(canvas, segs, spec.crop_marks.weight)
        if side == "back":
            for t in trims:
                for label in scale_labels(*t.centre):
                    _draw_label(canvas, label, font, TICK_LABEL_SIZE)
        for t in marks.registration_targets(grid, side, spec.registration.radius):
            marks.draw_target(canvas, t, spec.registration.weight)
        text = _slug(grid, side, note)
        x, y, size = marks.slug_position(grid, side, stringWidth(text, font, spec.slug.size), spec.slug.size, spec.slug.gap)
        marks.draw_text(canvas, text, x, y, size, font)
        for line in plan_notes(grid, side, font, note=note).lines:
            _draw_note(canvas, line, font)
        canvas.showPage()
    canvas.save()
    return finish(buf.getvalue(), path, title or f"duplex calibration ({spec.name})", ["front", "back"], condition=condition)

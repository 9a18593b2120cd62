"""The print design of a tuck box: the ground, the texts, the emblem badge and the quickstart QR.

Drawn with reportlab on the box page (:mod:`pipeline.boxes.pdf`) in the box's palette (CMYK,
the class's ``text`` on its ``background``, the ``accent`` ring). Every word is 18 pt or more
(Atkinson Hyperlegible, as the cards). Panels and their print:

- front: the game title (2 lines at most, 18–28 pt), the class or deck name (bold, 2 lines,
  18–36 pt), the emblem badge (accent ring, the class indicator letter, the emblem's name
  below), and the contents (card count, players, age) at 18 pt, all kept 3 mm above the braille
  block at the foot (clear UV dots on print blur it); contents that find no room there go to the
  foot of the back;
- back: "Quickstart", the QR code (30 mm with its quiet zone) to the archive's quickstart page,
  and what every card carries;
- sides: the title (left) and the name (right), rotated, when the depth holds 18 pt;
- top lid: the name, when it holds 18 pt, turned to read from the front of the folded box.

:func:`draw_box` returns BX002 (title or name do not fit in large print) and BX006 (the
text/ground pair prints under 7:1) findings, located at the box's definition.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from reportlab.lib.colors import CMYKColor

from engine.findings import Finding
from engine.units import mm_to_pt, pt_to_mm
from pipeline.boxes.geometry import Rect
from pipeline.boxes.plan import BOX_CONTRAST, MIN_PRINT_PT, PANEL_TOO_SMALL_PRINT, PRINT_MARGIN_MM, BoxPlan
from pipeline.qr.codes import draw_qr
from pipeline.render.card import cmyk
from pipeline.render.colour import printed_contrast
from pipeline.render.contrast import MIN_TEXT_CONTRAST
from pipeline.render.fonts import FontFace, face

if TYPE_CHECKING:
    from pipeline.render.targets import PrintTarget

#: Line spacing, times the type size.
LEADING = 1.2
#: Clear space between the print and the braille block, mm: clear UV dots over large print blur
#: the print for a low-vision reader and put letters under a braille reader's fingers.
BRAILLE_GAP_MM = 3.0
#: The back panel's words under the QR code.
BACK_NOTE = "Large print, braille and a QR code on every card"


def fit_lines(text: str, font: FontFace, width: float, largest: float, smallest: float = MIN_PRINT_PT,
              max_lines: int = 2) -> tuple[float, list[str]] | None:
    """The largest whole pt size from ``largest`` down to ``smallest`` at which ``text`` wraps into at most
    ``max_lines`` lines of at most ``width`` pt, with those lines; None when even ``smallest`` does not fit."""
    size = float(largest)
    while size >= smallest - 1e-9:
        lines: list[str] = []
        for word in text.split():
            trial = f"{lines[-1]} {word}" if lines else word
            if lines and font.width(trial, size) <= width:
                lines[-1] = trial
            else:
                lines.append(word)
        if len(lines) <= max_lines and all(font.width(line, size) <= width for line in lines):
            return size, lines
        size -= 1
    return None


class _Pen:
    """Draws text in one colour on the box page, converting mm (y down from the trim's top-left) to pt."""

    def __init__(self, canvas, trim_h_mm: float, bleed_pt: float, colour: CMYKColor) -> None:
        self.canvas, self.trim_h, self.bleed, self.colour = canvas, trim_h_mm, bleed_pt, colour

    def pt(self, x: float, y: float) -> tuple[float, float]:
        """A point in mm (y down) as PDF pt."""
        return self.bleed + mm_to_pt(x), self.bleed + mm_to_pt(self.trim_h - y)

    def lines(self, lines: list[str], font: FontFace, size: float, cx: float, top: float) -> float:
        """Centred lines from ``top`` mm down (first baseline one ascent below); returns the mm below the last line."""
        self.canvas.setFillColor(self.colour)
        self.canvas.setFont(font.name, size)
        y = top + pt_to_mm(font.ascent * size)
        for line in lines:
            self.canvas.drawCentredString(*self.pt(cx, y), line)
            y += pt_to_mm(size * LEADING)
        return y - pt_to_mm(size * LEADING) + pt_to_mm(-font.descent * size)

    def rotated(self, text: str, font: FontFace, size: float, panel: Rect, angle: float = 90) -> None:
        """One line centred on a panel, turned ``angle`` degrees anticlockwise (90: reading bottom to top)."""
        self.canvas.saveState()
        self.canvas.setFillColor(self.colour)
        self.canvas.setFont(font.name, size)
        cx, cy = panel.centre
        self.canvas.translate(*self.pt(cx, cy))
        self.canvas.rotate(angle)
        middle = (font.ascent + font.descent) * size / 2
        self.canvas.drawCentredString(0, -middle, text)
        self.canvas.restoreState()


def braille_extent(laid: tuple[tuple[str, ...], tuple[float, float]], plan: BoxPlan) -> tuple[float, float]:
    """Top and bottom (mm from the trim's top, y down) of a laid braille block ``(lines, origin)``
    as :func:`pipeline.boxes.plan.lay_braille` placed it: dot edges included."""
    lines, (_, y) = laid
    p = plan.profile
    return y, y + 2 * p.dot_pitch + p.dot_base + (len(lines) - 1) * p.line_pitch


def block_height(size: float, count: int, font: FontFace) -> float:
    """Height in mm of ``count`` lines at ``size`` pt (ascent of the first to descent of the last)."""
    return pt_to_mm((font.ascent - font.descent) * size + (count - 1) * size * LEADING)


def _fit_heads(plan: BoxPlan, width: float, room: float, findings: list[Finding]) -> list[tuple[FontFace, tuple[float, list[str]]]]:
    """The title (18–28 pt) and the name (bold, 18–36 pt) at the largest sizes, taken down a point
    at a time together, whose lines fit ``width`` pt and stand within ``room`` mm; BX002 when a text
    does not fit 2 lines at 18 pt, or both do not fit the room even at 18 pt (then drawn at 18 pt)."""
    regular, bold = face("regular"), face("bold")
    panel = plan.dieline.panels["front"]
    heads = []
    for shrink in range(0, 19):
        heads = []
        for text, font, largest in ((plan.title, regular, 28), (plan.name, bold, 36)):
            fitted = fit_lines(text, font, width, max(MIN_PRINT_PT, largest - shrink))
            if fitted is None:
                if shrink == 0:
                    findings.append(PANEL_TOO_SMALL_PRINT.finding(
                        f"box {plan.box_id!r}: {text!r} does not fit the front panel ({panel.w:.1f} mm wide) in 2 lines at {MIN_PRINT_PT:g} pt",
                        plan.spec.where(), "make the cards (and so the box) wider, or give the box a shorter name:"))
                continue
            heads.append((font, fitted))
        if sum(block_height(size, len(lines), font) + 2 for font, (size, lines) in heads) <= room:
            return heads
    findings.append(PANEL_TOO_SMALL_PRINT.finding(
        f"box {plan.box_id!r}: the title and name do not fit above the front's braille even at {MIN_PRINT_PT:g} pt",
        plan.spec.where(), "make the cards (and so the box) taller, or shorten the game title (its braille fills the front)"))
    return heads


def _front(pen: _Pen, plan: BoxPlan, notch: float, findings: list[Finding]) -> bool:
    """The front's print above its braille block; False when the contents line had no room there."""
    panel = plan.dieline.panels["front"]
    regular, bold = face("regular"), face("bold")
    width = mm_to_pt(panel.w - 2 * PRINT_MARGIN_MM)
    cx = panel.centre[0]
    top = panel.y + notch + PRINT_MARGIN_MM
    floor = panel.y + panel.h - PRINT_MARGIN_MM
    if plan.braille_front is not None:  # the print stops BRAILLE_GAP_MM above the braille block
        floor = min(floor, braille_extent(plan.braille_front, plan)[0] - BRAILLE_GAP_MM)
    info_h = block_height(MIN_PRINT_PT, len(plan.info), regular)
    label = fit_lines(plan.emblem, regular, width, 22, max_lines=1)
    label_h = block_height(label[0], 1, regular) if label else 0.0
    # Room kept below the title and name: the contents and a 16 mm badge with its label, else the
    # contents alone, else none (the contents then go to the back); the heads shrink to leave it.
    for keep in (info_h + 16 + label_h + 4, info_h, 0.0):
        quiet: list[Finding] = []
        heads = _fit_heads(plan, width, floor - top - keep, quiet)
        if not quiet or keep == 0.0:
            break
    findings += quiet
    for font, (size, lines) in heads:
        top = pen.lines(lines, font, size, cx, top) + 2
    foot = floor - info_h
    if foot < top:  # a long braille title fills the front: the contents go to the back (:func:`_back`)
        return False
    pen.lines(list(plan.info), regular, MIN_PRINT_PT, cx, foot)
    room = foot - top - label_h - 4
    diameter = min(room, panel.w * 0.45, 34.0)
    if diameter >= 12:  # a ring under 12 mm cannot hold its letter at 18 pt with air round it
        centre_y = top + (room - diameter) / 2 + diameter / 2
        _badge(pen, plan, (cx, centre_y), diameter)
        if label:
            pen.lines(label[1], regular, label[0], cx, centre_y + diameter / 2 + 2)
    return True


def _badge(pen: _Pen, plan: BoxPlan, centre: tuple[float, float], diameter: float) -> None:
    """The emblem badge: an accent ring with the indicator letter of the class the box wears."""
    canvas = pen.canvas
    ring = cmyk(plan.palette.accent or plan.palette.text)
    canvas.saveState()
    canvas.setStrokeColor(ring)
    canvas.setLineWidth(mm_to_pt(1.2))
    canvas.circle(*pen.pt(*centre), mm_to_pt(diameter / 2 - 0.6), stroke=1, fill=0)
    canvas.restoreState()
    bold = face("bold")
    size = max(MIN_PRINT_PT, mm_to_pt(diameter * 0.45) / 0.7)  # cap height about 0.7 em: the letter half the ring
    canvas.setFillColor(pen.colour)
    canvas.setFont(bold.name, size)
    middle = pt_to_mm((bold.ascent + bold.descent) * size / 2)
    canvas.drawCentredString(*pen.pt(centre[0], centre[1] + middle), plan.indicator)


def _back(pen: _Pen, plan: BoxPlan, with_info: bool, findings: list[Finding]) -> None:
    """The back: heading, QR, the note; ``with_info``: the contents line at its foot (the front had no
    room above its braille), the note then only where it still fits; BX002 when the contents do not."""
    panel = plan.dieline.panels["back"]
    regular, bold = face("regular"), face("bold")
    width = mm_to_pt(panel.w - 2 * PRINT_MARGIN_MM)
    cx = panel.centre[0]
    top = pen.lines(["Quickstart"], bold, 28, cx, panel.y + PRINT_MARGIN_MM + 6) + 2
    fitted = fit_lines("Scan for the rules to read or hear", regular, width, 20)
    if fitted:
        pen.lines(fitted[1], regular, fitted[0], cx, top)
    qr = plan.qr
    x, y = pen.pt(qr.x, qr.y + qr.h)
    draw_qr(pen.canvas, plan.url, (x, y, mm_to_pt(qr.w), mm_to_pt(qr.h)))
    below_qr, floor = qr.y + qr.h + PRINT_MARGIN_MM, panel.y + panel.h - PRINT_MARGIN_MM
    if with_info:
        info_top = floor - block_height(MIN_PRINT_PT, len(plan.info), regular)
        if info_top < below_qr:
            findings.append(PANEL_TOO_SMALL_PRINT.finding(
                f"box {plan.box_id!r}: neither the front (above its braille) nor the back (below the QR code) holds "
                f"{' / '.join(plan.info)!r} at {MIN_PRINT_PT:g} pt", plan.spec.where(),
                "make the cards (and so the box) taller, or shorten the game title (its braille fills the front)"))
        else:
            pen.lines(list(plan.info), regular, MIN_PRINT_PT, cx, info_top)
        floor = info_top - 2
    note = fit_lines(BACK_NOTE, regular, width, 20, max_lines=3)
    if note and below_qr + block_height(note[0], len(note[1]), regular) <= floor:
        pen.lines(note[1], regular, note[0], cx, below_qr)


def _narrow(pen: _Pen, plan: BoxPlan) -> None:
    """The sides (rotated) and the top lid: one line each, only where 18 pt fits."""
    regular, bold = face("regular"), face("bold")
    line = plan.dieline
    for key, text, font in (("side-left", plan.title, regular), ("side-right", plan.name, bold), ("top-lid", plan.name, bold)):
        panel = line.panels[key]
        if key == "top-lid" and plan.braille_lid is not None:  # the print keeps to the part the braille leaves free
            top, bottom = braille_extent(plan.braille_lid, plan)
            turned_top = 2 * panel.centre[1] - bottom  # the lid's braille is turned half round about its centre
            panel = Rect(panel.x, panel.y, panel.w, max(turned_top - BRAILLE_GAP_MM - panel.y, 0.0))
        across, along = (panel.w, panel.h) if key.startswith("side") else (panel.h, panel.w)
        tallest = 28.0  # the largest size whose line fits across the panel, 1.5 mm clear of each edge
        while tallest >= MIN_PRINT_PT and block_height(tallest, 1, font) > across - 3.0:
            tallest -= 1
        fitted = fit_lines(text, font, mm_to_pt(along - 2 * PRINT_MARGIN_MM), tallest, max_lines=1)
        if fitted is None:
            continue
        size = fitted[0]
        # The lid hangs from the back: its print is turned half round so it reads from the front of the box.
        pen.rotated(text, font, size, panel, 90 if key.startswith("side") else 180)


def draw_box(canvas, plan: BoxPlan, bleed_pt: float, notch_mm: float, target: PrintTarget) -> list[Finding]:
    """Draw the ground (the whole bled page) and every panel's print of ``plan`` on the current page.

    Returns BX002 and BX006 findings (module docs)."""
    findings: list[Finding] = []
    pal = plan.palette
    w_mm, h_mm = plan.dieline.size
    canvas.setFillColor(cmyk(pal.background))
    canvas.rect(0, 0, mm_to_pt(w_mm) + 2 * bleed_pt, mm_to_pt(h_mm) + 2 * bleed_pt, stroke=0, fill=1)
    pen = _Pen(canvas, h_mm, bleed_pt, cmyk(pal.text))
    info_on_front = _front(pen, plan, notch_mm, findings)
    _back(pen, plan, not info_on_front, findings)
    _narrow(pen, plan)
    ratio = printed_contrast(tuple(pal.text.cmyk), tuple(pal.background.cmyk), target)
    if ratio < MIN_TEXT_CONTRAST:
        findings.append(BOX_CONTRAST.finding(
            f"box {plan.box_id!r}: its text prints at {ratio:.2f}:1 on its ground ({target.id}), under {MIN_TEXT_CONTRAST:g}:1",
            plan.spec.where(), "give the box the colours of a class whose palette passes PR002 (colours:)"))
    return findings

"""Where the card-per-page embosser file puts a card's braille: exactly where the UV layer does.

The UV layer (pipeline/render/tactile.py) draws a card's braille in the card layout's braille
box (``templates/layouts/card-3x5-portrait.yaml``: 0.25 in from the left, 1.3 in from the top,
below the QR code and its 1 mm clearance), dot 1 of the first cell half a dot base inside the
box's top-left corner. An operator who embosses pre-printed cards must get the same place, or
the dots crush the QR code. So the card file's first line and cell are the box's top-left,
and the sidecar states it in mm.

How an embosser gets there depends on its profile's ``start_offset``:

- ``adjustable``: the first line and cell can be set anywhere at or inside the margins
  (card-stock embossers take a top and left offset): line 1 of the file is the box's first
  line, and the operator sets the offsets the sidecar gives.
- ``fixed``: lines start at the top margin and follow every ``line_pitch`` (cells likewise):
  the file begins with blank lines and cells up to the box, which must then lie a whole
  number of lines and cells (± :data:`START_TOLERANCE_MM`) from the margins; else the job
  is refused with :class:`CardStartError`.

The embosser's cell and line pitch must equal the braille geometry's (the UV layer's), or
the dots of the two would not coincide: refused too.
"""

from __future__ import annotations

from dataclasses import dataclass

from pipeline.braille.geometry import GeometryProfile
from pipeline.emboss.profiles import CARD_MARGIN_MM, EmbossError, EmbosserProfile, PageFormat
from engine.units import pt_to_mm

#: How far (mm) a fixed-start embosser's nearest line or cell may lie from the box: a quarter of
#: the UV printer's misregistration of about 1 mm (templates/layouts/card-3x5-portrait.yaml).
START_TOLERANCE_MM = 0.25
#: Largest pitch difference (mm) between embosser and braille geometry that still lands every
#: dot of a 10-cell × 9-line box within about 0.5 mm of its UV dot.
PITCH_TOLERANCE_MM = 0.05


class CardStartError(EmbossError):
    """The profile cannot put the braille where the card layout's braille box is."""


@dataclass(frozen=True)
class CardStart:
    """The braille's place on a card page, mm from the card's top-left (x right, y down).

    ``box_mm`` is the braille box's top-left (the first cell's top-left corner); ``lead_lines``
    and ``lead_cells`` the blank lines and cells the file writes before it (0 with an adjustable
    start); ``first_dot_mm`` the centre of dot 1 of the first cell.
    """

    box_mm: tuple[float, float]
    first_dot_mm: tuple[float, float]
    lead_lines: int
    lead_cells: int
    line_pitch_mm: float
    cell_pitch_mm: float
    start_offset: str

    def row_top_mm(self, row: int) -> float:
        """Top edge (mm from the card's top) of the cells of page row ``row`` (0-based, lead rows included)."""
        return self.box_mm[1] + (row - self.lead_lines) * self.line_pitch_mm

    def sidecar(self) -> dict:
        """The position as the BRF sidecar states it."""
        return {
            "braille_box_top_left_mm": [round(v, 2) for v in self.box_mm],
            "first_dot_centre_mm": [round(v, 2) for v in self.first_dot_mm],
            "start_offset": self.start_offset,
            "lead_blank_lines": self.lead_lines,
            "lead_blank_cells": self.lead_cells,
            "line_pitch_mm": round(self.line_pitch_mm, 3),
            "cell_pitch_mm": round(self.cell_pitch_mm, 3),
            "how": (f"set the embosser's first line {self.box_mm[1]:.2f} mm from the card's top edge and its first cell "
                    f"{self.box_mm[0]:.2f} mm from the left edge (top-left of the cell), where the UV layer's braille box is"
                    if self.start_offset == "adjustable" else
                    f"the file's {self.lead_lines} blank lines and {self.lead_cells} blank cells bring the braille to "
                    f"{self.box_mm[1]:.2f} mm from the top and {self.box_mm[0]:.2f} mm from the left"),
        }


def _margins(profile: EmbosserProfile) -> tuple[float, float, float]:
    """(left, top, bottom) margins in mm of a loose card on this profile."""
    if profile.paper.kind == "card":
        m = profile.margins
        return pt_to_mm(m.left), pt_to_mm(m.top), pt_to_mm(m.bottom)
    return CARD_MARGIN_MM, CARD_MARGIN_MM, CARD_MARGIN_MM


def _whole_steps(offset: float, pitch: float, what: str, profile: EmbosserProfile, origin: float) -> int:
    steps = round(offset / pitch)
    if abs(offset - steps * pitch) > START_TOLERANCE_MM:
        near = [origin + n * pitch for n in (int(offset // pitch), int(offset // pitch) + 1)]
        raise CardStartError(
            f"embosser profile {profile.id!r} ({profile.model}) starts its {what}s at {origin:.2f} mm and moves in "
            f"{pitch:.2f} mm steps: it cannot start the braille at {origin + offset:.2f} mm, where the card layout's "
            f"braille box (and the UV layer) puts it, below the QR code; its nearest {what}s are at "
            f"{near[0]:.2f} and {near[1]:.2f} mm. Use a card-stock profile with start_offset: adjustable (card-3x5), "
            "or the sheet layout")
    return steps


def card_start(profile: EmbosserProfile, fmt: PageFormat, box_mm: tuple[float, float], cells: int, lines: int,
               geometry: GeometryProfile) -> tuple[PageFormat, CardStart]:
    """The page format and braille position of the card layout on ``profile``.

    ``fmt`` is the profile's card page (:meth:`EmbosserProfile.card_format`); ``box_mm`` the
    braille box's top-left (mm from the trim's top-left); ``cells`` × ``lines`` what the box
    holds at ``geometry`` (the braille stage's capacity). The page format returned holds the
    lead blank lines and cells plus the box. Raises :class:`CardStartError` when the profile
    cannot start there, its pitch differs from the geometry's, or the box leaves its margins.
    """
    for name, ours, theirs in (("cell", profile.cell_pitch_mm, geometry.cell_pitch), ("line", profile.line_pitch_mm, geometry.line_pitch)):
        if abs(ours - theirs) > PITCH_TOLERANCE_MM:
            raise CardStartError(
                f"embosser profile {profile.id!r} embosses at a {ours:.2f} mm {name} pitch, the card's braille "
                f"(and UV layer) is laid out at {theirs:.2f} mm ({geometry.name}): the dots would not coincide")
    left, top, bottom = _margins(profile)
    bx, by = box_mm
    cell_h = 2 * geometry.dot_pitch + geometry.dot_base
    last = by + (lines - 1) * profile.line_pitch_mm + cell_h
    if bx < left - 1e-6 or by < top - 1e-6 or last > fmt.height_mm - bottom + 1e-6:
        raise CardStartError(
            f"the card layout's braille box ({bx:.2f}, {by:.2f} mm, {lines} lines to {last:.2f} mm) lies outside the "
            f"margins of embosser profile {profile.id!r} (left {left:.2f}, top {top:.2f}, bottom {bottom:.2f} mm)")
    if profile.start_offset == "adjustable":
        lead_lines = lead_cells = 0
    else:
        lead_lines = _whole_steps(by - top, profile.line_pitch_mm, "line", profile, top)
        lead_cells = _whole_steps(bx - left, profile.cell_pitch_mm, "cell", profile, left)
    page = PageFormat(fmt.profile, fmt.width_mm, fmt.height_mm, lead_cells + cells, lead_lines + lines)
    if page.cells_per_line > fmt.cells_per_line:  # lines were checked against the bottom margin above
        raise CardStartError(
            f"embosser profile {profile.id!r}: {page.cells_per_line} cells from its left margin to the end of the "
            f"braille box exceed its card line of {fmt.cells_per_line} cells")
    r = geometry.dot_radius
    start = CardStart((bx, by), (bx + r, by + r), lead_lines, lead_cells, profile.line_pitch_mm, profile.cell_pitch_mm,
                      profile.start_offset)
    return page, start

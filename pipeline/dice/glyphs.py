"""Numeral outlines from the card font (Atkinson Hyperlegible Bold) via fontTools, in mm.

The die sheet draws the numeral as text (reportlab, the same font file) and the 3D model
engraves these outlines, so both carry the same glyphs. Curves are flattened into
:data:`CURVE_STEPS` straight segments each (at 36 pt a step is under 0.1 mm off the curve).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont
from reportlab.pdfbase import pdfmetrics

from pipeline.render.fonts import face

CURVE_STEPS = 6
UNDERLINE_GAP, UNDERLINE_RULE = 0.1, 0.07  #: em: gap under the baseline and rule thickness (6 and 9)
PT_MM = 25.4 / 72

Contour = tuple[tuple[float, float], ...]


class _FlatPen(BasePen):
    """Collects contours as point lists, curves flattened (font units, y up)."""

    def __init__(self, glyphset) -> None:
        super().__init__(glyphset)
        self.contours: list[list[tuple[float, float]]] = []

    def _moveTo(self, pt):
        self.contours.append([pt])

    def _lineTo(self, pt):
        self.contours[-1].append(pt)

    def _curveToOne(self, p1, p2, p3):
        (x0, y0) = self.contours[-1][-1]
        for i in range(1, CURVE_STEPS + 1):
            t = i / CURVE_STEPS
            u = 1 - t
            self.contours[-1].append((u**3 * x0 + 3 * u * u * t * p1[0] + 3 * u * t * t * p2[0] + t**3 * p3[0],
                                      u**3 * y0 + 3 * u * u * t * p1[1] + 3 * u * t * t * p2[1] + t**3 * p3[1]))

    def _qCurveToOne(self, p1, p2):
        (x0, y0) = self.contours[-1][-1]
        for i in range(1, CURVE_STEPS + 1):
            t = i / CURVE_STEPS
            u = 1 - t
            self.contours[-1].append((u * u * x0 + 2 * u * t * p1[0] + t * t * p2[0], u * u * y0 + 2 * u * t * p1[1] + t * t * p2[1]))

    def _closePath(self):
        if len(self.contours[-1]) > 1 and self.contours[-1][0] == self.contours[-1][-1]:
            self.contours[-1].pop()


@lru_cache(maxsize=2)
def _font(weight: str) -> TTFont:
    # the very file reportlab registered for the print (so sheet text and engraved outline match)
    return TTFont(pdfmetrics.getFont(face(weight).name).face.filename)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Numeral:
    """A numeral's outline at a size: ``contours`` in mm, origin at the pen start on the baseline,
    x right, **y down** (the sheet's frame); ``ink`` its (left, top, width, height) box, mm."""

    text: str
    size_pt: float
    contours: tuple[Contour, ...]
    ink: tuple[float, float, float, float]


@lru_cache(maxsize=64)
def _outline(text: str, weight: str) -> tuple[tuple[Contour, ...], int]:
    """``text``'s contours in font units (pen x added, y negated: y down), curves flattened, and the
    font's units per em. Drawn once per text: the plan tries the numeral at every size from 36 to
    18 pt, and fontTools' pen spent ~0.5 ms a glyph drawing the same outline again (issue 22)."""
    font = _font(weight)
    glyphs, cmap = font.getGlyphSet(), font.getBestCmap()
    contours: list[Contour] = []
    pen_x = 0.0
    for ch in text:
        name = cmap[ord(ch)]
        pen = _FlatPen(glyphs)
        glyphs[name].draw(pen)
        contours += [tuple((pen_x + x, -y) for x, y in c) for c in pen.contours if len(c) > 2]
        pen_x += glyphs[name].width
    return tuple(contours), font["head"].unitsPerEm


@lru_cache(maxsize=512)
def numeral(text: str, size_pt: float, underline: bool = False, weight: str = "bold") -> Numeral:
    """The outline of ``text`` at ``size_pt`` (Atkinson Hyperlegible, ``weight``), with an underline
    rule :data:`UNDERLINE_GAP` em below the baseline when ``underline`` (6 and 9 on a die).

    Each point is its font-unit point (:func:`_outline`) times ``size_pt`` mm/pt / units per em:
    the same two float products as scaling while drawing, so the same mm to the bit."""
    units, per_em = _outline(text, weight)
    scale = size_pt * PT_MM / per_em
    contours: list[Contour] = [tuple((x * scale, y * scale) for x, y in c) for c in units]
    xs = [x for c in contours for x, _ in c]
    ys = [y for c in contours for _, y in c]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    if underline:
        em = size_pt * PT_MM
        y0, y1 = UNDERLINE_GAP * em, (UNDERLINE_GAP + UNDERLINE_RULE) * em
        contours.append(((left, y0), (left, y1), (right, y1), (right, y0)))
        bottom = y1
    return Numeral(text, size_pt, tuple(contours), (left, top, right - left, bottom - top))

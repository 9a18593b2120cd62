"""Die face sheets: one PDF per die, every face at actual size with numeral, braille and orientation bar.

Face size from the die's stated ``size`` (the caliper measure dice makers quote):

- D6 (``square``): a cube; size = face-to-face distance = edge, so the face is a square of side ``size``.
- D12 (``pentagon``): a regular dodecahedron; size = face-to-face distance = 2 × inradius
  = edge × √(5/2 + 11/(2√5)) ≈ 2.2270 × edge, so a 35 mm D12 has pentagon faces of 15.72 mm edge.
- D4 (``triangle``): a regular tetrahedron has no parallel faces; size = height from a face
  to the opposite vertex = edge × √(2/3), so a 30 mm D4 has triangle faces of 36.74 mm edge.

(Regular-polyhedron formulas: H. S. M. Coxeter, *Regular Polytopes*, table I.) Each face is
drawn with a flat edge at the bottom. Content — the print numeral (Atkinson Hyperlegible Bold,
6 and 9 underlined), the braille cells as dots at the geometry profile's base diameter and
spacing — is centred on the face's incentre, braille below the numeral or to its left
(``braille_position``); the orientation bar lies along the bottom edge, at least
:data:`GAP_MM` below the content, so a reader knows which way is up. The numeral is the
largest size from 36 pt down to 18 pt (no print below 18 pt, DESIGN.md §4) at which everything
stays :data:`MARGIN_MM` inside every face of the die (one size for all faces); when even 18 pt does not fit, a DI002 finding says so
and the face is drawn at 18 pt anyway. A key explains the braille code and a 10 mm scale bar
lets the maker check that the sheet printed at actual size. Colours are CMYK (black, K 100).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import CMYKColor
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfgen.canvas import Canvas

from engine.findings import Finding, Severity
from engine.model import Deck, Die
from engine.registry import declare
from engine.units import mm_to_pt, pt_to_mm
from pipeline.braille.dice import DieFace, encode_die, key_text
from pipeline.braille.geometry import PROFILES, GeometryProfile, dot_centres, get_profile
from pipeline.common.files import atomic_path
from pipeline.render.fonts import face as font_face

FACE_TOO_SMALL = declare(
    "DI002",
    "die-face-too-small",
    Severity.error,
    """A die face cannot hold its print numeral (at 18 pt) plus its braille and orientation bar.

    The face size follows from the die's ``size`` (see ``deckpress`` docs, die sheets);
    content must stay 1 mm inside the face.

    Fails: ``{faces: 12, size: 15mm, shape: pentagon}`` (6.7 mm pentagon edges).
    Passes: ``{faces: 12, size: 35mm, shape: pentagon}`` (15.7 mm edges).
    """,
)

MARGIN_MM = 1.0  #: clear space between content and the face edge (die corners are rounded)
GAP_MM = 1.0  #: space between numeral, braille and bar
BAR_MM = (6.0, 0.6)  #: orientation bar, width × height, MARGIN_MM above the bottom edge
MAX_PT, MIN_PT = 36, 18  #: numeral size range (DESIGN.md §4: no print below 18 pt)
_INK = CMYKColor(0, 0, 0, 1)
_PAGE = letter  #: US Letter, 612 × 792 pt
_PAGE_MARGIN = 36.0  #: pt
_TEXT_PT = 18.0

#: Regular polygon sides and face edge per die size, by face shape (see module docs).
_SIDES = {"triangle": 3, "square": 4, "pentagon": 5}
_EDGE_PER_SIZE = {
    "square": 1.0,
    "pentagon": 1 / math.sqrt(5 / 2 + 11 / (2 * math.sqrt(5))),
    "triangle": 1 / math.sqrt(2 / 3),
}

Rect = tuple[float, float, float, float]  # x, y (top-left), width, height in mm, y down


@dataclass(frozen=True)
class FaceGeometry:
    """A die face as a regular polygon, mm, centred on its incentre, y down, flat edge at the bottom."""

    sides: int
    edge: float
    circumradius: float
    inradius: float
    vertices: tuple[tuple[float, float], ...]

    def contains(self, x: float, y: float, inset: float = 0.0) -> bool:
        """True when (x, y) lies inside the face shrunk by ``inset`` mm on every edge."""
        for k in range(self.sides):
            phi = math.pi / 2 + 2 * math.pi * k / self.sides  # outward normal of edge k
            if x * math.cos(phi) + y * math.sin(phi) > self.inradius - inset + 1e-9:
                return False
        return True


def face_geometry(die: Die) -> FaceGeometry:
    """The face polygon of a die from its ``size`` and ``shape`` (formulas in the module docs)."""
    n = _SIDES[die.shape.value]
    edge = pt_to_mm(die.size) * _EDGE_PER_SIZE[die.shape.value]
    circumradius = edge / (2 * math.sin(math.pi / n))
    start = math.pi / 2 + math.pi / n  # first vertex just right of the bottom edge's midpoint
    vertices = tuple(
        (circumradius * math.cos(start + 2 * math.pi * k / n), circumradius * math.sin(start + 2 * math.pi * k / n))
        for k in range(n)
    )
    return FaceGeometry(n, edge, circumradius, circumradius * math.cos(math.pi / n), vertices)


@dataclass(frozen=True)
class FacePlan:
    """Where one face's content goes, in face mm (incentre origin, y down).

    ``numeral_pt`` is the numeral size; ``baseline`` the numeral's (x_left, y_baseline);
    ``numeral_box`` includes the underline; ``braille_box`` is the top-left and size of the
    cells (dots via :func:`dot_centres` from its corner); ``bar`` the orientation bar;
    ``fits`` whether everything is :data:`MARGIN_MM` inside the face.
    """

    face: DieFace
    numeral_pt: float
    baseline: tuple[float, float]
    numeral_box: Rect
    braille_box: Rect
    bar: Rect
    fits: bool


def _numeral_size(numeral: str, underline: bool, size: float, font: str) -> tuple[float, float, float]:
    """(width, cap height, total height incl. underline) of a numeral in mm."""
    width = pt_to_mm(pdfmetrics.stringWidth(numeral, font, size))
    cap = pt_to_mm(size * pdfmetrics.getFont(font).face.capHeight / 1000)
    extra = pt_to_mm(size * 0.17) if underline else 0.0  # gap 0.1 em + rule 0.07 em
    return width, cap, cap + extra


def braille_size(cells: str, profile: GeometryProfile) -> tuple[float, float]:
    """Width and height in mm of one line of cells, outer dot edges included (cf. geometry.capacity)."""
    return (len(cells) - 1) * profile.cell_pitch + profile.dot_pitch + profile.dot_base, 2 * profile.dot_pitch + profile.dot_base


def _place(face: DieFace, position: str, geom: FaceGeometry, profile: GeometryProfile, font: str, size: float) -> FacePlan:
    """Numeral and braille centred on the incentre (braille below or left); the bar along the bottom edge."""
    nw, cap, nh = _numeral_size(face.numeral, face.underline, size, font)
    bw, bh = braille_size(face.cells, profile)
    if position == "left":
        row_h = max(nh, bh)
        left, top = -(bw + GAP_MM + nw) / 2, -row_h / 2
        braille = (left, top + (row_h - bh) / 2, bw, bh)
        numeral = (left + bw + GAP_MM, top + (row_h - nh) / 2, nw, nh)
    else:
        top = -(nh + GAP_MM + bh) / 2
        numeral = (-nw / 2, top, nw, nh)
        braille = (-bw / 2, top + nh + GAP_MM, bw, bh)
    barw, barh = BAR_MM
    bar = (-barw / 2, geom.inradius - MARGIN_MM - barh, barw, barh)
    gap_ok = bar[1] - (max(numeral[1] + numeral[3], braille[1] + braille[3])) >= GAP_MM - 1e-9
    fits = gap_ok and all(
        geom.contains(x, y, MARGIN_MM)
        for rx, ry, rw, rh in (numeral, braille, bar)
        for x, y in ((rx, ry), (rx + rw, ry), (rx, ry + rh), (rx + rw, ry + rh))
    )
    return FacePlan(face, size, (numeral[0], numeral[1] + cap), numeral, braille, bar, fits)


@dataclass(frozen=True)
class DieSheet:
    """A written die sheet: ``path``, the die id, one plan per face, the DI findings, and where
    each face went: ``centres[i] = (page index, x, y)`` of face i's incentre in PDF pt
    (origin bottom-left of the page)."""

    path: Path
    die_id: str
    faces: tuple[FacePlan, ...]
    findings: tuple[Finding, ...]
    centres: tuple[tuple[int, float, float], ...] = ()


def plan_die(die: Die, profile: GeometryProfile) -> tuple[FaceGeometry, tuple[FacePlan, ...], list[Finding]]:
    """Encode and lay out every face of a die; findings are DI001 (encoding) and DI002 (too small).

    All faces share one numeral size: the largest in [18, 36] pt at which every face fits.
    """
    font = font_face("bold").name
    geom = face_geometry(die)
    faces, findings = encode_die(die)
    plans: tuple[FacePlan, ...] = ()
    for size in range(MAX_PT, MIN_PT - 1, -1):  # one numeral size for the whole die
        plans = tuple(_place(f, die.braille_position, geom, profile, font, float(size)) for f in faces)
        if all(p.fits for p in plans):
            break
    for p in plans:
        if not p.fits:
            findings.append(FACE_TOO_SMALL.finding(
                f"{die.name} face {p.face.numeral}: a {die.shape.value} face of {geom.edge:.1f} mm edge "
                f"(die size {pt_to_mm(die.size):.1f} mm) cannot hold the numeral at {MIN_PT} pt plus braille "
                f"{p.face.cells} at {profile.name} with {MARGIN_MM:g} mm margins",
                die.where("size"), "use a larger die, or a smaller braille geometry profile"))
    return geom, plans, findings


def _draw_face(c: Canvas, plan: FacePlan, geom: FaceGeometry, profile: GeometryProfile, centre: tuple[float, float], font: str) -> None:
    cx, cy = centre
    c.setFillColor(_INK)
    c.setStrokeColor(_INK)

    def pt(x: float, y: float) -> tuple[float, float]:
        return cx + mm_to_pt(x), cy - mm_to_pt(y)

    path = c.beginPath()
    path.moveTo(*pt(*geom.vertices[0]))
    for v in geom.vertices[1:]:
        path.lineTo(*pt(*v))
    path.close()
    c.setLineWidth(0.5)
    c.drawPath(path, stroke=1, fill=0)
    c.setFont(font, plan.numeral_pt)
    c.drawString(*pt(*plan.baseline), plan.face.numeral)
    if plan.face.underline:
        x, y, w, _ = plan.numeral_box
        c.rect(*pt(x, plan.baseline[1] + pt_to_mm(0.17 * plan.numeral_pt)), mm_to_pt(w), 0.07 * plan.numeral_pt, stroke=0, fill=1)
    bx, by, _, _ = plan.braille_box
    for dot in dot_centres([plan.face.cells], profile, (bx, by)):
        c.circle(*pt(dot.x, dot.y), mm_to_pt(profile.dot_radius), stroke=0, fill=1)
    x, y, w, h = plan.bar
    c.rect(*pt(x, y + h), mm_to_pt(w), mm_to_pt(h), stroke=0, fill=1)


def _paragraph(c: Canvas, text: str, font: str, top: float) -> float:
    """Draw wrapped text at 18 pt from ``top`` (pt, page coordinates); returns the y below it."""
    width = _PAGE[0] - 2 * _PAGE_MARGIN
    c.setFont(font, _TEXT_PT)
    c.setFillColor(_INK)
    for line in simpleSplit(text, font, _TEXT_PT, width):
        top -= _TEXT_PT * 1.25
        c.drawString(_PAGE_MARGIN, top, line)
    return top


def render_die_sheet(die: Die, path: str | Path, profile: GeometryProfile | None = None) -> DieSheet:
    """Write the face sheet PDF of one die (US Letter, actual size); returns it with its findings.

    ``profile`` defaults to spec800. Written atomically; byte-identical for the same input
    (reportlab ``invariant=1``). Raises :class:`pipeline.common.files.OutputError` when the path
    cannot be written.
    """
    profile = profile or get_profile("spec800")
    geom, plans, findings = plan_die(die, profile)
    regular, bold = font_face("regular").name, font_face("bold").name
    cell_w = mm_to_pt(2 * geom.circumradius) + 18
    cell_h = mm_to_pt(geom.circumradius + geom.inradius) + 18
    cols = max(1, int((_PAGE[0] - 2 * _PAGE_MARGIN) // cell_w))
    centres: list[tuple[int, float, float]] = []
    page = 0
    with atomic_path(path) as tmp:
        c = Canvas(str(tmp), pagesize=_PAGE, invariant=1, initialFontName=regular, initialFontSize=_TEXT_PT)
        c.setTitle(f"{die.name} face sheet")
        c.setFont(regular, _TEXT_PT)
        c.setFillColor(_INK)
        c.setStrokeColor(_INK)
        top = _paragraph(c, f"{die.name}: {die.faces} {die.shape.value} faces, actual size", bold, _PAGE[1] - _PAGE_MARGIN)
        top = _paragraph(c, f"Die {pt_to_mm(die.size):.0f} mm, face edge {geom.edge:.1f} mm; braille {profile.name}.", regular, top)
        top -= 6
        for i, plan in enumerate(plans):
            col = i % cols
            if col == 0 and i:
                top -= cell_h
            if col == 0 and top - cell_h < _PAGE_MARGIN:
                c.showPage()
                page += 1
                top = _PAGE[1] - _PAGE_MARGIN
            centre = (_PAGE_MARGIN + cell_w * (col + 0.5), top - 9 - mm_to_pt(geom.circumradius))
            _draw_face(c, plan, geom, profile, centre, bold)
            centres.append((page, *centre))
        top -= cell_h
        text = key_text(die) + " Each face: numeral, braille, and a bar along the bottom edge."
        if any(p.face.underline for p in plans):
            text += " Underlined numerals (6, 9) show which way is up."
        if top - 5 * _TEXT_PT * 1.25 - 30 < _PAGE_MARGIN:
            c.showPage()
            top = _PAGE[1] - _PAGE_MARGIN
        top = _paragraph(c, text, regular, top)
        c.rect(_PAGE_MARGIN, top - 14, mm_to_pt(10), 2, stroke=0, fill=1)
        c.drawString(_PAGE_MARGIN + mm_to_pt(10) + 6, top - 20, "10 mm")
        c.showPage()
        c.save()
    return DieSheet(Path(path), die.id, plans, tuple(findings), tuple(centres))


def render_dice(deck: Deck, out_dir: str | Path, profile: GeometryProfile | None = None) -> list[DieSheet]:
    """One sheet per die of the game, ``<out_dir>/die-<die id>.pdf``; profile defaults to the game's."""
    profile = profile or PROFILES.get(deck.game.braille.geometry, PROFILES["spec800"])  # BR005 reports a bad name
    return [render_die_sheet(die, Path(out_dir) / f"die-{die.id}.pdf", profile) for die in deck.game.dice]

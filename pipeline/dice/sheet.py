"""Die face sheets: one PDF per die, its net at actual size with every face's numeral, braille and bar.

The faces are the die's solid at its stated size (:mod:`pipeline.dice.solids`: shape and what
``size`` measures), unfolded into a net (:mod:`pipeline.dice.net`): cut along the solid lines,
fold along the dashed ones, and the paper die is the real die's size and numbering —
opposite faces add up to faces + 1 unless the data asks ``numbering: in-order``. Each
region's content is placed by :mod:`pipeline.dice.plan` (shared with the 3D model) and drawn
in the face's reading direction: the print numeral (Atkinson Hyperlegible Bold, 6 and 9
underlined), the braille cells as dots at the geometry profile's base diameter and spacing,
1.5 mm clear of the numeral, and the orientation bar below. Below the net: what the numbers
and the braille mean (the key), how to read the die, and a 10 mm scale bar to check the
sheet printed at actual size. When a net does not fit the page, the faces are drawn one by
one (still at true size and shape). Colours are CMYK (black, K 100).

The sheet is finished like the card PDFs (:func:`pipeline.render.pdfx.finish`): PDF/X-1a:2003,
a Title naming the game and the die, TrimBox and BleedBox on every page (the whole letter
page: the sheet is printed untrimmed and the net cut out along its own lines), and each
font subset tagged after its own glyphs (reportlab tags the regular and the bold subset
both ``AAAAAA+``). The build then sets Author and the dates from the game's data
(:func:`pipeline.build.release.document_info`).
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from reportlab.lib.colors import CMYKColor
from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen.canvas import Canvas

from engine.findings import Finding
from engine.model import Deck, Die, DieShape
from pipeline.braille.dice import key_text
from pipeline.braille.geometry import PROFILES, GeometryProfile, dot_centres, get_profile
from pipeline.dice.glyphs import PT_MM, numeral
from pipeline.dice.net import Placed, lay_flat, net_size, unfold
from pipeline.dice.plan import RegionPlan, plan_die
from pipeline.dice.solids import Solid
from pipeline.render.fonts import face as font_face
from pipeline.render.pdfx import FOGRA39, OutputCondition, finish

_INK = CMYKColor(0, 0, 0, 1)
_PAGE = letter  #: US Letter, 612 × 792 pt
_PAGE_MARGIN = 36.0  #: pt
_TEXT_PT = 18.0
_K = 72 / 25.4  #: pt per mm


@dataclass(frozen=True)
class DieSheet:
    """A written die sheet: ``path``, the die id, one plan per region (face order), the DI
    findings, ``centres[i] = (page index, x, y)`` of plan i's region origin in PDF pt (origin
    bottom-left of the page), and the ``net`` it drew (None when faces were drawn one by one)."""

    path: Path
    die_id: str
    faces: tuple[RegionPlan, ...]
    findings: tuple[Finding, ...]
    centres: tuple[tuple[int, float, float], ...] = ()
    net: tuple[Placed, ...] | None = None


def _paragraph(c: Canvas, text: str, font: str, top: float) -> float:
    """Draw wrapped text at 18 pt from ``top`` (pt, page coordinates); returns the y below it."""
    c.setFont(font, _TEXT_PT)
    c.setFillColor(_INK)
    for line in simpleSplit(text, font, _TEXT_PT, _PAGE[0] - 2 * _PAGE_MARGIN):
        top -= _TEXT_PT * 1.25
        c.drawString(_PAGE_MARGIN, top, line)
    return top


def _draw_region(c: Canvas, plan: RegionPlan, placed: Placed, origin: tuple[float, float], profile: GeometryProfile, font: str) -> tuple[float, float]:
    """Draw one region's content in its reading direction; returns its origin in page pt."""
    region = plan.region
    o = placed.to_net(region.origin)
    right = placed.matrix @ np.array(region.right)
    down = placed.matrix @ -np.array(region.up)
    x0, y0 = origin
    # region mm (u right, w up) → page pt; w = −v keeps text upright (no mirror)
    c.saveState()
    c.transform(_K * right[0], -_K * right[1], -_K * down[0], _K * down[1], x0 + _K * o[0], y0 - _K * o[1])
    c.setFillColor(_INK)
    c.setFont(font, plan.numeral_pt * PT_MM)
    c.drawString(plan.pen[0], -plan.pen[1], plan.face.numeral)
    if plan.face.underline:
        rule = numeral(plan.face.numeral, plan.numeral_pt, True).contours[-1]
        (l, t), (_, b), (r, _) = rule[0], rule[1], rule[2]
        c.rect(plan.pen[0] + l, -(plan.pen[1] + b), r - l, b - t, stroke=0, fill=1)
    bx, by, _, _ = plan.braille_box
    for dot in dot_centres([plan.face.cells], profile, (bx, by)):
        c.circle(dot.x, -dot.y, profile.dot_radius, stroke=0, fill=1)
    x, y, w, h = plan.bar
    c.rect(x, -(y + h), w, h, stroke=0, fill=1)
    c.restoreState()
    return x0 + _K * o[0], y0 - _K * o[1]


def _draw_outlines(c: Canvas, placed: list[Placed], origin: tuple[float, float]) -> None:
    """Cut lines solid, fold lines (edges two net faces share) dashed, 0.5 pt."""
    x0, y0 = origin
    edges: dict[tuple, int] = {}
    for p in placed:
        pts = [tuple(np.round(v, 4)) for v in p.outline]
        for a, b in zip(pts, pts[1:] + pts[:1]):
            key = tuple(sorted((a, b)))
            edges[key] = edges.get(key, 0) + 1
    c.setStrokeColor(_INK)
    c.setLineWidth(0.5)
    for (a, b), count in sorted(edges.items()):
        c.setDash(3, 2) if count > 1 else c.setDash()
        c.line(x0 + _K * a[0], y0 - _K * a[1], x0 + _K * b[0], y0 - _K * b[1])
    c.setDash()


def _layout(solid: Solid) -> tuple[list[Placed], tuple[float, float], bool]:
    """The net (or faces one by one in rows when no net fits the page below the header), its size in mm, and whether it is a net."""
    room = ((_PAGE[0] - 2 * _PAGE_MARGIN) / _K, (_PAGE[1] - 2 * _PAGE_MARGIN - 6 * _TEXT_PT * 1.25) / _K)
    net = unfold(solid)
    if net is not None:
        w, h = net_size(net)
        if w <= room[0] and h <= room[1]:
            return net, (w, h), True
    placed, x, y, row = [], 0.0, 0.0, 0.0
    for f in solid.faces:
        p = lay_flat(f)
        pts = np.array(p.outline)
        lo, size = pts.min(axis=0), np.ptp(pts, axis=0)
        if x and x + size[0] > room[0]:
            x, y, row = 0.0, y + row + 4, 0.0
        p = Placed(f, p.matrix, p.offset - lo + (x, y), tuple(map(tuple, pts - lo + (x, y))), None)
        placed.append(p)
        x, row = x + size[0] + 4, max(row, size[1])
    return placed, net_size(placed), False


def _notes(die: Die, plans: tuple[RegionPlan, ...], is_net: bool) -> str:
    how = ("Cut along the solid lines, fold along the dashed ones." if is_net else "Each face at true size and shape.")
    if die.shape is DieShape.d4_tetrahedron:
        rule = (" Read at the top point: every face shows three numerals, each standing with its top toward its corner and "
                "its braille below it toward the face centre; the roll is the number at the top corner, the same on the three faces you touch.")
    elif die.numbering == "opposites-sum":
        rule = f" Opposite faces add up to {die.faces + 1}."
        if die.shape is DieShape.d4_crystal_shard:
            rule = " It rests on a long face; the roll is the long face on top." + rule
    else:
        rule = ""
    marked = sorted({p.face.numeral for p in plans if p.face.underline}, key=int)
    under = (f" The underlined {'numeral ' + marked[0] if len(marked) == 1 else 'numerals ' + ', '.join(marked)} "
             "show" + ("s" if len(marked) == 1 else "") + " which way is up.") if marked else ""
    return f"{how}{rule} {key_text(die)} Each face: numeral, braille, and a bar below them.{under}"


def render_die_sheet(die: Die, path: str | Path, profile: GeometryProfile | None = None, title: str = "",
                     condition: OutputCondition = FOGRA39) -> DieSheet:
    """Write the face sheet PDF of one die (US Letter, actual size); returns it with its findings.

    ``profile`` defaults to spec800; ``title`` is the PDF's Title (default "<die name> face
    sheet"). Finished as PDF/X-1a:2003 with ``condition``'s output intent (module docs); written atomically; byte-identical for
    the same input (reportlab ``invariant=1``). Raises :class:`pipeline.common.files.OutputError`
    when the path cannot be written.
    """
    profile = profile or get_profile("spec800")
    solid, plans, findings = plan_die(die, profile)
    regular, bold = font_face("regular").name, font_face("bold").name
    placed, (w, h), is_net = _layout(solid)
    by_face = {p.face.index: p for p in placed}
    face_of = {id(r): f.index for f in solid.numbered for r in f.regions}
    centres: list[tuple[int, float, float]] = []
    size_mm = die.size * 25.4 / 72
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=_PAGE, invariant=1, initialFontName=regular, initialFontSize=_TEXT_PT)
    _page_boxes(c)
    c.setFillColor(_INK)
    c.setStrokeColor(_INK)
    top = _paragraph(c, f"{die.name}: {die.shape.value}, {die.faces} numbered {die.outline} faces, actual size", bold, _PAGE[1] - _PAGE_MARGIN)
    top = _paragraph(c, f"Die {size_mm:.0f} mm {die.measure.replace('-', ' ')}; braille {profile.name}.", regular, top)
    origin = ((_PAGE[0] - _K * w) / 2, top - 12)
    _draw_outlines(c, placed, origin)
    for plan in plans:
        centres.append((0, *_draw_region(c, plan, by_face[face_of[id(plan.region)]], origin, profile, bold)))
    top = origin[1] - _K * h - 12
    text = _notes(die, plans, is_net)
    labels = ["net" if is_net else "faces"]
    if top - len(simpleSplit(text, regular, _TEXT_PT, _PAGE[0] - 2 * _PAGE_MARGIN)) * _TEXT_PT * 1.25 - 30 < _PAGE_MARGIN:
        c.showPage()
        _page_boxes(c)
        labels.append("key")
        top = _PAGE[1] - _PAGE_MARGIN
    top = _paragraph(c, text, regular, top)
    c.setFillColor(_INK)
    c.rect(_PAGE_MARGIN, top - 14, _K * 10, 2, stroke=0, fill=1)
    c.drawString(_PAGE_MARGIN + _K * 10 + 6, top - 20, "10 mm")
    c.showPage()
    c.save()
    finish(buf.getvalue(), path, title or f"{die.name} face sheet", labels, subject=f"die {die.id}: face sheet at actual size",
           condition=condition)
    return DieSheet(Path(path), die.id, plans, tuple(findings), tuple(centres), tuple(placed) if is_net else None)


def _page_boxes(c: Canvas) -> None:
    """TrimBox and BleedBox of the page being drawn: the whole sheet (printed untrimmed)."""
    c.setTrimBox((0, 0, *_PAGE))
    c.setBleedBox((0, 0, *_PAGE))


def render_dice(deck: Deck, out_dir: str | Path, profile: GeometryProfile | None = None,
                condition: OutputCondition = FOGRA39) -> list[DieSheet]:
    """One sheet per die of the game, ``<out_dir>/die-<die id>.pdf``, titled "<game title>: <die> face sheet";
    profile defaults to the game's; ``condition`` is the output intent (the build's printing target)."""
    profile = profile or PROFILES.get(deck.game.braille.geometry, PROFILES["spec800"])  # BR005 reports a bad name
    return render_die_sheets(deck.game.dice, deck.game.title, out_dir, profile, condition)


def render_die_sheets(dice: Sequence[Die], title: str, out_dir: str | Path, profile: GeometryProfile,
                      condition: OutputCondition = FOGRA39) -> list[DieSheet]:
    """:func:`render_dice` from exactly what it reads: the dice, the game's ``title``, the profile and the
    output condition (the build keeps the sheets while these are unchanged, :mod:`pipeline.build.kept_stages`)."""
    return [render_die_sheet(die, Path(out_dir) / f"die-{die.id}.pdf", profile, f"{title}: {die.name} face sheet", condition)
            for die in dice]

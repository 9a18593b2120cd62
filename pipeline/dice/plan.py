"""Where a die face's numeral, braille and orientation bar go, in the face's own frame (mm).

One plan serves the face sheet and the 3D model. In a region's frame (x right, y down, up
the reading direction; :class:`pipeline.dice.solids.Region`) the content is a column centred
on x = 0: the numeral (its ink box, from the font's outlines), the braille cells
:data:`BRAILLE_CLEAR_MM` below it (or to its left, ``braille_position: left``, the numeral
beside them) and the bar :data:`GAP_MM` below both, so a reader knows which way is up. The
column sits as near the region's origin as it can while everything stays :data:`MARGIN_MM`
inside the region (die edges are rounded). The numeral is the largest size from 36 pt down
to 18 pt (DESIGN.md §4: no print below 18 pt) at which every region of the die fits; when
even 18 pt does not fit, DI002 says so and the face is planned at 18 pt anyway.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from engine.findings import Finding, Severity
from engine.model import Die
from engine.registry import declare
from pipeline.braille.dice import DieFace, encode_die
from pipeline.braille.geometry import GeometryProfile
from pipeline.dice.glyphs import numeral
from pipeline.dice.solids import Region, Solid, solid

FACE_TOO_SMALL = declare(
    "DI002",
    "die-face-too-small",
    Severity.error,
    """A die face cannot hold its print numeral (at 18 pt) plus its braille and orientation bar.

    The face size follows from the die's ``shape`` and ``size``; content must stay 1 mm inside
    the face, the braille 1.5 mm clear of the numeral. The die sheet and the 3D model share
    this plan, so the finding holds for both.

    Fails: ``{shape: d12-dodecahedron, faces: 12, size: 15mm}`` (6.7 mm pentagon edges).
    Passes: ``{shape: d12-dodecahedron, faces: 12, size: 35mm}`` (15.7 mm edges).
    """,
)

MARGIN_MM = 1.0  #: clear space between content and the face edge
BRAILLE_CLEAR_MM = 1.5  #: braille dots to numeral ink, at least (a finger must not meet the engraving first)
GAP_MM = 1.0  #: content to the orientation bar
BAR_MM = (6.0, 0.6)  #: orientation bar, width × height
MAX_PT, MIN_PT = 36, 18  #: numeral size range (DESIGN.md §4)
_STEP_MM = 0.25  #: how finely the column is moved off the origin to fit

Rect = tuple[float, float, float, float]  # left, top, width, height in mm, y down


def contains(polygon: tuple[tuple[float, float], ...], x: float, y: float, inset: float = 0.0) -> bool:
    """True when (x, y) is inside the convex ``polygon`` (mm) at least ``inset`` mm from every edge."""
    n = len(polygon)
    area = sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1] for i in range(n))
    sign = 1.0 if area > 0 else -1.0
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        if sign * ((bx - ax) * (y - ay) - (by - ay) * (x - ax)) / length < inset - 1e-9:
            return False
    return True


def braille_size(cells: str, profile: GeometryProfile) -> tuple[float, float]:
    """Width and height in mm of one line of cells, outer dot edges included (cf. geometry.capacity)."""
    return (len(cells) - 1) * profile.cell_pitch + profile.dot_pitch + profile.dot_base, 2 * profile.dot_pitch + profile.dot_base


@dataclass(frozen=True)
class RegionPlan:
    """One numeral's content in its region's frame (mm, y down): ``pen`` the numeral's pen origin
    on the baseline, ``numeral_box`` its ink (underline included), ``braille_box`` the cells'
    box (dots via :func:`pipeline.braille.geometry.dot_centres` from its corner), ``bar``;
    ``fits`` when all of it is :data:`MARGIN_MM` inside the region."""

    region: Region
    face: DieFace
    numeral_pt: float
    pen: tuple[float, float]
    numeral_box: Rect
    braille_box: Rect
    bar: Rect
    fits: bool


def _column(face: DieFace, position: str, profile: GeometryProfile, size: float) -> tuple[tuple[float, float], Rect, Rect, Rect, float]:
    """(pen, numeral ink, braille, bar) for a column whose top is y = 0 and centre x = 0; and its height."""
    glyph = numeral(face.numeral, size, face.underline)
    il, it, iw, ih = glyph.ink
    bw, bh = braille_size(face.cells, profile)
    barw, barh = BAR_MM
    if position == "left":
        row = max(ih, bh)
        left = -(bw + BRAILLE_CLEAR_MM + iw) / 2
        braille = (left, (row - bh) / 2, bw, bh)
        ink = (left + bw + BRAILLE_CLEAR_MM, (row - ih) / 2, iw, ih)
        bar_top = row + GAP_MM
    else:
        ink = (-iw / 2, 0.0, iw, ih)
        braille = (-bw / 2, ih + BRAILLE_CLEAR_MM, bw, bh)
        bar_top = braille[1] + bh + GAP_MM
    pen = (ink[0] - il, ink[1] - it)
    return pen, ink, braille, (-barw / 2, bar_top, barw, barh), bar_top + barh


def _inside(polygon: tuple[tuple[float, float], ...], xs: np.ndarray, ys: np.ndarray, inset: float) -> np.ndarray:
    """:func:`contains` for many points at once (arrays of one shape): the same arithmetic, per edge in order."""
    n = len(polygon)
    area = sum(polygon[i][0] * polygon[(i + 1) % n][1] - polygon[(i + 1) % n][0] * polygon[i][1] for i in range(n))
    sign = 1.0 if area > 0 else -1.0
    ok = np.ones(xs.shape, dtype=bool)
    for i in range(n):
        (ax, ay), (bx, by) = polygon[i], polygon[(i + 1) % n]
        length = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5
        ok &= ~(sign * ((bx - ax) * (ys - ay) - (by - ay) * (xs - ax)) / length < inset - 1e-9)
    return ok


def place(region: Region, face: DieFace, position: str, profile: GeometryProfile, size: float) -> RegionPlan:
    """The column of one region at numeral ``size`` pt, moved as little as it can off the origin to fit.

    Every shift (0, then ±0.25 mm, ±0.5 mm … over the region's height) is tried at once with numpy;
    the first that puts all twelve corners :data:`MARGIN_MM` inside the region wins.
    """
    pen, ink, braille, bar, height = _column(face, position, profile, size)
    ys = [y for _, y in region.polygon]
    reach = int((max(ys) - min(ys)) / _STEP_MM) + 1
    dys = [-height / 2 + (k + 1) // 2 * _STEP_MM * (1 if k % 2 else -1) for k in range(2 * reach + 1)]
    shift = np.array(dys)[:, None]
    xs, ys_ = [], []
    for rx, ry, rw, rh in (ink, braille, bar):  # each box moved, then its corners (the order of the sums as before)
        top = ry + shift
        xs += [np.full_like(top, rx), np.full_like(top, rx + rw), np.full_like(top, rx), np.full_like(top, rx + rw)]
        ys_ += [top, top, top + rh, top + rh]
    fits = _inside(region.polygon, np.hstack(xs), np.hstack(ys_), MARGIN_MM).all(axis=1)
    first = int(np.argmax(fits)) if fits.any() else None
    dy = dys[first] if first is not None else -height / 2
    moved = [(x, y + dy, w, h) for x, y, w, h in (ink, braille, bar)]
    return RegionPlan(region, face, size, (pen[0], pen[1] + dy), *moved, first is not None)  # type: ignore[arg-type]


#: The last plans made, by (die object, profile): the face sheet and the 3D model of one build plan
#: the same die object (each plan 45 ms CPU for apprentice's d6); the die is kept to check identity.
_PLANNED: dict[tuple[int, GeometryProfile], tuple[Die, tuple[Solid, tuple[RegionPlan, ...], list[Finding]]]] = {}


def plan_die(die: Die, profile: GeometryProfile) -> tuple[Solid, tuple[RegionPlan, ...], list[Finding]]:
    """The solid and one plan per region (face order; a tetrahedron has three per face).

    Findings: DI001 (a face the encoding cannot write, from the braille stage) and DI002 (a
    region too small at 18 pt), located at the die's ``size``. One numeral size for the die.
    Planned once per die object and profile (the plans are frozen; the findings list is a fresh copy).
    """
    kept = _PLANNED.get((id(die), profile))
    if kept is None or kept[0] is not die:
        if len(_PLANNED) >= 32:
            _PLANNED.clear()
        kept = _PLANNED[(id(die), profile)] = (die, _plan(die, profile))
    shape, plans, findings = kept[1]
    return shape, plans, list(findings)


def _plan(die: Die, profile: GeometryProfile) -> tuple[Solid, tuple[RegionPlan, ...], list[Finding]]:
    shape = solid(die)
    faces, findings = encode_die(die)
    by_value = {f.value: f for f in faces}
    regions = [r for f in shape.numbered for r in f.regions if r.value in by_value]
    plans: tuple[RegionPlan, ...] = ()
    for size in range(MAX_PT, MIN_PT - 1, -1):
        planned: list[RegionPlan] = []
        for r in regions:
            planned.append(place(r, by_value[r.value], die.braille_position, profile, float(size)))
            if not planned[-1].fits and size > MIN_PT:
                break  # the next size down is tried: this size's other plans would not be used
        plans = tuple(planned)
        if all(p.fits for p in plans):
            break
    for p in plans:
        if not p.fits:
            xs, ys = [x for x, _ in p.region.polygon], [y for _, y in p.region.polygon]
            findings.append(FACE_TOO_SMALL.finding(
                f"{die.name} face {p.face.numeral}: a {die.outline} face {max(xs) - min(xs):.1f} × {max(ys) - min(ys):.1f} mm "
                f"(die {die.size * 25.4 / 72:.1f} mm {die.measure}) cannot hold the numeral at {MIN_PT} pt plus braille "
                f"{p.face.cells} at {profile.name} with {MARGIN_MM:g} mm margins",
                die.where("size"), "use a larger die, or a smaller braille geometry profile"))
    return shape, plans, findings

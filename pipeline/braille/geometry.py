"""Physical braille geometry: dot size and spacing profiles, capacity of a box, dot centres.

All lengths are millimetres. Within a cell, dots are numbered 1–3 down the left
column and 4–6 down the right (7 and 8 below, for eight-dot cells); ``dot_pitch``
is the centre distance between neighbouring dots of one cell, ``cell_pitch`` the
distance between the same dot of neighbouring cells, ``line_pitch`` between lines.

Profiles (:data:`PROFILES`; each carries its full source in ``GeometryProfile.source``):

- ``spec800`` (default): US Library of Congress NLS Specification 800 (2014) §3.2 —
  base 1.44, height 0.48, dot 2.34, cell 6.2, line 10.16 mm.
- ``ada-signage``: 2010 ADA Standards for Accessible Design 703.3.1 — middle of each range.
- ``marburg-medium``: Marburg Medium (DIN 32976 reference size) — dot 2.5, cell 6.0, line 10.0 mm.
- ``california``: California Building Code 11B-703.3.1 — dot 2.5, cell 7.6, line 10.1 mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from pipeline.braille.cells import dots as cell_dots


@dataclass(frozen=True)
class GeometryProfile:
    """A braille dot geometry (mm). ``source`` names the standard and section it comes from."""

    name: str
    dot_base: float
    dot_height: float
    dot_pitch: float
    cell_pitch: float
    line_pitch: float
    source: str

    @property
    def dot_radius(self) -> float:
        """Half the dot base diameter (mm)."""
        return self.dot_base / 2


#: The profiles deckpress knows, by name (DESIGN.md §3).
PROFILES: dict[str, GeometryProfile] = {
    p.name: p
    for p in (
        GeometryProfile(
            "spec800", 1.44, 0.48, 2.34, 6.2, 10.16,
            "US Library of Congress NLS Specification 800 (2014) §3.2, as quoted by BANA: "
            "base 1.44 mm, height 0.48 mm, dot 2.34 mm, cell 6.2 mm, line 10.16 mm",
        ),
        GeometryProfile(
            "ada-signage", 1.55, 0.75, 2.4, 6.85, 10.1,
            "2010 ADA Standards 703.3.1 (Table 703.3.1): base 1.5–1.6, height 0.6–0.9, dot 2.3–2.5, "
            "cell 6.1–7.6, line 10.0–10.2 mm; deckpress uses the middle of each range",
        ),
        GeometryProfile(
            "marburg-medium", 1.5, 0.5, 2.5, 6.0, 10.0,
            "Marburg Medium (DIN 32976 reference size): dot 2.5, cell 6.0, line 10.0 mm; "
            "base 1.5 mm and height 0.5 mm are the common Marburg Medium values",
        ),
        GeometryProfile(
            "california", 1.55, 0.75, 2.5, 7.6, 10.1,
            "California Building Code 11B-703.3 (Table 11B-703.3.1): dot 2.5, cell 7.6, line 10.0–10.2 mm "
            "(10.1 used), base 1.5–1.6 and height 0.6–0.9 mm (middle used)",
        ),
    )
}


def get_profile(name: str) -> GeometryProfile:
    """The profile by name; raises ValueError listing the known names."""
    try:
        return PROFILES[name]
    except KeyError:
        raise ValueError(f"unknown braille geometry profile {name!r}; known: {', '.join(PROFILES)}") from None


def capacity(width_mm: float, height_mm: float, profile: GeometryProfile) -> tuple[int, int]:
    """How many ``(cells per line, lines)`` of six-dot braille fit in a box.

    A cell needs ``dot_pitch + dot_base`` across and ``2·dot_pitch + dot_base`` down;
    every further cell adds ``cell_pitch`` and every further line ``line_pitch``.
    A 63.5 × 114.3 mm box (3×5 in card, ¼ in margins) holds 10 × 11 at spec800.
    """
    eps = 1e-9
    cell_w = profile.dot_pitch + profile.dot_base
    cell_h = 2 * profile.dot_pitch + profile.dot_base
    cells = 0 if width_mm + eps < cell_w else math.floor((width_mm - cell_w) / profile.cell_pitch + eps) + 1
    lines = 0 if height_mm + eps < cell_h else math.floor((height_mm - cell_h) / profile.line_pitch + eps) + 1
    return cells, lines


@dataclass(frozen=True)
class Dot:
    """One raised dot: centre ``(x, y)`` in mm (x right, y down from the origin), line/cell index and dot number."""

    x: float
    y: float
    line: int
    cell: int
    dot: int


def dot_offset(dot: int, profile: GeometryProfile) -> tuple[float, float]:
    """Centre of dot 1–8 relative to dot 1 of the same cell (mm, y down)."""
    column = 0 if dot in (1, 2, 3, 7) else 1
    row = {1: 0, 2: 1, 3: 2, 4: 0, 5: 1, 6: 2, 7: 3, 8: 3}[dot]
    return column * profile.dot_pitch, row * profile.dot_pitch


def dot_centres(lines: list[str] | tuple[str, ...], profile: GeometryProfile, origin: tuple[float, float] = (0.0, 0.0)) -> list[Dot]:
    """Every raised dot of some lines of cells, in reading order.

    ``origin`` is the top-left corner of the braille box (mm); the first dot 1 sits
    half a dot base inside it, so every dot stays within the box that
    :func:`capacity` measured. Raises ValueError for a character that is not braille.
    """
    x0 = origin[0] + profile.dot_radius
    y0 = origin[1] + profile.dot_radius
    # A cell's dots at one place in the box are the same Dot objects every time (frozen): made once per
    # profile and origin (_cells_at); most places and cells recur from card to card.
    made = _cells_at(profile, x0, y0)
    out: list[Dot] = []
    for li, line in enumerate(lines):
        for ci, cell in enumerate(line):
            key = (li, ci, cell)
            cell_dots_here = made.get(key)
            if cell_dots_here is None:
                cell_dots_here = made[key] = _cell_dots(profile, x0, y0, li, ci, cell)
            out += cell_dots_here
    return out


def _cell_dots(profile: GeometryProfile, x0: float, y0: float, li: int, ci: int, cell: str) -> tuple[Dot, ...]:
    """The dots of ``cell`` at line ``li``, cell ``ci`` of a box whose first dot 1 is at ``(x0, y0)`` (mm)."""
    out = []
    for d in cell_dots(cell):
        dx, dy = dot_offset(d, profile)
        out.append(Dot(x0 + ci * profile.cell_pitch + dx, y0 + li * profile.line_pitch + dy, li, ci, d))
    return tuple(out)


@lru_cache(maxsize=16)
def _cells_at(profile: GeometryProfile, x0: float, y0: float) -> dict[tuple[int, int, str], tuple[Dot, ...]]:
    """The :func:`_cell_dots` made so far for one profile and first-dot position (filled by :func:`dot_centres`;
    at most every place of the box times 256 cells)."""
    return {}

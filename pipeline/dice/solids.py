"""The library's die solids at their stated size: vertices, planar faces, reading frames, numbering.

Every solid is the convex hull (manifold3d ``Manifold.hull_points``) of textbook vertices
(H. S. M. Coxeter, *Regular Polytopes*, table I; φ = (1 + √5)/2):

- d4-tetrahedron: (1,1,1), (1,−1,−1), (−1,1,−1), (−1,−1,1); ``size`` = edge.
- d6-cube: (±1, ±1, ±1); d8: (±1,0,0) and permutations; d12-dodecahedron: (±1,±1,±1),
  (0, ±1/φ, ±φ) and cyclic permutations; d20: (0, ±1, ±φ) and cyclic permutations;
  d10: the pentagonal trapezohedron, ten vertices at radius 1 alternately at z = ±c and
  apexes at z = ±c·(1 + cos 36°)/(1 − cos 36°) (the height that makes each kite planar).
  All ``size`` = face-to-face distance = 2 × inradius.
- d4-crystal-shard: a square prism of width 0.4 × size with four-sided points, length
  (``size``, point to point) 1; its long faces are elongated hexagons (the prism's straight part
  is 0.6 × size), the points' eight kites are not numbered.

Faces are found by grouping the hull's triangles by their plane. Each numbered face has one
content *region* — a tetrahedron face has three, one per corner, because a tetrahedral D4 is
read at its top vertex: the numeral nearest a vertex is that vertex's value, so every face
shows the three values of its corners. A region's 2D frame is x right, y down, in mm, seen
from outside the die with its ``up`` direction on top.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import manifold3d
import numpy as np

from engine.model import Die, DieShape

PHI = (1 + math.sqrt(5)) / 2
SHARD_WIDTH, SHARD_BODY = 0.4, 0.6  #: crystal shard width and straight length, × its point-to-point size


def _trapezohedron(n: int = 5) -> list[tuple[float, float, float]]:
    c = 0.3
    apex = c * (1 + math.cos(math.pi / n)) / (1 - math.cos(math.pi / n))
    ring = [(math.cos(k * math.pi / n), math.sin(k * math.pi / n), c if k % 2 else -c) for k in range(2 * n)]
    return ring + [(0.0, 0.0, apex), (0.0, 0.0, -apex)]


def _shard() -> list[tuple[float, float, float]]:
    a, body, tip = SHARD_WIDTH / 2, SHARD_BODY / 2, 0.5
    corners = [(sx * a, sy * a, sz * body) for sx in (-1, 1) for sy in (-1, 1) for sz in (-1, 1)]
    ridge = (tip + body) / 2  # where two point kites meet on a long face: its hexagon's tip
    tips = [(sx * a, 0.0, sz * ridge) for sx in (-1, 1) for sz in (-1, 1)] + [(0.0, sy * a, sz * ridge) for sy in (-1, 1) for sz in (-1, 1)]
    return corners + tips + [(0.0, 0.0, tip), (0.0, 0.0, -tip)]


def _cyclic(points: list[tuple[float, float, float]]) -> list[tuple[float, float, float]]:
    return [p for x, y, z in points for p in ((x, y, z), (y, z, x), (z, x, y))]


def _signs(*values: float) -> list[tuple[float, ...]]:
    out: list[tuple[float, ...]] = [()]
    for v in values:
        out = [o + (s * v,) for o in out for s in ((1, -1) if v else (1,))]
    return out


_UNIT_VERTICES = {
    DieShape.d4_tetrahedron: [(1, 1, 1), (1, -1, -1), (-1, 1, -1), (-1, -1, 1)],
    DieShape.d6_cube: _signs(1, 1, 1),
    DieShape.d8: _cyclic(_signs(1, 0, 0)),
    DieShape.d10: _trapezohedron(),
    DieShape.d12_dodecahedron: _signs(1, 1, 1) + _cyclic(_signs(0, 1 / PHI, PHI)),
    DieShape.d20: _cyclic(_signs(0, 1, PHI)),
    DieShape.d4_crystal_shard: _shard(),
}


@dataclass(frozen=True)
class Region:
    """Where one numeral goes: ``value`` on the face, ``origin`` (3D mm, on the face plane),
    ``up`` and ``right`` (unit 3D vectors in the plane), and ``polygon`` — the area it may use,
    in region mm (x right, y down from ``origin``)."""

    value: int
    origin: tuple[float, float, float]
    up: tuple[float, float, float]
    right: tuple[float, float, float]
    polygon: tuple[tuple[float, float], ...]


@dataclass(frozen=True)
class SolidFace:
    """One planar face: outward unit ``normal``, ``centre`` (area centroid, mm), ``vertices``
    (mm, counter-clockwise seen from outside), ``regions`` (none on an unnumbered face)."""

    index: int
    normal: tuple[float, float, float]
    centre: tuple[float, float, float]
    vertices: tuple[tuple[float, float, float], ...]
    regions: tuple[Region, ...]

    @property
    def numbered(self) -> bool:
        """True when the face carries numerals (the shard's point kites do not)."""
        return bool(self.regions)


@dataclass(frozen=True)
class Solid:
    """A die solid at size: ``vertices`` (mm, centred on the origin), every planar face, the
    inradius (mm, centre to the nearest face plane)."""

    shape: DieShape
    vertices: tuple[tuple[float, float, float], ...]
    faces: tuple[SolidFace, ...]
    inradius: float

    @property
    def numbered(self) -> tuple[SolidFace, ...]:
        """The faces that carry numerals, in the library's face order."""
        return tuple(f for f in self.faces if f.numbered)


def _planes(points: np.ndarray) -> list[tuple[np.ndarray, list[int]]]:
    """The hull's planar faces as (outward unit normal, vertex indices), from manifold3d's hull.

    The triangles' cross products in one numpy call (row by row the arithmetic of a 1-D ``np.cross``)
    and each hull vertex matched to its input point once (was: per triangle corner); each normal is
    still divided by ``norm`` as ``np.linalg.norm`` works it (``sqrt(n.dot(n))``), so the same bits."""
    mesh = manifold3d.Manifold.hull_points(points).to_mesh()
    verts = np.asarray(mesh.vert_properties)[:, :3]
    tris = np.asarray(mesh.tri_verts)
    crosses = np.cross(verts[tris[:, 1]] - verts[tris[:, 0]], verts[tris[:, 2]] - verts[tris[:, 0]])
    nearest = [int(np.argmin(np.linalg.norm(points - v, axis=1))) for v in verts]
    groups: dict[tuple, tuple[np.ndarray, set[int]]] = {}
    for tri, n in zip(tris.tolist(), crosses):
        n /= np.sqrt(n.dot(n))
        key = tuple(np.round(np.append(n, n @ verts[tri[0]]), 5))
        groups.setdefault(key, (n, set()))[1].update(nearest[i] for i in tri)
    return [(n, sorted(ids)) for n, ids in groups.values()]


def _ordered(points: np.ndarray, normal: np.ndarray) -> np.ndarray:
    """Face vertices sorted counter-clockwise seen from outside (along −normal)."""
    centre = points.mean(axis=0)
    ref = points[0] - centre
    ref /= np.linalg.norm(ref)
    side = np.cross(normal, ref)
    angles = np.arctan2((points - centre) @ side, (points - centre) @ ref)
    return points[np.argsort(angles)]


def _area_centroid(poly: np.ndarray) -> np.ndarray:
    first, total, acc = poly[0], 0.0, np.zeros(3)
    crosses = np.cross(poly[1:-1] - first, poly[2:] - first)  # the fan's triangles at once, as a 1-D np.cross each
    for b, c, n in zip(poly[1:-1], poly[2:], crosses):
        area = np.sqrt(n.dot(n)) / 2  # np.linalg.norm of a vector
        total += area
        acc += area * (first + b + c) / 3
    return acc / total


def _scale(shape: DieShape, unit: np.ndarray, planes: list, size_mm: float, measure: str) -> float:
    if measure == "edge":
        d = np.linalg.norm(unit[:, None] - unit[None], axis=2)
        return size_mm / d[d > 1e-9].min()
    if measure == "point-to-point":
        return size_mm / np.ptp(unit[:, 2])
    inradius = min(float(n @ unit[ids[0]]) for n, ids in planes)
    return size_mm / (2 * inradius)


def _to_2d(points: np.ndarray, origin: np.ndarray, up: np.ndarray, right: np.ndarray) -> tuple[tuple[float, float], ...]:
    return tuple((float((p - origin) @ right), float(-(p - origin) @ up)) for p in points)


def _regions(shape: DieShape, poly: np.ndarray, normal: np.ndarray, centre: np.ndarray, values: list[int]) -> tuple[Region, ...]:
    """Content regions of a numbered face (see module docs); ``values`` one per region."""
    def region(value: int, origin: np.ndarray, up: np.ndarray, area: np.ndarray) -> Region:
        up = up - (up @ normal) * normal
        up /= np.linalg.norm(up)
        right = np.cross(up, normal)
        return Region(value, tuple(origin), tuple(up), tuple(right), _to_2d(area, origin, up, right))

    if shape is DieShape.d4_tetrahedron:  # a corner kite per vertex: vertex, edge midpoints, centre
        out = []
        for i, v in enumerate(poly):
            before, after = (poly[i - 1] + v) / 2, (v + poly[(i + 1) % 3]) / 2
            kite = np.array([v, before, centre, after])
            out.append(region(values[i], kite.mean(axis=0), v - centre, kite))
        return tuple(out)
    if shape is DieShape.d4_crystal_shard:
        up = np.array([0.0, 0.0, 1.0])
    elif shape is DieShape.d10:  # up toward the kite's pole
        up = poly[np.argmax(np.abs(poly[:, 2]))] - centre
    else:  # a regular polygon: its first edge at the bottom
        up = centre - (poly[0] + poly[1]) / 2
    return (region(values[0], centre, up, poly),)


def numbering(die: Die, normals: list[np.ndarray]) -> list[int]:
    """Face values in face order: opposite faces summing to faces + 1 (``opposites-sum``) or 1, 2, 3 …

    Pairs are taken in face order: the first face without a value gets the lowest free value,
    the face opposite it (normal within 1e-6 of the reverse) faces + 1 minus that.
    """
    count = len(normals)
    if die.numbering == "in-order" or die.shape is DieShape.d4_tetrahedron:
        return list(range(1, count + 1))
    values: list[int | None] = [None] * count
    stacked = np.array(normals)
    low = 1
    for i, n in enumerate(normals):
        if values[i] is not None:
            continue
        j = next(iter(np.flatnonzero(np.isclose(stacked, -n, atol=1e-6).all(axis=1)).tolist()))  # np.allclose row by row
        values[i], values[j] = low, count + 1 - low
        low += 1
    return [int(v) for v in values]  # type: ignore[arg-type]


@lru_cache(maxsize=32)
def _solid(shape: DieShape, size_mm: float, measure: str, numbering_rule: str, faces: int) -> Solid:
    unit = np.array(_UNIT_VERTICES[shape], dtype=float)
    planes = _planes(unit)
    scale = _scale(shape, unit, planes, size_mm, measure)
    points = unit * scale
    polys = [(n, _ordered(points[ids], n)) for n, ids in planes]
    polys.sort(key=lambda p: tuple(np.round(-p[0], 6)))  # a stable face order: by normal
    is_numbered = [shape is not DieShape.d4_crystal_shard or abs(n[2]) < 1e-6 for n, _ in polys]
    die = Die.model_construct(shape=shape, numbering=numbering_rule, faces=faces)
    values = iter(numbering(die, [n for (n, _), keep in zip(polys, is_numbered) if keep]))
    vertex_value = {tuple(np.round(p, 6)): i + 1 for i, p in enumerate(points)}
    out = []
    for i, ((n, poly), keep) in enumerate(zip(polys, is_numbered)):
        centre = _area_centroid(poly)
        if not keep:
            regions: tuple[Region, ...] = ()
        elif shape is DieShape.d4_tetrahedron:
            regions = _regions(shape, poly, n, centre, [vertex_value[tuple(np.round(p, 6))] for p in poly])
        else:
            regions = _regions(shape, poly, n, centre, [next(values)])
        out.append(SolidFace(i, tuple(n), tuple(centre), tuple(map(tuple, poly)), regions))
    inradius = min(float(np.dot(f.normal, f.vertices[0])) for f in out)
    return Solid(shape, tuple(map(tuple, points)), tuple(out), inradius)


def solid(die: Die) -> Solid:
    """The die's solid at its stated size (``die.size`` in pt, measured as ``die.measure``), cached."""
    return _solid(die.shape, round(die.size * 25.4 / 72, 6), die.measure, die.numbering, die.faces)

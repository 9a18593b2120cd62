"""A die's net: every face unfolded flat at true size, joined along shared edges (mm, y down).

Faces are unfolded about their shared edges (a rotation about the hinge, so every face is
seen from outside), one at a time from a root face, each joined to the first placed
neighbour it does not overlap. Every face is tried as the root until all faces are placed;
when none gives a net (never for the library solids), :func:`unfold` returns None and the
sheet draws the faces one by one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pipeline.dice.solids import Solid, SolidFace


@dataclass(frozen=True)
class Placed:
    """A face on the net: ``face``, the affine map 3D → net mm (``matrix`` 2×3, ``offset``),
    its ``outline`` (net mm, y down) and ``parent`` (the face it hinges on, None for the root)."""

    face: SolidFace
    matrix: np.ndarray
    offset: np.ndarray
    outline: tuple[tuple[float, float], ...]
    parent: int | None

    def to_net(self, point) -> np.ndarray:
        """A 3D point of this face in net mm."""
        return self.matrix @ np.asarray(point, dtype=float) + self.offset


def _shared_edge(a: SolidFace, b: SolidFace) -> tuple[np.ndarray, np.ndarray] | None:
    """The two vertices of ``a`` that are also vertices of ``b`` (``np.allclose`` each way: within
    1e-6 mm + 1e-5 × |b's|, every coordinate), in ``a``'s order; None unless exactly two."""
    va, vb = np.array(a.vertices, dtype=float), np.array(b.vertices, dtype=float)
    close = (np.abs(va[:, None, :] - vb[None, :, :]) <= 1e-6 + 1e-5 * np.abs(vb[None, :, :])).all(axis=2).any(axis=1)
    shared = [va[i] for i in np.flatnonzero(close)]
    return (shared[0], shared[1]) if len(shared) == 2 else None


def _overlaps(p: np.ndarray, q: np.ndarray) -> bool:
    """Separating-axis test for two convex polygons; touching along an edge is not overlap."""
    for poly in (p, q):
        for i in range(len(poly)):
            edge = poly[(i + 1) % len(poly)] - poly[i]
            axis = np.array([-edge[1], edge[0]]) / np.linalg.norm(edge)
            a, b = p @ axis, q @ axis
            if a.max() <= b.min() + 1e-6 or b.max() <= a.min() + 1e-6:
                return False
    return True


def lay_flat(face: SolidFace) -> Placed:
    """One face flat, seen from outside, its first region's up on top, centred on its centroid (mm)."""
    n = np.array(face.normal)
    up = np.array(face.regions[0].up) if face.regions else np.cross(n, np.array(face.vertices[1]) - np.array(face.vertices[0]))
    up /= np.linalg.norm(up)
    right = np.cross(up, n)
    matrix = np.vstack([right, -up])
    offset = -matrix @ np.array(face.centre)
    return Placed(face, matrix, offset, tuple(map(tuple, (matrix @ np.array(face.vertices).T).T + offset)), None)


def _hinged(child: SolidFace, parent: Placed, edge: tuple[np.ndarray, np.ndarray]) -> Placed:
    p, q = edge
    e1 = (q - p) / np.linalg.norm(q - p)
    to_centre = np.array(child.centre) - p
    e2 = to_centre - (to_centre @ e1) * e1
    e2 /= np.linalg.norm(e2)
    P, Q = parent.to_net(p), parent.to_net(q)
    E1 = (Q - P) / np.linalg.norm(Q - P)
    E2 = np.array([-E1[1], E1[0]])
    if (parent.to_net(parent.face.centre) - P) @ E2 > 0:  # the child lies across the hinge from its parent
        E2 = -E2
    matrix = np.outer(E1, e1) + np.outer(E2, e2)
    offset = P - matrix @ p
    return Placed(child, matrix, offset, tuple(map(tuple, (matrix @ np.array(child.vertices).T).T + offset)), parent.face.index)


def _grow(solid: Solid, root: SolidFace) -> list[Placed] | None:
    placed = [lay_flat(root)]
    todo = [f for f in solid.faces if f.index != root.index]
    edges: dict[tuple[int, int], tuple[np.ndarray, np.ndarray] | None] = {}  # (parent, child) -> hinge, found once
    while todo:
        for face in todo:
            spot = None
            for parent in placed:
                key = (parent.face.index, face.index)
                if key not in edges:
                    edges[key] = _shared_edge(parent.face, face)
                edge = edges[key]
                if edge is None:
                    continue
                candidate = _hinged(face, parent, edge)
                outline = np.array(candidate.outline)
                if not any(_overlaps(outline, np.array(o.outline)) for o in placed):
                    spot = candidate
                    break
            if spot is not None:
                placed.append(spot)
                todo.remove(face)
                break
        else:
            return None
    return placed


def unfold(solid: Solid) -> list[Placed] | None:
    """The net of a solid (faces in placement order, shifted so its box starts at 0, 0), or None."""
    for root in solid.faces:
        placed = _grow(solid, root)
        if placed is None:
            continue
        points = np.array([v for p in placed for v in p.outline])
        shift = -points.min(axis=0)
        return [Placed(p.face, p.matrix, p.offset + shift, tuple(map(tuple, np.array(p.outline) + shift)), p.parent) for p in placed]
    return None


def net_size(placed: list[Placed]) -> tuple[float, float]:
    """Width and height of a net in mm."""
    points = np.array([v for p in placed for v in p.outline])
    return float(points[:, 0].max()), float(points[:, 1].max())

"""The flat dieline of a straight tuck-end box, sized from its inside dimensions.

All lengths are mm, x right and y down from the top-left corner of the dieline's bounding
box (the trim of the box PDF). The flat box, left to right: glue flap, back, side, front,
side; the back carries the top lid and its tuck flap, the front the bottom lid and its tuck
flap (a reverse tuck end: the two tucks open from opposite faces), each side a dust flap at
top and bottom, and the front's top edge a semicircular thumb notch to pull the top tuck by.

Sizes that are not the inside dimensions are the usual folding-carton proportions
(our choice, stated here): glue flap 12 mm with 45° ends; tuck flaps as deep as the lid
plus 8 mm (15 mm at least), 1 mm narrower each side than the lid so they slide in, with
corners rounded at a third of their depth; dust flaps a third of the inside width deep;
thumb notch radius 9 mm.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

Point = tuple[float, float]

GLUE_FLAP_MM = 12.0
TUCK_EXTRA_MM = 8.0
MIN_TUCK_MM = 15.0
TUCK_INSET_MM = 1.0
THUMB_NOTCH_MM = 9.0
#: Points per quarter circle when an arc is written as a polyline: chord error under 0.02 mm at r = 9 mm.
ARC_STEPS = 16


@dataclass(frozen=True)
class Rect:
    """A rectangle ``x, y, w, h`` in mm (y down)."""

    x: float
    y: float
    w: float
    h: float

    @property
    def centre(self) -> Point:
        """The centre point (mm)."""
        return (self.x + self.w / 2, self.y + self.h / 2)

    def inset(self, d: float) -> "Rect":
        """The rectangle shrunk by ``d`` mm on every side (empty sizes clamp to 0)."""
        return Rect(self.x + d, self.y + d, max(self.w - 2 * d, 0.0), max(self.h - 2 * d, 0.0))


@dataclass(frozen=True)
class Dieline:
    """A flat tuck box: its inside size, the cut outline, the fold lines and the panels (mm).

    ``cut`` is one closed polyline (the outline, notch and rounded tuck corners included);
    ``folds`` are straight segments; ``panels`` maps a panel name (``front``, ``back``,
    ``side-left``, ``side-right``, ``top-lid``, ``bottom-lid``, ``top-tuck``, ``bottom-tuck``,
    ``glue``, dust flaps ``dust-…``) to its rectangle.
    """

    width: float
    height: float
    depth: float
    cut: tuple[Point, ...]
    folds: tuple[tuple[Point, Point], ...]
    panels: dict[str, Rect] = field(default_factory=dict)

    @property
    def size(self) -> tuple[float, float]:
        """The bounding box of the flat box (the trim), ``(w, h)`` mm."""
        xs = [p[0] for p in self.cut]
        ys = [p[1] for p in self.cut]
        return (max(xs) - min(xs), max(ys) - min(ys))

    def cut_segments(self) -> list[tuple[Point, Point]]:
        """The outline as segments, closing segment included."""
        pts = list(self.cut)
        return list(zip(pts, pts[1:] + pts[:1]))


def _arc(cx: float, cy: float, r: float, start_deg: float, end_deg: float) -> list[Point]:
    """Points on a circle arc (mm, y down), both ends included, angles in degrees measured with y down."""
    steps = max(2, int(abs(end_deg - start_deg) / 90 * ARC_STEPS))
    return [(cx + r * math.cos(math.radians(start_deg + (end_deg - start_deg) * i / steps)),
             cy + r * math.sin(math.radians(start_deg + (end_deg - start_deg) * i / steps))) for i in range(steps + 1)]


def _tuck(x0: float, x1: float, y_fold: float, depth: float, up: bool) -> list[Point]:
    """A tuck flap from fold ``y_fold`` away (up or down) by ``depth``, between x0 and x1 (left to right when up)."""
    r = depth / 3
    s = -1 if up else 1
    far = y_fold + s * depth
    if up:
        return ([(x0, y_fold), (x0, far + r)] + _arc(x0 + r, far + r, r, 180, 270)
                + _arc(x1 - r, far + r, r, 270, 360) + [(x1, y_fold)])
    return ([(x1, y_fold), (x1, far - r)] + _arc(x1 - r, far - r, r, 0, 90)
            + _arc(x0 + r, far - r, r, 90, 180) + [(x0, y_fold)])


def tuck_box(width: float, height: float, depth: float) -> Dieline:
    """The dieline of a tuck box whose inside is ``width × height × depth`` mm (module docs).

    Raises ValueError for a size under 5 mm or a depth larger than the width (the lid then
    could not hold a tuck flap).
    """
    if min(width, height, depth) < 5:
        raise ValueError(f"a tuck box needs every inside size at least 5 mm, got {width:g} × {height:g} × {depth:g} mm")
    if depth > width:
        raise ValueError(f"a tuck box deeper ({depth:g} mm) than wide ({width:g} mm) cannot close its lid")
    g, w, h, d = GLUE_FLAP_MM, width, height, depth
    tuck = max(d + TUCK_EXTRA_MM, MIN_TUCK_MM)
    dust = w / 3
    top = max(tuck + d, dust)       # the fold at the back's top edge
    xb, xs1, xf, xs2, xe = g, g + w, g + w + d, g + 2 * w + d, g + 2 * w + 2 * d
    yt, yb = top, top + h           # the main panels' top and bottom folds
    taper = min(d / 4, 3.0)         # dust flap edges slant away from their neighbours
    ti = TUCK_INSET_MM
    cx, notch = xf + w / 2, THUMB_NOTCH_MM
    cut: list[Point] = [(xb, yt), (xb, yt - d)]
    cut += _tuck(xb + ti, xs1 - ti, yt - d, tuck, up=True)   # the tuck starts 1 mm inside its lid
    cut += [(xs1, yt - d), (xs1, yt)]
    cut += [(xs1 + taper, yt - dust), (xf - taper, yt - dust), (xf, yt)]           # left side, top dust flap
    cut += [(cx - notch, yt)] + _arc(cx, yt, notch, 180, 0)[1:-1] + [(cx + notch, yt), (xs2, yt)]
    cut += [(xs2 + taper, yt - dust), (xe - taper, yt - dust), (xe, yt)]            # right side, top dust flap
    cut += [(xe, yb), (xe - taper, yb + dust), (xs2 + taper, yb + dust), (xs2, yb)]  # right side, bottom dust flap
    cut += [(xs2, yb + d)] + _tuck(xf + ti, xs2 - ti, yb + d, tuck, up=False) + [(xf, yb + d), (xf, yb)]
    cut += [(xf - taper, yb + dust), (xs1 + taper, yb + dust), (xs1, yb)]            # left side, bottom dust flap
    cut += [(xb, yb), (0.0, yb - g), (0.0, yt + g)]                                  # back's bottom edge, glue flap
    cut = _without_repeats(cut)
    folds = (
        ((xb, yt), (xb, yb)), ((xs1, yt), (xs1, yb)), ((xf, yt), (xf, yb)), ((xs2, yt), (xs2, yb)),
        ((xb, yt), (xs1, yt)), ((xb + ti, yt - d), (xs1 - ti, yt - d)),                   # back | top lid | top tuck
        ((xs1, yt), (xf, yt)), ((xs2, yt), (xe, yt)), ((xs1, yb), (xf, yb)), ((xs2, yb), (xe, yb)),  # dust flaps
        ((xf, yb), (xs2, yb)), ((xf + ti, yb + d), (xs2 - ti, yb + d)),                   # front | bottom lid | bottom tuck
    )
    panels = {
        "glue": Rect(0.0, yt, g, h), "back": Rect(xb, yt, w, h), "side-left": Rect(xs1, yt, d, h),
        "front": Rect(xf, yt, w, h), "side-right": Rect(xs2, yt, d, h),
        "top-lid": Rect(xb, yt - d, w, d), "top-tuck": Rect(xb + ti, yt - d - tuck, w - 2 * ti, tuck),
        "bottom-lid": Rect(xf, yb, w, d), "bottom-tuck": Rect(xf + ti, yb + d, w - 2 * ti, tuck),
        "dust-left-top": Rect(xs1, yt - dust, d, dust), "dust-right-top": Rect(xs2, yt - dust, d, dust),
        "dust-left-bottom": Rect(xs1, yb, d, dust), "dust-right-bottom": Rect(xs2, yb, d, dust),
    }
    y0 = min(p[1] for p in cut)
    return _shifted(Dieline(w, h, d, tuple(cut), folds, panels), -y0)


def _without_repeats(points: list[Point]) -> list[Point]:
    """The outline with a point equal to the one before it dropped."""
    out: list[Point] = []
    for p in points:
        if out and math.dist(out[-1], p) < 1e-9:
            continue
        out.append(p)
    return out


def _shifted(line: Dieline, dy: float) -> Dieline:
    """The dieline moved down by ``dy`` mm (so its top is y = 0)."""
    move = lambda p: (p[0], p[1] + dy)  # noqa: E731
    return Dieline(line.width, line.height, line.depth, tuple(move(p) for p in line.cut),
                   tuple((move(a), move(b)) for a, b in line.folds),
                   {k: Rect(r.x, r.y + dy, r.w, r.h) for k, r in line.panels.items()})


def point_segment_distance(p: Point, a: Point, b: Point) -> float:
    """Shortest distance (mm) from point ``p`` to the segment ``a``–``b``."""
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length2 = dx * dx + dy * dy
    t = 0.0 if length2 == 0 else max(0.0, min(1.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / length2))
    return math.dist(p, (ax + t * dx, ay + t * dy))


def nearest_line(p: Point, segments: list[tuple[Point, Point]]) -> float:
    """Distance (mm) from ``p`` to the nearest of ``segments`` (inf for none)."""
    return min((point_segment_distance(p, a, b) for a, b in segments), default=math.inf)


def nearest_distances(points: list[Point], segments: list[tuple[Point, Point]]) -> list[float]:
    """For each of ``points``, the distance (mm) to the nearest of ``segments`` (inf for none):
    :func:`nearest_line` for many points at once, one numpy pass over points × segments
    (a box's ~500 dots against ~150 cut and fold segments: 75,000 distances)."""
    import numpy as np

    if not points or not segments:
        return [math.inf] * len(points)
    p = np.asarray(points, dtype=float)[:, None, :]          # (n, 1, 2)
    seg = np.asarray(segments, dtype=float)                   # (m, 2, 2)
    a, d = seg[None, :, 0, :], (seg[:, 1, :] - seg[:, 0, :])[None]
    length2 = (d * d).sum(axis=2)
    safe = np.where(length2 == 0, 1.0, length2)
    t = np.where(length2 == 0, 0.0, np.clip(((p - a) * d).sum(axis=2) / safe, 0.0, 1.0))
    gap = p - (a + t[..., None] * d)
    return np.sqrt((gap * gap).sum(axis=2)).min(axis=1).tolist()


def rect_crosses(rect: Rect, segments: list[tuple[Point, Point]], margin: float = 0.0) -> bool:
    """True when any segment passes within ``margin`` mm of the rectangle (or through it)."""
    grown = rect.inset(-margin)
    for a, b in segments:
        if _segment_hits_rect(a, b, grown):
            return True
    return False


def _segment_hits_rect(a: Point, b: Point, r: Rect) -> bool:
    """Liang–Barsky clipping: does the segment a–b meet the closed rectangle ``r``?"""
    t0, t1 = 0.0, 1.0
    dx, dy = b[0] - a[0], b[1] - a[1]
    for p, q in ((-dx, a[0] - r.x), (dx, r.x + r.w - a[0]), (-dy, a[1] - r.y), (dy, r.y + r.h - a[1])):
        if p == 0:
            if q < 0:
                return False
            continue
        t = q / p
        if p < 0:
            t0 = max(t0, t)
        else:
            t1 = min(t1, t)
        if t0 > t1:
            return False
    return True

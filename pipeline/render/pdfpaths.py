"""Filled circles written as PDF path operators, for the braille layer and the UV plates.

reportlab's ``path.circle`` computes the four Bézier arcs of every circle through
``pdfgeom.bezierArc`` (~0.1 ms a dot, a third of the braille layer's time); the same arcs
written straight as operators cost a tenth of that.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

#: Control-point distance of a quarter circle drawn as one cubic Bézier, per unit radius:
#: 4/3·(√2 − 1) (error 0.027 % of the radius), the value PDF producers and reportlab use.
KAPPA = 4 / 3 * (2 ** 0.5 - 1)


# One circle's operators over its five distinct x and five distinct y values (centre ± r, ± k, 0):
# ten numbers formatted a dot instead of twenty-six, the same bytes.
_CIRCLE = ("{0} {7} m {0} {6} {1} {5} {2} {5} c {3} {5} {4} {6} {4} {7} c "
           "{4} {8} {3} {9} {2} {9} c {1} {9} {0} {8} {0} {7} c h")


def _formatted(v: float, r: float) -> tuple[str, str, str, str, str]:
    """``v + r``, ``v + k``, ``v``, ``v − k``, ``v − r`` (k = KAPPA · r) formatted with 3 decimals (pt)."""
    k = KAPPA * r
    return f"{v + r:.3f}", f"{v + k:.3f}", f"{v:.3f}", f"{v - k:.3f}", f"{v - r:.3f}"


#: :func:`_formatted` remembered: a braille grid puts many dots on one column or line (the same x or y),
#: so most values are formatted once. 0.0 is never looked up (it equals -0.0, which formats as "-0.000").
_offsets = lru_cache(maxsize=4096)(_formatted)


def _circle(x: float, y: float, r: float) -> str:
    """One circle's operators (see :func:`circle_operators`)."""
    return _CIRCLE.format(*(_offsets(x, r) if x else _formatted(x, r)), *(_offsets(y, r) if y else _formatted(y, r)))


#: :func:`_circle` remembered for centres with no zero coordinate (see :data:`_offsets`): every card of a
#: layout puts its dots on the same few hundred grid positions.
_circle_at = lru_cache(maxsize=8192)(_circle)


def circle_operators(centres: Sequence[tuple[float, float]], r: float) -> str:
    """PDF path operators (``m``, four ``c``, ``h`` per circle; pt, 3 decimals) for circles of
    radius ``r`` pt at ``centres``, counter-clockwise from the rightmost point, to be filled."""
    cached, plain = _circle_at, _circle
    return "\n".join(cached(x, y, r) if x and y else plain(x, y, r) for x, y in centres)

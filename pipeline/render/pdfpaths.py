"""Filled circles written as PDF path operators, for the braille layer and the UV plates.

reportlab's ``path.circle`` computes the four Bézier arcs of every circle through
``pdfgeom.bezierArc`` (~0.1 ms a dot, a third of the braille layer's time); the same arcs
written straight as operators cost a tenth of that.
"""

from __future__ import annotations

from typing import Sequence

#: Control-point distance of a quarter circle drawn as one cubic Bézier, per unit radius:
#: 4/3·(√2 − 1) (error 0.027 % of the radius), the value PDF producers and reportlab use.
KAPPA = 4 / 3 * (2 ** 0.5 - 1)


def circle_operators(centres: Sequence[tuple[float, float]], r: float) -> str:
    """PDF path operators (``m``, four ``c``, ``h`` per circle; pt, 3 decimals) for circles of
    radius ``r`` pt at ``centres``, counter-clockwise from the rightmost point, to be filled."""
    k = KAPPA * r
    out = []
    for x, y in centres:
        out.append(
            f"{x + r:.3f} {y:.3f} m {x + r:.3f} {y + k:.3f} {x + k:.3f} {y + r:.3f} {x:.3f} {y + r:.3f} c "
            f"{x - k:.3f} {y + r:.3f} {x - r:.3f} {y + k:.3f} {x - r:.3f} {y:.3f} c "
            f"{x - r:.3f} {y - k:.3f} {x - k:.3f} {y - r:.3f} {x:.3f} {y - r:.3f} c "
            f"{x + k:.3f} {y - r:.3f} {x + r:.3f} {y - k:.3f} {x + r:.3f} {y:.3f} c h")
    return "\n".join(out)

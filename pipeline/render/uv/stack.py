"""The dot height and layer model: how a UV printer builds a domed braille dot from flat layers.

Target height ``h`` (mm) and base diameter ``b`` come from the braille geometry profile
(:mod:`pipeline.braille.geometry`: spec800 base 1.44 mm, height 0.48 mm, NLS Specification 800
§3.2; ada-signage and california 1.55 / 0.75 mm, the middle of ADA 703.3.1's 1.5–1.6 and
0.6–0.9 mm; marburg-medium 1.5 / 0.5 mm); the layer thickness ``t`` (mm, one pass of clear ink)
from the UV printer profile (:mod:`pipeline.render.uv.printers`).

- layers ``n = ceil(h / t)`` (0.48 / 0.02 → 24);
- the dome is a spherical cap of base radius ``a = b / 2`` and height ``h``: its sphere has
  radius ``R = (a² + h²) / (2h)`` and its cross-section at height ``z`` above the card has radius
  ``r(z) = sqrt(R² − (z + R − h)²)`` (so ``r(0) = a`` and ``r(h) = 0``);
- layer ``k`` (1 = on the card) is a disc of diameter ``2·r(z_k)`` at the middle of its slice of
  the dome, ``z_k = (k − ½)·h / n``: the bottom layer is a little under the base diameter and
  the top a small disc, each smaller than the one below;
- the printed stack is ``n·t`` high (at most one layer over ``h``).

Bad input: a thickness giving under 1 or over :data:`MAX_LAYERS` layers is finding UV003.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from engine.findings import Finding, Location, Severity
from engine.registry import declare

#: Most layers a job may stack: beyond this a pass count is a typo (µm for mm), not a job.
MAX_LAYERS = 200

LAYER_COUNT = declare(
    "UV003",
    "uv-layer-count-out-of-range",
    Severity.error,
    """The layer thickness gives under 1 or over 200 layers for the braille dot height.

    Layers are ``ceil(dot height / layer thickness)``; 0.48 mm at 0.02 mm per pass is 24.
    Over 200 passes is a thickness typed in the wrong unit (0.001 mm for 0.01 mm), and a
    printer job of that many passes would run for hours; no layered plate is written.

    Fails: ``deckpress uv carddata/apprentice --uv-printer roland-versaworks --layer-thickness 0.001mm`` (480 layers).
    Passes: the shipped profiles, 0.02 mm per layer: 24 layers at spec800, 38 at ada-signage.
    """,
)


@dataclass(frozen=True)
class DotStack:
    """One dot's layers: ``height_mm`` (target), ``base_mm`` (diameter), ``thickness_mm`` per
    layer and ``diameters_mm`` bottom (layer 1) to top, strictly decreasing."""

    height_mm: float
    base_mm: float
    thickness_mm: float
    diameters_mm: tuple[float, ...]

    @property
    def layers(self) -> int:
        """Number of layers (passes)."""
        return len(self.diameters_mm)

    @property
    def printed_height_mm(self) -> float:
        """The stack's height, ``layers × thickness`` (mm)."""
        return round(self.layers * self.thickness_mm, 6)

    def as_dict(self) -> dict:
        """The stack for the dot map and the job ticket (mm, rounded to 0.001 mm)."""
        return {
            "target_height_mm": self.height_mm,
            "layer_thickness_mm": self.thickness_mm,
            "layers": self.layers,
            "printed_height_mm": round(self.printed_height_mm, 3),
            "base_diameter_mm": self.base_mm,
            "layer_diameters_mm": [round(d, 3) for d in self.diameters_mm],
            "model": "spherical cap: R = (a^2 + h^2) / 2h, layer k at z = (k - 1/2) h / n, d = 2 sqrt(R^2 - (z + R - h)^2)",
        }


def layer_count(height_mm: float, thickness_mm: float) -> int:
    """``ceil(height / thickness)`` layers (no range check); ValueError for a thickness ≤ 0."""
    if thickness_mm <= 0:
        raise ValueError(f"layer thickness must be above 0 mm, not {thickness_mm:g} mm")
    return math.ceil(height_mm / thickness_mm - 1e-9)


def cap_radius(z_mm: float, base_mm: float, height_mm: float) -> float:
    """Radius (mm) of a spherical cap of base diameter ``base_mm`` and height ``height_mm`` at
    height ``z_mm`` above its base (0 at and above the top)."""
    a, h = base_mm / 2, height_mm
    big_r = (a * a + h * h) / (2 * h)
    inside = big_r * big_r - (z_mm + big_r - h) ** 2
    return math.sqrt(inside) if inside > 0 and z_mm < h else 0.0


def cap_height(r_mm: float, base_mm: float, height_mm: float) -> float:
    """Height (mm) of the same spherical cap at distance ``r_mm`` from its axis (0 outside the base)."""
    a, h = base_mm / 2, height_mm
    if r_mm >= a:
        return 0.0
    big_r = (a * a + h * h) / (2 * h)
    return math.sqrt(big_r * big_r - r_mm * r_mm) - (big_r - h)


def dot_stack(height_mm: float, base_mm: float, thickness_mm: float) -> DotStack:
    """The layers of one dot (see the module docs). Raises ValueError for a thickness ≤ 0 or
    a layer count outside 1–:data:`MAX_LAYERS` (check first with :func:`stack_findings`)."""
    n = layer_count(height_mm, thickness_mm)
    if not 1 <= n <= MAX_LAYERS:
        raise ValueError(f"{n} layers of {thickness_mm:g} mm for a {height_mm:g} mm dot: outside 1-{MAX_LAYERS}")
    diameters = tuple(2 * cap_radius((k - 0.5) * height_mm / n, base_mm, height_mm) for k in range(1, n + 1))
    return DotStack(height_mm, base_mm, thickness_mm, diameters)


def stack_findings(height_mm: float, thickness_mm: float, where: Location) -> list[Finding]:
    """UV003 when ``ceil(height / thickness)`` is under 1 or over :data:`MAX_LAYERS`; else []."""
    n = layer_count(height_mm, thickness_mm)
    if 1 <= n <= MAX_LAYERS:
        return []
    return [LAYER_COUNT.finding(
        f"a layer thickness of {thickness_mm:g} mm gives {n} layers for the {height_mm:g} mm braille dot "
        f"(allowed 1-{MAX_LAYERS})", where,
        "give the layer thickness in mm (one pass of clear ink is usually 0.01-0.05 mm)")]

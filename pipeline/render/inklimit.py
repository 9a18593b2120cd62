"""Total area coverage (TAC) of the palette colours against the printing target's ink limit (PR010).

A colour's coverage is the sum of its four ink percentages (C + M + Y + K, 0–400 %). Ink
beyond what the printing condition is characterised for does not dry, sets off on the
next sheet and darkens unpredictably: ISO 12647-2 sheet-fed offset on coated paper
(FOGRA39) allows 330 %, US web offset (SWOP) and print-on-demand presets less (240–300 %).
"""

from __future__ import annotations

from engine.findings import Finding, Severity
from engine.model import Palette
from engine.registry import declare
from pipeline.render.targets import PrintTarget

INK_LIMIT = declare(
    "PR010",
    "ink-coverage-over-limit",
    Severity.error,
    """A palette colour lays down more ink (C + M + Y + K) than the printing target allows.

    The total area coverage of every palette colour (background, text, accent) is checked
    against the target's ``ink_limit``: 330 % for FOGRA39 offset on coated paper.

    Fails: ``background: {cmyk: [90, 90, 90, 90]}`` (360 %, over FOGRA39's 330 %).

    Passes: ``background: {cmyk: [60, 40, 40, 100]}`` (a rich black, 240 %).
    """,
)


def coverage(cmyk: tuple[float, ...]) -> float:
    """Total area coverage in % (0–400): the sum of the four ink percentages. ``[90, 90, 90, 90]`` → 360."""
    return float(sum(cmyk))


def ink_findings(cls_id: str, palette: Palette, target: PrintTarget) -> list[Finding]:
    """PR010 for each colour of ``palette`` (background, text, accent) over ``target.ink_limit``, at that colour.

    The hint scales the colour's C, M and Y down (K kept) to a value within the limit.
    """
    out = []
    for role in ("background", "text", "accent"):
        colour = getattr(palette, role)
        if colour is None or (total := coverage(colour.cmyk)) <= target.ink_limit:
            continue
        c, m, y, k = colour.cmyk
        room = max(0.0, target.ink_limit - k)
        scale = min(1.0, room / (c + m + y)) if c + m + y else 1.0
        within = [float(int(v * scale)) for v in (c, m, y)] + [float(min(k, target.ink_limit))]
        out.append(INK_LIMIT.finding(
            f"class {cls_id!r}: {role} cmyk [{', '.join(f'{v:g}' for v in colour.cmyk)}] covers {total:g} %, "
            f"over the {target.ink_limit:g} % ink limit of {target.condition_label}",
            palette.where(role),
            hint=f"use at most {target.ink_limit:g} % in total, e.g. cmyk [{', '.join(f'{v:g}' for v in within)}]"))
    return out

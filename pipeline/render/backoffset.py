"""IM006, a back offset that moves every back off its card (:func:`off_card`): the impose stage reports
it with the sheets' other findings, and the stand-alone ``deckpress impose`` before it writes a sheet."""

from __future__ import annotations

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from engine.units import pt_to_mm

BACK_OFF_ITS_CARD = declare(
    "IM006",
    "back-offset-off-card",
    Severity.error,
    """The back offset is half the card's trim width (x) or height (y) or more: every back would print more beside its card, or off the sheet, than on it.

    Fails: ``--back-offset 500mm,0mm`` (blank back sheets).
    Passes: ``--back-offset 1.5mm,-0.5mm``.
    """,
)


def off_card(dx: float, dy: float, trim_w: float, trim_h: float, where: Location) -> Finding | None:
    """IM006 when a back offset (``dx``, ``dy`` pt) is half the card's trim (pt) or more on an axis, else None."""
    mm = [pt_to_mm(v) for v in (dx, dy, trim_w, trim_h)]
    if abs(mm[0]) < mm[2] / 2 and abs(mm[1]) < mm[3] / 2:
        return None
    return BACK_OFF_ITS_CARD.finding(f"the back offset {mm[0]:+.2f}, {mm[1]:+.2f} mm is half the card's trim ({mm[2]:.1f} × {mm[3]:.1f} mm) "
                                     "or more: every back would print more beside its card, or off the sheet, than on it", where,
                                     "--back-offset is the press's misregistration as the calibration sheet reads it (±5 mm): check its unit and sign")

"""Physical lengths written in the data with their unit ("3in", "76.2mm", "18pt").

Every length in card data and templates passes through :func:`parse_length`, so
there is exactly one place that knows the units. Internally lengths are PDF points
(1 pt = 1/72 in, ISO 32000-1 §8.3.2.3) as floats; helpers convert to mm.
"""

from __future__ import annotations

import re

PT_PER_IN = 72.0
MM_PER_IN = 25.4
PT_PER_MM = PT_PER_IN / MM_PER_IN

_UNITS = {"pt": 1.0, "in": PT_PER_IN, "mm": PT_PER_MM, "cm": 10 * PT_PER_MM}
#: An optional sign ("+1.5mm" as the calibration sheet's scale prints it, "-0.5mm"), digits, a unit.
_LENGTH = re.compile(r"^\s*([+-]?(?:\d+(?:\.\d+)?|\.\d+))\s*(pt|in|mm|cm)\s*$")
#: The same rule as a JSON Schema pattern (ECMA-262, no groups to read), for ``deckpress schema``.
LENGTH_PATTERN = r"^\s*[+-]?(?:\d+(?:\.\d+)?|\.\d+)\s*(?:pt|in|mm|cm)\s*$"


def parse_length(value: object) -> float:
    """Parse a length with its unit into points.

    Accepts a string such as ``"3in"``, ``"76.2mm"``, ``"0.6cm"`` or ``"18pt"``, with an
    optional sign (``"+1.5mm"``, ``"-0.5mm"``: the duplex calibration sheet's readings).
    A bare number is refused: a length without a unit is ambiguous.

    Returns the length in pt (float). Raises ``ValueError`` naming the value and
    the accepted units when the text is not a length.
    """
    if isinstance(value, bool) or not isinstance(value, str):
        raise ValueError(
            f"expected a length with a unit such as '3in', '76.2mm' or '18pt', got {value!r}"
        )
    match = _LENGTH.match(value)
    if not match:
        raise ValueError(
            f"expected a length with a unit (pt, in, mm, cm) such as '3in', got {value!r}"
        )
    number, unit = match.groups()
    return float(number) * _UNITS[unit]


def pt_to_mm(pt: float) -> float:
    """Convert points to millimetres (25.4 mm = 72 pt)."""
    return pt / PT_PER_MM


def mm_to_pt(mm: float) -> float:
    """Convert millimetres to points (25.4 mm = 72 pt)."""
    return mm * PT_PER_MM

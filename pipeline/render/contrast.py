"""Contrast of the palettes' text/background pairs by the WCAG 2 formula.

Large print asks for 7:1 (WCAG 2.1 success criterion 1.4.6, "Contrast (Enhanced)",
level AAA) for every text/background pair on a card, front and back. The ratio is
computed from the palette's sRGB values, the colours a screen proof and the archive show;
the CMYK values are what prints, and the data keeps both side by side.
"""

from __future__ import annotations

import re

from engine.findings import Finding, Severity
from engine.model import Game
from engine.registry import declare

#: WCAG 2.1 SC 1.4.6 (enhanced contrast, AAA) for text of any size.
MIN_TEXT_CONTRAST = 7.0

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")

TEXT_CONTRAST = declare(
    "PR002",
    "text-contrast-too-low",
    Severity.error,
    """A class palette's text colour on its background reaches less than 7:1 (WCAG 2 formula).

    Every word on a card front and back is drawn in the palette's ``text`` colour on its
    ``background``; large print for low vision asks for 7:1 (WCAG 2.1 SC 1.4.6).

    Fails: ``text: {srgb: "#767676"}`` on ``background: {srgb: "#ffffff"}`` (4.54:1).

    Passes: ``text: {srgb: "#000000"}`` on ``background: {srgb: "#ffffff"}`` (21:1).
    """,
)


def relative_luminance(srgb: str) -> float:
    """Relative luminance 0–1 of an sRGB colour ``#rrggbb`` (WCAG 2.1, "relative luminance").

    Raises ValueError for text that is not ``#rrggbb``.
    """
    match = _HEX.match(srgb.strip())
    if not match:
        raise ValueError(f"expected an sRGB colour as '#rrggbb', got {srgb!r}")
    value = match.group(1)
    channels = [int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4)]
    # WCAG 2.x writes the threshold as 0.03928; IEC 61966-2-1 has 0.04045. No 8-bit value lies between.
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def contrast_ratio(srgb_a: str, srgb_b: str) -> float:
    """WCAG 2 contrast ratio (L1 + 0.05) / (L2 + 0.05) of two sRGB colours, from 1.0 to 21.0.

    Symmetric in its arguments. Raises ValueError for malformed colours.
    """
    la, lb = relative_luminance(srgb_a), relative_luminance(srgb_b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def palette_findings(game: Game) -> list[Finding]:
    """PR002 findings for every class whose text/background pair is below 7:1, in class order.

    The message names the class, both sRGB values and the ratio; the location is the
    palette's ``text`` entry in game.yaml.
    """
    out: list[Finding] = []
    for cls in game.classes:
        pal = cls.palette
        ratio = contrast_ratio(pal.text.srgb, pal.background.srgb)
        if ratio < MIN_TEXT_CONTRAST:
            out.append(
                TEXT_CONTRAST.finding(
                    f"class {cls.id!r}: text {pal.text.srgb} on background {pal.background.srgb} "
                    f"has contrast {ratio:.2f}:1, below {MIN_TEXT_CONTRAST:g}:1",
                    pal.where("text"),
                    hint="darken the text colour or lighten the background (or the reverse) in both sRGB and CMYK",
                )
            )
    return out

"""Contrast of the palettes' text/background pairs by the WCAG 2 formula.

Large print asks for 7:1 (WCAG 2.1 success criterion 1.4.6, "Contrast (Enhanced)",
level AAA) for every text/background pair on a card, front and back. The ratio is
computed twice: from the palette's sRGB values (the colours a screen proof and the
archive show) and from its CMYK values (what prints) converted to sRGB by
:func:`cmyk_to_srgb`. A palette colour whose CMYK and sRGB disagree (CIE 1976 ΔE*ab
over :data:`MAX_CMYK_SRGB_DELTA_E`) is reported too (PR008): the two are meant to be one colour.
"""

from __future__ import annotations

import re

from engine.findings import Finding, Severity
from engine.model import Colour, Game
from engine.registry import declare

#: WCAG 2.1 SC 1.4.6 (enhanced contrast, AAA) for text of any size.
MIN_TEXT_CONTRAST = 7.0

#: Largest CIE 1976 colour difference ΔE*ab between a palette colour's sRGB value and its
#: CMYK value as sRGB. ΔE 2.3 is about a just-noticeable difference (G. Sharma, Digital
#: Color Imaging Handbook, 2003); 10 leaves room for the formula's approximation while catching a CMYK value that names
#: another colour (the shipped palettes differ by at most 0.7).
MAX_CMYK_SRGB_DELTA_E = 10.0

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")
#: CIE D65 white point (X, Y, Z), the sRGB reference white (IEC 61966-2-1).
_D65 = (0.95047, 1.0, 1.08883)

TEXT_CONTRAST = declare(
    "PR002",
    "text-contrast-too-low",
    Severity.error,
    """A class palette's text colour on its background reaches less than 7:1 (WCAG 2 formula).

    Every word on a card front and back is drawn in the palette's ``text`` colour on its
    ``background``; large print for low vision asks for 7:1 (WCAG 2.1 SC 1.4.6).

    Both pairs are checked: the sRGB values and the CMYK values converted to sRGB
    (R = 255·(1−C)(1−K) and so on), so a CMYK text colour that prints lighter than its
    sRGB is caught.

    Fails: ``text: {srgb: "#767676"}`` on ``background: {srgb: "#ffffff"}`` (4.54:1).

    Fails: ``text: {cmyk: [0, 0, 0, 40], srgb: "#000000"}`` on white: the CMYK pair is #999999 on #ffffff (2.85:1).

    Passes: ``text: {cmyk: [0, 0, 0, 100], srgb: "#000000"}`` on ``background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}`` (21:1 both).
    """,
)
CMYK_SRGB_MISMATCH = declare(
    "PR008",
    "cmyk-srgb-mismatch",
    Severity.warning,
    """A palette colour's CMYK value (what prints) and its sRGB value (what proofs and the archive show) are different colours.

    The CMYK value is converted to sRGB with the plain formula R = 255·(1−C)(1−K),
    G = 255·(1−M)(1−K), B = 255·(1−Y)(1−K) — an approximation without the press's ICC
    profile — and both are compared in CIELAB (D65); a difference ΔE*ab (CIE 1976)
    over 10 is reported.

    Fails: ``text: {cmyk: [0, 0, 0, 40], srgb: "#000000"}`` (CMYK is #999999, ΔE 63.2).

    Passes: ``background: {cmyk: [0, 73, 89, 38], srgb: "#9e2a12"}`` (CMYK is #9e2b11, ΔE 0.7).
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


def cmyk_to_srgb(cmyk: tuple[float, float, float, float]) -> str:
    """A CMYK colour (four percentages 0–100) as sRGB ``#rrggbb`` by the plain formula
    R = 255·(1−C)(1−K), G = 255·(1−M)(1−K), B = 255·(1−Y)(1−K), each rounded.

    An approximation: it ignores the press's ICC profile (ink, paper, dot gain), so a
    printed colour can differ — most in dark and saturated colours. It is the conversion
    the shipped palettes' sRGB values follow (within ΔE*ab 0.7). ``[0, 0, 0, 54]`` → ``#757575``.
    """
    c, m, y, k = (v / 100.0 for v in cmyk)
    return "#" + "".join(f"{round(255 * (1 - v) * (1 - k)):02x}" for v in (c, m, y))


def srgb_to_lab(srgb: str) -> tuple[float, float, float]:
    """CIELAB ``(L*, a*, b*)`` of an sRGB colour ``#rrggbb`` (D65 white).

    sRGB is linearised and taken to XYZ with the IEC 61966-2-1 matrix, then to L*a*b*
    by CIE 15:2004 §8.2.1. White is (100, 0, 0), black (0, 0, 0). Raises ValueError for
    text that is not ``#rrggbb``.
    """
    match = _HEX.match(srgb.strip())
    if not match:
        raise ValueError(f"expected an sRGB colour as '#rrggbb', got {srgb!r}")
    value = match.group(1)
    r, g, b = (_linear(int(value[i : i + 2], 16) / 255.0) for i in (0, 2, 4))
    xyz = (0.4124 * r + 0.3576 * g + 0.1805 * b, 0.2126 * r + 0.7152 * g + 0.0722 * b, 0.0193 * r + 0.1192 * g + 0.9505 * b)
    fx, fy, fz = (_lab_f(v / w) for v, w in zip(xyz, _D65))
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def _linear(c: float) -> float:
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _lab_f(t: float) -> float:
    delta = 6 / 29
    return t ** (1 / 3) if t > delta**3 else t / (3 * delta**2) + 4 / 29


def delta_e76(srgb_a: str, srgb_b: str) -> float:
    """CIE 1976 colour difference ΔE*ab: the Euclidean distance of the two colours in CIELAB (0 = same; white–black 100)."""
    la, lb = srgb_to_lab(srgb_a), srgb_to_lab(srgb_b)
    return sum((x - y) ** 2 for x, y in zip(la, lb)) ** 0.5


def _mismatch(cls_id: str, role: str, colour: Colour, where) -> Finding | None:
    printed = cmyk_to_srgb(colour.cmyk)
    diff = delta_e76(colour.srgb, printed)
    if diff <= MAX_CMYK_SRGB_DELTA_E:
        return None
    cmyk = ", ".join(f"{v:g}" for v in colour.cmyk)
    return CMYK_SRGB_MISMATCH.finding(
        f"class {cls_id!r}: {role} cmyk [{cmyk}] is about {printed} in sRGB, but its srgb is {colour.srgb} "
        f"(ΔE*ab {diff:.1f}, over {MAX_CMYK_SRGB_DELTA_E:g})",
        where, hint=f"make cmyk and srgb the same colour (cmyk [{cmyk}] as sRGB is {printed})")


def palette_findings(game: Game) -> list[Finding]:
    """Palette findings in class order: PR002 when a class's text/background pair is below 7:1
    in sRGB or in CMYK (as sRGB by :func:`cmyk_to_srgb`), one per class naming each failing
    pair and its ratio, at the palette's ``text`` entry; then PR008 for each palette colour
    (background, text, accent) whose CMYK and sRGB differ by more than ΔE*ab 10, at that colour.
    """
    out: list[Finding] = []
    for cls in game.classes:
        pal = cls.palette
        pairs = (("", pal.text.srgb, pal.background.srgb),
                 ("as printed (CMYK as sRGB) ", cmyk_to_srgb(pal.text.cmyk), cmyk_to_srgb(pal.background.cmyk)))
        low = [(label, text, ground, contrast_ratio(text, ground)) for label, text, ground in pairs]
        low = [f"{label}text {text} on background {ground} has contrast {ratio:.2f}:1"
               for label, text, ground, ratio in low if ratio < MIN_TEXT_CONTRAST]
        if low:
            out.append(
                TEXT_CONTRAST.finding(
                    f"class {cls.id!r}: {'; '.join(low)}, below {MIN_TEXT_CONTRAST:g}:1",
                    pal.where("text"),
                    hint="darken the text colour or lighten the background (or the reverse) in both sRGB and CMYK",
                )
            )
        for role in ("background", "text", "accent"):
            colour = getattr(pal, role)
            if colour is not None and (found := _mismatch(cls.id, role, colour, pal.where(role))):
                out.append(found)
    return out

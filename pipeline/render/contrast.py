"""Contrast and colour of the palettes as the press prints them (PR002, PR008), and their ink coverage (PR010).

Large print asks for 7:1 (WCAG 2.1 success criterion 1.4.6, "Contrast (Enhanced)", level
AAA) for every text/background pair on a card, front and back. PR002 measures the pair
that prints: the text and background CMYK values as the printing target renders them,
through the ICC profile fitted to the condition's measured characterisation data
(:mod:`pipeline.render.colour`: absolute colorimetric CIELAB, L* → Y, divided by the paper
white's Y), then the WCAG 2 ratio (Y1 + 0.05) / (Y2 + 0.05). The stated sRGB pair (screens)
must reach 7:1 too. PR008 compares each palette colour's stated sRGB with its soft proof
(the CMYK as it prints, shown in sRGB through the same profile). PR010
(:mod:`pipeline.render.inklimit`) checks total area coverage against the target's limit.
"""

from __future__ import annotations

import re

from engine.findings import Finding, Severity
from engine.model import Colour, Game, Palette
from engine.registry import declare
from pipeline.render.colour import printed_contrast, printed_luminance, soft_proof_srgb
from pipeline.render.inklimit import coverage, ink_findings
from pipeline.render.targets import PrintTarget, load_target

#: WCAG 2.1 SC 1.4.6 (enhanced contrast, AAA) for text of any size.
MIN_TEXT_CONTRAST = 7.0

#: Largest CIE 1976 colour difference ΔE*ab between a palette colour's stated sRGB and its soft
#: proof. ΔE 2.3 is about a just-noticeable difference (G. Sharma, Digital Color Imaging
#: Handbook, 2003); 5 leaves room for 8-bit rounding and a designer's hand-picked value while
#: catching an sRGB that shows a visibly different colour from the one that prints.
MAX_CMYK_SRGB_DELTA_E = 5.0

_HEX = re.compile(r"^#?([0-9a-fA-F]{6})$")
#: CIE D65 white point (X, Y, Z), the sRGB reference white (IEC 61966-2-1).
_D65 = (0.95047, 1.0, 1.08883)

TEXT_CONTRAST = declare(
    "PR002",
    "text-contrast-too-low",
    Severity.error,
    """A class palette's text on its background reaches less than 7:1 as printed (WCAG 2 ratio, measured through the printing target's profile).

    Every word on a card front and back is drawn in the palette's ``text`` colour on its
    ``background``; large print for low vision asks for 7:1 (WCAG 2.1 SC 1.4.6).

    The printed pair is measured: each CMYK value is converted through the target's ICC
    profile (FOGRA39 by default, fitted to Fogra's measured patches) to CIELAB, its L* to
    luminance Y relative to the paper white, and the ratio is (Y1 + 0.05) / (Y2 + 0.05). The
    stated sRGB pair is checked as well. The hint names a CMYK value that would pass: a
    darker background under light text (more K, within the ink limit), or a lighter
    background under dark text (K-only text stays K-only).

    Fails: ``text: {cmyk: [0, 0, 0, 0]}`` on ``background: {cmyk: [0, 73, 89, 38]}``: FOGRA39 prints it at 5.45:1 (the plain formula said 7.5:1).

    Fails: ``text: {srgb: "#767676"}`` on ``background: {srgb: "#ffffff"}`` (4.54:1 on screen).

    Passes: ``text: {cmyk: [0, 0, 0, 100], srgb: "#2b2b2a"}`` on ``background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}`` (14.15:1 as printed).
    """,
)
CMYK_SRGB_MISMATCH = declare(
    "PR008",
    "cmyk-srgb-mismatch",
    Severity.warning,
    """A palette colour's stated sRGB differs from how its CMYK value prints (its soft proof through the target's profile).

    The CMYK value is converted through the printing target's ICC profile to sRGB (relative
    colorimetric: the paper shows as white), the soft proof that proofs and the archive
    show; it and the stated ``srgb`` are compared in CIELAB (D65), and a difference ΔE*ab
    (CIE 1976) over 5 is reported.

    Fails: ``text: {cmyk: [0, 0, 0, 100], srgb: "#000000"}`` (K100 prints as #2b2b2a on FOGRA39, ΔE 17.5).

    Passes: ``background: {cmyk: [0, 73, 89, 56], srgb: "#874125"}`` (the shipped Ember ground: its soft proof, ΔE 0).
    """,
)


def relative_luminance(srgb: str) -> float:
    """Relative luminance 0–1 of an sRGB colour ``#rrggbb`` (WCAG 2.1, "relative luminance").

    Raises ValueError for text that is not ``#rrggbb``.
    """
    r, g, b = _channels(srgb)
    # WCAG 2.x writes the threshold as 0.03928; IEC 61966-2-1 has 0.04045. No 8-bit value lies between.
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def _channels(srgb: str) -> tuple[float, float, float]:
    match = _HEX.match(srgb.strip())
    if not match:
        raise ValueError(f"expected an sRGB colour as '#rrggbb', got {srgb!r}")
    value = match.group(1)
    return tuple(int(value[i : i + 2], 16) / 255.0 for i in (0, 2, 4))  # type: ignore[return-value]


def contrast_ratio(srgb_a: str, srgb_b: str) -> float:
    """WCAG 2 contrast ratio (L1 + 0.05) / (L2 + 0.05) of two sRGB colours, from 1.0 to 21.0.

    Symmetric in its arguments. Raises ValueError for malformed colours.
    """
    la, lb = relative_luminance(srgb_a), relative_luminance(srgb_b)
    hi, lo = max(la, lb), min(la, lb)
    return (hi + 0.05) / (lo + 0.05)


def srgb_to_lab(srgb: str) -> tuple[float, float, float]:
    """CIELAB ``(L*, a*, b*)`` of an sRGB colour ``#rrggbb`` (D65 white).

    sRGB is linearised and taken to XYZ with the IEC 61966-2-1 matrix, then to L*a*b*
    by CIE 15:2004 §8.2.1. White is (100, 0, 0), black (0, 0, 0). Raises ValueError for
    text that is not ``#rrggbb``.
    """
    r, g, b = (_linear(c) for c in _channels(srgb))
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


def _cmyk_text(cmyk) -> str:
    return "[" + ", ".join(f"{v:g}" for v in cmyk) + "]"


def passing_cmyk(palette: Palette, target: PrintTarget) -> tuple[str, tuple[float, ...], float] | None:
    """A nearby palette change that reaches 7:1 as printed: ``(role, cmyk, ratio)``, or None when none is found.

    Under light text the background gets more K, a whole percent at a time, while its total
    coverage stays within the target's ink limit; under dark text K-only text first goes to
    K100 (it stays K-only: no four-colour registration on type), then the background's inks
    are scaled down by whole percents towards paper.
    """
    text, ground = palette.text.cmyk, palette.background.cmyk
    if printed_luminance(ground, target) <= printed_luminance(text, target):
        c, m, y, k = ground
        for extra in range(1, 101 - int(k)):
            candidate = (c, m, y, min(100.0, k + extra))
            if coverage(candidate) > target.ink_limit:
                break
            if (ratio := printed_contrast(text, candidate, target)) >= MIN_TEXT_CONTRAST:
                return "background", candidate, ratio
        return None
    if text[:3] == (0, 0, 0) and text[3] < 100 and (ratio := printed_contrast((0, 0, 0, 100), ground, target)) >= MIN_TEXT_CONTRAST:
        return "text", (0.0, 0.0, 0.0, 100.0), ratio
    for percent in range(99, -1, -1):
        candidate = tuple(float(round(v * percent / 100)) for v in ground)
        if (ratio := printed_contrast(text, candidate, target)) >= MIN_TEXT_CONTRAST:
            return "background", candidate, ratio
    return None


def _contrast_finding(cls_id: str, pal: Palette, target: PrintTarget) -> Finding | None:
    low = []
    printed = printed_contrast(pal.text.cmyk, pal.background.cmyk, target)
    if printed < MIN_TEXT_CONTRAST:
        low.append(f"text cmyk {_cmyk_text(pal.text.cmyk)} on background cmyk {_cmyk_text(pal.background.cmyk)} "
                   f"prints at {printed:.2f}:1 on {target.condition_label}")
    screen = contrast_ratio(pal.text.srgb, pal.background.srgb)
    if screen < MIN_TEXT_CONTRAST:
        low.append(f"text {pal.text.srgb} on background {pal.background.srgb} has contrast {screen:.2f}:1 on screen")
    if not low:
        return None
    hint = "darken the text colour or lighten the background (or the reverse) in both sRGB and CMYK"
    if printed < MIN_TEXT_CONTRAST and (fix := passing_cmyk(pal, target)):
        role, cmyk, ratio = fix
        hint = (f"{role} cmyk {_cmyk_text(cmyk)} would print at {ratio:.2f}:1 "
                f"(its sRGB soft proof is {soft_proof_srgb(cmyk, target)})")
    return TEXT_CONTRAST.finding(f"class {cls_id!r}: {'; '.join(low)}, below {MIN_TEXT_CONTRAST:g}:1",
                                 pal.where("text"), hint=hint)


def _mismatch(cls_id: str, role: str, colour: Colour, where, target: PrintTarget) -> Finding | None:
    printed = soft_proof_srgb(colour.cmyk, target)
    diff = delta_e76(colour.srgb, printed)
    if diff <= MAX_CMYK_SRGB_DELTA_E:
        return None
    cmyk = _cmyk_text(colour.cmyk)
    return CMYK_SRGB_MISMATCH.finding(
        f"class {cls_id!r}: {role} cmyk {cmyk} prints as about {printed} in sRGB on {target.condition_label}, "
        f"but its srgb is {colour.srgb} (ΔE*ab {diff:.1f}, over {MAX_CMYK_SRGB_DELTA_E:g})",
        where, hint=f"set srgb to {printed}, the soft proof of cmyk {cmyk} (or change the cmyk)")


def palette_findings(game: Game, target: PrintTarget | str | None = None) -> list[Finding]:
    """Palette findings in class order, for the printing ``target`` (default FOGRA39).

    Per class: PR002 when the text/background pair prints below 7:1 (or its sRGB pair is
    below 7:1), at the palette's ``text`` entry, with a passing CMYK in the hint; then PR008
    for each palette colour (background, text, accent) whose sRGB is more than ΔE*ab 5 from
    its soft proof, and PR010 for each colour over the target's ink limit, at that colour.
    Raises :class:`pipeline.render.colour.ColourError` when the target's profile is missing.
    """
    target = target if isinstance(target, PrintTarget) else load_target(target) if target else load_target()
    out: list[Finding] = []
    for cls in game.classes:
        pal = cls.palette
        if found := _contrast_finding(cls.id, pal, target):
            out.append(found)
        for role in ("background", "text", "accent"):
            colour = getattr(pal, role)
            if colour is not None and (found := _mismatch(cls.id, role, colour, pal.where(role), target)):
                out.append(found)
        out.extend(ink_findings(cls.id, pal, target))
    return out

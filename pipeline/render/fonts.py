"""Atkinson Hyperlegible (Braille Institute, OFL-1.1) registered with reportlab as TrueType.

reportlab embeds a registered :class:`~reportlab.pdfbase.ttfonts.TTFont` as a subset
(``FontFile2``), so every glyph a card uses travels with the PDF (PDF/X-1a:2003 needs
every font embedded). Only the upright faces are registered: large print uses no italics
(DESIGN.md §4). The files come from the PyPI package ``fontpkg-atkinson-hyperlegible``,
located through ``fontpkg.path`` (the public API of fontpkg, which that package registers with).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

#: reportlab font names by weight.
FONT_NAMES: dict[str, str] = {"regular": "AtkinsonHyperlegible", "bold": "AtkinsonHyperlegible-Bold"}

Weight = Literal["regular", "bold"]


class FontError(RuntimeError):
    """The font package is missing a face we need; the message names the package and the face."""


@dataclass(frozen=True)
class FontFace:
    """A registered face: reportlab ``name``, vertical metrics in em (ascent > 0, descent < 0), and its cmap."""

    name: str
    ascent: float
    descent: float
    codepoints: frozenset[int]

    def width(self, text: str, size: float) -> float:
        """Advance width of ``text`` at ``size`` pt, in pt (a no-break space measures as a space, as it is drawn)."""
        return pdfmetrics.stringWidth(text.replace("\u00a0", " ").replace("\u202f", " "), self.name, size)

    def missing(self, text: str) -> list[str]:
        """Characters of ``text`` (other than whitespace) that the font has no glyph for, in order, once each."""
        if self.codepoints.issuperset(map(ord, text)):  # the common case, at C speed: every character has a glyph
            return []
        seen: list[str] = []
        for ch in text:
            if not ch.isspace() and ord(ch) not in self.codepoints and ch not in seen:
                seen.append(ch)
        return seen


#: The fontpkg family name of the font package ``fontpkg-atkinson-hyperlegible`` (its entry point).
FAMILY = "atkinson-hyperlegible"

#: CSS/OpenType weights (usWeightClass) of the faces by our weight names.
WEIGHTS: dict[str, int] = {"regular": 400, "bold": 700}


def _font_files() -> dict[str, str]:
    """Upright font file paths by weight, from fontpkg's public API (``fontpkg.path``).

    Raises :class:`FontError` naming the package when it is not installed or lacks a face.
    """
    try:
        import fontpkg
    except ImportError as exc:  # pragma: no cover - fontpkg is a declared dependency
        raise FontError("the font package fontpkg (with fontpkg-atkinson-hyperlegible) is not installed") from exc
    files: dict[str, str] = {}
    try:
        for weight, css_weight in WEIGHTS.items():
            files[weight] = str(fontpkg.path(FAMILY, weight=css_weight, style="normal"))
    except fontpkg.FamilyNotInstalled:
        raise FontError("the font package fontpkg-atkinson-hyperlegible is not installed") from None
    except fontpkg.FontpkgError as exc:
        raise FontError(f"fontpkg-atkinson-hyperlegible has no upright {weight} face ({exc})") from None
    return files


@lru_cache(maxsize=None)
def face(weight: Weight = "regular") -> FontFace:
    """Register (once per process) and return the upright face of this weight.

    Raises :class:`FontError` when the font package lacks the face.
    """
    files = _font_files()
    name = FONT_NAMES[weight]
    font = TTFont(name, files[weight])
    pdfmetrics.registerFont(font)
    return FontFace(
        name=name,
        ascent=font.face.ascent / 1000.0,
        descent=font.face.descent / 1000.0,
        codepoints=frozenset(font.face.charToGlyph),
    )


def register_all() -> dict[str, FontFace]:
    """Register every face deckpress prints with; returns them by weight."""
    return {w: face(w) for w in FONT_NAMES}  # type: ignore[arg-type]

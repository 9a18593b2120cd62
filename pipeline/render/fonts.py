"""Atkinson Hyperlegible (Braille Institute, OFL-1.1) registered with reportlab as TrueType.

reportlab embeds a registered :class:`~reportlab.pdfbase.ttfonts.TTFont` as a subset
(``FontFile2``), so every glyph a card uses travels with the PDF (PDF/X-1a:2003 needs
every font embedded). Only the upright faces are registered: large print uses no italics
(DESIGN.md §4). The files come from the PyPI package ``fontpkg-atkinson-hyperlegible``,
located through its ``metadata.json``.
"""

from __future__ import annotations

import json
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
        seen: list[str] = []
        for ch in text:
            if not ch.isspace() and ord(ch) not in self.codepoints and ch not in seen:
                seen.append(ch)
        return seen


def _font_files() -> dict[str, str]:
    """Upright font file paths by weight, read from the package's metadata.json."""
    try:
        import fontpkg_atkinson_hyperlegible as pkg
    except ImportError as exc:  # pragma: no cover - the package is a declared dependency
        raise FontError("the font package fontpkg-atkinson-hyperlegible is not installed") from exc
    meta = json.loads((pkg.ROOT / "metadata.json").read_text(encoding="utf-8"))
    files: dict[str, str] = {}
    for entry in meta["files"]:
        if entry["style"] != "normal" or entry.get("variable"):
            continue
        weight = {400: "regular", 700: "bold"}.get(entry["weight"])
        if weight:
            files[weight] = str(pkg.ROOT / entry["path"])
    missing = set(FONT_NAMES) - set(files)
    if missing:
        raise FontError(f"fontpkg-atkinson-hyperlegible has no upright {', '.join(sorted(missing))} face")
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

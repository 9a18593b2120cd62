"""Unique font subset tags (ISO 32000-1 §9.6.4) for the PDFs :func:`pipeline.render.pdfx.finish` writes.

reportlab names the first subset of every face ``AAAAAA+…``, so two PDFs merged into one (card
pages and sheet marks on an imposed sheet) would hold two *different* subsets under one BaseFont
name, a known cause of preflight warnings and RIP glyph mix-ups. :func:`retag_subsets` renames each
subset's tag to six letters derived from a SHA-256 of its embedded font program: different subsets
get different names, equal subsets the same name, and the same input the same bytes.
"""

from __future__ import annotations

import hashlib
import re

import pikepdf
from pikepdf import Dictionary, Name

_SUBSET_TAG = re.compile(r"^/[A-Z]{6}\+")
_FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def subset_tag(font_program: bytes) -> str:
    """Six upper-case letters derived from the SHA-256 of a font program (its decoded bytes)."""
    n = int.from_bytes(hashlib.sha256(font_program).digest()[:8], "big")
    letters = []
    for _ in range(6):
        n, k = divmod(n, 26)
        letters.append(chr(ord("A") + k))
    return "".join(letters)


def _font_program(font) -> bytes | None:
    """The decoded embedded font program of a simple font or of a Type0 font's descendant, else None."""
    if font.get("/Subtype") == Name.Type0:
        descendants = font.get("/DescendantFonts") or []
        return _font_program(descendants[0]) if len(descendants) else None
    descriptor = font.get("/FontDescriptor")
    for key in _FONT_FILES:
        if descriptor is not None and key in descriptor:
            return descriptor[key].read_bytes()
    return None


def retag_subsets(pdf: pikepdf.Pdf) -> int:
    """Give every subset font of ``pdf`` a tag derived from its font program; returns the fonts renamed.

    A font whose ``/BaseFont`` starts with a subset tag (``ABCDEF+``, ISO 32000-1 §9.6.4)
    and that embeds its program gets the tag :func:`subset_tag` of that program, in its
    ``/BaseFont``, its descriptor's ``/FontName`` and the CMap name in its ``/ToUnicode``
    stream (reportlab writes the font name there). Fonts without an embedded program keep
    their names.
    """
    renamed = 0
    for obj in pdf.objects:
        # "/BaseFont" in obj first: pikepdf's get() of a missing key (most objects have no /Type)
        # costs ~8 µs, a `key in obj` test ~1 µs; a font without /BaseFont is skipped below anyway.
        if not isinstance(obj, Dictionary) or "/BaseFont" not in obj or obj.get("/Type") != Name.Font:
            continue
        base = obj.BaseFont
        if not isinstance(base, Name) or not _SUBSET_TAG.match(str(base)):
            continue
        program = _font_program(obj)
        if program is None:
            continue
        old = str(base)
        new = "/" + subset_tag(program) + old[7:]
        if new == old:
            continue
        obj.BaseFont = Name(new)
        descriptor = obj.get("/FontDescriptor")
        if descriptor is not None and str(descriptor.get("/FontName", "")) == old:
            descriptor.FontName = Name(new)
        cmap = obj.get("/ToUnicode")
        if isinstance(cmap, pikepdf.Stream):
            data = cmap.read_bytes()
            if old[1:].encode() in data:
                cmap.write(data.replace(old[1:].encode(), new[1:].encode()))
        renamed += 1
    return renamed

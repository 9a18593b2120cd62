"""Rasterise pages of a print PDF with pypdfium2, one page at a time (flat memory).

Used by the card archive (the card face image of each card page) and the proofs
(PNG renders with the braille overlay). The pixel size follows pypdfium2's
``PdfPage.render``: ``ceil(page size in pt × dpi / 72)`` per side, so a 234 × 378 pt
page (3×5 in card plus 0.125 in bleed) gives 488 × 788 px at 150 dpi.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import pypdfium2 as pdfium
from PIL import Image


class RasterError(ValueError):
    """A PDF that cannot be opened or has fewer pages than asked for; the message names the file."""


@dataclass(frozen=True)
class PageRaster:
    """One rendered page: the RGB image and where the trim sits on it.

    ``trim_origin_px`` is the trim's top-left corner in pixels from the image's
    top-left (x right, y down); ``px_per_mm`` converts mm on the card to pixels
    (``dpi / 25.4``). Both come from the page's TrimBox (the MediaBox when the page
    writes none), so a bleed of 9 pt gives an origin of 9 × dpi / 72 px.
    """

    image: Image.Image
    dpi: float
    trim_origin_px: tuple[float, float]
    trim_size_pt: tuple[float, float]

    @property
    def px_per_mm(self) -> float:
        """Pixels per millimetre at this resolution (1 in = 25.4 mm)."""
        return self.dpi / 25.4

    def mm_to_px(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """A point in mm from the trim's top-left (x right, y down) → image pixels (float)."""
        return self.trim_origin_px[0] + x_mm * self.px_per_mm, self.trim_origin_px[1] + y_mm * self.px_per_mm


def expected_size(width_pt: float, height_pt: float, dpi: float) -> tuple[int, int]:
    """The pixel size pypdfium2 renders a page of this size at (ceil of pt × dpi / 72 per side)."""
    return math.ceil(width_pt * dpi / 72), math.ceil(height_pt * dpi / 72)


def _open(pdf: str | Path) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(str(pdf))
    except (pdfium.PdfiumError, OSError) as exc:
        raise RasterError(f"cannot open PDF {pdf}: {exc}") from None


def _render(page: pdfium.PdfPage, dpi: float, crop_to_trim: bool) -> PageRaster:
    width, height = page.get_size()
    left, bottom, right, top = page.get_trimbox()
    scale = dpi / 72
    if crop_to_trim:
        crop = (left, bottom, width - right, height - top)
        image = page.render(scale=scale, crop=crop).to_pil().convert("RGB")
        origin = (0.0, 0.0)
    else:
        image = page.render(scale=scale).to_pil().convert("RGB")
        origin = (left * scale, (height - top) * scale)
    return PageRaster(image, dpi, origin, (right - left, top - bottom))


def render_page(pdf: str | Path, index: int, dpi: float = 150, crop_to_trim: bool = False) -> PageRaster:
    """Render page ``index`` (0-based) of ``pdf`` at ``dpi``; ``crop_to_trim`` cuts the bleed off.

    Raises :class:`RasterError` for an unreadable PDF or a page index out of range.
    """
    doc = _open(pdf)
    try:
        if not 0 <= index < len(doc):
            raise RasterError(f"{pdf} has {len(doc)} page(s); page {index + 1} was asked for")
        return _render(doc[index], dpi, crop_to_trim)
    finally:
        doc.close()


def render_pages(pdf: str | Path, dpi: float = 150, crop_to_trim: bool = False) -> Iterator[PageRaster]:
    """Render every page of ``pdf`` in order, one at a time (the caller saves and drops each).

    Raises :class:`RasterError` for an unreadable PDF.
    """
    doc = _open(pdf)
    try:
        for i in range(len(doc)):
            yield _render(doc[i], dpi, crop_to_trim)
    finally:
        doc.close()

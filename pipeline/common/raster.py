"""Rasterise pages of a print PDF with pypdfium2, one page at a time (flat memory).

Used by the card archive (the card face image of each card page), the proofs
(PNG renders with the braille overlay) and the QR check (a grey render of the QR box,
:func:`render_region`). deckpress has no other rasteriser. The pixel size follows pypdfium2's
``PdfPage.render``: ``ceil(page size in pt × dpi / 72)`` per side, so a 234 × 378 pt
page (3×5 in card plus 0.125 in bleed) gives 488 × 788 px at 150 dpi.
"""

from __future__ import annotations

import io
import math
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator, Sequence

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


def _open(pdf: str | Path | bytes) -> pdfium.PdfDocument:
    try:
        return pdfium.PdfDocument(pdf if isinstance(pdf, bytes) else str(pdf))
    except (pdfium.PdfiumError, OSError) as exc:
        raise RasterError(f"cannot open PDF {'(in memory)' if isinstance(pdf, bytes) else pdf}: {exc}") from None


@contextmanager
def open_document(pdf: str | Path) -> Iterator[pdfium.PdfDocument]:
    """Open ``pdf`` once for several :func:`render_region` calls; closed when the block ends.

    Raises :class:`RasterError` naming the file when it is missing or not a PDF.
    """
    doc = _open(pdf)
    try:
        yield doc
    finally:
        doc.close()


def _page(doc: pdfium.PdfDocument, index: int, name: str | Path) -> pdfium.PdfPage:
    if not 0 <= index < len(doc):
        raise RasterError(f"{name} has {len(doc)} page(s); page {index + 1} was asked for")
    return doc[index]


def render_region(pdf: str | Path | pdfium.PdfDocument, index: int, box_pt: Sequence[float] | None, dpi: float = 300,
                  grayscale: bool = True) -> Image.Image:
    """Render one region of page ``index`` (0-based) at ``dpi``: an 8-bit grey (``L``) image, or RGB.

    ``pdf`` is a path (opened and closed here) or a document from :func:`open_document`
    (for many pages of one PDF). ``box_pt`` is ``(x, y, width, height)`` in PDF pt from the
    MediaBox's bottom-left, clipped to the page; None renders the whole page. The image
    is about ``width × dpi / 72`` by ``height × dpi / 72`` pixels (pypdfium2 rounds each
    side). Raises :class:`RasterError` for an unreadable PDF or a page out of range.
    """
    if isinstance(pdf, pdfium.PdfDocument):
        return _region(_page(pdf, index, "the PDF"), box_pt, dpi, grayscale)
    with open_document(pdf) as doc:
        return _region(_page(doc, index, pdf), box_pt, dpi, grayscale)


def _region(page: pdfium.PdfPage, box_pt: Sequence[float] | None, dpi: float, grayscale: bool) -> Image.Image:
    crop = (0.0, 0.0, 0.0, 0.0)
    if box_pt is not None:
        width, height = page.get_size()
        x, y, w, h = box_pt
        crop = (max(0.0, x), max(0.0, y), max(0.0, width - (x + w)), max(0.0, height - (y + h)))
    image = page.render(scale=dpi / 72, crop=crop, grayscale=grayscale).to_pil()
    return image.convert("L" if grayscale else "RGB")


def _render(page: pdfium.PdfPage, dpi: float, crop_to_trim: bool) -> PageRaster:
    width, height = page.get_size()
    left, bottom, right, top = page.get_trimbox()
    scale = dpi / 72
    crop = (left, bottom, width - right, height - top) if crop_to_trim else (0, 0, 0, 0)
    # PDFium writes RGB itself (rev_byteorder): no BGR → RGB unpack, and to_pil's RGB image is
    # already a copy of the bitmap, so no second copy (0.3 ms of 2.8 a 288 × 480 face; same pixels).
    image = page.render(scale=scale, crop=crop, rev_byteorder=True).to_pil()
    image = image if image.mode == "RGB" else image.convert("RGB")
    origin = (0.0, 0.0) if crop_to_trim else (left * scale, (height - top) * scale)
    return PageRaster(image, dpi, origin, (right - left, top - bottom))


def render_page(pdf: str | Path, index: int, dpi: float = 150, crop_to_trim: bool = False) -> PageRaster:
    """Render page ``index`` (0-based) of ``pdf`` at ``dpi``; ``crop_to_trim`` cuts the bleed off.

    Raises :class:`RasterError` for an unreadable PDF or a page index out of range.
    """
    with open_document(pdf) as doc:
        return _render(_page(doc, index, pdf), dpi, crop_to_trim)


def render_pages(pdf: str | Path | bytes, dpi: float = 150, crop_to_trim: bool = False,
                 pages: Sequence[int] | None = None) -> Iterator[PageRaster]:
    """Render every page of ``pdf`` (a path, or a whole PDF file's bytes) in order, one at a time
    (the caller saves and drops each); with ``pages`` (0-based indices, ascending) only those pages,
    in that order, up to the document's last page (a rebuild renders only the cards whose files it
    cannot keep; as with every page, a caller zipping ids with the pages finds the short count).

    Raises :class:`RasterError` for an unreadable PDF.
    """
    doc = _open(pdf)
    try:
        for i in range(len(doc)) if pages is None else (i for i in pages if 0 <= i < len(doc)):
            yield _render(doc[i], dpi, crop_to_trim)
    finally:
        doc.close()


#: zlib's ``Z_RLE`` strategy (zlib.h): matches are runs of one byte, which is most of what
#: PNG's row filters leave of a rendered card; Pillow passes it as ``compress_type``.
Z_RLE = 3


def png_bytes(image: Image.Image, level: int = 1, strategy: int = Z_RLE) -> bytes:
    """``image`` encoded as PNG at zlib ``level`` with ``strategy`` (Pillow's encoder): the box proofs
    (the proofs and the archive faces use :func:`pipeline.common.pngfile.opaque_png`). Lossless whatever the settings: the pixels decode the same.

    The defaults come from timing Pillow 13's encoder on every kind of PNG of the shipped
    games (issue 22, docs/speed.md): its adaptive row filter takes ~85 % of the time at any
    level, so levels 1–3 cost the same within noise, and level 1 with ``Z_RLE`` is 5–10 %
    faster than level 3 (a 488 × 788 proof 10.0 → 9.5 ms, a 288 × 480 archive face 4.1 → 3.7 ms)
    for files 3–10 % larger (70.5 against 68.3 KiB, 34.3 against 31.2 KiB); level 6 costs 60 % more.
    """
    buf = io.BytesIO()
    image.save(buf, format="PNG", compress_level=level, compress_type=strategy)
    return buf.getvalue()

"""The proofs' page rasters: each soft-proofed page rendered by pypdfium2 straight into RGBA.

The stamps and the dot overlay are composited in RGBA (Pillow's ``alpha_composite``), and the
shared rasteriser (:func:`pipeline.common.raster.render_pages`) gives RGB: PDFium's 3-byte BGR
swapped to RGB (a copy), copied again by ``convert("RGB")``, then converted to RGBA and back for
every proof, four passes over the page (~3 ms of a proof, issue 22). Here PDFium renders 4-byte
RGBx (``prefer_bgrx`` with ``rev_byteorder``: the same RGB bytes as its BGR render, checked on every
page of the shipped games, a 300-card synthetic deck and a deck with photographic art), read as
RGBA, copied and made opaque: the image the proof is composited onto. Pixel sizes and the trim
origin are those of :func:`pipeline.common.raster.render_pages` (``ceil(pt × dpi / 72)`` a side,
the TrimBox's top-left corner).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator, Sequence

import pypdfium2 as pdfium
from PIL import Image

from pipeline.common.pngfile import rgb_png_rows
from pipeline.common.raster import PageRaster, RasterError, open_document
from pipeline.proofs.canvas import PageCanvas
from pipeline.render.bitmaps import PageBitmaps
from pipeline.render.softproof import soft_proof_bytes


def _raster(page: pdfium.PdfPage, dpi: float) -> PageRaster:
    """Page ``page`` at ``dpi`` with its bleed: an opaque RGBA image and the trim's place on it (px)."""
    width, height = page.get_size()
    left, bottom, right, top = page.get_trimbox()
    scale = dpi / 72
    bitmap = page.render(scale=scale, prefer_bgrx=True, rev_byteorder=True)
    if bitmap.mode != "RGBX":
        raise RasterError(f"pypdfium2 rendered a proof page as {bitmap.mode}, not RGBX")
    # The 4-byte pixels read as RGBA, copied out of PDFium's buffer, and made opaque whatever the
    # unused byte holds: 0.7 ms a page against 1.2-1.9 ms for convert("RGBA") (two conversions in Pillow).
    image = Image.frombuffer("RGBA", (bitmap.width, bitmap.height), bitmap.buffer, "raw", "RGBA", bitmap.stride, 1).copy()
    image.putalpha(255)
    return PageRaster(image, dpi, (left * scale, (height - top) * scale), (right - left, top - bottom))


def proof_pages(pdf: str | Path, dpi: float, target: str | None = None, proofed: bytes | None = None,
                pages: Sequence[int] | None = None) -> Iterator[PageRaster]:
    """Every page of ``pdf`` soft-proofed for the printing ``target`` (id, default fogra39) and rendered at
    ``dpi``, in order, one at a time: a :class:`PageRaster` whose image is **RGBA**, every pixel opaque,
    the same RGB pixels as :func:`pipeline.render.softproof.soft_proof_pages` gives (its own copy, free
    to composite onto).

    ``proofed`` is that soft proof already made (:func:`pipeline.render.softproof.soft_proof_bytes`);
    None makes it here. With ``pages`` (0-based indices, ascending) only those pages are rendered (an
    index past the end is skipped, as :func:`pipeline.common.raster.render_pages` does). Raises
    :class:`pipeline.common.raster.RasterError` naming the file for an unreadable PDF.
    """
    data = proofed if proofed is not None else soft_proof_bytes(pdf, target)
    with open_document(data) as doc:  # a whole PDF's bytes open as a path does
        for index in range(len(doc)) if pages is None else (i for i in pages if 0 <= i < len(doc)):
            yield _raster(doc[index], dpi)


def proof_canvases(pdf: str | Path, dpi: float, target: str | None = None, proofed: bytes | None = None,
                   pages: Sequence[int] | None = None) -> Iterator[PageRaster]:
    """:func:`proof_pages` without a Pillow image: each page rendered into one reused buffer of PNG
    scanlines (:class:`pipeline.render.bitmaps.PageBitmaps`, ``png_rows``; the RGB pixels PDFium's 3-byte
    render gives, which are its RGBx render's), and its raster's ``image`` a
    :class:`~pipeline.proofs.canvas.PageCanvas` over them, to composite onto and hand to :func:`canvas_png`.
    Valid until the next page is asked for. Same arguments, order, sizes, trim origins and errors as
    :func:`proof_pages`."""
    data = proofed if proofed is not None else soft_proof_bytes(pdf, target)
    scale = dpi / 72
    with open_document(data) as doc, PageBitmaps(grey=False, png_rows=True) as bitmaps:
        for index in range(len(doc)) if pages is None else (i for i in pages if 0 <= i < len(doc)):
            pixels, (left, bottom, right, top), height = bitmaps.whole(doc, index, dpi)
            canvas = PageCanvas(pixels, bitmaps.rows)
            yield PageRaster(canvas, dpi, (left * scale, (height - top) * scale), (right - left, top - bottom))


def canvas_png(canvas: PageCanvas) -> bytes:
    """The PNG file of a :func:`proof_canvases` page as it is now: :func:`pipeline.common.pngfile.opaque_png`'s
    file for the same pixels, deflated from the scanlines where the pixels lie."""
    return rgb_png_rows(canvas.rows)

"""The proofs' page rasters: each soft-proofed page rendered by pypdfium2 straight into RGBA.

The stamps and the dot overlay are composited in RGBA (Pillow's ``alpha_composite``), and the
shared rasteriser (:func:`pipeline.common.raster.render_pages`) gives RGB: PDFium's 3-byte BGR
swapped to RGB (a copy), copied again by ``convert("RGB")``, then converted to RGBA and back for
every proof, four passes over the page (~3 ms of a proof, issue 22). Here PDFium renders 4-byte
RGBx (``prefer_bgrx`` with ``rev_byteorder``: the same RGB bytes as its BGR render, checked on every
page of the shipped games, a 300-card synthetic deck and a deck with photographic art), and one
``convert("RGBA")`` makes the image the proof is composited onto, opaque. Pixel sizes and the trim
origin are those of :func:`pipeline.common.raster.render_pages` (``ceil(pt × dpi / 72)`` a side,
the TrimBox's top-left corner).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import pypdfium2 as pdfium

from pipeline.common.raster import PageRaster, open_document
from pipeline.render.softproof import soft_proof_bytes


def _raster(page: pdfium.PdfPage, dpi: float) -> PageRaster:
    """Page ``page`` at ``dpi`` with its bleed: an opaque RGBA image and the trim's place on it (px)."""
    width, height = page.get_size()
    left, bottom, right, top = page.get_trimbox()
    scale = dpi / 72
    image = page.render(scale=scale, prefer_bgrx=True, rev_byteorder=True).to_pil().convert("RGBA")
    return PageRaster(image, dpi, (left * scale, (height - top) * scale), (right - left, top - bottom))


def proof_pages(pdf: str | Path, dpi: float, target: str | None = None, proofed: bytes | None = None) -> Iterator[PageRaster]:
    """Every page of ``pdf`` soft-proofed for the printing ``target`` (id, default fogra39) and rendered at
    ``dpi``, in order, one at a time: a :class:`PageRaster` whose image is **RGBA**, every pixel opaque,
    the same RGB pixels as :func:`pipeline.render.softproof.soft_proof_pages` gives (its own copy, free
    to composite onto).

    ``proofed`` is that soft proof already made (:func:`pipeline.render.softproof.soft_proof_bytes`);
    None makes it here. Raises :class:`pipeline.common.raster.RasterError` naming the file for an
    unreadable PDF.
    """
    data = proofed if proofed is not None else soft_proof_bytes(pdf, target)
    with open_document(data) as doc:  # a whole PDF's bytes open as a path does
        for index in range(len(doc)):
            yield _raster(doc[index], dpi)

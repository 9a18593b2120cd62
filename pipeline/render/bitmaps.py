"""Page renders into one reused PDFium bitmap, by PDFium's C calls: the QR check's grey boxes
(:func:`pipeline.qr.codes.verify_qr`), the archive's RGB faces (:mod:`pipeline.archive.faces`), the
proofs' pages (:func:`pipeline.proofs.pages.proof_canvases`) and the flat box proofs (:mod:`pipeline.boxes.proof`).

:class:`PageBitmaps` makes the calls, flags and arithmetic of pypdfium2's ``PdfPage.render(scale,
crop, ...)`` (what :mod:`pipeline.common.raster` calls), so it gives the same pixels: each page
side ``ceil(pt × scale)``, each crop ``ceil(pt × scale)``, the bitmap filled white (below), then
``FPDF_RenderPageBitmap`` at (−left crop, −top crop) with ``FPDF_ANNOT`` and ``FPDF_GRAYSCALE``
(an 8-bit grey bitmap) or ``FPDF_REVERSE_BYTE_ORDER`` (a 3-byte bitmap in RGB order). What it
leaves out is pypdfium2's page and bitmap objects, their finalizers and a new zero-filled ctypes
buffer for every page (issue 22, docs/speed.md: 0.96 → 0.84 ms a QR box, load, render and decode;
1.38 → 1.24 ms a 288 × 480 face, load and render). A page's pixels are overwritten by the next
render; :meth:`PageBitmaps.close` frees the bitmap. The white fill is numpy's, not
``FPDFBitmap_FillRect``'s: the same bytes (255 in every byte of a grey or BGR bitmap for opaque
white 0xFFFFFFFF), 0.01 against 0.14 ms a 288 × 480 face (PDFium fills a 3-byte bitmap pixel by pixel).
With ``png_rows`` an RGB bitmap's rows are PNG scanlines (each after its filter byte, PDFium's stride
one byte longer than the row), deflated as they are (:func:`pipeline.common.pngfile.rgb_png_rows`):
the faces' render and PNG 1.76 -> 1.58 ms a face (the shipped games' 198, best of 3 alternated; no
new 415 kB array a face to copy the rows into and fault in).
"""

from __future__ import annotations

import ctypes
import math
from typing import TYPE_CHECKING, Sequence

import numpy as np
import pypdfium2.raw as pdfium_c

from pipeline.common.raster import RasterError

if TYPE_CHECKING:
    from pypdfium2 import PdfDocument


class PageBitmaps:
    """Renders page regions of one size into one bitmap: 8-bit grey (``grey=True``, arrays
    ``(height, width)``) or RGB (arrays ``(height, width, 3)``), both uint8, row 0 at the top."""

    def __init__(self, grey: bool, png_rows: bool = False) -> None:
        self._grey = grey
        self._png_rows = png_rows and not grey
        #: With ``png_rows`` (RGB only): the ``(height, 1 + 3 × width)`` buffer the pixels lie in, each row
        #: a PNG scanline (PNG spec §7.2: the filter type byte 0, then the row's RGB), for
        #: :func:`pipeline.common.pngfile.rgb_png_rows`; the bitmap's stride is its row (no copy into PNG rows).
        self.rows: np.ndarray | None = None
        self._format = pdfium_c.FPDFBitmap_Gray if grey else pdfium_c.FPDFBitmap_BGR
        self._flags = pdfium_c.FPDF_ANNOT | (pdfium_c.FPDF_GRAYSCALE if grey else pdfium_c.FPDF_REVERSE_BYTE_ORDER)
        self._size: tuple[int, int] | None = None
        self._bitmap = None
        self._pixels: np.ndarray | None = None

    def region(self, document: PdfDocument, index: int, box_pt: Sequence[float] | None, dpi: float) -> np.ndarray:
        """Page ``index`` (0-based) at ``dpi``, cut to ``box_pt`` = (x, y, w, h) in pt from the MediaBox's
        bottom-left, clipped to the page (None: the whole page), as
        :func:`pipeline.common.raster.render_region` cuts it. Raises RasterError when PDFium cannot load the page."""
        page = self._load(document, index)
        try:
            width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
            crop = (0.0, 0.0, 0.0, 0.0)
            if box_pt is not None:
                x, y, w, h = box_pt
                crop = (max(0.0, x), max(0.0, y), max(0.0, width - (x + w)), max(0.0, height - (y + h)))
            return self._render(page, width, height, crop, dpi)
        finally:
            pdfium_c.FPDF_ClosePage(page)

    def trim(self, document: PdfDocument, index: int, dpi: float) -> np.ndarray:
        """Page ``index`` (0-based) at ``dpi``, cut to its TrimBox (else its CropBox, else its MediaBox, as
        pypdfium2's ``get_trimbox`` falls back). Raises RasterError when PDFium cannot load the page."""
        page = self._load(document, index)
        try:
            width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
            left, bottom, right, top = _trim_box(page, width, height)
            return self._render(page, width, height, (left, bottom, width - right, height - top), dpi)
        finally:
            pdfium_c.FPDF_ClosePage(page)

    def whole(self, document: PdfDocument, index: int, dpi: float) -> tuple[np.ndarray, tuple[float, float, float, float], float]:
        """Page ``index`` (0-based) at ``dpi``, uncut (bleed and all), with its TrimBox ``(left, bottom, right,
        top)`` in pt (as :meth:`trim` finds it) and its height in pt: the pixels, box and height pypdfium2's
        ``render`` and ``get_trimbox`` give. Raises RasterError when PDFium cannot load the page."""
        page = self._load(document, index)
        try:
            width, height = pdfium_c.FPDF_GetPageWidthF(page), pdfium_c.FPDF_GetPageHeightF(page)
            return self._render(page, width, height, (0.0, 0.0, 0.0, 0.0), dpi), _trim_box(page, width, height), height
        finally:
            pdfium_c.FPDF_ClosePage(page)

    def loaded(self, page, dpi: float) -> np.ndarray:
        """A page the caller has loaded (a pypdfium2 ``PdfPage``, which it keeps) at ``dpi``, uncut: the
        pixels :meth:`whole` gives, for a caller that renders the same page more than once (the box proofs)."""
        raw = page.raw
        return self._render(raw, pdfium_c.FPDF_GetPageWidthF(raw), pdfium_c.FPDF_GetPageHeightF(raw), (0.0, 0.0, 0.0, 0.0), dpi)

    @staticmethod
    def _load(document: PdfDocument, index: int):
        if not 0 <= index < len(document):
            raise RasterError(f"the PDF has {len(document)} page(s); page {index + 1} was asked for")
        page = pdfium_c.FPDF_LoadPage(document.raw, index)
        if not page:
            raise RasterError(f"PDFium cannot load page {index + 1} of the PDF")
        return page

    def _render(self, page, width: float, height: float, crop: Sequence[float], dpi: float) -> np.ndarray:
        scale = dpi / 72
        full_w, full_h = math.ceil(width * scale), math.ceil(height * scale)
        left, bottom, right, top = (math.ceil(c * scale) for c in crop)
        size = (full_w - left - right, full_h - bottom - top)
        if min(size) < 1:
            raise ValueError("Crop exceeds page dimensions")  # pypdfium2's words
        if size != self._size:
            self._allocate(size)
        if self.rows is not None:
            self.rows.fill(255)
            self.rows[:, 0] = 0  # the filter bytes, past each bitmap row's end: PDFium writes none of them
        else:
            self._pixels.fill(255)  # opaque white: every byte 255, as FPDFBitmap_FillRect(0xFFFFFFFF) writes it
        pdfium_c.FPDF_RenderPageBitmap(self._bitmap, page, -left, -top, full_w, full_h, 0, self._flags)
        return self._pixels

    def _allocate(self, size: tuple[int, int]) -> None:
        self.close()
        width, height = size
        if self._png_rows:
            self.rows = np.empty((height, 1 + 3 * width), np.uint8)
            self._pixels = self.rows[:, 1:].reshape(height, width, 3)  # a view: rows of 3 × width bytes, stride 1 + 3 × width
            buffer, stride = self.rows.ctypes.data + 1, 1 + 3 * width
        else:
            self._pixels = np.empty((height, width) if self._grey else (height, width, 3), np.uint8)
            buffer, stride = self._pixels.ctypes.data, width * (1 if self._grey else 3)
        self._bitmap = pdfium_c.FPDFBitmap_CreateEx(width, height, self._format, ctypes.c_void_p(buffer), stride)
        self._size = size

    def close(self) -> None:
        """Free the bitmap (its pixels are numpy's); the next render makes a new one."""
        if self._bitmap is not None:
            pdfium_c.FPDFBitmap_Destroy(self._bitmap)
        self._bitmap = self._pixels = self._size = self.rows = None

    def __enter__(self) -> PageBitmaps:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


def _trim_box(page, width: float, height: float) -> tuple[float, float, float, float]:
    """A loaded page's TrimBox, else its CropBox, else its MediaBox, else ``(0, 0, width, height)``, in pt."""
    box = [ctypes.c_float() for _ in range(4)]
    if not (pdfium_c.FPDFPage_GetTrimBox(page, *box) or pdfium_c.FPDFPage_GetCropBox(page, *box)
            or pdfium_c.FPDFPage_GetMediaBox(page, *box)):
        return 0.0, 0.0, width, height
    left, bottom, right, top = (v.value for v in box)
    return left, bottom, right, top

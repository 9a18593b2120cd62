"""Page renders into one reused PDFium bitmap, by PDFium's C calls: the QR check's grey boxes
(:func:`pipeline.qr.codes.verify_qr`) and the archive's RGB faces (:mod:`pipeline.archive.faces`).

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

    def __init__(self, grey: bool) -> None:
        self._grey = grey
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
            box = [ctypes.c_float() for _ in range(4)]
            if not (pdfium_c.FPDFPage_GetTrimBox(page, *box) or pdfium_c.FPDFPage_GetCropBox(page, *box)
                    or pdfium_c.FPDFPage_GetMediaBox(page, *box)):
                box = [ctypes.c_float(v) for v in (0.0, 0.0, width, height)]
            left, bottom, right, top = (v.value for v in box)
            return self._render(page, width, height, (left, bottom, width - right, height - top), dpi)
        finally:
            pdfium_c.FPDF_ClosePage(page)

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
            self.close()
            self._pixels = np.empty((size[1], size[0]) if self._grey else (size[1], size[0], 3), np.uint8)
            stride = size[0] * (1 if self._grey else 3)
            self._bitmap = pdfium_c.FPDFBitmap_CreateEx(size[0], size[1], self._format,
                                                        self._pixels.ctypes.data_as(ctypes.c_void_p), stride)
            self._size = size
        self._pixels.fill(255)  # opaque white: every byte 255, as FPDFBitmap_FillRect(0xFFFFFFFF) writes it
        pdfium_c.FPDF_RenderPageBitmap(self._bitmap, page, -left, -top, full_w, full_h, 0, self._flags)
        return self._pixels

    def close(self) -> None:
        """Free the bitmap (its pixels are numpy's); the next render makes a new one."""
        if self._bitmap is not None:
            pdfium_c.FPDFBitmap_Destroy(self._bitmap)
        self._bitmap = self._pixels = self._size = None

    def __enter__(self) -> PageBitmaps:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

"""A proof page composited in place, in the PNG scanlines PDFium rendered it into (issue 22).

The proofs composite their stamps and braille dots onto the soft-proofed page. Done on a Pillow
image, that took a copy of PDFium's bitmap into the image, an alpha band set to opaque, then two
passes to pull the RGB bytes and check the alpha back out, and a copy into PNG rows: ~2 ms of a
488 × 788 proof. A :class:`PageCanvas` is a view of the pixels where they lie, in the scanlines of
:class:`pipeline.render.bitmaps.PageBitmaps` (``png_rows``): an overlay is composited by Pillow on a copy of only the region it covers, and the result written back.

The pixels are those of ``Image.alpha_composite`` onto the opaque page: on an opaque background each
pixel's composite depends on that pixel and the overlay's alone, so a region composites as the whole
image does, and the parts of an overlay off the page are dropped as ``Image.alpha_composite(dest=…)``
drops them. The region is an RGB image and the overlay is pasted with its own alpha as the mask
(``paste(over, box, over)``): Pillow 13 gives the same pixels as ``alpha_composite`` onto the opaque
RGBA image for every page value, overlay value and alpha (all 256³ tried, ``tests/test_proof_canvas.py``),
without the two conversions to RGBA and back.
"""

from __future__ import annotations

import numpy as np
from PIL import Image

__all__ = ["PageCanvas"]


class PageCanvas:
    """RGB pixels, a ``(height, width, 3)`` uint8 array (any strides, written in place), with the ``size``
    ``(width, height)`` px, ``width``, ``height`` and :meth:`alpha_composite` of a Pillow RGBA image, so the
    proofs' stamp and dot code composites onto either. ``rows``: the PNG scanlines the pixels lie in, when
    they do (:func:`pipeline.proofs.pages.canvas_png`). Raises ValueError for an array of another shape."""

    def __init__(self, pixels: np.ndarray, rows: np.ndarray | None = None) -> None:
        if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8:
            raise ValueError(f"PageCanvas: a {pixels.shape} {pixels.dtype} array is not (height, width, 3) uint8")
        self.pixels, self.rows = pixels, rows
        self.height, self.width = pixels.shape[:2]
        self.size = (self.width, self.height)

    def alpha_composite(self, overlay: Image.Image, dest: tuple[int, int] = (0, 0)) -> None:
        """Composite the RGBA ``overlay`` with its top-left corner at ``dest`` (px, may lie off the page),
        as ``Image.alpha_composite(overlay, dest)`` composites it onto an opaque RGBA image of these pixels."""
        x, y = dest
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + overlay.width), min(self.height, y + overlay.height)
        if x0 >= x1 or y0 >= y1:
            return
        box = (x0 - x, y0 - y, x1 - x, y1 - y)
        over = overlay if box == (0, 0, *overlay.size) else overlay.crop(box)
        under = Image.fromarray(self.pixels[y0:y1, x0:x1])  # the covered region, RGB
        under.paste(over, (0, 0), over)  # onto an opaque image the same pixels as alpha_composite (every value tested)
        self.pixels[y0:y1, x0:x1] = np.asarray(under)

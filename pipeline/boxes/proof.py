"""A box's two PNG proofs: the flat box as it comes off the press, and the folded box seen from the front.

``<game>-box-<id>-flat.png``: the whole bled page of ``-print+braille.pdf`` at :data:`FLAT_DPI`,
die lines and braille shown (PDFium's view mode). ``<game>-box-<id>-front.png``: the front panel
face on, the right side and the top lid in cabinet oblique (:func:`folded_front`), cut from a
render at :data:`FRONT_DPI` as printed (``FPDF_PRINTING``: the die lines, which do not print,
left out; :func:`render_printed`). The flat proof is opaque RGB (:func:`pipeline.common.pngfile.rgb_png_rows` of PDFium's render
drawn into PNG scanlines by :class:`pipeline.render.bitmaps.PageBitmaps`);
the front, transparent round the box, is RGBA (:func:`pipeline.common.pngfile.rgba_png`). Both PNGs give every row filter 0
and deflate with ISA-L at level 1 (Pillow's encoder spent most of its time choosing row filters: issue 22).
"""

from __future__ import annotations

import ctypes
import math
from pathlib import Path

import numpy as np
import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c
from PIL import Image, ImageDraw, ImageEnhance

from pipeline.boxes.plan import BoxPlan
from pipeline.common.files import write_bytes
from pipeline.common.pngfile import rgb_png_rows, rgba_png
from pipeline.common.raster import PageRaster, open_document
from pipeline.render.bitmaps import PageBitmaps

#: Proof resolutions, dpi: the flat box small enough to look at whole, the front panel sharper.
FLAT_DPI, FRONT_DPI = 100, 150
#: The panels the folded front shows, cut from the flat render.
SHOWN = ("front", "side-right", "top-lid")
#: Cabinet oblique projection of the folded box: the depth drawn at 45°, at half its length (cos 45° / 2 per axis).
OBLIQUE = 0.5 * math.cos(math.radians(45))
#: Brightness of the side and the lid in the folded proof (light from the upper left), the notch's shadow, the edge line.
SIDE_LIGHT, LID_LIGHT = 0.78, 1.12
NOTCH_SHADE, EDGE = (40, 40, 40, 255), (0, 0, 0, 90)
#: Pixels kept round a transformed panel's footprint: Pillow's bicubic reads 2 pixels each way.
_MARGIN = 3


def _panel(raster: PageRaster, rect, mode: str = "RGBA") -> Image.Image:
    """The pixels of a panel (a :class:`~pipeline.boxes.geometry.Rect` in mm) cut from the flat render,
    in ``mode`` (RGBA, or RGB for a panel lit before it is transformed: the same RGB either way)."""
    x0, y0 = raster.mm_to_px(rect.x, rect.y)
    x1, y1 = raster.mm_to_px(rect.x + rect.w, rect.y + rect.h)
    return raster.image.crop((round(x0), round(y0), round(x1), round(y1))).convert(mode)


def render_printed(pdf: Path, dpi: float) -> PageRaster:
    """Page 1 of ``pdf`` rendered by PDFium as for printing (``FPDF_PRINTING``: optional content that
    does not print, the die lines, is left out), with the trim's place on the image.

    The whole page, though the proof uses three panels of it: a window round them (the lid sits
    above the back, the front beside it) is half the page, and PDFium's pixels in a window
    differ from the whole page's by 1 level in a few dozen anti-aliased pixels.
    """
    with open_document(pdf) as doc:
        return _printed(doc[0], dpi)


def _printed(page: pdfium.PdfPage, dpi: float) -> PageRaster:
    """:func:`render_printed` of a page already loaded."""
    width, height = page.get_size()
    left, bottom, right, top = page.get_trimbox()
    # RGBX as PDFium draws it: Pillow maps the bitmap instead of copying it to RGB (6.5 -> 3.6 ms a
    # box; the same pixels). The panels cut from it are made RGBA (X is not alpha: converted, not copied).
    w, h = _page_px(page, dpi)
    pixels = np.full((h, w, 4), 255, np.uint8)
    _draw(page, pixels.ctypes.data, (w, h), pdfium_c.FPDFBitmap_BGRx, 4 * w, pdfium_c.FPDF_PRINTING)
    image = Image.frombuffer("RGBX", (w, h), pixels, "raw", "RGBX", 0, 1)  # a map of the array (kept alive by it)
    return PageRaster(image, dpi, (left * dpi / 72, (height - top) * dpi / 72), (right - left, top - bottom))


def _page_px(page: pdfium.PdfPage, dpi: float) -> tuple[int, int]:
    """The whole page's size in pixels at ``dpi``, as pypdfium2's ``render`` works it out (each side ``ceil(pt × scale)``)."""
    width, height = page.get_size()
    return math.ceil(width * dpi / 72), math.ceil(height * dpi / 72)


def _draw(page: pdfium.PdfPage, address: int, size: tuple[int, int], fmt: int, stride: int, flags: int) -> None:
    """PDFium's render of the whole page into the caller's pixels (already white) at ``address``: the
    C calls of pypdfium2's ``render(rev_byteorder=True)`` (annotations drawn, RGB byte order, the page
    scaled to ``size``) without its bitmap object, finalizer and zero-filled buffer (tests/test_box_proof.py
    compares the pixels with its). ``fmt`` a ``FPDFBitmap_*`` format, ``stride`` bytes a row, ``flags`` added."""
    bitmap = pdfium_c.FPDFBitmap_CreateEx(size[0], size[1], fmt, ctypes.c_void_p(address), stride)
    try:
        pdfium_c.FPDF_RenderPageBitmap(bitmap, page.raw, 0, 0, size[0], size[1], 0,
                                       pdfium_c.FPDF_ANNOT | pdfium_c.FPDF_REVERSE_BYTE_ORDER | flags)
    finally:
        pdfium_c.FPDFBitmap_Destroy(bitmap)


def _paint(out: Image.Image, panel: Image.Image, mapping: tuple[float, ...], light: float, box: tuple[int, int, int, int]) -> None:
    """Composite ``panel``, lit by ``light``, onto ``out`` through the affine ``mapping`` (output px →
    panel px), transforming only ``box`` of the output (outside it the mapping lands off the panel).

    Bicubic over the box instead of the whole image: a tenth of the pixels for the side and the lid.
    The box's map is the whole image's moved to the box's corner; its offsets differ from what the
    whole-image transform works out per pixel only by float rounding (pixel-identical on every shipped
    box; tests/test_box_proof.py compares the two)."""
    left, top, right, bottom = max(0, box[0]), max(0, box[1]), min(out.width, box[2]), min(out.height, box[3])
    a, b, c, d, e, f = mapping
    shifted = (a, b, c + a * left + b * top, d, e, f + d * left + e * top)  # the same map, from the box's corner
    # Pillow's bicubic transform of an RGBA image is its premultiplied RGBa's, converted back: made RGBa
    # straight from the lit RGB (opaque, so premultiplying changes nothing) instead of through RGBA.
    lit = ImageEnhance.Brightness(panel if panel.mode == "RGB" else panel.convert("RGB")).enhance(light).convert("RGBa")
    moved = lit.transform((right - left, bottom - top), Image.Transform.AFFINE, shifted,
                          resample=Image.Resampling.BICUBIC, fillcolor=(255, 255, 255, 0))
    out.alpha_composite(moved.convert("RGBA"), (left, top))


def folded_front(raster: PageRaster, plan: BoxPlan) -> Image.Image:
    """The folded box seen from the front (cabinet oblique, :data:`OBLIQUE`): the front panel face on,
    the right side receding to its right, the top lid above, each cut from the flat render ``raster``.
    Transparent round the box (white at alpha 0)."""
    line = plan.dieline
    front, side, lid = (_panel(raster, line.panels[name], mode) for name, mode in zip(SHOWN, ("RGBA", "RGB", "RGB")))
    w, h, d = front.width, front.height, side.width
    dy = OBLIQUE * d
    size = (round(w + dy) + 1, round(h + dy) + 1)
    out = Image.new("RGBA", size, (255, 255, 255, 0))
    out.paste(front, (0, round(dy)))  # opaque over transparent: alpha_composite's result is the front (tested)
    # Output (x, y) -> panel (u, v). The side's u runs from the front's edge into the depth. The lid hangs
    # from the back's top edge: seen from the front its u runs right to left and its tuck edge (v = 0) lies
    # on the front's top edge, so its print shows turned half round, as on the folded box.
    reach = math.ceil(dy) + _MARGIN
    _paint(out, side, (1 / OBLIQUE, 0, -w / OBLIQUE, 1, 1, -dy - w), SIDE_LIGHT, (w - _MARGIN, 0, w + reach, size[1]))
    _paint(out, lid, (-1, -1, w + dy, 0, -1 / OBLIQUE, dy / OBLIQUE), LID_LIGHT, (0, 0, size[0], reach))
    # The thumb notch shows the shadowed inside; a hairline marks the front's edges.
    notch = plan.dieline.panels["front"]
    r = max(p[1] for p in line.cut if notch.x < p[0] < notch.x + notch.w and notch.y < p[1] < notch.y + notch.h) - notch.y
    scale = raster.px_per_mm
    draw = ImageDraw.Draw(out)
    cx, top = w / 2, dy
    draw.pieslice((cx - r * scale, top - r * scale, cx + r * scale, top + r * scale), 0, 180, fill=NOTCH_SHADE)
    draw.rectangle((0, round(dy), w - 1, round(dy) + h - 1), outline=EDGE)
    return out


def write_proofs(plan: BoxPlan, merged_pdf: Path, folder: Path, stem: str) -> list[Path]:
    """The flat proof (whole bled page, :data:`FLAT_DPI`) and the folded front (:func:`folded_front`,
    :data:`FRONT_DPI`) of the box's ``-print+braille.pdf``, as ``<stem>-flat.png`` and ``<stem>-front.png``.
    Raises :class:`pipeline.common.raster.RasterError` when the PDF cannot be read."""
    with open_document(merged_pdf) as doc, PageBitmaps(grey=False, png_rows=True) as bitmaps:
        page = doc[0]  # loaded once for both renders: PDFium parses the page's content once (~2.9 ms a box)
        bitmaps.loaded(page, FLAT_DPI)  # die lines shown, drawn straight into PNG scanlines
        paths = [write_bytes(folder / f"{stem}-flat.png", rgb_png_rows(bitmaps.rows))]
        printed = _printed(page, FRONT_DPI)  # a folded box shows no die lines
    paths.append(write_bytes(folder / f"{stem}-front.png", rgba_png(folded_front(printed, plan))))
    return paths

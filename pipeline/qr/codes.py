"""QR codes for the cards: the card's archive URL as vector modules, dark on light.

Numbers and their sources:

- error correction level M (about 15 % of codewords recoverable; ISO/IEC 18004:2015 §5.3.8);
- a quiet zone of 4 modules on every side (ISO/IEC 18004:2015 §5.3.8, "quiet zone"), white;
- module ≥ 0.5 mm (DESIGN.md §4; a common floor for reliable phone scanning of print).

The matrix comes from zxing-cpp's encoder (smallest version that holds the URL, the
lowest-penalty mask, so the same URL always gives the same matrix) and is cached by URL. The
drawing merges each row's runs of dark modules into one rectangle and fills them all
as one path in 100 % K, so the code is vector rectangles, never an image.
:func:`decode_qr` renders a region of a PDF page with pdfium (the pixels of
:func:`pipeline.common.raster.render_region`) and decodes it with zxing-cpp; :func:`verify_qr` opens the PDF once and turns a
wrong or missing decode into a QR002 finding.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Iterable, Sequence

from reportlab.lib.colors import CMYKColor

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from engine.units import mm_to_pt, pt_to_mm

if TYPE_CHECKING:
    from pypdfium2 import PdfDocument

    from pipeline.render.bitmaps import PageBitmaps

#: Quiet zone on every side, in modules (ISO/IEC 18004:2015 §5.3.8).
QUIET_ZONE_MODULES = 4
#: Smallest module printed, in mm (DESIGN.md §4).
MIN_MODULE_MM = 0.5
#: Dark modules: 100 % black ink only (no rich black: no registration fringe on small modules).
DARK = CMYKColor(0, 0, 0, 1)
#: Light modules and quiet zone: unprinted white stock.
LIGHT = CMYKColor(0, 0, 0, 0)

QR_TOO_DENSE = declare(
    "QR001",
    "qr-module-too-small",
    Severity.error,
    """A card's URL is too long for the layout's qr box: its QR modules would be under 0.5 mm.

    With the 4-module quiet zone inside the ``qr`` box, a module is the box side divided by
    the module count plus 8.

    Longer URLs need a larger QR version (more modules); small modules fail to scan from print.

    Fails: a 120-character URL in a 0.9 in box (version 7 at level M, 45 + 8 modules: 0.43 mm each).

    Passes: ``https://cards.example.org/mini/cards/ember-apprentice.html`` in a 0.9 in box
    (version 4 at level M, 33 + 8 modules: 0.56 mm each).
    """,
)

QR_NO_DECODE = declare(
    "QR002",
    "qr-does-not-decode",
    Severity.error,
    """A QR code drawn on a card front does not decode, at 300 dpi, to exactly the card's URL.

    The check renders the card's QR box with pdfium and reads it with zxing-cpp, without
    trying the inverted image (codes are dark on light).

    Fails: something drawn over the quiet zone, or a module size so small it merges at 300 dpi.

    Passes: the code as deckpress draws it from the layout's ``qr`` box.
    """,
)


#: Bytes a version 40 QR code holds at level M in byte mode (ISO/IEC 18004:2015 Table 7), for the message.
MAX_URL_BYTES = 2331


class QrTooLong(ValueError):
    """A URL longer than the largest QR code (version 40) holds at level M."""


#: Entries of the per-URL caches the print stage reads: it uses each URL several times while it
#: draws one card, then never again, so a few hundred keep every hit and cap the memory (4,096
#: module paths held ~15 MB once a deck passed 4,000 cards).
_PER_URL_CACHE = 256


@lru_cache(maxsize=_PER_URL_CACHE)
def _dark(url: str):
    """The QR matrix of ``url`` as a read-only numpy bool array (rows, columns), True = dark; cached by URL.

    Encoded by zxing-cpp (see :func:`qr_matrix`, which documents the code and the errors raised).
    """
    import numpy as np
    import zxingcpp

    if not url:
        raise ValueError("cannot encode an empty URL as a QR code")
    try:
        code = zxingcpp.create_barcode(url, zxingcpp.BarcodeFormat.QRCode, ec_level="M")
    except ValueError:
        raise QrTooLong(f"URL of {len(url)} characters is longer than any QR code holds at level M (version 40 holds {MAX_URL_BYTES} bytes)") from None
    dark = np.asarray(code.to_image(scale=1, add_quiet_zones=False)) == 0  # 8-bit grey, 0 = dark
    dark.flags.writeable = False
    return dark


@lru_cache(maxsize=4096)
def qr_matrix(url: str) -> tuple[tuple[bool, ...], ...]:
    """The QR matrix of ``url`` at error correction M: rows top to bottom of modules left to right, True = dark.

    Encoded by zxing-cpp's writer (the same library that decodes the codes in the checks):
    the smallest version that holds the URL, the mask with the lowest penalty score
    (ISO/IEC 18004:2015 §7.8.3). No quiet zone in the matrix. Cached by URL. zxing-cpp
    encodes a URL in about 0.4 ms against 7–8 ms for the pure-Python ``qrcode`` package
    on this machine, which matters at 250 faces a build. Raises ValueError for an empty
    URL and :class:`QrTooLong` (a ValueError) for one longer than a version 40 code holds at level M.
    The print stage itself reads the numpy form (:func:`_dark`) and never builds these tuples.
    """
    return tuple(map(tuple, _dark(url).tolist()))


def modules(url: str) -> int:
    """Modules on a side of ``url``'s QR code (17 + 4 × version, no quiet zone); raises as :func:`qr_matrix`."""
    return _dark(url).shape[0]


def module_pt(url: str, box_pdf: Sequence[float]) -> float:
    """Module size in pt when the code plus its 4-module quiet zone fills the shorter side of ``box_pdf`` (x, y, w, h)."""
    return min(box_pdf[2], box_pdf[3]) / (modules(url) + 2 * QUIET_ZONE_MODULES)


def check_qr_size(url: str, box_pdf: Sequence[float], location: Location = Location()) -> list[Finding]:
    """A QR001 finding when ``url`` in ``box_pdf`` would have modules under 0.5 mm, else ``[]``.

    The message names the URL length, the module count and the module size in mm; a URL
    no QR version holds (:class:`QrTooLong`) is a QR001 too.
    """
    try:
        size = module_pt(url, box_pdf)
    except QrTooLong as exc:
        return [QR_TOO_DENSE.finding(str(exc), location, hint="shorten archive.base_url or card_path (or the card id)")]
    if size >= mm_to_pt(MIN_MODULE_MM) - 1e-9:
        return []
    n = modules(url)
    need = mm_to_pt(MIN_MODULE_MM) * (n + 2 * QUIET_ZONE_MODULES)
    return [
        QR_TOO_DENSE.finding(
            f"URL of {len(url)} characters needs {n}×{n} modules; in a {pt_to_mm(min(box_pdf[2], box_pdf[3])):.1f} mm box "
            f"with the quiet zone a module is {pt_to_mm(size):.2f} mm, below {MIN_MODULE_MM} mm",
            location,
            hint=f"shorten archive.base_url or card_path, or make the layout's qr box at least {pt_to_mm(need):.1f} mm",
        )
    ]


#: The longest side of a QR code, in modules (version 40: 17 + 4 × 40; ISO/IEC 18004:2015 §5.3.1).
_MAX_MODULES = 177


@lru_cache(maxsize=1)
def _digits():
    """ASCII digits of 0 … 177 right-padded to 3 bytes, and which of the 3 are digits (numpy tables)."""
    import numpy as np

    text = [str(i).encode() for i in range(_MAX_MODULES + 1)]
    digits = np.frombuffer(b"".join(t.ljust(3) for t in text), dtype=np.uint8).reshape(-1, 3)
    used = np.array([[k < len(t) for k in range(3)] for t in text])
    return digits, used


@lru_cache(maxsize=_PER_URL_CACHE)
def _module_path(url: str) -> str:
    """PDF path operators of the dark modules in module units (x right, y down), runs per row merged, then ``f``.

    One ``x y w 1 re`` line per run of dark modules (integers in decimal), rows top to bottom,
    runs left to right. The runs are found with numpy (edges of the flattened, row-padded matrix) and
    the text laid out in a fixed-width byte table whose unused digit slots are then dropped,
    so no Python code runs per module or per run.
    """
    import numpy as np

    dark = _dark(url)
    rows, cols = dark.shape
    # The rows one after another, each after a light module, and a light module at the very end:
    # every run then starts after a light module and ends before one, inside its row.
    flat = np.zeros(rows * (cols + 1) + 1, dtype=np.int8)
    flat[:-1].reshape(rows, cols + 1)[:, 1:] = dark
    edges = np.flatnonzero(flat[1:] != flat[:-1])  # starts and ends alternate, row-major
    run_starts, run_ends = edges[0::2], edges[1::2]
    run_rows, starts = np.divmod(run_starts, cols + 1)
    digits, used = _digits()
    # "xxx yyy www 1 re\n": three 3-byte number slots, each followed by a space, then "1 re\n"
    table = np.empty((len(starts), 17), dtype=np.uint8)
    keep = np.ones((len(starts), 17), dtype=bool)
    for slot, numbers in enumerate((starts, run_rows, run_ends - run_starts)):
        table[:, 4 * slot : 4 * slot + 3] = digits[numbers]
        keep[:, 4 * slot : 4 * slot + 3] = used[numbers]
    table[:, 3:12:4] = 32  # spaces
    table[:, 12:] = np.frombuffer(b"1 re\n", dtype=np.uint8)
    return table[keep].tobytes().decode("ascii") + "f"


def draw_qr(canvas, url: str, box_pdf: Sequence[float]) -> tuple[float, float, float]:
    """Draw the QR code of ``url`` with its white quiet zone in ``box_pdf`` = (x, y, w, h), PDF pt.

    The square (code + quiet zone) is anchored at the box's top-left corner and fills
    the box's shorter side. Colours are CMYK (white quiet zone, 100 % K modules). The
    modules are one filled path of rectangles in module units under a single ``cm``
    (so adjacent modules never show hairline seams, and the path text is cached per URL).
    Returns ``(x, y, side)`` of the square drawn, in PDF pt. A URL no QR code holds
    (:class:`QrTooLong`; :func:`check_qr_size` reports it as QR001) leaves the box empty white.
    """
    try:
        n = modules(url)
    except QrTooLong:
        side = min(box_pdf[2], box_pdf[3])
        canvas.saveState()
        canvas.setFillColor(LIGHT)
        canvas.rect(box_pdf[0], box_pdf[1] + box_pdf[3] - side, side, side, stroke=0, fill=1)
        canvas.restoreState()
        return box_pdf[0], box_pdf[1] + box_pdf[3] - side, side
    module = module_pt(url, box_pdf)
    side = module * (n + 2 * QUIET_ZONE_MODULES)
    x0, top = box_pdf[0], box_pdf[1] + box_pdf[3]
    canvas.saveState()
    canvas.setFillColor(LIGHT)
    canvas.rect(x0, top - side, side, side, stroke=0, fill=1)
    canvas.setFillColor(DARK)
    canvas.transform(module, 0, 0, -module, x0 + QUIET_ZONE_MODULES * module, top - QUIET_ZONE_MODULES * module)
    canvas.addLiteral(_module_path(url))
    canvas.restoreState()
    return x0, top - side, side


#: Margin around the QR box rendered for decoding, pt: keeps anti-aliased edge pixels in the image.
DECODE_MARGIN_PT = 2.0


def decode_qr(pdf: str | Path | PdfDocument, page_index: int, box_pdf: Sequence[float] | None = None, dpi: int = 300) -> list[str]:
    """Decode the QR codes on one page of a PDF rendered at ``dpi``; returns their texts.

    ``pdf`` is a path or a document open from :func:`pipeline.common.raster.open_document`.
    ``box_pdf`` (x, y, w, h in PDF pt, origin bottom-left of the MediaBox) limits the
    render to that region plus :data:`DECODE_MARGIN_PT`, clipped to the page; None renders
    the whole page. The render is pdfium's 8-bit grey bitmap, the same pixels as
    :func:`pipeline.common.raster.render_region` gives (:class:`pipeline.render.bitmaps.PageBitmaps`), handed to
    zxing-cpp as a numpy view (no PIL image and no copies); zxing-cpp reads it without trying
    inverted codes (codes must be dark on light). Raises :class:`pipeline.common.raster.RasterError`
    for an unreadable PDF or a page that does not exist.
    """
    import pypdfium2 as pdfium

    from pipeline.common.raster import open_document

    if isinstance(pdf, pdfium.PdfDocument):
        return _decode_page(pdf, page_index, box_pdf, dpi, "the PDF")
    with open_document(pdf) as document:
        return _decode_page(document, page_index, box_pdf, dpi, pdf)


def _decode_page(document: PdfDocument, index: int, box_pdf: Sequence[float] | None, dpi: int, name: str | Path,
                 bitmaps: PageBitmaps | None = None) -> list[str]:
    import zxingcpp

    from pipeline.common.raster import RasterError
    from pipeline.render.bitmaps import PageBitmaps

    if not 0 <= index < len(document):
        raise RasterError(f"{name} has {len(document)} page(s); page {index + 1} was asked for")
    region = None
    if box_pdf is not None:
        m = DECODE_MARGIN_PT
        region = (box_pdf[0] - m, box_pdf[1] - m, box_pdf[2] + 2 * m, box_pdf[3] + 2 * m)
    own = bitmaps is None
    bitmaps = PageBitmaps(grey=True) if own else bitmaps
    try:
        pixels = bitmaps.region(document, index, region, dpi)
        found = zxingcpp.read_barcodes(pixels, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
    finally:
        if own:
            bitmaps.close()
    return [b.text for b in found]


def verify_qr(pdf_path: str | Path, expected: Iterable[tuple[str, str]], box_pdf: Sequence[float], dpi: int = 300) -> list[Finding]:
    """QR002 findings for pages whose QR does not decode to the expected URL.

    ``expected`` gives ``(card_id, url)`` per page, in page order. The PDF is opened
    once; each page costs one small render and decode (a few ms). Raises
    :class:`pipeline.common.raster.RasterError` for an unreadable PDF or fewer pages than expected.
    """
    from pipeline.common.raster import RasterError, open_document
    from pipeline.render.bitmaps import PageBitmaps

    out: list[Finding] = []
    expected = list(expected)
    # one bitmap for every page: the pages of a fronts PDF are one size
    with open_document(pdf_path) as document, PageBitmaps(grey=True) as bitmaps:
        if len(document) < len(expected):
            raise RasterError(f"{pdf_path} has {len(document)} page(s); {len(expected)} card fronts were expected")
        decoded = [(index, card_id, url, _decode_page(document, index, box_pdf, dpi, pdf_path, bitmaps))
                   for index, (card_id, url) in enumerate(expected)]
    for index, card_id, url, texts in decoded:
        if texts != [url]:
            got = ", ".join(repr(t) for t in texts) or "nothing"
            out.append(
                QR_NO_DECODE.finding(
                    f"page {index + 1}: the QR decodes at {dpi} dpi to {got}, expected {url!r}",
                    Location(str(pdf_path), card=card_id),
                    hint="keep the qr box and its quiet zone clear of other elements; enlarge the box",
                )
            )
    return out

"""Every mark and the slug of every shipped sheet preset stay inside the printable area the preset
states (templates/sheets.yaml ``margin``: 0.25 in, the band a printer with a 4-5 mm unprintable
edge clips), on the card sheets and the duplex calibration sheet (issue #25).

The drawing extents are read from the PDFs, not from the geometry functions: each page is
rendered with pypdfium2 (PDFium, an independent renderer) at 2 px per pt and the bounding box
of every pixel darker than 250/255 is compared with the sheet less its margin, allowing half a
pixel of anti-aliasing. Card pages are filled edge to edge (bleed included), so their ink
reaches the margin exactly on letter and tabloid. (Before issue #25 the crop marks ran to 1 pt
from the edge and the slug sat 9 pt from the bottom.)
"""

from __future__ import annotations

import numpy as np
import pypdfium2 as pdfium
import pytest

from pipeline.render.impose import impose
from pipeline.render.sheets import get_sheet, plan_grid
from test_impose import H, W, card_pdf

SCALE = 2  # px per pt
TOLERANCE = 0.5 / SCALE  # pt: half a pixel of anti-aliasing


def _ink_box(page) -> tuple[float, float, float, float]:
    """Bounding box of the ink on a rendered page, in PDF pt (origin bottom-left): (x0, y0, x1, y1)."""
    image = np.asarray(page.render(scale=SCALE, grayscale=True).to_pil().convert("L"))
    rows, cols = np.nonzero(image < 250)
    height = image.shape[0]
    return cols.min() / SCALE, (height - rows.max() - 1) / SCALE, (cols.max() + 1) / SCALE, (height - rows.min()) / SCALE


@pytest.mark.parametrize("name", ["letter", "a4", "tabloid", "12x18", "sra3"])
def test_marks_and_slug_stay_inside_the_printable_area(name, tmp_path):
    spec = get_sheet(name)
    grid = plan_grid(spec, W, H)
    fronts, backs = card_pdf(tmp_path / "f.pdf", 4), card_pdf(tmp_path / "b.pdf", 2)
    res = impose(fronts, backs, card_pdf(tmp_path / "br.pdf", 4), spec, [(i, i % 2, 3) for i in range(4)], tmp_path / "out", "demo",
                 note="DRAFT - not for press · run box")
    area = (spec.margin, spec.margin, grid.width - spec.margin, grid.height - spec.margin)
    assert spec.margin == 18.0  # 0.25 in on every shipped preset
    for path in (res.fronts, res.backs, res.braille, res.calibration):
        doc = pdfium.PdfDocument(str(path))
        for number in range(len(doc)):
            x0, y0, x1, y1 = _ink_box(doc[number])
            where = (path.name, number + 1, (x0, y0, x1, y1), area)
            assert x0 >= area[0] - TOLERANCE and y0 >= area[1] - TOLERANCE, where
            assert x1 <= area[2] + TOLERANCE and y1 <= area[3] + TOLERANCE, where


def test_the_letter_slug_runs_turned_in_the_left_margin(tmp_path):
    """Letter's cards reach the 0.25 in band above and below the grid, so the slug turns into the left
    margin: its text runs bottom to top between x = 18 pt and the row marks' ends (55 pt)."""
    res = impose(card_pdf(tmp_path / "f.pdf", 4), None, None, "letter", [(i, 0, 1) for i in range(4)], tmp_path, "demo")
    page = pdfium.PdfDocument(str(res.fronts))[0]
    text = page.get_textpage()
    found = text.search("demo · sheet 1/1 · front · letter portrait").get_next()
    assert found is not None
    first, count = found
    boxes = [text.get_charbox(i) for i in range(first, first + count)]
    assert min(b[0] for b in boxes) >= 18.0 and max(b[2] for b in boxes) <= 55.0  # inside the band, left of the marks
    assert min(b[1] for b in boxes) >= 18.0 and max(b[3] for b in boxes) < 792 - 18.0
    assert boxes[-1][1] > boxes[0][1]  # read bottom to top

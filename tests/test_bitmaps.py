"""PageBitmaps: the pixels pypdfium2's render gives (raster.render_region, raster.render_pages), from one reused bitmap."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import GAMES
from engine.load import load_game
from pipeline.common.raster import RasterError, open_document, render_pages, render_region
from pipeline.render.bitmaps import PageBitmaps
from pipeline.render.deck_pdf import render_fronts


@pytest.fixture(scope="module")
def fronts(tmp_path_factory):
    return render_fronts(load_game(GAMES / "mini"), tmp_path_factory.mktemp("bitmaps") / "fronts.pdf").path


# the QR box, a box past the page's left and bottom edges (clipped), the whole page
BOXES = [(27.0, 279.0, 72.0, 72.0), (-5.0, -5.0, 500.0, 30.5), None]


@pytest.mark.parametrize("box", BOXES)
def test_grey_regions_are_render_regions_pixels(fronts, box):
    with open_document(fronts) as doc, PageBitmaps(grey=True) as bitmaps:
        for index in range(len(doc)):
            pixels = bitmaps.region(doc, index, box, 300)
            reference = np.asarray(render_region(doc, index, box, 300))
            assert pixels.dtype == np.uint8 and pixels.shape == reference.shape
            assert np.array_equal(pixels, reference)
            # 100 % K drawn on white: PDFium's own CMYK → grey gives K=1 as 32 (the QR modules, the frame)
            assert pixels.min() == 32 and pixels.max() == 255


def test_trim_renders_are_render_pages_pixels_and_one_bitmap_serves_every_page(fronts):
    reference = [np.asarray(r.image) for r in render_pages(fronts, dpi=96, crop_to_trim=True)]
    with open_document(fronts) as doc, PageBitmaps(grey=False) as bitmaps:
        shown = [bitmaps.trim(doc, index, 96) for index in range(len(doc))]
        assert all(a is shown[0] for a in shown)  # one array, overwritten page after page
        again = [np.array(bitmaps.trim(doc, index, 96)) for index in range(len(doc))]
    assert len(again) == len(reference) == 4
    for pixels, expected in zip(again, reference):
        assert pixels.shape == expected.shape == (480, 288, 3)  # 3 × 5 in at 96 dpi
        assert np.array_equal(pixels, expected)


def test_a_new_size_makes_a_new_bitmap_and_a_missing_page_is_a_raster_error(fronts):
    with open_document(fronts) as doc, PageBitmaps(grey=True) as bitmaps:
        small = np.array(bitmaps.region(doc, 0, BOXES[0], 150))
        large = bitmaps.region(doc, 0, BOXES[0], 300)
        # each side ceil(page pt × scale) less each crop ceil(pt × scale): 488 − 57 − 282 = 149 px at 150 dpi
        assert small.shape == (149, 149) and large.shape == (299, 300)
        assert np.array_equal(small, np.asarray(render_region(doc, 0, BOXES[0], 150)))
        with pytest.raises(RasterError, match=r"has 4 page\(s\); page 5 was asked for"):
            bitmaps.region(doc, 4, None, 72)


def test_png_rows_hold_the_trim_pixels_after_a_zero_filter_byte_and_give_rgb_pngs_file(fronts):
    """``png_rows`` renders into PNG scanlines in place (issue 22): the reference is the plain RGB bitmap's
    pixels (themselves render_pages' pixels, above) and rgb_png's file of them, byte for byte."""
    from pipeline.common.pngfile import rgb_png, rgb_png_rows

    with open_document(fronts) as doc, PageBitmaps(grey=False) as plain, PageBitmaps(grey=False, png_rows=True) as rows:
        for index in range(len(doc)):
            expected = np.array(plain.trim(doc, index, 96))
            pixels = rows.trim(doc, index, 96)
            assert rows.rows.shape == (480, 1 + 3 * 288) and np.shares_memory(pixels, rows.rows)
            assert not rows.rows[:, 0].any() and np.array_equal(rows.rows[:, 1:].reshape(480, 288, 3), expected)
            assert np.array_equal(pixels, expected)
            assert rgb_png_rows(rows.rows) == rgb_png(expected)
    assert PageBitmaps(grey=True, png_rows=True).rows is None  # grey bitmaps have no PNG rows

"""pipeline.proofs.canvas.PageCanvas against its reference, Pillow's Image.alpha_composite onto an
opaque RGBA copy of the same page: the same RGB pixels for overlays inside, across and off the page;
and the proofs' own scanline render against pypdfium2's PdfPage.render (the shared rasteriser)."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from pipeline.proofs.canvas import PageCanvas


def _canvas(rng, width=61, height=47) -> tuple[PageCanvas, np.ndarray]:
    rows = rng.integers(0, 256, (height, 1 + 3 * width), dtype=np.uint8)  # PNG scanlines, as PageBitmaps renders them
    rows[:, 0] = 0
    return PageCanvas(rows[:, 1:].reshape(height, width, 3), rows), rows


@pytest.mark.parametrize("dest", [(0, 0), (5, 9), (-7, -3), (50, 40), (55, -10), (-30, 30), (200, 5), (3, 46)])
def test_overlays_composite_as_pillow_composites_them(dest):
    rng = np.random.default_rng(sum(dest) + 100)
    canvas, rows = _canvas(rng)
    page = Image.fromarray(canvas.pixels.copy()).convert("RGBA")  # the reference: an opaque RGBA copy
    overlay = Image.fromarray(rng.integers(0, 256, (20, 33, 4), dtype=np.uint8), "RGBA")
    canvas.alpha_composite(overlay, dest)
    page.alpha_composite(overlay, dest)
    assert np.array_equal(canvas.pixels, np.asarray(page)[:, :, :3])
    assert (rows[:, 0] == 0).all() and np.shares_memory(canvas.pixels, rows)  # written in place, filter bytes kept


def test_a_whole_page_overlay_and_nothing_to_do():
    rng = np.random.default_rng(7)
    canvas, _ = _canvas(rng)
    before = canvas.pixels.copy()
    assert canvas.size == (61, 47) and (canvas.width, canvas.height) == (61, 47)
    canvas.alpha_composite(Image.new("RGBA", canvas.size, (9, 9, 9, 0)))  # fully transparent: nothing changes
    canvas.alpha_composite(Image.new("RGBA", (5, 5), (1, 2, 3, 255)), (100, 100))  # wholly off the page
    assert np.array_equal(canvas.pixels, before)
    canvas.alpha_composite(Image.new("RGBA", canvas.size, (1, 2, 3, 255)))  # opaque: everything is the overlay
    assert (canvas.pixels == (1, 2, 3)).all()


def test_only_rgb_pixels():
    with pytest.raises(ValueError, match="not \\(height, width, 3\\) uint8"):
        PageCanvas(np.zeros((4, 4, 4), np.uint8))


def test_proof_canvases_are_pypdfium2s_render_with_the_same_geometry(tmp_path):
    # The shared rasteriser (pipeline.common.raster, pypdfium2's PdfPage.render) is the reference.
    from pipeline.proofs.pages import proof_canvases, proof_pages
    from pipeline.render.deck_pdf import render_fronts
    from engine.load import load_game
    from conftest import ROOT

    deck = load_game(ROOT / "carddata" / "enchant")
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    own = [(r.image.pixels.copy(), r.trim_origin_px, r.trim_size_pt, r.image.size) for r in proof_canvases(fronts.path, 150, pages=[0, 3, 7])]
    ref = [(np.asarray(r.image)[:, :, :3], r.trim_origin_px, r.trim_size_pt, r.image.size) for r in proof_pages(fronts.path, 150, pages=[0, 3, 7])]
    assert len(own) == len(ref) == 3
    for (a, *ga), (b, *gb) in zip(own, ref):
        assert ga == gb and ga[2] == (488, 788) and np.array_equal(a, b)


def test_pasting_with_the_overlays_alpha_is_alpha_composite_onto_an_opaque_page_for_every_value():
    # The canvas pastes an RGBA overlay onto an RGB region with the overlay's alpha as mask; the reference is
    # Pillow's alpha_composite onto the same region made opaque RGBA. Every (page value, overlay value, alpha).
    d = np.arange(256, dtype=np.uint8)
    page_value, value, alpha = (a.ravel() for a in np.meshgrid(d, d, d, indexing="ij"))
    side = 4096
    page = np.stack([page_value, page_value[::-1], value], axis=1).reshape(side, side, 3)
    overlay = Image.fromarray(np.dstack([np.stack([value, alpha, page_value], axis=1).reshape(side, side, 3),
                                         alpha.reshape(side, side)]), "RGBA")
    reference = Image.alpha_composite(Image.fromarray(page).convert("RGBA"), overlay)
    canvas = PageCanvas(page.copy())
    canvas.alpha_composite(overlay)
    assert np.array_equal(canvas.pixels, np.asarray(reference)[:, :, :3])

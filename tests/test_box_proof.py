"""The boxes' PNG proofs (pipeline.boxes.proof): the folded front's panels transformed over their
footprint only give the pixels of a transform over the whole image, the RGBA writer decodes to its
pixels (transparency kept), and the flat proof is the page as PDFium renders it."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageEnhance

from conftest import ROOT
from engine.load import load_game
from pipeline.boxes import proof
from pipeline.boxes.pdf import write_box
from pipeline.boxes.plan import plan_boxes
from pipeline.braille.geometry import get_profile
from pipeline.common.raster import render_page
from pipeline.render.targets import load_target
from pipeline.render.uv.package import printer_for


@pytest.fixture(scope="module")
def box(tmp_path_factory):
    deck = load_game(ROOT / "carddata" / "enchant")
    (plan,), _ = plan_boxes(deck, get_profile("spec800"))
    printer = printer_for("roland-versaworks")
    files = write_box(plan, tmp_path_factory.mktemp("box"), deck.game.id, load_target(), printer, printer.clear_spot_for(None),
                      deck.game.card.bleed, deck.game.title, 0.45, 2.0)
    return plan, next(p for p in files.paths if p.name.endswith("-print+braille.pdf"))


def _whole_image_front(raster, plan) -> Image.Image:
    """The folded front as drawn before: each panel transformed over the whole output image."""
    line = plan.dieline
    front, side, lid = (proof._panel(raster, line.panels[name]) for name in proof.SHOWN)
    w, h, d = front.width, front.height, side.width
    dy = proof.OBLIQUE * d
    size = (round(w + dy) + 1, round(h + dy) + 1)
    out = Image.new("RGBA", size, (255, 255, 255, 0))
    out.alpha_composite(front, (0, round(dy)))
    for panel, mapping, light in ((side, (1 / proof.OBLIQUE, 0, -w / proof.OBLIQUE, 1, 1, -dy - w), proof.SIDE_LIGHT),
                                  (lid, (-1, -1, w + dy, 0, -1 / proof.OBLIQUE, dy / proof.OBLIQUE), proof.LID_LIGHT)):
        lit = ImageEnhance.Brightness(panel.convert("RGB")).enhance(light).convert("RGBA")
        out.alpha_composite(lit.transform(size, Image.Transform.AFFINE, mapping, resample=Image.Resampling.BICUBIC,
                                          fillcolor=(255, 255, 255, 0)))
    notch = line.panels["front"]
    r = max(p[1] for p in line.cut if notch.x < p[0] < notch.x + notch.w and notch.y < p[1] < notch.y + notch.h) - notch.y
    scale, draw = raster.px_per_mm, ImageDraw.Draw(out)
    draw.pieslice((w / 2 - r * scale, dy - r * scale, w / 2 + r * scale, dy + r * scale), 0, 180, fill=proof.NOTCH_SHADE)
    draw.rectangle((0, round(dy), w - 1, round(dy) + h - 1), outline=proof.EDGE)
    return out


def test_front_transformed_over_its_footprint_is_the_whole_image_transform(box):
    plan, merged = box
    raster = proof.render_printed(merged, proof.FRONT_DPI)
    new, old = proof.folded_front(raster, plan), _whole_image_front(raster, plan)
    assert new.mode == old.mode == "RGBA" and new.size == old.size
    assert np.array_equal(np.asarray(new), np.asarray(old))
    alpha = np.asarray(new)[..., 3]
    assert alpha.min() == 0 and alpha.max() == 255  # transparent round the box, opaque on it


def test_rgba_png_decodes_to_its_pixels(box):
    plan, merged = box
    front = proof.folded_front(proof.render_printed(merged, proof.FRONT_DPI), plan)
    back = Image.open(io.BytesIO(proof.rgba_png(front)))
    assert back.mode == "RGBA" and np.array_equal(np.asarray(back), np.asarray(front))
    with pytest.raises(ValueError):
        proof.rgba_png(front.convert("RGB"))


def test_written_proofs_are_the_renders(box, tmp_path):
    plan, merged = box
    flat_png, front_png = proof.write_proofs(plan, merged, tmp_path, "x")
    flat = render_page(merged, 0, dpi=proof.FLAT_DPI).image
    assert np.array_equal(np.asarray(Image.open(flat_png).convert("RGB")), np.asarray(flat))
    front = proof.folded_front(proof.render_printed(merged, proof.FRONT_DPI), plan)
    assert np.array_equal(np.asarray(Image.open(front_png)), np.asarray(front))


def test_rgba_png_idat_inflates_to_filter_0_rows(box):
    """The IDAT, inflated by zlib (the reference decoder, independent of ISA-L that wrote it), is every row's
    filter byte 0 then the row's RGBA bytes."""
    import struct
    import zlib
    plan, merged = box
    front = proof.folded_front(proof.render_printed(merged, proof.FRONT_DPI), plan)
    data = proof.rgba_png(front)
    length = struct.unpack(">I", data[33:37])[0]
    assert data[37:41] == b"IDAT"
    rows = np.frombuffer(zlib.decompress(data[41:41 + length]), np.uint8).reshape(front.height, 4 * front.width + 1)
    assert not rows[:, 0].any() and rows[:, 1:].tobytes() == front.tobytes()


def test_renders_by_c_calls_are_pypdfium2s(box):
    """The proofs' renders (PDFium's C calls into numpy buffers) against pypdfium2's ``render`` (the reference,
    what the proofs called before): the printed page (FPDF_PRINTING, RGBX) and the viewed one (RGB), pixel for pixel."""
    from pipeline.common.raster import open_document
    import pypdfium2.raw as pdfium_c
    _, merged = box
    with open_document(merged) as doc:
        page = doc[0]
        printed = proof._printed(page, proof.FRONT_DPI).image
        reference = page.render(scale=proof.FRONT_DPI / 72, extra_flags=pdfium_c.FPDF_PRINTING, rev_byteorder=True,
                                prefer_bgrx=True).to_pil()
        assert printed.mode == reference.mode == "RGBX" and printed.size == reference.size
        assert np.array_equal(np.asarray(printed.convert("RGB")), np.asarray(reference.convert("RGB")))
        from pipeline.render.bitmaps import PageBitmaps

        with PageBitmaps(grey=False, png_rows=True) as bitmaps:  # the flat proof's render
            pixels = bitmaps.loaded(page, proof.FLAT_DPI)
            rows = bitmaps.rows
            viewed = page.render(scale=proof.FLAT_DPI / 72, rev_byteorder=True).to_numpy()
            assert not rows[:, 0].any() and np.array_equal(pixels, viewed) and np.shares_memory(pixels, rows)


def test_the_shortcuts_of_folded_front_are_pillows_long_ways():
    """Reference: Pillow's own operations the folded front used before, on every 8-bit value. An opaque panel
    pasted on the transparent white canvas is what alpha_composite gives; RGB straight to RGBa (premultiplied) is
    RGB -> RGBA -> RGBa; RGBX cut to RGB is RGBX -> RGBA -> RGB."""
    ramp = np.zeros((256, 256, 3), np.uint8)
    ramp[..., 0], ramp[..., 1], ramp[..., 2] = np.arange(256)[:, None], np.arange(256)[None, :], 255 - np.arange(256)[:, None]
    rgb = Image.fromarray(ramp, "RGB")
    pasted, composited = (Image.new("RGBA", rgb.size, (255, 255, 255, 0)) for _ in range(2))
    pasted.paste(rgb.convert("RGBA"), (0, 0))
    composited.alpha_composite(rgb.convert("RGBA"), (0, 0))
    assert np.array_equal(np.asarray(pasted), np.asarray(composited))
    assert np.array_equal(np.asarray(rgb.convert("RGBa")), np.asarray(rgb.convert("RGBA").convert("RGBa")))
    rgbx = rgb.convert("RGBX")
    assert np.array_equal(np.asarray(rgbx.convert("RGB")), np.asarray(rgbx.convert("RGBA").convert("RGB")))

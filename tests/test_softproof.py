"""Soft proofing: proofs and archive faces show the CMYK pages as FOGRA39 prints them (sRGB from the profile)."""

from __future__ import annotations

import pikepdf
import pytest
from PIL import Image

from engine.load import load_game
from pipeline.braille.layout import layout_deck
from pipeline.common.raster import render_page
from pipeline.render.colour import soft_proof_image, soft_proof_srgb
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.softproof import soft_proof_bytes, soft_proof_pages, soft_proof_pdf

EMBER = (0, 73, 89, 56)  # the shipped Ember ground


@pytest.fixture(scope="module")
def deck_dir(tmp_path_factory):
    """The mini game with Ember on the shipped Ember palette (white text on [0, 73, 89, 56]) and an art image."""
    import shutil

    from conftest import GAMES

    folder = tmp_path_factory.mktemp("soft") / "mini"
    shutil.copytree(GAMES / "mini", folder)
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace(
        '      background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}\n      text: {cmyk: [0, 0, 0, 100], srgb: "#2b2b2a"}',
        f'      background: {{cmyk: [0, 73, 89, 56], srgb: "{soft_proof_srgb(EMBER)}"}}\n'
        '      text: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}', 1))
    Image.new("RGB", (60, 40), (30, 160, 220)).save(folder / "sky.png")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Ember Apprentice\n", "    name: Ember Apprentice\n    image: sky.png\n", 1))
    return folder


def _hex(rgb) -> str:
    return "#%02x%02x%02x" % rgb[:3]


def test_soft_proof_pdf_replaces_every_cmyk_colour_and_image_keeping_the_geometry(deck_dir, tmp_path):
    deck = load_game(deck_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf").path
    soft = soft_proof_pdf(fronts, tmp_path / "soft.pdf")
    with pikepdf.open(fronts) as cmyk, pikepdf.open(soft) as rgb:
        assert len(cmyk.pages) == len(rgb.pages)
        for a, b in zip(cmyk.pages, rgb.pages):
            assert [list(a.obj[k]) for k in ("/MediaBox", "/TrimBox", "/BleedBox")] == \
                   [list(b.obj[k]) for k in ("/MediaBox", "/TrimBox", "/BleedBox")]
            ops = {str(op) for _, op in pikepdf.parse_content_stream(b)}
            assert not ops & {"k", "K", "g", "G"} and "rg" in ops
        (art,) = [x for x in rgb.pages[0].obj.Resources.XObject.values() if x.Subtype == pikepdf.Name.Image]
        (art_cmyk,) = [x for x in cmyk.pages[0].obj.Resources.XObject.values() if x.Subtype == pikepdf.Name.Image]
        assert art.ColorSpace == pikepdf.Name.DeviceRGB and (art.Width, art.Height) == (art_cmyk.Width, art_cmyk.Height)
        # the art's pixels are its CMYK pixels through the profile
        from pikepdf.models.image import PdfImage

        source = PdfImage(art_cmyk).as_pil_image()
        assert PdfImage(art).as_pil_image().getpixel((5, 5)) == soft_proof_image(source).getpixel((5, 5))
    # same bytes on every run
    again = soft_proof_pdf(fronts, tmp_path / "again.pdf")
    assert again.read_bytes() == soft.read_bytes()


def test_a_soft_proof_made_once_renders_as_one_made_per_reader(deck_dir, tmp_path):
    """The print stage makes the soft proof once for the archive and the proofs (issue 22): the bytes
    it keeps are the file's, and rendering them gives the pixels a fresh soft proof gives."""
    deck = load_game(deck_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf").path
    kept = soft_proof_bytes(fronts)
    assert kept == soft_proof_pdf(fronts, tmp_path / "soft.pdf").read_bytes()
    fresh = [r.image.tobytes() for r in soft_proof_pages(fronts, dpi=96, crop_to_trim=True)]
    shared = [r.image.tobytes() for r in soft_proof_pages(fronts, dpi=96, crop_to_trim=True, proofed=kept)]
    assert len(shared) == len(deck.cards) and shared == fresh


def test_front_proof_and_archive_face_show_the_ground_as_fogra39_prints_it(deck_dir, tmp_path):
    from pipeline.archive.site import write_archive
    from pipeline.proofs.proof import write_proofs

    deck = load_game(deck_dir)
    blocks, _ = layout_deck(deck)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    backs = render_backs(deck, tmp_path / "backs.pdf")
    write_proofs(deck, blocks, fronts.path, backs.path, tmp_path / "proofs", front_ids=fronts.pages, back_ids=backs.pages)
    write_archive(deck, blocks, fronts.path, tmp_path / "archive", page_ids=fronts.pages)
    card = fronts.pages[0]
    want = soft_proof_srgb(EMBER)
    assert want == "#874125"
    with Image.open(tmp_path / "proofs" / "fronts" / f"{card}.png") as proof:
        assert _hex(proof.convert("RGB").getpixel((2, 2))) == want  # the bleed, all ground
    with Image.open(tmp_path / "proofs" / "backs" / "ember.png") as back:
        assert _hex(back.convert("RGB").getpixel((2, 2))) == want
    with Image.open(tmp_path / "archive" / "images" / f"{card}.png") as face:
        assert _hex(face.convert("RGB").getpixel((2, 2))) == want
    # pypdfium2's own CMYK conversion, which the proofs used before, shows another colour
    plain = render_page(fronts.path, 0, dpi=150).image.getpixel((2, 2))
    assert _hex(plain) != want


def test_soft_proof_pages_are_libdeflate_level_1_of_the_rewritten_content(deck_dir, tmp_path):
    """Each soft-proofed page's content is one Flate stream: libdeflate's level 1 (issue 22, in place of
    zlib's level 6) of the colour rewrite of the print page's content, decoded back (by qpdf) to exactly it."""
    import deflate

    from pipeline.render.softproof import _rewrite_colours
    from pipeline.render.targets import DEFAULT_TARGET, load_target

    deck = load_game(deck_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf").path
    target = load_target(DEFAULT_TARGET)
    with pikepdf.open(fronts) as cmyk, pikepdf.open(soft_proof_pdf(fronts, tmp_path / "soft.pdf")) as rgb:
        for a, b in zip(cmyk.pages, rgb.pages):
            contents = a.obj.Contents
            source = b"\n".join(c.read_bytes() for c in contents) if isinstance(contents, pikepdf.Array) else contents.read_bytes()
            rewritten = _rewrite_colours(source, target)
            assert rewritten is not None and b.obj.Contents.read_bytes() == rewritten
            assert b.obj.Contents.read_raw_bytes() == bytes(deflate.zlib_compress(rewritten, 1))

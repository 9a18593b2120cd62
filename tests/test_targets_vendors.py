"""Vendor presets: The Game Crafter, MakePlayingCards and DriveThruCards upload files (exact pixel sizes,
names, colour modes, page order, output intent, ink) and the cut-margin findings VE001/VE002."""

from __future__ import annotations

import json
import struct
import subprocess
from pathlib import Path

import pikepdf
import pytest
from PIL import Image

from conftest import GAMES
from engine.load import load_game
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.common.layout import load_layout
from pipeline.exports.vendorcut import cut_findings, cut_lines
from pipeline.exports.vendors import VendorError, fit_to_image, number_text, write_vendor_files
from pipeline.render.colour import soft_proof_srgb
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.pdfx import check_pdfx
from pipeline.render.targets import load_target

EMBER = '      background: {cmyk: [0, 73, 89, 56], srgb: "#874125"}\n      text: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}'
MINI_FILES = [f"mini-{n:03d}-{side}.png" for n in range(1, 5) for side in ("front", "back")]


def _png_header(path: Path) -> tuple[int, int, int, int]:
    """(width, height, bit depth, colour type) from the PNG's IHDR chunk, read byte by byte (PNG spec §11.2.2), not by Pillow."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height, depth, colour_type = struct.unpack(">IIBB", data[16:26])
    return width, height, depth, colour_type


def _vendor_files(game_copy, tmp_path: Path, target_id: str):
    """Mini with Ember's shipped ground (a colour the plain formula gets wrong), printed for the target and its vendor files written."""
    folder = game_copy("mini")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace(
        '      background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}\n      text: {cmyk: [0, 0, 0, 100], srgb: "#2b2b2a"}', EMBER, 1))
    deck, target = load_game(folder), load_target(target_id)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf", target=target)
    backs = render_backs(deck, tmp_path / "backs.pdf", target=target)
    result = write_vendor_files(deck, fronts.path, backs.path, target, tmp_path / target_id, fronts.pages, backs.pages)
    return deck, (fronts, backs), result


def _ghostscript_trim_pixel(pdf: Path, profile: Path, xy: tuple[int, int], tmp_path: Path) -> tuple[int, int, int]:
    """Ghostscript (its own CMM) renders page 1 of ``pdf`` at 300 dpi, trim box only, CMYK → sRGB through ``profile``."""
    png = tmp_path / "gs.png"
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=png16m", "-r300", "-dUseTrimBox", "-dFirstPage=1",
                    "-dLastPage=1", f"-sDefaultCMYKProfile={profile}", "-dRenderIntent=1", "-dBlackPtComp=0",
                    f"-sOutputFile={png}", str(pdf)], check=True)
    return Image.open(png).convert("RGB").getpixel(xy)


def test_the_game_crafter_gets_one_900x1500_rgb_png_per_face(game_copy, tmp_path):
    """References: the PNG's own IHDR bytes for size and colour type; Ghostscript's rendering of the CMYK
    fronts through the same FOGRA39 profile for the colour (within 2 %)."""
    deck, (fronts, _), result = _vendor_files(game_copy, tmp_path, "thegamecrafter")
    folder = tmp_path / "thegamecrafter"
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == sorted(MINI_FILES + ["manifest.json"])
    for name in MINI_FILES:
        assert _png_header(folder / name) == (900, 1500, 8, 2)  # 8-bit truecolour RGB, no alpha: 3 x 5 in at 300 dpi
    manifest = json.loads((folder / "manifest.json").read_text())
    assert [e["file"] for e in manifest["files"]] == MINI_FILES
    first = manifest["files"][0]
    assert first == {"file": "mini-001-front.png", "card": "ember-apprentice", "number": "001", "side": "front", "back": "ember",
                     "quantity": 2, "width_px": 900, "height_px": 1500, "mode": "RGB"}
    assert manifest["card"].startswith("2.75 x 4.75 in") and manifest["decks"] == {"ember": ["001", "002"], "forest": ["003", "004"]}
    # the ground beside the frame, inside the cut: Ember's ground as FOGRA39 prints it, not the plain formula's #70200c
    image = Image.open(folder / "mini-001-front.png")
    assert image.mode == "RGB" and "icc_profile" in image.info
    assert tuple(round(d) for d in image.info["dpi"]) == (300, 300)  # 900 px opens as 3 in, not 12.5 in at 72 dpi
    ours = image.getpixel((60, 750))
    hexed = soft_proof_srgb((0, 73, 89, 56))
    assert max(abs(a - int(hexed[i:i + 2], 16)) for a, i in zip(ours, (1, 3, 5))) <= 1
    theirs = _ghostscript_trim_pixel(fronts.path, load_target("fogra39").profile_path, (60, 750), tmp_path)
    assert all(abs(a - b) <= 0.02 * 255 for a, b in zip(ours, theirs)), (ours, theirs)
    assert {f.code for f in result.findings} == {"VE002"}  # the frame on their cut line; no text in it


def test_makeplayingcards_jumbo_places_the_3x5_design_centred_on_1122x1572(game_copy, tmp_path):
    """Reference: the PNG's IHDR bytes; the centre 900 x 1500 px must be The Game Crafter's trim render pixel for pixel."""
    deck, (fronts, backs), result = _vendor_files(game_copy, tmp_path, "makeplayingcards")
    folder = tmp_path / "makeplayingcards"
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == sorted(MINI_FILES + ["manifest.json"])
    for name in MINI_FILES:
        assert _png_header(folder / name) == (1122, 1572, 8, 2)
    jumbo = Image.open(folder / "mini-003-front.png")
    write_vendor_files(deck, fronts.path, backs.path, load_target("thegamecrafter"), tmp_path / "tgc", fronts.pages, backs.pages)
    trim = Image.open(tmp_path / "tgc" / "mini-003-front.png").convert("RGB")
    # 111 px = 36 px bleed + 75 px (the 1/4 in the jumbo card is wider each side); 36 px top and bottom
    assert jumbo.crop((111, 36, 1011, 1536)).tobytes() == trim.tobytes()
    # the bands are our trim's edge pixels repeated: the class colour, one colour per band row
    left = {jumbo.getpixel((x, 750)) for x in range(0, 111)}
    assert left == {trim.getpixel((0, 750))}
    assert {jumbo.getpixel((500, y)) for y in range(0, 36)} == {trim.getpixel((389, 0))}
    assert [f.code for f in result.findings] == []  # a wider card: the frame and text lie further inside the cut


def test_drivethrucards_gets_one_pdfx_with_swop_intent_front_back_pairs_and_at_most_240_percent_ink(game_copy, tmp_path):
    """References: pikepdf for boxes, page order and output intent; Ghostscript's tiffsep separations for total ink."""
    deck, (fronts, _), result = _vendor_files(game_copy, tmp_path, "drivethrucards")
    folder = tmp_path / "drivethrucards"
    assert sorted(p.name for p in folder.iterdir() if not p.name.startswith(".")) == ["manifest.json", "mini-drivethrucards.pdf"]
    pdf_path = folder / "mini-drivethrucards.pdf"
    manifest = json.loads((folder / "manifest.json").read_text())
    (entry,) = manifest["files"]
    # 4 unique cards x 2 copies: 8 printed, each a front page then its back page
    assert [(p["page"], p["number"], p["copy"], p["side"]) for p in entry["pages"]] == [
        (2 * i + j + 1, f"{i // 2 + 1:03d}", i % 2 + 1, side) for i in range(8) for j, side in enumerate(("front", "back"))]
    with pikepdf.open(pdf_path) as pdf, pikepdf.open(fronts.path) as source:
        assert len(pdf.pages) == 16 and check_pdfx(pdf) == []
        (intent,) = pdf.Root.OutputIntents
        assert (str(intent.OutputConditionIdentifier), str(intent.OutputCondition), str(intent.S)) == (
            "CGATS TR 001", "U.S. Web Coated (SWOP) v2", "/GTS_PDFX")
        assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
        for page in pdf.pages:  # 3 x 5 in page = the 2.75 x 4.75 in card + 1/8 in bleed
            assert [float(v) for v in page.mediabox] == [9, 9, 225, 369] == [float(v) for v in page.obj.BleedBox]
            assert [float(v) for v in page.trimbox] == [18, 18, 216, 360]
        # page 3 (card 001's second copy) draws the fronts' first page
        assert pdf.pages[2].Contents.read_bytes() == source.pages[0].Contents.read_bytes()
    seps = tmp_path / "seps"
    seps.mkdir()
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r72", f"-sOutputFile={seps}/p%02d.tif",
                    str(pdf_path)], check=True)
    import numpy as np

    for n in range(1, 17):
        inks = sum(255 - np.asarray(Image.open(seps / f"p{n:02d}({c}).tif"), dtype=np.int32) for c in ("Cyan", "Magenta", "Yellow", "Black"))
        assert inks.max() / 2.55 <= 240, (n, inks.max() / 2.55)
    assert [f.code for f in result.findings] == ["VE002"]


def test_the_drivethrucards_ink_limit_is_240_percent():
    from pipeline.render.contrast import palette_findings

    folder_game = load_game(GAMES / "mini").game
    ember = folder_game.classes[0]
    rich = ember.palette.model_copy(update={"background": ember.palette.background.model_copy(update={"cmyk": (60.0, 60.0, 60.0, 70.0)})})
    game = folder_game.model_copy(update={"classes": [ember.model_copy(update={"palette": rich})] + folder_game.classes[1:]})
    assert "PR010" not in {f.code for f in palette_findings(game, "swop")}  # 250 % is inside SWOP's 300 %
    (ink,) = [f for f in palette_findings(game, "drivethrucards") if f.code == "PR010"]
    assert "covers 250 %, over the 240 % ink limit of CGATS TR 001 (measured with CGATS TR 003)" in ink.message


def test_a_vendor_build_writes_its_folder_and_a_press_build_none(tmp_path):
    (built,) = run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(tmp_path / "v"), only=("vendor",), target="thegamecrafter"))
    assert built.status == "built", built.findings
    assert sorted(p.name for p in (tmp_path / "v/mini/vendor/thegamecrafter").iterdir()) == sorted(MINI_FILES + ["manifest.json"])
    manifest = json.loads((tmp_path / "v/mini/manifest.json").read_text())
    assert "vendor/thegamecrafter/mini-001-front.png" in {e["path"] for e in manifest["files"]}
    (press,) = run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(tmp_path / "p"), only=("vendor",)))
    assert press.status == "built" and not (tmp_path / "p/mini/vendor").exists()


def test_vendor_files_refuse_a_press_target(tmp_path):
    deck = load_game(GAMES / "mini")
    with pytest.raises(VendorError, match="'fogra39' is a press target"):
        write_vendor_files(deck, tmp_path / "f.pdf", tmp_path / "b.pdf", load_target("fogra39"), tmp_path)


# --- the cut: where the design does not survive the preset --------------------------------

def test_cut_lines_in_our_trim(tmp_path):
    """Reference: the vendors' numbers by hand: 37.5 px at 300 dpi = 9 pt inside our trim; the jumbo image
    (1122 − 900) / 2 = 111 px wider a side, less its 36 px bleed: 75 px = 18 pt outside, and on the trim top and bottom."""
    layout = load_layout()
    assert cut_lines(load_target("thegamecrafter").vendor, layout) == (9.0, 9.0)
    assert cut_lines(load_target("drivethrucards").vendor, layout) == (9.0, 9.0)
    assert cut_lines(load_target("makeplayingcards").vendor, layout) == (-18.0, 0.0)


def test_text_in_the_game_crafter_cut_margin_is_ve001_and_the_shipped_layout_is_not(tmp_path):
    """Fixture: the name box moved to 0.1 in from the trim's left edge; The Game Crafter keeps text
    0.125 + 0.125 = 0.25 in inside our trim, so it reaches 0.15 in outside. Control: the shipped layout."""
    layout = load_layout()
    moved = layout.model_copy(update={"boxes": {**layout.boxes, "name": layout.boxes["name"].model_copy(update={"x": 7.2})}})
    preset = load_target("thegamecrafter").vendor
    (cut,) = [f for f in cut_findings(preset, moved, "thegamecrafter") if f.code == "VE001"]
    assert cut.message.startswith("layout card-3x5-portrait box 'name' reaches 0.150 in outside the safe area of The Game Crafter tarot cards")
    assert cut.location.file.endswith("templates/layouts/card-3x5-portrait.yaml") and cut.severity.value == "error"
    # control: the shipped layout's text starts at the 0.25 in critical inset, exactly The Game Crafter's safe line
    for name in ("thegamecrafter", "makeplayingcards", "drivethrucards"):
        assert "VE001" not in {f.code for f in cut_findings(load_target(name).vendor, layout, name)}
    # the same moved box is safe on the wider jumbo card (its cut lies outside our trim left and right)
    assert "VE001" not in {f.code for f in cut_findings(load_target("makeplayingcards").vendor, moved, "makeplayingcards")}


def test_braille_in_the_cut_margin_is_ve001(tmp_path):
    layout = load_layout()
    low = layout.model_copy(update={"boxes": {**layout.boxes, "braille": layout.boxes["braille"].model_copy(update={"height": 3.55 * 72})}})
    (cut,) = [f for f in cut_findings(load_target("drivethrucards").vendor, low, "drivethrucards") if f.code == "VE001"]
    assert "box 'braille' reaches 0.100 in outside" in cut.message


def test_numbers_and_the_fit():
    assert (number_text(7, 40), number_text(7, 1200)) == ("007", "0007")
    trim = Image.new("RGB", (4, 2), (10, 20, 30))
    trim.putpixel((0, 0), (200, 0, 0))
    fitted = fit_to_image(trim, (8, 4))
    assert fitted.size == (8, 4) and fitted.getpixel((0, 0)) == (200, 0, 0) and fitted.getpixel((7, 3)) == (10, 20, 30)
    assert fit_to_image(trim, (2, 2)).size == (2, 2)

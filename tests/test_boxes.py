"""Tuck boxes (issue #21): sizes read back from the PDF, die lines on their own separations and structural
OCGs, braille clear of folds, the QR decoding to the archive's quickstart page, and the findings.

References: the die lines and dots are read back from the PDF content (pikepdf's content-stream
parser), the separations from Ghostscript's tiffsep device, the QR by zxing-cpp on a pypdfium2
render, the archive page from the file the archive writer wrote.
"""

from __future__ import annotations

import dataclasses
import math
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pypdfium2 as pdfium
import pytest
import zxingcpp
from PIL import Image

from engine.load import DataError, load_game
from engine.units import pt_to_mm
from pipeline.archive.quickstart import QUICKSTART_PAGE
from pipeline.archive.site import write_archive
from pipeline.boxes.geometry import Rect
from pipeline.boxes.output import write_boxes
from pipeline.boxes.pdf import check_box
from pipeline.boxes.plan import plan_boxes
from pipeline.braille.geometry import get_profile
from pipeline.render.targets import load_target
from pipeline.render.uv.ocg import processing_steps_by_page
from pipeline.render.uv.package import printer_for

ROOT = Path(__file__).resolve().parent.parent
SPEC800 = get_profile("spec800")


@pytest.fixture(scope="module")
def apprentice():
    return load_game(ROOT / "carddata" / "apprentice")


@pytest.fixture(scope="module")
def built(apprentice, tmp_path_factory):
    folder = tmp_path_factory.mktemp("boxes")
    printer = printer_for("roland-versaworks")
    result = write_boxes(apprentice, folder, SPEC800, load_target(), printer, printer.clear_spot_for(None), ("letter", "12x18"))
    return folder, result


def _marked_paths(pdf_path: Path, prop: str) -> list[list[tuple[float, float]]]:
    """The subpaths (m/l points, pt) inside the page's ``/OC prop BDC … EMC`` marked content."""
    with pikepdf.open(pdf_path) as pdf:
        inside, paths = False, []
        for operands, op in pikepdf.parse_content_stream(pdf.pages[0]):
            name = str(op)
            if name == "BDC" and str(operands[0]) == "/OC":
                inside = str(operands[1]) == prop
            elif name == "EMC":
                inside = False
            elif inside and name == "m":
                paths.append([(float(operands[0]), float(operands[1]))])
            elif inside and name == "l":
                paths[-1].append((float(operands[0]), float(operands[1])))
        return paths


def test_ember_inside_size_is_cards_times_caliper_plus_clearance_read_from_the_fold_lines(apprentice, built):
    folder, _ = built
    pack = apprentice.game.packaging
    folds = _marked_paths(folder / "apprentice-box-ember.pdf", "/DeckpressFold")
    vertical = sorted({round(a[0], 3) for a, b in folds if abs(a[0] - b[0]) < 1e-6 and abs(a[1] - b[1]) > 100})
    horizontal = sorted({round(a[1], 3) for a, b in folds if abs(a[1] - b[1]) < 1e-6 and abs(a[0] - b[0]) > 100})
    assert len(vertical) == 4  # glue | back | side | front | side
    back, side, front = (pt_to_mm(vertical[i + 1] - vertical[i]) for i in range(3))
    assert len(horizontal) == 4  # bottom tuck | bottom lid | front and back | top lid | top tuck
    lids = pt_to_mm(horizontal[1] - horizontal[0]), pt_to_mm(horizontal[3] - horizontal[2])
    height = pt_to_mm(horizontal[2] - horizontal[1])
    clearance, caliper = pt_to_mm(pack.clearance), pt_to_mm(pack.caliper)
    assert apprentice.copies_of("ember") == 30
    assert side == pytest.approx(30 * caliper + clearance, abs=0.01)      # 30 × 0.45 + 2 = 15.5 mm
    assert side == pytest.approx(15.5, abs=0.01)
    assert back == pytest.approx(76.2 + clearance, abs=0.01)               # 3 in + 2 mm
    assert front == pytest.approx(76.2 + clearance, abs=0.01)
    assert height == pytest.approx(127.0 + clearance, abs=0.01)            # 5 in + 2 mm
    assert lids == pytest.approx((side, side), abs=0.01)                  # the lids close the depth


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed")
def test_cut_and_fold_lines_are_their_own_separations_overprinting_the_ground(built, tmp_path):
    folder, _ = built
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r72",
                    f"-sOutputFile={tmp_path / 'p.tif'}", str(folder / "apprentice-box-ember.pdf")], check=True)
    cut, fold, black = (Image.open(tmp_path / f"p({n}).tif") for n in ("CutContour", "Fold", "Black"))
    # The cut line's first point (the back's top-left corner, on the fold too) in pixels at 72 dpi.
    (x, y), *_ = _marked_paths(folder / "apprentice-box-ember.pdf", "/DeckpressCut")[0]
    px = (round(x), round(cut.height - y))
    assert min(cut.getpixel((px[0] + dx, px[1] + dy)) for dx in (-1, 0) for dy in (-1, 0)) < 128  # ink on the cut plate
    assert sum(cut.histogram()[:128]) > 500
    assert sum(fold.histogram()[:128]) > 500
    # Overprint: the Ember ground (K 56 %) is still on the black plate under the cut line.
    assert black.getpixel(px) < 200


def test_die_lines_carry_iso_19593_structural_groups_set_not_to_print(built):
    folder, _ = built
    with pikepdf.open(folder / "apprentice-box-ember.pdf") as pdf:
        ocgs = {str(o.Name): o for o in pdf.Root.OCProperties.OCGs}
        assert {"CutContour", "Fold"} <= set(ocgs)
        assert str(ocgs["CutContour"].GTS_Metadata.GTS_ProcStepsGroup) == "/Structural"
        assert str(ocgs["CutContour"].GTS_Metadata.GTS_ProcStepsType) == "/Cutting"
        assert str(ocgs["Fold"].GTS_Metadata.GTS_ProcStepsType) == "/Creasing"
        assert str(ocgs["Fold"].Usage.Print.PrintState) == "/OFF"
        assert processing_steps_by_page(pdf) == [["Structural", "Structural"]]
        assert str(pdf.Root.OutputIntents[0].OutputConditionIdentifier) == "FOGRA39"
        # Optional content is PDF 1.5 (ISO 32000-1 8.11): the box is PDF/X-4, without the /AS
        # auto-state PDF/X-4 forbids, its output profile embedded.
        assert str(pdf.docinfo.GTS_PDFXVersion) == "PDF/X-4" and pdf.pdf_version == "1.6"
        assert "/AS" not in pdf.Root.OCProperties.D
        assert "/DestOutputProfile" in pdf.Root.OutputIntents[0]
        page = pdf.pages[0]
        trim, bleed = [float(v) for v in page.TrimBox], [float(v) for v in page.BleedBox]
        assert trim[0] - bleed[0] == pytest.approx(9.0)  # 0.125 in bleed round the cut line's bounding box


def test_die_lines_show_on_screen_and_leave_a_printout_pdfium(built):
    """PDFium (pypdfium2) renders with the optional content's View usage, and with ``FPDF_PRINTING`` its
    Print usage: the die lines' alternates (cut M100, fold C100) appear on screen and not in print."""
    import numpy
    import pypdfium2.raw as pdfium_c

    doc = pdfium.PdfDocument(str(built[0] / "apprentice-box-ember.pdf"))

    def line_pixels(flags: int) -> tuple[int, int]:
        rgb = numpy.asarray(doc[0].render(scale=1, extra_flags=flags).to_pil().convert("RGB")).astype(int)
        r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
        return int(((r > 200) & (g < 80) & (b > 100)).sum()), int(((r < 80) & (g > 120) & (b > 200)).sum())

    on_screen, printed = line_pixels(0), line_pixels(pdfium_c.FPDF_PRINTING)
    assert min(on_screen) > 300
    assert printed == (0, 0)


def _plate_dot_centres(plate: Path) -> list[tuple[float, float]]:
    """Circle centres (pt) of the plate: each circle starts ``x + r, y m`` (pipeline.render.uv.plates.circle_operators)."""
    with pikepdf.open(plate) as pdf:
        data = pdf.pages[0].Contents.read_bytes().decode()
    out, tokens = [], data.split()
    for i, tok in enumerate(tokens):
        if tok == "m":
            out.append((float(tokens[i - 2]), float(tokens[i - 1])))
    return out


def _seg_distance(p, a, b) -> float:
    (px, py), (ax, ay), (bx, by) = p, a, b
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(px - ax - t * dx, py - ay - t * dy)


def test_every_braille_dot_is_at_least_one_cell_from_every_fold_and_cut_line(built):
    folder, _ = built
    r_pt = 1.44 / 2 / 25.4 * 72
    starts = _plate_dot_centres(folder / "apprentice-box-ember-braille.pdf")
    assert len(starts) > 40
    lines = [(a, b) for path in _marked_paths(folder / "apprentice-box-ember.pdf", "/DeckpressFold") for a, b in zip(path, path[1:])]
    lines += [(a, b) for path in _marked_paths(folder / "apprentice-box-ember.pdf", "/DeckpressCut") for a, b in zip(path, path[1:])]
    gaps = [pt_to_mm(min(_seg_distance((x - r_pt, y), a, b) for a, b in lines)) - 1.44 / 2 for x, y in starts]
    assert min(gaps) >= 6.2 - 1e-3  # one spec800 cell, from the dot's edge
    assert min(gaps) < 6.3           # and placed right at it (the block sits at the foot of the front panel)


def test_box_qr_decodes_at_300_dpi_to_the_quickstart_page_the_archive_writes(apprentice, built, tmp_path):
    folder, result = built
    plan = plan_boxes(apprentice, SPEC800)[0][0]
    doc = pdfium.PdfDocument(str(folder / "apprentice-box-ember.pdf"))
    image = doc[0].render(scale=300 / 72).to_pil().convert("L")
    found = {r.text for r in zxingcpp.read_barcodes(image)}
    assert found == {"https://cards.example.invalid/apprentice/quickstart.html"} == {plan.url}
    write_archive(apprentice, {}, None, tmp_path / "archive")
    page = tmp_path / "archive" / plan.url.removeprefix(apprentice.game.archive.base_url)
    assert page.name == QUICKSTART_PAGE and page.is_file()
    assert "Each player picks a class" in page.read_text(encoding="utf-8")
    assert not [f for f in result.findings]


def test_boxes_folder_holds_every_box_its_sheets_and_proofs(built):
    folder, result = built
    names = {p.relative_to(folder).as_posix() for p in result.paths}
    for cls in ("ember", "forest", "glacier", "spirit"):
        assert {f"apprentice-box-{cls}.pdf", f"apprentice-box-{cls}-braille.pdf", f"apprentice-box-{cls}-plates-roland-versaworks.pdf",
                f"apprentice-box-{cls}-flat.png", f"apprentice-box-{cls}-front.png"} <= names
    # 205.75 × 213.35 mm bled boxes: none on letter inside its 0.25 in margin, two a 12 × 18 in sheet.
    assert "sheets/apprentice-boxes-12x18.pdf" in names and "sheets/apprentice-boxes-letter.pdf" not in names
    with pikepdf.open(folder / "sheets" / "apprentice-boxes-12x18.pdf") as pdf:
        assert len(pdf.pages) == 2
        assert processing_steps_by_page(pdf)[0].count("Structural") == 4
    front = Image.open(folder / "apprentice-box-ember-front.png")
    # The front (78.2 × 129 mm: 462 × 762 px at 150 dpi) plus the 15.5 mm depth drawn at 45° and half length (32 px).
    depth = round(15.5 / 25.4 * 150 * 0.5 * math.cos(math.radians(45)))
    assert front.size == (round(78.2 / 25.4 * 150) + depth + 1, round(129 / 25.4 * 150) + depth + 1) == (495, 795)


def _game_with(tmp_path: Path, old: str, new: str) -> Path:
    folder = tmp_path / "apprentice"
    shutil.copytree(ROOT / "carddata" / "apprentice", folder)
    text = (folder / "game.yaml").read_text(encoding="utf-8")
    assert old in text
    (folder / "game.yaml").write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _line_of(folder: Path, needle: str) -> int:
    return next(i for i, line in enumerate((folder / "game.yaml").read_text().splitlines(), 1) if needle in line)


def test_a_box_naming_a_class_that_does_not_exist_is_located_bx001(tmp_path):
    folder = _game_with(tmp_path, "- {class: forest}", "- {class: forrest}")
    with pytest.raises(DataError) as exc:
        load_game(folder)
    (finding,) = exc.value.findings
    assert (finding.code, finding.location.line) == ("BX001", _line_of(folder, "forrest"))
    assert finding.location.file.endswith("game.yaml") and "no class 'forrest'" in finding.message


def test_a_box_naming_a_deck_that_does_not_exist_is_located_bx001(tmp_path):
    folder = _game_with(tmp_path, "- {class: spirit}", "- {deck: crystals}")
    with pytest.raises(DataError) as exc:
        load_game(folder)
    (finding,) = exc.value.findings
    assert (finding.code, finding.location.line, finding.location.column) == ("BX001", _line_of(folder, "crystals"), 14)


@pytest.mark.parametrize("caliper", ["1.5mm", "0.05mm"])
def test_a_caliper_outside_0_1_to_1_mm_is_a_located_da003(tmp_path, caliper):
    folder = _game_with(tmp_path, "caliper: 0.45mm", f"caliper: {caliper}")
    with pytest.raises(DataError) as exc:
        load_game(folder)
    (finding,) = exc.value.findings
    assert (finding.code, finding.location.line) == ("DA003", _line_of(folder, "caliper:"))
    assert "packaging.caliper" in finding.message and "0.1-1 mm" in finding.message


def test_a_front_too_narrow_for_braille_is_bx003_at_the_box(apprentice):
    small = apprentice.game.model_copy(update={"card": apprentice.game.card.model_copy(update={"width": 72.0, "height": 108.0})})
    deck = apprentice.model_copy(update={"game": small})
    plans, findings = plan_boxes(deck, SPEC800)
    assert plans == [] and [f.code for f in findings] == ["BX003"] * 4
    assert "holds 2 cells" in findings[0].message


def test_braille_near_a_fold_and_a_qr_across_a_fold_are_found(apprentice):
    plan = plan_boxes(apprentice, SPEC800)[0][0]
    assert check_box(plan) == []
    front = plan.dieline.panels["front"]
    near = dataclasses.replace(plan, braille_front=(plan.braille_front[0], (front.x + 2.0, plan.braille_front[1][1])))
    (finding,) = check_box(near)
    assert finding.code == "BX004" and "from a fold or cut line" in finding.message
    back = plan.dieline.panels["back"]
    across = dataclasses.replace(plan, qr=Rect(back.x - 5, back.y + 40, 30, 30))
    assert [f.code for f in check_box(across)] == ["BX005"]


def test_the_shipped_games_boxes(tmp_path):
    counts = {}
    for game in ("enchant", "apprentice-power-crystal", "claim-reinforcements-magic"):
        plans, findings = plan_boxes(load_game(ROOT / "carddata" / game), SPEC800)
        assert findings == []
        counts[game] = [(p.box_id, p.cards, round(p.dieline.depth, 2)) for p in plans]
    assert counts == {"enchant": [("enchant", 60, 29.0)], "apprentice-power-crystal": [("power-crystal", 20, 11.0)],
                      "claim-reinforcements-magic": []}


def test_the_build_writes_the_expansions_crystal_box_and_lists_it_in_the_manifest(tmp_path):
    import json

    from pipeline.build.runner import run_build
    from pipeline.build.settings import BuildSettings

    out = tmp_path / "output"
    (outcome,) = run_build([str(ROOT / "carddata" / "apprentice-power-crystal")],
                           BuildSettings(out_dir=str(out), papers=("letter",), only=("boxes",)))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    folder = out / "apprentice-power-crystal" / "boxes"
    assert sorted(p.name for p in folder.iterdir()) == [
        "apprentice-power-crystal-box-power-crystal-braille.pdf", "apprentice-power-crystal-box-power-crystal-flat.png",
        "apprentice-power-crystal-box-power-crystal-front.png", "apprentice-power-crystal-box-power-crystal-print+braille.pdf",
        "apprentice-power-crystal-box-power-crystal.json", "apprentice-power-crystal-box-power-crystal.pdf", "sheets"]
    # 20 cards: 20 × 0.45 + 2 = 11 mm deep; the 196.75 × 195.35 mm bled box fits letter inside its 0.25 in margin.
    geometry = json.loads((folder / "apprentice-power-crystal-box-power-crystal.json").read_text())
    assert geometry["inside"] == {"width": 78.2, "height": 129.0, "depth": 11.0}
    assert geometry["reckoning"]["depth"] == "20 cards x 0.45 mm + 2 mm"
    assert sorted(p.name for p in (folder / "sheets").iterdir()) == [
        "apprentice-power-crystal-boxes-letter-braille.pdf", "apprentice-power-crystal-boxes-letter.pdf"]
    manifest = (out / "apprentice-power-crystal" / "manifest.json").read_text()
    assert "boxes/apprentice-power-crystal-box-power-crystal.pdf" in manifest


def test_every_word_on_the_box_is_18_pt_or_more_read_from_the_pdf(built):
    folder, _ = built
    for name in ("apprentice-box-ember.pdf", "apprentice-box-spirit.pdf"):
        with pikepdf.open(folder / name) as pdf:
            sizes = [float(operands[1]) for operands, op in pikepdf.parse_content_stream(pdf.pages[0]) if str(op) == "Tf"]
        assert sizes and min(sizes) >= 18.0
        # the name is the largest type (the heads shrink together to leave room above the braille)
        assert max(sizes) > 18.0


def test_a_low_contrast_box_palette_is_bx006_measured_through_fogra39(apprentice):
    import io

    from reportlab.pdfgen.canvas import Canvas

    from engine.model import Colour, Palette
    from pipeline.boxes.face import draw_box

    plan = plan_boxes(apprentice, SPEC800)[0][0]
    grey = Palette(background=Colour(cmyk=(0, 0, 0, 50), srgb="#9d9d9c"), text=Colour(cmyk=(0, 0, 0, 0), srgb="#ffffff"))
    canvas = Canvas(io.BytesIO(), pagesize=(600, 600))
    assert draw_box(canvas, plan, 9.0, 9.0, load_target()) == []
    (finding,) = draw_box(canvas, dataclasses.replace(plan, palette=grey), 9.0, 9.0, load_target())
    assert finding.code == "BX006" and "under 7:1" in finding.message


def test_a_name_too_long_for_the_front_in_large_print_is_bx002_at_the_box_line(apprentice):
    import io

    from reportlab.pdfgen.canvas import Canvas

    from pipeline.boxes.face import draw_box

    plan = plan_boxes(apprentice, SPEC800)[0][0]
    long_name = dataclasses.replace(plan, name="Supercalifragilisticexpialidocious Apprentices")
    (finding,) = draw_box(Canvas(io.BytesIO(), pagesize=(600, 600)), long_name, 9.0, 9.0, load_target())
    assert finding.code == "BX002" and "in 2 lines at 18 pt" in finding.message
    assert finding.location.file.endswith("carddata/apprentice/game.yaml")
    assert finding.location.line == _line_of(ROOT / "carddata" / "apprentice", "- {class: ember}")


def test_a_box_wearing_an_unknown_class_and_two_boxes_with_one_id_are_bx001(tmp_path):
    folder = _game_with(tmp_path, "- {class: spirit}", "- {class: spirit, colours: spirt}\n    - {id: ember, class: forest}")
    with pytest.raises(DataError) as exc:
        load_game(folder)
    found = [(f.code, f.location.line, f.message) for f in exc.value.findings]
    assert [(code, line) for code, line, _ in found] == [("BX001", _line_of(folder, "spirt")), ("BX001", _line_of(folder, "{id: ember"))]
    assert "no class 'spirt'" in found[0][2] and "two boxes have the id 'ember'" in found[1][2]


def test_enchants_lid_carries_the_title_in_braille_turned_to_read_from_the_front():
    from pipeline.boxes.pdf import box_dots

    plan = plan_boxes(load_game(ROOT / "carddata" / "enchant"), SPEC800)[0][0]
    assert plan.braille_lid[0] == ("⠠⠢⠡⠁⠝⠞", "⠠⠠⠊⠉⠛")  # "Enchant ICG", grade 2
    lid = plan.dieline.panels["top-lid"]
    dots = [d for d in box_dots(plan) if lid.y <= d.y <= lid.y + lid.h]
    first, last = dots[0], dots[-1]
    # Turned half round: reading order runs right to left and towards the tuck edge (up) in the flat.
    assert first.x > last.x and first.y > last.y
    # Dot 1 of a cell sits right of and below its dot 4 once turned (dot 4 is the right column upright).
    cell = [d for d in dots if d.line == 0 and d.cell == 4]  # ⠝: dots 1, 3, 4, 5
    one, four = next(d for d in cell if d.dot == 1), next(d for d in cell if d.dot == 4)
    assert one.x - four.x == pytest.approx(2.34) and one.y == pytest.approx(four.y)


def test_the_readme_pictures_are_the_builds_own_proofs(built):
    folder, _ = built
    for name in ("apprentice-box-ember-flat.png", "apprentice-box-ember-front.png"):
        assert (ROOT / "docs" / "boxes" / name).read_bytes() == (folder / name).read_bytes(), f"copy output/apprentice/boxes/{name} to docs/boxes/"
    assert "docs/boxes/apprentice-box-ember-flat.png" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_a_deck_deeper_than_its_box_is_wide_is_bx008_at_the_box_not_a_crash(apprentice):
    """600 Ember cards × 0.45 mm + 2 mm = 272 mm deep against 78.2 mm wide: no tuck lid closes that."""
    cards = [c.model_copy(update={"copies": 40}) for c in apprentice.cards]
    deck = apprentice.model_copy(update={"cards": cards})
    plans, findings = plan_boxes(deck, SPEC800)
    assert plans == [] and [f.code for f in findings] == ["BX008"] * 4
    assert "(600 cards)" in findings[0].message and "deeper (272 mm) than wide (78.2 mm)" in findings[0].message
    assert findings[0].location.line == _line_of(ROOT / "carddata" / "apprentice", "- {class: ember}")


def test_a_box_too_large_for_every_paper_gets_sheets_of_its_own_size(apprentice, tmp_path):
    """150 cards a class: 69.5 mm deep, a flat box 313.75 × 429.35 mm bled, larger than 12 × 18 in inside its margin."""
    deck = apprentice.model_copy(update={"cards": [c.model_copy(update={"copies": 10}) for c in apprentice.cards]})
    printer = printer_for("flat-plate")
    write_boxes(deck, tmp_path, SPEC800, load_target(), printer, printer.clear_spot_for(None), ("letter", "12x18"))
    sheets = sorted(p.name for p in (tmp_path / "sheets").iterdir() if p.suffix == ".pdf")
    assert sheets == ["apprentice-boxes-326x442mm-braille.pdf", "apprentice-boxes-326x442mm.pdf"]
    with pikepdf.open(tmp_path / "sheets" / sheets[1]) as pdf, pikepdf.open(tmp_path / "apprentice-box-ember.pdf") as box:
        assert len(pdf.pages) == 4  # one box a sheet
        sheet_w, box_w = float(pdf.pages[0].mediabox[2]), float(box.pages[0].mediabox[2])
        assert pt_to_mm(sheet_w - box_w) / 2 == pytest.approx(6.35, abs=0.01)  # the 0.25 in margin each side


def test_the_merged_box_pdf_says_it_is_a_box_not_card_fronts(built):
    folder, _ = built
    with pikepdf.open(folder / "apprentice-box-ember-print+braille.pdf") as pdf:
        assert str(pdf.docinfo.Subject) == "the flat tuck box with the UV braille dots merged as a spot plate (ISO 19593-1 group Braille)"


def _glyph_boxes_pt(pdf_path: Path) -> list[tuple[float, float, float, float]]:
    """Every printed glyph's box (left, bottom, right, top; pt) as PDFium's text layer reads it."""
    doc = pdfium.PdfDocument(str(pdf_path))
    text = doc[0].get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars()) if not text.get_text_range(i, 1).isspace()]
    doc.close()
    return boxes


@pytest.mark.parametrize("game, box", [("apprentice", "ember"), ("enchant", "enchant"), ("apprentice-power-crystal", "power-crystal")])
def test_no_braille_dot_lies_on_or_near_the_large_print(game, box, built, tmp_path):
    """Reference: PDFium's glyph boxes of the print PDF and the dot circles of the plate PDF (the
    same page boxes). Clear UV dots on large print blur it for a low-vision reader, so every dot
    keeps 3 mm (BRAILLE_GAP_MM) from every glyph: the front's contents line and badge move up, the
    Enchant lid's name keeps to the part of the lid its braille leaves free, and the crystal box's
    seven braille lines leave room for the title and name at smaller sizes, its contents going to the back."""
    if game == "apprentice":
        folder = built[0]
    else:
        folder = tmp_path
        printer = printer_for("flat-plate")
        write_boxes(load_game(ROOT / "carddata" / game), folder, SPEC800, load_target(), printer, printer.clear_spot_for(None), ("12x18",))
    stem = f"{game}-box-{box}"
    r_pt = 1.44 / 2 / 25.4 * 72
    dots = [(x - r_pt, y) for x, y in _plate_dot_centres(folder / f"{stem}-braille.pdf")]
    glyphs = _glyph_boxes_pt(folder / f"{stem}.pdf")
    assert len(dots) > 40 and len(glyphs) > 40
    gap = min(math.hypot(max(l - x, 0, x - r), max(b - y, 0, y - t)) for x, y in dots for l, b, r, t in glyphs)
    assert pt_to_mm(gap) - 1.44 / 2 >= 3.0 - 0.05, pt_to_mm(gap)


def test_deckpress_check_reports_a_box_layout_finding_without_building(tmp_path):
    """A designer hears of a box whose name cannot be set in large print from `deckpress check`
    (its preflight draws the boxes onto a throwaway page), not only from the build; the shipped
    game checks with no BX finding (control)."""
    from pipeline.build.preflight import preflight

    assert [f for f in preflight(load_game(ROOT / "carddata" / "apprentice")) if f.code.startswith("BX")] == []
    folder = _game_with(tmp_path, "- {class: ember}", "- {class: ember, name: Supercalifragilisticexpialidocious Apprentices}")
    found = [f for f in preflight(load_game(folder)) if f.code.startswith("BX")]
    assert [(f.code, f.location.line) for f in found] == [("BX002", _line_of(folder, "Supercalifragilistic"))]
    assert not list(tmp_path.glob("**/*.pdf"))  # the check wrote no file

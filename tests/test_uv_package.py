"""The UV braille plate package: printer profiles, the layer model read back from the PDFs,
ISO 19593-1 processing steps (pikepdf), Ghostscript tiffsep plates, height maps, the job ticket.

Independent references: layer diameters are checked against the sagitta relation of a circle
(a chord at depth s below the top of a sphere of radius R has half-length sqrt(s·(2R − s))),
not the module's own formula; plates against Ghostscript's tiffsep separations; the ISO 19593-1
keys against the GWG Processing Steps suite's spelling (/GTS_Metadata /GTS_ProcStepsGroup /Braille).
spec800 (NLS Specification 800 §3.2): base 1.44 mm, height 0.48 mm.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess

import pikepdf
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream
from typer.testing import CliRunner

from conftest import GAMES
from engine.findings import Location
from engine.load import load_game
from engine.units import mm_to_pt, pt_to_mm
from pipeline.braille.layout import layout_deck
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.cli.app import app
from pipeline.render.pdfx import check_pdfx
from pipeline.render.uv.heightmap import dot_pixel
from pipeline.render.uv.ocg import processing_steps_by_page
from pipeline.render.uv.package import printer_for, write_uv_package
from pipeline.render.uv.printers import UvPrinterError, load_uv_printer, read_uv_printer, uv_printer_names
from pipeline.render.uv.stack import dot_stack, stack_findings

GS = shutil.which("gs")


def sagitta_diameters(base, height, n):
    """Independent layer diameters: layer k at z = (k − ½)·h/n is a chord at depth s = h − z below the top."""
    a = base / 2
    big_r = (a * a + height * height) / (2 * height)
    return [2 * math.sqrt((height - (k - 0.5) * height / n) * (2 * big_r - (height - (k - 0.5) * height / n))) for k in range(1, n + 1)]


def circle_radii(reader, page):
    """Radii (pt) of every filled circle on a page: half the x extent of each subpath's points."""
    radii, xs = [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"m":
            xs = [float(operands[0])]
        elif op == b"c":
            xs += [float(v) for v in operands[0::2]]
        elif op == b"h" and xs:
            radii.append((max(xs) - min(xs)) / 2)
    return radii


@pytest.fixture(scope="module")
def mini():
    deck = load_game(GAMES / "mini")
    blocks, _ = layout_deck(deck)
    return deck, blocks


def test_shipped_profiles_load_and_the_default_is_the_flat_plate():
    assert uv_printer_names() == ["arizona", "flat-plate", "generic-separations", "height-map", "mimaki-rasterlink", "roland-versaworks"]
    roland, arizona = load_uv_printer("roland-versaworks"), load_uv_printer("arizona")
    assert (roland.clear_spot, roland.white_spot, roland.reserved_spots) == ("RDG_GLOSS", "RDG_WHITE", ("RDG_WHITE", "RDG_PRIMER"))
    assert roland.clear_spot_for("Braille") == "RDG_GLOSS"  # the CLI's default name becomes the RIP's
    assert (arizona.clear_spot_for("Spot 2"), arizona.clear_spot_for("Braille")) == ("Spot 2", "Spot 1")
    assert load_uv_printer().id == "flat-plate" and load_uv_printer().clear_spot_for("Varnish") == "Varnish"
    assert load_uv_printer("mimaki-rasterlink").plate_mode == "cmyk-layer-pages"
    assert load_uv_printer("height-map").height_map_dpi == 600


def test_arizona_refuses_white_and_unknown_profiles_name_the_allowed(tmp_path, mini):
    with pytest.raises(UvPrinterError, match=r"'White' is reserved by the arizona profile.*allowed: 'Spot 1', 'Spot 2'"):
        load_uv_printer("arizona").clear_spot_for("White")
    with pytest.raises(UvPrinterError, match=r"unknown UV printer profile 'roland'; known: arizona, flat-plate"):
        load_uv_printer("roland")
    deck, blocks = mini
    with pytest.raises(UvPrinterError):
        write_uv_package(deck, blocks, list(blocks), tmp_path, load_uv_printer("arizona"), spot="White")
    assert not list(tmp_path.iterdir())  # refused before anything is written
    result = CliRunner().invoke(app, ["uv", str(GAMES / "mini"), "--out", str(tmp_path / "o"), "--uv-printer", "arizona", "--spot", "White"])
    assert result.exit_code == 2 and "allowed: 'Spot 1', 'Spot 2'" in result.output
    bad = tmp_path / "bad.yaml"
    text = (GAMES.parents[2] / "templates/uv-printers/arizona.yaml").read_text(encoding="utf-8")
    bad.write_text(text.replace("id: arizona", "id: bad").replace("clear_spot: Spot 1", "clear_spot: White"), encoding="utf-8")
    with pytest.raises(UvPrinterError, match="reserved_spots"):
        read_uv_printer(bad)


@pytest.mark.parametrize("thickness, layers", [(0.02, 24), (0.05, 10), (0.0024, 200), (0.48, 1), (0.5, 1)])
def test_layer_count_is_ceil_of_height_over_thickness(thickness, layers):
    stack = dot_stack(0.48, 1.44, thickness)
    assert stack.layers == layers == math.ceil(0.48 / thickness - 1e-9)
    assert stack.diameters_mm == pytest.approx(sagitta_diameters(1.44, 0.48, layers), abs=1e-9)
    assert all(a > b for a, b in zip(stack.diameters_mm, stack.diameters_mm[1:])) and stack.diameters_mm[0] < 1.44
    assert stack_findings(0.48, thickness, Location("p.yaml")) == []


def test_over_200_layers_is_finding_uv003(tmp_path, mini):
    [finding] = stack_findings(0.48, 0.0023, Location("p.yaml"))  # 209 layers
    assert finding.code == "UV003" and "209 layers" in finding.message
    deck, blocks = mini
    package = write_uv_package(deck, blocks, list(blocks), tmp_path, printer_for("roland-versaworks", 0.001))
    assert [f.code for f in package.findings] == ["UV003"] and "480 layers" in package.findings[0].message
    assert not (tmp_path / "mini-plates-roland-versaworks.pdf").exists()  # no layered plate for a typo


def test_roland_layer_pages_read_back_from_the_content_stream(tmp_path, mini):
    deck, blocks = mini
    printer = printer_for("roland-versaworks", 0.08)  # 6 layers: 0.48 / 0.08
    package = write_uv_package(deck, blocks, [c.id for c in deck.cards], tmp_path, printer)
    reader = PdfReader(tmp_path / "mini-plates-roland-versaworks.pdf")
    assert len(reader.pages) == 6 * len(deck.cards)
    assert list(reader.page_labels[:7]) == [f"ember-apprentice L0{k}" for k in range(1, 7)] + ["ember-ranger L01"]
    want = sagitta_diameters(1.44, 0.48, 6)
    dots = len(blocks["ember-apprentice"].dots())
    for k, page in enumerate(reader.pages[:6]):
        radii = circle_radii(reader, page)
        assert len(radii) == dots
        assert [pt_to_mm(2 * r) for r in radii] == pytest.approx([want[k]] * dots, abs=0.002)
        for key in ("/MediaBox", "/BleedBox"):
            assert [float(v) for v in page[key]] == [0, 0, 234, 378]
        assert [float(v) for v in page["/TrimBox"]] == [9, 9, 225, 369]
        [(_, space)] = page["/Resources"]["/ColorSpace"].items()
        assert space.get_object()[1] == "/RDG_GLOSS"
    with pikepdf.open(package.paths[-2].parent / "mini-plates-roland-versaworks.pdf") as pdf:
        assert check_pdfx(pdf) == []


def test_dot_map_records_height_layers_and_pitches(tmp_path, mini):
    deck, blocks = mini
    write_uv_package(deck, blocks, list(blocks), tmp_path, load_uv_printer("arizona"))
    doc = json.loads((tmp_path / "mini-dots.json").read_text())
    assert (doc["uv_printer"], doc["spot_name"], doc["layer_thickness_mm"]) == ("arizona", "Spot 1", 0.02)
    entry = doc["cards"]["ember-apprentice"]
    assert (entry["dot_height_mm"], entry["layers"], entry["cell_pitch_mm"], entry["line_pitch_mm"]) == (0.48, 24, 6.2, 10.16)


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (make setup installs it)")
def test_tiffsep_shows_one_plate_per_layer_and_no_cmyk_ink(tmp_path, mini):
    deck, blocks = mini
    one = {"ember-apprentice": blocks["ember-apprentice"]}
    printer = printer_for("generic-separations", 0.12)  # 4 layers
    write_uv_package(deck, one, ["ember-apprentice"], tmp_path, printer)
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r144",
                    f"-sOutputFile={tmp_path / 'sep.tif'}", str(tmp_path / "mini-plates-generic-separations.pdf")],
                   check=True, capture_output=True)
    plates = sorted(p.name for p in tmp_path.glob("sep(*).tif"))
    assert plates == sorted(["sep(Cyan).tif", "sep(Magenta).tif", "sep(Yellow).tif", "sep(Black).tif"]
                            + [f"sep(Braille L0{k}).tif" for k in range(1, 5)])
    for ink in ("Cyan", "Magenta", "Yellow", "Black"):
        assert Image.open(tmp_path / f"sep({ink}).tif").getextrema() == (255, 255), ink  # no process ink at all
    dot = blocks["ember-apprentice"].dots()[0]
    centre = (int((9 + mm_to_pt(dot.x)) * 2), int((9 + mm_to_pt(dot.y)) * 2))
    inked = []
    for k in range(1, 5):
        plate = Image.open(tmp_path / f"sep(Braille L0{k}).tif")
        assert plate.getpixel(centre) == 0  # every layer covers the dot's centre (0 = full ink)
        inked.append(sum(1 for v in plate.tobytes() if v < 128))
    assert inked == sorted(inked, reverse=True) and inked[0] > inked[-1]  # each layer smaller than the one below


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (make setup installs it)")
@pytest.mark.parametrize("profile, spot", [("roland-versaworks", "RDG_GLOSS"), ("arizona", "Spot 1")])
def test_tiffsep_of_layer_pages_shows_only_the_profiles_spot_shrinking_page_by_page(tmp_path, mini, profile, spot):
    deck, blocks = mini
    one = {"ember-apprentice": blocks["ember-apprentice"]}
    write_uv_package(deck, one, ["ember-apprentice"], tmp_path, printer_for(profile, 0.12))  # 4 layers, a page each
    inked = []
    for page in range(1, 5):
        folder = tmp_path / f"p{page}"
        folder.mkdir()
        subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r144", f"-dFirstPage={page}",
                        f"-dLastPage={page}", f"-sOutputFile={folder / 'sep.tif'}", str(tmp_path / f"mini-plates-{profile}.pdf")],
                       check=True, capture_output=True)
        assert sorted(p.name for p in folder.glob("sep(*).tif")) == sorted(
            f"sep({ink}).tif" for ink in ("Cyan", "Magenta", "Yellow", "Black", spot))
        for ink in ("Cyan", "Magenta", "Yellow", "Black"):
            assert Image.open(folder / f"sep({ink}).tif").getextrema() == (255, 255), ink  # no process ink
        inked.append(sum(1 for v in Image.open(folder / f"sep({spot}).tif").tobytes() if v < 128))
    assert inked == sorted(inked, reverse=True) and inked[0] > inked[-1] > 0  # page k+1's circles inside page k's


@pytest.fixture(scope="module")
def roland_build(tmp_path_factory):
    out = tmp_path_factory.mktemp("uvbuild") / "output"
    (outcome,) = run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(out), papers=("letter",), uv_printer="roland-versaworks"))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    return out / "mini"


def test_every_pdf_holding_braille_marks_it_as_iso_19593_braille(roland_build):
    holding = ["uv/mini-braille.pdf", "uv/mini-fronts+braille.pdf", "uv/mini-fronts+layers.pdf",
               "uv/mini-plates-roland-versaworks.pdf", "uv/mini-mask-k100.pdf", "sheets/mini-letter-braille.pdf",
               "sheets/mini-letter-plates-roland-versaworks.pdf", "sheets/mini-letter-composite.pdf"]
    for name in holding:
        with pikepdf.open(roland_build / name) as pdf:
            [ocg] = list(pdf.Root.OCProperties.OCGs)
            assert ocg.Type == pikepdf.Name.OCG and str(ocg.Name) == "Braille"
            assert ocg.GTS_Metadata.GTS_ProcStepsGroup == pikepdf.Name("/Braille")
            assert "/GTS_ProcStepsType" not in ocg.GTS_Metadata  # Braille is an untyped group
            assert list(pdf.Root.OCProperties.D.ON) == [ocg]
            steps = processing_steps_by_page(pdf)
            assert steps and all(page and set(page) == {"Braille"} for page in steps), name
            assert check_pdfx(pdf) == [], name
    with pikepdf.open(roland_build / "sheets/mini-letter-fronts.pdf") as pdf:
        assert "/OCProperties" not in pdf.Root  # no braille, no processing step
    with pikepdf.open(roland_build / "uv/mini-fronts+braille.pdf") as pdf:
        # only the braille is in the group: the front's own content stays outside the BDC … EMC
        ops = [str(op.operator) for op in pikepdf.parse_content_stream(pdf.pages[0])]
        assert "BDC" not in ops and "Do" in ops


def test_optional_content_only_in_pdf_x4_files_of_version_1_6(roland_build):
    """Optional content is PDF 1.5 (ISO 32000-1 §8.11): every built PDF/X file with /OCProperties
    has a header of at least 1.5 and claims PDF/X-4 (PDF 1.6); every other one is PDF/X-1a:2003 at 1.4."""
    with_oc, without = [], []
    for path in sorted(roland_build.rglob("*.pdf")):
        with pikepdf.open(path) as pdf:
            version = str(pdf.docinfo.get("/GTS_PDFXVersion", ""))
            if not version:
                continue  # the dice sheet and the job ticket are not press PDFs
            assert path.read_bytes()[:5] == b"%PDF-" and pdf.pdf_version == path.read_bytes()[5:8].decode()
            if "/OCProperties" in pdf.Root:
                assert tuple(int(v) for v in pdf.pdf_version.split(".")) >= (1, 5), path
                assert (pdf.pdf_version, version) == ("1.6", "PDF/X-4"), path
                with_oc.append(path.name)
            else:
                assert (pdf.pdf_version, version) == ("1.4", "PDF/X-1:2003"), path
                without.append(path.name)
            assert check_pdfx(pdf) == [], path
    assert {"mini-letter-composite.pdf", "mini-letter-plates-roland-versaworks.pdf", "mini-braille.pdf"} <= set(with_oc)
    assert {"mini-fronts.pdf", "mini-letter-fronts.pdf", "mini-letter-backs.pdf"} <= set(without)


def test_height_map_brightest_pixels_sit_at_the_dot_map_centres(roland_build):
    from pipeline.common.layout import load_layout

    doc = json.loads((roland_build / "uv/mini-dots.json").read_text())
    layout, dpi = load_layout(), 360
    for cid, entry in doc["cards"].items():
        image = Image.open(roland_build / f"uv/heightmap/{cid}.png")
        assert image.mode == "L" and image.size == (round(3.25 * dpi), round(5.25 * dpi))
        assert image.info["dpi"] == pytest.approx((dpi, dpi), abs=0.01)
        want = set()
        for x, y in entry["dots"]:
            px, py = dot_pixel(x, y, layout, dpi)
            i, j = math.floor(px), math.floor(py)
            assert abs(px - (i + 0.5)) <= 0.5 and abs(py - (j + 0.5)) <= 0.5
            want.add((i, j))
        width = image.size[0]
        brightest = {(n % width, n // width) for n, v in enumerate(image.tobytes()) if v == 255}
        assert brightest == want, cid  # one 255 pixel per dot, at its centre, and nowhere else
        assert image.getpixel((5, 5)) == 0


def test_job_ticket_json_and_one_page_pdf(roland_build):
    ticket = json.loads((roland_build / "uv/mini-uv-ticket.json").read_text())
    assert ticket["uv_printer"]["id"] == "roland-versaworks" and ticket["spots"]["clear"] == "RDG_GLOSS"
    assert ticket["spots"]["white_underbase"] is None  # off by default
    dots = ticket["dots"]["spec800"]
    assert (dots["layers"], dots["passes"], dots["target_height_mm"], dots["layer_thickness_mm"]) == (24, 24, 0.48, 0.02)
    assert dots["layer_diameters_mm"] == pytest.approx(sagitta_diameters(1.44, 0.48, 24), abs=0.0006)
    assert ticket["registration"]["tolerance_mm"] == 0.5
    deck = load_game(GAMES / "mini")
    assert ticket["cards"] == {"unique": len(deck.cards), "printed": sum(c.copies for c in deck.cards)}
    assert ticket["sheets"]["letter"]["sheets"] == math.ceil(ticket["cards"]["printed"] / ticket["sheets"]["letter"]["cards_per_sheet"])
    assert ticket["state"] == "draft"  # mini has a provisional card
    reader = PdfReader(roland_build / "uv/mini-uv-ticket.pdf")
    assert len(reader.pages) == 1 and "RDG_GLOSS" in reader.pages[0].extract_text()
    import pypdfium2 as pdfium  # an independent reader of where each glyph lands

    page = pdfium.PdfDocument(roland_build / "uv/mini-uv-ticket.pdf")[0]
    text = page.get_textpage()
    boxes = [text.get_charbox(i) for i in range(text.count_chars())]
    assert max(right for _, _, right, _ in boxes) <= 612 - 36 + 0.5  # every glyph inside the 0.5 in margin
    assert "and of the layered plate sheets" in " ".join(text.get_text_range().split())  # a long line wrapped, not cut


def test_mimaki_layers_are_cmyk_vectors_without_spot_or_profile_and_underbase_is_white(tmp_path, mini):
    deck, blocks = mini
    write_uv_package(deck, blocks, list(blocks), tmp_path, printer_for("mimaki-rasterlink", 0.24), underbase=True)
    with pikepdf.open(tmp_path / "mini-plates-mimaki-rasterlink.pdf") as pdf:
        assert len(pdf.pages) == 2 * len(blocks)
        for page in pdf.pages:
            assert "/ColorSpace" not in page.Resources  # DeviceCMYK only, no Separation
            ops = pikepdf.parse_content_stream(page, "k")
            assert [[float(v) for v in op.operands] for op in ops] == [[0, 0, 0, 1]]
        assert "/DestOutputProfile" not in pdf.Root.OutputIntents[0]  # no embedded ICC profile
        # so no braille OCG either: it would make the file PDF/X-4, which must embed its output profile
        assert "/OCProperties" not in pdf.Root and pdf.pdf_version == "1.4" and check_pdfx(pdf) == []
    assert b"/ICCBased" not in (tmp_path / "mini-plates-mimaki-rasterlink.pdf").read_bytes()  # objects are not in object streams
    with pikepdf.open(tmp_path / "mini-underbase.pdf") as pdf:
        [(_, space)] = pdf.pages[0].Resources.ColorSpace.items()
        assert space[1] == pikepdf.Name("/White")
        assert processing_steps_by_page(pdf)[0] == ["White"]


def test_cli_uv_and_build_take_the_printer_profile(tmp_path):
    runner = CliRunner()
    result = runner.invoke(app, ["build", str(GAMES / "mini"), "--out", str(tmp_path / "b"), "--uv-printer", "nope", "-q"])
    assert result.exit_code == 2 and "unknown UV printer profile 'nope'; known: arizona, flat-plate" in result.output
    assert not (tmp_path / "b").exists()
    out = tmp_path / "uv"
    result = runner.invoke(app, ["uv", str(GAMES / "mini"), "--out", str(out), "--uv-printer", "arizona", "--underbase",
                                 "--layer-thickness", "0.12mm"])
    assert result.exit_code == 0, result.output
    assert {p.name for p in out.glob("*.pdf")} == {"mini-braille.pdf", "mini-plates-arizona.pdf", "mini-mask-k100.pdf",
                                                   "mini-underbase.pdf", "mini-uv-ticket.pdf"}
    ticket = json.loads((out / "mini-uv-ticket.json").read_text())
    assert ticket["spots"] == {"clear": "Spot 1", "white_underbase": "Spot 2", "reserved_by_rip": ["White"]}
    assert ticket["dots"]["spec800"]["layers"] == 4
    assert len(PdfReader(out / "mini-plates-arizona.pdf").pages) == 4 * len(load_game(GAMES / "mini").cards)


def test_height_map_clips_dots_at_the_edge_and_keeps_the_higher_of_overlapping_domes():
    """The numpy height map (issue 22) against Pillow's crop / lighter / paste per dot, which it
    replaced: a dot over the bleed's corner is clipped, two overlapping dots keep the higher grey."""
    from types import SimpleNamespace

    from PIL import ImageChops

    from pipeline.common.layout import load_layout
    from pipeline.render.uv.heightmap import dome_sprite, height_map

    layout, dpi = load_layout(), 150
    bleed_mm = layout.bleed / 72 * 25.4
    dots = [SimpleNamespace(x=x, y=y) for x, y in ((-bleed_mm, -bleed_mm), (10.0, 12.0), (10.8, 12.3), (30.0, 40.0))]
    block = SimpleNamespace(dots=lambda: dots, profile=SimpleNamespace(dot_base=1.44, dot_height=0.48))
    tile, c = dome_sprite(1.44, 0.48, 0.48, dpi)
    got = height_map(block, dpi, 0.48, layout, (tile, c))
    want = Image.new("L", got.size, 0)
    for d in dots:
        px, py = dot_pixel(d.x, d.y, layout, dpi)
        box = (math.floor(px) - c, math.floor(py) - c, math.floor(px) + c + 1, math.floor(py) + c + 1)
        want.paste(ImageChops.lighter(want.crop(box), tile), box)
    assert got.mode == "L" and got.tobytes() == want.tobytes()
    assert got.getpixel((0, 0)) == 255 and got.getpixel((c + 1, 0)) == 0  # the corner dot, clipped to its quarter


def test_height_map_blank_rows_are_the_rows_without_a_grey(mini):
    """_drawn's blank rows (from where dots were drawn) against a scan of its pixels (the reference), on the mini
    game's cards, a dot clipped at the corner and an empty block; the PNG is then the bytes of a scanned one."""
    from types import SimpleNamespace

    import numpy as np

    from pipeline.common.pngfile import grey_png
    from pipeline.render.uv.heightmap import _drawn

    _, blocks = mini
    corner = SimpleNamespace(dots=lambda: [SimpleNamespace(x=-3.0, y=-3.0), SimpleNamespace(x=20.0, y=30.0)],
                             profile=SimpleNamespace(dot_base=1.44, dot_height=0.48))
    empty = SimpleNamespace(dots=lambda: [], profile=corner.profile)
    for block in [*blocks.values(), corner, empty]:
        for dpi in (150, 600):
            pixels, blank = _drawn(block, dpi, 0.48)
            assert np.array_equal(blank, pixels.max(axis=1) == 0)
            assert grey_png(pixels, dpi, blank_rows=blank) == grey_png(pixels, dpi)


def test_height_map_png_from_remembered_runs_is_the_png_of_its_pixels(mini, monkeypatch):
    """_map_png (runs drawn and deflated once per dots, issue 22) against grey_png of height_pixels (the whole map
    drawn and encoded: the reference), byte for byte, on the mini game's cards at 150 and 600 dpi, first with
    empty caches, then with every run remembered; and for a card with a dot off the bleed or none (drawn whole)."""
    from types import SimpleNamespace

    from pipeline.common import pngfile
    from pipeline.common.layout import load_layout
    from pipeline.render.uv import heightmap

    layout, (_, blocks) = load_layout(), mini
    edge = SimpleNamespace(dots=lambda: [SimpleNamespace(x=-3.0, y=-3.0), SimpleNamespace(x=20.0, y=30.0)],
                           profile=SimpleNamespace(dot_base=1.44, dot_height=0.48))
    empty = SimpleNamespace(dots=lambda: [], profile=edge.profile)
    monkeypatch.setattr(pngfile, "RUN_CACHE_BYTES", 0)  # the reference encodes every run afresh
    for dpi in (150, 600):
        monkeypatch.setattr(heightmap, "_DOT_RUNS", heightmap.OrderedDict())
        for _ in range(2):  # cold, then warm
            for block in [*blocks.values(), edge, empty]:
                want = pngfile.grey_png(heightmap.height_pixels(block, dpi, 0.48, layout), dpi, {"deckpress": "t"})
                assert heightmap._map_png(block, dpi, 0.48, layout, "t") == want
        assert len(heightmap._DOT_RUNS) > 0


def test_height_map_remembered_runs_stay_within_their_bytes(mini, monkeypatch):
    """With room for a few runs only, the oldest are dropped and the maps are still grey_png's of their pixels."""
    from pipeline.common import pngfile
    from pipeline.common.layout import load_layout
    from pipeline.render.uv import heightmap

    layout, (_, blocks) = load_layout(), mini
    monkeypatch.setattr(heightmap, "_DOT_RUNS", heightmap.OrderedDict())
    monkeypatch.setattr(heightmap, "_kept_bytes", [0])
    monkeypatch.setattr(heightmap, "DOT_RUNS_BYTES", 6000)
    for block in list(blocks.values()) * 2:
        assert heightmap._map_png(block, 150, 0.48, layout, "t") == pngfile.grey_png(heightmap.height_pixels(block, 150, 0.48, layout), 150, {"deckpress": "t"})
        assert heightmap._kept_bytes[0] == sum(len(k[3]) + len(v[0]) for k, v in heightmap._DOT_RUNS.items())
        assert heightmap._kept_bytes[0] <= 6000 or len(heightmap._DOT_RUNS) == 1

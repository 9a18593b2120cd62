"""The UV printer profile on the press sheets: layered plate sheets and the composite sheet.

Independent references: the layer diameters against the sagitta relation of a circle (as in
test_uv_package); positions and inks against Ghostscript's tiffsep separations (which plates a RIP
would see, where the ink lands, whether the CMYK under a dot survives: overprint); the marks
against the geometry of pipeline.render.marks rendered by Ghostscript on both sheets.
spec800 (NLS Specification 800 §3.2): base 1.44 mm, height 0.48 mm; 0.12 mm layers give 4.
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

from conftest import GAMES
from engine.load import load_game
from engine.units import mm_to_pt, pt_to_mm
from pipeline.braille.layout import layout_deck
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.formpages import CardPages
from pipeline.render.impose import deck_copies, impose
from pipeline.render.marks import registration_targets, side_crop_marks
from pipeline.render.pdfx import check_pdfx
from pipeline.render.tactile import merge_spot_plate
from pipeline.render.uv.ocg import processing_steps_by_page
from pipeline.render.uv.package import printer_for, write_uv_package
from pipeline.render.uv.sheets import impose_uv_sheets, write_composite_cards

GS = shutil.which("gs")
LAYERS = 4  # 0.48 mm / 0.12 mm
DPI = 72


def sagitta_diameters(base, height, n):
    """Layer k at z = (k − ½)·h/n is a chord at depth s = h − z below the top of the sphere."""
    a = base / 2
    big_r = (a * a + height * height) / (2 * height)
    return [2 * math.sqrt((height - (k - 0.5) * height / n) * (2 * big_r - (height - (k - 0.5) * height / n))) for k in range(1, n + 1)]


@pytest.fixture(scope="module", params=["arizona", "generic-separations"])
def sheets(request, tmp_path_factory):
    deck = load_game(GAMES / "mini")
    blocks, _ = layout_deck(deck)
    out = tmp_path_factory.mktemp(request.param)
    fronts, backs = render_fronts(deck, out / "mini-fronts.pdf"), render_backs(deck, out / "mini-backs.pdf")
    printer = printer_for(request.param, 0.12)
    package = write_uv_package(deck, blocks, list(fronts.pages), out / "uv", printer)
    merged = merge_spot_plate(fronts.path, package.layer, out / "uv" / "mini-fronts+braille.pdf")
    composite = write_composite_cards(fronts.path, merged, blocks, list(fronts.pages), printer, package.spot, out / "uv", "mini")
    result = impose(fronts.path, backs.path, package.layer, "letter", deck_copies(deck, fronts.pages, backs.pages),
                    out / "sheets", "mini", front_ids=fronts.pages, back_ids=backs.pages)
    uv = impose_uv_sheets(result, fronts.pages, CardPages(package.plates, "plates"), CardPages(composite, "composite"),
                          printer, out / "sheets", "mini")
    assert uv.findings == ()
    return {"printer": printer, "spot": package.spot, "result": result, "uv": uv, "fronts": fronts, "blocks": blocks,
            "composite_cards": composite, "out": out}


def _placed(page):
    """``[(tx, ty, XObject)]`` of every Form XObject a sheet page paints, in order (pikepdf)."""
    placed, shift = [], (0.0, 0.0)
    for op in pikepdf.parse_content_stream(page, "cm Do"):
        if str(op.operator) == "cm":
            shift = (float(op.operands[4]), float(op.operands[5]))
        else:
            placed.append((*shift, page.Resources.XObject[str(op.operands[0])]))
    return placed


def _circle_diameters_mm(form):
    """Diameters (mm) of every filled circle a form paints: the x extent of each subpath's points."""
    out, xs = [], []
    for op in pikepdf.parse_content_stream(form, "m c h"):
        name = str(op.operator)
        if name == "m":
            xs = [float(op.operands[0])]
        elif name == "c":
            xs += [float(v) for v in op.operands[0::2]]
        elif xs:
            out.append(pt_to_mm(max(xs) - min(xs)))
    return out


def test_plate_sheets_follow_the_profile_on_the_fronts_slots(sheets):
    result, uv, spot = sheets["result"], sheets["uv"], sheets["spot"]
    layered = sheets["printer"].plate_mode == "layer-pages"
    assert uv.plates.name == f"mini-letter-plates-{sheets['printer'].id}.pdf"
    reader = PdfReader(uv.plates)
    if layered:  # Arizona: a page per sheet and layer, every layer in "Spot 1"
        assert list(reader.page_labels) == [f"sheet {n} L{k:02d}" for n in range(1, result.sheets + 1) for k in range(1, LAYERS + 1)]
    else:  # one page per sheet, every layer its own separation
        assert list(reader.page_labels) == [f"sheet {n} braille layers" for n in range(1, result.sheets + 1)]
    want = sagitta_diameters(1.44, 0.48, LAYERS)
    with pikepdf.open(uv.plates) as plates, pikepdf.open(result.fronts) as fronts:
        assert check_pdfx(plates) == [] and plates.pdf_version == "1.6"
        for i, page in enumerate(plates.pages):
            sheet = i // LAYERS if layered else i
            front_slots = [(x, y) for x, y, _ in _placed(fronts.pages[sheet])]
            placed = _placed(page)
            assert [(x, y) for x, y, _ in placed] == front_slots  # each card's plate exactly on its front's slot
            for _, _, form in placed:
                diameters = _circle_diameters_mm(form)
                if layered:
                    assert diameters == pytest.approx([want[i % LAYERS]] * len(diameters), abs=0.002)
                    assert {str(s[1]) for s in form.Resources.ColorSpace.values()} == {"/" + spot}
                else:
                    per_layer = len(diameters) // LAYERS
                    assert diameters == pytest.approx([d for d in want for _ in range(per_layer)], abs=0.002)
                    assert sorted(str(s[1]) for s in form.Resources.ColorSpace.values()) == [f"/Braille L0{k}" for k in range(1, LAYERS + 1)]
        assert all(steps and set(steps) == {"Braille"} for steps in processing_steps_by_page(plates))


def _tiffsep(pdf, page, folder, extra=()):
    folder.mkdir(exist_ok=True)
    subprocess.run([GS, "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", f"-r{DPI}", f"-dFirstPage={page}",
                    f"-dLastPage={page}", *extra, f"-sOutputFile={folder / 'sep.tif'}", str(pdf)], check=True, capture_output=True)
    return {p.name[4:-5]: Image.open(p) for p in folder.glob("sep(*).tif")}


def _pixel(x_pt, y_pt, height_pt):
    return int(x_pt * DPI / 72), int((height_pt - y_pt) * DPI / 72)


def _first_dot(sheets, placement):
    """Sheet pt of the first dot of the card in ``placement``: its front trim plus the dot map's mm."""
    trim = placement.front_trim
    card = sheets["fronts"].pages[placement.front_page]
    dot = sheets["blocks"][card].dots()[0]
    return trim.x0 + mm_to_pt(dot.x), trim.y1 - mm_to_pt(dot.y)


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (make setup installs it)")
def test_plate_sheet_registers_on_the_cmyk_sheets_marks(sheets):
    """Ghostscript: the crop marks and targets (registration colour, so on every plate) sit at the
    same pixels on the fronts sheet and the plate sheet, and the plate's ink on the dot centres."""
    result, out, grid = sheets["result"], sheets["out"], sheets["result"].grid
    front = _tiffsep(result.fronts, 1, out / "gs-front")
    plate = _tiffsep(sheets["uv"].plates, 1, out / "gs-plate")
    probes = [((s.x0 + s.x1) / 2, (s.y0 + s.y1) / 2) for s in side_crop_marks(grid, "front")]
    probes += [(t.x, t.y) for t in registration_targets(grid, "front", grid.spec.registration.radius)]
    assert len(probes) >= 10
    for x, y in probes:
        px = _pixel(x, y, grid.height)
        assert front["Cyan"].getpixel(px) < 128 and plate["Cyan"].getpixel(px) < 128, (x, y)
    name = sheets["spot"] if sheets["printer"].plate_mode == "layer-pages" else "Braille L01"
    layer = plate[name]
    for p in (q for q in result.placements if q.sheet == 1):
        assert layer.getpixel(_pixel(*_first_dot(sheets, p), grid.height)) < 128  # the bottom layer under every first dot


@pytest.mark.skipif(GS is None, reason="Ghostscript is not installed (make setup installs it)")
def test_composite_sheet_separates_into_cmyk_and_one_plate_per_layer_with_overprint(sheets):
    result, out, grid, uv = sheets["result"], sheets["out"], sheets["result"].grid, sheets["uv"]
    base = "Spot 1" if sheets["printer"].id == "arizona" else "Braille"
    composite = _tiffsep(uv.composite, 1, out / "gs-composite", ["-dMaxSpots=20"])
    layers = [f"{base} L0{k}" for k in range(1, LAYERS + 1)]
    assert sorted(composite) == sorted(["Cyan", "Magenta", "Yellow", "Black"] + layers)
    assert all(composite[ink].getextrema()[0] < 255 for ink in ("Cyan", "Magenta", "Yellow", "Black"))  # the CMYK art is there
    for p in (q for q in result.placements if q.sheet == 1):
        px = _pixel(*_first_dot(sheets, p), grid.height)
        assert [composite[name].getpixel(px) for name in layers] == [0] * LAYERS  # every layer covers the dot's centre
    inked = [sum(1 for v in composite[name].tobytes() if v < 128) for name in layers]
    assert inked == sorted(inked, reverse=True) and inked[0] > inked[-1]  # each layer smaller than the one below
    with pikepdf.open(uv.composite) as pdf:
        assert check_pdfx(pdf) == [] and pdf.pdf_version == "1.6"
        assert all(steps and set(steps) == {"Braille"} for steps in processing_steps_by_page(pdf))
    with pikepdf.open(sheets["composite_cards"]) as pdf:  # every layer's fill overprints (ISO 32000-1 §8.6.7: op true, OPM 1)
        for page in pdf.pages:
            [form] = page.Resources.XObject.values()
            states, fills = {}, 0
            for op in pikepdf.parse_content_stream(form, "gs cs f"):
                name = str(op.operator)
                if name == "gs":
                    states.update({str(k): v for k, v in form.Resources.ExtGState[str(op.operands[0])].items()})
                elif name == "cs":
                    assert str(form.Resources.ColorSpace[str(op.operands[0])][0]) == "/Separation"
                else:
                    assert states.get("/op") is True and states.get("/OPM") == 1
                    fills += 1
            assert fills == LAYERS
    assert PdfReader(uv.composite).page_labels == [f"sheet {n} composite" for n in range(1, result.sheets + 1)]


def test_composite_cards_and_flat_profiles(sheets, tmp_path):
    """The composite's cards are the fronts plus one separation per layer; a flat profile's are the fronts+braille."""
    assert sheets["composite_cards"].name == "mini-fronts+layers.pdf"
    fronts = sheets["fronts"]
    assert PdfReader(sheets["composite_cards"]).page_labels == list(fronts.pages)
    deck = load_game(GAMES / "mini")
    blocks = sheets["blocks"]
    flat = printer_for("flat-plate")
    package = write_uv_package(deck, blocks, list(fronts.pages), tmp_path, flat)
    merged = merge_spot_plate(fronts.path, package.layer, tmp_path / "mini-fronts+braille.pdf")
    assert package.plates is None
    assert write_composite_cards(fronts.path, merged, blocks, list(fronts.pages), flat, package.spot, tmp_path, "mini") == merged
    result = impose(fronts.path, None, package.layer, "letter", [(i, 0, 1) for i in range(len(fronts.pages))], tmp_path, "mini")
    uv = impose_uv_sheets(result, fronts.pages, None, CardPages(merged, "composite"), flat, tmp_path, "mini")
    assert uv.plates is None and uv.paths == (tmp_path / "mini-letter-composite.pdf",)  # flat: the braille sheets are the plates
    doc = json.loads((tmp_path / "mini-uv-ticket.json").read_text())
    assert doc["files"]["composite sheets, CMYK + a separation per layer (build, impose)"] == "sheets/mini-<paper>-composite.pdf"

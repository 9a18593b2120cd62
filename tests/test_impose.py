"""Imposition: grid per sheet preset, trim positions in pt, crop marks on trim lines, duplex backs,
sheet counts, the braille plate imposed like the fronts, calibration sheet, findings.

The expected trim boxes were computed by hand from the presets: e.g. letter (612 × 792 pt),
2 × 2 bled cards of 234 × 378 pt: grid 468 × 756 pt centred → left 72, top 774; the first
card's trim is its bled box inset by 9 pt: [81, 405, 297, 765].
"""

from __future__ import annotations

import dataclasses
import io
import json

import pikepdf
import pypdfium2 as pdfium
import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from engine.units import mm_to_pt
from pipeline.render import marks
from pipeline.render.fonts import face
from pipeline.render.impose import deck_copies, impose
from pipeline.render.sheets import ImpositionError, get_sheet, load_sheets, plan_grid

W, H = 234.0, 378.0  # bled 3 × 5 in card with 0.125 in bleed

#: A distinct fill per card page (CMYK), so a raster shows which card landed where.
COLOURS = [(1, 0, 0, 0), (0, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1), (1, 1, 0, 0), (0, 1, 1, 0), (1, 0, 1, 0), (0.5, 0, 0, 0)]


def card_pdf(path, pages: int, boxes: bool = True, size=(W, H), embedded: bool = True) -> str:
    """``pages`` card pages of ``size`` pt, each filled edge to edge (bleed included) with COLOURS[i % 8].

    ``embedded``: start the canvas with the embedded Atkinson Hyperlegible (PDF/X-1a clean);
    otherwise reportlab references an unembedded Helvetica.
    """
    font = {"initialFontName": face("regular").name} if embedded else {}
    c = Canvas(str(path), pagesize=size, invariant=1, **font)
    for i in range(pages):
        if boxes:
            c.setBleedBox((0, 0, *size))
            c.setTrimBox((9, 9, size[0] - 9, size[1] - 9))
        c.setFillColor(CMYKColor(*COLOURS[i % len(COLOURS)]))
        c.rect(0, 0, *size, stroke=0, fill=1)
        c.showPage()
    c.save()
    return str(path)


@pytest.fixture
def pdfs(tmp_path):
    return {
        "fronts": card_pdf(tmp_path / "fronts.pdf", 8),
        "backs": card_pdf(tmp_path / "backs.pdf", 2),
        "braille": card_pdf(tmp_path / "braille.pdf", 8),
    }


def _mul(a, b):
    """PDF matrix product a × b (a applied first)."""
    a0, a1, a2, a3, a4, a5 = a
    b0, b1, b2, b3, b4, b5 = b
    return (a0 * b0 + a1 * b2, a0 * b1 + a1 * b3, a2 * b0 + a3 * b2, a2 * b1 + a3 * b3,
            a4 * b0 + a5 * b2 + b4, a4 * b1 + a5 * b3 + b5)


def placements(page, reader):
    """``[(xobject_name, tx, ty)]`` for every ``Do`` on the page, with the CTM's translation."""
    ctm, stack, out = (1, 0, 0, 1, 0, 0), [], []
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append(ctm)
        elif op == b"Q":
            ctm = stack.pop()
        elif op == b"cm":
            ctm = _mul(tuple(float(v) for v in operands), ctm)
        elif op == b"Do":
            out.append((str(operands[0]), round(ctm[4], 3), round(ctm[5], 3)))
    return out


def line_segments(page, reader):
    """Every ``x y m x y l`` segment of the page content: ``(x0, y0, x1, y1, line_width)``."""
    out, width, start = [], None, None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"w":
            width = float(operands[0])
        elif op == b"m":
            start = tuple(float(v) for v in operands)
        elif op == b"l" and start is not None:
            end = tuple(float(v) for v in operands)
            out.append((*start, *end, width))
            start = end
    return out


# Hand-computed first-slot trim boxes [x0, y0, x1, y1] in pt (see the module docstring).
EXPECTED = {
    # sheet: (orientation, cols, rows, first trim, last slot trim)
    "letter": ("portrait", 2, 2, (81, 405, 297, 765), (315, 27, 531, 387)),
    # A4 595.2756 × 841.8898 pt: left (595.2756 − 468)/2 = 63.6378, top (841.8898 + 756)/2 = 798.9449
    "a4": ("portrait", 2, 2, (72.6378, 429.9449, 288.6378, 789.9449), (306.6378, 51.9449, 522.6378, 411.9449)),
    # tabloid landscape 1224 × 792: left (1224 − 1170)/2 = 27, top 774
    "tabloid": ("landscape", 5, 2, (36, 405, 252, 765), (972, 27, 1188, 387)),
    # 12 × 18 in landscape 1296 × 864: left 63, top (864 + 756)/2 = 810
    "12x18": ("landscape", 5, 2, (72, 441, 288, 801), (1008, 63, 1224, 423)),
    # SRA3 landscape 1275.5906 × 907.0866: left 52.7953, top 831.5433
    "sra3": ("landscape", 5, 2, (61.7953, 462.5433, 277.7953, 822.5433), (997.7953, 84.5433, 1213.7953, 444.5433)),
}


#: The presets whose 0.25 in printable margin leaves room round the grid for full 6 mm crop marks.
ROOM_FOR_MARKS = {"a4", "12x18", "sra3"}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_grid_and_trim_positions_per_sheet(name):
    orientation, cols, rows, first, last = EXPECTED[name]
    grid = plan_grid(get_sheet(name), W, H)
    assert (grid.orientation, grid.cols, grid.rows) == (orientation, cols, rows)
    assert grid.front_trim(0).as_list(4) == pytest.approx(first, abs=1e-3)
    assert grid.front_trim(grid.per_sheet - 1).as_list(4) == pytest.approx(last, abs=1e-3)


@pytest.mark.parametrize("name", list(EXPECTED))
def test_imposed_cards_land_on_computed_trims_and_marks_sit_on_trim_lines(name, pdfs, tmp_path):
    res = impose(pdfs["fronts"], pdfs["backs"], pdfs["braille"], name, [(i, i % 2, 1) for i in range(8)], tmp_path, "demo")
    grid = plan_grid(get_sheet(name), W, H)
    reader = PdfReader(res.fronts)
    page = reader.pages[0]
    assert [float(v) for v in page.mediabox] == pytest.approx([0, 0, grid.width, grid.height])
    placed = placements(page, reader)
    assert len(placed) == min(8, grid.per_sheet)
    for slot, (xobj, tx, ty) in enumerate(placed):
        assert xobj == f"/Front{slot}"
        # the card page's trim [9 9 225 369] moved by the placement
        assert (tx + 9, ty + 9, tx + 225, ty + 369) == pytest.approx(grid.front_trim(slot).as_list(), abs=1e-3)
    trims = [grid.front_trim(s) for s in range(grid.per_sheet)]
    xs = {round(v, 3) for t in trims for v in (t.x0, t.x1)}
    ys = {round(v, 3) for t in trims for v in (t.y0, t.y1)}
    centres = {(round(t.x, 3), round(t.y, 3)) for t in marks.registration_targets(grid, "front", 7.0866)}
    crop = [s for s in line_segments(page, reader) if s[4] == get_sheet(name).crop_marks.weight  # not a target's cross
            and (round((s[0] + s[2]) / 2, 3), round((s[1] + s[3]) / 2, 3)) not in centres]
    full = [s for s in crop if abs(abs(s[2] - s[0]) + abs(s[3] - s[1]) - mm_to_pt(6)) < 0.01]
    if name in ROOM_FOR_MARKS:
        assert len(crop) == len(full) == 2 * len(xs) + 2 * len(ys)  # both ends of every trim line, 6 mm long
    else:  # letter: no room above and below the grid (8 column marks left out); tabloid: 27 pt beside it too
        assert (len(crop), len(full)) == {"letter": (8, 8), "tabloid": (8, 0)}[name]
    assert [tuple(round(v, 3) for v in s[:4]) for s in crop] == [
        (round(m.x0, 3), round(m.y0, 3), round(m.x1, 3), round(m.y1, 3)) for m in marks.side_crop_marks(grid, "front")]
    bleed_top = max(t.y1 for t in trims) + 9
    bleed_bottom = min(t.y0 for t in trims) - 9
    for x0, y0, x1, y1, width in crop:
        assert 0.25 <= width <= 0.5
        if x0 == x1:  # vertical mark on a vertical trim line, outside the bleed
            assert round(x0, 3) in xs
            assert min(y0, y1) >= bleed_top - 1e-3 or max(y0, y1) <= bleed_bottom + 1e-3
        else:
            assert y0 == y1 and round(y0, 3) in ys
    colour_spaces = page["/Resources"]["/ColorSpace"]
    assert any(cs.get_object()[1] == "/All" for cs in colour_spaces.values())  # registration colour
    text = page.extract_text()
    assert (f"demo · sheet 1/{res.sheets} · front · {name}" in text) == (name != "tabloid")  # tabloid: no room (IM007)


def test_bleed_is_kept_and_cards_land_where_the_raster_says(pdfs, tmp_path):
    res = impose(pdfs["fronts"], None, None, "letter", [(i, 0, 1) for i in range(4)], tmp_path, "demo")
    grid = plan_grid(get_sheet("letter"), W, H)
    image = pdfium.PdfDocument(str(res.fronts))[0].render(scale=1).to_pil().convert("RGB")  # 1 px per pt
    swatches = [pdfium.PdfDocument(pdfs["fronts"])[i].render(scale=1).to_pil().convert("RGB").getpixel((117, 189)) for i in range(4)]
    for slot in range(4):
        t = grid.front_trim(slot)
        cx, cy = t.centre
        assert image.getpixel((int(cx), int(grid.height - cy))) == swatches[slot]
        # 5 pt into the bleed, beyond the left trim: still the card's own colour
        assert image.getpixel((int(t.x0 - 5), int(grid.height - cy))) == swatches[slot]
    assert image.getpixel((30, 396)) == (255, 255, 255)  # side margin stays blank


@pytest.mark.parametrize("name,mirror", [("letter", "columns"), ("12x18", "rows")])
def test_back_of_card_k_lands_under_front_of_card_k_after_long_edge_flip(name, mirror, pdfs, tmp_path):
    copies = [(i, i % 2, 1) for i in range(8)]
    res = impose(pdfs["fronts"], pdfs["backs"], None, name, copies, tmp_path, "demo")
    grid = plan_grid(get_sheet(name), W, H)
    assert grid.mirror_columns == (mirror == "columns")
    front_reader, back_reader = PdfReader(res.fronts), PdfReader(res.backs)
    fronts = placements(front_reader.pages[0], front_reader)
    backs = placements(back_reader.pages[0], back_reader)
    assert len(fronts) == len(backs)
    for k, ((fname, fx, fy), (bname, bx, by)) in enumerate(zip(fronts, backs)):
        # turn the sheet over its long edge: a point (x, y) of the front lies behind (W − x, y)
        # on a portrait sheet and behind (x, H − y) on a landscape one
        fcx, fcy = fx + W / 2, fy + H / 2
        behind = (grid.width - fcx, fcy) if mirror == "columns" else (fcx, grid.height - fcy)
        assert (bx + W / 2, by + H / 2) == pytest.approx(behind, abs=1e-6)
        assert fname == f"/Front{k}" and bname == f"/Back{k % 2}"

    # the same physically, on rasters: flip the back image and look behind each front card
    front_img = pdfium.PdfDocument(str(res.fronts))[0].render(scale=0.5).to_pil().convert("RGB")
    back_img = pdfium.PdfDocument(str(res.backs))[0].render(scale=0.5).to_pil().convert("RGB")
    from PIL import ImageOps

    turned = ImageOps.mirror(back_img) if mirror == "columns" else ImageOps.flip(back_img)
    back_pdf = pdfium.PdfDocument(str(tmp_path / "backs.pdf"))
    back_swatch = [back_pdf[i].render(scale=0.5).to_pil().convert("RGB").getpixel((58, 94)) for i in range(2)]
    for k in range(len(fronts)):
        cx, cy = grid.front_trim(k).centre
        px = (int(cx / 2), int((grid.height - cy) / 2))
        assert front_img.getpixel(px) != (255, 255, 255)
        assert turned.getpixel(px) == back_swatch[k % 2]
    assert back_swatch[0] != back_swatch[1]


def test_back_offset_shifts_every_back_card(pdfs, tmp_path):
    spec = get_sheet("letter").with_back_offset(mm_to_pt(1.5), mm_to_pt(-0.5))
    res = impose(pdfs["fronts"], pdfs["backs"], None, spec, [(i, 0, 1) for i in range(4)], tmp_path, "demo")
    plain = plan_grid(get_sheet("letter"), W, H)
    reader = PdfReader(res.backs)
    for slot, (_, bx, by) in enumerate(placements(reader.pages[0], reader)):
        b = plain.back_bled(slot)
        assert (bx, by) == pytest.approx((b.x0 + mm_to_pt(1.5), b.y0 - mm_to_pt(0.5)), abs=1e-3)
        assert res.placements[slot].back_trim.x0 == pytest.approx(plain.back_trim(slot).x0 + 4.2520, abs=1e-3)
    assert "back offset +1.50, -0.50 mm" in reader.pages[0].extract_text()
    # letter's bled cards reach the 18 pt (0.25 in) printable margin above and below: the front's column marks
    # there have no room; shifted 0.5 mm down, the back's top marks get 1.417 pt (0.5 mm) and its bottom cards
    # start 16.58 pt from the edge, inside the margin, so their marks go
    assert [f.message.split(": ", 1)[1] for f in res.findings if f.code == "IM001"] == [
        "8 of 16 have no room and are left out", "the shortest runs 0.5 mm instead of 6.0 mm; 4 of 16 have no room and are left out"]
    assert [f.code for f in res.findings] == ["IM001", "IM001"]


@pytest.mark.parametrize("cards,letter,big", [(4, 1, 1), (8, 2, 1), (9, 3, 1), (120, 30, 12)])
def test_sheet_counts_and_partial_last_sheet(cards, letter, big, tmp_path):
    unique = min(cards, 60)
    fronts = card_pdf(tmp_path / "f.pdf", unique)
    backs = card_pdf(tmp_path / "b.pdf", 4)
    braille = card_pdf(tmp_path / "br.pdf", unique)
    copies = [(i, i % 4, cards // unique) for i in range(unique)]
    for sheet, expected in (("letter", letter), ("12x18", big)):
        res = impose(fronts, backs, braille, sheet, copies, tmp_path / sheet, "demo")
        assert res.faces == cards and res.sheets == expected
        for path in (res.fronts, res.backs, res.braille):
            reader = PdfReader(path)
            assert len(reader.pages) == expected
            per_page = [len(placements(p, reader)) for p in reader.pages]
            assert sum(per_page) == cards  # a 120-card deck prints 120 faces
            assert per_page[-1] == cards - (expected - 1) * res.per_sheet > 0  # last sheet: the rest, never blank


def test_copies_sit_in_consecutive_slots(pdfs, tmp_path):
    res = impose(pdfs["fronts"], None, None, "letter", [(0, 0, 2), (1, 0, 3)], tmp_path, "demo")
    names = [n for p in PdfReader(res.fronts).pages for n, *_ in placements(p, PdfReader(res.fronts))]
    assert names == ["/Front0", "/Front0", "/Front1", "/Front1", "/Front1"]
    assert [(p.sheet, p.slot) for p in res.placements] == [(1, 0), (1, 1), (1, 2), (1, 3), (2, 0)]


def test_braille_sheets_align_with_fronts(pdfs, tmp_path):
    for sheet in ("letter", "sra3"):
        res = impose(pdfs["fronts"], pdfs["backs"], pdfs["braille"], sheet, [(i, 0, 2) for i in range(8)], tmp_path, "demo")
        fr, br = PdfReader(res.fronts), PdfReader(res.braille)
        assert len(fr.pages) == len(br.pages)
        for fp, bp in zip(fr.pages, br.pages):
            f = [(n.replace("/Front", ""), x, y) for n, x, y in placements(fp, fr)]
            b = [(n.replace("/Braille", ""), x, y) for n, x, y in placements(bp, br)]
            assert f == b
            assert [s[:4] for s in line_segments(fp, fr)] == [s[:4] for s in line_segments(bp, br)]
        assert "braille" in br.pages[0].extract_text()


def test_output_is_deterministic(pdfs, tmp_path):
    a = impose(pdfs["fronts"], pdfs["backs"], pdfs["braille"], "tabloid", [(i, 0, 1) for i in range(8)], tmp_path / "a", "demo")
    b = impose(pdfs["fronts"], pdfs["backs"], pdfs["braille"], "tabloid", [(i, 0, 1) for i in range(8)], tmp_path / "b", "demo")
    for pa, pb in zip(a.paths, b.paths):
        assert pa.read_bytes() == pb.read_bytes(), pa.name


def test_calibration_sheet_has_crosshairs_at_trim_centres_front_and_mirrored_back(pdfs, tmp_path):
    res = impose(pdfs["fronts"], pdfs["backs"], None, "letter", [(0, 0, 1)], tmp_path, "demo")
    grid = plan_grid(get_sheet("letter"), W, H)
    reader = PdfReader(res.calibration)
    assert len(reader.pages) == 2
    arm = mm_to_pt(10)
    for side, page in zip(("front", "back"), reader.pages):
        segs = [s[:4] for s in line_segments(page, reader)]
        for slot in range(grid.per_sheet):
            t = grid.front_trim(slot) if side == "front" else grid.back_trim(slot)
            cx, cy = t.centre
            assert any(s == pytest.approx((cx - arm, cy, cx + arm, cy), abs=1e-3) for s in segs)
            assert any(s == pytest.approx((cx, cy - arm, cx, cy + arm), abs=1e-3) for s in segs)
        ticks = [s for s in segs if abs(s[2] - s[0]) < 1e-6 and abs(abs(s[3] - s[1]) - 2.0) < 1e-6]
        assert len(ticks) == (0 if side == "front" else grid.per_sheet * 6)  # the x scale's 2 pt ticks at ±1, ±3, ±5 mm


def test_findings_for_mismatched_pages_and_missing_trim_box(tmp_path):
    fronts = card_pdf(tmp_path / "f.pdf", 2)
    big_backs = card_pdf(tmp_path / "b.pdf", 1, size=(252, 396))
    no_boxes = card_pdf(tmp_path / "br.pdf", 2, boxes=False)
    res = impose(fronts, big_backs, no_boxes, "letter", [(0, 0, 1), (1, 0, 1)], tmp_path, "demo")
    codes = sorted(f.code for f in res.findings)
    assert codes == ["IM001", "IM001", "IM002", "IM003", "IM003"]  # letter's short marks; the back is too big; both braille pages lack a TrimBox
    assert "252.00 × 396.00 pt" in next(f.message for f in res.findings if "back PDF" in f.message)


def test_sheets_are_pdfx_when_the_cards_are_and_say_so_when_not(pdfs, tmp_path):
    import pikepdf

    from pipeline.render.pdfx import check_pdfx

    res = impose(pdfs["fronts"], pdfs["backs"], pdfs["braille"], "a4", [(i, 0, 1) for i in range(5)], tmp_path, "demo")
    assert res.findings == ()
    for path in res.paths[:-1]:  # every PDF; the last path is the JSON map
        with pikepdf.open(path) as pdf:
            assert check_pdfx(pdf) == [], path.name
            assert str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
    with pikepdf.open(res.fronts) as pdf:
        assert [str(i.title) for i in pdf.open_outline().root] == ["sheet 1 front", "sheet 2 front"]
    helvetica = card_pdf(tmp_path / "helv.pdf", 2, embedded=False)
    res = impose(helvetica, None, None, "a4", [(0, 0, 1)], tmp_path / "h", "demo")
    [f] = res.findings
    assert f.code == "IM004" and "Helvetica" in f.message and res.fronts.exists()


def test_short_margin_shortens_crop_marks_and_says_so(pdfs, tmp_path):
    # 2 × 2 bled cards with 20 pt round the grid, of which the outer 0.1 in (7.2 pt) is unprinted:
    # every mark runs from the bleed edge to the printable edge, 12.8 pt (4.5 mm) instead of 17.01 pt (6 mm)
    spec = load_sheets()["letter"].model_copy(update={"margin": 7.2, "width": 468 + 40.0, "height": 756 + 40.0})
    grid = plan_grid(spec, W, H)
    segs = marks.crop_marks([grid.front_trim(s) for s in range(4)], [grid.front_bled(s) for s in range(4)],
                            grid.width, grid.height, spec.crop_marks.offset, spec.crop_marks.length, spec.margin)
    assert len(segs) == 16 and {round(s.length, 6) for s in segs} == {12.8}
    res = impose(pdfs["fronts"], None, None, spec, [(0, 0, 1)], tmp_path, "demo")
    [short] = res.findings
    assert short.code == "IM001"
    assert short.message == ("crop marks on the front of letter sheets stop at the 2.54 mm unprinted margin: "
                             "the shortest runs 4.5 mm instead of 6.0 mm")
    # with no margin at all the same sheet has room for the full 6 mm
    wide = spec.model_copy(update={"margin": 0.0})
    assert {round(s.length, 3) for s in marks.side_crop_marks(plan_grid(wide, W, H), "front")} == {17.008}


def test_errors_name_the_problem(pdfs, tmp_path):
    with pytest.raises(ImpositionError, match="unknown press sheet 'b5'"):
        impose(pdfs["fronts"], None, None, "b5", [(0, 0, 1)], tmp_path, "demo")
    short = card_pdf(tmp_path / "short.pdf", 3)
    with pytest.raises(ImpositionError, match="3 pages, the fronts .* 8"):
        impose(pdfs["fronts"], None, short, "letter", [(0, 0, 1)], tmp_path, "demo")
    with pytest.raises(ImpositionError, match="front page index 8"):
        impose(pdfs["fronts"], None, None, "letter", [(8, 0, 1)], tmp_path, "demo")
    tiny = load_sheets()["letter"].model_copy(update={"width": 200.0})
    with pytest.raises(ImpositionError, match="holds no"):
        plan_grid(tiny, W, H)
    assert not list(tmp_path.glob("demo-*"))  # nothing half-written


def test_deck_copies_follow_the_print_pages(mini_dir):
    from engine.load import load_game

    deck = load_game(mini_dir)
    fronts = [c.id for c in reversed(deck.cards)]
    copies = deck_copies(deck, fronts, ["forest", "ember"])
    assert copies == [(fronts.index(c.id), 1 if c.class_id == "ember" else 0, c.copies) for c in deck.cards]
    assert sum(n for *_, n in copies) == deck.total_copies
    with pytest.raises(ImpositionError, match="has no page in the fronts PDF"):
        deck_copies(deck, fronts[1:], ["forest", "ember"])


#: Registration targets per preset: top, left and right where the printable band holds one (letter and
#: tabloid's grids reach the 18 pt band above them, so no top target).
TARGETS = {"letter": 2, "a4": 3, "tabloid": 2, "12x18": 3, "sra3": 3}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_registration_targets_and_slug_stay_off_the_cards_and_the_crop_marks(name):
    spec = get_sheet(name)
    grid = plan_grid(spec, W, H)
    font = face("regular").name
    area = marks.printable_area(grid)
    assert (area.x0, area.y0) == (18.0, 18.0)  # 0.25 in
    for side in ("front", "back"):
        bleds = [grid.side_bled(side, s) for s in range(grid.per_sheet)]
        trims = [grid.trim_of(b) for b in bleds]
        segs = marks.crop_marks(trims, bleds, grid.width, grid.height, spec.crop_marks.offset, spec.crop_marks.length, spec.margin)
        targets = marks.registration_targets(grid, side, spec.registration.radius)
        assert len(targets) == TARGETS[name]
        for t in targets:
            arm = 1.4 * t.radius  # the cross reaches 40 % beyond the circle
            assert area.x0 < t.x - arm and t.x + arm < area.x1 and area.y0 < t.y - arm and t.y + arm < area.y1
            for b in bleds:  # outside every bled card
                assert t.x + t.radius < b.x0 or t.x - t.radius > b.x1 or t.y + t.radius < b.y0 or t.y - t.radius > b.y1
            for s in segs:  # no crop mark passes through the target's cross
                near_x = min(s.x0, s.x1) - arm <= t.x <= max(s.x0, s.x1) + arm
                near_y = min(s.y0, s.y1) - arm <= t.y <= max(s.y0, s.y1) + arm
                assert not (near_x and near_y)
        place = marks.slug_position(grid, side, 300.0, spec.slug.size, spec.slug.gap, font)
        if name == "tabloid":  # 10-up leaves 18 pt above and below and 27 pt beside the grid: no lane 6 pt clear
            assert place is None
            continue
        box = place.box(300.0 * place.size / spec.slug.size, font)
        assert place.size == spec.slug.size == 6.0 and place.angle == 90  # turned in the left margin
        assert area.x0 <= box.x0 and box.x1 <= area.x1 and area.y0 <= box.y0 and box.y1 <= area.y1
        for b in bleds:  # 6 pt clear of every bled card
            assert max(b.x0 - box.x1, box.x0 - b.x1, b.y0 - box.y1, box.y0 - b.y1) >= 6.0 - 1e-9
        for s in segs:  # and of every crop mark
            assert max(min(s.x0, s.x1) - box.x1, box.x0 - max(s.x0, s.x1), min(s.y0, s.y1) - box.y1, box.y0 - max(s.y0, s.y1)) >= 6.0 - 1e-9


def test_slug_text_is_on_every_sheet_in_the_registration_colour(pdfs, tmp_path):
    res = impose(pdfs["fronts"], pdfs["backs"], pdfs["braille"], "letter", [(i, i % 2, 1) for i in range(8)], tmp_path, "demo")
    for path, side in ((res.fronts, "front"), (res.backs, "back"), (res.braille, "braille")):
        reader = PdfReader(path)
        for n, page in enumerate(reader.pages, start=1):
            text = page.extract_text()
            assert f"demo · sheet {n}/2 · {side} · letter portrait" in text
            ops = ContentStream(page.get_contents(), reader).operations
            fills = [str(o[0]) for o, op in ops if op == b"cs"]
            spaces = page["/Resources"]["/ColorSpace"]
            assert fills and all(spaces[f].get_object()[1] == "/All" for f in fills)


def test_font_subsets_on_a_sheet_have_unique_tags_by_content(mini_dir, tmp_path):
    """The card fronts and the slug each embed a subset of Atkinson Hyperlegible Regular, both first
    subsets (reportlab: AAAAAA+); on the sheet they must differ in name as they differ in glyphs."""
    import hashlib

    import pikepdf

    from engine.load import load_game
    from pipeline.render.deck_pdf import render_fronts
    from pipeline.render.pdfx import subset_tag

    deck = load_game(mini_dir)
    fronts = render_fronts(deck, tmp_path / "print" / "fronts.pdf")
    copies = deck_copies(deck, fronts.pages, [])
    res = impose(fronts.path, None, None, "letter", copies, tmp_path / "a", "mini")
    first = res.fronts.read_bytes()
    with pikepdf.open(res.fronts) as pdf:
        fonts = {}
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font":
                program = obj.FontDescriptor.FontFile2.read_bytes()
                fonts.setdefault(str(obj.BaseFont), set()).add(hashlib.sha256(program).hexdigest())
                assert str(obj.FontDescriptor.FontName) == str(obj.BaseFont)
                assert str(obj.BaseFont)[1:7] == subset_tag(program)
        regular = [name for name in fonts if name.endswith("+AtkinsonHyperlegible-Regular")]
        assert len(regular) == 2  # the cards' subset and the slug's
        assert not any(name.startswith("/AAAAAA+") for name in fonts)
        # one name per content, and different contents under different names
        assert all(len(contents) == 1 for contents in fonts.values())
        assert len({c for contents in fonts.values() for c in contents}) == len(fonts)
    # the fronts PDF itself carries the same tag for the same subset as the sheet
    with pikepdf.open(fronts.path) as pdf:
        card_fonts = {str(o.BaseFont) for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == "/Font"}
    assert card_fonts <= set(fonts)
    again = impose(fronts.path, None, None, "letter", copies, tmp_path / "b", "mini")
    assert again.fronts.read_bytes() == first


def test_subset_tag_is_six_capitals_from_the_font_program():
    from pipeline.render.pdfx import subset_tag

    # sha256(b"abc") starts ba7816bf8f01cfea = 13436514500253700074; its base-26 digits, least
    # significant first, are 24 9 4 7 22 1 → Y J E H W B (checked once by hand with divmod)
    assert subset_tag(b"abc") == "YJEHWB"
    assert subset_tag(b"abc") != subset_tag(b"abd")


@pytest.fixture(scope="module")
def mini_print(tmp_path_factory):
    """The mini game's real print PDFs (page labels = card ids and class ids) and its deck."""
    from engine.load import load_game
    from pipeline.render.deck_pdf import render_backs, render_fronts
    from conftest import GAMES

    folder = tmp_path_factory.mktemp("print")
    deck = load_game(GAMES / "mini")
    return deck, render_fronts(deck, folder / "fronts.pdf"), render_backs(deck, folder / "backs.pdf")


def test_impose_refuses_card_pdfs_that_no_longer_match_the_data(mini_print, tmp_path):
    from pipeline.render.impose import StaleCardPdfError

    deck, fronts, backs = mini_print
    ids = ["ember-apprentice", "ember-ranger", "forest-apprentice", "fireball"]
    assert list(fronts.pages) == ids and list(backs.pages) == ["ember", "forest"]
    copies = [(0, 0, 1)]
    ok = impose(fronts.path, backs.path, None, "letter", copies, tmp_path / "ok", "mini", front_ids=ids, back_ids=["ember", "forest"])
    assert ok.faces == 1
    # a card removed from the data: 4 pages, 3 cards
    with pytest.raises(StaleCardPdfError) as exc:
        impose(fronts.path, None, None, "letter", copies, tmp_path / "a", "mini", front_ids=[i for i in ids if i != "ember-ranger"])
    assert str(exc.value) == (
        f"the fronts PDF {fronts.path} is out of date: it has 4 pages, the data 3 cards (pages for cards no longer "
        "in the data: ember-ranger); run deckpress build or deckpress render first")
    # a card added
    with pytest.raises(StaleCardPdfError, match=r"it has 4 pages, the data 5 cards \(no page for ember-mage\); run deckpress build"):
        impose(fronts.path, None, None, "letter", copies, tmp_path / "a", "mini", front_ids=ids + ["ember-mage"])
    # same count, another order
    swapped = [ids[1], ids[0], *ids[2:]]
    with pytest.raises(StaleCardPdfError) as exc:
        impose(fronts.path, None, None, "letter", copies, tmp_path / "a", "mini", front_ids=swapped)
    assert str(exc.value) == (f"the fronts PDF {fronts.path} is out of date: page 1 is 'ember-apprentice', the data has "
                              "'ember-ranger' there; run deckpress build or deckpress render first")
    # the backs against the class ids
    with pytest.raises(StaleCardPdfError) as exc:
        impose(fronts.path, backs.path, None, "letter", copies, tmp_path / "a", "mini", front_ids=ids, back_ids=["ember", "forest", "tide"])
    assert str(exc.value) == (f"the backs PDF {backs.path} is out of date: it has 2 pages, the data 3 classes (no page for tide); "
                              "run deckpress build or deckpress render first")
    assert not (tmp_path / "a").exists()  # nothing written


def test_unlabelled_card_pdfs_are_checked_by_page_count(pdfs, tmp_path):
    from pipeline.render.impose import StaleCardPdfError

    ids = [f"c{i}" for i in range(8)]  # the fixture PDFs have 8 fronts without page labels
    assert impose(pdfs["fronts"], None, pdfs["braille"], "letter", [(0, 0, 1)], tmp_path / "a", "g", front_ids=ids).faces == 1
    with pytest.raises(StaleCardPdfError, match=r"^the fronts PDF .*fronts.pdf is out of date: it has 8 pages, the data 7 cards; run"):
        impose(pdfs["fronts"], None, None, "letter", [(0, 0, 1)], tmp_path / "b", "g", front_ids=ids[:7])


def test_deck_copies_names_a_card_whose_class_the_game_lacks(game_copy):
    from engine.load import load_game
    from pipeline.render.deck_pdf import UnknownClassError

    folder = game_copy("mini")
    text = (folder / "cards.yaml").read_text()
    (folder / "cards.yaml").write_text(text.replace("class: ember\n", "class: embers\n", 1))
    deck = load_game(folder)
    with pytest.raises(UnknownClassError) as exc:
        deck_copies(deck, [c.id for c in deck.cards], ["ember", "forest"])
    assert str(exc.value) == (f"{folder / 'cards.yaml'}:4:12: card 'ember-apprentice' names class 'embers', not in the game "
                              "(classes: ember, forest)")


@pytest.mark.parametrize("name", ["letter", "a4", "tabloid", "12x18", "sra3"])
def test_calibration_instructions_fit_upright_inside_the_card_areas_at_9pt(name):
    from reportlab.pdfbase.pdfmetrics import getAscentDescent

    from pipeline.render.calibration import LABEL_ROOM, NOTE_SIZE, instructions, plan_notes

    grid = plan_grid(get_sheet(name).with_back_offset(mm_to_pt(1), mm_to_pt(-0.5)), W, H)
    font = face("regular").name
    ascent, descent = getAscentDescent(font, NOTE_SIZE)
    reach = mm_to_pt(10) + LABEL_ROOM
    halves = {}
    for side in ("front", "back"):
        plan = plan_notes(grid, side, font)
        assert plan.left_over == ""  # every shipped preset holds them on the sheet: no instruction page
        assert " ".join(line.text for line in plan.lines) == instructions(grid, side)
        trims = [grid.front_trim(s) if side == "front" else grid.back_trim(s) for s in range(grid.per_sheet)]
        for line in plan.lines:
            assert line.size == NOTE_SIZE == 9.0
            box = (line.x, line.y + descent, line.x + line.width, line.y + ascent)
            [t] = [t for t in trims if t.x0 + 6 <= box[0] and box[2] <= t.x1 - 6 and t.y0 + 6 <= box[1] and box[3] <= t.y1 - 6]
            cy = t.centre[1]
            assert box[1] >= cy + reach or box[3] <= cy - reach  # clear of the cross-hair, its scale and labels
            halves.setdefault(side, set()).add("upper" if box[1] >= cy else "lower")
    # the back's notes lie over the front's empty halves: long-edge flip of a portrait sheet keeps rows
    assert halves == {"front": {"upper"}, "back": {"lower" if grid.mirror_columns else "upper"}}


def test_instructions_that_do_not_fit_the_cards_go_on_an_instruction_page(pdfs, tmp_path):
    # one card on a sheet just big enough: its upper half holds the front's notes, not the back's
    spec = get_sheet("letter").model_copy(update={"width": 234 + 72.0, "height": 378 + 72.0})
    res = impose(pdfs["fronts"], pdfs["backs"], None, spec, [(0, 0, 1)], tmp_path, "demo")
    doc = pdfium.PdfDocument(str(res.calibration))
    assert len(doc) == 3
    with __import__("pikepdf").open(res.calibration) as pdf:
        assert [str(i.title) for i in pdf.open_outline().root] == ["front", "back", "instructions"]
    page = " ".join(doc[2].get_textpage().get_text_range().split())
    assert page.startswith("duplex calibration · instructions · letter portrait · long-edge flip")
    assert "DUPLEX CALIBRATION, FRONT. 1. Print this sheet duplex" in page and "4. Print again and check" in page


def test_calibration_back_says_how_to_turn_a_reading_into_a_back_offset():
    from pipeline.render.calibration import instructions

    grid = plan_grid(get_sheet("letter").with_back_offset(mm_to_pt(1), mm_to_pt(-0.5)), W, H)
    back = instructions(grid, "back")
    assert back.startswith("DUPLEX CALIBRATION, BACK, printed with back offset +1.00, -0.50 mm. ")
    assert ("a tick every 1 mm to 5 mm each way, every 2 mm numbered, + to the right (x) and up (y), \u2212 to the left "
            "and down, as the labels +x, \u2212x, +y, \u2212y at the arm ends show.") in back
    assert "new dx = old dx + x, new dy = old dy + y" in back
    assert "E.g. centre at x +1.5, y \u22120.5: --back-offset 2.50mm,-1.00mm." in back  # typed with ASCII hyphens
    assert face("regular").missing(back + instructions(grid, "front")) == []
    assert "(long-edge flip)" in instructions(grid, "front")


@pytest.mark.parametrize("name, flip", [("letter", "long-edge"), ("letter", "short-edge"), ("tabloid", "long-edge")])
def test_the_printed_sign_convention_cancels_a_press_error(name, flip):
    """Simulate a press that shifts the back by e (back coordinates): the front cross-hair, seen from the back,
    read on the back's scale, added to the offset as the sheet says, puts the back centre on the front centre."""
    spec = get_sheet(name).model_copy(update={"flip": flip}).with_back_offset(mm_to_pt(0.5), 0.0)
    grid = plan_grid(spec, W, H)
    e = (mm_to_pt(-2.0), mm_to_pt(1.25))
    for slot in range(grid.per_sheet):
        fx, fy = grid.front_trim(slot).centre
        seen = (grid.width - fx, fy) if grid.mirror_columns else (fx, grid.height - fy)  # front centre in back coordinates
        bx, by = grid.back_trim(slot).centre
        reading = (seen[0] - (bx + e[0]), seen[1] - (by + e[1]))  # + right, + up on the back's scale
        assert [round(v / mm_to_pt(1), 3) for v in reading] == [1.5, -1.25]  # within the ±5 mm scale
        fixed = plan_grid(spec.with_back_offset(spec.back_offset.dx + reading[0], spec.back_offset.dy + reading[1]), W, H)
        nx, ny = fixed.back_trim(slot).centre
        assert (nx + e[0], ny + e[1]) == pytest.approx(seen, abs=1e-9)


def test_back_scale_numbers_never_touch_the_lines_ticks_or_each_other():
    from PIL import ImageFont
    from reportlab.pdfbase.pdfmetrics import stringWidth

    from pipeline.render.calibration import LINE_WEIGHT, TICK_LABEL_SIZE, scale_labels, scale_ticks
    from pipeline.render.fonts import _font_files

    cx, cy, one = 300.0, 400.0, mm_to_pt(1)
    labels = scale_labels(cx, cy)
    assert TICK_LABEL_SIZE == 8.0 and LINE_WEIGHT == 0.5
    # as on a ruler, the even millimetres numbered (an 8 pt digit is 4.7 pt wide, ticks 2.83 pt apart)
    assert sorted(label.text for label in labels) == sorted(["2", "4"] * 4 + ["+x", "\u2212x", "+y", "\u2212y"])
    # the x scale's 2 is centred on its 4 pt tick, 0.6 pt beyond it
    assert ("2", pytest.approx(cx + 2 * one), cy + 4.6, "centre") in [(l.text, l.x, l.y, l.align) for l in labels]
    # ink boxes measured from the font file itself (Pillow), not from the module's constant
    ttf = ImageFont.truetype(_font_files()["regular"], 1000)
    regular = face("regular")
    boxes = []
    for label in labels:
        _, top, _, bottom = ttf.getbbox(label.text, anchor="ls")
        w = stringWidth(label.text, regular.name, TICK_LABEL_SIZE)
        x0 = {"left": label.x, "right": label.x - w, "centre": label.x - w / 2}[label.align]
        boxes.append((label.text, (x0, label.y - bottom / 1000 * TICK_LABEL_SIZE, x0 + w, label.y - top / 1000 * TICK_LABEL_SIZE)))

    def crosses(a, b):
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    stroke = LINE_WEIGHT / 2
    ink = marks.crosshair(cx, cy, mm_to_pt(10)) + scale_ticks(cx, cy)
    assert len(ink) == 2 + 20
    lines = [(min(s.x0, s.x1) - stroke, min(s.y0, s.y1) - stroke, max(s.x0, s.x1) + stroke, max(s.y0, s.y1) + stroke) for s in ink]
    for i, (text, a) in enumerate(boxes):
        for line in lines:
            assert not crosses(a, line), (text, a, line)
        for other, b in boxes[i + 1:]:
            assert not crosses(a, b), (text, other)
    # each number is next to its own tick: the y scale's + numbers stand on y = cy + 2 mm and cy + 4 mm
    ys = sorted(label.y for label in labels if label.align == "right" and label.text.isdigit())
    assert ys == pytest.approx([cy + k * one - 0.68 * TICK_LABEL_SIZE / 2 for k in (2, 4)])
    # and every tick points away from the other scale's quadrant: + x ticks up, + y ticks left
    assert marks.Segment(cx + one, cy, cx + one, cy + 2.0) in ink and marks.Segment(cx, cy + one, cx - 2.0, cy + one) in ink
    assert marks.Segment(cx - 2 * one, cy, cx - 2 * one, cy - 4.0) in ink and marks.Segment(cx - 5 * one, cy, cx - 5 * one, cy - 2.0) in ink


def test_calibration_pdf_carries_the_numbers_and_the_instructions(pdfs, tmp_path):
    res = impose(pdfs["fronts"], pdfs["backs"], None, "letter", [(0, 0, 1)], tmp_path, "demo")
    doc = pdfium.PdfDocument(str(res.calibration))
    assert len(doc) == 2  # the instructions fit the card areas: no instruction page
    front, back = (" ".join(doc[i].get_textpage().get_text_range().split()) for i in range(2))
    assert "DUPLEX CALIBRATION, FRONT. 1. Print this sheet duplex (long-edge flip)" in front
    assert "+x" not in front  # no scale on the front
    assert "DUPLEX CALIBRATION, BACK, printed with back offset +0.00, +0.00 mm." in back
    assert "--back-offset 1.50mm,-0.50mm" in back
    tokens = back.split()
    for label in ("+x", "\u2212x", "+y", "\u2212y"):  # on each of the 4 cross-hairs
        assert tokens.count(label) >= 4
    assert [f.code for f in res.findings] == ["IM001", "IM001"]  # letter's column marks: no room above and below


def test_every_text_on_the_calibration_sheet_is_8pt_or_more_and_every_line_half_a_point(pdfs, tmp_path):
    """Read from the content streams with pikepdf (qpdf's parser): every Tf size times the text matrix's
    and CTM's scale, every stroked path's line width; the crop marks keep the preset's 0.3 pt."""
    import pikepdf

    for name in EXPECTED:
        res = impose(pdfs["fronts"], pdfs["backs"], None, name, [(0, 0, 1)], tmp_path / name, "demo",
                     note="DRAFT - not for press · run box")
        with pikepdf.open(res.calibration) as pdf:
            for number, page in enumerate(pdf.pages):
                sizes, widths = _text_sizes_and_line_widths(page)
                assert sizes and min(sizes) >= 8.0 - 1e-6, (name, number, min(sizes))
                grid = plan_grid(get_sheet(name), W, H)
                crop = {round(get_sheet(name).crop_marks.weight, 3), round(get_sheet(name).registration.weight, 3)}
                if number < 2:  # crop marks and targets at the preset's weight; cross-hairs and ticks 0.5 pt
                    assert set(widths) - crop == {0.5}, (name, number, set(widths))
                    assert widths.count(0.5) == grid.per_sheet * (2 if number == 0 else 22)  # 2 hairs (+ 20 ticks) per card
def test_a_back_offset_over_5mm_is_probably_a_typo(pdfs, tmp_path):
    spec = get_sheet("letter")
    fine = impose(pdfs["fronts"], pdfs["backs"], None, spec.with_back_offset(mm_to_pt(5), mm_to_pt(-5)), [(0, 0, 1)], tmp_path / "a", "demo")
    assert [f.code for f in fine.findings if f.code == "IM005"] == []  # 5 mm is the scale's reach: no warning
    res = impose(pdfs["fronts"], pdfs["backs"], None, spec.with_back_offset(mm_to_pt(15), 0.0), [(0, 0, 1)], tmp_path / "b", "demo")
    [f] = [f for f in res.findings if f.code == "IM005"]
    assert (f.name, f.severity.value) == ("large-back-offset", "warning")
    assert f.message == ("the back offset +15.00, +0.00 mm is larger than 5 mm: probably a typo "
                         "(the calibration scale reads ±5 mm)")
    assert f.location.file == str(res.backs)
    assert [f.code for f in res.findings if f.code == "IM006"] == []  # 15 mm: a typo, still on its card


@pytest.mark.parametrize("dx_mm, dy_mm, error", [(37.0, 0.0, False), (38.1, 0.0, True), (500.0, 0.0, True), (0.0, -63.5, True), (0.0, 60.0, False)])
def test_a_back_offset_of_half_the_card_or_more_is_an_error(pdfs, tmp_path, dx_mm, dy_mm, error):
    """`--back-offset 500mm,0mm` gave blank back sheets and exit 0 (a new user's try). The limit is half
    the trim (the fixture's 3x5 in card: 76.2 x 127 mm): past it, a back covers more of its neighbour's
    place than its own. The reference: the trim in pt of the fronts' TrimBox, 216 x 360 pt."""
    spec = get_sheet("letter").with_back_offset(mm_to_pt(dx_mm), mm_to_pt(dy_mm))
    res = impose(pdfs["fronts"], pdfs["backs"], None, spec, [(0, 0, 1)], tmp_path / "s", "demo")
    found = [f for f in res.findings if f.code == "IM006"]
    assert bool(found) is error
    if error:
        assert (found[0].name, found[0].severity.value) == ("back-offset-off-card", "error")
        assert "is half the card's trim (76.2 × 127.0 mm) or more" in found[0].message


def _text_sizes_and_line_widths(page) -> tuple[list[float], list[float]]:
    """The effective type size (pt) of every text-showing operator and the line width (pt) of every stroke."""
    import pikepdf

    ctm, stack, width, tm_scale, font_size = 1.0, [], 1.0, 1.0, 0.0
    sizes, widths = [], []
    for operands, op in pikepdf.parse_content_stream(page):
        op = str(op)
        if op == "q":
            stack.append((ctm, width))
        elif op == "Q":
            ctm, width = stack.pop()
        elif op == "cm":
            a, b = float(operands[0]), float(operands[1])
            ctm *= (a * a + b * b) ** 0.5
        elif op == "w":
            width = float(operands[0])
        elif op == "Tf":
            font_size = float(operands[1])
        elif op == "Tm":
            a, b = float(operands[0]), float(operands[1])
            tm_scale = (a * a + b * b) ** 0.5
        elif op == "BT":
            tm_scale = 1.0
        elif op in ("Tj", "TJ", "'", '"'):
            sizes.append(round(font_size * tm_scale * ctm, 6))
        elif op in ("S", "s", "B", "b", "B*", "b*"):
            widths.append(round(width * ctm, 3))
    return sizes, widths


def test_rotated_card_pages_are_refused_own_or_inherited_rotate(pdfs, tmp_path):
    import pikepdf

    from pipeline.render.formpages import CardPdfError

    own, inherited = tmp_path / "own.pdf", tmp_path / "inherited.pdf"
    with pikepdf.open(pdfs["fronts"]) as pdf:
        pdf.pages[2].obj.Rotate = 90
        pdf.save(own)
    with pikepdf.open(pdfs["fronts"]) as pdf:  # reportlab writes /Rotate 0 on every page: drop it, rotate the tree
        for page in pdf.pages:
            del page.obj["/Rotate"]
        pdf.Root.Pages.Rotate = 270
        pdf.save(inherited)
    with pytest.raises(CardPdfError, match=r"page 3 of the front PDF .*own\.pdf is rotated \(90°\); card pages must be upright"):
        impose(str(own), None, None, "letter", [(0, 0, 1)], tmp_path, "demo")
    with pytest.raises(CardPdfError, match=r"page 1 of the front PDF .*inherited\.pdf is rotated \(270°\)"):
        impose(str(inherited), None, None, "letter", [(0, 0, 1)], tmp_path, "demo")


def test_content_beyond_the_bleed_box_is_clipped_and_a_card_is_stored_once(tmp_path):
    """A card page whose MediaBox reaches 20 pt beyond its BleedBox, painted black there: on the
    sheet the black is cut at the bleed (the form's BBox), and three copies share one form."""
    import pikepdf

    path = tmp_path / "wide.pdf"
    c = Canvas(str(path), pagesize=(W + 40, H + 40), invariant=1, initialFontName=face("regular").name)
    c.translate(20, 20)  # bleed box [20 20 254 398]; black from -20 to 0 pt outside it, cyan inside
    c.setBleedBox((20, 20, 20 + W, 20 + H))
    c.setTrimBox((29, 29, 11 + W, 11 + H))
    c.setFillColor(CMYKColor(0, 0, 0, 1))
    c.rect(-20, -20, W + 40, H + 40, stroke=0, fill=1)
    c.setFillColor(CMYKColor(1, 0, 0, 0))
    c.rect(0, 0, W, H, stroke=0, fill=1)
    c.showPage()
    c.save()
    res = impose(str(path), None, None, "letter", [(0, 0, 3)], tmp_path, "demo")
    grid = plan_grid(get_sheet("letter"), W, H)
    image = pdfium.PdfDocument(str(res.fronts))[0].render(scale=1).to_pil().convert("RGB")  # 1 px per pt
    cyan = image.getpixel(tuple(int(v) for v in (grid.front_bled(0).centre[0], grid.height - grid.front_bled(0).centre[1])))
    assert cyan[0] < 100 and cyan[1] > 150  # cyan: the card's own colour, not black
    left, top = grid.front_bled(0), grid.front_bled(0)
    y = int(grid.height - (left.y0 + left.y1) / 2)
    assert image.getpixel((int(left.x0 + 3), y)) == cyan  # the bleed itself is kept
    assert image.getpixel((int(left.x0 - 4), y)) == (255, 255, 255)  # 4 pt beyond it: the black was cut off
    assert image.getpixel((int((top.x0 + top.x1) / 2), int(grid.height - top.y1 - 4))) == (255, 255, 255)
    assert image.getpixel((int(left.x1 - 3), y)) == cyan  # slot 1's page (drawn after) does not reach into slot 0
    with pikepdf.open(res.fronts) as pdf:
        forms = {o.objgen for o in pdf.objects if isinstance(o, pikepdf.Stream) and o.get("/Subtype") == "/Form"}
        assert len(forms) == 1
        [form] = [pdf.get_object(g) for g in forms]
        assert [float(v) for v in form.BBox] == [20, 20, 20 + W, 20 + H]


@pytest.mark.parametrize("which", ["print", "reportlab"])
def test_sheets_made_in_the_card_pdf_are_the_copy_routes_bytes_and_the_output_is_released(which, mini_print, pdfs, tmp_path):
    """CardPages.adopt: the sheets made inside the card PDF, each form the card page's own content stream
    (read from the file at the save, not copied into memory), are byte for byte the sheets made by copying
    the forms into the marks' PDF; once write_sheet_pages has written them the card PDF is closed and holds
    no output, and the next output from it opens it again and is the same bytes."""
    from pipeline.render.formpages import CardPages
    from pipeline.render.impose import _compose_sheets, write_sheet_pages
    from pipeline.render.pdfx import finish

    path = mini_print[1].path if which == "print" else tmp_path / "own.pdf"
    if which == "reportlab":  # a catalogue with entries of its own, which the sheets must not carry
        with pikepdf.open(pdfs["fronts"]) as pdf:
            pdf.Root.Lang = pikepdf.String("en")
            pdf.Root.Metadata = pdf.make_stream(b"<x:xmpmeta/>")
            pdf.save(path)
    source = CardPages(path, "front")
    box = source.boxes[0]
    grid = plan_grid(get_sheet("letter"), box.bleed.width, box.bleed.height, box.trim_inset)
    sheets, slugs, labels = [[0, 1, 2, 3], [3, None, 1, None]], ["sheet 1", "sheet 2"], ["s1", "s2"]
    font = face("regular").name
    with _compose_sheets(grid, "front", source, sheets, slugs, font, lambda marks: marks) as pdf:
        finish(pdf, tmp_path / "copied.pdf", "t", labels)
    source.release()
    with _compose_sheets(grid, "front", source, sheets, slugs, font, source.adopt) as pdf:
        assert source.form(pdf, 3).objgen == source.pages[3].obj.Contents.objgen  # the card's own stream, no copy
        assert len(pdf.pages) == 2
    source.release()
    for name in ("adopted.pdf", "again.pdf"):
        assert write_sheet_pages(tmp_path / name, grid, "front", source, sheets, slugs, labels, "t", font) == []
        assert source._pdf is None and source._dest is None and source._forms == {}  # closed, the sheets not held
        assert (tmp_path / name).read_bytes() == (tmp_path / "copied.pdf").read_bytes()
    assert source.count == (4 if which == "print" else 8)
    assert len(PdfReader(tmp_path / "adopted.pdf").pages) == 2


def test_place_names_each_form_once_and_paint_is_place_for_one_slot(pdfs, tmp_path):
    """CardPages.place: a page's operators in slot order, each form made once and named once however often it
    prints; add_xobjects puts them beside an XObject the page has already; paint() is place() for one slot."""
    from pipeline.render.formpages import CardPages, add_xobjects

    source = CardPages(pdfs["fronts"], "front")
    dest = pikepdf.new()
    dest.add_blank_page(page_size=(612, 792))
    page = dest.pages[0]
    ops, forms = source.place(dest, [(3, 72, 396.5), (3, -0.0, 18), (1, 306.25, 18)])
    assert ops == b"q 1 0 0 1 72 396.5 cm /Front3 Do Q\nq 1 0 0 1 0 18 cm /Front3 Do Q\nq 1 0 0 1 306.25 18 cm /Front1 Do Q\n"
    assert list(forms) == ["/Front3", "/Front1"] and forms["/Front3"].objgen == source.form(dest, 3).objgen
    mine = dest.make_stream(b"")
    page.obj.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Logo=mine))
    add_xobjects(page, forms)
    assert sorted(page.obj.Resources.XObject.keys()) == ["/Front1", "/Front3", "/Logo"]
    add_xobjects(page, {})  # nothing to add: the page stays as it is
    assert page.obj.Resources.XObject.Logo.objgen == mine.objgen
    assert source.paint(dest, page, 5, 1.5, 2) == b"q 1 0 0 1 1.5 2 cm /Front5 Do Q\n"
    assert page.obj.Resources.XObject.Front5.objgen == source.form(dest, 5).objgen
    empty = pikepdf.new()
    empty.add_blank_page()
    assert source.place(empty, []) == (b"", {})
    add_xobjects(empty.pages[0], {})
    assert "/XObject" not in empty.pages[0].obj.get("/Resources", pikepdf.Dictionary())


@pytest.mark.parametrize("paper,offset", [("letter", (0.0, 0.0)), ("12x18", (4.25, -1.0 / 3)), ("tabloid", (-0.1, 0.0))])
def test_imposition_json_is_json_dumps_indent_1(paper, offset, pdfs, tmp_path):
    """The map is written from a template per placement: the text must be json.dumps(imposition_map, indent=1)
    exactly (odd offsets give long float reprs), and read back as that map; no faces: an empty placement list."""
    from pipeline.render.impose import imposition_json, imposition_map

    spec = get_sheet(paper).with_back_offset(*offset)
    res = impose(pdfs["fronts"], pdfs["backs"], None, spec, [(i % 8, i % 2, 1 + i % 3) for i in range(11)], tmp_path, "g\u00e9")
    assert len(res.placements) == 21
    text = res.imposition_map.read_text()
    assert text == json.dumps(imposition_map(res, res.grid, "g\u00e9"), indent=1) + "\n"
    assert json.loads(text)["placements"][20] == {"sheet": res.placements[20].sheet, "slot": res.placements[20].slot,
                                                   "front_page": 2, "back_page": 0, "front_trim": res.placements[20].front_trim.as_list(),
                                                   "back_trim": res.placements[20].back_trim.as_list()}
    empty = dataclasses.replace(res, placements=(), faces=0, sheets=0)
    assert imposition_json(empty, res.grid, "g") == json.dumps(imposition_map(empty, res.grid, "g"), indent=1) + "\n"


def test_joined_contents_compressed_once_for_every_output(pdfs, tmp_path):
    """A card page whose content is an array of streams (the composite cards) becomes one form stream, the
    streams joined and Flate-compressed by libdeflate at JOIN_LEVEL (decoded by zlib, the reference, to the
    join itself), kept for the next output; past the cap a page is joined again, to the same stream."""
    import zlib

    import deflate

    from pipeline.render import formpages
    from pipeline.render.formpages import JOIN_LEVEL, CardPages

    path = tmp_path / "array.pdf"
    with pikepdf.open(pdfs["fronts"]) as pdf:
        for page in pdf.pages:
            page.obj.Contents = pikepdf.Array([pdf.make_stream(b"q"), page.obj.Contents, pdf.make_stream(b"Q\n0 0 1 1 re f")])
        pdf.save(path)
    source = CardPages(path, "composite")
    joined = [b"\n".join(s.read_bytes() for s in source.pages[i].obj.Contents) for i in range(8)]
    forms, dests = [], [pikepdf.new(), pikepdf.new()]
    for dest in dests:
        forms.append(source.form(dest, 2))
        assert forms[-1].Filter == pikepdf.Name.FlateDecode and forms[-1].read_bytes() == joined[2]
        assert forms[-1].read_raw_bytes() == bytes(deflate.zlib_compress(joined[2], JOIN_LEVEL))
        assert zlib.decompress(forms[-1].read_raw_bytes()) == joined[2]
        source.release()
    assert list(source._joined) == [2]  # compressed once, kept across release()
    monkey = pytest.MonkeyPatch()
    monkey.setattr(formpages, "JOINED_CACHE_BYTES", 0)
    try:
        fresh = CardPages(path, "composite")
        assert fresh.form(pikepdf.new(), 5).read_raw_bytes() == bytes(deflate.zlib_compress(joined[5], JOIN_LEVEL)) and fresh._joined == {}
    finally:
        monkey.undo()

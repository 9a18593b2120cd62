"""The UV braille layer: Separation spot colour with overprint, page boxes, dot size and positions
measured back from the PDF, the tiffsep plate, the dot map, merging into the print PDF, QR clearance.

Reference numbers: spec800 (NLS Specification 800 §3.2): dot base 1.44 mm (radius 0.72 mm),
dot pitch 2.34 mm, cell pitch 6.2 mm, line pitch 10.16 mm. A dot at (x, y) mm from the trim's
top-left lies at (9 + x·72/25.4, 369 − y·72/25.4) pt on the 234 × 378 pt page.
"""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.colors import CMYKColor
from reportlab.pdfgen.canvas import Canvas

from engine.units import mm_to_pt, pt_to_mm
from pipeline.braille.geometry import PROFILES
from pipeline.braille.layout import BrailleBlock, layout_deck
from pipeline.common.layout import load_layout
from pipeline.render.tactile import (
    TactileError,
    clearance_findings,
    merge_spot_plate,
    render_braille_layer,
    write_dot_map,
)

SPEC800 = PROFILES["spec800"]
ORIGIN = (6.35, 33.02)  # the shipped layout's braille box: x 0.25 in, y 1.3 in from the trim's top-left


def block(lines, origin=ORIGIN, profile=SPEC800, card_id="card", available=9):
    return BrailleBlock(card_id, tuple(lines), 10, available, origin, profile)


def circles(page, reader):
    """Every filled subpath as ``(cx, cy, r)`` in pt: the centre and half the extent of its points."""
    out, points = [], []

    def close():
        if points:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            out.append(((min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2, (max(xs) - min(xs)) / 2, (max(ys) - min(ys)) / 2))
            points.clear()

    for operands, op in ContentStream(page.get_contents(), reader).operations:
        vals = [float(v) for v in operands] if op in (b"m", b"c", b"l") else []
        if op == b"m":
            close()
            points.append(vals[:2])
        elif op == b"c":
            points.append(vals[4:6])
        elif op in (b"f", b"f*"):
            close()
    return [(cx, cy, rx) for cx, cy, rx, ry in out if abs(rx - ry) < 1e-3]


def test_dot_radius_pitch_and_positions_measured_from_the_pdf_equal_the_profile(tmp_path):
    # ⠿ = dots 1-6; two full cells on line 1, one on line 2
    blocks = {"card": block(["⠿⠿", "⠿"])}
    path = render_braille_layer(blocks, ["card"], tmp_path / "b.pdf")
    reader = PdfReader(path)
    found = circles(reader.pages[0], reader)
    assert len(found) == 18
    for cx, cy, r in found:
        assert pt_to_mm(r) == pytest.approx(0.72, abs=0.01)
    mm = sorted((round(pt_to_mm(cx - 9), 3), round(pt_to_mm(369 - cy), 3)) for cx, cy, _ in found)
    expected = sorted((round(d.x, 3), round(d.y, 3)) for d in blocks["card"].dots())
    assert len(mm) == len(expected)
    for got, want in zip(mm, expected):
        assert got == pytest.approx(want, abs=0.01)
    # first cell, by hand: dot 1 at the box origin + radius, dot 4 one dot pitch right, dot 3 two down
    xs = sorted({x for x, _ in mm})
    ys = sorted({y for _, y in mm})
    assert xs == pytest.approx([7.07, 9.41, 13.27, 15.61], abs=0.01)  # 6.35+0.72, +2.34, +6.2, +6.2+2.34
    assert ys == pytest.approx([33.74, 36.08, 38.42, 43.9, 46.24, 48.58], abs=0.01)  # +2.34 steps; +10.16 next line
    assert xs[1] - xs[0] == pytest.approx(SPEC800.dot_pitch, abs=0.01)
    assert xs[2] - xs[0] == pytest.approx(SPEC800.cell_pitch, abs=0.01)
    assert ys[3] - ys[0] == pytest.approx(SPEC800.line_pitch, abs=0.01)


def test_other_profile_changes_dot_size(tmp_path):
    marburg = PROFILES["marburg-medium"]
    path = render_braille_layer({"c": block(["⠁"], profile=marburg, card_id="c")}, ["c"], tmp_path / "m.pdf")
    reader = PdfReader(path)
    [(cx, cy, r)] = circles(reader.pages[0], reader)
    assert pt_to_mm(r) == pytest.approx(0.75, abs=0.01)


@pytest.mark.parametrize("spot", ["Braille", "RDG_GLOSS", "Spot 1"])
def test_separation_colour_with_overprint_and_the_fronts_page_boxes(spot, tmp_path):
    path = render_braille_layer({"a": block(["⠁"], card_id="a"), "b": block(["⠃"], card_id="b")}, ["b", "a"], tmp_path / "b.pdf", spot_name=spot)
    reader = PdfReader(path)
    assert len(reader.pages) == 2
    for page in reader.pages:
        for key, box in (("/MediaBox", [0, 0, 234, 378]), ("/BleedBox", [0, 0, 234, 378]), ("/TrimBox", [9, 9, 225, 369])):
            assert [float(v) for v in page[key]] == box  # raw keys, written explicitly
        res = page["/Resources"]
        [(name, cs)] = res["/ColorSpace"].items()
        cs = cs.get_object()
        assert cs[0] == "/Separation" and cs[1] == f"/{spot}" and cs[2] == "/DeviceCMYK"
        states = {k: v.get_object() for k, v in res["/ExtGState"].items()}
        ops = [(op, operands) for operands, op in ContentStream(page.get_contents(), reader).operations]
        used = [states[str(o[0])] for op, o in ops if op == b"gs"]
        assert any(s.get("/op") == True for s in used)  # noqa: E712 (pypdf's BooleanObject compares equal to True)
        assert any(s.get("/OPM") == 1 for s in used)
        # the overprint state and the spot colour are set before the dots are filled
        names = [op for op, _ in ops]
        assert names.index(b"gs") < names.index(b"scn") < names.index(b"f")
        assert str([o for op, o in ops if op == b"cs"][0][0]) == name
        assert dict(res["/Font"].get_object()) == {}  # no font at all, so no unembedded Helvetica
    assert len(circles(reader.pages[0], reader)) == 2 and len(circles(reader.pages[1], reader)) == 1  # ⠃ then ⠁
    import pikepdf

    from pipeline.render.pdfx import check_pdfx

    with pikepdf.open(path) as pdf:  # finished like the print PDFs, each page labelled with its card
        assert check_pdfx(pdf) == []
        assert [str(i.title) for i in pdf.open_outline().root] == ["b", "a"]


@pytest.mark.skipif(shutil.which("gs") is None, reason="Ghostscript is not installed")
def test_tiffsep_render_shows_the_spot_plate_with_ink_where_the_dots_are(tmp_path):
    blk = block(["⠿"])
    path = render_braille_layer({"card": blk}, ["card"], tmp_path / "b.pdf", spot_name="RDG_GLOSS")
    subprocess.run(["gs", "-q", "-dNOPAUSE", "-dBATCH", "-dSAFER", "-sDEVICE=tiffsep", "-r144",
                    f"-sOutputFile={tmp_path / 'sep.tif'}", str(path)], check=True, capture_output=True)
    from PIL import Image

    plate = Image.open(tmp_path / "sep(RDG_GLOSS).tif")  # its own plate, named after the spot colour
    cyan = Image.open(tmp_path / "sep(Cyan).tif")
    assert plate.size == (468, 756)
    scale = 2  # 144 dpi: 2 px per pt
    for d in blk.dots():
        px = (int((9 + mm_to_pt(d.x)) * scale), int((9 + mm_to_pt(d.y)) * scale))  # y down from the page top
        assert plate.getpixel(px) == 0  # tiffsep plates: 0 = full ink
        assert cyan.getpixel(px) == 255
    assert plate.getpixel((400, 700)) == 255
    assert cyan.getextrema() == (255, 255)


def test_dot_map_lists_every_dot_in_mm_with_diameter_and_spot(tmp_path, mini_dir):
    from engine.load import load_game

    deck = load_game(mini_dir)
    blocks, _ = layout_deck(deck)
    path = write_dot_map(blocks, tmp_path / "dots.json", spot_name="Spot 1")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["spot_name"] == "Spot 1" and doc["profiles"] == ["spec800"]
    assert list(doc["cards"]) == [c.id for c in deck.cards]
    for cid, entry in doc["cards"].items():
        dots = blocks[cid].dots()
        assert entry["dot_diameter_mm"] == 1.44
        assert entry["dot_count"] == len(dots) == len(entry["dots"])
        assert entry["dots"] == [[round(d.x, 3), round(d.y, 3)] for d in dots]
    # ember-apprentice starts with the class indicator ⠰⠠⠑ (⠰ = dots 5, 6; then capital sign = dot 6 of cell 2)
    first = doc["cards"]["ember-apprentice"]["dots"][:3]
    assert first == [[9.41, 36.08], [9.41, 38.42], [15.61, 38.42]]


def test_layer_follows_the_given_card_order_and_refuses_missing_blocks(tmp_path):
    with pytest.raises(TactileError, match="no braille block for card.*ghost"):
        render_braille_layer({"a": block(["⠁"])}, ["a", "ghost"], tmp_path / "b.pdf")
    assert not (tmp_path / "b.pdf").exists()
    for bad in ("", "All", "Braille\u00e9"):
        with pytest.raises(TactileError):
            render_braille_layer({"a": block(["⠁"])}, ["a"], tmp_path / "b.pdf", spot_name=bad)


def test_layer_is_deterministic(tmp_path):
    blocks = {"a": block(["⠁⠃⠉", "⠙"])}
    a = render_braille_layer(blocks, ["a"], tmp_path / "a.pdf").read_bytes()
    b = render_braille_layer(blocks, ["a"], tmp_path / "b.pdf").read_bytes()
    assert a == b


def _fronts(path, pages):
    from pipeline.render.fonts import face

    c = Canvas(str(path), pagesize=(234, 378), invariant=1, initialFontName=face("regular").name)  # PDF/X: an embedded font
    for _ in range(pages):
        c.setBleedBox((0, 0, 234, 378))
        c.setTrimBox((9, 9, 225, 369))
        c.setFillColor(CMYKColor(0, 0, 0.2, 0))
        c.rect(0, 0, 234, 378, stroke=0, fill=1)
        c.showPage()
    c.save()
    return path


def test_merge_into_the_print_pdf_as_a_spot_plate(tmp_path):
    fronts = _fronts(tmp_path / "fronts.pdf", 2)
    braille = render_braille_layer({"a": block(["⠿"]), "b": block(["⠁"])}, ["a", "b"], tmp_path / "braille.pdf")
    merged = merge_spot_plate(fronts, braille, tmp_path / "fronts+braille.pdf")
    reader = PdfReader(merged)
    assert len(reader.pages) == 2
    for page, dots in zip(reader.pages, (6, 1)):
        assert [float(v) for v in page["/TrimBox"]] == [9, 9, 225, 369]
        [(_, form)] = page["/Resources"]["/XObject"].items()
        form = form.get_object()
        [(_, cs)] = form["/Resources"]["/ColorSpace"].items()
        assert cs.get_object()[1] == "/Braille"
        assert [float(v) for v in form["/BBox"]] == [0, 0, 234, 378]
        assert form.get_data().count(b" m ") + form.get_data().count(b" m\n") == dots
    with pytest.raises(TactileError, match="must match page for page"):
        merge_spot_plate(_fronts(tmp_path / "three.pdf", 3), braille, tmp_path / "x.pdf")


def test_braille_keeps_1mm_clear_of_the_qr_code(mini_dir):
    from engine.load import load_game

    layout = load_layout()
    deck = load_game(mini_dir)
    blocks, _ = layout_deck(deck)
    assert clearance_findings(blocks, layout, deck) == []  # the shipped layout keeps clear
    qr_x, qr_y, qr_w, qr_h = layout.qr.mm()
    assert (qr_x, qr_y + qr_h) == pytest.approx((6.35, 31.75))  # QR box 0.25 in + 1 in
    # dot 1 of the first cell: its top edge is the block origin; 1.0 mm below the QR box passes, 0.9 mm fails
    assert clearance_findings({"a": block(["⠁"], origin=(6.35, 32.75))}, layout) == []
    [f] = clearance_findings({"a": block(["⠁"], origin=(6.35, 32.65))}, layout)
    assert (f.code, f.name, f.location.card) == ("UV001", "braille-near-qr", "a")
    assert "0.90 mm from the QR code's box" in f.message


def test_dots_outside_the_safe_area_are_reported(mini_dir):
    layout = load_layout()
    # 10 full cells starting 20 mm in: the last dot column ends at 20 + 9·6.2 + 2.34 + 1.44 = 79.58 mm > 76.2 − 3.175
    [f] = clearance_findings({"a": block(["⠿" * 10], origin=(20.0, 60.0))}, layout)
    assert f.code == "UV002" and "outside the safe area" in f.message


@pytest.mark.parametrize("spot", ["RDG_GLOSS", "Spot 1", "Varnish", "PANTONE 871 C", "White-2.v"])
def test_shop_spot_names_are_written_as_one_pdf_name_and_read_back_exactly(spot, tmp_path):
    import pikepdf

    path = render_braille_layer({"a": block(["⠁"], card_id="a")}, ["a"], tmp_path / "b.pdf", spot_name=spot)
    with pikepdf.open(path) as pdf:
        [(key, space)] = dict(pdf.pages[0].Resources.ColorSpace).items()
        assert len(space) == 4 and space[0] == "/Separation" and str(space[1]) == f"/{spot}"
        # a space is escaped as #20 in the file (ISO 32000-1 §7.3.5)
        assert bytes(space[1].unparse()) == b"/" + spot.replace(" ", "#20").encode()


@pytest.mark.parametrize("bad, why", [
    ("A/B(x)", "it contains '(' ')' '/'"),
    ("Spot#1", "it contains '#'"),
    ("Gloss%", "it contains '%'"),
    (" Spot 1", "it starts or ends with a space"),
    ("Spot\t1", "it contains '\\t'"),
    ("S" * 128, "it is 128 characters long"),
    ("", "it is empty"),
])
def test_spot_names_a_rip_would_show_badly_are_refused_listing_what_is_allowed(bad, why, tmp_path):
    with pytest.raises(TactileError) as exc:
        render_braille_layer({"a": block(["⠁"])}, ["a"], tmp_path / "b.pdf", spot_name=bad)
    assert str(exc.value) == (
        f"spot colour name {bad!r} is not usable: {why}; a spot colour name may hold letters A-Z a-z, digits 0-9, "
        "space, '_', '-' and '.' (1-127 characters), e.g. 'Braille', 'RDG_GLOSS' or 'Spot 1'")
    assert not (tmp_path / "b.pdf").exists()


def test_check_pdfx_catches_a_separation_broken_by_an_unescaped_slash(tmp_path):
    """reportlab escapes ( ) but not / in a name: the colorant A/B(x) is written `/A/B#28x#29`, two names."""
    import io

    import pikepdf
    from reportlab.lib.colors import CMYKColorSep

    from pipeline.render.fonts import face
    from pipeline.render.pdfx import PdfxError, check_pdfx, finish

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(234, 378), invariant=1, pageCompression=0, initialFontName=face("regular").name)
    c.setBleedBox((0, 0, 234, 378))
    c.setTrimBox((9, 9, 225, 369))
    c.setFillColor(CMYKColorSep(0, 1, 0, 0, spotName="A/B(x)"))  # bypasses check_spot_name on purpose
    c.rect(9, 9, 10, 10, stroke=0, fill=1)
    c.showPage()
    c.save()
    assert b"[ /Separation /A/B#28x#29 /DeviceCMYK" in buf.getvalue()
    problems = check_pdfx(pikepdf.open(io.BytesIO(buf.getvalue())))
    assert "page 1: colour space operator cs with 2 operands (/A /B#28x#29), expected one name" in problems
    assert any(p.startswith("page 1: colour space /QPDFFake1 is malformed: a Separation has 4 entries, this one 5 "
                            "([ /Separation /A /B#28x#29 /DeviceCMYK ") for p in problems)
    assert "page 1: colour space /A is malformed: /B(x) is not a colour space family" in problems
    with pytest.raises(PdfxError, match="Separation has 4 entries"):
        finish(buf.getvalue(), tmp_path / "x.pdf", "broken", ["a"])
    assert not (tmp_path / "x.pdf").exists()
    # the same page with a good name passes
    good = render_braille_layer({"a": block(["⠁"])}, ["a"], tmp_path / "b.pdf", spot_name="Spot 1")
    assert check_pdfx(pikepdf.open(good)) == []


def test_files_with_the_braille_group_are_pdf_x4_at_pdf_1_6_and_the_fronts_stay_x1a(tmp_path):
    """Optional content is PDF 1.5 (ISO 32000-1 §8.11): every file with /OCProperties is PDF/X-4
    (ISO 15930-7, PDF 1.6) with XMP and an embedded CMYK output profile; read back with pikepdf."""
    import pikepdf

    from pipeline.render.pdfx import check_pdfx, finish

    raw = _fronts(tmp_path / "raw.pdf", 1)
    fronts = finish(raw.read_bytes(), tmp_path / "fronts.pdf", "fronts", ["a"])  # the print PDFs: PDF/X-1a:2003
    braille = render_braille_layer({"a": block(["⠁"])}, ["a"], tmp_path / "braille.pdf")
    merged = merge_spot_plate(fronts, braille, tmp_path / "fronts+braille.pdf")
    for path in (braille, merged):
        assert path.read_bytes()[:9] == b"%PDF-1.6\n"
        with pikepdf.open(path) as pdf:
            assert "/OCProperties" in pdf.Root and pdf.pdf_version == "1.6"
            assert str(pdf.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4" and "/GTS_PDFXConformance" not in pdf.docinfo
            xmp = pdf.Root.Metadata.read_bytes()
            assert b"<pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>" in xmp
            assert b"<pdf:Trapped>False</pdf:Trapped>" in xmp and b"<xmpMM:DocumentID>uuid:" in xmp
            [intent] = pdf.Root.OutputIntents
            assert str(intent.OutputConditionIdentifier) == "FOGRA39"
            icc = intent.DestOutputProfile.read_bytes()
            assert icc[12:20] == b"prtrCMYK" and intent.DestOutputProfile.N == 4  # an output profile, CMYK
            assert str(pdf.Root.OCProperties.D.Name) == "Default" and "/AS" not in pdf.Root.OCProperties.D
            assert check_pdfx(pdf) == []
    assert PdfReader(merged).page_labels == ["a"]
    with pikepdf.open(fronts) as pdf:
        assert pdf.pdf_version == "1.4" and "/OCProperties" not in pdf.Root and "/Metadata" not in pdf.Root
        assert str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2003" and check_pdfx(pdf) == []
        # an X-1a file given optional content is refused: it would need PDF 1.5
        pdf.Root.OCProperties = pikepdf.Dictionary()
        assert any("PDF/X-1a:2003 is PDF 1.4" in p for p in check_pdfx(pdf))


def test_pdf_x4_embeds_the_targets_own_profile_and_refuses_a_condition_without_one(tmp_path):
    """The DestOutputProfile is the target's ICC file (GRACoL: the profile built from CGATS TR 006),
    byte for byte; a condition that names no profile cannot be PDF/X-4 and says so."""
    import pikepdf

    from pipeline.render.pdfx import OutputCondition, PdfxError, finish
    from pipeline.render.targets import load_target, output_condition

    data = render_braille_layer({"a": block(["⠁"])}, ["a"], tmp_path / "braille.pdf").read_bytes()  # holds the braille group
    gracol = output_condition("gracol")
    path = finish(data, tmp_path / "gracol.pdf", "braille", ["a"], condition=gracol)
    with pikepdf.open(path) as pdf:
        [intent] = pdf.Root.OutputIntents
        assert str(intent.OutputConditionIdentifier) == "CGATS TR 006"
        assert intent.DestOutputProfile.read_bytes() == load_target("gracol").profile_path.read_bytes()
    with pytest.raises(PdfxError, match="not PDF/X-4: .*no ICC profile given for FOGRA39"):
        finish(data, tmp_path / "none.pdf", "braille", ["a"], condition=OutputCondition())
    assert not (tmp_path / "none.pdf").exists()


def test_the_merge_keeps_each_fronts_page_stream_as_it_is_and_draws_what_one_joined_stream_draws(tmp_path):
    # The merged page's /Contents is [q] [the front's own stream] [Q, the plate]: the front's stream is
    # the very encoded bytes of the fronts PDF (read from it at the save, never decoded and held), one
    # "q" stream serves every page, and PDFium (the independent reference) renders the page at 150 dpi
    # pixel for pixel as it renders the single joined stream set_content makes.
    import numpy as np
    import pikepdf
    import pypdfium2 as pdfium

    from pipeline.render.formpages import set_content

    with pikepdf.open(_fronts(tmp_path / "reportlab.pdf", 2)) as made:  # Flate alone, as deckpress's fronts are
        made.save(fronts := tmp_path / "fronts.pdf", compress_streams=True)
    braille = render_braille_layer({"a": block(["⠿"]), "b": block(["⠁"])}, ["a", "b"], tmp_path / "braille.pdf")
    merged = merge_spot_plate(fronts, braille, tmp_path / "fronts+braille.pdf")
    with pikepdf.open(fronts) as source, pikepdf.open(merged) as out:
        openings = set()
        for before, after in zip(source.pages, out.pages):
            opening, own, tail = after.obj.Contents
            openings.add(opening.objgen)
            assert opening.read_bytes() == b"q\n" and tail.read_bytes().startswith(b"\nQ\n") and b" Do Q" in tail.read_bytes()
            assert own.read_raw_bytes() == before.obj.Contents.read_raw_bytes()
        assert len(openings) == 1
        joined = pikepdf.open(merged)
        for page in joined.pages:
            opening, own, tail = page.obj.Contents
            page.obj.Contents = own  # set_content reads the page's streams: give it the front's alone
            set_content(joined, page, tail.read_bytes()[len(b"\nQ\n"):])
        joined.save(tmp_path / "joined.pdf")
    for i in range(2):
        a = pdfium.PdfDocument(str(merged))[i].render(scale=150 / 72).to_numpy()
        b = pdfium.PdfDocument(str(tmp_path / "joined.pdf"))[i].render(scale=150 / 72).to_numpy()
        assert a.shape == b.shape and np.array_equal(a, b)

"""Die faces: one face at a time (braille_specs/dice.yaml), face geometry from die size, and the
die face sheet PDF (actual size, embedded font, CMYK, dots where the plan puts them)."""

from __future__ import annotations

import math
from pathlib import Path

import pikepdf
import pypdfium2
import pytest
import yaml
from pypdf import PdfReader

from engine.load import load_game
from engine.model import Die
from engine.units import mm_to_pt
from pipeline.braille.dice import encode_die, face_cells, key_text
from pipeline.braille.geometry import dot_centres, get_profile
from pipeline.braille.translate import translate
from pipeline.dice.sheet import BAR_MM, GAP_MM, MARGIN_MM, face_geometry, plan_die, render_dice, render_die_sheet

SPECS = yaml.safe_load((Path(__file__).parent / "braille_specs" / "dice.yaml").read_text(encoding="utf-8"))
SPEC800 = get_profile("spec800")


def die(name: str, **changes) -> Die:
    return Die(id=name, name=name.upper(), **{**SPECS[name]["die"], **changes})


@pytest.mark.parametrize("name", list(SPECS))
def test_spec_faces(name):
    faces, findings = encode_die(die(name))
    assert findings == []
    assert [f.cells for f in faces] == SPECS[name]["faces"]
    assert [f.numeral for f in faces] == [str(n) for n in range(1, len(faces) + 1)]


def test_face_12_is_one_cell_not_separate_faces():
    assert face_cells(die("d12"), 12) == "⠇"
    # The trap the per-face encoding avoids: liblouis joins spaced numbers with the numeric space.
    assert translate("1 2 3") == "⠼⠁⠐⠃⠐⠉"
    assert all("⠐" not in f.cells for f in encode_die(die("d6"))[0])


def test_six_and_nine_are_underlined():
    assert [f.numeral for f in encode_die(die("d12"))[0] if f.underline] == ["6", "9"]
    assert [f.numeral for f in encode_die(die("d6"))[0] if f.underline] == ["6"]


def test_face_out_of_range():
    with pytest.raises(ValueError, match="faces 1-12, not 13"):
        face_cells(die("d12"), 13)


def test_letters_stop_at_z():
    faces, findings = encode_die(die("d12", faces=30))
    assert len(faces) == 26
    assert [f.code for f in findings] == ["DI001"] * 4
    assert "face 27" in findings[0].message


def test_key_explains_the_letter_code():
    text = key_text(die("d12"))
    assert "without numeric indicator" in text and "j = 10, k = 11, l = 12" in text
    assert key_text(die("d12", key="Our own key.")) == "Our own key."
    assert "numeric indicator then digits" in key_text(die("d6"))


# --- face geometry ------------------------------------------------------------------------


def test_face_sizes_follow_from_die_size():
    # By hand: D12 face-to-face = edge × √(5/2 + 11/(2√5)) = 2.22703 × edge → 35 mm gives 15.716 mm;
    # pentagon inradius = edge / (2 tan 36°) = 10.816 mm. D4 height = edge × √(2/3) → 36.742 mm.
    d12, d4, d6 = face_geometry(die("d12")), face_geometry(die("d4")), face_geometry(die("d6"))
    assert (d12.sides, d12.edge, d12.inradius) == (5, pytest.approx(15.716, abs=1e-3), pytest.approx(10.816, abs=1e-3))
    assert (d4.sides, d4.edge, d4.inradius) == (3, pytest.approx(36.742, abs=1e-3), pytest.approx(10.606, abs=1e-3))
    assert (d6.sides, d6.edge, d6.inradius) == (4, pytest.approx(25.0), pytest.approx(12.5))


def test_faces_have_a_flat_bottom_edge():
    for name in SPECS:
        g = face_geometry(die(name))
        bottom = sorted(g.vertices, key=lambda v: -v[1])[:2]
        assert bottom[0][1] == pytest.approx(g.inradius) and bottom[1][1] == pytest.approx(g.inradius)
        edges = [math.dist(g.vertices[i], g.vertices[(i + 1) % g.sides]) for i in range(g.sides)]
        assert edges == pytest.approx([g.edge] * g.sides)


def test_contains_with_inset():
    g = face_geometry(die("d6"))
    assert g.contains(11.4, 11.4, 1.0) and not g.contains(11.6, 0, 1.0)


# --- plans ---------------------------------------------------------------------------------


def test_every_shipped_die_face_fits_with_one_numeral_size():
    # Sizes found once by the search and checked on a 120 dpi render: D12 31 pt, D4 and D6 36 pt.
    for name, size in (("d12", 31.0), ("d4", 36.0), ("d6", 36.0)):
        d = die(name)
        geom, plans, findings = plan_die(d, SPEC800)
        assert findings == [] and all(p.fits for p in plans)
        assert {p.numeral_pt for p in plans} == {size}
        for p in plans:
            bx, by, bw, bh = p.bar
            assert (bw, bh) == BAR_MM and by + bh == pytest.approx(geom.inradius - MARGIN_MM)
            content_bottom = max(p.numeral_box[1] + p.numeral_box[3], p.braille_box[1] + p.braille_box[3])
            assert by - content_bottom >= GAP_MM - 1e-9


def test_braille_below_or_left():
    _, [p12, *_], _ = plan_die(die("d12"), SPEC800)
    assert p12.braille_box[1] == pytest.approx(p12.numeral_box[1] + p12.numeral_box[3] + GAP_MM)
    _, [p6, *_], _ = plan_die(die("d6"), SPEC800)
    assert p6.numeral_box[0] == pytest.approx(p6.braille_box[0] + p6.braille_box[2] + GAP_MM)
    # ⠼⠁ is two cells: 6.2 + 2.34 + 1.44 mm wide, 2 × 2.34 + 1.44 mm high (spec800).
    assert p6.braille_box[2:] == pytest.approx((9.98, 6.12))


def test_small_die_is_reported():
    _, plans, findings = plan_die(die("d12", size="15mm"), SPEC800)
    assert [f.code for f in findings] == ["DI002"] * 12
    assert all(p.numeral_pt == 18 and not p.fits for p in plans)
    assert "D12 face 1: a pentagon face of 6.7 mm edge (die size 15.0 mm)" in findings[0].message


# --- the PDF ---------------------------------------------------------------------------------


def test_sheet_pdf(tmp_path):
    sheet = render_die_sheet(die("d12"), tmp_path / "die-d12.pdf", SPEC800)
    assert sheet.findings == () and len(sheet.faces) == 12 and len(sheet.centres) == 12
    reader = PdfReader(sheet.path)
    assert len(reader.pages) == 1
    assert [float(v) for v in reader.pages[0].mediabox] == [0, 0, 612, 792]
    text = reader.pages[0].extract_text()
    assert "D12: 12 pentagon faces, actual size" in text and "j = 10, k = 11, l = 12" in text
    with pikepdf.open(sheet.path) as pdf:
        fonts = [f for p in pdf.pages for f in p.Resources.Font.values()]
        assert fonts and all("AtkinsonHyperlegible" in str(f.BaseFont) for f in fonts)  # no bare Helvetica
        ops = {str(op) for p in pdf.pages for _, op in pikepdf.parse_content_stream(p)}
        assert {"k", "K"} <= ops and not ops & {"rg", "RG", "g", "G"}  # CMYK only


def test_sheet_dots_are_where_the_plan_puts_them(tmp_path):
    sheet = render_die_sheet(die("d12"), tmp_path / "die-d12.pdf", SPEC800)
    scale = 300 / 72
    image = pypdfium2.PdfDocument(str(sheet.path))[0].render(scale=scale).to_pil().convert("L")

    def pixel(x_pt: float, y_pt: float) -> int:
        return image.getpixel((round(x_pt * scale), round((792 - y_pt) * scale)))

    for plan, (_, cx, cy) in zip(sheet.faces, sheet.centres):
        bx, by, _, _ = plan.braille_box
        raised = {d.dot for d in dot_centres([plan.face.cells], SPEC800, (bx, by))}
        for dot in dot_centres(["⠿"], SPEC800, (bx, by)):  # every dot position of the cell
            value = pixel(cx + mm_to_pt(dot.x), cy - mm_to_pt(dot.y))
            assert (value < 80) if dot.dot in raised else (value > 200), (plan.face.numeral, dot.dot, value)


def test_sheet_is_deterministic_and_atomic(tmp_path):
    a = render_die_sheet(die("d4"), tmp_path / "a.pdf", SPEC800).path.read_bytes()
    b = render_die_sheet(die("d4"), tmp_path / "b.pdf", SPEC800).path.read_bytes()
    assert a == b
    assert sorted(p.name for p in tmp_path.iterdir()) == [".deckpress-files", "a.pdf", "b.pdf"]  # no .part left behind; the ledger names both


def test_render_dice_writes_one_sheet_per_die(mini_dir, tmp_path):
    sheets = render_dice(load_game(mini_dir), tmp_path)
    assert [s.path.name for s in sheets] == ["die-d12.pdf"]
    assert sheets[0].path.is_file()

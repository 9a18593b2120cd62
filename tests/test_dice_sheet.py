"""Die solids, nets and face sheets: true sizes from the shape library, opposite faces, the
tetrahedron's corner numerals, the shard's long faces, braille clear of the numeral, the PDF."""

from __future__ import annotations

import math

import numpy as np
import pikepdf
import pytest
from pypdf import PdfReader

from engine.load import DataError, load_game
from engine.model import Die
from pipeline.braille.geometry import dot_centres, get_profile
from pipeline.dice.glyphs import numeral
from pipeline.dice.plan import BRAILLE_CLEAR_MM, plan_die
from pipeline.dice.sheet import render_dice, render_die_sheet
from pipeline.dice.solids import solid

SPEC800 = get_profile("spec800")
D12 = Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="35mm", encoding="letters")
D6 = Die(id="d6", name="D6", shape="d6-cube", faces=6, size="25mm", encoding="ueb-numbers", braille_position="left")
SHARD = Die(id="d4", name="D4", shape="d4-crystal-shard", faces=4, size="30mm", encoding="letters")
TETRA = Die(id="t4", name="D4", shape="d4-tetrahedron", faces=4, size="60mm", encoding="letters")


def test_sizes_follow_the_shapes_measure():
    # By hand (Coxeter table I): a D12 35 mm face to face has edge 35 / 2.22703 = 15.716 mm;
    # a cube 25 mm face to face has 25 mm edges; a tetrahedron's size is its edge.
    d12 = solid(D12)
    edges = {round(math.dist(f.vertices[i], f.vertices[i - 1]), 3) for f in d12.faces for i in range(5)}
    assert (len(d12.faces), d12.inradius, edges) == (12, pytest.approx(17.5), {15.716})
    assert solid(D6).inradius == pytest.approx(12.5)
    tetra = solid(TETRA)
    assert {round(math.dist(a, b), 6) for a in tetra.vertices for b in tetra.vertices if a != b} == {60.0}
    shard = np.array(solid(SHARD).vertices)
    assert np.ptp(shard[:, 2]) == pytest.approx(30.0) and np.ptp(shard[:, 0]) == pytest.approx(12.0)


def test_d6_net_opposite_faces_sum_to_seven():
    sheet_solid = solid(D6)
    value = {f.index: f.regions[0].value for f in sheet_solid.numbered}
    for f in sheet_solid.faces:
        opposite = next(g for g in sheet_solid.faces if np.allclose(g.normal, -np.array(f.normal)))
        assert value[f.index] + value[opposite.index] == 7
    assert sorted(value.values()) == [1, 2, 3, 4, 5, 6]


def test_d6_net_is_a_cross_of_six_25mm_squares(tmp_path):
    sheet = render_die_sheet(D6, tmp_path / "die-d6.pdf", SPEC800)
    assert sheet.net is not None and len(sheet.net) == 6
    for placed in sheet.net:  # every face unfolded at true size: 25 mm sides
        pts = placed.outline
        assert [round(math.dist(pts[i], pts[i - 1]), 6) for i in range(4)] == [25.0] * 4
    boxes = {(round(min(x for x, _ in p.outline)), round(min(y for _, y in p.outline))) for p in sheet.net}
    assert len(boxes) == 6  # no two faces on top of each other


def test_shard_has_four_long_faces_with_one_numeral_each():
    shard = solid(SHARD)
    long_faces = shard.numbered
    assert len(shard.faces) == 12 and len(long_faces) == 4  # 8 small kites at the points carry nothing
    for f in long_faces:
        pts = np.array(f.vertices)
        assert len(pts) == 6 and len(f.regions) == 1
        assert np.ptp(pts[:, 2]) == pytest.approx(24.0) and np.ptp(pts[:, 2]) > 1.5 * max(np.ptp(pts[:, 0]), np.ptp(pts[:, 1]))
    assert sorted(f.regions[0].value for f in long_faces) == [1, 2, 3, 4]


def test_tetrahedron_shows_its_three_corner_values_on_every_face():
    tetra = solid(TETRA)
    vertex_value = {}
    for f in tetra.faces:
        assert len(f.regions) == 3
        for r in f.regions:  # each numeral's up points at its own corner, the same corner on every face
            corner = max(f.vertices, key=lambda v: np.dot(np.array(v) - r.origin, r.up))
            assert vertex_value.setdefault(corner, r.value) == r.value
    assert sorted(vertex_value.values()) == [1, 2, 3, 4]


def _ink_to_dots(plan) -> float:
    """Least distance, mm, from the numeral's outline to the edge of a braille dot."""
    glyph = numeral(plan.face.numeral, plan.numeral_pt, plan.face.underline)
    segments = [(np.add(c[i - 1], plan.pen), np.add(c[i], plan.pen)) for c in glyph.contours for i in range(len(c))]
    best = math.inf
    for dot in dot_centres([plan.face.cells], SPEC800, plan.braille_box[:2]):
        p = np.array([dot.x, dot.y])
        for a, b in segments:
            t = np.clip(np.dot(p - a, b - a) / max(np.dot(b - a, b - a), 1e-12), 0, 1)
            best = min(best, float(np.linalg.norm(p - (a + t * (b - a)))) - SPEC800.dot_radius)
    return best


@pytest.mark.parametrize("die", [D12, D6, SHARD], ids=["d12", "d6", "shard"])
def test_braille_is_clear_of_the_numeral(die):
    _, plans, findings = plan_die(die, SPEC800)
    assert findings == [] and all(p.fits for p in plans)
    assert min(_ink_to_dots(p) for p in plans) >= BRAILLE_CLEAR_MM - 1e-6


def test_small_die_is_reported():
    _, plans, findings = plan_die(Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="15mm", encoding="letters"), SPEC800)
    assert [f.code for f in findings] == ["DI002"] * 12
    assert "D12 face 1: a pentagon face" in findings[0].message and "(die 15.0 mm face-to-face)" in findings[0].message


def test_a_die_is_planned_once_per_object_and_profile():
    small = Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="15mm", encoding="letters")
    shape, plans, findings = plan_die(small, SPEC800)
    again_shape, again_plans, again_findings = plan_die(small, SPEC800)
    assert again_shape is shape and again_plans is plans  # the face sheet and the 3D model share one plan
    assert again_findings == findings and again_findings is not findings and len(findings) == 12  # a list of its own
    findings.clear()
    assert len(plan_die(small, SPEC800)[2]) == 12  # a caller emptying its list does not empty the next one's
    bigger = Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="35mm", encoding="letters")  # another object: planned afresh
    assert plan_die(bigger, SPEC800)[1] is not plans and plan_die(bigger, SPEC800)[2] == []
    assert plan_die(small, get_profile("marburg-medium"))[1] is not plans


def test_sheet_pdf(tmp_path):
    sheet = render_die_sheet(D12, tmp_path / "die-d12.pdf", SPEC800)
    assert sheet.findings == () and len(sheet.faces) == 12 and sheet.net is not None
    reader = PdfReader(sheet.path)
    assert [float(v) for v in reader.pages[0].mediabox] == [0, 0, 612, 792]
    text = " ".join(" ".join(p.extract_text() for p in reader.pages).split())
    assert "Opposite faces add up to 13" in text and "j = 10, k = 11, l = 12" in text
    with pikepdf.open(sheet.path) as pdf:
        fonts = [f for p in pdf.pages for f in p.Resources.Font.values()]
        assert fonts and all("AtkinsonHyperlegible" in str(f.BaseFont) for f in fonts)
        ops = {str(op) for p in pdf.pages for _, op in pikepdf.parse_content_stream(p)}
        assert {"k", "K"} <= ops and not ops & {"rg", "RG", "g", "G"}  # CMYK only


def test_d6_note_mentions_no_nine(tmp_path):
    text = " ".join(" ".join(p.extract_text() for p in PdfReader(render_die_sheet(D6, tmp_path / "d6.pdf", SPEC800).path).pages).split())
    assert "underlined numeral 6 shows" in text and "9" not in text


def test_sheet_is_deterministic(tmp_path):
    a = render_die_sheet(SHARD, tmp_path / "a.pdf", SPEC800).path.read_bytes()
    assert a == render_die_sheet(SHARD, tmp_path / "b.pdf", SPEC800).path.read_bytes()


def test_render_dice_writes_one_sheet_per_die(mini_dir, tmp_path):
    sheets = render_dice(load_game(mini_dir), tmp_path)
    assert [s.path.name for s in sheets] == ["die-d12.pdf"] and sheets[0].path.is_file()


@pytest.mark.parametrize(("edit", "message"), [
    ("shape: d12-dodecahedron", "game.yaml:7:49: DA003 dice.0.shape: 'pentagon' is a face outline, not a die: a die with pentagon faces is d12-dodecahedron"),
    ("shape: d13", "game.yaml:7:49: DA003 dice.0.shape: expected one of d4-tetrahedron, d4-crystal-shard, d6-cube, d8, d10, d12-dodecahedron, d20"),
    ("faces: 12", "game.yaml:7:26: DA003 dice.0.faces: a d12-dodecahedron die has 12 faces, not 10"),
])
def test_bad_die_data_is_a_located_finding(game_copy, edit, message):
    folder = game_copy("mini")
    path = folder / "game.yaml"
    new = {"shape: d12-dodecahedron": "shape: pentagon", "shape: d13": "shape: d13", "faces: 12": "faces: 10"}[edit]
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace(edit if edit != "shape: d13" else "shape: d12-dodecahedron", new, 1), encoding="utf-8")
    with pytest.raises(DataError) as info:
        load_game(folder)
    found = [f"{f.location.file.split('/')[-1]}:{f.location.line}:{f.location.column}: {f.code} {f.message}" for f in info.value.findings]
    assert len(found) == 1 and found[0].startswith(message), found


@pytest.mark.parametrize("die", [D12, D6, SHARD, TETRA], ids=["d12", "d6", "shard", "tetra"])
def test_reading_frames_are_not_mirrored(die):
    # Seen from outside with up on top, right is on the reader's right: right × up = the outward normal.
    for f in solid(die).numbered:
        assert f.regions and all(np.allclose(np.cross(r.right, r.up), f.normal, atol=1e-6) for r in f.regions)
        assert np.dot(f.normal, f.centre) > 0  # outward

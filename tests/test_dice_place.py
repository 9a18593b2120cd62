"""The dice plan's vectorised fit test (pipeline.dice.plan._inside) says what contains() says, point by point,
the net's shared edges are the vertices np.allclose pairs, a numeral scaled from its font-unit outline is
the outline drawn at that size, and the plan tries every region only at the size it keeps."""

from __future__ import annotations

import numpy as np

from engine.model import Die
from pipeline.braille.geometry import get_profile
from pipeline.dice import glyphs, plan
from pipeline.dice.glyphs import PT_MM, UNDERLINE_GAP, UNDERLINE_RULE, numeral
from pipeline.dice.net import _shared_edge
from pipeline.dice.plan import _inside, contains
from pipeline.dice.solids import solid


def test_inside_agrees_with_contains_on_random_points():
    rng = np.random.default_rng(22)
    pentagon = tuple((8 * np.cos(a), 8 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 6)[:-1])
    for polygon in (pentagon, pentagon[::-1], ((0.0, -4.3), (3.0, 0.87), (0.0, 2.6), (-3.0, 0.87))):
        xs, ys = rng.uniform(-9, 9, (40, 12)), rng.uniform(-9, 9, (40, 12))
        for inset in (0.0, 1.0):
            got = _inside(polygon, xs, ys, inset)
            want = np.array([[contains(polygon, float(x), float(y), inset) for x, y in zip(rx, ry)] for rx, ry in zip(xs, ys)])
            assert got.any() and not got.all() and np.array_equal(got, want)


def test_shared_edges_of_a_cube():
    cube = solid(Die(id="d6", name="D6", shape="d6-cube", faces=6, size="25mm", encoding="letters"))
    pairs = {(a.index, b.index) for a in cube.faces for b in cube.faces if a is not b and _shared_edge(a, b) is not None}
    assert len(pairs) == 24  # every face meets four others, not itself nor its opposite
    for a in cube.faces:
        for b in cube.faces:
            edge = _shared_edge(a, b)
            if edge is not None:
                want = [v for v in a.vertices if any(np.allclose(v, w, atol=1e-6) for w in b.vertices)]
                assert [tuple(p) for p in edge] == [tuple(v) for v in want]


def _drawn_at(text: str, size_pt: float, underline: bool) -> tuple:
    """The numeral as it was made before its outline was kept: drawn by fontTools' pen, scaled point by point."""
    font = glyphs._font("bold")
    glyph_set, cmap = font.getGlyphSet(), font.getBestCmap()
    scale = size_pt * PT_MM / font["head"].unitsPerEm
    contours, pen_x = [], 0.0
    for ch in text:
        pen = glyphs._FlatPen(glyph_set)
        glyph_set[cmap[ord(ch)]].draw(pen)
        contours += [tuple(((pen_x + x) * scale, -y * scale) for x, y in c) for c in pen.contours if len(c) > 2]
        pen_x += glyph_set[cmap[ord(ch)]].width
    xs, ys = [x for c in contours for x, _ in c], [y for c in contours for _, y in c]
    left, right, top, bottom = min(xs), max(xs), min(ys), max(ys)
    if underline:
        em = size_pt * PT_MM
        contours.append(((left, UNDERLINE_GAP * em), (left, (UNDERLINE_GAP + UNDERLINE_RULE) * em),
                         (right, (UNDERLINE_GAP + UNDERLINE_RULE) * em), (right, UNDERLINE_GAP * em)))
        bottom = (UNDERLINE_GAP + UNDERLINE_RULE) * em
    return tuple(contours), (left, top, right - left, bottom - top)


def test_numeral_scaled_from_its_outline_is_the_outline_drawn_at_size():
    for text in ("1", "6", "9", "10", "12", "20", "a", "l"):
        for size in (18.0, 23.0, 33.0, 36.0):
            for underline in (False, True):
                got = numeral(text, size, underline)
                assert repr((got.contours, got.ink)) == repr(_drawn_at(text, size, underline))  # to the bit, signed zeros too


def test_plan_places_each_region_once_a_size_until_one_fails(monkeypatch):
    d12 = Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="35mm", encoding="letters")
    calls = []
    real = plan.place
    monkeypatch.setattr(plan, "place", lambda *a: calls.append(a[-1]) or real(*a))
    shape, plans, findings = plan._plan(d12, get_profile("spec800"))
    assert {p.numeral_pt for p in plans} == {33.0} and all(p.fits for p in plans) and not findings
    assert calls.count(33.0) == 12 and 0 < calls.count(36.0) < 12  # a larger size stops at its first region that does not fit


def _planes_one_by_one(points: np.ndarray) -> list:
    """The hull's faces as _planes found them before: a cross product, norm and point match per triangle."""
    import manifold3d

    mesh = manifold3d.Manifold.hull_points(points).to_mesh()
    verts = np.asarray(mesh.vert_properties)[:, :3]
    groups: dict = {}
    for tri in np.asarray(mesh.tri_verts):
        a, b, c = verts[tri]
        n = np.cross(b - a, c - a)
        n /= np.linalg.norm(n)
        key = tuple(np.round(np.append(n, n @ a), 5))
        groups.setdefault(key, (n, set()))[1].update(int(np.argmin(np.linalg.norm(points - verts[i], axis=1))) for i in tri)
    return [(n, sorted(ids)) for n, ids in groups.values()]


def test_planes_and_numbering_are_the_per_triangle_arithmetic():
    from pipeline.dice import solids

    for shape, unit in solids._UNIT_VERTICES.items():
        for scale in (1.0, 17.5):
            points = np.array(unit, dtype=float) * scale
            got, want = solids._planes(points), _planes_one_by_one(points)
            assert [(n.tolist(), ids) for n, ids in got] == [(n.tolist(), ids) for n, ids in want], shape  # the same floats
    d20 = Die(id="d20", name="D20", shape="d20", faces=20, size="30mm", encoding="letters")
    normals = [np.array(f.normal) for f in solid(d20).faces]
    values = solids.numbering(d20, normals)
    assert sorted(values) == list(range(1, 21))
    for i, n in enumerate(normals):  # each face's opposite, as np.allclose finds it, holds 21 minus its value
        (j,) = [j for j, m in enumerate(normals) if np.allclose(m, -n, atol=1e-6)]
        assert values[i] + values[j] == 21

"""The dice's 3D models: the D12's faces and volume against the dodecahedron's textbook values,
one watertight body, raised dots found by sampling the mesh (manifold3d ray casts, independent of
the vertex read-back the stage uses) giving each face's braille cell, the 3MF read back by trimesh,
previews that are not blank."""

from __future__ import annotations

import math

import manifold3d
import numpy as np
import pytest
import trimesh
from PIL import Image

from engine.model import Die
from pipeline.braille.cells import letter_cell
from pipeline.braille.geometry import dot_centres, get_profile
from pipeline.dice.model import build_model, measure_dots, model_findings
from pipeline.dice.output import write_die_model
from pipeline.dice.plan import plan_die

SPEC800 = get_profile("spec800")
D12 = Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="35mm", encoding="letters")
SHARD = Die(id="d4", name="D4", shape="d4-crystal-shard", faces=4, size="30mm", encoding="letters")
D6 = Die(id="d6", name="D6", shape="d6-cube", faces=6, size="25mm", encoding="ueb-numbers", braille_position="left")


@pytest.fixture(scope="module")
def d12():
    solid, plans, _ = plan_die(D12, SPEC800)
    return solid, plans, build_model(solid, plans, SPEC800)


def test_d12_faces_match_a_dodecahedron(d12):
    solid, _, model = d12
    # Reference: the dodecahedron (±1, ±1, ±1), (0, ±1/φ, ±φ) … has its face normals along its dual
    # icosahedron's vertices, (0, ±φ, ±1) and cyclic permutations (Coxeter, Regular Polytopes, 3.7).
    phi = (1 + 5 ** 0.5) / 2
    ico = np.array([p for s1 in (1, -1) for s2 in (1, -1) for p in ((0, s1 * phi, s2), (s1 * phi, s2, 0), (s2, 0, s1 * phi))], dtype=float)
    ico /= np.linalg.norm(ico, axis=1)[:, None]
    normals = np.array([f.normal for f in solid.faces])
    assert len(normals) == 12
    worst = max(min(math.degrees(math.acos(np.clip(n @ m, -1, 1))) for m in ico) for n in normals)
    assert worst < 1.0
    # The mesh itself: for each reference normal, triangles within 1° of it make up most of a
    # pentagon face (area 1.7205 a², a = 15.716 mm → 425 mm²; engravings and dots take the rest).
    mesh = _trimesh(model)
    tri_normals, areas = mesh.face_normals, mesh.area_faces
    for m in ico:
        flat = areas[np.degrees(np.arccos(np.clip(tri_normals @ m, -1, 1))) < 1.0].sum()
        assert 0.8 * 425.0 < flat <= 425.5


def test_d12_volume_and_watertight(d12):
    _, _, model = d12
    # Size meaning: 35 mm face to face, so inradius 17.5 mm = a/2·√(5/2 + 11/(2√5)) → a = 15.716 mm;
    # V = (15 + 7√5)/4 · a³ (Coxeter table I) = 29 745 mm³.
    a = 35 / math.sqrt(5 / 2 + 11 / (2 * math.sqrt(5)))
    expected = (15 + 7 * math.sqrt(5)) / 4 * a ** 3
    assert model.volume == pytest.approx(expected, rel=0.01)
    assert model.volume == pytest.approx(_trimesh(model).volume, rel=1e-6)  # trimesh agrees with manifold3d
    assert model.watertight and model.bodies == 1 and model.genus == 0
    assert _trimesh(model).is_watertight


def _trimesh(model) -> trimesh.Trimesh:
    """The model's mesh in trimesh (the build no longer imports it), to measure it independently."""
    return trimesh.Trimesh(model.mesh.vertices, model.mesh.faces, process=False)


_BODIES: dict[int, tuple] = {}  # id → (model, its manifold), the model kept so an id is never reused


def _sampled_cell(solid, plan, model) -> str:
    """The cell found by casting a ray down onto each of the six dot places of the planned cell."""
    if _BODIES.get(id(model), (None,))[0] is not model:  # the mesh as written, back into manifold3d for its ray casts
        _BODIES[id(model)] = (model, manifold3d.Manifold(manifold3d.Mesh(np.asarray(model.mesh.vertices, dtype=np.float32), np.asarray(model.mesh.faces, dtype=np.uint32))))
    body = _BODIES[id(model)][1]
    normal = np.array(next(f.normal for f in solid.faces if plan.region in f.regions))
    raised = 0
    for place in dot_centres(["⠿"], SPEC800, plan.braille_box[:2]):
        top = np.array(plan.region.origin) + place.x * np.array(plan.region.right) - place.y * np.array(plan.region.up)
        hits = body.ray_cast(tuple(top + 2 * normal), tuple(top - 2 * normal))
        height = 2 - min(h.distance for h in hits) * 4 if hits else -1  # segment length 4 mm
        if abs(height - SPEC800.dot_height) < 0.05:
            raised |= 1 << (place.dot - 1)
        else:
            assert abs(height) < 0.05, (plan.face.numeral, place.dot, height)
    return chr(0x2800 + raised)


def test_each_d12_face_carries_its_letter_sampled_from_the_mesh(d12):
    solid, plans, model = d12
    assert sorted((p.face.value, _sampled_cell(solid, p, model)) for p in plans) == [(n, letter_cell(n)) for n in range(1, 13)]


def test_dot_height_and_spacing_read_back(d12):
    solid, plans, model = d12
    readings = measure_dots(model, solid, plans, SPEC800)
    assert len(readings) == sum(len(dot_centres([p.face.cells], SPEC800)) for p in plans)
    assert max(abs(r.height - SPEC800.dot_height) for r in readings) < 0.005
    assert model_findings("D12", model, readings, SPEC800, D12.where()) == []
    flat = measure_dots(model, solid, plans, get_profile("marburg-medium"))  # the wrong profile's dots are not there
    assert model_findings("D12", model, flat, get_profile("marburg-medium"), D12.where())


def test_shard_model_has_four_long_faces_with_one_numeral_each(tmp_path):
    files = write_die_model(SHARD, tmp_path, SPEC800)
    assert files.findings == () and files.model.watertight and files.model.bodies == 1
    solid, plans, _ = plan_die(SHARD, SPEC800)
    assert sorted(p.face.numeral for p in plans) == ["1", "2", "3", "4"]
    assert {next(f.index for f in solid.faces if p.region in f.regions) for p in plans} == {f.index for f in solid.numbered}
    assert sorted(_sampled_cell(solid, p, files.model) for p in plans) == sorted(letter_cell(n) for n in range(1, 5))


def test_files_open_and_previews_are_not_blank(tmp_path):
    for die in (D12, SHARD, D6):
        files = write_die_model(die, tmp_path, SPEC800)
        scene = trimesh.load(str(files.model_3mf))  # trimesh's 3MF reader (lxml)
        mesh = trimesh.util.concatenate(list(scene.geometry.values()))
        assert mesh.is_watertight and mesh.volume == pytest.approx(files.model.volume, rel=1e-4)
        assert trimesh.load(str(files.stl)).is_watertight
        image = Image.open(files.preview).convert("L")
        hist = image.histogram()
        assert image.size == (480, 480) and hist[255] < 0.8 * sum(hist) and len([v for v in hist if v]) > 20
    again = write_die_model(D6, tmp_path / "again", SPEC800)
    assert again.model_3mf.read_bytes() == (tmp_path / "die-d6.3mf").read_bytes()  # same bytes on every run


def test_readme_previews_are_current(tmp_path, monkeypatch):
    from conftest import ROOT

    from pipeline.dice.output import write_readme_previews

    monkeypatch.chdir(ROOT)
    fresh = write_readme_previews(tmp_path)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [p.name for p in fresh] == ["die-d12.png", "die-d4.png", "die-d6.png"]
    import numpy as np
    from PIL import Image

    from pipeline.dice.output import PLAN_KEY

    for p in fresh:
        assert f"docs/dice/{p.name}" in readme
        committed = Image.open(ROOT / "docs" / "dice" / p.name)
        # What the picture shows (shape, numerals, braille cells, their places to 0.01 mm) must be the
        # current code's; its pixels are compared loosely only, since manifold3d's mesh differs in the
        # last float bits between CPUs (an AMD EPYC machine drew 98 of the d12's 230,400 pixels
        # otherwise). Removing one dot of a braille cell changes as few pixels, so the digest decides.
        assert committed.text.get(PLAN_KEY) == Image.open(p).text[PLAN_KEY], f"{p.name} is stale; run .venv/bin/python -m pipeline.dice.output"
        new, old = (np.asarray(im.convert("RGB"), dtype=int) for im in (Image.open(p), committed))
        assert new.shape == old.shape and (np.abs(new - old).max(axis=2) > 0).mean() < 0.01


@pytest.mark.parametrize(("shape", "faces", "size"), [("d4-tetrahedron", 4, "70mm"), ("d8", 8, "24mm"), ("d10", 10, "24mm"), ("d20", 20, "42mm")])
def test_every_library_shape_builds_one_solid_with_its_cells(shape, faces, size):
    die = Die(id="x", name=shape.upper(), shape=shape, faces=faces, size=size, encoding="letters")
    solid, plans, findings = plan_die(die, SPEC800)
    model = build_model(solid, plans, SPEC800)
    assert findings == [] and model.watertight and model.bodies == 1
    assert model_findings(die.name, model, measure_dots(model, solid, plans, SPEC800), SPEC800, die.where()) == []
    assert all(_sampled_cell(solid, p, model) == letter_cell(p.face.value) for p in plans)
    value = {f.index: f.regions[0].value for f in solid.numbered}
    if shape == "d4-tetrahedron":  # three corner numerals per face, the fourth value is the face's own opposite corner
        assert [len(f.regions) for f in solid.faces] == [3] * 4 and len(plans) == 12
    else:
        assert sorted(value.values()) == list(range(1, faces + 1))
        for f in solid.faces:
            opposite = next(g for g in solid.faces if np.allclose(g.normal, -np.array(f.normal), atol=1e-6))
            assert value[f.index] + value[opposite.index] == faces + 1


def test_a_preview_digest_changes_with_one_braille_dot():
    """The README check's digest (pipeline.dice.output.plan_digest) tells a die whose one face lost a
    braille cell from the current die, where the preview's pixels barely change (0.04 % on the d6)."""
    import dataclasses

    from pipeline.dice.output import plan_digest
    from pipeline.dice.plan import plan_die

    _, plans, _ = plan_die(D6, SPEC800)
    first = plans[0]
    fewer = dataclasses.replace(first, face=dataclasses.replace(first.face, cells=first.face.cells[:-1]))
    assert plan_digest(D6, plans) == plan_digest(D6, plan_die(D6, SPEC800)[1])
    assert plan_digest(D6, (fewer, *plans[1:])) != plan_digest(D6, plans)

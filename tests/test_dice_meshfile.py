"""The dice's STL and 3MF writers (pipeline.dice.meshfile) against trimesh, which wrote them before:
the same STL bytes and 3MF parts for the shipped kinds of die (the 3MF's zip records are zipfile's,
its deflate libdeflate's), the same normals and watertightness, a hole found, the 3MF read back by
the standard library too, and trimesh no longer imported by the stage."""

from __future__ import annotations

import io
import re
import subprocess
import sys
import uuid
import xml.etree.ElementTree as ET
import zipfile
import zlib

import numpy as np
import pytest
import trimesh

from engine.model import Die
from pipeline.braille.geometry import get_profile
from pipeline.dice.meshfile import FIXED_TIME, Mesh, model_xml, stl_bytes, threemf_bytes, zip_bytes
from pipeline.dice.model import build_model
from pipeline.dice.plan import plan_die

SPEC800 = get_profile("spec800")
DICE = [
    Die(id="d12", name="D12", shape="d12-dodecahedron", faces=12, size="35mm", encoding="letters"),
    Die(id="d4", name="D4", shape="d4-crystal-shard", faces=4, size="30mm", encoding="letters"),
    Die(id="d6", name="D6", shape="d6-cube", faces=6, size="25mm", encoding="ueb-numbers", braille_position="left"),
]
_UUID = re.compile(rb"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(scope="module", params=DICE, ids=lambda d: d.id)
def built(request):
    die = request.param
    solid, plans, _ = plan_die(die, SPEC800)
    model = build_model(solid, plans, SPEC800)
    return die, model.mesh, trimesh.Trimesh(model.mesh.vertices, model.mesh.faces, process=False)


def _trimesh_3mf(mesh: trimesh.Trimesh, name: str) -> bytes:
    """What the stage wrote before: trimesh's 3MF with its random UUIDs made name-based and the zip re-dated."""
    raw = trimesh.Scene(geometry={name: mesh}).export(file_type="3mf", compression=zipfile.ZIP_STORED)
    count = iter(range(1 << 30))
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as src, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for info in src.infolist():
            data = _UUID.sub(lambda _: str(uuid.uuid5(uuid.NAMESPACE_URL, f"deckpress:{name}:{next(count)}")).encode(), src.read(info))
            dst.writestr(zipfile.ZipInfo(info.filename, (1980, 1, 1, 0, 0, 0)), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def _zlib_raw(data: bytes) -> bytes:
    """zipfile's own deflate of an entry: zlib at its default level, raw (no header)."""
    packer = zlib.compressobj(zlib.Z_DEFAULT_COMPRESSION, zlib.DEFLATED, -15)
    return packer.compress(data) + packer.flush()


def test_files_are_trimesh_bytes(built):
    die, mesh, tm = built
    assert np.array_equal(mesh.face_normals, tm.face_normals)
    assert np.array_equal(mesh.triangles_center, tm.triangles_center)
    assert stl_bytes(mesh) == trimesh.exchange.stl.export_stl(tm)
    ours, theirs = (zipfile.ZipFile(io.BytesIO(b)) for b in (threemf_bytes(mesh, die.id), _trimesh_3mf(tm, die.id)))
    assert [(i.filename, i.date_time, i.compress_type, i.CRC, i.file_size) for i in ours.infolist()] == \
        [(i.filename, i.date_time, i.compress_type, i.CRC, i.file_size) for i in theirs.infolist()]
    assert all(ours.read(name) == theirs.read(name) for name in theirs.namelist())
    assert ours.testzip() is None


def test_zip_records_are_zipfiles(built):
    """With zipfile's own deflate, zip_bytes writes zipfile's bytes: only the deflate stream is libdeflate's in a 3MF."""
    die, mesh, tm = built
    theirs = _trimesh_3mf(tm, die.id)
    with zipfile.ZipFile(io.BytesIO(theirs)) as z:
        entries = [(name, z.read(name)) for name in z.namelist()]
    assert zip_bytes(entries, _zlib_raw) == theirs
    with pytest.raises(ValueError):
        zip_bytes([("d\u00e9", b"x")], _zlib_raw)  # zipfile would flag a UTF-8 name; not written here
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr(zipfile.ZipInfo("a", FIXED_TIME), b"", zipfile.ZIP_DEFLATED)
    assert zip_bytes([("a", b"")], _zlib_raw) == out.getvalue()


def test_a_name_is_escaped_as_lxml_escapes_it(built):
    _, mesh, tm = built
    name = 'd6 "big" & <small>'
    assert model_xml(mesh, name) == zipfile.ZipFile(io.BytesIO(_trimesh_3mf(tm, name))).read("3D/3dmodel.model")


def test_watertight_as_trimesh_says_and_a_hole_is_found(built):
    _, mesh, tm = built
    assert mesh.watertight and tm.is_watertight
    holed = Mesh(mesh.vertices, mesh.faces[1:])
    assert not holed.watertight and not trimesh.Trimesh(holed.vertices, holed.faces, process=False).is_watertight
    doubled = Mesh(mesh.vertices, np.vstack([mesh.faces, mesh.faces[:1]]))  # an edge of three triangles
    assert not doubled.watertight
    assert not Mesh(mesh.vertices, mesh.faces[:0]).watertight


def test_3mf_read_back_by_the_standard_library(built):
    die, mesh, _ = built
    ns = {"m": "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"}
    with zipfile.ZipFile(io.BytesIO(threemf_bytes(mesh, die.id))) as z:
        assert z.namelist() == ["3D/3dmodel.model", "_rels/.rels", "[Content_Types].xml"]
        root = ET.fromstring(z.read("3D/3dmodel.model"))
        rels = ET.fromstring(z.read("_rels/.rels"))
    assert root.get("unit") == "millimeter"
    (obj,) = root.findall("m:resources/m:object", ns)
    assert obj.get("name") == die.id
    verts = np.array([[float(v.get(k)) for k in "xyz"] for v in obj.iterfind("m:mesh/m:vertices/m:vertex", ns)])
    tris = np.array([[int(t.get(k)) for k in ("v1", "v2", "v3")] for t in obj.iterfind("m:mesh/m:triangles/m:triangle", ns)])
    assert np.array_equal(verts, mesh.vertices) and np.array_equal(tris, mesh.faces)  # every float round-trips
    (item,) = root.findall("m:build/m:item", ns)
    assert item.get("objectid") == obj.get("id") == "1"
    assert rels[0].get("Target") == "/3D/3dmodel.model"


def test_the_dice_stage_does_not_import_trimesh():
    probe = ("import sys\nimport pipeline.dice.output, pipeline.dice.sheet, pipeline.dice.meshfile\n"
             "print(sorted({'trimesh', 'networkx'} & set(sys.modules)))")
    assert subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.strip() == "[]"

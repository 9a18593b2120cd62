"""A die's triangle mesh and its two file formats, binary STL and 3MF, written with numpy and libdeflate.

The build used to hand the mesh to trimesh for its face normals, its watertightness and both
exports; importing trimesh (and networkx, which its 3MF exporter needs) cost the build's
parent ~0.4 s CPU before any game started, and its 3MF export formatted numpy scalars one by
one (issue 22, docs/speed.md). This module writes the same STL bytes trimesh 5.2 wrote, and a
3MF whose parts are the bytes trimesh wrote, from the same arithmetic (the formulas are trimesh's,
cited per function), in the zip records zipfile writes, deflated by libdeflate instead of zlib
(:func:`zip_bytes`); the tests read both files back with trimesh and with the standard library.
"""

from __future__ import annotations

import struct
import uuid
import zlib
from dataclasses import dataclass

import deflate
import numpy as np

#: Below this length a triangle's cross product counts as zero and its normal is (0, 0, 0):
#: trimesh's ``TOL_ZERO`` (100 × the float64 resolution).
TOL_ZERO = float(np.finfo(np.float64).resolution * 100)
#: The zip entries' timestamp: fixed, so the same mesh gives the same 3MF bytes.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
_STL_RECORD = np.dtype([("normals", "<f4", (3,)), ("vertices", "<f4", (3, 3)), ("attributes", "<u2")])

_CORE = "http://schemas.microsoft.com/3dmanufacturing/core/2015/02"
_PREFIXES = {
    "m": "http://schemas.microsoft.com/3dmanufacturing/material/2015/02",
    "p": "http://schemas.microsoft.com/3dmanufacturing/production/2015/06",
    "b": "http://schemas.microsoft.com/3dmanufacturing/beamlattice/2017/02",
    "s": "http://schemas.microsoft.com/3dmanufacturing/slice/2015/07",
    "sc": "http://schemas.microsoft.com/3dmanufacturing/securecontent/2019/04",
}
_DECLARATION = "<?xml version='1.0' encoding='utf-8'?>\n"


def _xmlns(order: str) -> str:
    return " ".join([f'xmlns="{_CORE}"'] + [f'xmlns:{k}="{_PREFIXES[k]}"' for k in order.split()])


# lxml writes the model element's prefixes sorted, the item's (a fresh element) in trimesh's order.
_MODEL_NS, _ITEM_NS = _xmlns("b m p s sc"), _xmlns("m p b s sc")
_IDENTITY = "1.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0 1.0 0.0 0.0 0.0"
_RELS = (_DECLARATION + '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
         '<Relationship Type="http://schemas.microsoft.com/3dmanufacturing/2013/01/3dmodel" Target="/3D/3dmodel.model" Id="rel0"/>'
         "</Relationships>")
_TYPES = (_DECLARATION + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' + "".join(
    f'<Default Extension="{ext}" ContentType="{kind}"/>' for ext, kind in (
        ("jpeg", "image/jpeg"), ("jpg", "image/jpeg"), ("model", "application/vnd.ms-package.3dmanufacturing-3dmodel+xml"),
        ("png", "image/png"), ("rels", "application/vnd.openxmlformats-package.relationships+xml"),
        ("texture", "application/vnd.ms-package.3dmanufacturing-3dmodeltexture"))) + "</Types>")


@dataclass(frozen=True, eq=False)
class Mesh:
    """A triangle mesh: ``vertices`` (n × 3 float64, mm) and ``faces`` (m × 3 int64 vertex indices,
    counter-clockwise seen from outside)."""

    vertices: np.ndarray
    faces: np.ndarray

    @property
    def triangles(self) -> np.ndarray:
        """The faces' corner points, m × 3 × 3 mm."""
        return self.vertices[self.faces]

    @property
    def triangles_center(self) -> np.ndarray:
        """Each face's centroid (mean of its corners), m × 3 mm."""
        return self.triangles.mean(axis=1)

    @property
    def face_normals(self) -> np.ndarray:
        """Each face's outward unit normal, m × 3; (0, 0, 0) for a face of (near) zero area.

        trimesh's formula to the bit (``triangles.cross`` and ``util.unitize``): the cross product
        of the edges (b − a) and (c − b), divided by its length from ``sqrt(dot(v², [1, 1, 1]))``.
        """
        tri = self.triangles
        edges = tri[:, 1:, :] - tri[:, :2, :]
        cross = np.cross(edges[:, 0], edges[:, 1])
        norm = np.sqrt(np.dot(cross * cross, [1.0, 1.0, 1.0]))
        valid = norm > TOL_ZERO
        norm[valid] **= -1
        unit = cross * norm.reshape((-1, 1))
        unit[~valid] = 0.0
        return unit

    @property
    def watertight(self) -> bool:
        """True when every edge is shared by exactly two faces (trimesh's ``is_watertight``: its
        edges, sorted per edge, grouped in pairs, none left over); False for an empty mesh."""
        if len(self.faces) == 0:
            return False
        edges = np.sort(self.faces[:, [0, 1, 1, 2, 2, 0]].reshape((-1, 2)), axis=1)
        keys = edges[:, 0] * (int(edges.max()) + 1) + edges[:, 1]
        _, counts = np.unique(keys, return_counts=True)
        return bool((counts == 2).all())


def stl_bytes(mesh: Mesh) -> bytes:
    """The mesh as a binary STL file: an 80-byte zero header, the face count (uint32), then per face
    its normal and three corners as float32 and a zero attribute word (trimesh's ``export_stl``)."""
    packed = np.zeros(len(mesh.faces), dtype=_STL_RECORD)
    packed["normals"] = mesh.face_normals
    packed["vertices"] = mesh.triangles
    return bytes(80) + np.uint32(len(mesh.faces)).astype("<u4").tobytes() + packed.tobytes()


def _attribute(text: str) -> str:
    """``text`` escaped for a double-quoted XML attribute, as lxml writes it."""
    for raw, escaped in (("&", "&amp;"), ("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("\n", "&#10;"), ("\r", "&#13;"), ("\t", "&#9;")):
        text = text.replace(raw, escaped)
    return text


def model_xml(mesh: Mesh, name: str) -> bytes:
    """The 3MF model part (``3D/3dmodel.model``): one object ``name`` with the mesh, one build item.

    The text trimesh 5's ``export_3MF`` streams through lxml, with its three random UUIDs replaced
    by name-based ones (uuid5 of ``deckpress:<name>:<k>``, k = 0, 1, 2 in document order): each
    coordinate written as Python writes the float64 (shortest round trip), indices as integers.
    """
    ids = [str(uuid.uuid5(uuid.NAMESPACE_URL, f"deckpress:{name}:{k}")) for k in range(3)]
    label = _attribute(name)
    coords = mesh.vertices.reshape(-1).tolist()
    corners = mesh.faces.reshape(-1).tolist()
    parts = [
        _DECLARATION, f'<model {_MODEL_NS} unit="millimeter"><resources>',
        f'<object id="1" name="{label}" type="model" p:UUID="{ids[0]}"><mesh><vertices>',
        ('<vertex x="{}" y="{}" z="{}" />' * len(mesh.vertices)).format(*coords),
        "</vertices><triangles>",
        ('<triangle v1="{}" v2="{}" v3="{}" />' * len(mesh.faces)).format(*corners),
        f'</triangles></mesh></object></resources><build p:UUID="{ids[1]}">',
        f'<item {_ITEM_NS} objectid="1" transform="{_IDENTITY}" p:UUID="{ids[2]}" partnumber="{label}"/></build></model>',
    ]
    return "".join(parts).encode("utf-8")


def threemf_bytes(mesh: Mesh, name: str) -> bytes:
    """The mesh as a 3MF package (mm): the model part (:func:`model_xml`), the package relationships
    and the content types, in trimesh's order, deflated by libdeflate at level :data:`DEFLATE_LEVEL`,
    every entry dated :data:`FIXED_TIME`. Same mesh and ``name``, same bytes."""
    entries = (("3D/3dmodel.model", model_xml(mesh, name)), ("_rels/.rels", _RELS.encode()), ("[Content_Types].xml", _TYPES.encode()))
    return zip_bytes(entries, lambda data: deflate.deflate_compress(data, DEFLATE_LEVEL))


#: libdeflate's level for the 3MF's entries. zipfile's zlib at its default level 6 took 30 ms a
#: shipped D12 model (804 kB of XML to 177 kB); libdeflate at 6 takes 16 ms and gives 160 kB
#: (issue 22). The entries read back the same bytes either way.
DEFLATE_LEVEL = 6

# The zip records (PKWARE APPNOTE.TXT 6.3.10 §4.3.7, §4.3.12, §4.3.16) as zipfile packs them.
_LOCAL, _CENTRAL, _END = "<4s2B4HL2L2H", "<4s4B4HL2L5H2L", "<4s4H2LH"
_VERSION, _UNIX, _DEFLATED = 20, 3, 8  # version 2.0 made by and needed; made on Unix; method 8, deflate
_ATTRIBUTES = 0o600 << 16  # rw------- : what zipfile gives an entry written without attributes
_ZIP64_LIMIT = (1 << 31) - 1  # zipfile's ZIP64_LIMIT: past it (an entry's size × 1.05 for its header) zipfile writes ZIP64


def zip_bytes(entries, compress) -> bytes:
    """A zip archive of ``entries`` ((ASCII name, data bytes), in order), each deflated by ``compress``
    (data -> raw RFC 1951 deflate stream) and dated :data:`FIXED_TIME`: the records Python's zipfile
    writes to a seekable file for ``writestr(ZipInfo(name, FIXED_TIME), data, ZIP_DEFLATED)`` on Unix,
    field for field, with ``compress``'s stream as the data (zipfile cannot take a deflate stream it did
    not make; tests/test_dice_meshfile.py checks the bytes against zipfile's with zlib as ``compress``).
    Raises ValueError for a name that is not ASCII or an archive past 4 GiB (zipfile would go ZIP64)."""
    year, month, day, hour, minute, second = FIXED_TIME
    date, time = (year - 1980) << 9 | month << 5 | day, hour << 11 | minute << 5 | second // 2
    out, central = bytearray(), bytearray()
    for name, data in entries:
        raw, packed = name.encode("ascii"), compress(data)
        crc, offset = zlib.crc32(data), len(out)
        if len(data) * 1.05 > _ZIP64_LIMIT or max(len(packed), offset) > _ZIP64_LIMIT:
            raise ValueError(f"zip_bytes: {name} is too large for a zip without ZIP64")
        out += struct.pack(_LOCAL, b"PK\x03\x04", _VERSION, 0, 0, _DEFLATED, time, date, crc, len(packed), len(data), len(raw), 0)
        out += raw + packed
        central += struct.pack(_CENTRAL, b"PK\x01\x02", _VERSION, _UNIX, _VERSION, 0, 0, _DEFLATED, time, date, crc,
                               len(packed), len(data), len(raw), 0, 0, 0, 0, _ATTRIBUTES, offset) + raw
    count = len(entries)
    return bytes(out + central + struct.pack(_END, b"PK\x05\x06", 0, 0, count, count, len(central), len(out), 0))

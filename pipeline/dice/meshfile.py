"""A die's triangle mesh and its two file formats, binary STL and 3MF, written with numpy and zipfile.

The build used to hand the mesh to trimesh for its face normals, its watertightness and both
exports; importing trimesh (and networkx, which its 3MF exporter needs) cost the build's
parent ~0.4 s CPU before any game started, and its 3MF export formatted numpy scalars one by
one (issue 22, docs/speed.md). This module writes the same bytes trimesh 5.2 wrote, from the
same arithmetic (the formulas are trimesh's, cited per function), and the tests read both
files back with trimesh and with the standard library.
"""

from __future__ import annotations

import io
import uuid
import zipfile
from dataclasses import dataclass

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
    and the content types, in trimesh's order, deflated, every entry dated :data:`FIXED_TIME`.
    Same mesh and ``name``, same bytes."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as dst:
        for filename, data in (("3D/3dmodel.model", model_xml(mesh, name)), ("_rels/.rels", _RELS.encode()),
                               ("[Content_Types].xml", _TYPES.encode())):
            dst.writestr(zipfile.ZipInfo(filename, FIXED_TIME), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()

"""3D-printable dice: one watertight solid per die, written as 3MF and STL.

Built with manifold3d (Apache-2.0; guaranteed-manifold booleans, so the result is a closed
single solid by construction, and checked anyway) and written by :mod:`pipeline.dice.meshfile`
(numpy and zipfile; the bytes trimesh wrote, without importing it). On every face, from the same plan as the die
sheet (:mod:`pipeline.dice.plan`):

- the numeral (Atkinson Hyperlegible Bold outlines, :mod:`pipeline.dice.glyphs`) engraved
  :data:`ENGRAVE_MM` deep, 6 and 9 with their underline;
- the braille as raised domed dots: spherical caps of the geometry profile's base diameter
  and dot height (cap of a sphere of radius (a² + h²) / 2h, a = base/2) at its dot and cell spacing;
- the orientation bar, raised by the profile's dot height so a finger finds it.

The mesh is read back (:func:`measure_dots`): each dot's apex height above its face and the
apex-to-apex spacing within a cell, which must be within :data:`TOLERANCE_MM` of the profile.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import manifold3d
import numpy as np

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from pipeline.braille.geometry import GeometryProfile, dot_centres, dot_offset
from pipeline.dice.glyphs import numeral
from pipeline.dice.meshfile import Mesh
from pipeline.dice.plan import RegionPlan
from pipeline.dice.solids import Solid

NOT_SOLID = declare(
    "DI003",
    "die-model-not-solid",
    Severity.error,
    """A die's 3D model is not one watertight solid, so a printer or dice maker cannot use it.

    Fails: a mesh with a hole, or a dot left floating off its face (two bodies).
    Passes: every shipped die (one closed body, genus 0).
    """,
)
DOTS_OFF = declare(
    "DI004",
    "die-model-dots-off",
    Severity.error,
    """A die model's braille, read back from the mesh, is not at the geometry profile's dot height or spacing (± 0.05 mm).

    Fails: dots flattened to 0.3 mm where the profile asks 0.48 mm.
    Passes: every shipped die at spec800 (0.48 mm high, 2.34 mm apart).
    """,
)

ENGRAVE_MM = 0.6  #: numeral engraving depth
TOLERANCE_MM = 0.05  #: dot height and spacing read back from the mesh, against the profile
DOT_SEGMENTS = 24  #: facets round a dot's sphere (a multiple of 4: its pole is a vertex)


@dataclass(frozen=True)
class DieModel:
    """A built die: ``mesh`` (:class:`~pipeline.dice.meshfile.Mesh`, mm), its ``volume`` (mm³),
    ``bodies`` (closed pieces) and ``genus``."""

    mesh: Mesh
    volume: float
    bodies: int
    genus: int

    @property
    def watertight(self) -> bool:
        """True when every edge joins exactly two triangles."""
        return self.mesh.watertight


def frame(plan: RegionPlan, normal) -> np.ndarray:
    """The 3×4 transform from region mm (x right, **y up**, z out of the face) to die mm."""
    r = plan.region
    return np.column_stack([r.right, r.up, normal, r.origin])


def _engraving(plan: RegionPlan, normal) -> manifold3d.Manifold:
    glyph = numeral(plan.face.numeral, plan.numeral_pt, plan.face.underline)
    px, py = plan.pen
    contours = [np.array([(px + x, -(py + y)) for x, y in c]) for c in glyph.contours]
    section = manifold3d.CrossSection(contours, manifold3d.FillRule.NonZero)
    cutter = manifold3d.Manifold.extrude(section, ENGRAVE_MM + 0.5).translate((0, 0, -ENGRAVE_MM))
    return cutter.transform(frame(plan, normal))


def _raised(plan: RegionPlan, normal, profile: GeometryProfile) -> list[manifold3d.Manifold]:
    a, h = profile.dot_base / 2, profile.dot_height
    radius = (a * a + h * h) / (2 * h)
    sphere = manifold3d.Manifold.sphere(radius, DOT_SEGMENTS)
    out = []
    for dot in dot_centres([plan.face.cells], profile, plan.braille_box[:2]):
        out.append(sphere.translate((dot.x, -dot.y, h - radius)).transform(frame(plan, normal)))
    x, y, w, hh = plan.bar
    bar = manifold3d.Manifold.cube((w, hh, h + 0.5)).translate((x, -(y + hh), -0.5))
    out.append(bar.transform(frame(plan, normal)))
    return out


def build_model(solid: Solid, plans: tuple[RegionPlan, ...], profile: GeometryProfile) -> DieModel:
    """The die as one manifold: hull − engraved numerals + raised dots and bars (mm, centred)."""
    return _build(solid, plans, profile)


@lru_cache(maxsize=16)
def _build(solid: Solid, plans: tuple[RegionPlan, ...], profile: GeometryProfile) -> DieModel:
    normals = {id(r): f.normal for f in solid.numbered for r in f.regions}
    body = manifold3d.Manifold.hull_points(np.array(solid.vertices))
    cuts = [_engraving(p, normals[id(p.region)]) for p in plans]
    adds = [m for p in plans for m in _raised(p, normals[id(p.region)], profile)]
    body = manifold3d.Manifold.batch_boolean([body, *cuts], manifold3d.OpType.Subtract)
    body = manifold3d.Manifold.batch_boolean([body, *adds], manifold3d.OpType.Add)
    mesh = body.to_mesh()
    # float64 corners and int64 indices, as trimesh held them (the files' numbers come from these)
    tm = Mesh(np.ascontiguousarray(np.asarray(mesh.vert_properties)[:, :3], dtype=np.float64), np.asarray(mesh.tri_verts, dtype=np.int64))
    return DieModel(tm, float(body.volume()), len(body.decompose()), int(body.genus()))


@dataclass(frozen=True)
class DotReading:
    """One dot read back from the mesh: face numeral, plan index, cell index and dot number, apex height
    (mm) above the face and the apex's place (region mm, y down)."""

    numeral: str
    plan: int
    cell: int
    dot: int
    height: float
    apex: tuple[float, float]


def measure_dots(model: DieModel, solid: Solid, plans: tuple[RegionPlan, ...], profile: GeometryProfile) -> list[DotReading]:
    """Each planned dot's apex read from the mesh vertices within its base circle: the highest
    vertex above the face plane, and where it is (region mm, y down)."""
    normals = {id(r): np.array(f.normal) for f in solid.numbered for r in f.regions}
    verts = model.mesh.vertices
    out = []
    for i, p in enumerate(plans):
        n, o = normals[id(p.region)], np.array(p.region.origin)
        rel = verts - o
        height = rel @ n
        u = rel @ np.array(p.region.right)
        v = -(rel @ np.array(p.region.up))
        for dot in dot_centres([p.face.cells], profile, p.braille_box[:2]):
            near = np.hypot(u - dot.x, v - dot.y) <= profile.dot_radius + 1e-6
            best = int(np.argmax(np.where(near, height, -np.inf)))
            out.append(DotReading(p.face.numeral, i, dot.cell, dot.dot, float(height[best]) if near.any() else 0.0, (float(u[best]), float(v[best]))))
    return out


def model_findings(name: str, model: DieModel, readings: list[DotReading], profile: GeometryProfile, where: Location) -> list[Finding]:
    """DI003 when the model is not one watertight solid; DI004 when a dot's height or a cell's
    dot spacing (apex to apex, along the profile's rows and columns) is off by more than 0.05 mm."""
    out = []
    if not model.watertight or model.bodies != 1:
        out.append(NOT_SOLID.finding(f"{name}: the 3D model is {'not watertight' if not model.watertight else f'{model.bodies} separate bodies'}",
                                     where, "a face too small for its content (DI002) puts dots or the bar past its edge: use a larger die; "
                                     "otherwise report this as a deckpress bug with the die's data"))
    for r in readings:
        if abs(r.height - profile.dot_height) > TOLERANCE_MM:
            out.append(DOTS_OFF.finding(f"{name} face {r.numeral} dot {r.dot}: {r.height:.3f} mm high on the mesh, profile {profile.dot_height} mm",
                                        where, "report this as a deckpress bug with the die's data"))
    out += _spacing_findings(name, readings, profile, where)
    return out


def _spacing_findings(name: str, readings: list[DotReading], profile: GeometryProfile, where: Location) -> list[Finding]:
    """Two dots of one cell: their apexes on the mesh must be as far apart, across and down, as the profile puts them."""
    out = []
    for a in readings:
        for b in readings:
            if (a.numeral, a.plan, a.cell) != (b.numeral, b.plan, b.cell) or a.dot >= b.dot:
                continue
            want = np.subtract(dot_offset(b.dot, profile), dot_offset(a.dot, profile))
            got = np.subtract(b.apex, a.apex)
            if np.abs(got - want).max() > TOLERANCE_MM:
                out.append(DOTS_OFF.finding(
                    f"{name} face {a.numeral}: dots {a.dot} and {b.dot} are {got[0]:.3f} × {got[1]:.3f} mm apart on the mesh, "
                    f"profile {want[0]:.2f} × {want[1]:.2f} mm", where, "report this as a deckpress bug with the die's data"))
    return out

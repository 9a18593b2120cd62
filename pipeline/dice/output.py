"""The dice stage's 3D files: per die a 3MF and an STL (:mod:`pipeline.dice.meshfile`) and a PNG preview (Pillow).

The 3MF is made the same bytes on every run: name-based UUIDs (uuid5 of the die id and their
position) and a fixed timestamp in the zip (:func:`pipeline.dice.meshfile.threemf_bytes`). The preview is an
orthographic rasterisation, no GPU or display: triangles painted far to near (painter's
algorithm) in a grey from their normal against a light from the upper left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw
from PIL.PngImagePlugin import PngInfo

from engine.findings import Finding
from engine.model import Deck, Die
from pipeline.braille.geometry import PROFILES, GeometryProfile
from pipeline.common.files import atomic_path
from pipeline.common.pngfile import opaque_png
from pipeline.dice.meshfile import stl_bytes, threemf_bytes
from pipeline.dice.model import DieModel, build_model, measure_dots, model_findings
from pipeline.dice.plan import plan_die
from pipeline.dice.solids import Solid

PREVIEW_PX = 480  #: preview width and height


def write_3mf(model: DieModel, path: Path, name: str) -> None:
    """The model as 3MF (mm), its object named ``name``; byte-identical for the same mesh and ``name``."""
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(threemf_bytes(model.mesh, name))


def write_stl(model: DieModel, path: Path) -> None:
    """The model as binary STL (mm)."""
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(stl_bytes(model.mesh))


def render_preview(model: DieModel, solid: Solid, path: Path, view=(0.55, -0.45, 0.7)) -> Image.Image:
    """An orthographic shaded view of the model along ``view`` (towards the viewer), PNG of
    :data:`PREVIEW_PX` square. Engraved surfaces (below the solid's face planes) are drawn dark
    and raised ones (dots, bars) light, so numerals and braille read at thumbnail size."""
    mesh = model.mesh
    z = np.array(view, dtype=float)
    z /= np.linalg.norm(z)
    x = np.cross((0.0, 0.0, 1.0), z)
    x /= np.linalg.norm(x)
    y = np.cross(z, x)
    verts = mesh.vertices @ np.column_stack([x, y, z])
    scale = 0.9 * PREVIEW_PX / np.ptp(verts[:, :2], axis=0).max()
    centre = (verts[:, :2].max(axis=0) + verts[:, :2].min(axis=0)) / 2
    xy = (verts[:, :2] - centre) * scale * np.array([1, -1]) + PREVIEW_PX / 2
    normals = mesh.face_normals @ np.column_stack([x, y, z])
    light = np.array([-0.4, 0.5, 0.77])
    shade = 0.35 + 0.65 * np.clip(normals @ (light / np.linalg.norm(light)), 0, 1)
    planes = np.array([(*f.normal, np.dot(f.normal, f.vertices[0])) for f in solid.faces])
    centroids = mesh.triangles_center
    height = (centroids @ planes[:, :3].T - planes[:, 3]).max(axis=1)  # 0 on the surface, < 0 engraved, > 0 raised
    base = np.where(height[:, None] < -0.05, (70, 80, 110), np.where(height[:, None] > 0.05, (255, 236, 200), (215, 215, 225)))
    colours = (base * shade[:, None]).astype(int)
    image = Image.new("RGB", (PREVIEW_PX, PREVIEW_PX), (255, 255, 255))
    faces = np.asarray(mesh.faces)
    depth = np.asarray(verts)[faces][:, :, 2].mean(axis=1)
    order = np.argsort(depth)
    order = order[np.asarray(normals)[order, 2] > 0]  # facing the viewer, far to near
    # ImageDraw.polygon(points, fill) is core.draw_polygon(points, core.draw_ink(fill), 1) after
    # checks that cost twice the drawing: call the core, each distinct colour's ink worked out once and
    # spread to the faces by numpy (no tuple and dict look-up a face: the 4 shipped dice 44.1-45.9 -> 41.8-43.2 ms).
    core = ImageDraw.Draw(image).draw
    drawn = colours[order]
    distinct, which = np.unique(drawn[:, 0] << 16 | drawn[:, 1] << 8 | drawn[:, 2], return_inverse=True)
    inks = np.array([core.draw_ink((c >> 16, c >> 8 & 255, c & 255)) for c in distinct.tolist()], np.int64)
    draw = core.draw_polygon
    for points, ink in zip(np.asarray(xy)[faces[order]].reshape(-1, 6).tolist(), inks[which.reshape(-1)].tolist()):
        draw(points, ink, 1)
    with atomic_path(path) as tmp:
        Path(tmp).write_bytes(opaque_png(image))
    return image


@dataclass(frozen=True)
class DieFiles:
    """What the stage wrote for one die: the 3MF, STL and preview paths, the model and its findings."""

    die_id: str
    model_3mf: Path
    stl: Path
    preview: Path
    model: DieModel
    findings: tuple[Finding, ...]


def write_die_model(die: Die, out_dir: Path, profile: GeometryProfile) -> DieFiles:
    """Build, check (DI003 not one watertight solid, DI004 dots off the profile) and write one die's
    ``die-<id>.3mf``, ``die-<id>.stl`` and ``die-<id>.png``. DI002 (a face too small) comes from the sheet's plan."""
    solid, plans, _ = plan_die(die, profile)
    model = build_model(solid, plans, profile)
    findings = model_findings(die.name, model, measure_dots(model, solid, plans, profile), profile, die.where("size"))
    out_dir = Path(out_dir)
    base = out_dir / f"die-{die.id}"
    write_3mf(model, base.with_suffix(".3mf"), die.id)
    write_stl(model, base.with_suffix(".stl"))
    render_preview(model, solid, base.with_suffix(".png"))
    return DieFiles(die.id, base.with_suffix(".3mf"), base.with_suffix(".stl"), base.with_suffix(".png"), model, tuple(findings))


def write_models(deck: Deck, out_dir: str | Path, profile: GeometryProfile | None = None) -> list[DieFiles]:
    """One 3MF, STL and preview per die of the game in ``out_dir``; profile defaults to the game's."""
    profile = profile or PROFILES.get(deck.game.braille.geometry, PROFILES["spec800"])
    return write_die_models(deck.game.dice, out_dir, profile)


def write_die_models(dice: Sequence[Die], out_dir: str | Path, profile: GeometryProfile) -> list[DieFiles]:
    """:func:`write_models` from exactly what it reads: the dice and the profile (the build keeps the
    files while these are unchanged, :mod:`pipeline.build.kept_stages`)."""
    return [write_die_model(die, Path(out_dir), profile) for die in dice]


def write_readme_previews(folder: str | Path = "docs/dice") -> list[Path]:
    """The README's preview of each shipped die (``carddata/*``, spec800), ``<folder>/die-<id>.png``."""
    from engine.load import load_game

    out: list[Path] = []
    for game in sorted(Path("carddata").iterdir()):
        if (game / "game.yaml").is_file():
            for die in load_game(game).game.dice:
                path = Path(folder) / f"die-{die.id}.png"
                if path not in out:
                    solid, plans, _ = plan_die(die, PROFILES["spec800"])
                    image = render_preview(build_model(solid, plans, PROFILES["spec800"]), solid, path)
                    info = PngInfo()
                    info.add_text(PLAN_KEY, plan_digest(die, plans))
                    with atomic_path(path) as tmp:
                        image.save(tmp, format="PNG", pnginfo=info)
                    out.append(path)
    return out


#: The PNG text key under which a README preview records what it shows (:func:`plan_digest`).
PLAN_KEY = "deckpress-die-plan"


def plan_digest(die: Die, plans) -> str:
    """sha256 (hex) of what a die's preview shows: its shape and size, and per region the numeral,
    its braille cells, underline, numeral size (pt) and where numeral, braille and bar sit (mm,
    rounded to 0.01 mm). The same on every CPU, where the mesh and so the preview's pixels are
    not (manifold3d's floats differ in the last bits between machines)."""
    import hashlib

    parts = [die.id, die.shape, str(die.size)]
    for p in plans:
        boxes = [round(v, 2) + 0.0 for box in (p.pen, p.numeral_box, p.braille_box, p.bar) for v in box]
        parts.append(f"{p.face.value}|{p.face.numeral}|{p.face.cells}|{p.face.underline}|{p.numeral_pt:g}|{boxes}")
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


if __name__ == "__main__":  # .venv/bin/python -m pipeline.dice.output: refresh the README's previews
    print("\n".join(str(p) for p in write_readme_previews()))

"""One game's UV braille plate package for the chosen UV printer profile (README, "UV braille").

Files, in the ``uv/`` folder (``<g>`` = the game id, ``<p>`` = the printer profile id):

- ``<g>-braille.pdf``: the flat plate (every dot once at the base diameter, the clear spot):
  imposition places it on the press sheets, and it is the plate of the ``single`` and
  ``height-map`` profiles;
- ``<g>-plates-<p>.pdf``: the layered plate-only PDF of the ``layer-pages``, ``separations``
  and ``cmyk-layer-pages`` profiles (:mod:`pipeline.render.uv.plates`);
- ``<g>-mask-k100.pdf``: the K=100 mask; ``<g>-underbase.pdf``: the white underbase (only when
  asked: for clear or dark stock);
- ``heightmap/<card>.png``: the 8-bit height map of every card (:mod:`pipeline.render.uv.heightmap`);
- ``<g>-dots.json``: the dot map; ``<g>-uv-ticket.json`` and ``.pdf``: the job ticket.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping, Sequence

from engine.findings import Finding, Location
from engine.units import mm_to_pt
from pipeline.render.pdfx import FOGRA39, OutputCondition
from pipeline.render.tactile import check_spot_name, render_braille_layer, write_dot_map
from pipeline.render.uv.heightmap import write_height_maps
from pipeline.render.uv.plates import render_layer_plates, render_mask, render_underbase
from pipeline.render.uv.printers import UV_PRINTERS, UvPrinter, load_uv_printer
from pipeline.render.uv.stack import DotStack, dot_stack, stack_findings
from pipeline.render.uv.ticket import job_ticket, write_ticket_json, write_ticket_pdf

if TYPE_CHECKING:
    from engine.model import Deck
    from pipeline.braille.layout import BrailleBlock


@dataclass(frozen=True)
class UvPackage:
    """What :func:`write_uv_package` wrote: the flat plate (for imposition), every path, and
    UV003 findings (a layer count outside 1–200: no layered plate, height maps or ticket then);
    ``plates`` the layered plate PDF (None for a flat profile) and ``spot`` the clear spot used."""

    layer: Path
    paths: tuple[Path, ...]
    findings: tuple[Finding, ...]
    plates: Path | None = None
    spot: str = ""


def printer_for(name: str | None, layer_thickness_mm: float | None = None) -> UvPrinter:
    """The named profile (default ``flat-plate``), with the layer thickness replaced when given.

    Raises :class:`~pipeline.render.uv.printers.UvPrinterError` for an unknown name and
    ValueError for a thickness ≤ 0 mm.
    """
    printer = load_uv_printer(name)
    if layer_thickness_mm is None:
        return printer
    if layer_thickness_mm <= 0:
        raise ValueError(f"--layer-thickness must be above 0 mm, not {layer_thickness_mm:g} mm")
    return printer.model_copy(update={"layer_thickness": mm_to_pt(layer_thickness_mm)})


def stacks_for(blocks: Mapping[str, BrailleBlock], printer: UvPrinter) -> tuple[dict[str, DotStack], list[Finding]]:
    """The dot stack per geometry profile the blocks use, and UV003 for a profile whose layer count is out of range."""
    where = Location(str(UV_PRINTERS / f"{printer.id}.yaml"))
    stacks: dict[str, DotStack] = {}
    findings: list[Finding] = []
    for profile in {b.profile.name: b.profile for b in blocks.values()}.values():
        problems = stack_findings(profile.dot_height, printer.layer_thickness_mm, where)
        findings += problems
        if not problems:
            stacks[profile.name] = dot_stack(profile.dot_height, profile.dot_base, printer.layer_thickness_mm)
    return stacks, findings


def write_uv_package(deck: Deck, blocks: Mapping[str, BrailleBlock], card_ids: Sequence[str], folder: str | Path,
                     printer: UvPrinter, spot: str | None = None, papers: Sequence[str] = ("letter",),
                     underbase: bool = False, condition: OutputCondition = FOGRA39,
                     keep_maps: Callable[[str, object], bool] | None = None) -> UvPackage:
    """Write the package (module docs) for ``card_ids`` in the fronts' page order into ``folder``;
    every PDF carries ``condition``'s output intent (the build's printing target). ``keep_maps``:
    which height maps a rebuild keeps (:func:`pipeline.render.uv.heightmap.write_height_maps`).

    ``spot`` is the ``--spot`` request (:meth:`UvPrinter.clear_spot_for`). Raises
    :class:`~pipeline.render.uv.printers.UvPrinterError` for a reserved spot name,
    :class:`~pipeline.render.tactile.TactileError` for an unusable one or a card without a block.
    """
    folder, gid = Path(folder), deck.game.id
    clear = check_spot_name(printer.clear_spot_for(spot))
    if underbase:
        check_spot_name(printer.white_spot)
    stacks, findings = stacks_for(blocks, printer)
    layer = render_braille_layer(blocks, card_ids, folder / f"{gid}-braille.pdf", spot_name=clear, condition=condition)
    paths = [layer, write_dot_map(blocks, folder / f"{gid}-dots.json", spot_name=clear, printer=printer)]
    if findings:
        return UvPackage(layer, tuple(paths), tuple(findings), spot=clear)
    files = {"flat plate (imposed on the press sheets)": layer.name}
    plates = None
    if printer.plate_mode not in ("single", "height-map"):
        plates = render_layer_plates(blocks, card_ids, folder / f"{gid}-plates-{printer.id}.pdf", printer, clear, stacks,
                                     condition=condition)
        paths.append(plates)
        files[f"layered plates for {printer.rip}"] = plates.name
        files["layered plate sheets (build, impose)"] = f"sheets/{gid}-<paper>-plates-{printer.id}.pdf"
    files["composite sheets, CMYK + a separation per layer (build, impose)"] = f"sheets/{gid}-<paper>-composite.pdf"
    paths.append(render_mask(blocks, card_ids, folder / f"{gid}-mask-k100.pdf", condition=condition))
    files["K=100 mask"] = paths[-1].name
    if underbase:
        paths.append(render_underbase(blocks, card_ids, folder / f"{gid}-underbase.pdf", printer.white_spot, condition=condition))
        files["white underbase"] = paths[-1].name
    full_scale = max(s.height_mm for s in stacks.values()) if stacks else 1.0
    paths += write_height_maps(dict(blocks), list(card_ids), folder / "heightmap", printer.height_map_dpi, full_scale, keep=keep_maps)
    files["height maps"] = f"heightmap/<card>.png ({printer.height_map_dpi} dpi, grey 255 = {full_scale:g} mm)"
    files["dot map"] = paths[1].name
    ticket = job_ticket(deck, printer, clear, stacks, files, papers, underbase)
    paths.append(write_ticket_json(ticket, folder / f"{gid}-uv-ticket.json"))
    paths.append(write_ticket_pdf(ticket, folder / f"{gid}-uv-ticket.pdf"))
    return UvPackage(layer, tuple(paths), tuple(findings), plates, clear)

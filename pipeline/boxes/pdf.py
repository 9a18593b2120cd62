"""The files of one tuck box: the print PDF with its dieline, the UV braille plates, the geometry sidecar.

Every page of a box is the flat box: MediaBox = BleedBox = the dieline's bounding box plus
the cards' bleed (0.125 in) on every side, TrimBox = the bounding box. The ground is printed
over the whole bleed, so ink runs at least the bleed past every cut line.

The print PDF (``<game>-box-<id>.pdf``) holds the design (:mod:`pipeline.boxes.face`) and the
die lines: the cut outline stroked in the Separation ``CutContour`` and the folds (dashed) in
``Fold`` (the printing target's ``dieline`` names), 0.25 pt, stroke overprint on, so neither
knocks a hole in the print. Each is marked content of its own ISO 19593-1 structural
optional-content group (``/GTS_ProcStepsGroup /Structural`` with ``/GTS_ProcStepsType
/Cutting`` and ``/Creasing``: folds in card stock are creased by the die), and both groups
are set not to print (``/Usage /Print /PrintState /OFF``; PDF/X-4, ISO 15930-7, forbids the
``/AS`` auto-state that would make every viewer apply it, so it is the usage alone): a RIP that
knows them sends them to the cutter, a viewer that honours print usage (PDFium) leaves them out.
Optional content needs PDF 1.5, so the file is finished as PDF/X-4 with the target's output
intent and its ICC profile embedded (:func:`pipeline.render.pdfx.finish`, which checks it).

The braille plate (``<game>-box-<id>-braille.pdf``) is the cards' plate made the same way
(:func:`pipeline.render.uv.plates.draw_pages`: vector circles at the geometry's base
diameter, the clear spot, overprint, ISO 19593-1 Braille group); for a layered UV printer
profile, ``-plates-<printer>.pdf`` holds its layers too. ``-print+braille.pdf`` is the print
PDF with the flat plate merged (:func:`pipeline.render.tactile.merge_spot_plate`).
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path

import pikepdf
from pikepdf import Array, Dictionary, Name, String
from reportlab.lib.colors import CMYKColorSep
from reportlab.pdfgen.canvas import Canvas

from engine.findings import Finding, Location
from engine.units import mm_to_pt, pt_to_mm
from pipeline.boxes.face import draw_box
from pipeline.boxes.geometry import nearest_distances, nearest_line, rect_crosses
from pipeline.boxes.plan import BRAILLE_NEAR_FOLD, QR_CROSSES_FOLD, BoxPlan, notch_depth
from pipeline.braille.geometry import Dot, dot_centres
from pipeline.common.files import write_text
from pipeline.common.layout import CardLayout, TrimSize
from pipeline.render.pdfx import FOGRA39, OutputCondition, finish
from pipeline.render.targets import PrintTarget, output_condition
from pipeline.render.tactile import check_spot_name, merge_spot_plate, spot_colour, to_pdf
from pipeline.render.uv.ocg import BRAILLE, register_ocgs
from pipeline.render.uv.plates import K100, Disc, draw_pages, layer_spot_name
from pipeline.render.uv.printers import UV_PRINTERS, UvPrinter
from pipeline.render.uv.stack import dot_stack, stack_findings

#: Stroke weight of the die lines, pt (a hairline the cutter follows; it never prints).
DIE_LINE_PT = 0.25
#: Dash of the fold lines, pt: on 3, off 2 (the usual dieline convention for creases).
FOLD_DASH = (3, 2)
#: Alternates of the die spots for viewers: cut 100 % magenta, fold 100 % cyan.
CUT_ALTERNATE, FOLD_ALTERNATE = (0.0, 1.0, 0.0, 0.0), (1.0, 0.0, 0.0, 0.0)
#: The resource names and ISO 19593-1 structural types of the two die-line groups.
STRUCTURAL = {"/DeckpressCut": "Cutting", "/DeckpressFold": "Creasing"}


@dataclass(frozen=True)
class BoxFiles:
    """What :func:`write_box` wrote for one box: the print PDF, the flat braille plate, every path, findings."""

    print_pdf: Path
    plate: Path
    paths: tuple[Path, ...]
    findings: tuple[Finding, ...]


def box_layout(plan: BoxPlan, bleed_pt: float) -> CardLayout:
    """A :class:`CardLayout` whose trim is the flat box (pt), for the plate writers' page boxes and coordinates."""
    w, h = (mm_to_pt(v) for v in plan.dieline.size)
    return CardLayout.model_construct(name=f"box-{plan.box_id}", trim=TrimSize.model_construct(width=w, height=h),
                                      bleed=bleed_pt, safe_inset=0.0, critical_inset=0.0, boxes={})


def box_dots(plan: BoxPlan) -> list[Dot]:
    """Every braille dot of the box (front panel, then the lid when it has braille), mm from the trim's top-left.

    The lid hangs from the back's top edge, so its braille is turned half round about the lid's centre:
    it reads from the front of the folded box, like the front's (the lid zone is symmetric, so it stays inside).
    """
    out: list[Dot] = []
    if plan.braille_front is not None:
        out += dot_centres(list(plan.braille_front[0]), plan.profile, plan.braille_front[1])
    if plan.braille_lid is not None:
        cx, cy = plan.dieline.panels["top-lid"].centre
        out += [Dot(2 * cx - d.x, 2 * cy - d.y, d.line, d.cell, d.dot)
                for d in dot_centres(list(plan.braille_lid[0]), plan.profile, plan.braille_lid[1])]
    return out


def check_box(plan: BoxPlan) -> list[Finding]:
    """BX004 when a dot's edge comes within one cell pitch of a fold or cut line; BX005 when the QR box
    (its quiet zone included) touches one. Located at the box's definition."""
    line = plan.dieline
    segments = list(line.folds) + line.cut_segments()
    out: list[Finding] = []
    r, cell = plan.profile.dot_radius, plan.profile.cell_pitch
    dots = box_dots(plan)
    if dots:
        distances = nearest_distances([(d.x, d.y) for d in dots], segments)
        at = min(range(len(dots)), key=distances.__getitem__)  # the first nearest dot, as min() over the dots picks
        nearest = dots[at]
        gap = nearest_line((nearest.x, nearest.y), segments) - r
        if gap < cell - 1e-6:
            out.append(BRAILLE_NEAR_FOLD.finding(
                f"box {plan.box_id!r}: a braille dot at ({nearest.x:.1f}, {nearest.y:.1f}) mm is {gap:.2f} mm from a fold or cut line, "
                f"less than one cell ({cell:g} mm)", plan.spec.where(), "move the braille further onto the panel"))
    if rect_crosses(plan.qr, segments):
        out.append(QR_CROSSES_FOLD.finding(
            f"box {plan.box_id!r}: the QR code's quiet zone ({plan.qr.w:g} mm square at {plan.qr.x:.1f}, {plan.qr.y:.1f} mm) "
            "crosses a fold or cut line", plan.spec.where(), "the back panel must be wider and taller than the QR box"))
    return out


def _die_lines(canvas: Canvas, plan: BoxPlan, layout: CardLayout, target: PrintTarget) -> None:
    """Stroke the cut outline and the folds in their spots, each as marked content of its structural group."""
    line = plan.dieline
    for prop, spot, alternate, paths in (
            ("/DeckpressCut", target.dieline.cut, CUT_ALTERNATE, [list(line.cut) + [line.cut[0]]]),
            ("/DeckpressFold", target.dieline.fold, FOLD_ALTERNATE, [[a, b] for a, b in line.folds])):
        canvas.addLiteral(f"/OC {prop} BDC")
        canvas.saveState()
        canvas.setStrokeOverprint(True)
        canvas.setOverprintMask(True)
        canvas.setStrokeColor(CMYKColorSep(*alternate, spotName=check_spot_name(spot)))
        canvas.setLineWidth(DIE_LINE_PT)
        canvas.setLineJoin(1)
        if prop == "/DeckpressFold":
            canvas.setDash(list(FOLD_DASH), 0)
        path = canvas.beginPath()
        for points in paths:
            path.moveTo(*to_pdf(*points[0], layout))
            for p in points[1:]:
                path.lineTo(*to_pdf(*p, layout))
        canvas.drawPath(path, stroke=1, fill=0)
        canvas.restoreState()
        canvas.addLiteral("EMC")


def structural_ocgs(data: bytes, names: dict[str, str]) -> bytes:
    """Give the page the two structural OCGs behind its ``/DeckpressCut`` and ``/DeckpressFold`` marks
    (named after their spots in ``names``), list them in ``/OCProperties`` and keep them out of print."""
    pdf = pikepdf.open(io.BytesIO(data))
    page = pdf.pages[0].obj
    props = page.Resources.get("/Properties")
    if props is None:
        page.Resources.Properties = props = Dictionary()
    ocgs = []
    for prop, kind in STRUCTURAL.items():
        ocg = pdf.make_indirect(Dictionary(
            Type=Name.OCG, Name=String(names[prop]),
            GTS_Metadata=Dictionary(GTS_ProcStepsGroup=Name.Structural, GTS_ProcStepsType=Name("/" + kind)),
            Usage=Dictionary(Print=Dictionary(PrintState=Name.OFF), View=Dictionary(ViewState=Name.ON)),
        ))
        props[prop] = ocg
        ocgs.append(ocg)
    register_ocgs(pdf)  # no /AS auto-state: PDF/X-4 forbids it, the Usage alone says "not printed"
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def write_print_pdf(plan: BoxPlan, path: Path, target: PrintTarget, bleed_pt: float, game_title: str) -> tuple[Path, list[Finding]]:
    """The box's print PDF (module docs); returns its path and the design's BX002/BX006 findings."""
    from pipeline.render.fonts import face

    layout = box_layout(plan, bleed_pt)
    w, h = layout.trim.width + 2 * bleed_pt, layout.trim.height + 2 * bleed_pt
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=face("regular").name)
    canvas.setTitle(f"{game_title}: {plan.name} tuck box")
    canvas.setBleedBox((0, 0, w, h))
    canvas.setTrimBox((bleed_pt, bleed_pt, bleed_pt + layout.trim.width, bleed_pt + layout.trim.height))
    findings = draw_box(canvas, plan, bleed_pt, notch_depth(plan.dieline), target)
    _die_lines(canvas, plan, layout, target)
    canvas.showPage()
    canvas.save()
    data = structural_ocgs(buf.getvalue(), {"/DeckpressCut": target.dieline.cut, "/DeckpressFold": target.dieline.fold})
    finish(data, path, f"{game_title}: {plan.name} tuck box", [plan.box_id],
           subject=f"flat tuck box, {plan.cards} cards; die lines {target.dieline.cut} and {target.dieline.fold} (not printed)",
           condition=output_condition(target))
    return path, findings


def write_plates(plan: BoxPlan, folder: Path, stem: str, printer: UvPrinter, spot: str, bleed_pt: float,
                 condition: OutputCondition = FOGRA39) -> tuple[list[Path], list[Finding]]:
    """The flat braille plate and, for a layered printer profile, its layer plates (module docs), with
    ``condition``'s output intent; Mimaki's CMYK layer pages carry no OCG (as the cards' plates)."""
    layout = box_layout(plan, bleed_pt)
    dots = tuple(box_dots(plan))
    profile = plan.profile
    flat = draw_pages([(plan.box_id, [Disc(spot_colour(spot), profile.dot_base, dots)])], folder / f"{stem}-braille.pdf",
                      f"UV braille plate of the {plan.name} tuck box, spot colour {spot}",
                      "braille dots of the flat box, registered with its print PDF", layout=layout, condition=condition)
    paths = [flat]
    findings = stack_findings(profile.dot_height, printer.layer_thickness_mm, Location(str(UV_PRINTERS / f"{printer.id}.yaml")))
    if findings or printer.plate_mode in ("single", "height-map"):
        return paths, findings
    layers = list(enumerate(dot_stack(profile.dot_height, profile.dot_base, printer.layer_thickness_mm).diameters_mm, 1))
    if printer.plate_mode == "separations":
        pages = [(plan.box_id, [Disc(spot_colour(layer_spot_name(spot, k)), d, dots) for k, d in layers])]
    else:
        colour = K100 if printer.plate_mode == "cmyk-layer-pages" else spot_colour(spot)
        pages = [(f"{plan.box_id} L{k:02d}", [Disc(colour, d, dots)]) for k, d in layers]
    paths.append(draw_pages(pages, folder / f"{stem}-plates-{printer.id}.pdf", f"UV braille plates of the {plan.name} tuck box for {printer.name}",
                            f"braille dot layers ({printer.plate_mode}), bottom layer first; {printer.rip}", layout=layout,
                            group=None if printer.plate_mode == "cmyk-layer-pages" else BRAILLE, condition=condition))
    return paths, findings


def geometry_sidecar(plan: BoxPlan, caliper_mm: float, clearance_mm: float, bleed_pt: float, target: PrintTarget) -> dict:
    """The box's geometry as JSON-ready data: inside size, how it was reckoned, flat size, panels, folds, braille, QR (mm)."""
    line = plan.dieline
    rnd = lambda v: round(v, 3) + 0.0  # noqa: E731
    return {
        "box": plan.box_id, "name": plan.name, "cards": plan.cards, "units": "mm from the trim's top-left, x right, y down",
        "inside": {"width": rnd(line.width), "height": rnd(line.height), "depth": rnd(line.depth)},
        "reckoning": {"caliper": caliper_mm, "clearance": clearance_mm,
                      "depth": f"{plan.cards} cards x {caliper_mm:g} mm + {clearance_mm:g} mm"},
        "flat": {"width": rnd(line.size[0]), "height": rnd(line.size[1]), "bleed": rnd(pt_to_mm(bleed_pt))},
        "spots": {"cut": target.dieline.cut, "fold": target.dieline.fold},
        "panels": {k: [rnd(r.x), rnd(r.y), rnd(r.w), rnd(r.h)] for k, r in line.panels.items()},
        "folds": [[[rnd(a[0]), rnd(a[1])], [rnd(b[0]), rnd(b[1])]] for a, b in line.folds],
        "braille": {"profile": plan.profile.name, "front": list(plan.braille_front[0]) if plan.braille_front else None,
                    "lid": list(plan.braille_lid[0]) if plan.braille_lid else None, "dots": len(box_dots(plan))},
        "qr": {"url": plan.url, "box": [rnd(plan.qr.x), rnd(plan.qr.y), rnd(plan.qr.w), rnd(plan.qr.h)]},
    }


def write_box(plan: BoxPlan, folder: Path, game_id: str, target: PrintTarget, printer: UvPrinter, spot: str,
              bleed_pt: float, game_title: str, caliper_mm: float, clearance_mm: float) -> BoxFiles:
    """Every file of one box into ``folder`` (module docs), named ``<game>-box-<id>…``; returns :class:`BoxFiles`."""
    stem = f"{game_id}-box-{plan.box_id}"
    print_pdf, findings = write_print_pdf(plan, folder / f"{stem}.pdf", target, bleed_pt, game_title)
    condition = output_condition(target)
    plates, plate_findings = write_plates(plan, folder, stem, printer, spot, bleed_pt, condition)
    merged = merge_spot_plate(print_pdf, plates[0], folder / f"{stem}-print+braille.pdf", condition=condition,
                              what="the flat tuck box")
    sidecar = write_text(folder / f"{stem}.json", json.dumps(geometry_sidecar(plan, caliper_mm, clearance_mm, bleed_pt, target),
                                                             indent=1, ensure_ascii=False) + "\n")
    return BoxFiles(print_pdf, plates[0], (print_pdf, *plates, merged, sidecar), tuple(findings + plate_findings + check_box(plan)))

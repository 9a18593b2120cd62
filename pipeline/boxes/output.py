"""A game's boxes folder: every box's files, the boxes imposed on the press sheets, and the PNG proofs.

``output/<game>/boxes/``::

    <game>-box-<id>.pdf                  the flat box to print: design, CutContour and Fold lines (PDF/X-4: the die lines are optional content)
    <game>-box-<id>-braille.pdf          its UV braille plate (+ -plates-<printer>.pdf for a layered printer)
    <game>-box-<id>-print+braille.pdf    the print PDF with the braille plate merged as a spot plate
    <game>-box-<id>.json                 geometry: inside size and how it was reckoned, panels, folds, braille, QR
    <game>-box-<id>-flat.png             proof of the flat box (print, die lines, braille in magenta; :mod:`pipeline.boxes.proof`)
    <game>-box-<id>-front.png            proof of the folded box: the front, the right side and the top lid in oblique view
    sheets/<game>-boxes-<paper>.pdf      the boxes imposed on each press sheet they fit, as many a sheet as fit
    sheets/<game>-boxes-<paper>-braille.pdf   their braille plates, imposed the same way

A box that fits none of the game's press sheets gets ``sheets/<game>-boxes-<w>x<h>mm.pdf``:
one box a sheet, the box plus the sheet margin on every side.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pikepdf
from reportlab.pdfgen.canvas import Canvas
from pikepdf import Array, Name

from engine.findings import Finding, Location, Severity
from engine.model import Deck
from engine.registry import declare
from engine.units import mm_to_pt, pt_to_mm
from pipeline.boxes.face import draw_box
from pipeline.boxes.pdf import BoxFiles, check_box, write_box
from pipeline.boxes.plan import BoxDeck, BoxPlan, notch_depth, plan_boxes
from pipeline.boxes.proof import write_proofs
from pipeline.braille.geometry import GeometryProfile
from pipeline.qr.codes import decode_qr
from pipeline.render.pdfx import finish
from pipeline.render.sheets import get_sheet
from pipeline.render.targets import PrintTarget, output_condition
from pipeline.render.uv.ocg import register_ocgs
from pipeline.render.uv.printers import UvPrinter

QR_NO_DECODE = declare(
    "BX007",
    "box-qr-no-decode",
    Severity.error,
    """A box's quickstart QR code does not decode at 300 dpi (zxing-cpp) to the archive's quickstart page URL.

    Fails: a QR drawn over by other print, or a URL too long for the 30 mm box.
    Passes: the shipped boxes: each decodes to ``<archive base_url>quickstart.html``.
    """,
)

@dataclass(frozen=True)
class BoxesResult:
    """What :func:`write_boxes` wrote: every path, the box files by box id, the findings."""

    paths: tuple[Path, ...]
    boxes: dict[str, BoxFiles]
    findings: tuple[Finding, ...]


def sheet_fit(sheet_w: float, sheet_h: float, margin: float, box_w: float, box_h: float) -> tuple[int, int]:
    """``(columns, rows)`` of bled boxes (pt) that fit a sheet (pt) inside its margin, bleeds touching."""
    cols = math.floor((sheet_w - 2 * margin) / box_w + 1e-9)
    rows = math.floor((sheet_h - 2 * margin) / box_h + 1e-9)
    return max(cols, 0), max(rows, 0)


def impose_boxes(prints: Sequence[Path], labels: Sequence[str], size: tuple[float, float], margin: float, path: Path,
                 title: str, target: PrintTarget) -> Path | None:
    """The print PDFs (one page each, all one size) imposed on sheets of ``size`` pt, as many a sheet as
    fit inside ``margin``, centred; None when none fits. Each sheet is PDF/X-4 like the boxes (its die
    lines keep their structural groups, still set not to print)."""
    sources = [pikepdf.open(p) for p in prints]
    first = sources[0].pages[0].mediabox
    box_w, box_h = float(first[2]) - float(first[0]), float(first[3]) - float(first[1])
    cols, rows = sheet_fit(size[0], size[1], margin, box_w, box_h)
    if cols * rows == 0:
        return None
    out = pikepdf.new()
    x0 = (size[0] - cols * box_w) / 2
    y_top = (size[1] + rows * box_h) / 2
    per_sheet = cols * rows
    sheet_labels = []
    for start in range(0, len(sources), per_sheet):
        page = out.add_blank_page(page_size=size)
        page.obj.TrimBox = page.obj.BleedBox = Array([0, 0, size[0], size[1]])
        for slot, src in enumerate(sources[start:start + per_sheet]):
            col, row = slot % cols, slot // cols
            x, y = x0 + col * box_w, y_top - (row + 1) * box_h
            _place(page, src.pages[0], f"/Box{slot + 1}", pikepdf.Rectangle(x, y, x + box_w, y + box_h))
        sheet_labels.append(" + ".join(labels[start:start + per_sheet]))
    for key in (Name.CreationDate, Name.ModDate):  # the boxes' own (reportlab's, fixed in invariant mode)
        out.docinfo[key] = sources[0].docinfo[key]
    register_ocgs(out)  # the die lines' groups keep their Usage (not printed); PDF/X-4 allows no /AS
    buf = io.BytesIO()
    out.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return finish(buf.getvalue(), path, title, sheet_labels, subject="tuck boxes imposed for printing and die cutting",
                  condition=output_condition(target))


def _place(page: pikepdf.Page, box: pikepdf.Page, name: str, rect: pikepdf.Rectangle) -> None:
    """Paint ``box`` (a page of another PDF) on ``page`` as a Form XObject named ``name``, fitted to
    ``rect`` (pt): pikepdf's ``add_overlay`` with a fixed name, since it names the XObject at random
    (``Name.random``), which made two builds of the same boxes differ in their bytes."""
    form = box.as_form_xobject()
    placed = page.add_resource(form, Name.XObject, Name(name))
    page.contents_add(b"q\n", prepend=True)
    page.contents_add(b"Q\n")
    page.contents_add(page.calc_form_xobject_placement(form, placed, rect))
    page.contents_coalesce()


def write_sheets(deck: Deck | BoxDeck, files: Sequence[BoxFiles], labels: Sequence[str], folder: Path, papers: Sequence[str],
                 target: PrintTarget) -> list[Path]:
    """Impose the boxes (grouped by flat size) on every paper they fit; one a sheet of a fitting size when none does."""
    gid, written = deck.game.id, []
    groups: dict[tuple[int, int], list[int]] = {}
    exact: dict[tuple[int, int], tuple[float, float]] = {}  # a group's flat size in pt, unrounded
    for i, f in enumerate(files):
        with pikepdf.open(f.print_pdf) as pdf:
            box = pdf.pages[0].mediabox
            key = (round(float(box[2])), round(float(box[3])))
            groups.setdefault(key, []).append(i)
            exact.setdefault(key, (float(box[2]) - float(box[0]), float(box[3]) - float(box[1])))
    for key, members in groups.items():
        w, h = exact[key]  # a sheet of the box's own size must hold the box, not its size rounded down
        names = [labels[i] for i in members]
        suffix = "" if len(groups) == 1 else f"-{'-'.join(names)}"
        sizes = [(paper, (get_sheet(paper).width, get_sheet(paper).height), get_sheet(paper).margin) for paper in papers]
        if not any(min(sheet_fit(*size, margin, w, h)) for _, size, margin in sizes):
            margin = sizes[0][2] if sizes else mm_to_pt(6.35)
            size = (w + 2 * margin, h + 2 * margin)
            sizes = [(f"{round(pt_to_mm(size[0]))}x{round(pt_to_mm(size[1]))}mm", size, margin)]
        for paper, size, margin in sizes:
            for kind, paths in (("", [files[i].print_pdf for i in members]), ("-braille", [files[i].plate for i in members])):
                written.append(impose_boxes(paths, names, size, margin, folder / f"{gid}-boxes-{paper}{suffix}{kind}.pdf",
                                            f"{deck.game.title}: tuck boxes{' (UV braille plate)' if kind else ''} on {paper}", target))
    return [p for p in written if p is not None]


def qr_box_pt(plan: BoxPlan, bleed_pt: float) -> tuple[float, float, float, float]:
    """The box's QR box (quiet zone included) as PDF ``(x, y, w, h)`` pt on its page."""
    qr, height = plan.qr, plan.dieline.size[1]
    return (bleed_pt + mm_to_pt(qr.x), bleed_pt + mm_to_pt(height - qr.y - qr.h), mm_to_pt(qr.w), mm_to_pt(qr.h))


def verify_box_qr(plan: BoxPlan, print_pdf: Path, bleed_pt: float, dpi: int = 300) -> list[Finding]:
    """BX007 unless the QR box of ``print_pdf`` decodes at ``dpi`` to exactly the box's quickstart URL."""
    texts = decode_qr(print_pdf, 0, qr_box_pt(plan, bleed_pt), dpi)
    if texts == [plan.url]:
        return []
    got = ", ".join(repr(t) for t in texts) or "nothing"
    return [QR_NO_DECODE.finding(f"box {plan.box_id!r}: the QR decodes at {dpi} dpi to {got}, expected {plan.url!r}",
                                 Location(str(print_pdf)), "keep the QR box clear of other print")]


def box_findings(deck: Deck | BoxDeck, profile: GeometryProfile, target: PrintTarget) -> list[Finding]:
    """The boxes' findings without writing a file, for ``deckpress check``: the plan's (BX003,
    BX008), the print drawn onto a throwaway page (BX002, BX006) and the die-line checks (BX004,
    BX005); BX007 (the QR read back from a raster) only the build gives."""
    plans, findings = plan_boxes(deck, profile)
    for plan in plans:
        findings += draw_box(Canvas(io.BytesIO()), plan, deck.game.card.bleed, notch_depth(plan.dieline), target)
        findings += check_box(plan)
    return findings


def write_boxes(deck: Deck | BoxDeck, folder: Path, profile: GeometryProfile, target: PrintTarget, printer: UvPrinter,
                spot: str, papers: Sequence[str]) -> BoxesResult:
    """Every box of the game's ``packaging`` into ``folder`` (module docs). A game without packaging writes nothing."""
    plans, findings = plan_boxes(deck, profile)
    packaging = deck.game.packaging
    if not plans or packaging is None:
        return BoxesResult((), {}, tuple(findings))
    caliper, clearance = pt_to_mm(packaging.caliper), pt_to_mm(packaging.clearance)
    paths: list[Path] = []
    boxes: dict[str, BoxFiles] = {}
    for plan in plans:
        files = write_box(plan, folder, deck.game.id, target, printer, spot, deck.game.card.bleed, deck.game.title, caliper, clearance)
        boxes[plan.box_id] = files
        paths += files.paths
        merged = next(p for p in files.paths if p.name.endswith("-print+braille.pdf"))
        paths += write_proofs(plan, merged, folder, f"{deck.game.id}-box-{plan.box_id}")
        findings += list(files.findings) + verify_box_qr(plan, files.print_pdf, deck.game.card.bleed)
    paths += write_sheets(deck, list(boxes.values()), list(boxes), folder / "sheets", papers, target)
    return BoxesResult(tuple(paths), boxes, tuple(findings))

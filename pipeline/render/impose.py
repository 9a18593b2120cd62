"""Imposition: card pages many-up on press sheets with crop marks, duplex backs and the braille plate.

Inputs are the print PDFs (fronts: one page per unique card; backs: one page per card back),
optionally the UV braille layer (page for page with the fronts), a sheet preset and the
copies to print. Outputs, in ``out_dir``:

- ``<game>-<sheet>-fronts.pdf``, ``-backs.pdf``, ``-braille.pdf``: one page per press sheet; the
  braille sheets carry the flat plate at the fronts' positions (the layered plate and composite
  sheets of the UV printer profile: :mod:`pipeline.render.uv.sheets`);
- ``<game>-<sheet>-duplex-calibration.pdf``: a two-page (front, back) sheet of cross-hairs, the
  back's numbered in mm, with printed instructions (a third page when they do not fit,
  :mod:`pipeline.render.calibration`);
- ``<game>-<sheet>-imposition.json``: every placed card's trim box on each sheet (pt).

How a card is placed: each unique source page becomes one Form XObject of the sheets' file
(its content stored once however many copies print) whose BBox is the source's BleedBox,
painted per slot with a translation (``q 1 0 0 1 tx ty cm /Front3 Do Q``,
:meth:`pipeline.render.formpages.CardPages.paint`, pikepdf/qpdf). The BBox clips the form, so
the whole bleed travels with the card and nothing beyond it spills onto a neighbour.
Each file is made inside its card PDF (:meth:`~pipeline.render.formpages.CardPages.adopt`), its forms once.

Marks (crop marks, registration targets, slug) are drawn with reportlab first, once per file and side
(:mod:`pipeline.render.markpages`), and the cards painted after them (on top), in slot order; marks
stay outside every bleed (see :mod:`pipeline.render.marks`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pikepdf
from pikepdf import Dictionary, String

from engine.backs import back_id
from engine.findings import Finding, Location, Severity
from engine.registry import declare
from engine.units import pt_to_mm
from pipeline.common.files import write_bytes, write_text
from pipeline.render import marks
from pipeline.render.backoffset import BACK_OFF_ITS_CARD, off_card  # noqa: F401 (IM006, re-exported)
from pipeline.render.calibration import SCALE_MM, write_calibration
from pipeline.render.marks import MARK_SHORTENED  # noqa: F401 (declared with the marks; re-exported)
from pipeline.render.markpages import add_pages, marks_document
from pipeline.render.cardsources import read_sources
from pipeline.render.formpages import CardPages, PageBoxes, StaleCardPdfError, add_xobjects, check_page_ids, page_labels, save_bytes  # noqa: F401 (re-exported)
from pipeline.render.pdfx import FOGRA39, OutputCondition, PdfxError, finish
from pipeline.render.sheets import Grid, ImpositionError, Rect, SheetSpec, get_sheet, plan_grid
from pipeline.render.uv.ocg import register_ocgs

PAGE_MISMATCH = declare(
    "IM002",
    "card-page-mismatch",
    Severity.error,
    """A card page's bled size or trim differs from the first front page, so it would not line up on the sheet.

    Backs and braille pages must have exactly the fronts' BleedBox and TrimBox, or the
    back or the UV dots land off the card.

    Fails: a backs PDF of 3.5 × 5.5 in pages imposed with 3 × 5 in fronts.
    Passes: fronts, backs and braille layer all 234 × 378 pt with TrimBox [9 9 225 369].
    """,
)
NO_TRIM_BOX = declare(
    "IM003",
    "card-page-without-trim-box",
    Severity.warning,
    """A card page has no TrimBox, so the crop marks are placed at its BleedBox (or MediaBox) instead.

    Fails: a fronts PDF written without page boxes (reportlab's defaults).
    Passes: a fronts PDF whose pages carry ``/TrimBox [9 9 225 369]``.
    """,
)
NOT_PDFX = declare(
    "IM004",
    "sheets-not-pdfx",
    Severity.warning,
    """The imposed sheets cannot be PDF/X (X-1a:2003; X-4 for braille) because the card pages are not (an unembedded font, RGB …).

    They are written anyway, without the PDF/X claim; a print shop's preflight would reject them.

    Fails: fronts drawn by a tool that references Helvetica without embedding it.
    Passes: the PDF/X-1a print PDFs of ``deckpress render``.
    """,
)

LARGE_BACK_OFFSET = declare(
    "IM005",
    "large-back-offset",
    Severity.warning,
    """The back offset is larger than 5 mm on one axis: probably a typo (a sign, or cm for mm).

    The calibration sheet's scale reads ±5 mm; a press that misregisters more than that
    has a feed or flip problem an offset should not hide, and a large offset pushes the
    back's crop marks off the sheet.

    Fails: ``--back-offset 15mm,0mm`` (meant 1.5 mm).
    Passes: ``--back-offset 1.5mm,-0.5mm``.
    """,
)
#: Back offset beyond which IM005 warns, mm on either axis: the calibration scale's reach.
LARGE_OFFSET_MM = float(SCALE_MM)
#: Info dates of the sheet PDFs, fixed so the same input gives byte-identical files
#: (the value reportlab writes in invariant mode).
FIXED_DATE = "D:20000101000000+00'00'"


@dataclass(frozen=True)
class Placement:
    """One card face on a sheet: ``sheet`` (1-based), ``slot`` (reading order), source page indices and trims (pt)."""

    sheet: int
    slot: int
    front_page: int
    back_page: int
    front_trim: Rect
    back_trim: Rect


@dataclass(frozen=True)
class ImposeResult:
    """What :func:`impose` wrote and where every card went: ``sheets`` press sheets (per side), ``faces``
    cards printed, ``backs``/``braille`` None when no such PDF was given, the ``grid`` they follow."""

    sheet: str
    orientation: str
    cols: int
    rows: int
    sheets: int
    faces: int
    fronts: Path
    backs: Path | None
    braille: Path | None
    calibration: Path
    imposition_map: Path
    placements: tuple[Placement, ...]
    findings: tuple[Finding, ...]
    grid: Grid | None = None

    @property
    def per_sheet(self) -> int:
        """Card slots per sheet."""
        return self.cols * self.rows

    @property
    def paths(self) -> tuple[Path, ...]:
        """Every file written."""
        return tuple(p for p in (self.fronts, self.backs, self.braille, self.calibration, self.imposition_map) if p is not None)


def deck_copies(deck, front_pages: Sequence[str], back_pages: Sequence[str]) -> list[tuple[int, int, int]]:
    """``(front_page_index, back_page_index, copies)`` for every card of ``deck`` in deck order.

    ``front_pages`` are card ids per fronts page, ``back_pages`` back ids per backs page
    (``PrintResult.pages`` of the print stage); each front's back is its card's back
    (:func:`engine.backs.back_id`: its class's, its deck's or the game's common back). Raises
    :class:`pipeline.render.deck_pdf.UnknownClassError` for a card whose class the game
    lacks (a data error) and :class:`ImpositionError` for a card whose page is missing.
    """
    from pipeline.render.deck_pdf import UnknownClassError

    fronts = {cid: i for i, cid in enumerate(front_pages)}
    backs = {cls: i for i, cls in enumerate(back_pages)}
    out = []
    for card in deck.cards:
        if deck.game.class_by_id(card.class_id) is None:
            raise UnknownClassError(f"{card.where('class_id')}: card {card.id!r} names class {card.class_id!r}, not in the game "
                                    f"(classes: {', '.join(c.id for c in deck.game.classes)})")
        if card.id not in fronts:
            raise ImpositionError(f"card {card.id!r} has no page in the fronts PDF")
        back = back_id(deck.game, card)
        if back_pages and back not in backs:
            raise ImpositionError(f"back {back!r} of card {card.id!r} has no page in the backs PDF")
        out.append((fronts[card.id], backs.get(back, 0), card.copies))
    return out


def _slug(game_id: str, grid: Grid, side: str, number: int, count: int, note: str = "") -> str:
    text = f"{note + ' · ' if note else ''}{game_id} · sheet {number}/{count} · {side} · {grid.spec.name} {grid.orientation}"
    if side == "back":
        off = grid.spec.back_offset
        text += f" · {grid.spec.flip} flip · back offset {pt_to_mm(off.dx):+.2f}, {pt_to_mm(off.dy):+.2f} mm"
    return text


def _write_side(path: Path, grid: Grid, side: str, source: CardPages, faces: list[int], game_id: str, font: str,
                note: str = "", condition: OutputCondition = FOGRA39) -> list[Finding]:
    """Impose ``faces`` (source page index per card, in order) for one side (:func:`write_sheet_pages`)."""
    count = grid.sheets_for(len(faces))
    return write_sheet_pages(path, grid, side, source, [faces[n * grid.per_sheet:(n + 1) * grid.per_sheet] for n in range(count)],
                             [_slug(game_id, grid, side, n, count, note) for n in range(1, count + 1)],
                             [f"sheet {n} {side}" for n in range(1, count + 1)], f"{game_id} {side} sheets ({grid.spec.name})", font,
                             condition)


def write_sheet_pages(path: Path, grid: Grid, side: str, source: CardPages, sheets: Sequence[Sequence[int | None]],
                      slugs: Sequence[str], labels: Sequence[str], title: str, font: str,
                      condition: OutputCondition = FOGRA39) -> list[Finding]:
    """One press-sheet page per entry of ``sheets`` (source page index per slot, None: empty) with
    ``side``'s marks, a slug and a label per page, finished PDF/X (:func:`~pipeline.render.pdfx.finish`:
    X-4 when the cards carry the braille OCG; ``condition``'s output intent); sources that break PDF/X: written as they are, IM004;
    IM007 for a slug that found no room (:func:`pipeline.render.marks.slug_findings`)."""
    try:
        with _compose_sheets(grid, side, source, sheets, slugs, font, source.adopt) as pdf:  # the cards' streams stay in their file
            finish(pdf, path, title, list(labels), condition=condition)  # no save and re-parse between
    except PdfxError as exc:
        source.release()  # finish() has already put the PDF/X keys into the first one; made as before, copied into the marks' PDF
        with _compose_sheets(grid, side, source, sheets, slugs, font, lambda marks: marks) as pdf:
            write_bytes(path, save_bytes(pdf))
        return [NOT_PDFX.finding(f"the {side} sheets {path.name} are not PDF/X: {exc}", Location(str(source.path)), "impose the PDF/X print PDFs deckpress renders, or preflight these sheets")]
    finally:
        source.release()  # the sheets and their copies of the forms are freed here, not at the next output
    return marks.slug_findings(grid, side, slugs, font, str(path))


def _compose_sheets(grid: Grid, side: str, source: CardPages, sheets: Sequence[Sequence[int | None]],
                    slugs: Sequence[str], font: str, into) -> pikepdf.Pdf:
    """The sheet pages of :func:`write_sheet_pages` before finishing: the marks (their PDF given to ``into``,
    :meth:`CardPages.adopt` or as it is), each slot's card painted as its Form XObject, the cards' braille OCG registered.
    Each page is made once, in the PDF ``into`` gives (:func:`~pipeline.render.markpages.add_pages`), its content one
    stream: the marks inside ``q … Q``, then the cards (what :func:`~pipeline.render.formpages.set_content` made)."""
    marks, contents = marks_document(grid, side, slugs, font)
    pdf = into(marks)
    bleds = [grid.side_bled(side, slot) for slot in range(grid.per_sheet)]
    painted = []
    for faces in sheets:
        slots = [(index, bleds[slot].x0 - source.boxes[index].bleed.x0, bleds[slot].y0 - source.boxes[index].bleed.y0)
                 for slot, index in enumerate(faces) if index is not None]
        painted.append(source.place(pdf, slots))
    pages = add_pages(pdf, [b"q\n" + marks_ops + b"\nQ\n" + cards for marks_ops, (cards, _) in zip(contents, painted)])
    for page, (_, forms) in zip(pages, painted):
        add_xobjects(page, forms)
    pdf.docinfo = pdf.make_indirect(Dictionary(Producer=String("pikepdf"), CreationDate=String(FIXED_DATE),
                                               ModDate=String(FIXED_DATE)))
    register_ocgs(pdf)
    return pdf


def _check_pages(source: CardPages, reference: PageBoxes, used: set[int], findings: list[Finding]) -> None:
    for i in sorted(used):
        boxes = source.boxes[i]
        where = Location(str(source.path))
        if not boxes.has_trim:
            findings.append(NO_TRIM_BOX.finding(f"page {i + 1} of the {source.role} PDF has no TrimBox", where,
                                                "write the TrimBox explicitly (DESIGN.md §4)"))
        if not boxes.same_as(reference):
            b = boxes.bleed
            findings.append(PAGE_MISMATCH.finding(
                f"page {i + 1} of the {source.role} PDF is {b.width:.2f} × {b.height:.2f} pt bled with trim inset "
                f"{[round(v, 2) for v in boxes.trim_inset]}, the fronts {reference.bleed.width:.2f} × "
                f"{reference.bleed.height:.2f} pt with {[round(v, 2) for v in reference.trim_inset]}",
                where, "render every card PDF with the same card layout"))


def impose(
    fronts_pdf: str | Path | CardPages,
    backs_pdf: str | Path | CardPages | None,
    braille_pdf: str | Path | CardPages | None,
    sheet_spec: SheetSpec | str,
    copies: Sequence[tuple[int, int, int]],
    out_dir: str | Path,
    game_id: str,
    front_ids: Sequence[str] | None = None,
    back_ids: Sequence[str] | None = None,
    note: str = "",
    condition: OutputCondition = FOGRA39,
) -> ImposeResult:
    """Impose a game's card PDFs onto press sheets (see the module docs for the files written).

    Each card PDF is a path or a :class:`~pipeline.render.formpages.CardPages` already read
    (the build reads them once for all its paper sizes).

    ``copies``: ``(front_page_index, back_page_index, copies)`` per unique card, in print
    order (:func:`deck_copies`); each card's copies sit in consecutive slots. A 120-card
    deck prints 120 faces on ``ceil(120 / per_sheet)`` sheets; the last sheet holds the rest
    and no blank sheet follows. Raises :class:`ImpositionError` for an unknown sheet, an
    unreadable PDF, a page index out of range or a braille layer whose page count differs
    from the fronts'. Given ``front_ids`` (the deck's card ids in order) and ``back_ids``
    (its back ids), the fronts and braille layer, and the backs, must match them page for
    page (:func:`check_page_ids`; :class:`StaleCardPdfError` otherwise). Findings: IM001 (short crop mark), IM002 (page size/trim mismatch),
    IM003 (page without TrimBox), IM004 (sources not PDF/X-1a, so neither are the sheets),
    IM005 (back offset over 5 mm on an axis), IM007 (no room for the slug line).
    ``note`` heads every sheet's slug line (the build's draft mark and print run); ``condition`` is the
    output intent of every sheet (the build's printing target, :func:`pipeline.render.targets.output_condition`).
    """
    from pipeline.render.fonts import face

    spec = get_sheet(sheet_spec) if isinstance(sheet_spec, str) else sheet_spec
    font = face("regular").name
    fronts, backs, braille = read_sources(fronts_pdf, backs_pdf, braille_pdf, copies, front_ids, back_ids)
    first = fronts.boxes[copies[0][0]] if copies else fronts.boxes[0]
    grid = plan_grid(spec, first.bleed.width, first.bleed.height, first.trim_inset)
    front_faces = [f for f, _, n in copies for _ in range(n)]
    back_faces = [b for _, b, n in copies for _ in range(n)]

    findings: list[Finding] = []
    _check_pages(fronts, first, set(front_faces), findings)
    if backs is not None:
        _check_pages(backs, first, set(back_faces), findings)
    if braille is not None:
        _check_pages(braille, first, set(front_faces), findings)

    out = Path(out_dir)
    stem = f"{game_id}-{spec.name}"
    paths = {side: out / f"{stem}-{side}s.pdf" for side in ("front", "back")} | {"braille": out / f"{stem}-braille.pdf"}
    findings += _write_side(paths["front"], grid, "front", fronts, front_faces, game_id, font, note, condition)
    if backs is not None:
        findings += _write_side(paths["back"], grid, "back", backs, back_faces, game_id, font, note, condition)
    if braille is not None:
        findings += _write_side(paths["braille"], grid, "braille", braille, front_faces, game_id, font, note, condition)
    calibration = write_calibration(grid, out / f"{stem}-duplex-calibration.pdf", font, f"{game_id} duplex calibration ({spec.name})",
                                    note, condition)
    findings += _sheet_findings(grid, calibration, paths, with_backs=backs is not None)

    trims = [(grid.front_trim(slot), grid.back_trim(slot)) for slot in range(grid.per_sheet)]
    placements = tuple(Placement(k // grid.per_sheet + 1, k % grid.per_sheet, front_faces[k], back_faces[k], *trims[k % grid.per_sheet])
                       for k in range(len(front_faces)))
    result = ImposeResult(
        sheet=spec.name, orientation=grid.orientation, cols=grid.cols, rows=grid.rows,
        sheets=grid.sheets_for(len(front_faces)), faces=len(front_faces),
        fronts=paths["front"], backs=paths["back"] if backs is not None else None,
        braille=paths["braille"] if braille is not None else None, calibration=calibration,
        imposition_map=out / f"{stem}-imposition.json", placements=placements, findings=tuple(findings), grid=grid,
    )
    write_text(result.imposition_map, imposition_json(result, grid, game_id))
    return result


def _sheet_findings(grid: Grid, calibration: Path, paths: dict[str, Path], with_backs: bool) -> list[Finding]:
    """IM005 (back offset over 5 mm), IM006 (half the card or more) and IM001 (crop marks cut short or
    left out at the printable area's edge) for the sheets just written to ``paths`` (by side) and ``calibration``."""
    spec = grid.spec
    findings: list[Finding] = []
    dx_mm, dy_mm = pt_to_mm(spec.back_offset.dx), pt_to_mm(spec.back_offset.dy)
    if max(abs(dx_mm), abs(dy_mm)) > LARGE_OFFSET_MM + 1e-9:
        findings.append(LARGE_BACK_OFFSET.finding(
            f"the back offset {dx_mm:+.2f}, {dy_mm:+.2f} mm is larger than {LARGE_OFFSET_MM:g} mm: probably a typo "
            f"(the calibration scale reads ±{SCALE_MM} mm)", Location(str(paths["back"] if with_backs else calibration)),
            "check the sign and the unit of --back-offset (mm, not cm); read it again from the calibration sheet"))
    left, bottom, right, top = grid.trim_inset
    off = off_card(spec.back_offset.dx, spec.back_offset.dy, grid.card_w - left - right, grid.card_h - bottom - top,
                   Location(str(paths["back"] if with_backs else calibration)))
    findings += [off] if off else []
    for side in ("front", "back") if with_backs else ("front",):
        findings += marks.short_mark_findings(grid, side, str(paths[side]))
    return findings


def imposition_json(result: ImposeResult, grid: Grid, game_id: str) -> str:
    """:func:`imposition_map` as the file holds it: ``json.dumps(..., indent=1)`` and a newline, the same text,
    each placement written from one template (its trims' text made once per slot) instead of by json's
    pure-Python indenting encoder (~20 µs a card). Numbers as json writes them: ``repr`` of the ints and floats."""
    head = json.dumps({**imposition_map(result, grid, game_id, placements=False), "placements": []}, indent=1)
    lists: dict[tuple[Rect, Rect], str] = {}  # one text per slot's trims
    for p in result.placements:
        if (p.front_trim, p.back_trim) not in lists:
            lists[p.front_trim, p.back_trim] = ",\n".join(f'   "{key}": [\n' + ",\n".join(f"    {v!r}" for v in trim.as_list()) + "\n   ]"
                                       for key, trim in (("front_trim", p.front_trim), ("back_trim", p.back_trim)))
    items = ",\n".join(f'  {{\n   "sheet": {p.sheet!r},\n   "slot": {p.slot!r},\n   "front_page": {p.front_page!r},\n'
                       f'   "back_page": {p.back_page!r},\n{lists[p.front_trim, p.back_trim]}\n  }}' for p in result.placements)
    return head[:-len("[]\n}")] + (f"[\n{items}\n ]\n}}" if items else "[]\n}") + "\n"


def imposition_map(result: ImposeResult, grid: Grid, game_id: str, placements: bool = True) -> dict:
    """The JSON imposition map: sheet size, grid, flip, back offset and every card's trims (pt; ``placements``
    False: an empty list there, for :func:`imposition_json`)."""
    off = grid.spec.back_offset
    return {
        "game": game_id,
        "sheet": result.sheet,
        "orientation": result.orientation,
        "sheet_size_pt": [round(grid.width, 3), round(grid.height, 3)],
        "grid": {"cols": grid.cols, "rows": grid.rows},
        "flip": grid.spec.flip,
        "back_offset_mm": [round(pt_to_mm(off.dx), 3), round(pt_to_mm(off.dy), 3)],
        "sheets": result.sheets,
        "faces": result.faces,
        "units": "PDF pt, origin at the sheet's bottom-left, [x0, y0, x1, y1]",
        "placements": [
            {"sheet": p.sheet, "slot": p.slot, "front_page": p.front_page, "back_page": p.back_page,
             "front_trim": p.front_trim.as_list(), "back_trim": p.back_trim.as_list()}
            for p in result.placements
        ] if placements else [],
    }

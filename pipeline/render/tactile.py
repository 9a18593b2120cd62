"""The UV braille layer: every card's braille dots as vector circles in a spot colour.

Print shops raise transparent braille with a UV printer from a spot-colour layer
(DESIGN.md §4). Each card page of the layer has the fronts' page boxes
(MediaBox = BleedBox = 234 × 378 pt, TrimBox [9 9 225 369] for 3 × 5 in with 0.125 in
bleed) and holds the card's braille block: filled circles of the geometry profile's
dot base diameter (spec800: 1.44 mm, NLS Specification 800 §3.2) at the dot centres
of :meth:`BrailleBlock.dots`, painted in a PDF Separation colour space
(ISO 32000-1 §8.6.6.4) whose colorant name the shop chooses — ``Braille`` by default,
``RDG_GLOSS`` for Roland, ``Spot 1`` for Arizona — with overprint on (ExtGState
``/op true``, ``/OPM 1``) so the plate never knocks out the CMYK print beneath.

Coordinates: dot centres are mm from the trim's top-left (x right, y down); on the
page ``x_pt = bleed + mm_to_pt(x)``, ``y_pt = bleed + trim_h − mm_to_pt(y)``.

The layered plates, mask, height maps and job ticket of the UV printer profiles are in
:mod:`pipeline.render.uv`. Also here: the dot map (JSON, for the shop's quality check), merging the layer into
the print PDF as a spot plate, and the check that braille keeps at least 1 mm clear
of the QR code and its quiet zone (UV misregisters by about 1 mm).
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

import pikepdf
from reportlab.lib.colors import CMYKColorSep

from engine.findings import Finding, Location, Severity
from engine.registry import declare
from engine.units import PT_PER_MM, mm_to_pt, pt_to_mm
from pipeline.common.files import write_bytes, write_text
from pipeline.common.layout import CardLayout, load_layout
from pipeline.render.formpages import CardPages, CardPdfError, page_boxes, paint_on_top
from pipeline.render.pagelabels import labels_of
from pipeline.render.pdfpaths import circle_operators
from pipeline.render.pdfx import FOGRA39, OutputCondition, finish
from pipeline.render.uv.discpdf import disc_pages_pdf
from pipeline.render.uv.ocg import BRAILLE, register_ocgs
from pipeline.render.uv.printers import UvPrinter, load_uv_printer
from pipeline.render.uv.stack import MAX_LAYERS, layer_count  # also declares UV003 for `deckpress rules`

if TYPE_CHECKING:
    from engine.model import Deck
    from pipeline.braille.geometry import Dot
    from pipeline.braille.layout import BrailleBlock

#: Minimum gap between a dot's edge and the QR box (quiet zone included), mm: UV
#: registration tolerance of about 1 mm (DESIGN.md §4).
QR_CLEARANCE_MM = 1.0

#: The spot colour's alternate (DeviceCMYK) for viewers and proofs: 100 % magenta, so
#: the dots show plainly on a screen proof. The press uses the named plate.
ALTERNATE_CMYK = (0.0, 1.0, 0.0, 0.0)

#: Colorant names with a meaning of their own in a Separation space (ISO 32000-1 §8.6.6.4).
_RESERVED = {"All", "None", "Cyan", "Magenta", "Yellow", "Black"}

NEAR_QR = declare(
    "UV001",
    "braille-near-qr",
    Severity.error,
    """A braille dot comes within 1 mm of the QR code's box (its quiet zone included).

    UV printers misregister by about 1 mm: a dot that close can land on the code or its
    quiet zone and stop phones from reading it.

    Fails: a layout whose braille box starts 0.5 mm below the QR box.
    Passes: the shipped 3×5 in layout: the braille box starts 0.05 in (1.27 mm) below the QR box, the top dots' edges on its top line.
    """,
)
OFF_SAFE_AREA = declare(
    "UV002",
    "braille-outside-safe-area",
    Severity.error,
    """A braille dot reaches outside the card's safe area (the trim inset by the layout's ``safe_inset``).

    The cutter wanders by up to the safe inset; a dot there can be cut in half.

    Fails: a braille box whose last cell column ends 1 mm from the trim.
    Passes: the shipped layout, braille ¼ in inside the trim on every side.
    """,
)


class TactileError(ValueError):
    """The braille layer cannot be made: an unusable spot name or a card without a braille block."""


#: Characters allowed in a spot colour name: ASCII letters, digits, space, ``_``, ``-`` and ``.``.
#: Every shop name seen (``Braille``, ``RDG_GLOSS``, ``Spot 1``, ``Varnish``, ``PANTONE 871 C``)
#: fits; PDF delimiters (``/ ( ) < > [ ] { } %``) and ``#`` do not, because reportlab leaves
#: ``/`` unescaped in a name (ISO 32000-1 §7.3.5 asks for ``#2F``) and RIPs show such names badly.
SPOT_NAME_CHARACTERS = "letters A-Z a-z, digits 0-9, space, '_', '-' and '.'"
_SPOT_NAME = re.compile(r"[A-Za-z0-9_.\-]([A-Za-z0-9 _.\-]{0,125}[A-Za-z0-9_.\-])?")


def check_spot_name(spot_name: str) -> str:
    """The spot colour name, checked: 1–127 characters from :data:`SPOT_NAME_CHARACTERS`, no
    space at either end, and not a colorant name reserved by ISO 32000-1 §8.6.6.4 (All, None, …).

    127 is the longest PDF name (ISO 32000-1 Annex C, Table C.1). Raises :class:`TactileError`
    naming the value and what is allowed.
    """
    if not _SPOT_NAME.fullmatch(spot_name or ""):
        bad = sorted({ch for ch in spot_name if not (ch.isascii() and (ch.isalnum() or ch in " _.-"))})
        why = (f"it contains {' '.join(repr(ch) for ch in bad)}" if bad else "it is empty" if not spot_name
               else f"it is {len(spot_name)} characters long" if len(spot_name) > 127
               else "it starts or ends with a space")
        raise TactileError(f"spot colour name {spot_name!r} is not usable: {why}; a spot colour name may hold "
                           f"{SPOT_NAME_CHARACTERS} (1-127 characters), e.g. 'Braille', 'RDG_GLOSS' or 'Spot 1'")
    if spot_name in _RESERVED:
        raise TactileError(f"spot colour name {spot_name!r} is reserved in PDF; use e.g. 'Braille', 'RDG_GLOSS' or 'Spot 1'")
    return spot_name


def spot_colour(spot_name: str = "Braille") -> CMYKColorSep:
    """The full-tint Separation colour for the braille plate (alternate :data:`ALTERNATE_CMYK`)."""
    return CMYKColorSep(*ALTERNATE_CMYK, spotName=check_spot_name(spot_name))


def to_pdf(x_mm: float, y_mm: float, layout: CardLayout) -> tuple[float, float]:
    """A point in mm from the trim's top-left (y down) → PDF pt on the bled page (origin bottom-left)."""
    return layout.bleed + mm_to_pt(x_mm), layout.bleed + layout.trim.height - mm_to_pt(y_mm)


def pdf_points(dots: Sequence[Dot], layout: CardLayout) -> list[tuple[float, float]]:
    """:func:`to_pdf` of every dot centre (``.x``, ``.y`` in mm), the same floats: the same sums in the
    same order, without a call and two :func:`~engine.units.mm_to_pt` calls a dot."""
    left, top = layout.bleed, layout.bleed + layout.trim.height
    return [(left + d.x * PT_PER_MM, top - d.y * PT_PER_MM) for d in dots]


def render_braille_layer(
    blocks: Mapping[str, BrailleBlock],
    card_ids: Sequence[str],
    path: str | Path,
    spot_name: str = "Braille",
    layout: CardLayout | None = None,
    condition: OutputCondition = FOGRA39,
) -> Path:
    """Write the UV braille layer: one page per card id, in the order given (the fronts' page order).

    Every page: MediaBox = BleedBox = trim + 2 × bleed, TrimBox the trim (pt, from the
    layout); the dots of ``blocks[card_id].dots()`` as filled circles of radius
    ``profile.dot_base / 2`` in the spot colour, fill overprint on. Deterministic
    (reportlab ``invariant=1``); no font is referenced. Each page's content is marked as ISO
    19593-1 processing step Braille (:mod:`pipeline.render.uv.ocg`), optional content, so it is finished
    as PDF/X-4 (PDF 1.6, :func:`pipeline.render.pdfx.finish`, ``condition``'s output intent), each page
    labelled with its card id.
    Returns ``path``.
    Raises :class:`TactileError` for a card id without a block or a bad spot name.
    """
    layout = layout or load_layout()
    colour = spot_colour(spot_name)
    missing = [cid for cid in card_ids if cid not in blocks]
    if missing:
        raise TactileError(f"no braille block for card(s) {', '.join(missing)}")
    # The circles as operators (pipeline.render.pdfpaths; reportlab's path.circle was a third of this function's time),
    # each card's made when its page is (not the whole deck's first: ~12 kB a card)
    pages = ([(colour, circle_operators(pdf_points(dots, layout), mm_to_pt(blocks[cid].profile.dot_radius)))] if dots else []
             for cid, dots in ((cid, blocks[cid].dots()) for cid in card_ids))
    # One reportlab page per colour sequence, copied per card (pipeline.render.uv.discpdf); the dots are content of
    # ISO 19593-1 processing step Braille (pipeline.render.uv.ocg)
    with disc_pages_pdf(pages, layout, BRAILLE, [[colour] if blocks[cid].dots() else [] for cid in card_ids]) as pdf:
        return finish(pdf, path, f"UV braille layer, spot colour {spot_name}", list(card_ids),
                      subject="braille dots, one page per card front, registered page for page with the print PDF", condition=condition)


def dot_map(blocks: Mapping[str, BrailleBlock], spot_name: str = "Braille", printer: UvPrinter | None = None) -> dict:
    """The dot map as a dict: per card (block order) every dot centre ``[x, y]`` in mm from the
    trim's top-left (x right, y down, rounded to 0.001 mm), with the profile, dot diameter, dot
    height, cell and line pitch (mm), and the layers the UV printer profile stacks (``printer``,
    default :data:`~pipeline.render.uv.printers.DEFAULT_UV_PRINTER`; ``null`` when its layer
    thickness gives a count outside 1–200, finding UV003)."""
    printer = printer or load_uv_printer()
    rounded: dict[float, float] = {}  # each distinct coordinate rounded once: dots sit on a few grid lines
    cards = {}
    for cid, block in blocks.items():
        dots = block.dots()
        for v in {c for d in dots for c in (d.x, d.y)} - rounded.keys():
            rounded[v] = _mm(v)
        cards[cid] = {**_card_entry(block, dots, printer), "dots": [[rounded[d.x], rounded[d.y]] for d in dots]}
    return {**_map_head(blocks, spot_name, printer), "cards": cards}


def _mm(v: float) -> float:
    """A dot map coordinate: ``v`` mm rounded to 0.001 mm, ``-0.0`` written as ``0.0``."""
    return round(v, 3) + 0.0


def _map_head(blocks: Mapping[str, BrailleBlock], spot_name: str, printer: UvPrinter) -> dict:
    """The dot map's keys before ``cards`` (:func:`dot_map`)."""
    return {
        "spot_name": spot_name,
        "uv_printer": printer.id,
        "layer_thickness_mm": printer.layer_thickness_mm,
        "units": "mm from the trim's top-left corner, x right, y down; dot centres",
        "profiles": sorted({b.profile.name for b in blocks.values()}),
    }


def _card_entry(block: BrailleBlock, dots: Sequence[Dot], printer: UvPrinter) -> dict:
    """One card's entry of the dot map but its ``dots`` (:func:`dot_map`)."""
    profile = block.profile
    layers = layer_count(profile.dot_height, printer.layer_thickness_mm)
    return {
        "profile": profile.name,
        "dot_diameter_mm": profile.dot_base,
        "dot_height_mm": profile.dot_height,
        "layers": layers if 1 <= layers <= MAX_LAYERS else None,
        "cell_pitch_mm": profile.cell_pitch,
        "line_pitch_mm": profile.line_pitch,
        "lines": min(len(block.lines), block.lines_available),
        "dot_count": len(dots),
    }


def write_dot_map(blocks: Mapping[str, BrailleBlock], path: str | Path, spot_name: str = "Braille",
                  printer: UvPrinter | None = None) -> Path:
    """Write :func:`dot_map` as JSON (UTF-8, stable order, one card per line); returns ``path``.

    Each card's line is its entry without ``dots`` as ``json.dumps`` writes it, then the dots, each
    distinct centre's ``[x,y]`` text made once per deck (the dots sit on the layout's few hundred grid
    positions): the text ``json.dumps`` of the whole entry gives, without a float written per dot."""
    printer = printer or load_uv_printer()
    compact = (",", ":")
    head = [f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}," for k, v in _map_head(blocks, spot_name, printer).items()]
    centres: dict[tuple[float, float], str] = {}
    body = []
    for cid, block in blocks.items():
        dots = block.dots()
        texts = []
        for d in dots:
            text = centres.get((d.x, d.y))
            if text is None:
                text = centres[d.x, d.y] = json.dumps([_mm(d.x), _mm(d.y)], separators=compact)
            texts.append(text)
        entry = json.dumps(_card_entry(block, dots, printer), separators=compact)
        body.append(f"  {json.dumps(cid)}: {entry[:-1]},\"dots\":[{','.join(texts)}]}}")
    return write_text(path, "{\n" + "\n".join(head) + '\n "cards": {\n' + ",\n".join(body) + "\n }\n}\n")


def merge_spot_plate(print_pdf: str | Path, braille_pdf: str | Path, path: str | Path,
                     condition: OutputCondition = FOGRA39, what: str = "card fronts") -> Path:
    """The print PDF with the braille layer merged on top of each page as a spot plate
    (``what`` the print is, for the Subject: "card fronts", "the flat tuck box").

    Page *i* of ``braille_pdf`` goes onto page *i* of ``print_pdf`` (a Form XObject painted on top,
    no transformation, :meth:`~pipeline.render.formpages.CardPages.paint`); the print PDF's page boxes and page labels are kept. The braille's ISO
    19593-1 group is optional content (PDF 1.5), so the file is finished as PDF/X-4 (PDF 1.6,
    :mod:`pipeline.render.pdfx4`) with ``condition``'s output intent. Raises :class:`TactileError`
    when the page counts or page boxes differ, :class:`CardPdfError` naming the file when either
    PDF cannot be read (missing, not a PDF) and :class:`~pipeline.render.pdfx.PdfxError` when the
    print PDF breaks PDF/X (an RGB image, an unembedded font).
    """
    braille = CardPages(braille_pdf, "braille")
    try:
        pdf = pikepdf.open(print_pdf)
        labels = labels_of(pdf)
        title = str(pdf.docinfo.get("/Title", Path(print_pdf).stem))
    except (OSError, ValueError, pikepdf.PdfError) as exc:
        raise CardPdfError(f"cannot read the print PDF {print_pdf}: {exc}") from None
    with pdf:
        if len(pdf.pages) != len(braille.pages):
            raise TactileError(f"{braille_pdf} has {len(braille.pages)} pages, {print_pdf} {len(pdf.pages)}: they must match page for page")
        opening = pdf.make_stream(b"q\n")
        for i, page in enumerate(pdf.pages):
            if not page_boxes(page).same_as(braille.boxes[i]):
                raise TactileError(f"page {i + 1} of {braille_pdf} has other page boxes than page {i + 1} of {print_pdf}")
            paint_on_top(pdf, page, braille.paint(pdf, page, i), opening)  # the plate on top, clipped to its BleedBox
        braille.release()  # the forms' data is the merged file's own (pikepdf copies it): free the layer's pages before the save
        register_ocgs(pdf)  # list the braille pages' OCG in the merged file; optional content makes it PDF/X-4
        if "/Outlines" in pdf.Root:  # finish() writes the outline anew from the labels: not read item by item first
            del pdf.Root.Outlines  # (pikepdf's open_outline parsed the print PDF's, ~75 ms a 1,000 cards, to clear it)
        return finish(pdf, path, f"{title} with the braille plate", labels,  # no save and re-parse between
                      subject=f"{what} with the UV braille dots merged as a spot plate (ISO 19593-1 group Braille)",
                      condition=condition)


def _gap_to_box(x: float, y: float, r: float, box: tuple[float, float, float, float]) -> float:
    """Distance (mm) from a dot's edge to a box ``(x, y, w, h)``; negative when the dot overlaps it."""
    bx, by, bw, bh = box
    dx = max(bx - x, 0.0, x - (bx + bw))
    dy = max(by - y, 0.0, y - (by + bh))
    return math.hypot(dx, dy) - r


def _where(deck: Deck | None, card_id: str) -> Location:
    card = deck.card_by_id(card_id) if deck is not None else None
    return card.where().with_card(card_id) if card is not None else Location(card=card_id)


def clearance_findings(
    blocks: Mapping[str, BrailleBlock],
    layout: CardLayout | None = None,
    deck: Deck | None = None,
    clearance_mm: float = QR_CLEARANCE_MM,
) -> list[Finding]:
    """UV001 for a card whose nearest dot edge is closer than ``clearance_mm`` to the QR box;
    UV002 for a card with a dot edge outside the safe area. One finding per card and code.

    ``deck`` (optional) gives the findings the card's file and line.
    """
    layout = layout or load_layout()
    qr = layout.qr.mm()
    inset = pt_to_mm(layout.safe_inset)
    sx0, sy0 = inset, inset
    sx1, sy1 = pt_to_mm(layout.trim.width) - inset, pt_to_mm(layout.trim.height) - inset
    out: list[Finding] = []
    # Each dot position judged once per deck (its gap to the QR box, whether it leaves the safe area): the
    # dots sit on the layout's few grid positions, shared by every card (1,000 cards: 59,000 dots, ~250 positions)
    judged: dict[tuple[float, float, float], tuple[float, bool]] = {}
    for cid, block in blocks.items():
        dots = block.dots()
        if not dots:
            continue
        r = block.profile.dot_radius
        verdicts = []
        for d in dots:
            verdict = judged.get((d.x, d.y, r))
            if verdict is None:
                verdict = judged[d.x, d.y, r] = (_gap_to_box(d.x, d.y, r, qr),
                                                 d.x - r < sx0 or d.y - r < sy0 or d.x + r > sx1 or d.y + r > sy1)
            verdicts.append(verdict)
        gaps = [g for g, _ in verdicts]
        gap = min(gaps)
        nearest = dots[gaps.index(gap)]  # the first dot at the least gap, as min(dots, key=gap) gave
        if gap < clearance_mm - 1e-9:
            out.append(NEAR_QR.finding(
                f"a braille dot (line {nearest.line + 1}, cell {nearest.cell + 1}, dot {nearest.dot}) is {gap:.2f} mm from "
                f"the QR code's box, less than {clearance_mm:g} mm",
                _where(deck, cid), "move the layout's braille box further from the qr box"))
        outside = [d for d, (_, off) in zip(dots, verdicts) if off]
        if outside:
            d = outside[0]
            out.append(OFF_SAFE_AREA.finding(
                f"{len(outside)} braille dot(s) reach outside the safe area, first at ({d.x:.2f}, {d.y:.2f}) mm "
                f"(line {d.line + 1}, cell {d.cell + 1})",
                _where(deck, cid), "keep the layout's braille box inside the safe area"))
    return out

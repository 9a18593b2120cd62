"""The UV job ticket: what the operator sets on the printer, as JSON and as a one-page PDF.

It names the printer profile and RIP, the spot names (clear, white underbase), per geometry
profile the target height, layer thickness, layers (= passes) and layer diameters, the
registration tolerance and the marks to register on, the cards and copies, the press sheets
per paper size (the imposition's grid, :func:`pipeline.render.sheets.plan_grid`), the files of
the package and which RIP takes which, and the release state: ``draft`` while any card is
provisional or the archive URL is a placeholder host (the QR codes would lead nowhere), else
``release``.
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from reportlab.lib.pagesizes import letter
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.common.files import write_bytes, write_text
from pipeline.common.layout import load_layout

if TYPE_CHECKING:
    from engine.model import Deck
    from pipeline.render.uv.printers import UvPrinter
    from pipeline.render.uv.stack import DotStack

#: What the operator registers the UV plate on, by plate: the card's trim on the flatbed's
#: corner stops for single cards, the sheets' registration targets for press sheets.
REGISTER_ON = ("single cards: the card's trim corner against the flatbed's corner stops (the plate's TrimBox is the card's)",
               "press sheets: the registration targets and crop marks of sheets/<game>-<paper>-braille.pdf and of the layered "
               "plate sheets sheets/<game>-<paper>-plates-<profile>.pdf: the same marks, at the same places, as the CMYK sheets")


def release_state(deck: Deck) -> str:
    """``draft`` while a card is provisional or the archive base URL is a placeholder host, else ``release``."""
    from engine.checks.quality import placeholder_host

    return "draft" if deck.provisional() or placeholder_host(deck.game.archive.base_url) else "release"


def sheets_per_paper(deck: Deck, papers: Sequence[str]) -> dict[str, dict]:
    """Press sheets per paper size for every printed copy: ``{paper: {"cards_per_sheet", "sheets"}}``."""
    from pipeline.render.sheets import get_sheet, plan_grid

    layout = load_layout()
    bled_w, bled_h = layout.trim.width + 2 * layout.bleed, layout.trim.height + 2 * layout.bleed
    inset = (layout.bleed,) * 4
    faces = sum(c.copies for c in deck.cards)
    out = {}
    for name in papers:
        grid = plan_grid(get_sheet(name), bled_w, bled_h, inset)
        out[name] = {"cards_per_sheet": grid.per_sheet, "sheets": grid.sheets_for(faces)}
    return out


def job_ticket(deck: Deck, printer: UvPrinter, spot: str, stacks: Mapping[str, DotStack], files: Mapping[str, str],
               papers: Sequence[str], underbase: bool) -> dict:
    """The ticket as a dict (lengths in mm; ``files``: role → file name in the game's output)."""
    return {
        "game": deck.game.id,
        "state": release_state(deck),
        "uv_printer": {"id": printer.id, "name": printer.name, "rip": printer.rip, "plate_mode": printer.plate_mode,
                       "source": printer.source},
        "spots": {"clear": spot, "white_underbase": printer.white_spot if underbase else None,
                  "reserved_by_rip": list(printer.reserved_spots)},
        "dots": {name: stack.as_dict() | {"passes": stack.layers} for name, stack in stacks.items()},
        "height_map": {"dpi": printer.height_map_dpi, "grey_255_mm": max(s.height_mm for s in stacks.values()) if stacks else None},
        "registration": {"tolerance_mm": printer.registration_tolerance_mm, "register_on": list(REGISTER_ON)},
        "cards": {"unique": len(deck.cards), "printed": sum(c.copies for c in deck.cards)},
        "sheets": sheets_per_paper(deck, papers),
        "files": dict(files),
    }


def write_ticket_json(ticket: dict, path: str | Path) -> Path:
    """Write the ticket as indented JSON (UTF-8, stable order); returns ``path``."""
    return write_text(path, json.dumps(ticket, indent=1, ensure_ascii=False) + "\n")


def _ticket_lines(ticket: dict) -> list[str]:
    p, spots = ticket["uv_printer"], ticket["spots"]
    lines = [f"UV braille job ticket: {ticket['game']} ({ticket['state'].upper()})",
             f"Printer: {p['name']}; RIP: {p['rip']}; plates: {p['plate_mode']}",
             f"Clear spot: {spots['clear']}; white underbase: {spots['white_underbase'] or 'none'}"]
    for name, d in ticket["dots"].items():
        lines.append(f"Dots ({name}): {d['target_height_mm']} mm high, {d['layers']} layers/passes of "
                     f"{d['layer_thickness_mm']} mm (stack {d['printed_height_mm']} mm), base {d['base_diameter_mm']} mm")
        diameters = d["layer_diameters_mm"]
        for start in range(0, len(diameters), 10):
            lines.append(f"  layer {start + 1}-{min(start + 10, len(diameters))}: " + ", ".join(f"{v:.3f}" for v in diameters[start:start + 10]) + " mm")
    reg = ticket["registration"]
    lines.append(f"Registration tolerance: {reg['tolerance_mm']} mm")
    lines += [f"  register on {r}" for r in reg["register_on"]]
    lines.append(f"Cards: {ticket['cards']['unique']} unique, {ticket['cards']['printed']} printed")
    lines += [f"  {paper}: {s['cards_per_sheet']} per sheet, {s['sheets']} sheets" for paper, s in ticket["sheets"].items()]
    lines.append("Files:")
    lines += [f"  {role}: {name}" for role, name in ticket["files"].items()]
    return lines


def _wrap(lines: list[str], font: str, size: float, width: float) -> list[tuple[float, str]]:
    """``(indent pt, text)`` rows: each line wrapped to ``width`` pt at ``size`` pt, keeping its
    leading spaces as an indent and indenting its continuation rows by one more ``size``."""
    rows: list[tuple[float, str]] = []
    for line in lines:
        body = line.lstrip()
        indent = stringWidth(line[:len(line) - len(body)], font, size)
        for k, part in enumerate(simpleSplit(body, font, size, width - indent - size)):
            rows.append((indent + (size if k else 0.0), part))
    return rows


def write_ticket_pdf(ticket: dict, path: str | Path) -> Path:
    """The ticket on one US-letter page for the operator (Atkinson Hyperlegible, 0.5 in margins;
    long lines wrap inside the margins, long lists go to smaller type so it stays one page).
    Returns ``path``."""
    from pipeline.render.fonts import face

    font = face("regular").name
    lines = _ticket_lines(ticket)
    width = letter[0] - 72
    size = 11.0
    while size > 6 and (len(_wrap(lines, font, size, width)) + 1) * size * 1.3 > letter[1] - 72:
        size -= 0.5
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=letter, invariant=1, initialFontName=font)
    canvas.setTitle(f"UV job ticket {ticket['game']}")
    y = letter[1] - 36 - size
    canvas.setFont(font, size + 3)  # the heading, one short line
    canvas.drawString(36, y, lines[0])
    y -= (size + 3) * 1.3
    canvas.setFont(font, size)
    for indent, text in _wrap(lines[1:], font, size, width):
        canvas.drawString(36 + indent, y, text)
        y -= size * 1.3
    canvas.showPage()
    canvas.save()
    return write_bytes(path, buf.getvalue())

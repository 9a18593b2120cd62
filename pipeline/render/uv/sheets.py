"""The UV printer profile's plates and the composite on the press sheets (README, "UV braille").

:func:`pipeline.render.impose.impose` puts the fronts, the backs and the flat braille plate on
the sheets. This module adds, for the same grid, slots and marks (so every plate registers on
the crop marks and registration targets of the CMYK sheets), in ``sheets/``:

- ``<g>-<paper>-plates-<p>.pdf``, the layered plate sheets of profile ``<p>``, laid out as the
  profile's ``plate_mode`` says: ``layer-pages`` and ``cmyk-layer-pages`` give one page per sheet
  and layer (``sheet 1 L01``, ``sheet 1 L02`` …, bottom layer first; a card whose geometry needs
  fewer layers leaves its slot empty on the higher ones), ``separations`` one page per sheet
  with every layer its own separation. ``single`` and ``height-map`` profiles have no layered
  plate: their plate sheets are ``<g>-<paper>-braille.pdf``;
- ``<g>-<paper>-composite.pdf``, the composite sheet for presses that print the clear ink in
  the same pass as CMYK: the fronts with every braille layer on top as its own spot separation
  (``<spot> L01`` …, overprint on), inside the ISO 19593-1 Braille group; for a one-layer
  (flat) profile the single clear spot. Its cards are ``uv/<g>-fronts+layers.pdf`` (or
  ``uv/<g>-fronts+braille.pdf`` for a flat profile), written by :func:`write_composite_cards`.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Mapping, Sequence

from pipeline.render.formpages import CardPages
from pipeline.render.pdfx import FOGRA39, OutputCondition
from pipeline.render.impose import write_sheet_pages
from pipeline.render.tactile import merge_spot_plate
from pipeline.render.uv.package import stacks_for
from pipeline.render.uv.plates import render_layer_plates

if TYPE_CHECKING:
    from engine.findings import Finding
    from pipeline.braille.layout import BrailleBlock
    from pipeline.render.impose import ImposeResult
    from pipeline.render.sheets import Grid
    from pipeline.render.uv.printers import UvPrinter

#: Plate modes without a layered plate PDF: the flat plate is their plate.
FLAT_MODES = ("single", "height-map")
#: Plate modes with one page per layer and card (labels ``<card> L01`` …).
LAYER_PAGE_MODES = ("layer-pages", "cmyk-layer-pages")

_LAYER_LABEL = re.compile(r"^(?P<card>.+) L(?P<layer>\d+)$")


@dataclass(frozen=True)
class UvSheets:
    """What :func:`impose_uv_sheets` wrote (None when the profile has no such file) and its IM004 findings."""

    plates: Path | None
    composite: Path | None
    findings: tuple[Finding, ...]

    @property
    def paths(self) -> tuple[Path, ...]:
        """Every file written."""
        return tuple(p for p in (self.plates, self.composite) if p is not None)


def write_composite_cards(fronts: str | Path, flat_merged: Path, blocks: Mapping[str, BrailleBlock],
                          card_ids: Sequence[str], printer: UvPrinter, spot: str, folder: str | Path,
                          game_id: str, condition: OutputCondition = FOGRA39) -> Path:
    """The composite's card pages: ``<game>-fronts+layers.pdf`` in ``folder``, the fronts with every
    layer of ``printer``'s dot stack as its own separation ``<spot> Lkk`` (one page per card, the
    fronts' order ``card_ids``). A flat profile (or a layer count outside 1–200, finding UV003)
    has one layer: its composite cards are ``flat_merged`` (the fronts+braille PDF), returned as is.
    ``condition`` is the output intent (the build's printing target).
    Raises :class:`~pipeline.render.tactile.TactileError` as :func:`merge_spot_plate` does.
    """
    stacks, problems = stacks_for(blocks, printer)
    if printer.plate_mode in FLAT_MODES or problems:
        return flat_merged
    separations = printer.model_copy(update={"plate_mode": "separations"})
    with tempfile.TemporaryDirectory(prefix="deckpress-layers-") as tmp:
        layers = render_layer_plates(blocks, card_ids, Path(tmp) / "layers.pdf", separations, spot, stacks, condition=condition)
        return merge_spot_plate(fronts, layers, Path(folder) / f"{game_id}-fronts+layers.pdf", condition=condition)


def _slug(note: str, game_id: str, grid: Grid, n: int, count: int, what: str) -> str:
    """The slug line of a UV sheet, worded as the CMYK sheets' (:mod:`pipeline.render.impose`)."""
    return f"{note + ' · ' if note else ''}{game_id} · sheet {n}/{count} · {what} · {grid.spec.name} {grid.orientation}"


def sheet_slots(result: ImposeResult) -> list[list[int | None]]:
    """The fronts' page index in every slot of every sheet of ``result`` (None: an empty slot)."""
    slots: list[list[int | None]] = [[None] * result.per_sheet for _ in range(result.sheets)]
    for p in result.placements:
        slots[p.sheet - 1][p.slot] = p.front_page
    return slots


def layer_index(plates: CardPages) -> dict[tuple[str, int], int]:
    """``(card id, layer)`` → page index of a plate PDF from its page labels (``<card> L03`` → layer 3;
    a bare ``<card>``, one page holding every layer, → layer 0)."""
    index: dict[tuple[str, int], int] = {}
    for i, label in enumerate(plates.labels):
        found = _LAYER_LABEL.match(label)
        index[(found["card"], int(found["layer"])) if found else (label, 0)] = i
    return index


def _plate_pages(result: ImposeResult, front_ids: Sequence[str], plates: CardPages,
                 mode: str) -> list[tuple[str, str, list[int | None]]]:
    """``(label, slug part, slots)`` per plate sheet page, in sheet then layer order."""
    index = layer_index(plates)
    pages = []
    for n, slots in enumerate(sheet_slots(result), 1):
        ids = [front_ids[i] if i is not None else None for i in slots]
        if mode not in LAYER_PAGE_MODES:
            pages.append((f"sheet {n} braille layers", "braille layers", [index.get((c, 0)) for c in ids]))
            continue
        top = max((k for c, k in index if c in ids), default=0)
        pages += [(f"sheet {n} L{k:02d}", f"braille layer {k}/{top}", [index.get((c, k)) for c in ids])
                  for k in range(1, top + 1)]
    return pages


def impose_uv_sheets(result: ImposeResult, front_ids: Sequence[str], plates: CardPages | None,
                     composite: CardPages | None, printer: UvPrinter, out_dir: str | Path, game_id: str,
                     note: str = "", condition: OutputCondition = FOGRA39) -> UvSheets:
    """Write the plate sheets and the composite sheet (module docs) on ``result``'s grid and slots.

    ``front_ids`` are the card ids of the fronts' pages (the plates' labels name them); ``plates``
    the layered plate PDF of ``printer`` (None for a flat profile), ``composite`` the composite
    cards (:func:`write_composite_cards`, page for page with the fronts). ``note`` heads every slug;
    ``condition`` is every sheet's output intent.
    Findings: IM004 when a source breaks PDF/X. Raises ValueError when ``result`` has no grid.
    """
    from pipeline.render.fonts import face

    grid = result.grid
    if grid is None:
        raise ValueError("the imposition result carries no grid")
    font, out, stem = face("regular").name, Path(out_dir), f"{game_id}-{result.sheet}"
    findings: list[Finding] = []
    plates_path = composite_path = None
    if plates is not None and printer.plate_mode not in FLAT_MODES:
        pages = _plate_pages(result, front_ids, plates, printer.plate_mode)
        sheet_of = [int(label.split()[1]) for label, _, _ in pages]
        plates_path = out / f"{stem}-plates-{printer.id}.pdf"
        findings += write_sheet_pages(
            plates_path, grid, "braille", plates, [slots for _, _, slots in pages],
            [_slug(note, game_id, grid, n, result.sheets, what) for n, (_, what, _) in zip(sheet_of, pages)],
            [label for label, _, _ in pages], f"{game_id} UV plate sheets for {printer.name} ({result.sheet})", font, condition)
    if composite is not None:
        composite_path = out / f"{stem}-composite.pdf"
        slots = sheet_slots(result)
        findings += write_sheet_pages(
            composite_path, grid, "front", composite, slots,
            [_slug(note, game_id, grid, n, result.sheets, "composite: CMYK + braille layers") for n in range(1, len(slots) + 1)],
            [f"sheet {n} composite" for n in range(1, len(slots) + 1)],
            f"{game_id} composite sheets, CMYK and braille layers ({result.sheet})", font, condition)
    return UvSheets(plates_path, composite_path, tuple(findings))


def uv_sources(folder: str | Path, game_id: str, printer: UvPrinter) -> tuple[CardPages | None, CardPages | None]:
    """The UV sources in a ``uv/`` folder that exist, read: ``<game>-plates-<profile>.pdf`` (None for a
    flat profile or when absent) and the composite cards, ``<game>-fronts+layers.pdf`` for a layered
    profile, else ``<game>-fronts+braille.pdf`` (None when absent). Raises
    :class:`~pipeline.render.formpages.CardPdfError` for a file that cannot be read."""
    folder = Path(folder)
    plates = folder / f"{game_id}-plates-{printer.id}.pdf"
    layered = folder / f"{game_id}-fronts+layers.pdf"
    flat = printer.plate_mode in FLAT_MODES
    composite = folder / f"{game_id}-fronts+braille.pdf" if flat or not layered.exists() else layered
    return (CardPages(plates, "plates") if not flat and plates.exists() else None,
            CardPages(composite, "composite") if composite.exists() else None)

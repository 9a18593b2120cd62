"""The emboss stage: a deck's braille blocks → BRF (+ JSON sidecar) and PEF files for one embosser profile.

Inputs are the braille stage's blocks (``pipeline.braille.layout.layout_deck``: one
:class:`BrailleBlock` per card id, ``.lines`` of Unicode six-dot cells), so BRF, PEF
and the UV layer carry the same cells. Pages come from :mod:`pipeline.emboss.pages`;
every file is checked before it is written (BRF rules, PEF schema and Schematron) and
written atomically; a file that fails its check is not written and an EM finding says why.

File names, in ``out_dir``: ``<game>-<profile>-<layout>.brf``, ``….brf.json`` (the
sidecar: table, grade, cells per line, lines per page, card order, profile, layout,
each card's page, row, column, line, cell and copy; for the card layout the braille's
position on the card in mm) and ``….pef``.

The card layout is for card stock: one page per physical card, so it expands copies by
default (``copies=False``, the CLI's ``--unique``, gives one page per unique card), and it
puts the braille exactly where the UV layer does, on the card layout's braille box
(:mod:`pipeline.emboss.cardstock`).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Mapping, Protocol, Sequence

from engine.findings import Finding
from engine.model import Deck
from engine.units import pt_to_mm
from pipeline.emboss import rules
from pipeline.emboss.brf import brf_bytes, check_brf
from pipeline.braille.geometry import GeometryProfile
from pipeline.emboss.cardstock import CardStart, CardStartError, card_start
from pipeline.emboss.pages import COLUMN_GAP_CELLS, LAYOUTS, EmbosserPage, Layout, paginate
from pipeline.emboss.pef import PefMeta, content_identifier, pef_bytes
from pipeline.emboss.profiles import EmbossError, EmbosserProfile, PageFormat, PaperSizeError, load_profile
from pipeline.emboss.validate import validate_pef
from pipeline.emboss.volume_files import write_volumes
from pipeline.common.files import write_bytes, write_text

FORMATS: tuple[str, ...] = ("brf", "pef")

#: What a build makes by default: card-per-page files for card stock, and sheets to cut for a sheet-fed embosser.
DEFAULT_JOBS: tuple[tuple[str, Layout], ...] = (("card-3x5", "card"), ("index-everest-d", "sheet"))


class Block(Protocol):
    """What the emboss stage reads of a braille block: its lines of Unicode six-dot cells, and
    (for the card layout) the braille box it was laid out in: top-left ``origin_mm``, capacity
    ``cells_per_line`` × ``lines_available``, dot ``profile``."""

    lines: tuple[str, ...]
    origin_mm: tuple[float, float]
    cells_per_line: int
    lines_available: int
    profile: GeometryProfile


@dataclass(frozen=True)
class EmbossResult:
    """What a run wrote: file paths, findings, the page format and the pages (in order)."""

    paths: tuple[Path, ...]
    findings: tuple[Finding, ...]
    page_format: PageFormat | None = None
    pages: tuple[EmbosserPage, ...] = ()


def table_name(grade: int) -> str:
    """The liblouis UEB table of a grade: ``en-ueb-g1.ctb`` or ``en-ueb-g2.ctb`` (DESIGN.md §3)."""
    return f"en-ueb-g{grade}.ctb"


def pef_date(deck: Deck) -> str:
    """A deterministic ``dc:date`` (YYYY-MM-DD, UTC) for the deck's PEF.

    The game's ``date:`` (its edition date) when the data gives one; else
    ``SOURCE_DATE_EPOCH`` (reproducible-builds.org) when set; else the newest
    modification time of the game folder's YAML files (stable on one machine only,
    which is why the shipped games carry a ``date:``); today's date for a deck built
    in code without a folder.
    """
    if deck.game.date is not None:
        return deck.game.date.isoformat()
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.strip().isdigit():
        stamp = int(epoch)
    else:
        files = list(Path(deck.folder).glob("*.yaml")) if deck.folder else []
        stamp = max((f.stat().st_mtime for f in files), default=datetime.now(timezone.utc).timestamp())
    return datetime.fromtimestamp(stamp, timezone.utc).strftime("%Y-%m-%d")


def page_format_for(deck: Deck, profile: EmbosserProfile, layout: Layout) -> PageFormat:
    """The embosser page of a layout: the card's trim for ``card``, the profile's sheet for ``sheet``.

    Raises :class:`~pipeline.emboss.profiles.PaperSizeError` when the profile cannot take it,
    :class:`EmbossError` for an unknown layout.
    """
    if layout == "card":
        w, h = pt_to_mm(deck.game.card.width), pt_to_mm(deck.game.card.height)
        if (deck.game.card.orientation == "landscape") != (w > h):
            w, h = h, w
        try:
            return profile.card_format(w, h)
        except PaperSizeError as exc:
            if profile.paper.kind == "card":  # a card-stock profile already: the card as laid is another size or way round
                laid = deck.game.card.orientation
                raise PaperSizeError(f"{exc}; the card is {laid}, {w:g} × {h:g} mm as fed: use a card-stock profile for that card "
                                     f"as laid (a copy of {profile.id} with its paper's width and height set so), or the sheet layout") from None
            raise PaperSizeError(f"{exc}; for loose cards use a card-stock profile such as card-3x5, or the sheet layout") from None
    if layout == "sheet":
        return profile.page_format()
    raise EmbossError(f"unknown embosser layout {layout!r}; layouts: {', '.join(LAYOUTS)}")


def write_embosser_files(
    deck: Deck,
    blocks: Mapping[str, Block],
    out_dir: str | Path,
    profile: str | EmbosserProfile = "card-3x5",
    layout: Layout = "card",
    formats: Sequence[str] = FORMATS,
    copies: bool | None = None,
    interpoint: bool = False,
    date: str | None = None,
) -> EmbossResult:
    """Write the BRF (with sidecar) and/or PEF of a deck for one profile and layout into ``out_dir``.

    ``blocks`` maps card id → braille block; cards are embossed in deck order, once
    each, or ``card.copies`` times with ``copies`` (default: True for the card layout,
    one page per physical card, False for sheets). The card layout starts the braille on
    the blocks' braille box (:func:`pipeline.emboss.cardstock.card_start`). ``interpoint`` asks for both sides
    of the paper (sheet layout, on a profile that offers it). ``date`` overrides
    :func:`pef_date`. Cards that cannot be placed are left out with EM findings.

    Raises :class:`EmbossError` (an unknown profile, format or layout, a paper the
    profile cannot take, interpoint where it is not offered) and
    :class:`pipeline.common.files.OutputError` when ``out_dir`` cannot be written.
    """
    prof = profile if isinstance(profile, EmbosserProfile) else load_profile(profile)
    unknown = [f for f in formats if f not in FORMATS]
    if unknown or not formats:
        raise EmbossError(f"unknown embosser file format {', '.join(unknown) or '(none)'}; formats: {', '.join(FORMATS)}")
    fmt = page_format_for(deck, prof, layout)
    copies = (layout == "card") if copies is None else copies
    start: CardStart | None = None
    if layout == "card" and blocks:
        first = next(iter(blocks.values()))
        fmt, start = card_start(prof, fmt, first.origin_mm, first.cells_per_line, first.lines_available, first.profile)
    if interpoint and ("interpoint" not in prof.duplex or layout != "sheet"):
        where = f"the {layout} layout" if layout != "sheet" else f"embosser profile {prof.id!r} (modes: {', '.join(prof.duplex)})"
        raise EmbossError(f"interpoint is not available for {where}")

    sequence, findings = _card_sequence(deck, blocks, copies)
    by_id = {c.id: c for c in deck.cards}
    lead = (start.lead_lines, start.lead_cells) if start else (0, 0)
    pagination = paginate(sequence, fmt, layout, lambda cid: by_id[cid].where(), lead)
    findings += pagination.findings
    if not pagination.pages:
        findings.append(rules.NOTHING_TO_EMBOSS.finding(
            f"no card of {deck.game.id} fits a page of embosser profile {prof.id} ({fmt.cells_per_line} cells × {fmt.lines_per_page} lines)",
            deck.game.where(), "see the other EM findings; choose a profile with a larger page"))
        return EmbossResult((), tuple(findings), fmt, ())

    out = Path(out_dir)
    stem = f"{deck.game.id}-{prof.id}-{layout}"
    rows = [page.rows for page in pagination.pages]
    paths: list[Path] = []
    if "brf" in formats:
        data = brf_bytes(rows)
        problems = check_brf(data, fmt.cells_per_line, fmt.lines_per_page)
        if problems:
            findings.append(rules.BRF_INVALID.finding(f"{stem}.brf not written: {problems[0]}", deck.game.where()))
        else:
            paths.append(write_bytes(out / f"{stem}.brf", data))
            sidecar = brf_sidecar(deck, prof, fmt, layout, pagination.pages, pagination.omitted, copies, interpoint, f"{stem}.brf", start)
            paths.append(write_text(out / f"{stem}.brf.json", json.dumps(sidecar, indent=2, ensure_ascii=False) + "\n"))
    if "pef" in formats:
        pef, problem = _pef_document(deck, prof, fmt, layout, rows, interpoint, date)
        if problem:
            findings.append(rules.PEF_INVALID.finding(f"{stem}.pef not written: {problem}", deck.game.where()))
        else:
            paths.append(write_bytes(out / f"{stem}.pef", pef))
    return EmbossResult(tuple(paths), tuple(findings), fmt, pagination.pages)


def _card_sequence(deck: Deck, blocks: Mapping[str, Block], copies: bool) -> tuple[list[tuple[str, tuple[str, ...]]], list[Finding]]:
    """The (card id, braille lines) to emboss in deck order, ``card.copies`` times each with
    ``copies``; an EM007 finding for each card without a braille block."""
    findings: list[Finding] = []
    sequence: list[tuple[str, tuple[str, ...]]] = []
    for card in deck.cards:
        block = blocks.get(card.id)
        if block is None:
            findings.append(rules.BLOCK_MISSING.finding(
                f"card {card.id} has no braille block to emboss", card.where().with_card(card.id),
                "check the braille stage's findings for this card"))
            continue
        sequence += [(card.id, tuple(block.lines))] * (card.copies if copies else 1)
    return sequence, findings


def _pef_document(deck: Deck, prof: EmbosserProfile, fmt: PageFormat, layout: Layout, rows, interpoint: bool,
                  date: str | None) -> tuple[bytes, str | None]:
    """The PEF bytes of these page rows and the first validation problem (None when valid)."""
    ident = content_identifier(deck.game.id, [prof.id, layout, fmt.cells_per_line, fmt.lines_per_page, interpoint, rows])
    meta = PefMeta(
        title=f"{deck.game.title}: braille cards",
        identifier=ident,
        date=date or pef_date(deck),
        description=f"{len(rows)} pages, {layout} layout, embosser profile {prof.id}: "
        f"{fmt.cells_per_line} cells × {fmt.lines_per_page} lines; UEB grade {deck.game.braille.grade}.",
    )
    data = pef_bytes(rows, fmt.cells_per_line, fmt.lines_per_page, meta, duplex=interpoint)
    problems = validate_pef(data)
    return data, (problems[0] if problems else None)


def brf_sidecar(deck: Deck, profile: EmbosserProfile, fmt: PageFormat, layout: Layout, pages: Sequence[EmbosserPage],
                omitted: Sequence[str], copies: bool, interpoint: bool, file_name: str, start: CardStart | None = None) -> dict:
    """The JSON sidecar of a BRF (BRF itself carries no metadata): how it was made and what is on each page.

    ``placements`` lists every card placed, in file order, with its page, row and column of
    cards, and the line and cell of its top-left cell on that page (all 1-based), so an
    operator can find and cut each card, and which copy of the card it is (``copy`` of ``of``);
    ``column_gap_cells`` is the cutting lane between columns; ``position`` (card layout) the
    braille's place on the card in mm (:meth:`CardStart.sidecar`).
    """
    braille = deck.game.braille
    seen: dict[str, int] = {}
    placements = []
    for n, page in enumerate(pages, 1):
        for p in page.placements:
            seen[p.card_id] = seen.get(p.card_id, 0) + 1
            placements.append({"card": p.card_id, "page": n, "row": p.row, "column": p.column, "line": p.line, "cell": p.cell,
                               "copy": seen[p.card_id], "of": deck.card_by_id(p.card_id).copies if copies else 1})
    return {
        "file": file_name,
        "format": "BRF, North American Braille ASCII (bytes 0x20-0x5F), CR LF after each line, form feed after each page",
        "game": deck.game.id,
        "table": table_name(braille.grade),
        "grade": braille.grade,
        "name_table": table_name(braille.name_grade) if braille.name_grade else None,
        "profile": profile.id,
        "embosser": profile.model,
        "layout": layout,
        "page_size_mm": [fmt.width_mm, fmt.height_mm],
        "cells_per_line": fmt.cells_per_line,
        "lines_per_page": fmt.lines_per_page,
        "duplex": "interpoint" if interpoint else "simplex",
        "copies_expanded": copies,
        "card_order": list(dict.fromkeys(cid for page in pages for cid in page.cards)),
        "pages": [list(page.cards) for page in pages],
        "column_gap_cells": COLUMN_GAP_CELLS if layout == "sheet" else None,
        "position": start.sidecar() if start else None,
        "placements": placements,
        "omitted": list(omitted),
        "copies": {c.id: c.copies for c in deck.cards},
    }


def jobs_for(profile: str) -> tuple[tuple[str, Layout], ...]:
    """The build's emboss jobs for a chosen profile: that profile in its natural layout (``card`` for
    card stock, ``sheet`` for sheet and tractor paper), plus the default sheet job so every build
    has sheets to cut. ``jobs_for("card-3x5") == DEFAULT_JOBS``. Raises :class:`EmbossError` for an unknown profile.
    """
    natural: Layout = "card" if load_profile(profile).paper.kind == "card" else "sheet"
    jobs = [(profile, natural)] + [job for job in DEFAULT_JOBS if job[1] == "sheet"]
    return tuple(dict.fromkeys(jobs))


def emboss_outputs(deck: Deck, blocks: Mapping[str, Block], out_dir: str | Path,
                   jobs: Sequence[tuple[str, Layout]] = DEFAULT_JOBS, date: str | None = None,
                   rulebook: str | Path | None = None) -> EmbossResult:
    """The build's emboss stage: BRF, sidecar and PEF for each ``(profile, layout)`` job into ``out_dir``,
    then the companion volumes for each profile of a sheet-layout job
    (:func:`pipeline.emboss.volume_files.write_volumes`; ``rulebook`` is ``--rulebook``).

    A job whose profile cannot take its page becomes an EM008 finding, one that cannot start
    the card's braille on the braille box an EM009 finding, instead of an error, so the build reports it with everything else. Returns all paths and findings.
    Raises :class:`EmbossError` for an unknown profile or layout (a settings mistake).
    """
    paths: list[Path] = []
    findings: list[Finding] = []
    for profile, layout in jobs:
        prof = load_profile(profile)
        try:
            result = write_embosser_files(deck, blocks, out_dir, prof, layout, date=date)
        except CardStartError as exc:
            findings.append(rules.CARD_START_UNREACHABLE.finding(str(exc), deck.game.card.where(),
                            "use a card-stock profile with start_offset: adjustable (card-3x5), or the sheet layout"))
            continue
        except EmbossError as exc:
            if layout not in LAYOUTS:
                raise
            findings.append(rules.PAPER_MISMATCH.finding(str(exc), deck.game.card.where(),
                            "use the card layout with a card-stock profile (card-3x5) or the sheet layout"))
            continue
        paths += result.paths
        findings += result.findings
    for profile in dict.fromkeys(p for p, layout in jobs if layout == "sheet"):
        volumes = write_volumes(deck, load_profile(profile), out_dir, date or pef_date(deck), rulebook)
        paths += volumes.paths
        findings += volumes.findings
    return EmbossResult(tuple(paths), tuple(dict.fromkeys(findings)))

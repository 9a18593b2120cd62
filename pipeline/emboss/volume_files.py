"""Writing the companion volumes (card reference, braille key, rulebook) as BRF and PEF per embosser profile.

For each profile whose paper is sheets or tractor feed (a book is not embossed on loose
3×5 cards) the volumes are laid out on the profile's page (:meth:`EmbosserProfile.page_format`,
e.g. 40 cells × 25 lines on the Everest-D's 11.5 × 11 in) and written as
``<game>-<profile>-<volume>.brf`` and ``.pef``, each checked first (:func:`check_brf`,
:func:`validate_pef`: schema and both Schematron rules); a file that fails is not written
and EM005/EM004 says why. ``<game>-<profile>-volumes.json`` (the volumes' sidecar) lists each
volume with its files, page count, preliminary pages and, for the card reference, the page of
every entry, which the archive links to.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from engine.findings import Finding
from engine.model import Deck
from engine.rulebook import Rulebook
from pipeline.common.files import write_bytes, write_text
from pipeline.emboss import rules
from pipeline.emboss.bana import BookFormatError
from pipeline.emboss.brf import brf_bytes, check_brf
from pipeline.emboss.pef import PefMeta, content_identifier, pef_bytes
from pipeline.emboss.profiles import EmbosserProfile
from pipeline.emboss.rulebook_volume import RULEBOOK_MISSING, rulebook_volume
from pipeline.emboss.validate import validate_pef
from pipeline.emboss.volumes import Volume, braille_key, card_reference


@dataclass(frozen=True)
class VolumeResult:
    """What :func:`write_volumes` wrote: paths, findings and the volumes' sidecar (a dict, also written as JSON)."""

    paths: tuple[Path, ...]
    findings: tuple[Finding, ...]
    sidecar: dict


def sidecar_name(game_id: str, profile_id: str) -> str:
    """The volumes' sidecar file name: ``<game>-<profile>-volumes.json``."""
    return f"{game_id}-{profile_id}-volumes.json"


def rulebook_source(deck: Deck, given: str | Path | None) -> tuple[Path | None, list[Finding]]:
    """The rulebook file a build uses: ``given`` (``--rulebook``), else the game's ``rulebook:``
    relative to the game folder; a named file that is missing gives EM011 (info) and None."""
    if given:
        return Path(given), []
    named = deck.game.rulebook
    if not named:
        return None, []
    path = Path(deck.folder or ".") / named
    if path.is_file():
        return path, []
    return None, [RULEBOOK_MISSING.finding(
        f"the game names its rulebook {named!r}, but {path} does not exist; the rulebook volume is skipped",
        deck.game.where("rulebook"), "put the rulebook text there, fix the path, or give --rulebook FILE")]


def _write_volume(deck: Deck, prof: EmbosserProfile, vol: Volume, out: Path, cols: int, rows: int, date: str,
                  findings: list[Finding]) -> list[Path]:
    stem = f"{deck.game.id}-{prof.id}-{vol.name}"
    pages = [list(p) for p in vol.pages]
    paths: list[Path] = []
    data = brf_bytes(pages)
    problems = check_brf(data, cols, rows)
    if problems:
        findings.append(rules.BRF_INVALID.finding(f"{stem}.brf not written: {problems[0]}", deck.game.where()))
    else:
        paths.append(write_bytes(out / f"{stem}.brf", data))
    meta = PefMeta(title=vol.title, identifier=content_identifier(deck.game.id, [prof.id, vol.name, cols, rows, pages]),
                   date=date, description=f"{len(pages)} pages ({vol.preliminary} preliminary), embosser profile {prof.id}: "
                   f"{cols} cells × {rows} lines; UEB grade {deck.game.braille.grade}.")
    pef = pef_bytes(pages, cols, rows, meta)
    problems = validate_pef(pef)
    if problems:
        findings.append(rules.PEF_INVALID.finding(f"{stem}.pef not written: {problems[0]}", deck.game.where()))
    else:
        paths.append(write_bytes(out / f"{stem}.pef", pef))
    return paths


def write_volumes(deck: Deck, prof: EmbosserProfile, out_dir: str | Path, date: str,
                  rulebook: str | Path | None = None) -> VolumeResult:
    """Write the card reference, the braille key and (when there is a rulebook) the rulebook volume
    of ``deck`` for embosser profile ``prof`` into ``out_dir``, and their sidecar.

    ``rulebook`` is a rulebook file (``--rulebook``); without it the game's ``rulebook:`` field
    is used (EM011 when that file is missing). ``date`` is the PEF ``dc:date`` and the
    transcription date (YYYY-MM-DD). A profile whose paper is loose cards gets no volumes (an
    empty result). Raises OSError (:class:`engine.rulebook.RulebookError`) for a rulebook that
    cannot be read or is not text, and :class:`pipeline.common.files.OutputError` when
    ``out_dir`` cannot be written.
    """
    if prof.paper.kind == "card":
        return VolumeResult((), (), {})
    fmt = prof.page_format()
    cols, rows = fmt.cells_per_line, fmt.lines_per_page
    findings: list[Finding] = []
    source, found = rulebook_source(deck, rulebook)
    findings += found
    try:
        volumes = [card_reference(deck, cols, rows, date), braille_key(deck, cols, rows, date)]
        if source is not None:
            vol, located = rulebook_volume(deck, Rulebook.read(source), source.name, cols, rows, date)
            volumes.append(vol)
            findings += located
    except BookFormatError as exc:
        findings.append(rules.PAPER_MISMATCH.finding(f"no companion volumes for {prof.id}: {exc}", deck.game.where()))
        return VolumeResult((), tuple(findings), {})
    out = Path(out_dir)
    paths: list[Path] = []
    listed = []
    for vol in volumes:
        written = _write_volume(deck, prof, vol, out, cols, rows, date, findings)
        paths += written
        entry = {"volume": vol.name, "title": vol.title, "files": [p.name for p in written], "pages": len(vol.pages),
                 "preliminary_pages": vol.preliminary, "body_pages": len(vol.pages) - vol.preliminary}
        if vol.name == "card-reference":
            entry["entries"] = {card.id: {"entry": n, "page": vol.anchors[f"entry-{n}"]}
                                for n, card in enumerate(deck.cards, 1)}
        if vol.name == "rulebook" and source is not None:
            entry["source"] = source.name
        listed.append(entry)
    sidecar = {"game": deck.game.id, "profile": prof.id, "cells_per_line": cols, "lines_per_page": rows,
               "page_numbers": "braille page number at the bottom right; preliminary pages p1, p2 ...",
               "volumes": listed}
    paths.append(write_text(out / sidecar_name(deck.game.id, prof.id), json.dumps(sidecar, indent=2, ensure_ascii=False) + "\n"))
    return VolumeResult(tuple(paths), tuple(findings), sidecar)

"""``deckpress check``: everything the build checks before it writes a file.

The engine's checks alone would pass data that the build then stops on (a name too
long for its box at 18 pt, an emoji liblouis cannot translate, a low-contrast palette).
So a check runs the build's own preflight stages — checks, braille layout and a print
dry run into a temporary folder — plus the UV layer's clearance check, and a game that
checks clean builds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from engine.findings import Finding
from engine.model import Deck
from engine.registry import Selection, filter_findings
from pipeline.fsutil import staging_writes
from pipeline.stages import Job, stage_braille, stage_checks, stage_print


def preflight(deck: Deck, rulebook: Path | None = None, selection: Selection = Selection(), geometry: str | None = None) -> list[Finding]:
    """Findings of the engine checks (with ``rulebook`` when given), the braille layout, the
    print stage and the braille/QR clearance, filtered by ``selection`` and the cards' ``ignore:``.

    Writes nothing that outlives the call. Bad data gives findings (BR005 for an unknown
    ``braille.geometry``, PR007 for a card size no layout has); an unknown ``geometry``
    override raises ValueError, a malformed layout template LayoutError.
    """
    from pipeline.build import BuildSettings
    from pipeline.render.tactile import clearance_findings

    settings = BuildSettings(rulebook=str(rulebook) if rulebook else None, geometry=geometry, select=selection.select, ignore=selection.ignore)
    with tempfile.TemporaryDirectory(prefix="deckpress-check-") as tmp, staging_writes():
        job = Job(deck, settings, Path(tmp))
        findings = stage_checks(job) + stage_braille(job) + stage_print(job)
        findings += clearance_findings(job.products["blocks"], deck=deck)
    return filter_findings(findings, selection, deck)

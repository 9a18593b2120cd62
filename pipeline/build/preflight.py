"""``deckpress check``: everything the build checks before it writes a file.

The engine's checks alone would pass data that the build then stops on (a name too
long for its box at 18 pt, an emoji liblouis cannot translate, a low-contrast palette).
So a check runs the build's own preflight stages — checks, braille layout and a print
dry run into a temporary folder — plus the checks of the later stages that data can fail
(UV clearance, die faces, archive links), and a game that checks clean builds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from engine.findings import Finding
from engine.model import Deck
from engine.registry import Selection, filter_findings, only_checks
from pipeline.common.files import staging_writes
from pipeline.build.settings import BuildSettings
from pipeline.build.job import Job
from pipeline.build.stages import stage_braille, stage_checks, stage_dice, stage_print


def preflight(deck: Deck, rulebook: Path | None = None, selection: Selection = Selection(), geometry: str | None = None,
              target: str = "fogra39") -> list[Finding]:
    """Findings of the engine checks (with ``rulebook`` when given), the braille layout, the
    print stage, the braille/QR clearance, the die sheets, the archive's QR links and the tuck
    boxes' layout (:func:`pipeline.boxes.output.box_findings`),
    filtered by ``selection`` and the cards' ``ignore:``: every check the build makes, so a
    game that checks clean builds. ``target`` is the printing target the print dry run measures
    against (``--target``); for a vendor preset its cut check (VE001/VE002) runs too.

    A selection of engine checks alone (``--select RB``, :func:`engine.registry.only_checks`)
    runs the checks alone: no dry run can give one of their findings (the dry runs' codes are
    the stages' own families), and the drawing and its imports are ~3 s of a rulebook check.

    Writes nothing that outlives the call. Bad data gives findings (BR005 for an unknown
    ``braille.geometry``, PR007 for a card size no layout has, CP008 for a card whose class
    the game lacks — nothing of that card is drawn); an unknown ``geometry`` override
    raises ValueError, a malformed layout template LayoutError.
    """
    if only_checks(selection):
        return _checks_alone(deck, rulebook, selection)
    from pipeline.archive.site import check_qr_links, write_archive
    from pipeline.boxes.output import box_findings
    from pipeline.render.deck_pdf import UnknownClassError
    from pipeline.render.tactile import clearance_findings

    from pipeline.exports.vendorcut import cut_findings
    from pipeline.render.targets import load_target

    settings = BuildSettings(rulebook=str(rulebook) if rulebook else None, geometry=geometry, select=selection.select,
                             ignore=selection.ignore, target=target)
    with tempfile.TemporaryDirectory(prefix="deckpress-check-") as tmp, staging_writes():
        job = Job(deck, settings, Path(tmp))
        findings = stage_checks(job) + stage_braille(job) + stage_dice(job)
        try:
            findings += stage_print(job)
        except UnknownClassError:
            pass  # the checks' CP008 finding names the card and its line
        blocks = job.braille_for("check").blocks
        findings += clearance_findings(blocks, deck=deck)
        archive = job.folder("archive")
        write_archive(deck, blocks, None, archive)  # pages without face images: the links are what is checked
        findings += check_qr_links(deck, archive)
        findings += box_findings(deck, job.braille_for("check").profile, load_target(target))
    if (vendor := load_target(target).vendor) is not None:
        from pipeline.common.layout import load_layout

        findings += cut_findings(vendor, load_layout(), target)
    return filter_findings(findings, selection, deck)


def _checks_alone(deck: Deck, rulebook: Path | None, selection: Selection) -> list[Finding]:
    """The findings of :func:`preflight` for a selection of engine checks alone: the checks
    stage (rulebook included) with nothing drawn. The stage modules are imported only when
    DQ005 runs, which judges the cards' ``ignore:`` entries against every registered code."""
    from engine.registry import RULES
    from pipeline.build.stages import import_stage_modules

    unknown_ignore = RULES.get("DQ005")
    if selection.allows(unknown_ignore.code, unknown_ignore.name):
        import_stage_modules()
    settings = BuildSettings(rulebook=str(rulebook) if rulebook else None, select=selection.select, ignore=selection.ignore)
    with tempfile.TemporaryDirectory(prefix="deckpress-check-") as tmp, staging_writes():
        findings = stage_checks(Job(deck, settings, Path(tmp)))
    return filter_findings(findings, selection, deck)


def deck_findings(deck: Deck) -> list[Finding]:
    """The engine's checks over the whole deck (composition needs every card), with the
    braille stage's power encoder; located findings, unsorted."""
    from engine.checks import run_checks
    from engine.registry import CheckContext
    from pipeline.braille.power import PowerEncoding
    from pipeline.build.stages import import_stage_modules

    import_stage_modules()  # every stage's codes registered, so a card's ignore: entries are known (DQ005)
    return run_checks(deck, CheckContext(power_encoder=PowerEncoding(deck.game.power, deck.game.braille.grade)))

"""The build's stages, in order: the table of contents of ``deckpress build``.

Each stage is a function of a :class:`~pipeline.build.job.Job` (the deck, the settings,
the staging folder and the typed products of earlier stages) that writes its files into
the staging folder and returns its findings. A stage reads earlier products through the
job's accessors (``job.print_for("tactile")`` raises
:class:`~pipeline.build.job.StageOrderError` when print has not run) and sets its own
product on the job. :data:`STAGES` lists the stages once, top to bottom; :data:`NEEDS`
says what ``--only`` must run first; the runner (:mod:`pipeline.build.runner`) runs
:data:`SEQUENTIAL` in order and every later stage in parallel chains.

Stage modules are imported inside the stage functions, so that reading this table
costs nothing; :func:`import_stage_modules` imports them all (which also declares
every stage's finding codes in the registry, for ``deckpress rules``).
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Callable

from engine.findings import Finding
from pipeline.build.archive_stages import VOLUMES, stage_archive, stage_faces
from pipeline.build.kept_stages import stage_boxes, stage_dice
from pipeline.build.job import BrailleProduct, Job, PrintProduct, TactileProduct
from pipeline.build.report import portable_findings

#: The stage modules in build order (DESIGN.md §1).
STAGE_MODULES: tuple[str, ...] = (
    "pipeline.braille.layout",
    "pipeline.braille.dice",
    "pipeline.dice.sheet",
    "pipeline.dice.output",
    "pipeline.qr.codes",
    "pipeline.render.deck_pdf",
    "pipeline.render.tactile",
    "pipeline.render.impose",
    "pipeline.emboss.write",
    "pipeline.archive.site",
    "pipeline.proofs.proof",
    "pipeline.boxes.output",
    "pipeline.exports.vendors",
)


def import_stage_modules() -> None:
    """Import every stage module (declares their finding codes; lets forked workers share them)."""
    for name in STAGE_MODULES:
        importlib.import_module(name)


def stage_checks(job: Job) -> list[Finding]:
    """Engine checks (composition, keywords, power, data quality, rulebook text)."""
    from engine.checks import run_checks
    from engine.registry import CheckContext, Selection, filter_findings
    from pipeline.braille.power import PowerEncoding

    rulebook = None
    if job.settings.rulebook:
        from engine.rulebook import Rulebook

        rulebook = Rulebook.read(Path(job.settings.rulebook))
    selection = Selection(job.settings.select, job.settings.ignore)
    ctx = CheckContext(power_encoder=PowerEncoding(job.deck.game.power), rulebook=rulebook)
    deck = job.game_deck  # the whole game: composition counts are of the game as played, not of one print run
    findings = filter_findings(run_checks(deck, ctx, selection), selection, deck)
    if job.settings.release:
        from pipeline.build.release import release_findings

        findings += release_findings(job.deck)
    return findings


def stage_braille(job: Job) -> list[Finding]:
    """Lay out every card's braille block (the cells all braille outputs are drawn from).

    The profile comes from :func:`profile_for` (``--geometry``, else the game's; BR005
    for an unknown game profile). Writes :class:`BrailleProduct` (the blocks and that profile)
    on ``job.braille`` for later stages.
    """
    from engine.gcpause import collector_paused
    from pipeline.braille.layout import layout_deck, profile_for

    profile, findings = profile_for(job.deck.game, job.settings.geometry)
    # The blocks all live on, and the collector's young walks over them and the loaded deck were
    # 0.31-0.36 of this serial stage's 1.1-1.2 s at 10,000 cards (gc callbacks; engine.gcpause).
    with collector_paused():
        blocks, layout_findings = layout_deck(job.deck, profile=profile)
    job.braille = BrailleProduct(blocks, profile)
    return findings + list(layout_findings)


def stage_print(job: Job) -> list[Finding]:
    """The print PDFs: one front per unique card, one page per card back (PDF/X-1a, CMYK, 3×5 in + bleed).

    A game whose card size has no layout gets the PR007 finding and nothing is drawn
    (``job.printed`` stays None: the error stops the build before later stages). Otherwise
    writes :class:`PrintProduct` (the fronts and backs) on ``job.printed``.
    """
    from pipeline.render.deck_pdf import NoCardLayout, render_backs, render_fronts

    gid = job.game_id
    try:
        fronts = render_fronts(job.deck, job.path("print", f"{gid}-fronts.pdf"), target=job.settings.target)
    except NoCardLayout as exc:
        return [exc.finding]
    backs = render_backs(job.deck, job.path("print", f"{gid}-backs.pdf"), target=job.settings.target)
    soft_fronts = soft_backs = None
    if set(SOFT_PROOF_READERS) <= set(stages_to_run(job.settings.only)):
        from pipeline.render.softproof import soft_proof_bytes

        # Once here for both readers' chains (issue 22: 1.6 ms a card each time); with one reader
        # it soft-proofs in its own chain, off this serial stage (0.7 s CPU for 1,000 fronts).
        soft_fronts = soft_proof_bytes(fronts.path, job.settings.target)
        soft_backs = soft_proof_bytes(backs.path, job.settings.target)
    job.printed = PrintProduct(fronts, backs, soft_fronts, soft_backs)
    return list(fronts.findings) + list(backs.findings)


def stage_qr(job: Job) -> list[Finding]:
    """Decode every front's QR code from a 300 dpi render of its box (zxing-cpp): it must give exactly the card's URL."""
    from pipeline.common.layout import load_layout
    from pipeline.qr.codes import verify_qr

    layout = load_layout()
    box = layout.qr.to_pdf(layout.trim.height, layout.bleed)
    fronts = job.print_for("qr").fronts
    cards = {c.id: c for c in job.deck.cards}
    urls = [(card_id, job.deck.game.archive.url_for(cards[card_id])) for card_id in fronts.pages]
    return verify_qr(fronts.path, urls, box)


def prepare_tactile(job: Job):
    """The tactile stage's part that needs only the braille layout: the UV package for ``--uv-printer``
    (:mod:`pipeline.render.uv.package`: flat plate, layered plates, K=100 mask, height maps, dot map,
    job ticket; a rebuild keeps each height map whose card key is unchanged, :mod:`pipeline.build.cardkeys`)
    in the fronts' page order, which is the deck's card order (:func:`pipeline.render.deck_pdf.render_fronts`),
    so it can be made while the print stage runs (:class:`pipeline.build.workers.ChainPool`).
    Returns ``(card ids, package)``; :func:`stage_tactile` checks the ids against the fronts."""
    from pipeline.render.targets import output_condition
    from pipeline.render.uv.package import printer_for, write_uv_package

    card_ids = [c.id for c in job.deck.cards]
    package = write_uv_package(job.deck, job.braille_for("tactile").blocks, card_ids, job.folder("uv"),
                               printer_for(job.settings.uv_printer), spot=job.settings.spot, papers=job.settings.papers,
                               condition=output_condition(job.settings.target), keep_maps=_keeper(job, "tactile", "uv/heightmap"))
    return card_ids, package


def stage_tactile(job: Job) -> list[Finding]:
    """The UV braille package (:func:`prepare_tactile`, unless it was made before the print stage
    ended for the fronts' page order) and the fronts with the flat plate merged as a spot plate."""
    from pipeline.render.tactile import clearance_findings, merge_spot_plate
    from pipeline.render.targets import output_condition
    from pipeline.render.uv.package import printer_for
    from pipeline.render.uv.sheets import write_composite_cards

    gid, blocks, fronts = job.game_id, job.braille_for("tactile").blocks, job.print_for("tactile").fronts
    prepared = job.prepared.pop("tactile", None)
    package = (prepared if prepared is not None and prepared[0] == list(fronts.pages) else prepare_tactile(job))[1]
    printer, condition = printer_for(job.settings.uv_printer), output_condition(job.settings.target)
    merged = merge_spot_plate(fronts.path, package.layer, job.path("uv", f"{gid}-fronts+braille.pdf"), condition=condition)
    composite = write_composite_cards(fronts.path, merged, blocks, list(fronts.pages), printer, package.spot, job.folder("uv"), gid,
                                      condition)
    job.tactile = TactileProduct(package.layer, package.plates, composite)
    _save_keys(job, "tactile")
    return list(package.findings) + clearance_findings(blocks, deck=job.deck)


def _keeper(job: Job, stage: str, folder: str, *shared: object):
    """What ``stage``'s per-card loop keeps from the previous build (:mod:`pipeline.build.cardkeys`), or None."""
    return job.reuse.keeper(stage, folder, *shared) if job.reuse is not None else None


def _save_keys(job: Job, stage: str) -> None:
    """Leave the card keys ``stage`` asked for in the staging folder, for the manifest (runs in the chain's worker)."""
    if job.reuse is not None:
        job.reuse.save(stage)


def stage_impose(job: Job) -> list[Finding]:
    """Press sheets per paper size: fronts, duplex backs, the braille layer imposed like the fronts, a calibration
    sheet, and the UV printer profile's layered plate sheets and the composite sheet (:mod:`pipeline.render.uv.sheets`)."""
    from engine.units import parse_length
    from pipeline.render.formpages import CardPages
    from pipeline.build.release import slug_note
    from pipeline.render.impose import deck_copies, impose
    from pipeline.render.sheets import get_sheet
    from pipeline.render.uv.package import printer_for
    from pipeline.render.uv.sheets import impose_uv_sheets
    from pipeline.render.targets import output_condition

    printed, tactile = job.print_for("impose"), job.tactile_for("impose")
    layer = tactile.layer
    fronts, backs = printed.fronts, printed.backs
    copies = deck_copies(job.deck, fronts.pages, backs.pages)
    # Boxes and labels read once; each PDF is closed after each output it goes into (CardPages.release).
    sources = (CardPages(fronts.path, "front"), CardPages(backs.path, "back"), CardPages(layer, "braille"))
    dx, dy = (parse_length(v) for v in job.settings.back_offset)
    uv_cards: tuple[CardPages | None, ...] = ()  # read after the first paper's CMYK sheets: one card PDF open at a time
    printer, note = printer_for(job.settings.uv_printer), slug_note(job.settings.run, job.settings.release)
    findings: list[Finding] = []
    for name in job.settings.papers:
        paper = get_sheet(name).with_back_offset(dx, dy)
        result = impose(*sources, paper, copies, job.folder("sheets"), job.game_id,
                        front_ids=fronts.pages, back_ids=backs.pages, note=note,
                        condition=output_condition(job.settings.target))
        uv_cards = uv_cards or tuple(CardPages(p, r) if p else None for p, r in ((tactile.plates, "plates"), (tactile.composite, "composite")))
        uv = impose_uv_sheets(result, fronts.pages, *uv_cards, printer, job.folder("sheets"), job.game_id, note,
                              condition=output_condition(job.settings.target))
        findings += list(result.findings) + list(uv.findings)
    return findings


def stage_emboss(job: Job) -> list[Finding]:
    """BRF and PEF embosser files (card per page for card stock, several cards per sheet to cut), and the
    companion volumes (card reference, braille key, rulebook) for each sheet profile."""
    from pipeline.emboss.write import emboss_outputs, jobs_for

    result = emboss_outputs(job.deck, job.braille_for("emboss").blocks, job.folder("emboss"), jobs=jobs_for(job.settings.profile),
                            rulebook=job.settings.rulebook)
    if not job.settings.rulebook:
        job.prepared[VOLUMES] = job.folder("emboss")  # the archive, next in this process, copies its downloads from there
    return list(result.findings)


def stage_proof(job: Job) -> list[Finding]:
    """PNG proofs of every front and back with the braille overlay and stamps, and the contact sheet.
    A rebuild keeps each front proof whose card key is unchanged (:mod:`pipeline.build.cardkeys`)."""
    from pipeline.proofs.proof import write_proofs

    printed = job.print_for("proof")
    fronts, backs = printed.fronts, printed.backs
    # The contact sheet names files as the manifest does: the same bytes from any working directory.
    shown = portable_findings(job.findings, job.deck.folder, (job.staging, Path(job.settings.out_dir) / job.game_id))
    write_proofs(job.deck, job.braille_for("proof").blocks, fronts.path, backs.path, job.folder("proofs"), shown,
                 dpi=job.settings.proof_dpi, front_ids=fronts.pages, back_ids=backs.pages, target=job.settings.target,
                 proofed=(printed.soft_fronts, printed.soft_backs), keep=_keeper(job, "proof", "proofs", fronts.name_sizes))
    _save_keys(job, "proof")
    return []


def stage_vendor(job: Job) -> list[Finding]:
    """For a vendor preset (``--target thegamecrafter`` …): its upload files and manifest in
    ``vendor/<target>/`` (:mod:`pipeline.exports.vendors`) and the VE cut findings; nothing for a press target."""
    from pipeline.exports.vendors import write_vendor_files
    from pipeline.render.targets import load_target

    target = load_target(job.settings.target)
    if target.vendor is None:
        return []
    printed = job.print_for("vendor")
    result = write_vendor_files(job.deck, printed.fronts.path, printed.backs.path, target, job.folder("vendor", target.id),
                                front_ids=printed.fronts.pages, back_ids=printed.backs.pages)
    return list(result.findings)


STAGES: tuple[tuple[str, Callable[[Job], list[Finding]]], ...] = (
    ("checks", stage_checks),
    ("braille", stage_braille),
    ("dice", stage_dice),
    ("print", stage_print),
    ("qr", stage_qr),
    ("tactile", stage_tactile),
    ("impose", stage_impose),
    ("emboss", stage_emboss),
    ("archive", stage_archive),
    ("faces", stage_faces),
    ("proof", stage_proof),
    ("boxes", stage_boxes),
    ("vendor", stage_vendor),
)

#: The preflight, run one after another in the game's process: all three run, then their
#: errors stop the game before any later stage (``deckpress check`` runs the same three).
#: Every later stage runs in a chain (stages that need each other), chains in parallel processes.
SEQUENTIAL = ("checks", "braille", "print")

#: The folder each stage writes in the game's output (``--only`` keeps the others' folders).
FOLDERS: dict[str, str] = {
    "dice": "dice",
    "print": "print",
    "tactile": "uv",
    "impose": "sheets",
    "emboss": "emboss",
    "archive": "archive",
    "faces": "archive",
    "proof": "proofs",
    "boxes": "boxes",
    "vendor": "vendor",
}

#: The finding families each later stage reports (``--only`` keeps the others' findings).
FAMILIES: dict[str, tuple[str, ...]] = {
    "dice": ("DI",),
    "print": ("PR",),
    "qr": ("QR",),
    "tactile": ("UV",),
    "impose": ("IM",),
    "emboss": ("EM",),
    "archive": ("AR",),
    "boxes": ("BX",),
    "vendor": ("VE",),
}

#: The stages that show the print PDFs soft-proofed: the print stage makes the soft proofs once for them.
SOFT_PROOF_READERS = ("faces", "proof")

#: What each stage needs first (for ``--only``); checks and braille always run.
NEEDS: dict[str, tuple[str, ...]] = {
    "qr": ("print",),
    "tactile": ("print",),
    "impose": ("print", "tactile"),
    "faces": ("print",),
    "proof": ("print",),
    "vendor": ("print",),
}
#: Stages ``--only`` runs along with each other, in chains of their own: the archive's pages and its faces.
ALONG: dict[str, tuple[str, ...]] = {"archive": ("faces",), "faces": ("archive",)}


def stages_to_run(only: tuple[str, ...] | None) -> list[str]:
    """Stage names to run for ``--only`` (dependencies added), in table order.

    Raises ValueError naming an unknown stage and listing the known ones.
    """
    names = [name for name, _ in STAGES]
    if not only:
        return names
    unknown = [s for s in only if s not in names]
    if unknown:
        raise ValueError(f"unknown stage {', '.join(unknown)}; stages: {', '.join(names)}")
    wanted = {"checks", "braille"} | set(only)
    grew = True
    while grew:
        extra = {d for s in wanted for d in NEEDS.get(s, ()) + ALONG.get(s, ())} - wanted
        grew = bool(extra)
        wanted |= extra
    return [n for n in names if n in wanted]


def branches(names: list[str]) -> list[list[str]]:
    """Group the stages after :data:`SEQUENTIAL` into chains: a stage joins the chain of a
    non-sequential stage it needs (impose follows tactile), otherwise it starts its own."""
    out: list[list[str]] = []
    home: dict[str, list[str]] = {}
    for name in names:
        if name in SEQUENTIAL:
            continue
        chain = next((home[d] for d in NEEDS.get(name, ()) if d in home), None)
        if chain is None:
            chain = []
            out.append(chain)
        chain.append(name)
        home[name] = chain
    return out


#: Stages with a part that needs only the braille layout, made while the print stage runs: the
#: chain they start runs it first, then waits for the print stage's product (:class:`pipeline.build.workers.ChainPool`).
PREPARE: dict[str, Callable[[Job], object]] = {"tactile": prepare_tactile}


def needs_print(chain: list[str]) -> bool:
    """Whether a chain needs the print stage's products (:data:`NEEDS`): a chain that does not
    (dice, emboss, boxes) can start while the print stage still runs (:mod:`pipeline.build.workers`)."""
    return any("print" in NEEDS.get(name, ()) for name in chain)

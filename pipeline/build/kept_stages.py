"""The stages a rebuild keeps whole while their inputs are unchanged (issue 22): dice and boxes.

Neither reads a card's text. The dice files (per die the face sheet PDF, 3MF, STL and PNG preview)
are made from the game's dice, its title, the braille geometry profile and the output condition:
:func:`pipeline.dice.sheet.render_die_sheets` and :func:`pipeline.dice.output.write_die_models` take
exactly those. The boxes (:func:`pipeline.boxes.output.write_boxes`) are made from a
:class:`pipeline.boxes.plan.BoxDeck` (the game and each class's printed cards of the run), the
profile, the printing target, the UV printer, its clear spot and the papers. Each stage's key
(:meth:`pipeline.build.cardkeys.CardReuse.keep_stage`) covers the deck digest (every data file but
``cards.yaml``, the code, templates, library versions and settings but ``--only``) and the canonical
form of exactly those values, so a card edit keeps the previous files (hard-linked, checked by size
and sha256), while a die or box edit in ``game.yaml`` (or, for the boxes, a card count) renders them
all again. Kept, a stage reports the previous build's findings of its codes, which the same key produced.
"""

from __future__ import annotations

from typing import Callable

from engine.findings import Finding
from pipeline.build.job import Job


#: The codes only the dice stage gives (pipeline/dice declares them; DI001 is the braille stage's).
DICE_CODES = frozenset({"DI002", "DI003", "DI004"})
#: The codes only the boxes stage gives (pipeline/boxes declares them; BX001 is the loader's, engine/boxes.py).
BOX_CODES = frozenset({f"BX00{n}" for n in range(2, 9)})


def stage_dice(job: Job) -> list[Finding]:
    """Per die: the face sheet PDF (its net at actual size, numerals, braille dots, key) and the
    3D-printable model (3MF, STL, PNG preview), checked as one watertight solid with its dots
    read back at the profile's height and spacing. Kept from the previous build when the dice inputs
    (module docs) are unchanged: then returns the previous build's DI findings."""
    from pipeline.dice.output import write_die_models
    from pipeline.dice.sheet import render_die_sheets
    from pipeline.render.targets import output_condition

    game, profile, condition = job.deck.game, job.braille_for("dice").profile, output_condition(job.settings.target)

    def render() -> list[Finding]:
        folder = job.folder("dice")
        sheets = render_die_sheets(game.dice, game.title, folder, profile, condition)
        models = write_die_models(game.dice, folder, profile)
        return [f for sheet in sheets for f in sheet.findings] + [f for files in models for f in files.findings]

    return _kept_or_rendered(job, "dice", "dice", DICE_CODES, (game.dice, game.title, profile, condition), render)


def stage_boxes(job: Job) -> list[Finding]:
    """The tuck boxes of the game's ``packaging`` (:mod:`pipeline.boxes`): per box the flat dieline PDF
    with its print, its UV braille plate, the geometry sidecar and PNG proofs; the boxes imposed on
    the press sheets; each box's QR code decoded at 300 dpi. A game without packaging writes nothing.
    Kept from the previous build when the box inputs (module docs) are unchanged: then returns the
    previous build's BX findings."""
    from pipeline.boxes.output import write_boxes
    from pipeline.boxes.plan import BoxDeck
    from pipeline.render.targets import load_target
    from pipeline.render.uv.package import printer_for

    if job.deck.game.packaging is None:
        return []
    boxed, profile, target = BoxDeck.of(job.deck), job.braille_for("boxes").profile, load_target(job.settings.target)
    printer = printer_for(job.settings.uv_printer)
    spot, papers = printer.clear_spot_for(job.settings.spot), tuple(job.settings.papers)

    def render() -> list[Finding]:
        return list(write_boxes(boxed, job.folder("boxes"), profile, target, printer, spot, papers).findings)

    return _kept_or_rendered(job, "boxes", "boxes", BOX_CODES, (boxed, profile, target, printer, spot, papers), render)


def _kept_or_rendered(job: Job, stage: str, folder: str, codes: frozenset[str], inputs: tuple,
                      render: Callable[[], list[Finding]]) -> list[Finding]:
    """The stage's files kept whole under ``folder`` when its key over ``inputs`` is unchanged (then the
    previous manifest's findings of ``codes``, each file named as this build names it), else ``render()``'s
    findings, its files recorded with the key; either way saved for the manifest. A render that gives a
    finding of another code (one another stage or the loader also gives, or a library module's) records
    no key: the next build renders the stage again rather than report a finding twice or not at all."""
    from engine.findings import finding_from_dict
    from pipeline.build.report import shown_names

    reuse = job.reuse
    if reuse is None:
        return render()
    key, kept = reuse.keep_stage(stage, folder, *inputs)
    if kept:
        shown = shown_names(job.deck.folder, reuse.final)
        findings = [finding_from_dict(d, shown) for d in reuse.findings if d["code"] in codes]
    else:
        findings = render()
        if all(f.code in codes for f in findings):
            reuse.record_stage(stage, folder, key)
    reuse.save(stage)
    return findings

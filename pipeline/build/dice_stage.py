"""The dice stage (:func:`stage_dice`), kept whole by a rebuild whose dice inputs are unchanged (issue 22).

The dice files (per die the face sheet PDF, 3MF, STL and PNG preview) are made from the game's
dice, its title, the braille geometry profile and the output condition only: no card value reaches
:func:`pipeline.dice.sheet.render_die_sheets` or :func:`pipeline.dice.output.write_die_models`, which
take exactly those. Their key (:meth:`pipeline.build.cardkeys.CardReuse.keep_stage`) covers the deck
digest (every data file but ``cards.yaml``, the code, templates, library versions and settings but
``--only``) and the canonical form of those four values, so a card edit keeps the previous files
(hard-linked, checked by size and sha256) and a die edit in ``game.yaml`` renders them all again.
Kept, the stage reports the previous build's DI findings, which the same key produced.
"""

from __future__ import annotations

from engine.findings import Finding
from pipeline.build.job import Job

#: The stage's name, its folder in the game's output and the finding codes its modules declare (DI001-DI004).
STAGE, FOLDER, CODES = "dice", "dice", ("DI",)


def stage_dice(job: Job) -> list[Finding]:
    """Per die: the face sheet PDF (its net at actual size, numerals, braille dots, key) and the
    3D-printable model (3MF, STL, PNG preview), checked as one watertight solid with its dots
    read back at the profile's height and spacing. Kept from the previous build when the dice inputs
    (module docs) are unchanged: then returns the previous build's DI findings, named as this build names them."""
    from pipeline.dice.output import write_die_models
    from pipeline.dice.sheet import render_die_sheets
    from pipeline.render.targets import output_condition

    game, profile, condition = job.deck.game, job.braille_for("dice").profile, output_condition(job.settings.target)
    reuse = job.reuse
    key, kept = reuse.keep_stage(STAGE, FOLDER, game.dice, game.title, profile, condition) if reuse is not None else ("", False)
    if kept:
        findings = _previous_findings(job)
    else:
        folder = job.folder(FOLDER)
        sheets = render_die_sheets(game.dice, game.title, folder, profile, condition)
        models = write_die_models(game.dice, folder, profile)
        findings = [f for sheet in sheets for f in sheet.findings] + [f for files in models for f in files.findings]
        if reuse is not None:
            reuse.record_stage(STAGE, FOLDER, key)
    if reuse is not None:
        reuse.save(STAGE)
    return findings


def _previous_findings(job: Job) -> list[Finding]:
    """The previous manifest's DI findings (portable form), each file named as a build of this game names it."""
    from pipeline.build.report import finding_from_dict, shown_names

    reuse = job.reuse
    shown = shown_names(job.deck.folder, reuse.final)
    return [finding_from_dict(d, shown) for d in reuse.findings if d["code"].startswith(CODES)]

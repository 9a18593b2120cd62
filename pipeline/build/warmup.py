"""Per-process set-up done once in the build's parent, before it forks (issue 22).

Every game of a cold build runs in a forked game worker, and every game's stage chains in
chain workers forked afresh from it (:mod:`pipeline.build.workers`). What a stage caches per
process (the fonts reportlab registers and parses, the jinja2 templates compiled, the ICC
transforms LittleCMS builds, the engine checks' module of ~100 compiled regular expressions)
was therefore built again in each worker that needed it: the archive templates once per game,
the fonts and ICC transforms once per game worker and again in the chains that did not inherit
them. :func:`warm_up` builds them in the parent, so every worker inherits them.

Only pure, per-process caches are filled here (each a function of its arguments and the
files it reads), so the build's output is the same bytes with or without it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pipeline.build.settings import BuildSettings


def warm_up(settings: BuildSettings) -> None:
    """Fill the per-process caches every build worker would otherwise fill for itself.

    Measured one process, CPU (December 2026, this machine): the engine checks import 0.14 s,
    the archive's jinja2 templates 0.13 s, the target's three ICC transforms 0.13 s, the four
    font faces 0.04 s; the dice numerals' font (fontTools) ~0.02 s and :data:`WORKER_MODULES`. Raises nothing: any error here (a missing font package,
    :class:`pipeline.render.fonts.FontError`; a missing ICC profile,
    :class:`pipeline.render.colour.ColourError`) is dropped, so that the stage that needs the
    cache meets it again and reports it with its own message and place, as it did before.
    """
    try:
        _fill(settings)
    except Exception:  # noqa: BLE001 - the stage that needs it reports it, as before
        pass


#: Modules the stages import lazily (so that ``deckpress check`` does without them) and every game
#: or chain worker of a build would then import for itself: zxing-cpp (the QR stage and the boxes'
#: QR decode), fontTools (the dice numerals' outlines), the UV package writers, the card-key and
#: partial-build helpers of each game worker. Found by listing ``sys.modules`` at the end of every
#: forked worker against its parent's (December 2026: 3-23 modules a worker, ~0.04 s each of
#: zxing-cpp and fontTools, in 2-4 workers of a build of the four shipped games).
WORKER_MODULES: tuple[str, ...] = (
    "numpy.ma",  # numpy.unique imports it on first call (np.ma.is_masked): the height maps' dome rows, ~10 ms a worker
    "zxingcpp",
    "pipeline.dice.glyphs",
    "pipeline.render.uv.heightmap",
    "pipeline.render.uv.package",
    "pipeline.render.uv.sheets",
    "pipeline.render.uv.ticket",
    "pipeline.build.cardkeys",
    "pipeline.build.partial",
)


def _fill(settings: BuildSettings) -> None:
    import importlib

    import pipeline.build.release  # noqa: F401  (every engine check: each game's build imports it)

    for name in WORKER_MODULES:
        importlib.import_module(name)
    from pipeline.build.stages import SOFT_PROOF_READERS, stages_to_run
    from pipeline.render.colour import printed_lab, soft_proof_srgb
    from pipeline.render.fonts import register_all

    register_all()
    if set(SOFT_PROOF_READERS) & set(stages_to_run(settings.only)):  # the archive and the proofs' contact sheet
        from pipeline.archive.site import environment

        templates = environment()
        for name in templates.list_templates():
            templates.get_template(name)  # compiled once, kept in the environment's cache
    if "dice" in stages_to_run(settings.only):
        from pipeline.dice.glyphs import numeral

        numeral("0", 12.0)  # parses the numerals' font file (fontTools, ~0.02 s) and its glyph set and cmap
    printed_lab((0, 0, 0, 0), settings.target)  # the target's CMYK -> Lab transform (the contrast checks)
    soft_proof_srgb((0, 0, 0, 0), settings.target)  # and CMYK -> sRGB (the soft proofs)

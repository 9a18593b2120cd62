"""The ``build`` command: every output of one or more games through :mod:`pipeline.build.runner`,
with a progress bar, one line per game and its findings."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.findings import exit_code
from pipeline.cli.common import back_offset_or_exit, err, exit_on, fail, print_summary, split_codes, target_option, validate_target
from pipeline.cli.plain import summary_line, write_line


def _stages_named(only: str | None) -> tuple[str, ...] | None:
    """``--only`` as stage names (None: every stage); exit 2 when it is given but names none
    (``--only ""``, an empty shell variable), which would otherwise build everything."""
    if only is None:
        return None
    names = tuple(split_codes([only]))
    if not names:
        fail("--only names no stage: give stage names separated by commas, or leave --only out for every stage")
    return names

def _game_dirs_or_exit(game_dirs: list[Path] | None, out_dir: Path, rulebook: Path | None) -> list[str]:
    """The game folders to build (default: every game in carddata/); exit 2 for an empty ``--out``,
    no game at all, or a ``--rulebook`` that is unreadable or given with more than one game."""
    from engine.paths import find_games

    if str(out_dir) in ("", "."):
        fail("--out must name an output folder of its own, not the working directory (default: output)")
    dirs = [str(d) for d in (game_dirs or find_games(Path("carddata")))]
    if not dirs:
        fail("no game folders given and none found in carddata/")
    if rulebook is not None and len(dirs) != 1:
        fail("--rulebook checks one game; give exactly one GAME_DIR with it")
    if rulebook is not None and not rulebook.is_file():
        fail(f"cannot read rulebook {rulebook}")
    if rulebook is not None:
        from engine.rulebook import Rulebook

        with exit_on(OSError, message=lambda exc: f"cannot read rulebook {rulebook}: {exc}"):
            Rulebook.read(rulebook)  # binary or oversized: one line, exit 2, before any stage runs
    return dirs


def build(
    game_dirs: Annotated[Optional[list[Path]], typer.Argument(help="Game folders; default: every game in carddata/.")] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder (one sub-folder per game).")] = Path("output"),
    rulebook: Annotated[Optional[Path], typer.Option(help="Also check the data against this rulebook and emboss it as a braille volume (give one GAME_DIR).")] = None,
    paper: Annotated[Optional[list[str]], typer.Option(help="Press sheet sizes for imposition: letter, a4, tabloid, 12x18, sra3 (repeatable).")] = None,
    profile: Annotated[str, typer.Option(help="Embosser profile for BRF/PEF (see templates/embossers/).")] = "card-3x5",
    spot: Annotated[str, typer.Option(help="Spot colour name of the UV braille layer (RDG_GLOSS for Roland, 'Spot 1' for Arizona).")] = "Braille",
    uv_printer: Annotated[str, typer.Option(help="UV printer profile (templates/uv-printers/): flat-plate, roland-versaworks, arizona, mimaki-rasterlink, height-map, generic-separations.")] = "flat-plate",
    back_offset: Annotated[str, typer.Option(help="Shift of the duplex backs as 'dx,dy' with units, read off the calibration sheet (x right, y up as the back is seen).")] = "0mm,0mm",
    geometry: Annotated[Optional[str], typer.Option(help="Braille dot geometry: spec800, ada-signage, marburg-medium, california (default: the game's).")] = None,
    strict: Annotated[bool, typer.Option(help="Warnings stop the build and fail it, like errors.")] = False,
    force: Annotated[bool, typer.Option(help="Write outputs even when error findings stand (recorded in the manifest).")] = False,
    only: Annotated[Optional[str], typer.Option(help="Run only these stages (comma-separated); their inputs are built too.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List info findings one by one too (default: counted by code).")] = False,
    run: Annotated[str, typer.Option(help="Print run: 'box' (what the game's box holds; for an expansion only the cards it adds) or 'combined' (base and expansion as played).")] = "box",
    release: Annotated[bool, typer.Option("--release", help="Press files: refuse to write while a card is provisional, a face prints placeholder art or the archive URL is a placeholder (exit 1, every cause listed).")] = False,
    target: Annotated[str, target_option(read=False)] = "fogra39",
    verify: Annotated[bool, typer.Option("--verify", help="Hash every previous output file to see that it is unchanged, instead of trusting files whose size, times and inode are as the last build recorded.")] = False,
) -> None:
    """Build every output for the given games: checks, braille, print PDFs, UV layer, press sheets, BRF/PEF, archive, proofs (and with a vendor preset --target, its upload files).

    Errors stop a game before anything is written (unless --force). An unchanged rebuild reuses the previous output.

    Example: [bold]deckpress build carddata/apprentice --paper letter --profile index-everest-d[/bold]
    """
    from pipeline.build.outputdir import BuildBusy
    from pipeline.build.progress import BuildProgress
    from pipeline.build.runner import run_build
    from pipeline.build.settings import BuildSettings
    from pipeline.common.files import OutputError
    from engine.runs import RUNS

    dirs = _game_dirs_or_exit(game_dirs, out_dir, rulebook)
    papers = tuple(split_codes(paper)) or BuildSettings.papers
    if run not in RUNS:
        fail(f"unknown --run {run!r}; runs: {', '.join(RUNS)}")
    if release and force:
        fail("--release cannot be forced: press files are written only when nothing stands in their way")
    settings = BuildSettings(
        back_offset=back_offset_or_exit(back_offset),
        out_dir=str(out_dir),
        papers=papers,
        profile=profile,
        spot=spot,
        uv_printer=uv_printer,
        geometry=geometry,
        strict=strict,
        force=force,
        only=_stages_named(only),
        rulebook=str(rulebook) if rulebook else None,
        run=run,
        release=release,
        target=target,
    )
    with exit_on(BuildBusy, OutputError, ValueError), BuildProgress(dirs, err, enabled=not quiet) as progress:
        outcomes = run_build(dirs, settings, progress.update, before_building=lambda: _validate_options(settings), verify=verify)
    worst = 0
    for o in outcomes:
        write_line(summary_line(o))
        if o.error:
            err.print(f"deckpress: {o.game_id}: {o.error}", markup=False)
        print_summary(o.findings, verbose)
        worst = max(worst, 2 if o.status in ("unreadable", "failed") else exit_code(o.findings, strict))
    write_line(f"report: {out_dir / 'report.json'}")
    raise typer.Exit(worst)


def _validate_options(settings) -> None:
    """Check the spot name and read the embosser, dot geometry and UV printer profiles, the sheet
    sizes and the printing target the build names; exit 2 with one line for the first that is
    unknown, unusable or does not match its schema.

    Called once some game must be built (:func:`pipeline.build.runner.run_build`): an unchanged
    rebuild, whose build key covers these settings and files, was built with them before, and
    skips reading them (they import pydantic and pikepdf, most of such a rebuild's time).
    """
    from pipeline.braille.geometry import get_profile
    from pipeline.emboss.profiles import EmbossError, load_profile
    from pipeline.render.sheets import ImpositionError, get_sheet
    from pipeline.render.tactile import TactileError, check_spot_name
    from pipeline.render.uv.printers import UvPrinterError, load_uv_printer

    # Each of these failed inside every game's build otherwise ("FAILED, nothing written" per game).
    with exit_on(TactileError):  # --spot 'a/b': not a usable PDF colorant name
        check_spot_name(settings.spot)
    with exit_on(EmbossError):  # --profile: an unknown embosser profile, or one that does not match its schema
        load_profile(settings.profile)
    if settings.geometry is not None:
        with exit_on(ValueError):  # --geometry: an unknown dot geometry profile
            get_profile(settings.geometry)
    with exit_on(UvPrinterError):  # an unknown profile or a spot name it reserves: one line, exit 2
        load_uv_printer(settings.uv_printer).clear_spot_for(settings.spot)
    with exit_on(ImpositionError):  # a typo'd --paper: one line before any game is built, not a failure per game
        for name in settings.papers:
            get_sheet(name)
    validate_target(settings.target)
    if settings.only and "vendor" in settings.only and _press_target(settings.target):
        fail(f"--only vendor writes a vendor preset's upload files, and {settings.target!r} is a press target; "
             "use --target thegamecrafter, makeplayingcards or drivethrucards")


def _press_target(name: str) -> bool:
    """True when the printing target ``name`` (known: the option's callback checked it) has no ``vendor:`` preset."""
    from pipeline.render.targets import load_target

    return load_target(name).vendor is None


COMMANDS = {"build": build}
"""Command name → function, registered on the app by :mod:`pipeline.cli.commands`."""

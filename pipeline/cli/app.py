"""The ``deckpress`` command line. Thin: parse options, call the engine or a stage, print, exit.

Only this module prints and chooses exit codes (DESIGN.md §6): 0 clean, 1 error
findings (or warnings under ``--strict``), 2 could not run. Tracebacks appear only
with ``--debug``.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Optional

import typer
from rich.console import Console

from engine.findings import Finding, Severity, exit_code, render_json, render_text

if TYPE_CHECKING:
    from engine.model import Deck
from engine.registry import RULES, Selection, filter_findings

app = typer.Typer(
    name="deckpress",
    help="Production pipeline for accessible card games: check card data, then build print PDFs, "
    "the UV braille layer, press sheets, BRF/PEF embosser files, proofs and the card archive.",
    rich_markup_mode="rich",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


class Format(str, Enum):
    """Findings output format."""

    text = "text"
    json = "json"


class _State:
    debug = False


@app.callback()
def _root(debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for internal errors.")] = False) -> None:
    _State.debug = debug


def split_codes(values: list[str] | None) -> tuple[str, ...]:
    """``--select BR,CP --select KW001`` → ``("BR", "CP", "KW001")``."""
    return tuple(v.strip() for raw in values or [] for v in raw.split(",") if v.strip())


def print_findings(findings: list[Finding], fmt: Format) -> None:
    """Findings to stdout as text (with a summary line) or JSON."""
    if fmt is Format.json:
        out.print(render_json(findings), markup=False)
    else:
        out.print(render_text(findings), markup=False)


def finish_with_findings(deck: Deck, findings) -> None:
    """End a stage command: apply the cards' ``ignore:``, print the findings (info counted by
    code), exit 0 or 1."""
    shown = filter_findings(list(findings), Selection(), deck)
    print_summary(shown, verbose=False, listing="deckpress check --verbose")
    raise typer.Exit(exit_code(shown))


def out_dir_or_exit(out_dir: Path | None) -> Path | None:
    """``--out`` as given; exit 2 for an empty value (it would scatter files into the working
    folder) and for a folder that holds card data or lies inside a game folder."""
    from pipeline.common.ownership import ForeignOutput, refuse_card_data

    if out_dir is not None and str(out_dir) in ("", "."):
        err.print("deckpress: give an output folder with --out (or leave --out out for the default)", markup=False)
        raise typer.Exit(2)
    if out_dir is not None:
        try:
            refuse_card_data(out_dir)
        except ForeignOutput as exc:
            err.print(f"deckpress: {exc}", markup=False)
            raise typer.Exit(2) from None
    return out_dir


def print_summary(findings: list[Finding], verbose: bool, listing: str = "--verbose") -> None:
    """Errors and warnings one by one; info findings counted by code unless ``verbose``; a summary
    line. ``listing`` names what lists the info findings one by one."""
    shown = findings if verbose else [f for f in findings if f.severity is not Severity.info]
    out.print(render_text(shown, counted=findings), markup=False)
    infos = Counter((f.code, f.name) for f in findings if f.severity is Severity.info)
    if infos and not verbose:
        listed = ", ".join(f"{code} {name} ×{n}" for (code, name), n in sorted(infos.items()))
        out.print(f"   info: {listed} ({listing} lists them)", markup=False)


def selection_or_exit(select: list[str] | None, ignore: list[str] | None) -> Selection:
    """``--select``/``--ignore`` as a Selection; exit 2 naming entries that match no rule."""
    import engine.checks  # noqa: F401  (registers the checks and the loader's codes)
    from pipeline.build.stages import import_stage_modules

    from engine.registry import closest_rule, unknown_selectors

    chosen, skipped = split_codes(select), split_codes(ignore)
    import_stage_modules()
    unknown = unknown_selectors(chosen + skipped)
    if unknown:
        guesses = [f"{e} (did you mean {closest_rule(e)}?)" if closest_rule(e) else e for e in unknown]
        err.print(f"deckpress: no rule matches {', '.join(guesses)}; deckpress rules lists them", markup=False)
        raise typer.Exit(2)
    return Selection(chosen, skipped)


def load_game(game_dir: Path) -> Deck:
    """:func:`engine.load.load_game`, imported on first use: the data model costs ~0.15 s to import,
    which an unchanged ``deckpress build`` never needs."""
    from engine.load import load_game as load

    return load(game_dir)


def load_or_exit(game_dir: Path, fmt: Format) -> Deck:
    """Load a game folder; on bad data print the findings and exit 2 (unreadable) or 1."""
    from engine.load import DataError

    try:
        return load_game(game_dir)
    except DataError as exc:
        print_findings(exc.findings, fmt)
        raise typer.Exit(2 if exc.unreadable else 1) from None


def rulebook_or_exit(path: Path | None):
    """Parse ``--rulebook FILE``; exit 2 naming the file when it cannot be read."""
    if path is None:
        return None
    from engine.rulebook import Rulebook

    try:
        return Rulebook.read(path)
    except OSError as exc:
        err.print(f"deckpress: cannot read rulebook {path}: {exc.strerror or exc}", markup=False)
        raise typer.Exit(2) from None


@app.command()
def check(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    rulebook: Annotated[Optional[Path], typer.Option(help="Rulebook text (plain or Markdown) to check against the data.")] = None,
    select: Annotated[Optional[list[str]], typer.Option(help="Only these codes, prefixes (BR) or names; repeatable or comma-separated.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option(help="Skip these codes, prefixes or names.")] = None,
    strict: Annotated[bool, typer.Option(help="Warnings fail too (exit 1).")] = False,
    format: Annotated[Format, typer.Option("--format", help="text for people, json for machines.")] = Format.text,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List info findings one by one (default: counted by code).")] = False,
) -> None:
    """Check a game before it is built: schema, composition, keywords, power, braille layout, print fit and contrast, and optionally its rulebook.

    A game that checks clean builds. Example: [bold]deckpress check carddata/apprentice --rulebook ../shared/seeds/000_c4e42988fabe8ac0.txt[/bold]
    """
    from pipeline.build.preflight import preflight

    selection = selection_or_exit(select, ignore)
    deck = load_or_exit(game_dir, format)
    if rulebook is not None:
        rulebook_or_exit(rulebook)  # a clear exit 2 for a missing or unreadable file
    findings = preflight(deck, rulebook, selection)
    if format is Format.json:
        print_findings(findings, format)
    else:
        print_summary(findings, verbose)
    raise typer.Exit(exit_code(findings, strict))


class SchemaFile(str, Enum):
    """Which data file's JSON Schema to print."""

    game = "game"
    cards = "cards"


@app.command()
def schema(
    which: Annotated[Optional[SchemaFile], typer.Argument(help="game or cards: that file's schema alone (what an editor takes); default both, keyed by file name.")] = None,
) -> None:
    """Print the JSON Schema of game.yaml and cards.yaml (for editor completion and validation).

    Example: [bold]deckpress schema cards > cards.schema.json[/bold]
    """
    from engine.model import CardsFile, Game

    doc = {"game.yaml": Game.model_json_schema(by_alias=True), "cards.yaml": CardsFile.model_json_schema(by_alias=True)}
    if which is not None:
        doc = doc[f"{which.value}.yaml"]
    out.print(json.dumps(doc, indent=2, ensure_ascii=False), markup=False)


@app.command()
def rules(format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """List every finding code with its name, default severity and summary."""
    import engine.checks  # noqa: F401  (registers the checks)
    from pipeline.build.stages import import_stage_modules

    import_stage_modules()  # stage modules declare their finding codes

    if format is Format.json:
        out.print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.value, "doc": r.doc} for r in RULES], indent=2), markup=False)
        return
    for r in RULES:
        out.print(f"{r.code}  {r.name:<34} {r.severity.value:<8} {r.summary}", markup=False)


def main() -> None:
    """Console entry point: run the app; internal errors become one line and exit 2 unless --debug."""
    import logging

    # pypdf logs its repairs of a damaged PDF ("invalid pdf header") on stderr; deckpress
    # reports an unreadable PDF itself, in one line.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        err.print("deckpress: interrupted", markup=False)
        sys.exit(130)
    except Exception as exc:  # the last line of defence: no traceback for users
        if _State.debug or "--debug" in sys.argv:
            raise
        err.print(f"deckpress: internal error: {type(exc).__name__}: {exc} (run with --debug for details)", markup=False)
        sys.exit(2)


@app.command()
def build(
    game_dirs: Annotated[Optional[list[Path]], typer.Argument(help="Game folders; default: every game in carddata/.")] = None,
    out_dir: Annotated[Path, typer.Option("--out", help="Output folder (one sub-folder per game).")] = Path("output"),
    rulebook: Annotated[Optional[Path], typer.Option(help="Also check the data against this rulebook (give one GAME_DIR).")] = None,
    paper: Annotated[Optional[list[str]], typer.Option(help="Press sheet sizes for imposition: letter, a4, tabloid, 12x18, sra3 (repeatable).")] = None,
    profile: Annotated[str, typer.Option(help="Embosser profile for BRF/PEF (see templates/embossers/).")] = "card-3x5",
    spot: Annotated[str, typer.Option(help="Spot colour name of the UV braille layer (RDG_GLOSS for Roland, 'Spot 1' for Arizona).")] = "Braille",
    back_offset: Annotated[str, typer.Option(help="Shift of the duplex backs as 'dx,dy' with units, read off the calibration sheet (x right, y up as the back is seen).")] = "0mm,0mm",
    geometry: Annotated[Optional[str], typer.Option(help="Braille dot geometry: spec800, ada-signage, marburg-medium, california (default: the game's).")] = None,
    strict: Annotated[bool, typer.Option(help="Warnings stop the build and fail it, like errors.")] = False,
    force: Annotated[bool, typer.Option(help="Write outputs even when error findings stand (recorded in the manifest).")] = False,
    only: Annotated[Optional[str], typer.Option(help="Run only these stages (comma-separated); their inputs are built too.")] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List info findings one by one too (default: counted by code).")] = False,
) -> None:
    """Build every output for the given games: checks, braille, print PDFs, UV layer, press sheets, BRF/PEF, archive, proofs.

    Errors stop a game before anything is written (unless --force). An unchanged rebuild reuses the previous output.

    Example: [bold]deckpress build carddata/apprentice --paper letter --profile index-everest-d[/bold]
    """
    from engine.paths import find_games
    from pipeline.build.runner import run_build
    from pipeline.build.settings import BuildSettings
    from pipeline.build.outputdir import BuildBusy
    from pipeline.common.files import OutputError
    from pipeline.build.progress import BuildProgress

    if str(out_dir) in ("", "."):
        err.print("deckpress: give an output folder with --out (default: output)", markup=False)
        raise typer.Exit(2)
    dirs = [str(d) for d in (game_dirs or find_games(Path("carddata")))]
    if not dirs:
        err.print("deckpress: no game folders given and none found in carddata/", markup=False)
        raise typer.Exit(2)
    if rulebook is not None and len(dirs) != 1:
        err.print("deckpress: --rulebook checks one game; give exactly one GAME_DIR with it", markup=False)
        raise typer.Exit(2)
    if rulebook is not None and not rulebook.is_file():
        err.print(f"deckpress: cannot read rulebook {rulebook}", markup=False)
        raise typer.Exit(2)
    from engine.units import parse_length

    offset = tuple(v.strip() for v in back_offset.split(","))
    try:
        if len(offset) != 2:
            raise ValueError(back_offset)
        for v in offset:
            parse_length(v)
    except ValueError:
        err.print(f"deckpress: --back-offset expects 'dx,dy' with units such as '0.5mm,-1mm', got {back_offset!r}", markup=False)
        raise typer.Exit(2) from None
    settings = BuildSettings(
        back_offset=offset,
        out_dir=str(out_dir),
        papers=tuple(split_codes(paper)) or BuildSettings.papers,
        profile=profile,
        spot=spot,
        geometry=geometry,
        strict=strict,
        force=force,
        only=tuple(split_codes([only])) if only else None,
        rulebook=str(rulebook) if rulebook else None,
    )
    try:
        with BuildProgress(dirs, err, enabled=not quiet) as progress:
            outcomes = run_build(dirs, settings, progress.update)
    except (BuildBusy, OutputError, ValueError) as exc:
        err.print(f"deckpress: {exc}", markup=False)
        raise typer.Exit(2) from None
    worst = 0
    for o in outcomes:
        label = {"built": "built", "cached": "unchanged, reused", "stopped": "STOPPED by findings, nothing written", "unreadable": "could not read"}[o.status]
        out.print(f"== {o.game_id}: {label}; {o.cards} unique cards, {o.copies} printed, {o.provisional} provisional" + (" (forced)" if o.forced else ""), markup=False)
        print_summary(o.findings, verbose)
        worst = max(worst, 2 if o.status == "unreadable" else exit_code(o.findings, strict))
    out.print(f"report: {out_dir / 'report.json'}", markup=False)
    raise typer.Exit(worst)


# The stand-alone stage commands register themselves on ``app`` (kept apart: one job per module).
from pipeline.cli import stages as _stage_commands  # noqa: E402,F401

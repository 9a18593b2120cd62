"""Commands about the card data itself: ``check`` (the linter), ``rules`` (every finding code)
and ``schema`` (the JSON Schema of the data files)."""

from __future__ import annotations

import json
from enum import Enum
from pathlib import Path
from typing import Annotated, Optional

import typer

from engine.findings import exit_code
from engine.registry import RULES
from pipeline.cli.common import (Format, err, load_or_exit, out, print_findings, print_summary, rulebook_or_exit, selection_or_exit,
                                 target_option, validate_target)


def check(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    rulebook: Annotated[Optional[Path], typer.Option(help="Rulebook text (plain or Markdown) to check against the data.")] = None,
    select: Annotated[Optional[list[str]], typer.Option(help="Only these codes, prefixes (BR) or names; repeatable or comma-separated.")] = None,
    ignore: Annotated[Optional[list[str]], typer.Option(help="Skip these codes, prefixes or names.")] = None,
    strict: Annotated[bool, typer.Option(help="Warnings fail too (exit 1).")] = False,
    format: Annotated[Format, typer.Option("--format", help="text for people, json for machines.")] = Format.text,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List info findings one by one (default: counted by code).")] = False,
    stats: Annotated[bool, typer.Option("--stats", help="Also print each class's cards and expected power (text format).")] = False,
    target: Annotated[str, target_option(read=False, help="Printing target the contrast, soft-proof and ink checks measure against (templates/targets/; "
                                         "a vendor preset also checks its cut): fogra39 (default), gracol, swop, thegamecrafter, "
                                         "makeplayingcards, drivethrucards.")] = "fogra39",  # read below, when a dry run uses it
) -> None:
    """Check a game before it is built: schema, composition, keywords, power, braille layout, print fit and contrast, and optionally its rulebook.

    A game that checks clean builds. Example: [bold]deckpress check carddata/apprentice --rulebook ../shared/seeds/000_c4e42988fabe8ac0.txt[/bold]
    """
    from pipeline.build.preflight import preflight

    from engine.registry import only_checks

    selection = selection_or_exit(select, ignore)
    if not only_checks(selection):  # the engine checks alone (--select RB) never read the target: no pydantic, no pikepdf
        validate_target(target)
    deck = load_or_exit(game_dir, format)
    if rulebook is None:
        rulebook = _named_rulebook(deck, game_dir)
    if rulebook is not None:
        rulebook_or_exit(rulebook)  # a clear exit 2 for a missing or unreadable file
    findings = preflight(deck, rulebook, selection, target=target)
    if format is Format.json:
        print_findings(findings, format)
        if stats:
            err.print("note: --stats prints its table in the text format only (the JSON output is the findings)", markup=False)
    else:
        print_summary(findings, verbose)
        if stats:
            print_class_stats(deck)
    raise typer.Exit(exit_code(findings, strict))


def _named_rulebook(deck, game_dir: Path) -> Path | None:
    """The rulebook game.yaml names (``rulebook:``, relative to the game folder), checked when no
    ``--rulebook`` is given; a named file that is missing is said on stderr (the checks run without it)."""
    if not deck.game.rulebook:
        return None
    path = Path(deck.folder or game_dir) / deck.game.rulebook
    if path.is_file():
        return path
    err.print(f"note: game.yaml names the rulebook {deck.game.rulebook!r} but {path} does not exist; "
              "the rulebook checks are skipped (fix the path or give --rulebook FILE)", markup=False)
    return None


def print_class_stats(deck) -> None:
    """The per-class table of :func:`engine.checks.balance.class_stats`: printed cards, unique
    cards, expected power (a rolled "?" at its die's mean), what is not counted."""
    from engine.checks.balance import class_stats, figure

    rows = class_stats(deck)
    out.print(f"{'class':<16} {'cards':>5} {'unique':>6} {'expected power':>14} {'rolled ?':>8}  not counted", markup=False)
    for st in rows:
        skipped = ", ".join(f"{v} x{n}" for v, n in st.uncounted.items()) or "-"
        out.print(f"{st.name:<16} {st.cards:>5} {st.unique:>6} {figure(st.power):>14} {st.rolled:>8}  {skipped}", markup=False)
    keywords = sorted({k for st in rows for k in st.keywords})
    if keywords:
        out.print(f"keyword effects not counted: {', '.join(keywords)}", markup=False)


class SchemaFile(str, Enum):
    """Which data file's JSON Schema to print."""

    game = "game"
    cards = "cards"


def schema(
    which: Annotated[Optional[SchemaFile], typer.Argument(help="game or cards: that file's schema alone (what an editor takes); default both, keyed by file name.")] = None,
) -> None:
    """Print the JSON Schema of game.yaml and cards.yaml (for editor completion and validation).

    Example: [bold]deckpress schema cards > cards.schema.json[/bold]
    """
    from engine.schema import cards_schema, game_schema

    doc = {"game.yaml": game_schema(), "cards.yaml": cards_schema()}
    if which is not None:
        doc = doc[f"{which.value}.yaml"]
    out.print(json.dumps(doc, indent=2, ensure_ascii=False), markup=False)


def rules(format: Annotated[Format, typer.Option("--format")] = Format.text) -> None:
    """List every finding code with its name, default severity and summary."""
    import engine.checks  # noqa: F401  (registers the checks)
    from pipeline.build.stages import import_stage_modules

    import_stage_modules()  # stage modules declare their finding codes

    if format is Format.json:
        out.print(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.value, "doc": r.doc} for r in RULES], indent=2), markup=False)
        return
    for r in RULES:  # the summary's reST literals (``x``) read as `x` on a terminal
        out.print(f"{r.code}  {r.name:<34} {r.severity.value:<8} {r.summary.replace('``', '`')}", markup=False)


COMMANDS = {"check": check, "schema": schema, "rules": rules}
"""Command name → function, registered on the app by :mod:`pipeline.cli.commands` in this order."""

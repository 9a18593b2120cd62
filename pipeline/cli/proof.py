"""The proofing commands: ``proof`` (PNG proofs of card fronts and a contact sheet) and
``watch`` (re-proof the cards whose data, art or templates change)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.common import (Format, err, exit_on, finish_with_findings, load_game, load_or_exit, out, out_option, print_findings,
                                 target_option)

GAME_DIR = Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")]
DPI = Annotated[int, typer.Option("--dpi", min=36, max=600, help="Resolution of the PNG proofs.")]


def _proof_folder(game_dir: Path, out_dir: Path | None) -> Path:
    """``--out`` or ``output/<game id>/proofs`` (the game folder's name when game.yaml does not load)."""
    from engine.load import DataError

    if out_dir is not None:
        return out_dir
    try:
        return Path("output") / load_game(game_dir).game.id / "proofs"
    except DataError:
        return Path("output") / game_dir.name / "proofs"


def proof(
    game_dir: GAME_DIR,
    card: Annotated[Optional[list[str]], typer.Option("--card", help="Proof only this card id (repeatable). Default: every card, the backs and the contact sheet.")] = None,
    out_dir: Annotated[Optional[Path], out_option("Output folder (default: output/<game id>/proofs, where the build puts them).")] = None,
    dpi: DPI = 150,
    target: Annotated[str, target_option("Printing target the proofs show (soft proof through its profile) and the palette checks "
                                         "measure against: fogra39 (default), gracol, swop or a vendor preset.")] = "fogra39",
) -> None:
    """PNG proofs of card fronts (braille drawn as a dot overlay, provisional cards and placeholder art stamped) and a contact sheet.

    Example: [bold]deckpress proof carddata/apprentice --card ember-apprentice[/bold]
    """
    from pipeline.build.preflight import deck_findings
    from pipeline.common.files import OutputError
    from pipeline.common.raster import RasterError
    from pipeline.proofs.proof import ProofError, proof_cards
    from pipeline.render.deck_pdf import UnknownClassError, unknown_class_findings
    from pipeline.render.style import LayoutError

    deck = load_or_exit(game_dir, Format.text)
    if stop := unknown_class_findings(deck, card or None):  # a data error: the CP008 finding, exit 1
        finish_with_findings(deck, stop)
    folder = out_dir or Path("output") / deck.game.id / "proofs"
    # an unknown --card is a KeyError whose message is its first argument (str() would quote it)
    with (exit_on(LayoutError, OutputError, RasterError, ProofError), exit_on(UnknownClassError, code=1),
          exit_on(KeyError, message=lambda exc: exc.args[0])):
        run = proof_cards(deck, card or None, folder, dpi, checks=deck_findings(deck), target=target)
    shown = run.paths if card else [p for p in run.paths if p.suffix == ".html"]
    out.print(f"wrote {len(run.paths)} proof file(s) in {folder}" + "".join(f"\n  {p}" for p in shown), markup=False)
    finish_with_findings(deck, list(run.findings))


def watch(
    game_dir: GAME_DIR,
    out_dir: Annotated[Optional[Path], out_option("Proof folder (default: output/<game id>/proofs).")] = None,
    dpi: DPI = 150,
) -> None:
    """Proof every card, then re-proof the cards whose data, art or templates change, printing new findings as they appear. Ctrl-C stops.

    Example: [bold]deckpress watch carddata/apprentice[/bold]
    """
    from pipeline.build.watch import watch as watch_game
    from pipeline.common.files import OutputError

    folder = _proof_folder(game_dir, out_dir)

    def show(report) -> None:
        if report.error:
            out.print(f"{game_dir}: the data does not load; fix it and save again", markup=False)
        elif report.rebuilt or report.removed:
            names = ", ".join(report.rebuilt[:8]) + (" …" if len(report.rebuilt) > 8 else "")
            out.print(f"re-proofed {len(report.rebuilt)} card(s){': ' + names if names else ''}"
                      + (f"; removed {', '.join(report.removed)}" if report.removed else "") + f" → {folder}", markup=False)
        else:
            return
        print_findings(list(report.new_findings), Format.text)
        err.print(f"{len(report.findings)} finding(s) in all; watching {game_dir} (Ctrl-C stops)", markup=False)

    try:
        with exit_on(OutputError):
            watch_game(game_dir, folder, show, dpi=dpi)
    except KeyboardInterrupt:  # Ctrl-C is how a watch ends: exit 0, not "interrupted"
        raise typer.Exit(0) from None


COMMANDS = {"proof": proof, "watch": watch}
"""Command name → function, registered on the app by :mod:`pipeline.cli.commands`."""

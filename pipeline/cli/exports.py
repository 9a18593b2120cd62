"""The spreadsheet and playtest commands: ``import`` (a card table into cards.yaml) and
``export`` (cards.yaml as a card table, or ``--tts`` the Tabletop Simulator files)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.common import Format, exit_on, fail, load_or_exit, out, print_summary

GAME_OPTION = Annotated[Path, typer.Option("--game", help="Game folder holding game.yaml (and cards.yaml, which the import writes or updates).")]


def import_cards(
    table: Annotated[Path, typer.Argument(help="The card table: .xlsx, .ods or .csv, one row per card, columns named after the card fields.")],
    game: GAME_OPTION,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="List info findings one by one.")] = False,
) -> None:
    """Import a spreadsheet of cards into a game's cards.yaml (comments and order kept), after every check the build runs.

    Findings name the cell (cards.xlsx:Sheet1!C14); on any error nothing is written (exit 1).
    Example: [bold]deckpress import cards.xlsx --game carddata/apprentice[/bold]
    """
    from engine.findings import exit_code
    from engine.load import DataError
    from pipeline.cli.common import print_findings
    from pipeline.exports.sheetimport import import_table
    from pipeline.exports.table import TableError

    if not (game / "game.yaml").is_file():
        from engine.loadhints import folder_hint

        fail(f"{game} is not a game folder (no game.yaml); {folder_hint(game)}")
    try:
        with exit_on(TableError, OSError):
            result = import_table(table, game)
    except DataError as exc:  # game.yaml (or its base game's data) cannot be read
        print_findings(exc.findings, Format.text)
        raise typer.Exit(2) from None
    print_summary(result.findings, verbose)
    code = exit_code(result.findings)
    if code:
        out.print(f"nothing written: {result.target} is unchanged", markup=False)
    elif result.written:
        out.print(f"wrote {result.cards} card(s) to {result.target}", markup=False)
    else:
        out.print(f"{result.target} already holds these {result.cards} card(s): unchanged", markup=False)
    raise typer.Exit(code)


def export(
    game_dir: Annotated[Path, typer.Argument(help="Game folder holding game.yaml and cards.yaml.")],
    out_path: Annotated[Optional[Path], typer.Option("--out", help="The table to write (.xlsx or .csv; default output/<game id>/<game id>-cards.xlsx), or with --tts the folder (default output/<game id>/tts).")] = None,
    tts: Annotated[bool, typer.Option("--tts", help="Write the Tabletop Simulator deck sheets, back images and saved-object JSON instead of the table.")] = False,
    base_url: Annotated[Optional[str], typer.Option("--base-url", help="With --tts: the URL the images will be uploaded to (default: the file:// URL of the output folder).")] = None,
) -> None:
    """Export a game's cards.yaml as a card table (the import's format: a round trip is lossless), or with --tts for Tabletop Simulator.

    Example: [bold]deckpress export carddata/apprentice --out cards.xlsx[/bold], [bold]deckpress export carddata/apprentice --tts[/bold]
    """
    from pipeline.common.files import OutputError

    deck = load_or_exit(game_dir, Format.text)
    if tts:
        _export_tts(deck, out_path, base_url)
        return
    from engine.load import CARDS_FILE, DataError, display_path
    from engine.model import CardsFile
    from engine.yamlsource import YamlProblem, load_yaml
    from pipeline.common.files import write_bytes
    from pipeline.exports.table import TableError, write_table

    path = out_path or Path("output") / deck.game.id / f"{deck.game.id}-cards.xlsx"
    _refuse_card_data_folder(path.parent, children=False)  # one file: beside game folders is fine, never in one
    own = Path(game_dir) / CARDS_FILE  # the folder's own cards (an expansion's table holds only what it adds)
    try:
        data, _ = load_yaml(own.read_text(encoding="utf-8"), display_path(own))
        cards = CardsFile.model_validate(data).cards
    except (OSError, YamlProblem, ValueError, DataError) as exc:  # load_or_exit read it already: a race
        fail(f"cannot read {own}: {exc}")
    with exit_on(TableError, OutputError):
        write_bytes(path, write_table(cards, path))
    out.print(f"wrote {len(cards)} card(s) to {path}", markup=False)


def _refuse_card_data_folder(folder: Path, children: bool = True) -> None:
    """Exit 2 when ``folder`` holds card data or lies in a game folder (outputs never go there);
    ``children``: also when a folder in it holds card data (:func:`~pipeline.common.ownership.card_data_near`)."""
    from pipeline.common.ownership import ForeignOutput, refuse_card_data

    with exit_on(ForeignOutput):
        refuse_card_data(folder, children)


def _export_tts(deck, out_dir: Path | None, base_url: str | None) -> None:
    """``export --tts``: the TTS files into ``out_dir`` (default output/<game id>/tts)."""
    from pipeline.common.files import OutputError
    from pipeline.common.raster import RasterError
    from pipeline.exports.tts import write_tts
    from pipeline.render.deck_pdf import UnknownClassError
    from pipeline.render.style import LayoutError

    folder = out_dir or Path("output") / deck.game.id / "tts"
    _refuse_card_data_folder(folder)
    with exit_on(LayoutError, OutputError, RasterError), exit_on(UnknownClassError, code=1):
        paths = write_tts(deck, folder, base_url)
    out.print(f"wrote {len(paths)} Tabletop Simulator file(s) in {folder}" + "".join(f"\n  {p}" for p in paths), markup=False)


COMMANDS = {"import": import_cards, "export": export}
"""Command name → function, registered on the app by :mod:`pipeline.cli.commands`."""

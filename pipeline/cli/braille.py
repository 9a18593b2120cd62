"""The ``braille`` command: translate a line of print to UEB braille (Unicode cells and BRF)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from pipeline.cli.common import Format, exit_on, load_or_exit, out


def braille(
    text: Annotated[str, typer.Argument(help="Print text to translate.")],
    game: Annotated[Optional[Path], typer.Option("--game", help="Game folder whose braille settings (grade) apply.")] = None,
    grade: Annotated[Optional[int], typer.Option("--grade", min=1, max=2, help="UEB grade 1 or 2 (default: the game's, else 2).")] = None,
    name: Annotated[bool, typer.Option("--name", help="Translate as a card name (the game's name_grade when set).")] = False,
) -> None:
    """Translate text to UEB braille: prints Unicode braille cells, then Braille ASCII (BRF).

    Example: [bold]deckpress braille "Forest Apprentice" --game carddata/apprentice[/bold]
    """
    from pipeline.braille.cells import to_brf
    from pipeline.braille.translate import UntranslatableCharacter, translate

    settings = load_or_exit(game, Format.text).game.braille if game else None
    chosen = grade or (settings and name and settings.name_grade) or (settings and settings.grade) or 2
    with exit_on(UntranslatableCharacter):
        cells = translate(text, chosen)
    out.print(cells, markup=False)
    out.print(to_brf(cells), markup=False)


COMMANDS = {"braille": braille}
"""Command name → function, registered on the app by :mod:`pipeline.cli.commands`."""

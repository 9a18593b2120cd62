"""The ``deckpress`` typer app, assembled from the command modules (the console entry point,
:func:`pipeline.cli.app.main`, imports it when a command is not an unchanged rebuild).

Each command module (:mod:`~pipeline.cli.check`, :mod:`~pipeline.cli.build`,
:mod:`~pipeline.cli.stages`, :mod:`~pipeline.cli.braille`, :mod:`~pipeline.cli.proof`) exposes a
``COMMANDS`` table and never imports this module; this module imports them and registers their
commands, so the CLI has no import circle. Exit codes (DESIGN.md §6): 0 clean, 1 error findings
(or warnings under ``--strict``), 2 could not run; tracebacks only with ``--debug``.
"""

from __future__ import annotations

from typing import Annotated

import typer
from typer.core import TyperOption

from pipeline.cli import braille, build, check, exports, proof, stages
from pipeline.cli.common import DebugState

def _flag_type(option, ctx):
    """The help's type column for an option: none for a flag (``--quiet``, ``--help``).

    typer 0.29 shows ``<bool>`` beside every flag, which reads as "give a value": ``deckpress
    build --quiet true`` then took ``true`` as the game folder (a new user's try)."""
    return None if option.is_flag and not option.count else _option_type(option, ctx)


_option_type = TyperOption.display_type_rich
TyperOption.display_type_rich = _flag_type

app = typer.Typer(
    name="deckpress",
    help="Production pipeline for accessible card games: check card data, then build print PDFs, "
    "the UV braille layer, press sheets, BRF/PEF embosser files, proofs and the card archive.",
    rich_markup_mode="rich",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

COMMANDS = {**check.COMMANDS, **build.COMMANDS, **stages.COMMANDS, **braille.COMMANDS, **proof.COMMANDS, **exports.COMMANDS}
"""Every command: name → function."""
HELP_ORDER = ("check", "schema", "rules", "build", "emboss", "braille", "dice", "render", "proof", "watch", "uv", "impose", "import", "export")
"""The order ``deckpress --help`` lists the commands in (a command missing here fails at import)."""

for command_name in sorted(COMMANDS, key=HELP_ORDER.index):
    app.command(command_name)(COMMANDS[command_name])


@app.callback()
def _root(debug: Annotated[bool, typer.Option("--debug", help="Show tracebacks for internal errors.")] = False) -> None:
    DebugState.debug = debug

"""The ``deckpress`` typer app, assembled from the command modules, and its console entry point.

Each command module (:mod:`~pipeline.cli.check`, :mod:`~pipeline.cli.build`,
:mod:`~pipeline.cli.stages`, :mod:`~pipeline.cli.braille`, :mod:`~pipeline.cli.proof`) exposes a
``COMMANDS`` table and never imports this module; this module imports them and registers their
commands, so the CLI has no import circle. Exit codes (DESIGN.md §6): 0 clean, 1 error findings
(or warnings under ``--strict``), 2 could not run; tracebacks only with ``--debug``.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from pipeline.cli import braille, build, check, exports, proof, stages
from pipeline.cli.common import DebugState, err

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


def _exit_interrupted() -> None:
    """Ctrl-C: one line, exit 130 at once. The build's own clean-up (staging folders, the lock)
    has run while the interrupt unwound; skipping the interpreter's exit handlers keeps
    concurrent.futures' from writing to a worker pipe Ctrl-C already closed, which would print
    an "Exception ignored" traceback. Workers die with the build (PR_SET_PDEATHSIG)."""
    import os

    err.print("deckpress: interrupted", markup=False)
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(130)


def main() -> None:
    """Console entry point: run the app; an internal error becomes one line and exit 2 unless
    ``--debug``; Ctrl-C prints ``deckpress: interrupted`` and exits 130 (128 + SIGINT)."""
    import logging
    import signal

    # pypdf logs its repairs of a damaged PDF ("invalid pdf header") on stderr; deckpress
    # reports an unreadable PDF itself, in one line.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    interrupted = []

    def on_interrupt(signum, frame) -> None:
        # typer turns KeyboardInterrupt into a silent Exit(130); remember that it was Ctrl-C.
        interrupted.append(signum)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, on_interrupt)
    try:
        app()
    except SystemExit as exc:
        if interrupted and exc.code not in (0, None):
            _exit_interrupted()
        raise
    except KeyboardInterrupt:
        _exit_interrupted()
    except Exception as exc:  # the last line of defence: no traceback for users
        if DebugState.debug or "--debug" in sys.argv:
            raise
        from pipeline.render.colour import ColourError

        if isinstance(exc, ColourError):  # a setup step not run (no ICC profile built): say what to run, not "internal"
            err.print(f"deckpress: {exc}", markup=False)
            sys.exit(2)
        err.print(f"deckpress: internal error: {type(exc).__name__}: {exc} (run with --debug for details)", markup=False)
        sys.exit(2)

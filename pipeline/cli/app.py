"""The ``deckpress`` console entry point (:func:`main`) and, on first use, the typer app.

``app``, ``COMMANDS`` and ``HELP_ORDER`` are those of :mod:`pipeline.cli.commands`, imported when
first asked for: typer 0.29, rich and pydantic cost ~0.3 s of CPU to import and to read the
options, which is all of what ``deckpress build`` has to do when nothing changed. :func:`main`
first lets :mod:`pipeline.cli.unchanged` answer such a build without them; every other command,
and a build with anything to build, runs through the typer app as before. Exit codes
(DESIGN.md §6): 0 clean, 1 error findings (or warnings under ``--strict``), 2 could not run;
tracebacks only with ``--debug``.
"""

from __future__ import annotations

import sys


def __getattr__(name: str):
    """``app``, ``COMMANDS`` and ``HELP_ORDER`` from :mod:`pipeline.cli.commands` (PEP 562), imported on first use."""
    if name in ("app", "COMMANDS", "HELP_ORDER"):
        from pipeline.cli import commands

        return getattr(commands, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: What the build says when a signal ends it, by signal number (exit code 128 + the number).
_STOPPED_BY = {2: "interrupted", 15: "terminated (SIGTERM)", 1: "hung up (SIGHUP: the terminal closed)"}


def _exit_interrupted(signum: int = 2) -> None:
    """Ctrl-C (or SIGTERM, SIGHUP): one line, exit 128 + the signal's number at once. The build's own
    clean-up (staging folders, the lock) has run while the interrupt unwound; skipping the interpreter's
    exit handlers keeps concurrent.futures' from writing to a worker pipe Ctrl-C already closed, which
    would print an "Exception ignored" traceback. Workers die with the build (PR_SET_PDEATHSIG)."""
    import os

    sys.stderr.write(f"deckpress: {_STOPPED_BY.get(signum, 'interrupted')}\n")
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(128 + signum)


def main() -> None:
    """Console entry point: an unchanged ``deckpress build`` answered by :mod:`pipeline.cli.unchanged`,
    anything else by the typer app; an internal error becomes one line and exit 2 unless
    ``--debug``; Ctrl-C prints ``deckpress: interrupted`` and exits 130 (128 + SIGINT); SIGTERM and
    SIGHUP clean up the same way and exit 143 and 129."""
    import atexit
    import gc
    import logging
    import os
    import signal

    # Registered first, so it runs last of the exit handlers: the interpreter's teardown then skips
    # the cyclic collector's walk over every object the run made (a build's parent holds ~200,000),
    # 0.13-0.15 s of a cold build of the shipped games (issue 22). The other exit handlers (logging's,
    # weakref finalizers, the pools') still run first and stdout/stderr are still flushed; what is
    # given up is the finalizers of garbage cycles, which deckpress does not rely on (every file it
    # writes is closed by its own block, before the build's staging folder is committed).
    atexit.register(gc.freeze)
    # numpy's OpenBLAS starts a thread per core at import, which spins ~0.1 s of CPU before it sleeps;
    # deckpress makes no BLAS call worth a thread (the dice's 4 × 4 matrices) and forks its own workers.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    # pypdf logs its repairs of a damaged PDF ("invalid pdf header") on stderr; deckpress
    # reports an unreadable PDF itself, in one line.
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    interrupted = []

    def on_interrupt(signum, frame) -> None:
        # typer turns KeyboardInterrupt into a silent Exit(130); remember which signal it was.
        # SIGTERM (kill) and SIGHUP (the terminal closed) unwind the same way, so the build
        # removes its staging folders and ends its workers for them too.
        interrupted.append(signum)
        raise KeyboardInterrupt

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, on_interrupt)
    from pipeline.cli.plain import ReaderMayLeave, StdoutError

    sys.stdout = ReaderMayLeave(sys.stdout)  # `deckpress ... | head -1`: the command's own exit code
    try:
        from pipeline.cli.unchanged import answer

        code = answer(sys.argv[1:])
        if code is not None:
            sys.stdout.flush()
            sys.exit(code)
        from pipeline.cli.commands import app

        app()
    except SystemExit as exc:
        if interrupted and exc.code not in (0, None):
            _exit_interrupted(interrupted[0])
        raise
    except KeyboardInterrupt:
        _exit_interrupted(interrupted[0] if interrupted else signal.SIGINT)
    except StdoutError as exc:  # > /dev/full, or a disk that filled: the findings could not be written
        try:
            sys.stderr.write(f"deckpress: cannot write to standard output: {exc}\n")
            sys.stderr.flush()
        except OSError:  # 2> /dev/full as well: nothing can be said, the exit code still tells
            pass
        os._exit(2)  # the interpreter's own flush of stdout at exit would fail again, with a traceback
    except Exception as exc:  # the last line of defence: no traceback for users
        from pipeline.cli.common import DebugState, err

        if DebugState.debug or "--debug" in sys.argv:
            raise
        from pipeline.render.colour import ColourError

        if isinstance(exc, ColourError):  # a setup step not run (no ICC profile built): say what to run, not "internal"
            err.print(f"deckpress: {exc}", markup=False)
            sys.exit(2)
        err.print(f"deckpress: internal error: {type(exc).__name__}: {exc} (run with --debug for details)", markup=False)
        sys.exit(2)

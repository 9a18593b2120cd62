"""Printing lines and findings to stdout without importing rich, where rich would print them as
they are, and the one line per game a build prints: the typer-free part of :mod:`pipeline.cli.common`, also used by
:mod:`pipeline.cli.unchanged` (an unchanged rebuild answered without typer and rich)."""

from __future__ import annotations

import os
import re
import sys
from collections import Counter

from engine.findings import Finding, FindingList, Severity, render_text

#: What rich's ``Console.print`` would change in a line: a ``:name:`` emoji code (rich's
#: ``_emoji_replace`` pattern, here without its name check) or a character that is not printable
#: (rich strips control codes and expands tabs).
_RICH_WOULD_CHANGE = re.compile(r":\S*:|[^\S ]")


class StdoutError(Exception):
    """Standard output cannot be written (``deckpress check > /dev/full``: a full disk, an I/O error):
    :func:`pipeline.cli.app.main` says so in one line and exits 2, not "internal error"."""

    def __init__(self, cause: OSError) -> None:
        super().__init__(cause.strerror or str(cause))


class ReaderMayLeave:
    """``sys.stdout`` whose reader may close the pipe early (``deckpress build | head -1``).

    Python ignores SIGPIPE, so a write after the reader left raises BrokenPipeError; click turned
    that into exit 1 (which means error findings here) wherever it came. This stream instead points
    the descriptor at /dev/null the first time and goes on, so the command finishes its work (a
    build's report, its lock) and exits with its own code; only the unread lines are lost.
    """

    def __init__(self, stream) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except BrokenPipeError:
            self._reader_left()
            return len(text)
        except OSError as exc:
            raise StdoutError(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except BrokenPipeError:
            self._reader_left()
        except OSError as exc:
            raise StdoutError(exc) from None

    def _reader_left(self) -> None:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, self._stream.fileno())  # the buffered rest, and every later line, go nowhere
        os.close(devnull)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


def write_line(text: str, stderr: bool = False) -> None:
    """``text`` and a newline on stdout (or stderr), byte for byte what
    ``Console(highlight=False, soft_wrap=True).print(text, markup=False)`` writes there.

    Written as it is when rich would leave it so (no emoji code, only printable characters);
    otherwise through such a rich Console, imported then.
    """
    stream = sys.stderr if stderr else sys.stdout
    if text.isprintable() and not _RICH_WOULD_CHANGE.search(text):
        stream.write(text + "\n")
        stream.flush()
        return
    from rich.console import Console

    Console(file=stream, highlight=False, soft_wrap=True).print(text, markup=False)


def print_plain(text: str) -> None:
    """``text`` and a newline to stdout as they are: what ``out.print(text, markup=False)`` gave
    for findings, without rich reading every character (1.7 s for the 2 MB of findings of a
    5 MB rulebook) nor turning a quoted ``:name:`` into an emoji."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def print_summary(findings: list[Finding], verbose: bool, listing: str = "--verbose") -> None:
    """Errors and warnings one by one; info findings counted by code unless ``verbose``; a summary
    line. ``listing`` names what lists the info findings one by one."""
    if isinstance(findings, FindingList) and not verbose:  # a cached game's: its info findings are only counted, never made
        shown, infos = findings.shown(), Counter(findings.info_counts())
    else:
        shown = findings if verbose else [f for f in findings if f.severity is not Severity.info]
        infos = Counter((f.code, f.name) for f in findings if f.severity is Severity.info)
    print_plain(render_text(shown, counted=findings))
    if infos and not verbose:
        listed = ", ".join(f"{code} {name} ×{n}" for (code, name), n in sorted(infos.items()))
        write_line(f"   info: {listed} ({listing} lists them)")


STATUS_LABELS = {"built": "built", "cached": "unchanged, reused", "stopped": "STOPPED by findings, nothing written", "unreadable": "could not read, nothing written", "failed": "FAILED, previous output kept"}
"""What the one line per game says for each :class:`~pipeline.build.runner` outcome status."""


def summary_line(o) -> str:
    """The one line per game: status, print run, counts, and whether its press files are a draft."""
    label = STATUS_LABELS[o.status]
    if o.status in ("failed", "stopped", "unreadable"):  # nothing replaced the output folder: say what stands in it
        label = label.partition(",")[0] + (", previous output kept" if o.files else ", nothing written")
    if not o.loaded:  # no deck was loaded (unreadable, or a value the loader refused): counts of 0 would read as an empty game
        return f"== {o.game_id}: {label}"
    line = (f"== {o.game_id}: {label}; run {o.run}: {o.cards} unique cards, {o.copies} printed, "
            f"{o.provisional} provisional, {o.placeholder_faces} faces print placeholder art")
    if o.status in ("built", "cached"):
        line += "; release press files" if o.release else "; DRAFT - not for press"
    if any(c["kept"] for nouns in o.per_card.values() for c in nouns.values()):  # a rebuild kept per-card files (pipeline.build.cardkeys)
        from pipeline.build.report import per_card_summary

        line += "; " + per_card_summary(o.per_card)
        if o.status == "built":  # each of these holds every card's page: none is kept page by page (docs/speed.md)
            line += "; the whole-deck files of the stages run (print PDFs, sheets, UV plates, BRF/PEF, archive index) rendered again"
    dropped = getattr(o, "dropped", None)
    if dropped:  # a stand-alone command's files went with the replaced folder: the designer asked for them
        shown = ", ".join(dropped[:3]) + (f" and {len(dropped) - 3} more" if len(dropped) > 3 else "")
        line += f"; removed {len(dropped)} file(s) stand-alone commands had written there ({shown}): run them again"
    return line + (" (forced)" if o.forced else "")

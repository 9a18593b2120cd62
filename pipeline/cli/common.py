"""Helpers shared by every command module: the two consoles, the findings format, printing
findings, loading a game or exiting, the one-line error exits and the shared option parsers.

Only the CLI prints and chooses exit codes (DESIGN.md §6): 0 clean, 1 error findings (or
warnings under ``--strict``), 2 could not run. This module imports no command module and not
the app, so every command module can import it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import Enum
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn, Optional

import typer
from rich.console import Console

from engine.findings import Finding, exit_code, render_json, render_text
from engine.registry import Selection, filter_findings
from pipeline.cli.plain import print_plain, print_summary

if TYPE_CHECKING:
    from engine.model import Deck

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

BACK_OFFSET_USAGE = "--back-offset expects 'dx,dy' with units such as '0.5mm,-1mm', got {value!r}"


class Format(str, Enum):
    """Findings output format."""

    text = "text"
    json = "json"


class DebugState:
    """Whether ``--debug`` was given (set by the app's callback, read by the entry point)."""

    debug = False


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``deckpress: <message>`` on stderr as one line and exit with ``code`` (2: could not run)."""
    err.print(f"deckpress: {message}", markup=False)
    raise typer.Exit(code)


@contextmanager
def exit_on(*errors: type[BaseException], code: int = 2, message: Callable[[BaseException], object] = str) -> Iterator[None]:
    """Turn the given exceptions raised in the block into one line ``deckpress: <message(exc)>``
    on stderr and exit ``code`` (2: could not run; 1 for a data error such as an unknown class).

    Nest two for two exit codes: the innermost catches first. A ``typer.Exit`` raised in the
    block (an inner exit, :func:`finish_with_findings`) always passes through.
    """
    try:
        yield
    except typer.Exit:
        raise
    except errors as exc:
        err.print(f"deckpress: {message(exc)}", markup=False)
        raise typer.Exit(code) from None


def _refuse_empty_out(value: Optional[Path]) -> Optional[Path]:
    """``--out`` as given; exit 2 for an empty value (it would scatter files into the working
    folder) and for a folder that holds card data or lies inside a game folder."""
    from pipeline.common.ownership import ForeignOutput, refuse_card_data

    if value is not None and str(value) in ("", "."):
        fail("--out must name an output folder of its own, not the working directory (or leave --out out for the default)")
    if value is not None:
        with exit_on(ForeignOutput):
            refuse_card_data(value)
    return value


def out_option(help: str):
    """The ``--out DIR`` option of a stage command (default: None, the command's own folder under
    output/); an empty value or ``.`` exits 2 while the options are read."""
    return typer.Option("--out", help=help, callback=_refuse_empty_out)


#: Where the printing targets live (:mod:`pipeline.render.targets` reads and validates them).
TARGET_DIR = Path(__file__).resolve().parents[2] / "templates" / "targets"


def _known_target(value: str) -> str:
    """``--target`` as given; exit 2 with one line naming the known targets for an unknown one.

    Only the name is checked here (a file ``templates/targets/<name>.yaml``): reading the
    file through its schema imports pydantic and pikepdf, which an unchanged rebuild never
    needs. :func:`validate_target` reads it before anything is built.
    """
    known = sorted(p.stem for p in TARGET_DIR.glob("*.yaml"))
    if value not in known:
        fail(f"unknown printing target {value!r}; known: {', '.join(known)}")
    return value


def validate_target(name: str) -> None:
    """Read the target ``name`` through its schema; exit 2 with one line naming file and field when it does not match."""
    from pipeline.render.targets import TargetError, load_target

    with exit_on(TargetError):
        load_target(name)


TARGET_HELP = ("Printing target (templates/targets/): fogra39 (default), gracol or swop presses, or a vendor preset "
               "(thegamecrafter, makeplayingcards, drivethrucards: also writes its upload files in vendor/<target>/).")
"""The ``--target`` option's help: the output intent of every PDF and the condition colour is checked against."""


def _valid_target(value: str) -> str:
    """``--target`` as given, its file read through the schema (:func:`validate_target`)."""
    validate_target(_known_target(value))
    return value


def target_option(help: str = TARGET_HELP, read: bool = True):
    """The ``--target NAME`` option (``build``, ``render``, ``uv``, ``impose``); an unknown name exits 2 while the options are read.

    ``read=False`` checks only the name then; the command calls :func:`validate_target` before it builds
    (``build``: an unchanged rebuild reads no target file)."""
    return typer.Option("--target", help=help, callback=_valid_target if read else _known_target)


def split_codes(values: list[str] | None) -> tuple[str, ...]:
    """``--select BR,CP --select KW001`` → ``("BR", "CP", "KW001")``."""
    return tuple(v.strip() for raw in values or [] for v in raw.split(",") if v.strip())


def back_offset_or_exit(value: str) -> tuple[str, str]:
    """``--back-offset 'dx,dy'`` (``build`` and ``impose``) as its two length texts, each checked
    by :func:`engine.units.parse_length` (units such as mm, pt, in); exit 2 naming the value when
    there are not two lengths or one does not parse."""
    from engine.units import parse_length

    parts = tuple(v.strip() for v in value.split(","))
    try:
        if len(parts) != 2:
            raise ValueError(value)
        for part in parts:
            parse_length(part)
    except ValueError:
        fail(BACK_OFFSET_USAGE.format(value=value))
    return parts[0], parts[1]


def _print_plain(text: str) -> None:
    """:func:`pipeline.cli.plain.print_plain` (on ``out``'s stdout)."""
    print_plain(text)


def print_findings(findings: list[Finding], fmt: Format) -> None:
    """Findings to stdout as text (with a summary line) or JSON."""
    _print_plain(render_json(findings) if fmt is Format.json else render_text(findings))


def finish_with_findings(deck: Deck, findings) -> NoReturn:
    """End a stage command: apply the cards' ``ignore:``, print the findings (info counted by
    code), exit 0 or 1."""
    shown = filter_findings(list(findings), Selection(), deck)
    print_summary(shown, verbose=False, listing="deckpress check --verbose")
    raise typer.Exit(exit_code(shown))


def selection_or_exit(select: list[str] | None, ignore: list[str] | None) -> Selection:
    """``--select``/``--ignore`` as a Selection; exit 2 naming entries that match no rule."""
    import engine.checks  # noqa: F401  (registers the checks and the loader's codes)
    from pipeline.build.stages import import_stage_modules

    from engine.registry import closest_rule, only_checks, unknown_selectors

    chosen, skipped = split_codes(select), split_codes(ignore)
    unknown = unknown_selectors(chosen + skipped)
    if unknown or not only_checks(Selection(chosen)):
        import_stage_modules()  # the stages' codes too (~1.3 s of imports a selection of checks alone does without)
        unknown = unknown_selectors(chosen + skipped)
    if unknown:
        guesses = [f"{e} (did you mean {closest_rule(e)}?)" if closest_rule(e) else e for e in unknown]
        fail(f"no rule matches {', '.join(guesses)}; deckpress rules lists them")
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


def rulebook_or_exit(path: Path | None) -> None:
    """Exit 2 naming ``--rulebook FILE`` when it cannot be read (missing, binary, too large).
    The file is read and decoded, not parsed: the checks parse it (twice was ~0.5 s for 5 MB)."""
    if path is None:
        return
    from engine.rulebook import Rulebook

    with exit_on(OSError, message=lambda exc: f"cannot read rulebook {path}: {exc.strerror or exc}"):
        Rulebook.read_text(path)

"""``deckpress build`` with nothing to build, answered without typer, rich and pydantic.

typer 0.29 builds a pydantic TypeAdapter for every option it reads; with rich that is ~0.3 s of
CPU before a line of deckpress runs, most of an unchanged rebuild (issue 22: under 0.3 s). The
console entry point (:func:`pipeline.cli.app.main`) first calls :func:`answer`: it reads the
``build`` command line itself, and when every game is current
(:func:`pipeline.build.runner.reuse_all`: the same lock, checks, stat and hash checks and
report as a full build) it prints what the typer command prints and returns its exit code.

When it reads the command line exactly and some game must be built, it calls the ``build``
command's own function (:func:`build_now`) with the values typer would pass, skipping only typer's
parsing (~0.05 s of CPU before the first worker forks). Anything else returns None and the typer app
runs as before, so every message and error path is typer's and :mod:`pipeline.cli.build`'s own: a
command line it does not read exactly as click would (``--help``, an unknown or abbreviated option, ``--`` or a value that starts with ``-``,
``--rulebook``, shell completion), an option value ``build`` would refuse, or any exception
before the build starts. A refusal of ``build`` that depends only on the settings needs no
repeating here: the build key covers the settings, so a current build was made with accepted
ones. ``tests/test_cli_unchanged.py`` checks this table against the typer command's.
"""

from __future__ import annotations

import errno
import os
import sys
from pathlib import Path

#: ``build``'s options that take a value: option → parameter name (pipeline/cli/build.py).
VALUE_OPTIONS = {"--out": "out_dir", "--rulebook": "rulebook", "--paper": "paper", "--profile": "profile", "--spot": "spot",
                 "--uv-printer": "uv_printer", "--back-offset": "back_offset", "--geometry": "geometry", "--only": "only",
                 "--run": "run", "--target": "target"}
#: Options that may be given more than once, every value kept.
MULTIPLE = {"paper"}
#: ``build``'s flags: option → (parameter name, value).
FLAGS = {"--strict": ("strict", True), "--no-strict": ("strict", False), "--force": ("force", True), "--no-force": ("force", False),
         "--quiet": ("quiet", True), "-q": ("quiet", True), "--verbose": ("verbose", True), "-v": ("verbose", True),
         "--release": ("release", True), "--verify": ("verify", True)}
#: Every parameter's default, as the typer command declares it.
DEFAULTS = {"game_dirs": None, "out_dir": "output", "rulebook": None, "paper": None, "profile": "card-3x5", "spot": "Braille",
            "uv_printer": "flat-plate", "back_offset": "0mm,0mm", "geometry": None, "strict": False, "force": False, "only": None,
            "quiet": False, "verbose": False, "run": "box", "release": False, "target": "fogra39", "verify": False}
#: Where the printing targets live (as :data:`pipeline.cli.common.TARGET_DIR`).
TARGET_DIR = Path(__file__).resolve().parents[2] / "templates" / "targets"


def parse(argv: list[str]) -> dict | None:
    """The parameters of ``build ARGS…`` (``argv`` without the program name) as click would read
    them (the last value of a single option wins; arguments and options in any order), or None
    for any command line this does not read exactly so."""
    if argv[:1] != ["build"]:
        return None
    params = dict(DEFAULTS, game_dirs=[], paper=[])
    rest = argv[1:]
    i = 0
    while i < len(rest):
        token = rest[i]
        i += 1
        if not token.startswith("-"):
            params["game_dirs"].append(token)
            continue
        name, eq, value = token.partition("=")
        if name in FLAGS and not eq:
            key, flag = FLAGS[name]
            params[key] = flag
            continue
        if not name.startswith("--") or name not in VALUE_OPTIONS:
            return None  # --help, --, a cluster of short flags, an unknown option: typer's to answer
        if not eq:
            if i >= len(rest) or rest[i].startswith("-"):
                return None
            value = rest[i]
            i += 1
        key = VALUE_OPTIONS[name]
        if key in MULTIPLE:
            params[key].append(value)
        else:
            params[key] = value
    params["game_dirs"] = params["game_dirs"] or None
    params["paper"] = params["paper"] or None
    return params


def settings_of(params: dict):
    """``(game folders, BuildSettings)`` as :func:`pipeline.cli.build.build` makes them from these
    parameters, or None where it would exit or read a file first (``--rulebook``)."""
    from engine.paths import find_games
    from engine.runs import RUNS
    from pipeline.build.settings import BuildSettings

    out_dir = str(Path(params["out_dir"]))
    if out_dir in ("", ".") or params["rulebook"] is not None:
        return None
    dirs = [str(Path(d)) for d in params["game_dirs"]] if params["game_dirs"] else [str(d) for d in find_games(Path("carddata"))]
    known_targets = {p.stem for p in TARGET_DIR.glob("*.yaml")}
    offset = tuple(v.strip() for v in params["back_offset"].split(","))
    if not dirs or params["run"] not in RUNS or (params["release"] and params["force"]) or len(offset) != 2 or params["target"] not in known_targets:
        return None
    only = _codes([params["only"]]) if params["only"] is not None else None
    if only == ():
        return None  # --only "": the typer command refuses it
    return dirs, BuildSettings(
        back_offset=offset, out_dir=out_dir, papers=_codes(params["paper"]) or BuildSettings.papers, profile=params["profile"],
        spot=params["spot"], uv_printer=params["uv_printer"], geometry=params["geometry"], strict=params["strict"],
        force=params["force"], only=only, rulebook=None, run=params["run"], release=params["release"], target=params["target"],
    )


def _codes(values: list[str] | None) -> tuple[str, ...]:
    """As :func:`pipeline.cli.common.split_codes`: ``["a,b", "c"]`` → ``("a", "b", "c")``."""
    return tuple(v.strip() for raw in values or [] for v in raw.split(",") if v.strip())


def _progress_shown(quiet: bool) -> bool:
    """Whether the progress bar could show (rich decides when it may): not ``--quiet``, and stderr
    a terminal or rich told to take it as one (``TTY_COMPATIBLE``, ``FORCE_COLOR``)."""
    return not quiet and (sys.stderr.isatty() or "TTY_COMPATIBLE" in os.environ or "FORCE_COLOR" in os.environ)


def answer(argv: list[str]) -> int | None:
    """The exit code of ``deckpress build …`` when every game it names is current, having printed
    what the typer command prints (and written the report as it does); None when the typer app
    must run (see the module docs). Raises KeyboardInterrupt; any other exception gives None."""
    if any(k.startswith("_") and k.endswith("_COMPLETE") for k in os.environ):
        return None  # shell completion: click's to answer
    try:
        params = parse(argv)
        made = settings_of(params) if params is not None else None
        if made is None:
            return None
        from pipeline.build.runner import reuse_all

        dirs, settings = made
        outcomes = reuse_all(dirs, settings, verify=params["verify"])
    except Exception:  # the typer command runs the same steps again and reports the error as it does
        return None
    if outcomes is None:
        return build_now(params)
    try:
        return _report(dirs, outcomes, settings, params)
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            raise
        # stdout closed early (``deckpress build | head``): exit 1 in silence, as typer's own
        # handler does, its flushes at exit pacified so no "Exception ignored" follows
        sys.stdout, sys.stderr = _Pacified(sys.stdout), _Pacified(sys.stderr)
        return 1


def build_now(params: dict) -> int:
    """Run the ``build`` command (:func:`pipeline.cli.build.build`, the function typer calls) with the
    parameters :func:`parse` read, as typer would pass them; returns its exit code. A build with games to
    build came through typer before: its parsing (a pydantic TypeAdapter per option) was ~0.1 s of the
    serial start before the first worker forks (issue 22). ``parse`` and :func:`settings_of` have
    accepted the command line, so every value is one the typer command takes as it is."""
    import typer

    from pipeline.cli.build import build

    kwargs = {name: value for name, value in params.items() if name in DEFAULTS}
    kwargs.update(game_dirs=[Path(d) for d in params["game_dirs"] or []] or None, out_dir=Path(params["out_dir"]),
                  paper=params["paper"] or None)
    try:
        build(**kwargs)
    except typer.Exit as exc:
        return exc.exit_code
    return 0


class _Pacified:
    """A stream whose ``flush`` ignores a broken pipe; everything else is the stream's (as click's PacifyFlushWrapper)."""

    def __init__(self, wrapped) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        try:
            self.wrapped.flush()
        except OSError as exc:
            if exc.errno != errno.EPIPE:
                raise

    def __getattr__(self, attr: str):
        return getattr(self.wrapped, attr)


def _report(dirs: list[str], outcomes: list, settings, params: dict) -> int:
    """Show the cached games as the ``build`` command does (progress bars at "unchanged", one line
    per game, its findings, the report's path); returns its exit code."""
    from engine.findings import exit_code
    from pipeline.cli.plain import print_summary, summary_line, write_line

    if _progress_shown(params["quiet"]):
        from rich.console import Console

        from pipeline.build.progress import BuildProgress

        with BuildProgress(dirs, Console(stderr=True, highlight=False, soft_wrap=True)) as progress:
            for o in outcomes:
                progress.update(o.game_id, "cached")
    for o in outcomes:
        write_line(summary_line(o))
        print_summary(o.findings, params["verbose"])
    write_line(f"report: {Path(settings.out_dir) / 'report.json'}")
    return max([exit_code(o.findings, settings.strict) for o in outcomes], default=0)

"""The build runner: card data in, every output out, games in parallel processes.

The stages and their order are in :mod:`pipeline.build.stages`. Here: one game's build
(the sequential stages, then the parallel chains, into a staging folder that replaces the
previous output) and a build of several games. The worker processes are in
:mod:`pipeline.build.workers`, the manifest in :mod:`pipeline.build.manifest`, the report in
:mod:`pipeline.build.report`, what ``--only`` keeps in :mod:`pipeline.build.partial`.

Safety (issue 9):
- nothing is written under ``output/<game>/`` until every stage has run and no
  error finding stands (unless ``force``): stages write into a staging folder,
  which then replaces the previous output whole (:mod:`pipeline.build.outputdir`), so an
  interrupted build leaves the previous good output readable;
- a lock file keeps two builds out of one output folder at once;
- an unchanged rebuild (same build key, see :mod:`pipeline.build.manifest`) reuses the
  previous output untouched, so it is byte-identical and fast.

Only the CLI prints; this module reports progress through a callback.
"""

from __future__ import annotations

import dataclasses
import os
import re
import shutil
import time
from pathlib import Path
from typing import Callable

from typing import TYPE_CHECKING

from engine.findings import Finding, exit_code, sort_key
from engine.gcpause import collector_paused
from pipeline.build import statcache, yamlfacts
from pipeline.build.current import brief_of, is_current
from pipeline.build.manifest import build_key, game_id_of, read_manifest, standing_files, versions, write_manifest
from pipeline.build.outputdir import OutputLock, check_targets, commit, make_staging, probe_writable, recover, refuse_undecodable, syncing
from pipeline.build.report import GameOutcome, cached_outcome, failed_outcome, write_report
from pipeline.build.settings import BuildSettings
from pipeline.build.stages import stages_to_run

# The modules that build (jobs, stage chains, worker pools) are imported where a game is built:
# an unchanged rebuild only hashes inputs and outputs (issue 22: under 0.3 s).
if TYPE_CHECKING:
    from pipeline.build.job import Job
    from pipeline.build.workers import Progress

__all__ = ["GameOutcome", "build_game", "build_or_fail", "reuse_all", "reuse_if_current", "run_build"]


def _stops(findings: list[Finding], settings: BuildSettings) -> bool:
    """Whether these findings stop the game: an error (a warning too under ``strict``), unless ``force``."""
    return exit_code(findings, settings.strict) != 0 and not settings.force


def build_game(game_dir: str, settings: BuildSettings, progress: Progress | None = None) -> GameOutcome:
    """Build one game into ``<out_dir>/<game id>/``. Runs in a worker process.

    Raises :class:`pipeline.common.files.OutputError` when the output cannot be written.
    """
    from engine.load import DataError, load_game
    from engine.runs import run_deck
    from pipeline.build.cardkeys import CardReuse, carried_keys, collect
    from pipeline.build.job import Job
    from pipeline.build.partial import findings_of_other_stages, keep_other_outputs
    from pipeline.build.stages import FOLDERS
    from pipeline.common.files import staging_writes
    from pipeline.build.release import draft_counts  # imported here: it pulls in every engine check, which an unchanged rebuild never needs

    report = progress or (lambda game, stage: None)
    out_root = Path(settings.out_dir)
    try:
        deck = load_game(game_dir)
    except DataError as exc:
        # Named by its id when game.yaml gives one (the folder's name could be another game's id,
        # whose report entry this would replace), else by the folder's name.
        game_id = game_id_of(Path(game_dir)) or Path(game_dir).name
        return GameOutcome(game_dir, game_id, "unreadable" if exc.unreadable else "stopped", exc.findings,
                           standing_files(out_root / game_id), loaded=False)
    game_id = deck.game.id
    final = out_root / game_id
    printed = run_deck(deck, settings.run)  # what this run prints; the checks see the whole game
    draft = draft_counts(printed)
    deck_counts = dict(cards=len(printed.cards), copies=printed.total_copies, provisional=draft.provisional,
                       placeholder_faces=draft.placeholder_faces, run=settings.run, release=settings.release)
    key = build_key(Path(game_dir), settings.key_dict())
    previous = is_current(final, key)
    if previous is not None:
        report(game_id, "cached")
        return cached_outcome(game_dir, game_id, previous, final)

    staging = make_staging(out_root, game_id)
    # A one-card edit: the per-card files whose card keys are unchanged are kept (pipeline.build.cardkeys).
    job = Job(printed, settings, staging, source=deck, reuse=CardReuse.start(final, staging, Path(game_dir), settings.key_dict()))
    kept_findings: list[Finding] = []
    running = stages_to_run(settings.only)
    if settings.only:
        keep_other_outputs(final, staging, running)
        kept_findings = findings_of_other_stages(final, running, game_dir)
    try:
        with staging_writes():
            findings = _run_stages(job, game_id, report)
        job.findings = _relocated(job.findings, staging, final) + kept_findings
        if findings is None or _stops(job.findings, settings):
            return GameOutcome(game_dir, game_id, "stopped", sorted(job.findings, key=sort_key), standing_files(final), **deck_counts)
        report(game_id, "manifest")
        # The serial tail makes ~100,000 short-lived objects (one core idles): the collector's
        # walks over them were 0.46 of its 2.0 s at 10,000 cards (docs/speed.md).
        with collector_paused():
            with syncing():  # the stages' files flush to disk while the manifest is made
                card_keys, per_card, verified = collect(staging)
                if settings.only:  # the per-card files of the stages not run keep their keys
                    card_keys.update(carried_keys(final, staging, {FOLDERS[n] for n in running if n in FOLDERS}))
                manifest, manifest_sha = write_manifest(job, key, deck_counts, card_keys, verified)
            os.sync()  # and the manifest: the whole staging folder is on disk before it replaces the previous build
            dropped = commit(staging, final)
            statcache.write(str(final), manifest["files"], brief=brief_of(manifest), manifest_sha256=manifest_sha)  # the next unchanged rebuild reads no manifest
        return GameOutcome(game_dir, game_id, "built", sorted(job.findings, key=sort_key), [e["path"] for e in manifest["files"]],
                           forced=manifest["forced"], per_card=per_card, dropped=dropped, **deck_counts)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def build_or_fail(game_dir: str, settings: BuildSettings, progress: Progress | None = None) -> GameOutcome:
    """:func:`build_game`, with an exception (a full disk, an unwritable folder) turned into a
    failed outcome, so the other games still build and report.json lists every game."""
    try:
        return build_game(game_dir, settings, progress)
    except Exception as exc:  # the game's staging folder is gone (build_game's finally); the previous output stands
        return _failed_over_previous(failed_outcome(game_dir, exc, game_id_of(Path(game_dir))), settings)


def _failed_over_previous(failed: GameOutcome, settings: BuildSettings) -> GameOutcome:
    """A failed game's outcome as the output folder then is: the previous build's counts, files and
    findings (read from its manifest, status failed, with the error) when it stands, else ``failed``;
    the error names the file it could not write where it would have been, not in the staging folder
    (``.staging-<game>-<pid>``, gone by now)."""
    error = re.sub(rf"\.staging-{re.escape(failed.game_id)}-[0-9]+", failed.game_id, failed.error)
    folder = Path(settings.out_dir) / failed.game_id
    previous = read_manifest(folder) if folder.is_dir() else None
    if previous is None or "files" not in previous:
        return dataclasses.replace(failed, error=error)
    return dataclasses.replace(cached_outcome(failed.game_dir, failed.game_id, previous, folder), status="failed", error=error)


def _relocated(findings: list[Finding], staging: Path, final: Path) -> list[Finding]:
    """Findings that name a file in the staging folder name it where it will live after the swap."""
    before, after = str(staging), str(final)
    out = []
    for f in findings:
        if f.location.file.startswith(before):
            f = dataclasses.replace(f, location=dataclasses.replace(f.location, file=after + f.location.file[len(before):]))
        out.append(f)
    return out


def _run_stages(job: Job, game_id: str, report: Progress) -> list[Finding] | None:
    """Run the selected stages into ``job`` (findings collected on it). Returns None when the
    preflight stages found errors that stop the game before anything is drawn.

    The preflight stages (checks, braille layout, print) all run before that decision, so a
    designer sees every error they raise at once, as ``deckpress check`` shows them.
    """
    from engine.registry import Selection
    from pipeline.build.release import document_info, draft_counts, press_roots, stamp_press_files
    from pipeline.build.stages import FOLDERS
    from pipeline.render.docinfo import press_info

    settings = job.settings
    names = stages_to_run(settings.only)
    # Only the folders this build writes: files --only kept from the previous build are stamped already.
    made = [FOLDERS[n] for n in names if n in FOLDERS]
    info = document_info(job.deck, settings.run, settings.release, draft_counts(job.deck))
    # finish() writes every press file with its final document info (one save, not a second
    # open and save after the stages); the chains' workers are forked inside, so they see it too.
    with press_info(info, press_roots(job.staging, made)):
        if _run_preflight_and_chains(job, game_id, report, names, Selection(settings.select, settings.ignore)) is None:
            return None
    stamp_press_files(job.staging, info, made)  # the press PDFs finish() did not write (the UV job ticket)
    return job.findings


def _run_preflight_and_chains(job: Job, game_id: str, report: Progress, names: list[str], keep) -> list[Finding] | None:
    """:func:`_run_stages` without the document info: the sequential stages, then (unless they stop the game) the chains.

    The chains that need nothing of the print stage start as soon as the checks and the braille
    layout let the game go on, and run while the print stage does (:class:`~pipeline.build.workers.ChainPool`);
    if the print stage then stops the game, they are ended and their files go with the staging folder.
    """
    from engine.registry import filter_findings
    from pipeline.build.schedule import parallel_label
    from pipeline.build.stages import SEQUENTIAL, branches, needs_print
    from pipeline.build.workers import ChainPool

    groups = branches(names)
    pool = ChainPool(groups)
    try:
        drawable = _run_sequential(job, game_id, report, [n for n in names if n in SEQUENTIAL], keep, pool,
                                   [i for i, chain in enumerate(groups) if not needs_print(chain)])
        if not drawable or _stops(job.findings, job.settings):
            pool.abandon()
            return None
    except BaseException:
        pool.abandon()
        raise
    chained = [n for g in groups for n in g]  # they run at once: no one stage is "the" stage
    report(game_id, parallel_label(len(chained)) if len(chained) > 1 else chained[0]) if chained else None
    job.findings += filter_findings(pool.finish(job), keep, job.game_deck)
    return job.findings


def _run_sequential(job: Job, game_id: str, report: Progress, sequential: list[str], keep, pool, early: list[int]) -> bool:
    """Run the preflight stages in this process, starting the ``early`` chains on ``pool`` before
    the print stage when nothing so far stops the game; False when nothing can be drawn."""
    from engine.registry import filter_findings
    from pipeline.build.stages import STAGES
    from pipeline.render.deck_pdf import UnknownClassError

    drawable = True
    for name in sequential:
        if name == "print" and not _stops(job.findings, job.settings):
            pool.start_early(job, early)
        report(game_id, name)
        try:
            job.findings += filter_findings(dict(STAGES)[name](job), keep, job.game_deck)  # keep: and every card's own ignore: list
        except UnknownClassError:
            drawable = False  # the checks' CP008 finding names the card; nothing can be drawn for it
    if "print" in sequential and job.printed is None:
        drawable = False  # the print stage found no layout for the card size (PR007): nothing to build on
    return drawable


def reuse_if_current(game_dir: str, settings: BuildSettings, verify: bool = False) -> GameOutcome | None:
    """The cached outcome when ``<out_dir>/<game id>`` holds a current build of this game, else None.

    Reads only game.yaml's id and hashes the inputs: no data model is loaded, which keeps
    an unchanged rebuild fast. A game.yaml that does not read gives None (the full build reports it).
    ``verify`` hashes every output file instead of trusting the stat cache (:func:`is_current`).
    """
    game_id = game_id_of(Path(game_dir))
    if game_id is None:
        return None
    folder = Path(settings.out_dir) / game_id
    manifest = is_current(folder, build_key(Path(game_dir), settings.key_dict()), verify)
    return cached_outcome(game_dir, game_id, manifest, folder) if manifest is not None else None


def run_build(game_dirs: list[str], settings: BuildSettings, progress: Progress | None = None,
              before_building: Callable[[], None] | None = None, verify: bool = False) -> list[GameOutcome]:
    """Build several games, in parallel processes when there is more than one core and game.

    Returns one outcome per game in the given order and writes ``<out_dir>/report.json``.
    ``before_building`` is called once, under the output lock, when some game must be built (not
    for an unchanged rebuild): the CLI validates its options there. Raises :class:`BuildBusy`,
    :class:`OutputError`, or ValueError for a bad ``only``. ``verify`` hashes every previous output
    file instead of trusting the stat cache (:mod:`pipeline.build.statcache`).
    """
    out_dir = Path(settings.out_dir)
    game_dirs = _checked_dirs(game_dirs, settings)
    if before_building is not None and not out_dir.is_dir():
        before_building()  # nothing can be current in a folder that is not there: check before making it
        before_building = None
    with OutputLock(out_dir):
        probe_writable(out_dir)
        done = {d: reuse_if_current(d, settings, verify) for d in game_dirs}
        for outcome in filter(None, done.values()):
            if progress:
                progress(outcome.game_id, "cached")
        stale = [d for d in game_dirs if done[d] is None]
        if stale and before_building is not None:
            before_building()
        # Before any work: every game folder about to be replaced must be deckpress's alone.
        check_targets(out_dir, [gid for gid in (game_id_of(Path(d)) for d in stale) if gid])
        if stale:
            from pipeline.build.stages import import_stage_modules
            from pipeline.build.workers import build_in_parallel

            from pipeline.build.warmup import warm_up

            # Import every stage once here: forked game and chain processes share the
            # modules instead of each paying ~0.5 s to import pypdf, pikepdf, jinja2 …
            # The ~90,000 objects all live on: the collector's walks over them while they are
            # made cost ~0.17 s of this serial start (one core idles meanwhile).
            with collector_paused():
                import_stage_modules()
                warm_up(settings)  # and the fonts, templates, ICC transforms they each built again
        workers = min(len(stale), os.cpu_count() or 1)
        try:
            if workers <= 1:
                built = [build_or_fail(d, settings, progress) for d in stale]
            else:
                built = build_in_parallel(build_or_fail, stale, settings, progress, workers)
        except BaseException:  # Ctrl-C: killed workers leave their staging folders behind
            _remove_staging(out_dir)
            recover(out_dir)  # and one caught in its swap a previous build half deleted (.old-<game>-<pid>)
            _report_what_is_there(out_dir, game_dirs, settings)
            raise
        done.update(zip(stale, built))
        outcomes = [done[d] for d in game_dirs]
        with collector_paused():  # as the game's tail: 10,000 findings' short-lived copies
            write_report(out_dir, outcomes)
        if any(o.status in ("built", "cached") for o in outcomes):
            yamlfacts.save(out_dir, _parser())  # for the next build here (a game's folder is there)
    return outcomes


def reuse_all(game_dirs: list[str], settings: BuildSettings, progress: Progress | None = None,
              verify: bool = False) -> list[GameOutcome] | None:
    """:func:`run_build` when every game is current: the cached outcomes, in the given order, with
    ``<out_dir>/report.json`` written as run_build writes it; None, with no report written, when
    some game must be built (or the output folder is not there yet).

    The same checks as run_build, in its order, under the output lock; it imports nothing that
    builds, so ``deckpress build`` with nothing changed can skip the CLI framework
    (:mod:`pipeline.cli.unchanged`). Raises as :func:`run_build` does.
    """
    out_dir = Path(settings.out_dir)
    game_dirs = _checked_dirs(game_dirs, settings)
    if not out_dir.is_dir() or not all(_has_manifest(out_dir, d) for d in game_dirs):
        return None  # some game was never built here: the full build takes the lock (no lock file made for nothing)
    with OutputLock(out_dir):
        probe_writable(out_dir)
        outcomes = []
        for d in game_dirs:
            outcome = reuse_if_current(d, settings, verify)
            if outcome is None:
                break  # the typer command checks them all again and builds
            outcomes.append(outcome)
        if len(outcomes) < len(game_dirs):
            return None
        yamlfacts.save(out_dir, _parser())
        for outcome in outcomes:
            if progress:
                progress(outcome.game_id, "cached")
        check_targets(out_dir, [])
        write_report(out_dir, outcomes)
    return outcomes


def _has_manifest(out_dir: Path, game_dir: str) -> bool:
    """Whether ``out_dir`` holds a build manifest for the game in ``game_dir`` (a file test, no lock: a hint only)."""
    game_id = game_id_of(Path(game_dir))
    return game_id is not None and (out_dir / game_id / "manifest.json").is_file()


def _checked_dirs(game_dirs: list[str], settings: BuildSettings) -> list[str]:
    """The game folders, each once (a folder named twice builds once), after the checks that need
    no lock: ValueError for a bad ``only``, a path not in UTF-8 or two folders with one game id. Reads what earlier runs
    in ``settings.out_dir`` learnt of game.yaml files (:mod:`pipeline.build.yamlfacts`)."""
    stages_to_run(settings.only)  # validate early
    refuse_undecodable(game_dirs, settings.out_dir)
    yamlfacts.load(settings.out_dir, _parser())
    game_dirs = list({Path(d).resolve(): d for d in reversed(game_dirs)}.values())[::-1]
    _refuse_shared_ids(game_dirs)
    return game_dirs


def _report_what_is_there(out_dir: Path, game_dirs: list[str], settings: BuildSettings) -> None:
    """After an interrupted build, report.json as the output folder now is: a game whose new folder was
    swapped in before the interruption gets its entry from that folder's manifest (status cached: it is
    current), every other game keeps its previous entry (its previous output is untouched). Best effort:
    the interruption is what the user must hear of, so a failure here is not raised over it."""
    try:
        write_report(out_dir, [o for o in (reuse_if_current(d, settings) for d in game_dirs) if o is not None])
    except Exception:  # noqa: BLE001 (the report stays as it was; the next build rewrites it)
        pass


def _parser() -> str:
    """The YAML parser's version, which the remembered game.yaml facts are valid for."""
    return versions().get("PyYAML", "")


def _remove_staging(out_dir: Path) -> None:
    """Remove the staging folders deckpress marked in ``out_dir`` (this build holds the lock, so they are its own)."""
    from pipeline.common.ownership import STAGING_MARK

    ours = [staging for staging in out_dir.glob(".staging-*") if (staging / STAGING_MARK).is_file()]
    for staging in ours:
        # A killed chain worker may finish the one system call it was in (a mkdir, a create) after
        # the tree was listed: remove again until it stays gone (a few tries, 20 ms apart).
        for _ in range(25):
            shutil.rmtree(staging, ignore_errors=True)
            if not staging.exists():
                break
            time.sleep(0.02)


def _refuse_shared_ids(game_dirs: list[str]) -> None:
    """Two game folders with one id would overwrite each other's output: ValueError naming both."""
    seen: dict[str, str] = {}
    for d in game_dirs:
        game_id = game_id_of(Path(d))
        if game_id is None:
            continue  # the loader reports an unreadable game.yaml properly
        if game_id in seen:
            raise ValueError(f"{seen[game_id]} and {d} both have the game id {game_id!r}; give one of them another id in its game.yaml")
        seen[game_id] = d

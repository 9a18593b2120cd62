"""The build runner: card data in, every output out, games in parallel processes.

The stages and their order are in :mod:`pipeline.build.stages`. Here: scheduling (the
sequential stages, then parallel chains), the staging folder, the manifest and the
report.

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

import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from engine.findings import Finding, Location, Severity, counts
from pipeline.common.files import staging_writes, write_text
from pipeline.build.manifest import MANIFEST, build_key, file_entries, game_id_of, is_current, versions
from pipeline.build.outputdir import OutputLock, commit, probe_writable
from pipeline.build.settings import BuildSettings
from pipeline.build.stages import FAMILIES, FOLDERS, SEQUENTIAL, STAGES, Job, branches, import_stage_modules, stages_to_run

@dataclass
class GameOutcome:
    """What happened to one game: ``status`` is built, cached, stopped (errors) or unreadable."""

    game_dir: str
    game_id: str
    status: str
    findings: list[Finding]
    files: list[str] = field(default_factory=list)
    cards: int = 0
    copies: int = 0
    provisional: int = 0
    forced: bool = False




def _sorted(findings: list[Finding]) -> list[Finding]:
    from engine.findings import sort_key

    return sorted(findings, key=sort_key)


def die_with_parent() -> None:
    """Pool initializer: ask Linux to SIGKILL this worker when its parent dies (prctl
    PR_SET_PDEATHSIG), so a killed build leaves no orphan still writing; a no-op elsewhere."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux (no prctl): workers then end when their task queue closes


def _run_chain(job: Job, chain: list[str]) -> list[Finding]:
    stages = dict(STAGES)
    return [f for name in chain for f in stages[name](job)]


def run_branches(job: Job, chains: list[list[str]]) -> list[Finding]:
    """Run the chains, in parallel forked processes when there are several and more than one core.

    Each chain writes its own files into the staging folder and returns its findings;
    an exception in a chain is raised here. liblouis is not shared across threads: every
    chain is a process of its own.
    """
    import multiprocessing

    workers = min(len(chains), os.cpu_count() or 1)
    if workers <= 1:
        return [f for chain in chains for f in _run_chain(job, chain)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"), initializer=die_with_parent) as pool:
        futures = [pool.submit(_run_chain, job, chain) for chain in chains]
        return [f for future in futures for f in future.result()]


def _has_errors(findings: list[Finding], strict: bool) -> bool:
    bad = {Severity.error, Severity.warning} if strict else {Severity.error}
    return any(f.severity in bad for f in findings)


def build_game(game_dir: str, settings: BuildSettings, progress: Callable[[str, str], None] | None = None) -> GameOutcome:
    """Build one game into ``<out_dir>/<game id>/``. Runs in a worker process.

    Raises :class:`pipeline.common.files.OutputError` when the output cannot be written.
    """
    from engine.load import DataError, load_game

    report = progress or (lambda game, stage: None)
    out_root = Path(settings.out_dir)
    try:
        deck = load_game(game_dir)
    except DataError as exc:
        return GameOutcome(game_dir, Path(game_dir).name, "unreadable" if exc.unreadable else "stopped", exc.findings)
    game_id = deck.game.id
    final = out_root / game_id
    counts_kw = dict(cards=len(deck.cards), copies=deck.total_copies, provisional=len(deck.provisional()))
    key = build_key(Path(game_dir), settings.key_dict())
    previous = is_current(final, key)
    if previous is not None:
        report(game_id, "cached")
        return _cached_outcome(game_dir, game_id, previous)

    staging = out_root / f".staging-{game_id}-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir(parents=True)
    job = Job(deck, settings, staging)
    kept_findings: list[Finding] = []
    if settings.only:
        running = stages_to_run(settings.only)
        _keep_other_outputs(final, staging, running)
        kept_findings = _findings_of_other_stages(final, running)
    try:
        with staging_writes():
            findings = _run_stages(job, game_id, report)
        job.findings = _relocated(job.findings, staging, final) + kept_findings
        if findings is None or (_has_errors(job.findings, settings.strict) and not settings.force):
            return GameOutcome(game_dir, game_id, "stopped", _sorted(job.findings), **counts_kw)
        report(game_id, "manifest")
        manifest = _manifest(job, key, counts_kw)
        write_text(staging / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        os.sync()  # one flush of the whole staging folder before it replaces the previous build
        commit(staging, final)
        return GameOutcome(game_dir, game_id, "built", _sorted(job.findings), [e["path"] for e in manifest["files"]], forced=settings.force, **counts_kw)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _relocated(findings: list[Finding], staging: Path, final: Path) -> list[Finding]:
    """Findings that name a file in the staging folder name it where it will live after the swap."""
    import dataclasses

    before, after = str(staging), str(final)
    out = []
    for f in findings:
        if f.location.file.startswith(before):
            f = dataclasses.replace(f, location=dataclasses.replace(f.location, file=after + f.location.file[len(before):]))
        out.append(f)
    return out


def _findings_of_other_stages(final: Path, running: list[str]) -> list[Finding]:
    """For ``--only``: the previous build's findings of the stages not run now, whose files are kept."""
    from pipeline.build.manifest import read_manifest

    previous = read_manifest(final) or {}
    kept = tuple(fam for stage, fams in FAMILIES.items() if stage not in running for fam in fams)
    return [_finding_from_dict(d) for d in previous.get("findings", []) if d["code"].startswith(kept)] if kept else []


def _keep_other_outputs(final: Path, staging: Path, running: list[str]) -> None:
    """For ``--only``: hard-link the previous output of the stages not being run into the
    staging folder, so the swap replaces only what this build makes."""
    if not final.is_dir():
        return
    remade = {FOLDERS[name] for name in running if name in FOLDERS}
    for src in final.rglob("*"):
        rel = src.relative_to(final)
        if not src.is_file() or rel.parts[0] in remade or rel.name == MANIFEST:
            continue
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dest)
        except OSError:
            shutil.copy2(src, dest)


def _run_stages(job: Job, game_id: str, report: Callable[[str, str], None]) -> list[Finding] | None:
    """Run the selected stages into ``job`` (findings collected on it). Returns None when the
    preflight stages found errors that stop the game before anything is drawn.

    The preflight stages (checks, braille layout, print) all run before that decision, so a
    designer sees every error they raise at once, as ``deckpress check`` shows them.
    """
    from engine.registry import Selection, filter_findings
    from pipeline.render.deck_pdf import UnknownClassError

    settings, deck = job.settings, job.deck
    keep = Selection(settings.select, settings.ignore)  # and every card's own ignore: list
    names = stages_to_run(settings.only)
    drawable = True
    for name in [n for n in names if n in SEQUENTIAL]:
        report(game_id, name)
        try:
            job.findings += filter_findings(dict(STAGES)[name](job), keep, deck)
        except UnknownClassError:
            drawable = False  # the checks' CP008 finding names the card; nothing can be drawn for it
    if "print" in names and job.printed is None:
        drawable = False  # the print stage found no layout for the card size (PR007): nothing to build on
    if not drawable or (_has_errors(job.findings, settings.strict) and not settings.force):
        return None
    groups = branches(names)
    for name in (n for g in groups for n in g):
        report(game_id, name)
    job.findings += filter_findings(run_branches(job, groups), keep, deck)
    return job.findings


def _cached_outcome(game_dir: str, game_id: str, manifest: dict) -> GameOutcome:
    """The outcome of a game whose previous output is current, read back from its manifest."""
    return GameOutcome(
        game_dir, game_id, "cached",
        [_finding_from_dict(d) for d in manifest.get("findings", [])],
        [e["path"] for e in manifest["files"]],
        cards=manifest.get("unique_cards", 0), copies=manifest.get("printed_cards", 0),
        provisional=manifest.get("provisional_cards", 0), forced=manifest.get("forced", False),
    )


def reuse_if_current(game_dir: str, settings: BuildSettings) -> GameOutcome | None:
    """The cached outcome when ``<out_dir>/<game id>`` holds a current build of this game, else None.

    Reads only game.yaml's id and hashes the inputs: no data model is loaded, which keeps
    an unchanged rebuild fast. A game.yaml that does not read gives None (the full build reports it).
    """
    game_id = game_id_of(Path(game_dir))
    if game_id is None:
        return None
    manifest = is_current(Path(settings.out_dir) / game_id, build_key(Path(game_dir), settings.key_dict()))
    return _cached_outcome(game_dir, game_id, manifest) if manifest is not None else None


def _manifest(job: Job, key: str, counts_kw: dict) -> dict:
    from engine.findings import sort_key

    findings = sorted(job.findings, key=sort_key)
    return {
        "game": job.game_id,
        "title": job.deck.game.title,
        "build_key": key,
        "forced": job.settings.force,
        "unique_cards": counts_kw["cards"],
        "printed_cards": counts_kw["copies"],
        "provisional_cards": counts_kw["provisional"],
        "cards_per_class": {c.id: job.deck.copies_of(c.id) for c in job.deck.game.classes},
        "settings": job.settings.key_dict(),
        "versions": versions(),
        "findings_summary": counts(findings),
        "findings": [f.to_dict() for f in findings],
        "files": file_entries(job.staging),
    }


def _finding_from_dict(data: dict) -> Finding:
    loc = Location(**data["location"])
    related = tuple(Location(**r) for r in data.get("related", ()))
    return Finding(data["code"], data["name"], Severity(data["severity"]), data["message"], data.get("hint", ""), loc, related)


def run_build(game_dirs: list[str], settings: BuildSettings, progress: Callable[[str, str], None] | None = None) -> list[GameOutcome]:
    """Build several games, in parallel processes when there is more than one core and game.

    Returns one outcome per game in the given order and writes ``<out_dir>/report.json``.
    Raises :class:`BuildBusy`, :class:`OutputError`, or ValueError for a bad ``only``.
    """
    stages_to_run(settings.only)  # validate early
    game_dirs = list({Path(d).resolve(): d for d in reversed(game_dirs)}.values())[::-1]  # a folder named twice builds once
    _refuse_shared_ids(game_dirs)
    out_dir = Path(settings.out_dir)
    with OutputLock(out_dir):
        probe_writable(out_dir)
        done = {d: reuse_if_current(d, settings) for d in game_dirs}
        for outcome in filter(None, done.values()):
            if progress:
                progress(outcome.game_id, "cached")
        stale = [d for d in game_dirs if done[d] is None]
        if stale:
            # Import every stage once here: forked game and chain processes share the
            # modules instead of each paying ~0.5 s to import pypdf, pikepdf, jinja2 …
            import_stage_modules()
        workers = min(len(stale), os.cpu_count() or 1)
        if workers <= 1:
            built = [build_game(d, settings, progress) for d in stale]
        else:
            built = _parallel(stale, settings, progress, workers)
        done.update(zip(stale, built))
        outcomes = [done[d] for d in game_dirs]
        report = _merged_report(out_dir, report_dict(outcomes))
        write_text(out_dir / "report.json", json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    return outcomes


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


def _merged_report(out_dir: Path, new: dict) -> dict:
    """The new report plus the previous report's games that this build did not touch (their output is still there)."""
    try:
        old = json.loads((out_dir / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        old = {}
    games = {gid: entry for gid, entry in old.get("games", {}).items() if gid not in new["games"] and (out_dir / gid).is_dir()}
    games.update(new["games"])
    total = {s: sum(g["counts"].get(s, 0) for g in games.values()) for s in ("error", "warning", "info")}
    return {"games": dict(sorted(games.items())), "counts": total}


def _parallel(game_dirs: list[str], settings: BuildSettings, progress, workers: int) -> list[GameOutcome]:
    import multiprocessing
    import time

    ctx = multiprocessing.get_context("fork")
    queue = ctx.SimpleQueue()
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(queue,)) as pool:
        # Largest game first (longest-processing-time order): the last worker to finish
        # then holds a small game, not the biggest, and the cores idle less at the end.
        futures = {d: pool.submit(_worker_build, d, settings) for d in sorted(game_dirs, key=_data_size, reverse=True)}
        while not all(f.done() for f in futures.values()):
            _drain(queue, progress)
            time.sleep(0.01)
        _drain(queue, progress)
        return [futures[d].result() for d in game_dirs]


def _data_size(game_dir: str) -> int:
    """Bytes of a game's data files (its base game's included): a cheap proxy for its build time."""
    from pipeline.build.manifest import game_sources

    return sum(p.stat().st_size for p in game_sources(Path(game_dir)))


# Each game worker's progress channel. A multiprocessing queue can only reach a worker by
# inheritance (it cannot be pickled into a task), so the pool's initializer sets it once
# per worker process; the parent never sets it.
_QUEUE = None


def _worker_init(queue) -> None:
    global _QUEUE
    _QUEUE = queue
    die_with_parent()


def _worker_build(game_dir: str, settings: BuildSettings) -> GameOutcome:
    return build_game(game_dir, settings, lambda game, stage: _QUEUE.put((game, stage)))


def _drain(queue, progress) -> None:
    """Hand the workers' progress events waiting in ``queue`` to the progress callback."""
    while not queue.empty():
        game, stage = queue.get()
        if progress:
            progress(game, stage)


def report_dict(outcomes: list[GameOutcome]) -> dict:
    """The build report (``report.json``): findings and counts per game, and totals."""
    from engine.findings import sort_key

    games = {}
    for o in outcomes:
        items = sorted(o.findings, key=sort_key)
        games[o.game_id] = {
            "folder": o.game_dir,
            "status": o.status,
            "forced": o.forced,
            "unique_cards": o.cards,
            "printed_cards": o.copies,
            "provisional_cards": o.provisional,
            "counts": counts(items),
            "findings": [f.to_dict() for f in items],
            "files": o.files,
        }
    return {"games": games, "counts": counts([f for o in outcomes for f in o.findings])}

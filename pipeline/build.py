"""The build runner: card data in, every output out, one game per process.

The stage order is written down once, in :data:`STAGES`, and reads top to bottom
like a table of contents. Each stage is a function of a :class:`Job` (explicit
inputs, the products of earlier stages) that writes into the job's *staging*
folder and returns its findings.

Safety (issue 9):
- nothing is written under ``output/<game>/`` until every stage has run and no
  error finding stands (unless ``force``): stages write into a staging folder,
  which is then moved into place file by file with atomic renames, so an
  interrupted build leaves the previous good output readable;
- a lock file keeps two builds out of one output folder at once;
- an unchanged rebuild (same build key, see :mod:`pipeline.manifest`) reuses the
  previous output untouched, so it is byte-identical and fast.

Only the CLI prints; this module reports progress through a callback.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable

from engine.findings import Finding, Location, Severity, counts
from pipeline.fsutil import OutputError, staging_writes, write_text
from pipeline.manifest import MANIFEST, build_key, file_entries, game_id_of, is_current, versions

PAPERS = ("letter", "a4", "tabloid", "12x18", "sra3")
LOCK_NAME = ".deckpress.lock"


@dataclass(frozen=True)
class BuildSettings:
    """What the user chose. ``only`` limits the stages (None = all); ``papers`` are press-sheet sizes."""

    out_dir: str = "output"
    papers: tuple[str, ...] = ("letter", "12x18")
    profile: str = "card-3x5"
    spot: str = "Braille"
    geometry: str | None = None
    strict: bool = False
    force: bool = False
    only: tuple[str, ...] | None = None
    rulebook: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    proof_dpi: int = 150

    def key_dict(self) -> dict:
        """The settings that change outputs (for the build key and the manifest)."""
        data = asdict(self)
        data.pop("out_dir")
        return data


@dataclass
class Job:
    """One game's build in progress: the deck, the settings, the staging folder and stage products."""

    deck: object
    settings: BuildSettings
    staging: Path
    findings: list[Finding] = field(default_factory=list)
    products: dict = field(default_factory=dict)

    def path(self, *parts: str) -> Path:
        """A file path inside the staging folder (its folder created)."""
        p = self.staging.joinpath(*parts)
        p.parent.mkdir(parents=True, exist_ok=True)
        return p

    def folder(self, *parts: str) -> Path:
        """A folder inside the staging folder (created)."""
        p = self.staging.joinpath(*parts)
        p.mkdir(parents=True, exist_ok=True)
        return p

    @property
    def game_id(self) -> str:
        return self.deck.game.id


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


class BuildBusy(RuntimeError):
    """Another build holds the output folder's lock."""


# ---------------------------------------------------------------------------------
# The stages, in order. Each takes the Job, writes into job.staging, and returns findings.
# ---------------------------------------------------------------------------------


def stage_checks(job: Job) -> list[Finding]:
    """Engine checks (composition, keywords, power, data quality, rulebook text)."""
    from engine.registry import CheckContext, Selection, filter_findings, run_checks
    from pipeline.braille.power import PowerEncoding

    rulebook = None
    if job.settings.rulebook:
        from engine.rulebook import Rulebook

        rulebook = Rulebook.read(Path(job.settings.rulebook))
    selection = Selection(job.settings.select, job.settings.ignore)
    ctx = CheckContext(power_encoder=PowerEncoding(job.deck.game.power), rulebook=rulebook)
    return filter_findings(run_checks(job.deck, ctx, selection), selection, job.deck)


def stage_braille(job: Job) -> list[Finding]:
    """Lay out every card's braille block (the cells all braille outputs are drawn from)."""
    from pipeline.braille.geometry import get_profile
    from pipeline.braille.layout import layout_deck

    profile = get_profile(job.settings.geometry or job.deck.game.braille.geometry)
    blocks, findings = layout_deck(job.deck, profile=profile)
    job.products["blocks"] = blocks
    return list(findings)


def stage_dice(job: Job) -> list[Finding]:
    """One die face sheet PDF per die: faces at actual size, numerals, braille dots, key."""
    from pipeline.braille.geometry import get_profile
    from pipeline.dice_sheet import render_dice

    profile = get_profile(job.settings.geometry or job.deck.game.braille.geometry)
    sheets = render_dice(job.deck, job.folder("dice"), profile)
    return [f for sheet in sheets for f in sheet.findings]


def stage_print(job: Job) -> list[Finding]:
    """The print PDFs: one front per unique card, one back per class (PDF/X-1a, CMYK, 3×5 in + bleed)."""
    from pipeline.render.deck_pdf import render_backs, render_fronts

    gid = job.game_id
    fronts = render_fronts(job.deck, job.path("print", f"{gid}-fronts.pdf"))
    backs = render_backs(job.deck, job.path("print", f"{gid}-backs.pdf"))
    job.products["fronts"], job.products["backs"] = fronts, backs
    return list(fronts.findings) + list(backs.findings)


def stage_qr(job: Job) -> list[Finding]:
    """Decode every front's QR code from a 300 dpi render of its box (zxing-cpp): it must give exactly the card's URL."""
    from pipeline.layout import load_layout
    from pipeline.qr import verify_qr

    layout = load_layout()
    box = layout.qr.to_pdf(layout.trim.height, layout.bleed)
    fronts = job.products["fronts"]
    cards = {c.id: c for c in job.deck.cards}
    urls = [(card_id, job.deck.game.archive.url_for(cards[card_id])) for card_id in fronts.pages]
    return verify_qr(fronts.path, urls, box)


def stage_tactile(job: Job) -> list[Finding]:
    """The UV braille layer (spot colour, overprint), its dot map, and the fronts with the layer merged as a spot plate."""
    from pipeline.render.tactile import clearance_findings, merge_spot_plate, render_braille_layer, write_dot_map

    gid, blocks, fronts = job.game_id, job.products["blocks"], job.products["fronts"]
    layer = render_braille_layer(blocks, list(fronts.pages), job.path("uv", f"{gid}-braille.pdf"), spot_name=job.settings.spot)
    write_dot_map(blocks, job.path("uv", f"{gid}-dots.json"), spot_name=job.settings.spot)
    merge_spot_plate(fronts.path, layer, job.path("uv", f"{gid}-fronts+braille.pdf"))
    job.products["braille_layer"] = layer
    return clearance_findings(blocks, deck=job.deck)


def stage_impose(job: Job) -> list[Finding]:
    """Press sheets per paper size: fronts, duplex backs, the braille layer imposed like the fronts, a calibration sheet."""
    from pipeline.render.impose import deck_copies, impose

    fronts, backs = job.products["fronts"], job.products["backs"]
    copies = deck_copies(job.deck, fronts.pages, backs.pages)
    findings: list[Finding] = []
    for paper in job.settings.papers:
        result = impose(fronts.path, backs.path, job.products["braille_layer"], paper, copies, job.folder("sheets"), job.game_id)
        findings += result.findings
    return findings


def stage_emboss(job: Job) -> list[Finding]:
    """BRF and PEF embosser files (card per page for card stock, several cards per sheet to cut)."""
    from pipeline.emboss.write import emboss_outputs, jobs_for

    result = emboss_outputs(job.deck, job.products["blocks"], job.folder("emboss"), jobs=jobs_for(job.settings.profile))
    return list(result.findings)


def stage_archive(job: Job) -> list[Finding]:
    """The static card archive the QR codes open, then a check that every QR URL has its page."""
    from pipeline.archive import check_qr_links, write_archive

    fronts = job.products["fronts"]
    folder = job.folder("archive")
    write_archive(job.deck, job.products["blocks"], fronts.path, folder, page_ids=fronts.pages)
    return check_qr_links(job.deck, folder)


def stage_proof(job: Job) -> list[Finding]:
    """PNG proofs of every front and back with the braille overlay and stamps, and the contact sheet."""
    from pipeline.proof import write_proofs

    fronts, backs = job.products["fronts"], job.products["backs"]
    write_proofs(job.deck, job.products["blocks"], fronts.path, backs.path, job.folder("proofs"), job.findings,
                 dpi=job.settings.proof_dpi, front_ids=fronts.pages, back_ids=backs.pages)
    return []


STAGES: tuple[tuple[str, Callable[[Job], list[Finding]]], ...] = (
    ("checks", stage_checks),
    ("braille", stage_braille),
    ("dice", stage_dice),
    ("print", stage_print),
    ("qr", stage_qr),
    ("tactile", stage_tactile),
    ("impose", stage_impose),
    ("emboss", stage_emboss),
    ("archive", stage_archive),
    ("proof", stage_proof),
)

#: Stages run one after another in the game's process; every later stage runs in a
#: branch (a chain of stages that need each other), and branches run in parallel processes.
SEQUENTIAL = ("checks", "braille", "print")

#: Stages whose findings are known before anything is written: errors here stop the game early.
PREFLIGHT = ("checks", "braille")

#: What each stage needs first (for ``--only``); checks and braille always run.
NEEDS: dict[str, tuple[str, ...]] = {
    "qr": ("print",),
    "tactile": ("print",),
    "impose": ("print", "tactile"),
    "archive": ("print",),
    "proof": ("print",),
}


def stages_to_run(only: tuple[str, ...] | None) -> list[str]:
    """Stage names to run for ``--only`` (dependencies added), in table order.

    Raises ValueError naming an unknown stage and listing the known ones.
    """
    names = [name for name, _ in STAGES]
    if not only:
        return names
    unknown = [s for s in only if s not in names]
    if unknown:
        raise ValueError(f"unknown stage {', '.join(unknown)}; stages: {', '.join(names)}")
    wanted = {"checks", "braille"} | set(only)
    grew = True
    while grew:
        extra = {d for s in wanted for d in NEEDS.get(s, ())} - wanted
        grew = bool(extra)
        wanted |= extra
    return [n for n in names if n in wanted]


def _sorted(findings: list[Finding]) -> list[Finding]:
    from engine.findings import sort_key

    return sorted(findings, key=sort_key)


def branches(names: list[str]) -> list[list[str]]:
    """Group the stages after :data:`SEQUENTIAL` into chains: a stage joins the chain of a
    non-sequential stage it needs (impose follows tactile), otherwise it starts its own."""
    out: list[list[str]] = []
    home: dict[str, list[str]] = {}
    for name in names:
        if name in SEQUENTIAL:
            continue
        chain = next((home[d] for d in NEEDS.get(name, ()) if d in home), None)
        if chain is None:
            chain = []
            out.append(chain)
        chain.append(name)
        home[name] = chain
    return out


def die_with_parent() -> None:
    """Pool initializer: ask Linux to SIGKILL this worker when its parent dies (prctl
    PR_SET_PDEATHSIG), so a killed build leaves no orphan still writing; a no-op elsewhere."""
    import ctypes
    import signal

    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


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

    Raises :class:`pipeline.fsutil.OutputError` when the output cannot be written.
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
    try:
        with staging_writes():
            findings = _run_stages(job, game_id, report)
        if findings is None or (_has_errors(job.findings, settings.strict) and not settings.force):
            return GameOutcome(game_dir, game_id, "stopped", _sorted(job.findings), **counts_kw)
        report(game_id, "manifest")
        manifest = _manifest(job, key, counts_kw)
        write_text(staging / MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
        os.sync()  # one flush of the whole staging folder before it replaces the previous build
        _commit(staging, final)
        return GameOutcome(game_dir, game_id, "built", _sorted(job.findings), [e["path"] for e in manifest["files"]], forced=settings.force, **counts_kw)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _run_stages(job: Job, game_id: str, report: Callable[[str, str], None]) -> list[Finding] | None:
    """Run the selected stages into ``job`` (findings collected on it). Returns None when the
    preflight stages found errors that stop the game before anything is drawn."""
    from engine.registry import Selection, filter_findings

    settings, deck = job.settings, job.deck
    selection = Selection(settings.select, settings.ignore)
    names = stages_to_run(settings.only)
    for name in [n for n in names if n in SEQUENTIAL]:
        fn = dict(STAGES)[name]
        report(game_id, name)
        job.findings += filter_findings(fn(job), selection, deck) if name != "checks" else fn(job)
        if name in PREFLIGHT and _has_errors(job.findings, settings.strict) and not settings.force:
            return None
    groups = branches(names)
    for name in (n for g in groups for n in g):
        report(game_id, name)
    job.findings += filter_findings(run_branches(job, groups), selection, deck)
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
        "findings": [_portable(f) for f in findings],
        "files": file_entries(job.staging),
    }


def _portable(finding: Finding) -> dict:
    """A finding as JSON with paths relative to the working directory (stable across machines)."""
    return finding.to_dict()


def _finding_from_dict(data: dict) -> Finding:
    loc = Location(**data["location"])
    related = tuple(Location(**r) for r in data.get("related", ()))
    return Finding(data["code"], data["name"], Severity(data["severity"]), data["message"], data.get("hint", ""), loc, related)


def _commit(staging: Path, final: Path) -> None:
    """Swap the finished staging folder in for ``final``: two renames, then drop the old tree.

    Readers see either the whole previous build or the whole new one. Should the
    process die between the two renames, the previous build waits under
    ``.old-<game>-<pid>`` and the next build (under the lock) puts it back.
    """
    old = final.parent / f".old-{final.name}-{os.getpid()}"
    if final.exists():
        os.rename(final, old)
    os.rename(staging, final)
    shutil.rmtree(old, ignore_errors=True)


def _recover(out_dir: Path) -> None:
    """Clean up after a killed build: restore a previous build caught mid-swap, drop staging folders."""
    for old in out_dir.glob(".old-*"):
        game = old.name[len(".old-"):].rsplit("-", 1)[0]
        if not (out_dir / game).exists():
            os.rename(old, out_dir / game)
        else:
            shutil.rmtree(old, ignore_errors=True)
    for stale in out_dir.glob(".staging-*"):
        shutil.rmtree(stale, ignore_errors=True)


class OutputLock:
    """An exclusive, non-blocking lock on ``<out_dir>/.deckpress.lock`` (a POSIX record lock, fcntl.lockf).

    Raises :class:`BuildBusy` when another build holds it, :class:`OutputError` when
    the folder cannot be created or written.
    """

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / LOCK_NAME
        self.fh = None

    def __enter__(self) -> OutputLock:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.fh = open(self.path, "a+")
        except OSError as exc:
            raise OutputError(exc.errno, f"cannot write to {self.path.parent}: {exc.strerror}", str(self.path.parent)) from None
        try:
            # A POSIX record lock belongs to this process alone: forked workers do not
            # inherit it, so a killed build releases it at once, whatever its children do.
            fcntl.lockf(self.fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            self.fh.close()
            raise BuildBusy(f"another deckpress build is writing to {self.path.parent} (lock {self.path}); wait for it or use another --out") from None
        # Under the lock, anything a killed build left behind is stale.
        _recover(self.path.parent)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.lockf(self.fh, fcntl.LOCK_UN)
        self.fh.close()


def _probe_writable(out_dir: Path) -> None:
    probe = out_dir / ".deckpress-write-test"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(exc.errno, f"cannot write to {out_dir}: {exc.strerror}", str(out_dir)) from None


def run_build(game_dirs: list[str], settings: BuildSettings, progress: Callable[[str, str], None] | None = None) -> list[GameOutcome]:
    """Build several games, in parallel processes when there is more than one core and game.

    Returns one outcome per game in the given order and writes ``<out_dir>/report.json``.
    Raises :class:`BuildBusy`, :class:`OutputError`, or ValueError for a bad ``only``.
    """
    stages_to_run(settings.only)  # validate early
    out_dir = Path(settings.out_dir)
    with OutputLock(out_dir):
        _probe_writable(out_dir)
        done = {d: reuse_if_current(d, settings) for d in game_dirs}
        for outcome in filter(None, done.values()):
            if progress:
                progress(outcome.game_id, "cached")
        stale = [d for d in game_dirs if done[d] is None]
        if stale:
            # Import every stage once here: forked game and chain processes share the
            # modules instead of each paying ~0.5 s to import pypdf, pikepdf, jinja2 …
            import pipeline.stages  # noqa: F401
        workers = min(len(stale), os.cpu_count() or 1)
        if workers <= 1:
            built = [build_game(d, settings, progress) for d in stale]
        else:
            built = _parallel(stale, settings, progress, workers)
        done.update(zip(stale, built))
        outcomes = [done[d] for d in game_dirs]
        write_text(out_dir / "report.json", json.dumps(report_dict(outcomes), indent=2, ensure_ascii=False) + "\n")
    return outcomes


def _parallel(game_dirs: list[str], settings: BuildSettings, progress, workers: int) -> list[GameOutcome]:
    import multiprocessing

    ctx = multiprocessing.get_context("fork")
    queue = ctx.SimpleQueue()
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init, initargs=(queue,)) as pool:
        futures = [pool.submit(_worker_build, d, settings) for d in game_dirs]
        while not all(f.done() for f in futures):
            _drain(queue, progress, wait=True, futures=futures)
        _drain(queue, progress, wait=False, futures=futures)
        return [f.result() for f in futures]


_QUEUE = None  # set in each worker process by _worker_init (the pool's per-process channel)


def _worker_init(queue) -> None:
    global _QUEUE
    _QUEUE = queue
    die_with_parent()


def _worker_build(game_dir: str, settings: BuildSettings) -> GameOutcome:
    return build_game(game_dir, settings, lambda game, stage: _QUEUE.put((game, stage)))


def _drain(queue, progress, wait: bool, futures) -> None:
    import time

    while not queue.empty():
        game, stage = queue.get()
        if progress:
            progress(game, stage)
    if wait:
        time.sleep(0.01)


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

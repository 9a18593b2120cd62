"""The build's worker processes: games in parallel, and a game's stage chains in parallel.

Both pools fork (the parent has imported every stage module once, so workers share them
instead of each paying ~0.5 s to import pypdf, pikepdf, jinja2 …), and every worker asks
Linux to kill it when its parent dies. liblouis is not shared across threads: every chain
and every game is a process of its own.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from engine.findings import Finding
from pipeline.build.schedule import longest_first
from pipeline.build.stages import STAGES

if TYPE_CHECKING:
    from pipeline.build.job import Job
    from pipeline.build.report import GameOutcome
    from pipeline.build.settings import BuildSettings

#: The signals the build's parent handles (pipeline.cli.app.main), blocked while workers fork.
_PARENT_SIGNALS = {signal.SIGINT, signal.SIGTERM, signal.SIGHUP}
#: The progress callback: ``progress(game_id, stage)``.
Progress = Callable[[str, str], None]
#: Builds one game: ``build(game_dir, settings, progress)`` (:func:`pipeline.build.runner.build_game`).
BuildOne = Callable[[str, "BuildSettings", "Progress | None"], "GameOutcome"]


def die_with_parent(parent: int | None = None) -> None:
    """Pool initializer: ask Linux to SIGKILL this worker when its parent dies (prctl
    PR_SET_PDEATHSIG), so a killed build leaves no orphan still writing; a no-op elsewhere.

    ``parent`` is the pid that forked the worker: when it died before the prctl took effect (a
    Ctrl-C between fork and this call), the worker exits at once instead of running on as an
    orphan that keeps the build's stdout open (prctl(2): the signal fires only on a later death).
    """
    import ctypes
    import signal

    # Ctrl-C reaches the whole process group: the parent alone handles it (one line, exit 130)
    # and ends the workers, so no worker prints a traceback. The parent forks with SIGINT
    # blocked (forking_without_sigint), so none arrives before this line.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # SIGTERM and SIGHUP kill a worker at once, as before the parent had handlers for them (its
    # handler, inherited by the fork, would unwind a worker's task instead).
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGHUP, signal.SIG_DFL)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, _PARENT_SIGNALS)
    try:
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # 1 = PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass  # not Linux (no prctl): workers then end when their task queue closes
    if parent is not None and os.getppid() != parent:
        os._exit(1)


@contextmanager
def forking_without_sigint():
    """Block SIGINT while workers are forked (a pool forks on ``submit``): a Ctrl-C then waits
    until the children have set it to ignored (:func:`die_with_parent`), and reaches the parent
    as soon as the block ends."""
    import signal

    old = signal.pthread_sigmask(signal.SIG_BLOCK, _PARENT_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


@contextmanager
def heap_frozen():
    """Move every object the forking process holds into the collector's permanent generation while
    workers are forked (``gc.freeze``, as the gc module's docs advise before a fork), and back after.

    A forked worker's cyclic collections then skip the ~90,000 objects it inherits (the stage
    modules, the warmed caches, the game's deck): each full collection walked them all and, by
    writing their GC headers, copied the shared memory pages into the worker. Nothing a build
    writes depends on it (the collector only frees unreachable cycles).
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _run_chain(job: Job, chain: list[str]) -> list[Finding]:
    stages = dict(STAGES)
    return [f for name in chain for f in stages[name](job)]


# The game's job as the chain pool forked its workers (set just before the fork, in the game's
# process): a task carries only what the game process added since (:func:`_since_fork`), and the
# worker rebuilds the job from its inherited copy (:func:`_job_now`). Pickling the whole job into
# every task sent the deck and its braille again (~80 MB at 10,000 cards), unpickled into a second
# copy beside the inherited one in each worker.
_FORKED_JOB = None


def _since_fork(job: Job) -> tuple:
    """What a chain task needs of ``job`` beyond the forked copy: the print product and the findings so far."""
    return job.printed, list(job.findings)


def _job_now(since: tuple) -> Job:
    """This task's own job: the forked copy with ``since`` (:func:`_since_fork`), nothing prepared yet."""
    import dataclasses

    printed, findings = since
    return dataclasses.replace(_FORKED_JOB, printed=printed, findings=findings, prepared={})


def _own_job(job: Job) -> Job:
    """A chain's job in the game process itself: ``job`` with its findings so far and nothing prepared,
    a copy as a worker's (:func:`_job_now`), so the chain's products stay off the game's job as theirs do."""
    import dataclasses

    return dataclasses.replace(job, findings=list(job.findings), prepared={})


def _run_forked_chain(since: tuple, chain: list[str]) -> list[Finding]:
    return _run_chain(_job_now(since), chain)


def _run_chains_in_turn(since: tuple, chains: list[list[str]]) -> list[list[Finding]]:
    job = _job_now(since)
    return [_run_chain(job, chain) for chain in chains]


# The game process's queue to its prepared chains: a multiprocessing queue reaches a worker only
# by inheritance, so it is set before the chain pool forks (ChainPool.start_early).
_HANDOFF = None


def _run_prepared_chain(since: tuple, chain: list[str]) -> list[Finding]:
    """Make the first stage's prepared part (:data:`pipeline.build.stages.PREPARE`) while the game
    process runs the print stage, then take the print stage's product from it and run the chain."""
    from pipeline.build.stages import PREPARE

    job = _job_now(since)
    job.prepared[chain[0]] = PREPARE[chain[0]](job)
    job.printed = _HANDOFF.get()
    return _run_chain(job, chain)


class ChainPool:
    """One game's stage chains (:func:`pipeline.build.stages.branches`) on forked worker processes,
    as many as cores, started in two batches.

    :meth:`start_early`, called just before the print stage runs in the game's process, starts
    the chains whose first stage has a part that needs only the braille layout
    (:data:`pipeline.build.stages.PREPARE`: the tactile stage's UV package), which make it and
    then wait for the print stage's product, and, in one more worker one after another, the
    chains that need nothing of the print stage (dice, emboss, boxes:
    :func:`pipeline.build.stages.needs_print`). :meth:`finish` hands the print product to the
    waiting chains and starts the rest (longest first, :mod:`pipeline.build.schedule`), running the
    cheapest of them in the game's process, which would otherwise only wait for the others. So the
    second core no longer idles through the print stage of a one-game build. Each task gets its
    own job: the one the workers inherited when they forked, with the print product and findings
    as they are when it starts (:func:`_job_now`); findings come back in table order. With
    one core or one chain nothing starts early: :meth:`finish` runs every chain here, in table order.
    """

    def __init__(self, chains: list[list[str]]) -> None:
        self.chains = chains
        self.workers = 1 if _CHAINS_IN_TURN else min(len(chains), os.cpu_count() or 1)
        self._pool: ProcessPoolExecutor | None = None
        self._early: tuple[list[int], object] | None = None  # (chain indices, future of their findings)
        self._futures: dict[int, object] = {}
        self._waiting: list[int] = []  # the prepared chains, waiting for the print product

    def _submit(self, job: Job, fn, *args):
        global _FORKED_JOB
        if self._pool is None:
            _FORKED_JOB = job  # the workers fork at this first submit and inherit it
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=multiprocessing.get_context("fork"),
                                             initializer=die_with_parent, initargs=(os.getpid(),))
        with forking_without_sigint(), heap_frozen():  # a fork pool forks all its workers at the first submit
            return self._pool.submit(fn, *args)

    def start_early(self, job: Job, early: list[int]) -> None:
        """Start the prepared chains and the chains ``early`` (indices into the chains, those that
        need nothing of the print stage) with ``job`` as it is now; a no-op with one worker."""
        global _HANDOFF
        from pipeline.build.stages import PREPARE, needs_print

        if self.workers <= 1:
            return
        try:
            self._waiting = [i for i, chain in enumerate(self.chains) if chain[0] in PREPARE and needs_print(chain)]
            if self._waiting:
                _HANDOFF = multiprocessing.get_context("fork").Queue()
                _HANDOFF.cancel_join_thread()  # a message no chain took (it failed first) must not hold this process
            for i in self._waiting:
                self._futures[i] = self._submit(job, _run_prepared_chain, _since_fork(job), self.chains[i])
            if early:
                self._early = (early, self._submit(job, _run_chains_in_turn, _since_fork(job), [self.chains[i] for i in early]))
        except BaseException:
            self.abandon()
            raise

    def finish(self, job: Job) -> list[Finding]:
        """Hand ``job.printed`` to the waiting chains, start every chain not started yet (with
        ``job`` as it is now; the cheapest in this process, on a copy of ``job``) and return every chain's findings in table order; an exception in a
        chain is raised here (the workers are ended)."""
        if self.workers <= 1:
            return [f for chain in self.chains for f in _run_chain(job, chain)]
        try:
            for _ in self._waiting:
                _HANDOFF.put(job.printed)
            started = set(self._early[0] if self._early else ()) | set(self._futures)
            rest = [i for i in longest_first(self.chains) if i not in started]
            # The cheapest chain runs here: this process would only wait for the pool (at 10,000 cards one
            # core idled 3.5 s while the last worker ran the QR check, docs/speed.md "Twentieth round").
            own = rest.pop() if rest else None
            for i in rest:
                self._futures[i] = self._submit(job, _run_forked_chain, _since_fork(job), self.chains[i])
            found: dict[int, list[Finding]] = {}
            if own is not None:
                found[own] = _run_chain(_own_job(job), self.chains[own])
            if self._early:
                found.update(zip(self._early[0], self._early[1].result()))
            found.update((i, future.result()) for i, future in self._futures.items())
        except BaseException:
            self.abandon()
            raise
        self._pool.shutdown(wait=True)
        self._forget()
        return [f for i in range(len(self.chains)) for f in found[i]]

    def _forget(self) -> None:
        global _FORKED_JOB
        _FORKED_JOB = None  # a next game's pool forks with its own job; this one's deck can go

    def abandon(self) -> None:
        """Kill the workers (a game the preflight stopped, an error, Ctrl-C) and wait until they are
        gone, so none still writes into the staging folder when it is removed."""
        if self._pool is not None:
            end_workers(self._pool)
        self._forget()


def run_chains(job: Job, chains: list[list[str]]) -> list[Finding]:
    """Run the stage chains (:func:`pipeline.build.stages.branches`), in parallel forked
    processes when there are several and more than one core (:class:`ChainPool`, all at once).

    Each chain gets its own copy of ``job`` (pickled, the products of the preflight stages
    with it), writes its own files into the staging folder and returns its findings; an
    exception in a chain is raised here.
    """
    return ChainPool(chains).finish(job)


def build_in_parallel(build: BuildOne, game_dirs: list[str], settings: BuildSettings, progress: Progress | None,
                      workers: int) -> list[GameOutcome]:
    """``build`` each game in ``workers`` forked processes; the outcomes in ``game_dirs`` order.

    Progress events travel from the workers through a queue to ``progress``, in this process.
    On Ctrl-C (or any exception here) the workers are ended at once, not waited for.
    """
    ctx = multiprocessing.get_context("fork")
    queue = ctx.SimpleQueue()
    waiting = ctx.Value("i", len(game_dirs))  # games no worker has taken yet (_worker_build)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_worker_init,
                               initargs=(queue, os.getpid(), waiting, workers))
    try:
        # Largest game first (longest-processing-time order): the last worker to finish
        # then holds a small game, not the biggest, and the cores idle less at the end.
        order = sorted(game_dirs, key=lambda d: _data_size(d, settings.run), reverse=True)
        with forking_without_sigint(), heap_frozen():
            futures = {d: pool.submit(_worker_build, build, d, settings) for d in order}
        while not all(f.done() for f in futures.values()):
            _drain(queue, progress)
            time.sleep(0.01)
        _drain(queue, progress)
        outcomes = [_outcome(futures[d], d) for d in game_dirs]
    except BaseException:
        end_workers(pool)
        raise
    pool.shutdown(wait=True)
    return outcomes


def end_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a pool's worker processes (SIGKILL: an interrupted build does not wait for their work)
    and drop its queued tasks, then reap them, so that when this returns none is left to write
    into a staging folder about to be removed; their own chain workers got SIGKILL as they died
    (PR_SET_PDEATHSIG, :func:`die_with_parent`). concurrent.futures has no public way to kill
    before Python 3.14."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for process in processes:
        process.kill()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        process.join()


def _outcome(future, game_dir: str) -> GameOutcome:
    """A game worker's outcome; a worker that died (killed, out of memory) is a failed outcome."""
    from concurrent.futures.process import BrokenProcessPool

    from pipeline.build.manifest import game_id_of
    from pipeline.build.report import failed_outcome

    try:
        return future.result()
    except BrokenProcessPool:
        return failed_outcome(game_dir, RuntimeError("its worker process died (killed, or out of memory)"), game_id_of(Path(game_dir)))


def _data_size(game_dir: str, run: str = "box") -> int:
    """Bytes of the data files of what the build prints: a cheap proxy for a game's build time.

    A ``box`` run of an expansion prints only its own cards and dice (:mod:`engine.runs`), so only
    its own folder counts; a ``combined`` run counts its base game's files too. Counting the base's
    files for a box run put the smallest shipped game (22 cards over a 60-card base) first and the
    57-card Enchant last, alone on the cores at the end of the build.
    """
    from pipeline.build.manifest import game_sources

    folder = Path(game_dir)
    files = game_sources(folder) if run == "combined" else [p for p in folder.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files)


# Each game worker's progress channel and the count of games not taken yet. A multiprocessing
# queue or value can only reach a worker by inheritance (it cannot be pickled into a task), so
# the pool's initializer sets them once per worker process; the parent never sets them.
_QUEUE = None
_WAITING = None
_GAME_WORKERS = 1
#: Set in a game worker while it builds a game that runs its stage chains one after another in its own
#: process (:func:`_worker_build`); :class:`ChainPool` then forks no chain workers.
_CHAINS_IN_TURN = False


def chains_in_turn(waiting: int, game_workers: int) -> bool:
    """Whether a game taken while ``waiting`` games still wait for one of ``game_workers`` game workers runs its
    stage chains one after another in its own process: when at least as many wait as there are workers,
    every core has a game of its own for a while. ``chains_in_turn(2, 2)`` is True, ``chains_in_turn(1, 2)`` False.

    Measured (four shipped games, 2 cores, quiet machine, six alternated cold builds, every stage but proofs):
    2.27–2.43 → 2.17–2.32 s wall, 3.32–3.54 → 3.13–3.29 s user CPU; with proofs 3.07–3.24 → 2.93–3.02 s."""
    return waiting >= game_workers


def _worker_init(queue, parent: int, waiting=None, game_workers: int = 1) -> None:
    global _QUEUE, _WAITING, _GAME_WORKERS
    _QUEUE, _WAITING, _GAME_WORKERS = queue, waiting, game_workers
    die_with_parent(parent)


def _worker_build(build: BuildOne, game_dir: str, settings: BuildSettings) -> GameOutcome:
    """Build one game in this game worker. While at least as many games wait for a worker as there are
    game workers, every core has a game of its own to build for a while: this game's chains then run
    one after another here instead of in forked chain workers, whose forks, copied pages and exits cost
    ~10 % of a build of the four shipped games in CPU (issue 22). The last games fork chain workers as
    before, so no core idles while the others finish."""
    global _CHAINS_IN_TURN
    if _WAITING is not None:
        with _WAITING.get_lock():
            _WAITING.value -= 1
            _CHAINS_IN_TURN = chains_in_turn(_WAITING.value, _GAME_WORKERS)
    try:
        return build(game_dir, settings, lambda game, stage: _QUEUE.put((game, stage)))
    finally:
        _CHAINS_IN_TURN = False


def _drain(queue, progress: Progress | None) -> None:
    """Hand the workers' progress events waiting in ``queue`` to the progress callback."""
    while not queue.empty():
        game, stage = queue.get()
        if progress:
            progress(game, stage)

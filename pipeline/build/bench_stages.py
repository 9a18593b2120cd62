"""``make bench``'s per-stage figures: CPU time of every stage of one game, in one process on one core.

Whole-build wall times on a shared 2-core machine scatter by half; the CPU time a stage
spends in its own process does not, so this is the figure to compare before and after a
change to one stage (issue 22 asks for before/after numbers per stage). The build runs
through :func:`pipeline.build.runner.run_build` with one worker (every chain in this process,
one after another) and each stage function is timed with ``time.process_time``.

Usage: ``python -m pipeline.build.bench_stages GAME_DIR [--stages a,b,c]`` (default: every
stage but the vendor exports); :func:`stage_cpu` is what :mod:`pipeline.build.bench` calls.
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path


def stage_cpu(game_dir: str | Path, stages: tuple[str, ...], out_dir: str | Path, papers: tuple[str, ...] = ("letter",)) -> dict[str, float]:
    """``{stage: CPU seconds}`` for one cold build of ``game_dir`` into ``out_dir`` in this process
    (one worker, so every chain runs here), plus ``"total"``: the whole :func:`run_build` call.

    The stage table is swapped for timed wrappers for the call and restored after it. Raises
    RuntimeError when the game does not build (the figures would then mean nothing).
    """
    from pipeline.build import runner, stages as table, workers
    from pipeline.build.settings import BuildSettings

    spent: dict[str, float] = {}

    def timed(name, fn):
        def run(job):
            start = time.process_time()
            try:
                return fn(job)
            finally:
                spent[name] = spent.get(name, 0.0) + time.process_time() - start
        return run

    original, cpu_count = table.STAGES, os.cpu_count
    table.STAGES = workers.STAGES = tuple((name, timed(name, fn)) for name, fn in original)
    os.cpu_count = lambda: 1  # one worker: games and chains run in this process, so every stage is timed here
    try:
        table.import_stage_modules()
        start = time.process_time()
        (outcome,) = runner.run_build([str(game_dir)], BuildSettings(out_dir=str(out_dir), only=stages, papers=papers))
        spent["total"] = time.process_time() - start
    finally:
        table.STAGES = workers.STAGES = original
        os.cpu_count = cpu_count
    if outcome.status != "built":
        raise RuntimeError(f"{game_dir} did not build ({outcome.status}): {outcome.error or [f.code for f in outcome.findings][:5]}")
    return spent


def stage_lines(spent: dict[str, float], cards: int) -> list[str]:
    """The figures as lines: each stage's CPU s and ms a card, largest first, then the total."""
    rows = sorted(((k, v) for k, v in spent.items() if k != "total"), key=lambda kv: -kv[1])
    lines = [f"  {name:<10} {cpu:6.2f} s cpu   {1000 * cpu / cards:6.2f} ms a card" for name, cpu in rows]
    total = spent.get("total", sum(v for _, v in rows))
    lines.append(f"  {'whole':<10} {total:6.2f} s cpu   {1000 * total / cards:6.2f} ms a card (load, checks, manifest included)")
    return lines


def main(argv: list[str] | None = None) -> int:
    """Print the per-stage CPU figures of one game's cold build; returns 0."""
    from pipeline.build.stages import STAGES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game_dir")
    parser.add_argument("--stages", default=",".join(n for n, _ in STAGES if n != "vendor"))
    opts = parser.parse_args(argv)
    from engine.load import load_game

    cards = len(load_game(opts.game_dir).cards)
    with tempfile.TemporaryDirectory(prefix="deckpress-stages-") as tmp:
        spent = stage_cpu(opts.game_dir, tuple(opts.stages.split(",")), Path(tmp))
    print(f"{opts.game_dir}: {cards} cards, one process, one core")
    print("\n".join(stage_lines(spent, cards)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

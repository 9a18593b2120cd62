"""The order the stage chains start in: longest first, so neither core idles at the end.

The chains of one game (:func:`pipeline.build.stages.branches`) run on a pool of as many
workers as cores, which takes them in the order they are submitted. Submitted in table
order, the longest chain (the proofs) started last and one core waited for it alone;
longest-processing-time-first order (Graham 1969: within 4/3 of the best schedule) starts
the long chains first and fills in with the short ones.

:data:`STAGE_COST` is each stage's CPU time per unique card in ms, measured with
``cProfile`` on the 300-card synthetic deck of :mod:`pipeline.build.bench` (one process,
2-core machine, December 2026); only the ratios matter.
"""

from __future__ import annotations

#: CPU ms per unique card, by stage (the 300-card synthetic deck, after the proof-stamp cache). The
#: archive's 10 split when its pages became a stage of their own, in the ratio ``bench_stages`` gives on
#: that deck (faces 4.2, pages 1.7 ms a card); the pages run in the early chain, whose order is the table's.
STAGE_COST: dict[str, float] = {
    "tactile": 17.0,
    "proof": 14.0,
    "faces": 6.0,
    "archive": 2.5,
    "impose": 4.5,
    "dice": 2.0,
    "qr": 1.7,
    "emboss": 0.9,
}


def chain_cost(chain: list[str]) -> float:
    """The estimated cost of a chain: the sum of its stages' :data:`STAGE_COST` (unknown stages 1 ms)."""
    return sum(STAGE_COST.get(name, 1.0) for name in chain)


def longest_first(chains: list[list[str]]) -> list[int]:
    """Indices of ``chains`` in the order to start them: highest :func:`chain_cost` first
    (ties keep table order). ``longest_first([["qr"], ["tactile", "impose"]]) == [1, 0]``."""
    return sorted(range(len(chains)), key=lambda i: (-chain_cost(chains[i]), i))


def parallel_label(stages: int) -> str:
    """The progress label of a game whose ``stages`` chained stages now run at once on the chain
    workers (the progress bar advances by all of them): ``parallel_label(5) == "5 stages in parallel"``."""
    return f"{stages} stages in parallel"


def parallel_count(label: str) -> int | None:
    """How many stages a :func:`parallel_label` stands for; None for a single stage's name."""
    number, _, rest = label.partition(" ")
    return int(number) if number.isdigit() and rest == "stages in parallel" else None

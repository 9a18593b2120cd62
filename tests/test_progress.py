"""The build's progress bar (pipeline/build/progress.py) says what a game is doing: after the print
stage its chained stages run at once on the chain workers, so the bar says how many run in parallel
(it named the last stage of the table, "vendor", while the archive was running) and advances by all
of them; the manifest completes it."""

from __future__ import annotations

import io

from rich.console import Console

from pipeline.build.progress import BuildProgress
from pipeline.build.schedule import parallel_count, parallel_label
from pipeline.build.stages import STAGES


def test_the_parallel_label_counts_its_stages_and_a_stage_name_counts_none():
    assert parallel_label(5) == "5 stages in parallel" and parallel_count(parallel_label(5)) == 5
    assert [parallel_count(name) for name, _ in STAGES] == [None] * len(STAGES)
    assert parallel_count("5 stages") is None and parallel_count("x stages in parallel") is None


def test_the_bar_advances_by_the_stages_running_in_parallel():
    console = Console(file=io.StringIO(), force_terminal=True, width=120)
    with BuildProgress(["g"], console) as progress:
        for stage in ("checks", "braille", "print", parallel_label(6)):
            progress.update("g", stage)
        (task,) = progress.progress.tasks
        assert (task.completed, task.fields["stage"], task.total) == (9, "6 stages in parallel", len(STAGES) + 1)
        progress.update("g", "manifest")
        assert (task.completed, task.fields["stage"]) == (len(STAGES) + 1, "done")

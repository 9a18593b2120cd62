"""Build progress on stderr: one rich progress bar per game, advancing stage by stage.

Quiet when stderr is not a terminal or when disabled (``--quiet``); findings and
summaries go to stdout, never through here.
"""

from __future__ import annotations

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from pipeline.build.schedule import parallel_count


class BuildProgress:
    """Context manager; ``update(game_id, stage)`` is the build runner's progress callback."""

    def __init__(self, game_dirs: list[str], console: Console, enabled: bool = True) -> None:
        from pipeline.build.stages import STAGES

        self.total = len(STAGES) + 1  # stages + manifest
        self.enabled = enabled and console.is_terminal
        self.progress = Progress(TextColumn("{task.description:<32}"), BarColumn(), TextColumn("{task.fields[stage]}"), TimeElapsedColumn(), console=console, disable=not self.enabled)
        self.tasks: dict[str, int] = {}

    def __enter__(self) -> BuildProgress:
        self.progress.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.progress.__exit__(*exc)

    def update(self, game_id: str, stage: str) -> None:
        """Record that ``game_id`` started ``stage`` ("cached" completes it at once)."""
        if game_id not in self.tasks:
            self.tasks[game_id] = self.progress.add_task(game_id, total=self.total, stage="")
        task = self.tasks[game_id]
        if stage == "cached":
            self.progress.update(task, completed=self.total, stage="unchanged")
        elif stage == "manifest":
            self.progress.update(task, completed=self.total, stage="done")
        else:
            self.progress.update(task, advance=parallel_count(stage) or 1, stage=stage)

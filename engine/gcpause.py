"""Pausing Python's cyclic garbage collector while a bulk of long-lived objects is built.

Loading a game allocates some 40 objects a card (YAML nodes, locations, pydantic models)
that all live on: each allocation burst makes the collector walk the young generations,
and the full collections it triggers walk everything already loaded, so the collector's
work grows with the deck. Pausing it for the load (reference counting still frees
everything that is not in a cycle) cut :func:`engine.load.load_game` of a 2,000-card game
from 0.50 to 0.31 ms a card (CPU, best of 4, on the development machine; docs/speed.md).
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block and re-enable it after (also on an
    error), only if it was enabled on entry, so nested pauses keep it off until the outermost ends.
    Cycles created meanwhile are collected by the collector's next run."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()

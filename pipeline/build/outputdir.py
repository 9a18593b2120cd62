"""The output folder of a build: its lock, and the all-or-nothing swap of a finished game.

- :class:`OutputLock` keeps two builds out of one output folder at once;
- :func:`commit` swaps a finished staging folder in for ``<out>/<game>`` with two renames;
- :func:`recover` cleans up after a killed build (under the lock).
"""

from __future__ import annotations

import fcntl
import os
import shutil
from pathlib import Path

from pipeline.common.files import OutputError

LOCK_NAME = ".deckpress.lock"


class BuildBusy(RuntimeError):
    """Another build holds the output folder's lock."""


def commit(staging: Path, final: Path) -> None:
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


def recover(out_dir: Path) -> None:
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
        recover(self.path.parent)
        return self

    def __exit__(self, *exc) -> None:
        fcntl.lockf(self.fh, fcntl.LOCK_UN)
        self.fh.close()


def probe_writable(out_dir: Path) -> None:
    probe = out_dir / ".deckpress-write-test"
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise OutputError(exc.errno, f"cannot write to {out_dir}: {exc.strerror}", str(out_dir)) from None

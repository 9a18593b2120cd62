"""The output folder of a build: its lock, and the all-or-nothing swap of a finished game.

- :class:`OutputLock` keeps two builds out of one output folder at once;
- :func:`commit` swaps a finished staging folder in for ``<out>/<game>`` with two renames;
- :func:`recover` cleans up after a killed build (under the lock);
- :func:`check_targets` refuses, before anything is built, an output folder that holds
  card data and a game folder that holds files deckpress did not write
  (:mod:`pipeline.common.ownership`); :func:`commit` checks the game folder again.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from pipeline.common.files import OutputError
from pipeline.common.ownership import (LOCK_NAME, MANIFEST, STAGING_MARK, ForeignOutput, check_overwrite, read_build_manifest, refuse_card_data,
                                       refuse_foreign, stand_alone_files)


class BuildBusy(RuntimeError):
    """Another build holds the output folder's lock."""


def check_targets(out_dir: Path, game_ids: list[str]) -> None:
    """Refuse (ForeignOutput) an output folder that holds card data or lies in a game folder,
    a ``report.json`` there that deckpress did not write, and any ``<out_dir>/<game id>`` that
    holds a file deckpress did not write."""
    refuse_card_data(out_dir)
    check_overwrite(out_dir / "report.json")
    for game_id in game_ids:
        refuse_foreign(out_dir / game_id)


def make_staging(out_dir: Path, game_id: str) -> Path:
    """A new, empty staging folder ``<out_dir>/.staging-<game>-<pid>`` marked as deckpress's.

    A leftover of this process's own earlier run is removed first; a folder of that name
    deckpress did not make is refused (ForeignOutput), never deleted.
    """
    staging = out_dir / f".staging-{game_id}-{os.getpid()}"
    if staging.exists():
        if not (staging / STAGING_MARK).is_file():
            refuse_foreign(staging)
        shutil.rmtree(staging)
    staging.mkdir(parents=True)
    (staging / STAGING_MARK).write_bytes(b"")
    return staging


@contextmanager
def syncing() -> Iterator[None]:
    """Run ``os.sync`` in a thread while the block runs, and wait for it when the block ends (also on
    an error). The build's tail makes its manifest meanwhile: the flush of the stages' files, which
    waits on the disk (0.43-0.49 s at 10,000 cards, docs/speed.md), then costs no wall time. What the
    block writes is not covered: the caller syncs once more after it (the manifest, ~5 ms)."""
    flushing = threading.Thread(target=os.sync, name="deckpress-sync", daemon=True)
    flushing.start()
    try:
        yield
    finally:
        flushing.join()


def commit(staging: Path, final: Path) -> list[str]:
    """Swap the finished staging folder in for ``final``: two renames, then drop the old tree.

    ``final`` is replaced only when everything in it is deckpress's (else ForeignOutput,
    and nothing moves). Readers see either the whole previous build or the whole new one.
    Should the process die between the two renames, the previous build waits under
    ``.old-<game>-<pid>`` and the next build (under the lock) puts it back.

    Returns the files stand-alone commands had written into ``final`` (``export``, ``emboss
    --profile …``, ``uv --uv-printer …``) that the new build does not hold, relative to it: they go
    with the old tree (they may be stale with the new data), and the build says so.
    """
    refuse_foreign(final)
    dropped = [p for p in stand_alone_files(final) if not (staging / p).exists()] if final.is_dir() else []
    (staging / STAGING_MARK).unlink(missing_ok=True)
    old = final.parent / f".old-{final.name}-{os.getpid()}"
    if final.exists():
        os.rename(final, old)
    os.rename(staging, final)
    remove_build(old)
    return dropped


#: What commit() names a previous build while it swaps the new one in: ``.old-<game id>-<pid>``.
_OLD_NAME = re.compile(r"\.old-[a-z0-9]+(?:-[a-z0-9]+)*-[0-9]+")


def remove_build(folder: Path) -> None:
    """Delete a previous build's folder with its manifest last, so a deletion cut short (Ctrl-C, a
    kill) leaves a folder :func:`recover` still knows as deckpress's (by the manifest) and finishes;
    only an empty folder can be left without it, which :func:`recover` removes too. Missing: a no-op."""
    try:
        entries = list(os.scandir(folder))
    except FileNotFoundError:
        return
    for entry in entries:
        if entry.name == MANIFEST:
            continue
        if entry.is_dir(follow_symlinks=False):
            shutil.rmtree(entry.path, ignore_errors=True)
        else:
            Path(entry.path).unlink(missing_ok=True)
    (folder / MANIFEST).unlink(missing_ok=True)
    try:
        folder.rmdir()
    except OSError:
        pass  # not empty (something was added meanwhile) or gone: recover() looks again


def recover(out_dir: Path) -> None:
    """Clean up after a killed build: restore a previous build caught mid-swap, finish the deletion
    of a previous build cut short (:func:`remove_build`), drop staging folders. Only folders deckpress
    made are touched (a build manifest, or the staging mark); an empty ``.old-*`` folder is removed."""
    for old in out_dir.glob(".old-*"):
        if _OLD_NAME.fullmatch(old.name) and old.is_dir() and not old.is_symlink() and not any(old.iterdir()):
            old.rmdir()  # the husk of a remove_build() cut short after its manifest went
            continue
        if not old.is_dir() or old.is_symlink() or read_build_manifest(old) is None:
            continue
        game = old.name[len(".old-"):].rsplit("-", 1)[0]
        if not (out_dir / game).exists():
            os.rename(old, out_dir / game)
        else:
            remove_build(old)
    for stale in out_dir.glob(".staging-*"):
        if stale.is_dir() and not stale.is_symlink() and (stale / STAGING_MARK).is_file():
            shutil.rmtree(stale, ignore_errors=True)


class OutputLock:
    """An exclusive, non-blocking lock on ``<out_dir>/.deckpress.lock`` (a POSIX record lock, fcntl.lockf).

    Raises :class:`BuildBusy` when another build holds it, :class:`OutputError` when
    the folder cannot be created or written.
    """

    def __init__(self, out_dir: Path) -> None:
        self.path = out_dir / LOCK_NAME
        self.fh = None
        self.made = False  # whether this lock made the lock file (a folder deckpress never wrote to)

    def __enter__(self) -> OutputLock:
        refuse_card_data(self.path.parent)  # before the lock file is made there
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.made = not self.path.exists()
            self.fh = open(self.path, "a+")
        except OSError as exc:
            why = "it is a file, not a folder" if self.path.parent.exists() and not self.path.parent.is_dir() else exc.strerror
            raise OutputError(exc.errno, f"cannot write to {self.path.parent}: {why}", str(self.path.parent)) from None
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

    def __exit__(self, exc_type, *exc) -> None:
        if self.made and exc_type is not None and issubclass(exc_type, ForeignOutput):
            # Refused before anything was written (another's files are in the way): take back the
            # lock file this build left in a folder deckpress had never written to, while it still
            # holds the lock; a build that waits for it would be refused by the same files.
            self.path.unlink(missing_ok=True)
        fcntl.lockf(self.fh, fcntl.LOCK_UN)
        self.fh.close()


def probe_writable(out_dir: Path) -> None:
    """Raise OutputError naming ``out_dir`` when a file cannot be created there (a fresh
    temporary name, so no file of that name is ever touched)."""
    try:
        with tempfile.NamedTemporaryFile(prefix=".deckpress-write-test-", dir=out_dir):
            pass
    except OSError as exc:
        raise OutputError(exc.errno, f"cannot write to {out_dir}: {exc.strerror}", str(out_dir)) from None


def refuse_undecodable(game_dirs: list[str | Path], out_dir: str | Path) -> None:
    """Raise ValueError for the first game folder or output folder whose absolute path is not valid
    UTF-8 (a folder named in another encoding, such as Latin-1 ``caf\\xe9``), or game folder whose real
    path (symbolic links followed, as report.json's ``folder`` is made) is not: report.json and
    manifest.json name them as UTF-8 text (RFC 8259 §8.1), which such a name cannot be written as.
    Checked before anything is written, so the message names the folder instead of a codec error."""
    forms = [form for d in game_dirs for form in (os.path.abspath(d), os.path.realpath(d))] + [os.path.abspath(out_dir)]
    for path in forms:
        raw = os.fsencode(path)
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError:
            shown = raw.decode("utf-8", "backslashreplace")
            raise ValueError(f"{shown}: this path is not valid UTF-8; report.json and manifest.json name the game "
                             "and output folders as UTF-8 text, so rename the folder with a UTF-8 name") from None

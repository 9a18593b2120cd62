"""Safe file writing: every output goes to a temporary name in the same folder and is
renamed into place, so an interrupted build never leaves a half-written file under its
final name and the previous good file stays readable until the new one is complete.

Outside a build, a file is written only where deckpress may write
(:func:`pipeline.common.ownership.check_overwrite`: never over a file it did not write,
never into card data), and its name goes into its folder's ledger, so later commands
know it is deckpress's.

Inside :func:`staging_writes` (the build runner, whose stages write into a private
staging folder that is swapped in whole) files are written straight to their names:
the folder swap already gives the all-or-nothing guarantee, and a temporary file plus
an fsync per file would cost about 1.5 ms each, over a second per build.
"""

from __future__ import annotations

import io
import os
import tempfile
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator

from pipeline.common.errors import OutputError
from pipeline.common.ownership import check_overwrite, record_written

__all__ = ["OutputError", "atomic_path", "staging_writes", "write_bytes", "write_stream", "write_text"]


def _umask() -> int:
    """The process umask (read by setting and restoring it; os has no getter)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_STAGING: ContextVar[bool] = ContextVar("deckpress_staging_writes", default=False)


@contextmanager
def staging_writes() -> Iterator[None]:
    """Within this block, :func:`atomic_path` writes directly (the caller swaps a whole staging folder in)."""
    token = _STAGING.set(True)
    try:
        yield
    finally:
        _STAGING.reset(token)


@contextmanager
def _direct_path(path: Path) -> Iterator[Path]:
    try:
        # a stat, not mkdir's failed call and exception, for the folder every file but the first finds
        # in place: 2.7 against 9.7 µs a file, ~30,000 files at 10,000 cards (issue 22)
        if not os.path.isdir(path.parent):
            path.parent.mkdir(parents=True, exist_ok=True)
        yield path
    except OSError as exc:
        if isinstance(exc, OutputError):
            raise
        raise OutputError(exc.errno, f"cannot write {path}: {exc.strerror}", str(path)) from None


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path beside ``path``; on success fsync and rename it onto ``path``.

    For libraries that want a file name (reportlab, pikepdf). On any exception the
    temporary file is removed and the final path is untouched. Raises
    :class:`OutputError` naming the path when the folder cannot be written, and its
    subclass ForeignOutput when ``path`` is a file deckpress did not write or lies in card
    data (checked before anything is written).
    """
    path = Path(path)
    if _STAGING.get():
        with _direct_path(path) as direct:
            yield direct
        return
    check_overwrite(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent)
        # mkstemp creates 0600; outputs are ordinary files others may read (0666 less the umask).
        os.fchmod(fd, 0o666 & ~_umask())
        os.close(fd)
    except OSError as exc:
        raise OutputError(exc.errno, f"cannot write to {path.parent}: {exc.strerror}", str(path.parent)) from None
    tmp_path = Path(tmp)
    try:
        yield tmp_path
        with open(tmp_path, "rb") as fh:
            os.fsync(fh.fileno())
        record_written(path, tmp_path)  # before the rename: a file in place is always in the ledger, with its bytes' sha256
        os.replace(tmp_path, path)
    except OSError as exc:
        tmp_path.unlink(missing_ok=True)
        if isinstance(exc, OutputError):
            raise
        raise OutputError(exc.errno, f"cannot write {path}: {exc.strerror}", str(path)) from None
    except BaseException:
        tmp_path.unlink(missing_ok=True)
        raise


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Write bytes atomically (see :func:`atomic_path`); returns the final path."""
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
    return Path(path)


class _GuardedFile:
    """A binary file's write side that never raises from :meth:`write`: bytes are buffered in memory
    and moved to the file by :meth:`drain` (or :meth:`flush`), which keeps the first OSError in
    ``error`` and drops every later byte (:func:`write_stream` raises it when the block ends).

    For C++ writers that call back into Python (qpdf through pikepdf): an exception thrown through
    such a callback aborts the process ("terminate called") instead of unwinding, and that holds
    for pikepdf's direct writes to a plain file's descriptor too (qpdf's QPDFSystemError on a
    full disk). ``write`` is the buffer's own C method, so the writer's many small chunks (qpdf
    writes some 120 a page) cost no Python call each; the caller drains the buffer as it goes,
    e.g. from qpdf's progress callback (``pdf.save(out, progress=out.drain_full)``, about 100 calls
    a save, a write once 256 KiB are buffered), so the buffer holds at most that and a hundredth of
    the file. It has ``seek`` (pikepdf takes an
    object with ``seek`` for a stream) but no ``fileno``, so pikepdf writes through ``write``.
    """

    def __init__(self, fh) -> None:
        self._fh = fh
        self._buffer = io.BytesIO()
        self.write = self._buffer.write  # returns the length written; raises only MemoryError
        self.error: OSError | None = None

    def drain(self, *_progress: object) -> None:
        """Move the buffered bytes to the file, keeping an OSError for later (``_progress``: a
        progress callback's arguments, ignored)."""
        buffer = self._buffer
        if self.error is None:
            try:
                with buffer.getbuffer() as view:
                    self._fh.write(view)
            except OSError as exc:
                self.error = exc
        buffer.seek(0)
        buffer.truncate()

    #: Bytes the buffer holds before :meth:`drain_full` moves them: a 256 KiB write at a time.
    FULL = 1 << 18

    def drain_full(self, *_progress: object) -> None:
        """:meth:`drain` once the buffer holds :data:`FULL` bytes or more, for a progress callback: a
        drain at each of qpdf's ~100 progress steps was a write call per hundredth of the file, ~80
        writes of ~1.4 kB for a typical press file (89 saves of a build of the shipped games: 0.44–0.49
        → 0.39–0.43 s CPU); the buffer then holds at most :data:`FULL` plus one step's bytes."""
        if self._buffer.tell() >= self.FULL:
            self.drain()

    def flush(self) -> None:
        """:meth:`drain`."""
        self.drain()

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        """Not supported (the writer only appends): raises io.UnsupportedOperation."""
        raise io.UnsupportedOperation("seek")


@contextmanager
def write_stream(path: str | Path) -> Iterator[_GuardedFile]:
    """Yield a binary writer whose bytes go atomically to ``path`` (see :func:`atomic_path`), with no
    copy of the whole file in memory.

    The writer's ``write`` never raises (:class:`_GuardedFile`; call its ``drain`` now and then to
    keep its buffer small): a full disk or another OSError is kept and raised when the block ends,
    as :class:`OutputError` naming ``path``, with nothing left under ``path`` (outside a staging
    build the previous file stays).
    """
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            writer = _GuardedFile(fh)
            yield writer
            writer.drain()
            if writer.error is not None:
                raise writer.error


def write_text(path: str | Path, text: str, encoding: str = "utf-8", newline: str | None = None) -> Path:
    """Write text atomically; ``newline=""`` keeps CR LF exactly as given (BRF)."""
    with atomic_path(path) as tmp:
        with open(tmp, "w", encoding=encoding, newline=newline) as fh:
            fh.write(text)
    return Path(path)

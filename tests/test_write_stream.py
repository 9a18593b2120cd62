"""pipeline.common.files.write_stream: a file written through a writer (pdfx.finish saves through
qpdf into it, issue 22: no whole copy of the file in memory) keeps the atomic write and reports a
full disk as one OutputError, with no exception thrown through qpdf's callback (issue 14)."""

from __future__ import annotations

import builtins
import errno
import io

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.common import files
from pipeline.common.files import OutputError, write_bytes, write_stream
from pipeline.render.fonts import face
from pipeline.render.pdfx import check_pdfx, finish


def _pages(n: int) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(234, 378), invariant=1, initialFontName=face("regular").name)
    for i in range(n):
        c.setBleedBox((0, 0, 234, 378))
        c.setTrimBox((9, 9, 225, 369))
        c.setFillColorCMYK(0, 0, 0, 1)
        c.drawString(20, 20, f"card {i} " + "x" * 200)
        c.showPage()
    c.save()
    return buf.getvalue()


class _FullDisk(io.RawIOBase):
    """A file on a disk that is full after ``room`` bytes: writes past it raise ENOSPC."""

    def __init__(self, path, room: int):
        self._fh = open(path, "wb")
        self.room = room
        self.calls_after_full = 0
        self.full = False

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        if self.full:
            self.calls_after_full += 1
        if len(data) > self.room:
            self.full = True
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(data)
        return self._fh.write(data)

    def close(self) -> None:
        self._fh.close()
        super().close()


@pytest.fixture
def full_disk(monkeypatch):
    """write_stream's files hold 20 kB, then the disk is full; yields the opened files."""
    opened: list[_FullDisk] = []

    def fake_open(path, mode="r", buffering=-1):
        if mode != "wb":  # atomic_path's fsync
            return builtins.open(path, mode, buffering)
        raw = _FullDisk(path, 20_000)
        opened.append(raw)
        return io.BufferedWriter(raw, buffer_size=4096)

    monkeypatch.setattr(files, "open", fake_open, raising=False)
    return opened


def test_finish_on_a_disk_that_fills_midway_raises_one_output_error_and_keeps_the_previous_file(tmp_path, full_disk):
    target = tmp_path / "fronts.pdf"
    write_bytes(target, b"previous build")
    data = _pages(40)
    with pytest.raises(OutputError) as caught:
        finish(data, target, "fronts", [f"c{i}" for i in range(40)])
    assert caught.value.errno == errno.ENOSPC
    assert caught.value.strerror == f"cannot write {target}: No space left on device"
    [raw] = full_disk
    # after the first failure only the buffer's flush when the file closes reached the disk, no write of qpdf's
    assert raw.full and raw.calls_after_full <= 1
    assert target.read_bytes() == b"previous build"
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(".deckpress")) == ["fronts.pdf"]


def test_a_staging_write_that_fills_the_disk_raises_output_error(tmp_path, full_disk):
    target = tmp_path / "stage" / "backs.pdf"
    with files.staging_writes(), pytest.raises(OutputError, match=r"cannot write .*backs\.pdf: No space left on device"):
        with write_stream(target) as out:
            for _ in range(100):
                assert out.write(b"y" * 1000) == 1000  # never raises, also once the disk is full


def test_finish_through_the_stream_writes_a_pdfx_file_with_every_page(tmp_path):
    data = _pages(3)
    path = finish(data, tmp_path / "f.pdf", "fronts", ["a", "b", "c"], subject="3 fronts")
    with pikepdf.open(path) as pdf:
        assert len(pdf.pages) == 3 and check_pdfx(pdf) == [] and str(pdf.docinfo["/Subject"]) == "3 fronts"
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


def test_drain_full_moves_the_bytes_once_the_buffer_is_full(tmp_path):
    """qpdf's progress callback drains only a full buffer: few writes, the file whole at the end."""
    target = tmp_path / "f.bin"
    with files.staging_writes(), write_stream(target) as out:  # straight to the file's name
        out.write(b"a" * (out.FULL - 1))
        out.drain_full(50)
        assert target.stat().st_size == 0  # not yet full: nothing written
        out.write(b"b")
        out.drain_full(51)
        assert target.stat().st_size == out.FULL
        out.write(b"c" * 10)
    assert target.read_bytes() == b"a" * (out.FULL - 1) + b"b" + b"c" * 10

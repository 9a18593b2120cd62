"""Rewrite a finished print PDF's document information (Info) in place: which game it is, who
made it, when, and whether it is a draft (:mod:`pipeline.build.release` stamps every press file
of a build, the stand-alone commands every PDF they write).

:func:`press_info` hands the same entries to :func:`~pipeline.render.pdfx.finish`, which then
writes a press file once with its final Info (:func:`apply_document_info`); :func:`set_document_info`
leaves such a file alone and stamps only what was written otherwise (the UV job ticket).

The pages are not touched, but every font subset gets the tag of its own glyphs
(:func:`pipeline.render.pdfx.retag_subsets`, a no-op on a file :func:`~pipeline.render.pdfx.finish`
wrote). The file is saved with the options :func:`~pipeline.render.pdfx.finish` uses, so a
PDF/X-1a file stays one, a PDF/X-4 file keeps its version and gets its XMP rewritten from the new
Info (:func:`pipeline.render.pdfx4.sync_xmp`), and the same input gives the same bytes.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Iterator, Sequence

import pikepdf
from pikepdf import Name, String

from pipeline.common.files import atomic_path
from pipeline.render.subsets import retag_subsets
from pipeline.render.pdfx4 import PDFX4_PDF_VERSION, PDFX4_VERSION, sync_xmp

#: The Subject reportlab writes when none is set.
REPORTLAB_NO_SUBJECT = "unspecified"
#: How the notes :func:`set_document_info` puts before a Subject begin.
_NOTE_STARTS = ("DRAFT", "release, run")


def set_document_info(path: str | Path, info: dict[str, str]) -> Path:
    """Rewrite the Info dictionary of the PDF at ``path`` in place (atomically), pages untouched.

    ``info`` is what :func:`apply_document_info` sets. A file :func:`~pipeline.render.pdfx.finish` wrote
    with ``info`` inside a :func:`press_info` block, and unchanged since (:func:`note_written`), is not
    opened at all. Saved with the same options as
    :func:`~pipeline.render.pdfx.finish` (PDF 1.4, or 1.6 with the XMP rewritten for PDF/X-4;
    no object streams, content-derived ID), so the same input gives the same bytes. A file whose
    Info already reads so (one :func:`~pipeline.render.pdfx.finish` wrote inside
    :func:`press_info`, or one stamped before) is left as it is, unopened for writing: stamping it
    again would give the same bytes. Raises :class:`pipeline.common.files.OutputError` when
    ``path`` cannot be written.
    """
    if _written_with(path, info):  # finish() wrote it so inside press_info(): its Info reads so, unopened
        return Path(path)
    # Checked first in a file opened from its path (qpdf reads the xref and the Info only):
    # allow_overwriting_input reads the whole file into memory, ~58 MB for a 10,000-card
    # fronts+braille, and a build's press files already carry their Info (issue 22).
    with pikepdf.open(path) as pdf:
        if _info_unchanged(pdf, info):
            return Path(path)
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        if _info_unchanged(pdf, info):  # applies info to pdf (in memory)
            return Path(path)
        retag_subsets(pdf)
        x4 = str(pdf.docinfo.get("/GTS_PDFXVersion", "")) == PDFX4_VERSION
        settled = sync_xmp(pdf) if x4 else False  # PDF/X-4: the XMP says what the Info says
        with atomic_path(path) as tmp:
            pdf.save(tmp, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                     force_version=PDFX4_PDF_VERSION if x4 else "1.4", compress_streams=True,
                     fix_metadata_version=not settled)
    return Path(path)


def _info_unchanged(pdf: pikepdf.Pdf, info: dict[str, str]) -> bool:
    """Apply ``info`` to ``pdf`` in memory (:func:`apply_document_info`); whether its Info reads as before."""
    before = {str(k): bytes(v.unparse()) for k, v in pdf.docinfo.items()}
    apply_document_info(pdf, info)
    return {str(k): bytes(v.unparse()) for k, v in pdf.docinfo.items()} == before


def apply_document_info(pdf: pikepdf.Pdf, info: dict[str, str]) -> None:
    """Set ``info`` in ``pdf``'s Info dictionary (in memory; the caller saves, and for PDF/X-4 syncs the XMP).

    ``info`` maps Info keys (``/Author``, ``/Creator``, ``/CreationDate``, ``/ModDate``) to
    text (an empty text removes the key); its ``game`` entry is the game's title, which the Title
    starts with (a Title starting with the game's ``game_id`` entry gets the title in its place:
    "apprentice front sheets (letter)" becomes "Apprentice ICG: front sheets (letter)"; any other
    gets it before: "Apprentice ICG: UV job ticket"); its ``draft`` entry is a note put before the
    Subject, and before the Title too when it starts with "DRAFT" (a draft press file says so in its
    title). Applying the same ``info`` twice changes nothing the second time.
    """
    docinfo = pdf.docinfo
    for key, value in info.items():
        if key.startswith("/") and value:
            docinfo[Name(key)] = String(value)
        elif key.startswith("/") and Name(key) in docinfo:
            del docinfo[Name(key)]  # reportlab's "anonymous" Author is no one's name
    _name_the_game(docinfo, info.get("game", ""), info.get("game_id", ""))
    note = info.get("draft")
    if note:
        title = str(docinfo.get(Name.Title, ""))
        subject = str(docinfo.get(Name.Subject, ""))
        if subject == REPORTLAB_NO_SUBJECT:  # reportlab's placeholder is no subject: "DRAFT …; unspecified" read as one
            subject = ""
        if subject.startswith(_NOTE_STARTS):  # stamped before (a file an --only build kept): one note only
            subject = subject.split("; ", 1)[1] if "; " in subject else ""
        if note.startswith("DRAFT") and not title.startswith("DRAFT"):
            docinfo[Name.Title] = String(f"{note.split(' (')[0]}: {title}")
        docinfo[Name.Subject] = String(f"{note}; {subject}" if subject else note)


#: The document info of the press files being written (:func:`press_info`): the Info entries, the
#: folders they apply to (None: every file) and the block's ledger file (:func:`note_written`).
_PRESS_INFO: ContextVar[tuple[dict[str, str], tuple[Path, ...] | None, str] | None] = ContextVar("deckpress_press_info", default=None)
#: The files :func:`~pipeline.render.pdfx.finish` wrote in the last :func:`press_info` block, by real
#: path: (size, modification time in ns, inode, digest of the Info entries applied) as the file was then.
_WRITTEN: dict[str, tuple[int, int, int, str]] = {}


def _entries_digest(info: dict[str, str]) -> str:
    return hashlib.sha256(repr(sorted(info.items())).encode("utf-8", "surrogatepass")).hexdigest()


@contextmanager
def press_info(info: dict[str, str], folders: Sequence[str | Path] | None = None) -> Iterator[None]:
    """Within this block, :func:`~pipeline.render.pdfx.finish` applies ``info`` (see
    :func:`apply_document_info`) to every PDF it writes under one of ``folders`` (None: every PDF), so
    the file is written once with its final Info and XMP instead of being re-opened and saved again
    by :func:`set_document_info`.

    A context variable, like :func:`pipeline.common.files.staging_writes`: the build's chain
    workers are forked (:mod:`pipeline.build.workers`) from inside the block, and a forked process
    starts with its parent's context, so the chains see it too.
    """
    roots = tuple(Path(f).resolve() for f in folders) if folders is not None else None
    fd, ledger = tempfile.mkstemp(prefix="deckpress-press-info-", suffix=".txt")
    os.close(fd)
    _WRITTEN.clear()
    token = _PRESS_INFO.set((dict(info), roots, ledger))
    try:
        yield
    finally:
        _PRESS_INFO.reset(token)
        _read_ledger(ledger)


def note_written(path: str | Path, info: dict[str, str]) -> None:
    """Record, in the enclosing :func:`press_info` block's ledger, that :func:`~pipeline.render.pdfx.finish`
    has just written ``path`` with ``info`` applied, so :func:`set_document_info` with the same ``info``
    needs not open the file (a build's stamp after its chains opened every press file to read its Info:
    93 files, ~0.08 s CPU over the four shipped games, issue 22). The ledger is a file: the chains'
    workers are forked inside the block and append to it (one ``write`` of a line, O_APPEND); the block
    reads it when it ends. Outside a block, or for a path holding a line break, nothing is recorded."""
    current = _PRESS_INFO.get()
    where = os.path.realpath(path)
    if current is None or "\n" in where:
        return
    st = os.stat(where)
    line = f"{st.st_size}\t{st.st_mtime_ns}\t{st.st_ino}\t{_entries_digest(info)}\t{where}\n"
    fd = os.open(current[2], os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, line.encode("utf-8", "surrogateescape"))
    finally:
        os.close(fd)


def _read_ledger(ledger: str) -> None:
    """The lines :func:`note_written` appended to ``ledger`` into :data:`_WRITTEN` (the last for a path
    wins); the file is removed."""
    try:
        with open(ledger, "rb") as fh:
            lines = fh.read().decode("utf-8", "surrogateescape").splitlines()
        os.unlink(ledger)
    except OSError:
        return
    for line in lines:
        fields = line.split("\t", 4)
        if len(fields) == 5 and all(f.isdigit() for f in fields[:3]):
            _WRITTEN[fields[4]] = (int(fields[0]), int(fields[1]), int(fields[2]), fields[3])


def _written_with(path: str | Path, info: dict[str, str]) -> bool:
    """True when :func:`note_written` recorded ``path`` with ``info`` and the file is as it was then
    (same size, modification time and inode)."""
    where = os.path.realpath(path)
    entry = _WRITTEN.get(where)
    if entry is None:
        return False
    try:
        st = os.stat(where)
    except OSError:
        return False
    return (st.st_size, st.st_mtime_ns, st.st_ino, _entries_digest(info)) == entry


def press_info_for(path: str | Path) -> dict[str, str] | None:
    """The Info entries :func:`press_info` gives a file written at ``path``, else None."""
    current = _PRESS_INFO.get()
    if current is None:
        return None
    info, roots, _ = current
    if roots is None:
        return info
    where = Path(path).resolve()
    return info if any(where.is_relative_to(root) for root in roots) else None


def _name_the_game(docinfo, game: str, game_id: str) -> None:
    """Start the Info Title with the game's title ``game`` (see :func:`set_document_info`); a
    draft note already before it stays before it."""
    if not game:
        return
    title = str(docinfo.get(Name.Title, ""))
    note, rest = (title.split(": ", 1) if title.startswith("DRAFT") and ": " in title else ("", title))
    if rest == game or rest.startswith(f"{game}: "):
        return
    if game_id and (rest == game_id or rest.startswith(f"{game_id} ")):
        rest = rest[len(game_id):].lstrip()
    named = f"{game}: {rest}" if rest else game
    docinfo[Name.Title] = String(f"{note}: {named}" if note else named)

"""Rewrite a finished print PDF's document information (Info) in place: which game it is, who
made it, when, and whether it is a draft (:mod:`pipeline.build.release` stamps every press file
of a build, the stand-alone commands every PDF they write).

The pages are not touched, but every font subset gets the tag of its own glyphs
(:func:`pipeline.render.pdfx.retag_subsets`, a no-op on a file :func:`~pipeline.render.pdfx.finish`
wrote). The file is saved with the options :func:`~pipeline.render.pdfx.finish` uses, so a
PDF/X-1a file stays one, a PDF/X-4 file keeps its version and gets its XMP rewritten from the new
Info (:func:`pipeline.render.pdfx4.sync_xmp`), and the same input gives the same bytes.
"""

from __future__ import annotations

from pathlib import Path

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

    ``info`` maps Info keys (``/Author``, ``/Creator``, ``/CreationDate``, ``/ModDate``) to
    text (an empty text removes the key); its ``game`` entry is the game's title, which the Title
    starts with (a Title starting with the game's ``game_id`` entry gets the title in its place:
    "apprentice front sheets (letter)" becomes "Apprentice ICG: front sheets (letter)"; any other
    gets it before: "Apprentice ICG: UV job ticket"); its ``draft`` entry is a note put before the Subject, and before the Title too
    when it starts with "DRAFT" (a draft press file says so in its title). Saved with the
    same options as :func:`finish` (PDF 1.4, or 1.6 with the XMP rewritten for PDF/X-4; no object streams, content-derived ID), so
    the same input gives the same bytes. Raises :class:`pipeline.common.files.OutputError`
    when ``path`` cannot be written.
    """
    with pikepdf.open(path, allow_overwriting_input=True) as pdf:
        docinfo = pdf.docinfo
        for key, value in info.items():
            if key.startswith("/") and value:
                docinfo[Name(key)] = String(value)
            elif key.startswith("/") and Name(key) in docinfo:
                del docinfo[Name(key)]  # reportlab's "anonymous" Author is no one's name
        _name_the_game(docinfo, info.get("game", ""), info.get("game_id", ""))
        retag_subsets(pdf)
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
        x4 = str(docinfo.get("/GTS_PDFXVersion", "")) == PDFX4_VERSION
        if x4:
            sync_xmp(pdf)  # PDF/X-4: the XMP says what the Info says
        with atomic_path(path) as tmp:
            pdf.save(tmp, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                     force_version=PDFX4_PDF_VERSION if x4 else "1.4", compress_streams=True)
    return Path(path)


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

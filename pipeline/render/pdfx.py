"""PDF/X-1a:2003 finishing of a reportlab PDF with pikepdf (ISO 15930-4:2003); a PDF with optional
content (the braille group) becomes PDF/X-4 instead (ISO 15930-7, PDF 1.6: :mod:`pipeline.render.pdfx4`).

reportlab writes the pages (CMYK only, every font an embedded TrueType subset, TrimBox
and BleedBox on every page, no transparency, no annotations); it cannot write an output
intent. :func:`finish` adds what PDF/X-1a:2003 asks of the document and saves it:

- ``/OutputIntents`` with one ``/GTS_PDFX`` intent naming a *registered* CMYK printing
  condition (default FOGRA39, ICC Characterization Data Registry, RegistryName
  ``http://www.color.org``). ISO 15930-4 requires an embedded ``DestOutputProfile`` only
  when the condition is not registered, so none is embedded;
- Info ``/GTS_PDFXVersion (PDF/X-1:2003)``, ``/GTS_PDFXConformance (PDF/X-1a:2003)``,
  ``/Title``, ``/Trapped /False`` (X-1a forbids Unknown), ``/CreationDate`` and
  ``/ModDate`` (reportlab's, fixed in invariant mode);
- a trailer ``/ID`` (derived from the content, so two builds stay byte-identical);
- ``/PageLabels`` and an outline giving every page its card (or class) id;
- PDF version 1.4 with no object streams (X-1a:2003 is based on PDF 1.4);
- unique font subset tags: reportlab names the first subset of every face ``AAAAAA+…``,
  so two PDFs merged into one (card pages and sheet marks on an imposed sheet) would hold
  two *different* subsets under one BaseFont name, a known cause of preflight warnings
  and RIP glyph mix-ups. :func:`retag_subsets` renames each subset's tag (ISO 32000-1
  §9.6.4: six upper-case letters and ``+``) to six letters derived from a SHA-256 of
  its embedded font program: different subsets get different names, equal subsets the
  same name, and the same input the same bytes.

It also checks what it claims: :func:`check_pdfx` lists every departure it can see (RGB
colour, an unembedded font, a missing box, a missing key) and :func:`finish` refuses to
save a file with departures (:class:`PdfxError`), a malformed Separation colour space among them. A certified preflight (Acrobat,
callas pdfToolbox) is the final word; this is the list of ISO 15930-4 points deckpress checks itself.
"""

from __future__ import annotations

import hashlib
import io
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import deflate
import pikepdf
from pikepdf import Array, Dictionary, Name, String

from pipeline.common.files import write_stream
from pipeline.render.docinfo import apply_document_info, note_written, press_info_for
from pipeline.render.pdfx4 import PDFX4_PDF_VERSION, PDFX4_VERSION, has_optional_content, make_pdfx4
from pipeline.render.pdfx_check import PDFX_CONFORMANCE, PDFX_VERSION, check_pdfx
from pipeline.render.subsets import retag_subsets, subset_tag

__all__ = ["FOGRA39", "PDFX_CONFORMANCE", "PDFX_VERSION", "OutputCondition", "PdfxError", "check_pdfx", "finish",
           "retag_subsets", "subset_tag"]

#: Where setup builds the targets' ICC profiles (scripts/build-icc.sh); PDF/X-4 embeds one.
ICC_DIR = Path(__file__).resolve().parents[2] / "templates" / "targets" / "icc"


class PdfxError(ValueError):
    """The PDF would not meet PDF/X-1a:2003; the message lists the departures."""


@dataclass(frozen=True)
class OutputCondition:
    """A registered CMYK printing condition (ICC Characterization Data Registry, https://www.color.org/chardata/)."""

    identifier: str = "FOGRA39"
    condition: str = "Offset printing, according to ISO 12647-2:2004/Amd 1, OFCOM, paper type 1 or 2 = coated art, 115 g/m2"
    registry: str = "http://www.color.org"
    #: The condition's ICC output profile, embedded as the DestOutputProfile of a PDF/X-4 file ("": none known).
    profile: str = ""


#: Coated stock, the usual card stock condition; North American shops may prefer CGATS21_CRPC6 (GRACoL).
FOGRA39 = OutputCondition(profile=str(ICC_DIR / "FOGRA39L.icc"))


def finish(data: bytes | pikepdf.Pdf, path: str | Path, title: str, labels: Sequence[str], subject: str = "",
           condition: OutputCondition = FOGRA39, info: dict[str, str] | None = None, seed: bytes | None = None) -> Path:
    """Add the PDF/X-1a:2003 keys, page labels and outline to the PDF ``data``; write it atomically to ``path``.

    ``data``: the PDF's bytes, or a :class:`pikepdf.Pdf` the caller holds (e.g. after
    :func:`pipeline.render.uv.ocg.register_ocgs`), finished in place without a save and re-parse;
    the caller closes it. ``seed``: what a PDF/X-4 file's XMP DocumentID is derived from
    (:func:`pipeline.render.pdfx4.sync_xmp`; default: ``data``'s bytes, for a Pdf the raw bytes of
    its pages' content streams). ``labels`` gives one label per page (card ids for fronts, class ids
    for backs); each becomes the page's label and an outline entry. ``info``: the press file's document info
    (:func:`pipeline.render.docinfo.apply_document_info`; default: what an enclosing
    :func:`pipeline.render.docinfo.press_info` gives ``path``, else none), set before the file is
    checked and written, so a build writes each press file once. Raises :class:`PdfxError` when the
    pages break a rule :func:`check_pdfx` checks, ValueError when the label count differs
    from the page count, and :class:`pipeline.common.files.OutputError` when ``path`` cannot be written.
    """
    pdf = data if isinstance(data, pikepdf.Pdf) else pikepdf.open(io.BytesIO(data))
    if len(labels) != len(pdf.pages):
        raise ValueError(f"{len(labels)} page labels for {len(pdf.pages)} pages")
    _set_pdfx_keys(pdf, title, subject, condition)
    _label_pages(pdf, labels)
    retag_subsets(pdf)
    stamp = info if info is not None else press_info_for(path)
    if stamp:
        apply_document_info(pdf, stamp)  # before the XMP is written from the Info (PDF/X-4)
    x4 = has_optional_content(pdf)  # optional content is PDF 1.5: PDF/X-4, not X-1a (pipeline.render.pdfx4)
    settled = False  # the XMP packet already as pikepdf's save would re-serialise it (pdfx4.xmp_packet)
    if x4:
        try:
            settled = make_pdfx4(pdf, condition.profile or f"(no ICC profile given for {condition.identifier})",
                                 seed if seed is not None else data if isinstance(data, bytes) else _content_seed(pdf))
        except FileNotFoundError as exc:
            raise PdfxError(f"not {PDFX4_VERSION}: {exc}") from None
    version = PDFX4_PDF_VERSION if x4 else "1.4"
    problems = check_pdfx(pdf, version)
    if problems:
        raise PdfxError(f"not {PDFX4_VERSION if x4 else PDFX_CONFORMANCE}: " + "; ".join(problems))
    _deflate_streams(pdf)  # after the check, which reads these streams' bytes as they are
    # Through a writer whose write() never raises: qpdf writing to a file that hits a full disk
    # throws a C++ exception through pikepdf's Python stream and aborts the process ("terminate
    # called"); write_stream keeps the OSError and raises it (an OutputError) after the save.
    # Drained at a progress step once it holds 256 kB, it holds at most that and a hundredth of the file (issue 22).
    with write_stream(path) as out:
        pdf.save(
            out,
            progress=out.drain_full,
            deterministic_id=True,
            object_stream_mode=pikepdf.ObjectStreamMode.disable,
            force_version=version,
            compress_streams=True,
            fix_metadata_version=not settled,
        )
    if stamp:
        note_written(path, stamp)  # the build's stamp after its chains need not open the file again
    return Path(path)


#: The level :func:`_deflate_streams` compresses at: zlib's default, the one qpdf's save used. libdeflate
#: at this level gives 1.7 % fewer bytes than zlib in ~0.6 of its time (the 1,162 streams a build of the
#: shipped games leaves uncompressed, 3.8 MB: 0.135 s zlib, 0.085 s libdeflate, best of 3).
DEFLATE_LEVEL = 6


def _deflate_streams(pdf: pikepdf.Pdf) -> None:
    """Flate-compress (libdeflate, :data:`DEFLATE_LEVEL`) every stream of ``pdf`` that has no ``/Filter``,
    but the catalogue's XMP (qpdf writes that uncompressed): the streams qpdf's save
    (``compress_streams=True``) would compress with zlib. qpdf keeps a stream whose filter is
    ``/FlateDecode`` as it is, so each is compressed once, here; the decoded bytes are the same. A
    stream whose bytes cannot be read is left to the save, as before."""
    meta = pdf.Root.Metadata if "/Metadata" in pdf.Root else None
    skip = meta.objgen if isinstance(meta, pikepdf.Stream) else None
    flate = Name.FlateDecode
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream) and "/Filter" not in obj and obj.objgen != skip:
            try:
                raw = obj.read_raw_bytes()
            except pikepdf.PdfError:
                continue
            obj.write(bytes(deflate.zlib_compress(raw, DEFLATE_LEVEL)), filter=flate, type_check=False)


def _content_seed(pdf: pikepdf.Pdf) -> hashlib._Hash | None:
    """The SHA-256 of the raw bytes of every page's content streams in page order, joined by a NUL
    byte: a PDF/X-4 DocumentID's seed for a PDF given as a :class:`pikepdf.Pdf` (the same pages give
    the same ID); None when those bytes are empty (:func:`pipeline.render.pdfx4.sync_xmp` then seeds
    from the title). Hashed stream by stream: the joined bytes of a whole deck's pages were held
    twice (the streams and their join, ~6 kB a card of a 10,000-card braille layer; issue 22)."""
    digest, fed, first = hashlib.sha256(), 0, True
    for page in pdf.pages:
        contents = page.obj.get("/Contents")
        for stream in contents if isinstance(contents, Array) else [contents] if contents is not None else []:
            raw = stream.read_raw_bytes()
            if not first:
                digest.update(b"\0")
            digest.update(raw)
            fed, first = fed + len(raw) + (not first), False
    return digest if fed else None


def _set_pdfx_keys(pdf: pikepdf.Pdf, title: str, subject: str, condition: OutputCondition) -> None:
    """The Info keys and the output intent of PDF/X-1a:2003 (module docs)."""
    info = pdf.docinfo
    info[Name.Title] = String(title)
    if subject:
        info[Name.Subject] = String(subject)
    info[Name.Creator] = String("deckpress")
    info[Name.Trapped] = Name("/False")
    info[Name("/GTS_PDFXVersion")] = String(PDFX_VERSION)
    info[Name("/GTS_PDFXConformance")] = String(PDFX_CONFORMANCE)
    pdf.Root.OutputIntents = Array([
        Dictionary(
            Type=Name.OutputIntent,
            S=Name.GTS_PDFX,
            OutputConditionIdentifier=String(condition.identifier),
            OutputCondition=String(condition.condition),
            RegistryName=String(condition.registry),
            Info=String(condition.condition),
        )
    ])


def _label_pages(pdf: pikepdf.Pdf, labels: Sequence[str]) -> None:
    """Page labels and an outline entry per page from ``labels``: :func:`_outline` with each page's label."""
    nums = Array()
    for index, label in enumerate(labels):
        nums.append(index)
        nums.append(Dictionary(P=String(label)))
    pdf.Root.PageLabels = Dictionary(Nums=nums)
    _outline(pdf, labels)


def _outline(pdf: pikepdf.Pdf, labels: Sequence[str]) -> None:
    """A flat outline (ISO 32000-1 §12.3.3), one item per page: ``labels[i]`` opening page ``i`` at ``/Fit``.

    Built directly, the dictionaries pikepdf's ``open_outline`` writes for a cleared outline extended
    with one :class:`pikepdf.OutlineItem` a page (``/Title``, ``/Dest``, ``/Parent``, ``/Prev``,
    ``/Next``, ``/Count 0``; the root ``/Type /Outlines``, ``/First``, ``/Last``, ``/Count``; an
    existing root dictionary reused, its old items dropped), so the saved bytes are the same; without
    its Python item objects and per-item key tests (89 finishes of a build of the shipped games,
    1,253 pages). Each destination names its page object, listed once: a page *number* is looked up
    by index at save, O(pages) each in pikepdf (4,000 pages: 5.6 s).
    """
    root = pdf.Root
    outlines = root.Outlines if "/Outlines" in root else None
    if not isinstance(outlines, Dictionary):
        root.Outlines = outlines = pdf.make_indirect(Dictionary(Type=Name.Outlines))
    make, fit = pdf.make_indirect, Name.Fit
    items = [make(Dictionary(Title=String(label), Dest=Array([page.obj, fit]), Parent=outlines, Count=0))
             for page, label in zip(pdf.pages, labels)]
    for before, after in zip(items, items[1:]):
        before.Next, after.Prev = after, before
    for key in ("/First", "/Last", "/Count"):
        if key in outlines:
            del outlines[key]
    if items:
        outlines.First, outlines.Last, outlines.Count = items[0], items[-1], len(items)

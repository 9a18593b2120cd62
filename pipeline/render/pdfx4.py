"""PDF/X-4 (ISO 15930-7) for the PDFs that carry optional content: the braille files.

Why: the ISO 19593-1 processing-step group that marks the braille (:mod:`pipeline.render.uv.ocg`)
is an optional-content group (OCG), and optional content is a PDF 1.5 feature (ISO 32000-1
§8.11). PDF/X-1a:2003 (ISO 15930-4) is based on PDF 1.4, so a file with ``/OCProperties`` cannot
honestly claim it. PDF/X-4 is based on PDF 1.6 and allows optional content; it is what the Ghent
Workgroup's processing-steps workflows (ISO 19593-1) assume. So :func:`pipeline.render.pdfx.finish`
writes every PDF holding an OCG (the braille plates, the mask, the merged fronts+braille, the
braille and composite press sheets) as PDF/X-4 and every other PDF (fronts, backs, fronts and
backs sheets, calibration) as PDF/X-1a:2003, as before.

What PDF/X-4 asks of the document beyond the pages (ISO 15930-7:2010 as summarised by the GWG
and the PDF/X-4 checklists of pdfx.sty and Acrobat's preflight; the standard's own text was not
available, so this is second-hand):

- header version 1.6 at most (deckpress writes 1.6; optional content needs at least 1.5);
- an XMP metadata stream in the catalogue with ``pdfxid:GTS_PDFXVersion`` = ``PDF/X-4``,
  ``dc:title``, ``xmp:CreateDate``/``ModifyDate``/``MetadataDate``, ``pdf:Trapped`` (True or False),
  ``xmpMM:DocumentID``, ``VersionID`` and ``RenditionClass``, the same values as the Info
  dictionary (Info ``/GTS_PDFXVersion`` = ``PDF/X-4``; X-4 has no ``GTS_PDFXConformance``);
- one ``GTS_PDFX`` output intent whose ``DestOutputProfile`` is an *embedded* ICC output
  profile (only PDF/X-4p may reference one outside the file): deckpress embeds the profile built
  from the target's characterisation data at setup (``templates/targets/icc/FOGRA39L.icc``);
- every optional-content configuration with a ``/Name`` and without ``/AS``.
"""

from __future__ import annotations

import functools
import hashlib
import re
import uuid
import zlib
from html import escape as _html_escape
from pathlib import Path

import pikepdf
from pikepdf import Name, String
from pikepdf.models.metadata import decode_pdf_date


def escape(text: str) -> str:
    """``&``, ``<`` and ``>`` as XML entities: ``xml.sax.saxutils.escape`` without its import, which
    pulls in urllib.request, http.client and ssl (~0.1 s CPU of every build's start-up, issue 22).
    Same output: both replace exactly those three characters with ``&amp;``, ``&lt;`` and ``&gt;``."""
    return _html_escape(text, quote=False)


PDFX4_VERSION = "PDF/X-4"
#: The header version PDF/X-4 files are written with (ISO 15930-7: PDF 1.6).
PDFX4_PDF_VERSION = "1.6"
#: Optional content is PDF 1.5 (ISO 32000-1 §8.11); a file with /OCProperties needs at least this.
OPTIONAL_CONTENT_VERSION = (1, 5)

#: The packet as pikepdf re-serialises it at save (``fix_metadata_version``: lxml's ``pretty_print``
#: writing of the parsed packet, the namespaces before ``rdf:about`` on one line, a blank line before
#: the closing xpacket); written so, the packet is saved as it is (:func:`xmp_packet`).
_XMP = """<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" \
xmlns:pdf="http://ns.adobe.com/pdf/1.3/" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/" \
xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" rdf:about="">
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">{title}</rdf:li></rdf:Alt></dc:title>{extra}
   <xmp:CreatorTool>{creator}</xmp:CreatorTool>
   <xmp:CreateDate>{created}</xmp:CreateDate>
   <xmp:ModifyDate>{modified}</xmp:ModifyDate>
   <xmp:MetadataDate>{modified}</xmp:MetadataDate>
   <pdf:Producer>{producer}</pdf:Producer>
   <pdf:Trapped>{trapped}</pdf:Trapped>
   <xmpMM:DocumentID>{document_id}</xmpMM:DocumentID>
   <xmpMM:VersionID>1</xmpMM:VersionID>
   <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
   <pdfxid:GTS_PDFXVersion>PDF/X-4</pdfxid:GTS_PDFXVersion>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>

<?xpacket end="w"?>
"""

#: Characters an XML parser reads back as they were written: XML 1.0's (§2.2) but carriage return,
#: which a parser reads as a line feed (§2.11). Text with any other is left to pikepdf's re-serialising.
#: An element with no content, as :data:`_XMP` gives it for an empty text: ``<a b="c"></a>``.
_EMPTY_ELEMENT = re.compile(r"<([\w:]+)((?: [^<>]*)?)></\1>")
_UNSETTLED = re.compile("[^\t\n\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")

_DOCUMENT_ID = re.compile(rb"<xmpMM:DocumentID>([^<]*)</xmpMM:DocumentID>")


def has_optional_content(pdf: pikepdf.Pdf) -> bool:
    """True when ``pdf``'s catalogue lists optional content (``/OCProperties``)."""
    return "/OCProperties" in pdf.Root


def version_tuple(version: str) -> tuple[int, ...]:
    """``"1.6"`` → ``(1, 6)``; an unreadable version counts as ``(0,)``."""
    try:
        return tuple(int(v) for v in str(version).split("."))
    except ValueError:
        return (0,)


def _iso_date(pdf_date: object) -> str:
    """A PDF date (``D:20000101000000+00'00'``) as XMP's ISO 8601; the epoch of reportlab's invariant mode if unreadable."""
    try:
        return decode_pdf_date(str(pdf_date)).isoformat()
    except (ValueError, TypeError):
        return "2000-01-01T00:00:00+00:00"


def _text(info: pikepdf.Dictionary, key: str) -> str:
    return escape(str(info.get(key, "")))


def xmp_packet(info: pikepdf.Dictionary, document_id: str) -> bytes:
    """The XMP packet (UTF-8) for an Info dictionary: the PDF/X-4 keys of the module docs, Info's values;
    written as pikepdf's save re-serialises it (:data:`_XMP`), so for text :func:`settled_packet`
    passes the file can be saved without that (``fix_metadata_version=False``) and keep the same bytes."""
    extra = ""
    if "/Author" in info:
        extra += f"\n   <dc:creator><rdf:Seq><rdf:li>{_text(info, '/Author')}</rdf:li></rdf:Seq></dc:creator>"
    if "/Subject" in info:
        extra += (f"\n   <dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">{_text(info, '/Subject')}"
                  "</rdf:li></rdf:Alt></dc:description>")
    trapped = "True" if info.get("/Trapped") == Name("/True") else "False"
    packet = _XMP.format(title=_text(info, "/Title"), extra=extra, creator=_text(info, "/Creator"),
                         created=_iso_date(info.get("/CreationDate")), modified=_iso_date(info.get("/ModDate")),
                         producer=_text(info, "/Producer"), trapped=trapped, document_id=escape(document_id))
    return _EMPTY_ELEMENT.sub(r"<\1\2/>", packet).encode("utf-8")  # lxml writes an empty element so


def settled_packet(packet: bytes) -> bool:
    """True when pikepdf's save would write ``packet`` (one of :func:`xmp_packet`) back unchanged: its
    text holds only characters an XML parser reads back as written (:data:`_UNSETTLED`)."""
    return _UNSETTLED.search(packet.decode("utf-8")) is None


def sync_xmp(pdf: pikepdf.Pdf, seed: bytes | hashlib._Hash | None = None) -> bool:
    """Write (or rewrite) ``pdf``'s XMP metadata stream from its Info dictionary.

    The DocumentID is kept when the file has one, else ``uuid:`` + a UUID derived from the
    SHA-256 of ``seed`` (the file's source bytes: the same input gives the same ID and bytes);
    ``seed`` may be that SHA-256 already fed (a ``hashlib.sha256`` object), so a whole deck's
    bytes need not be joined; empty or None: the Info's title is hashed instead. Returns
    :func:`settled_packet` of the packet written: True when the file may be saved with
    ``fix_metadata_version=False`` (pikepdf would parse and re-serialise the packet to the same bytes,
    ~1 ms a file).
    """
    old = pdf.Root.get("/Metadata")
    found = _DOCUMENT_ID.search(old.read_bytes()) if isinstance(old, pikepdf.Stream) else None
    if found:
        document_id = found.group(1).decode("utf-8")
    else:
        digest = seed.digest() if hasattr(seed, "digest") else \
            hashlib.sha256(seed or bytes(str(pdf.docinfo.get("/Title", "")), "utf-8")).digest()
        document_id = f"uuid:{uuid.UUID(bytes=digest[:16], version=4)}"
    packet = xmp_packet(pdf.docinfo, document_id)
    stream = pdf.make_stream(packet)
    stream.Type, stream.Subtype = Name.Metadata, Name.XML
    pdf.Root.Metadata = stream
    return settled_packet(packet)


@functools.lru_cache(maxsize=8)
def _compressed_profile(path: str, mtime_ns: int, size: int) -> bytes:
    """The ICC profile at ``path``, Flate-compressed (zlib's default level, as qpdf compresses a
    stream on save): once per process and profile file (its modification time and size in the key),
    not once per PDF/X-4 file (2.4 ms for the 71 kB FOGRA39L profile)."""
    return zlib.compress(Path(path).read_bytes())


def make_pdfx4(pdf: pikepdf.Pdf, profile: str | Path, seed: bytes | hashlib._Hash | None) -> bool:
    """Turn a PDF already carrying deckpress's PDF/X-1a keys and output intent into PDF/X-4 (module
    docs): Info version, ``profile`` (the output condition's ICC file) embedded as the intent's
    DestOutputProfile, the OC configuration's name, XMP (:func:`sync_xmp` with ``seed``, whose answer
    it returns: whether the save may skip pikepdf's re-serialising of the XMP).

    Raises FileNotFoundError naming the profile when it has not been built (``make setup``).
    """
    profile = Path(profile)
    if not profile.is_file():
        raise FileNotFoundError(f"the ICC output profile {profile} is missing (PDF/X-4 embeds it; `make setup` builds it)")
    info = pdf.docinfo
    info[Name("/GTS_PDFXVersion")] = String(PDFX4_VERSION)
    if "/GTS_PDFXConformance" in info:
        del info[Name("/GTS_PDFXConformance")]
    stat = profile.stat()
    icc = pdf.make_stream(b"")
    icc.write(_compressed_profile(str(profile), stat.st_mtime_ns, stat.st_size), filter=Name.FlateDecode)
    icc.N = 4
    pdf.Root.OutputIntents[0].DestOutputProfile = icc
    config = pdf.Root.OCProperties.get("/D")
    if config is not None and "/Name" not in config:
        config.Name = String("Default")
    return sync_xmp(pdf, seed)


def check_pdfx4(pdf: pikepdf.Pdf, version: str) -> list[str]:
    """The PDF/X-4 departures of the module docs that deckpress can see (empty when none);
    ``version`` is the header version the file has or will be saved with."""
    problems: list[str] = []
    if not OPTIONAL_CONTENT_VERSION <= version_tuple(version) <= version_tuple(PDFX4_PDF_VERSION):
        problems.append(f"PDF version {version}: PDF/X-4 with optional content needs 1.5 or 1.6")
    meta = pdf.Root.get("/Metadata")
    xmp = meta.read_bytes() if isinstance(meta, pikepdf.Stream) else b""
    for key in (b"pdfxid:GTS_PDFXVersion>PDF/X-4<", b"<xmp:CreateDate>", b"<xmp:ModifyDate>", b"<pdf:Trapped>",
                b"<xmpMM:DocumentID>", b"<xmpMM:VersionID>", b"<xmpMM:RenditionClass>", b"<dc:title>"):
        if key not in xmp:
            problems.append(f"XMP metadata lacks {key.decode().strip('<>')}")
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == Name.GTS_PDFX]
    icc = intents[0].get("/DestOutputProfile") if len(intents) == 1 else None
    if not isinstance(icc, pikepdf.Stream):
        problems.append("the output intent embeds no DestOutputProfile (PDF/X-4 needs one)")
    elif int(icc.get("/N", 0)) != 4 or icc.read_bytes()[12:20] != b"prtrCMYK":
        problems.append("the DestOutputProfile is not a CMYK output (prtr) ICC profile")
    ocp = pdf.Root.get("/OCProperties")
    configs = ([ocp.D] if "/D" in ocp else []) + list(ocp.get("/Configs", [])) if ocp is not None else []
    for config in configs:
        if "/Name" not in config:
            problems.append("an optional-content configuration has no /Name")
        if "/AS" in config:
            problems.append("an optional-content configuration has /AS (not allowed in PDF/X-4)")
    return problems

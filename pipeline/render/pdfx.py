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
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import pikepdf
from pikepdf import Array, Dictionary, Name, String

from pipeline.common.files import write_bytes
from pipeline.render.pdfx4 import PDFX4_PDF_VERSION, PDFX4_VERSION, check_pdfx4, has_optional_content, make_pdfx4, version_tuple

PDFX_VERSION = "PDF/X-1:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"
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


def finish(data: bytes, path: str | Path, title: str, labels: Sequence[str], subject: str = "",
           condition: OutputCondition = FOGRA39) -> Path:
    """Add the PDF/X-1a:2003 keys, page labels and outline to the PDF ``data``; write it atomically to ``path``.

    ``labels`` gives one label per page (card ids for fronts, class ids for backs); each
    becomes the page's label and an outline entry. Raises :class:`PdfxError` when the
    pages break a rule :func:`check_pdfx` checks, ValueError when the label count differs
    from the page count, and :class:`pipeline.common.files.OutputError` when ``path`` cannot be written.
    """
    pdf = pikepdf.open(io.BytesIO(data))
    if len(labels) != len(pdf.pages):
        raise ValueError(f"{len(labels)} page labels for {len(pdf.pages)} pages")
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
    nums = Array()
    for index, label in enumerate(labels):
        nums.append(index)
        nums.append(Dictionary(P=String(label)))
    pdf.Root.PageLabels = Dictionary(Nums=nums)
    with pdf.open_outline() as outline:
        outline.root.clear()
        outline.root.extend(pikepdf.OutlineItem(label, index) for index, label in enumerate(labels))
    retag_subsets(pdf)
    x4 = has_optional_content(pdf)  # optional content is PDF 1.5: PDF/X-4, not X-1a (pipeline.render.pdfx4)
    if x4:
        try:
            make_pdfx4(pdf, condition.profile or f"(no ICC profile given for {condition.identifier})", data)
        except FileNotFoundError as exc:
            raise PdfxError(f"not {PDFX4_VERSION}: {exc}") from None
    version = PDFX4_PDF_VERSION if x4 else "1.4"
    problems = check_pdfx(pdf, version)
    if problems:
        raise PdfxError(f"not {PDFX4_VERSION if x4 else PDFX_CONFORMANCE}: " + "; ".join(problems))
    # Into memory first: qpdf writing to a file that hits a full disk throws a C++ exception
    # through pikepdf's Python stream and aborts the process ("terminate called"); a Python
    # write of the bytes raises OSError, which atomic_path reports as an OutputError.
    buffer = io.BytesIO()
    pdf.save(
        buffer,
        deterministic_id=True,
        object_stream_mode=pikepdf.ObjectStreamMode.disable,
        force_version=version,
        compress_streams=True,
    )
    write_bytes(path, buffer.getvalue())
    return Path(path)


_SUBSET_TAG = re.compile(r"^/[A-Z]{6}\+")
_FONT_FILES = ("/FontFile", "/FontFile2", "/FontFile3")


def subset_tag(font_program: bytes) -> str:
    """Six upper-case letters derived from the SHA-256 of a font program (its decoded bytes)."""
    n = int.from_bytes(hashlib.sha256(font_program).digest()[:8], "big")
    letters = []
    for _ in range(6):
        n, k = divmod(n, 26)
        letters.append(chr(ord("A") + k))
    return "".join(letters)


def _font_program(font) -> bytes | None:
    """The decoded embedded font program of a simple font or of a Type0 font's descendant, else None."""
    if font.get("/Subtype") == Name.Type0:
        descendants = font.get("/DescendantFonts") or []
        return _font_program(descendants[0]) if len(descendants) else None
    descriptor = font.get("/FontDescriptor")
    for key in _FONT_FILES:
        if descriptor is not None and key in descriptor:
            return descriptor[key].read_bytes()
    return None


def retag_subsets(pdf: pikepdf.Pdf) -> int:
    """Give every subset font of ``pdf`` a tag derived from its font program; returns the fonts renamed.

    A font whose ``/BaseFont`` starts with a subset tag (``ABCDEF+``, ISO 32000-1 §9.6.4)
    and that embeds its program gets the tag :func:`subset_tag` of that program, in its
    ``/BaseFont``, its descriptor's ``/FontName`` and the CMap name in its ``/ToUnicode``
    stream (reportlab writes the font name there). Fonts without an embedded program keep
    their names.
    """
    renamed = 0
    for obj in pdf.objects:
        if not isinstance(obj, Dictionary) or obj.get("/Type") != Name.Font:
            continue
        base = obj.get("/BaseFont")
        if not isinstance(base, Name) or not _SUBSET_TAG.match(str(base)):
            continue
        program = _font_program(obj)
        if program is None:
            continue
        old = str(base)
        new = "/" + subset_tag(program) + old[7:]
        if new == old:
            continue
        obj.BaseFont = Name(new)
        descriptor = obj.get("/FontDescriptor")
        if descriptor is not None and str(descriptor.get("/FontName", "")) == old:
            descriptor.FontName = Name(new)
        cmap = obj.get("/ToUnicode")
        if isinstance(cmap, pikepdf.Stream):
            data = cmap.read_bytes()
            if old[1:].encode() in data:
                cmap.write(data.replace(old[1:].encode(), new[1:].encode()))
        renamed += 1
    return renamed


_RGB_OPERATORS = {"rg", "RG"}
_SPACE_NAMES = re.compile(rb"/(DeviceRGB|CalRGB|Lab|ICCBased|Pattern|Indexed)\b")


def check_pdfx(pdf: pikepdf.Pdf, version: str | None = None) -> list[str]:
    """The PDF/X-1a:2003 departures deckpress can detect in ``pdf``, as short messages (empty when none);
    for a file claiming PDF/X-4 the X-4 ones too (:func:`~pipeline.render.pdfx4.check_pdfx4`). ``version``:
    the header version to check (default: the file's). X-1a: PDF 1.4 at most, no ``/OCProperties``.

    Checked: Info GTS_PDFXVersion/Title/Trapped (True or False)/CreationDate/ModDate;
    exactly one GTS_PDFX output intent with OutputConditionIdentifier, and RegistryName or a
    DestOutputProfile; every page's TrimBox and BleedBox present and nested in the
    MediaBox; every font embedded (FontFile/FontFile2/FontFile3); no RGB, Lab or ICC colour
    operators or spaces in content streams, form XObjects or images; every colour space
    resource well formed (a Separation is ``[/Separation name alternate tintTransform]``,
    ISO 32000-1 §8.6.6.4 — a colorant name with an unescaped ``/`` splits into two names and
    breaks it) and every ``cs``/``CS`` operator with one operand; no transparency (soft
    masks, non-Normal blend modes, alpha below 1); no annotations.
    """
    problems: list[str] = []
    info = pdf.docinfo
    version = version or pdf.pdf_version
    if str(info.get("/GTS_PDFXVersion", "")) == PDFX4_VERSION:
        problems += check_pdfx4(pdf, version)
    elif str(info.get("/GTS_PDFXVersion", "")) != PDFX_VERSION:
        problems.append("GTS_PDFXVersion missing or wrong")
    elif has_optional_content(pdf) or version_tuple(version) > (1, 4):
        problems.append(f"PDF {version}{' with optional content' if has_optional_content(pdf) else ''}: "
                        "PDF/X-1a:2003 is PDF 1.4 (optional content needs PDF 1.5: PDF/X-4)")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if key not in info:
            problems.append(f"Info {key} missing")
    if info.get("/Trapped") not in (Name("/True"), Name("/False")):
        problems.append("Trapped must be /True or /False")
    intents = [i for i in pdf.Root.get("/OutputIntents", []) if i.get("/S") == Name.GTS_PDFX]
    if len(intents) != 1:
        problems.append(f"{len(intents)} GTS_PDFX output intents, expected 1")
    elif "/OutputConditionIdentifier" not in intents[0] or not (
        "/RegistryName" in intents[0] or "/DestOutputProfile" in intents[0]
    ):
        problems.append("output intent needs OutputConditionIdentifier and a RegistryName or DestOutputProfile")
    for number, page in enumerate(pdf.pages, 1):
        problems += [f"page {number}: {p}" for p in _check_page(page)]
    return problems


def _unparse(obj) -> bytes:
    """PDF syntax of an object (a name, array or dictionary), resolving nothing."""
    return bytes(obj.unparse()) if hasattr(obj, "unparse") else str(obj).encode()


def _box(page, key: str) -> list[float] | None:
    raw = page.obj.get(key)
    return [float(v) for v in raw] if raw is not None else None


def _check_page(page) -> list[str]:
    out: list[str] = []
    media = _box(page, "/MediaBox")
    for key in ("/TrimBox", "/BleedBox"):
        box = _box(page, key)
        if box is None:
            out.append(f"{key} missing")
        elif media and not (box[0] >= media[0] - 1e-6 and box[1] >= media[1] - 1e-6 and box[2] <= media[2] + 1e-6 and box[3] <= media[3] + 1e-6):
            out.append(f"{key} {box} outside the MediaBox {media}")
    if "/Annots" in page.obj:
        out.append("annotations are not allowed on a PDF/X-1a page")
    if "/Group" in page.obj:
        out.append("transparency group on the page")
    out += _check_resources(page.obj.get("/Resources"), page.obj, seen=set())
    return out


#: Content-stream verdicts by the sha1 of the stream's raw bytes: a card's content is checked
#: once per process although it reaches the fronts, the UV merge and every press sheet.
_OPERATOR_VERDICTS: dict[bytes, tuple[str, ...]] = {}


def _raw_content(owner) -> bytes | None:
    """The still-encoded bytes of a page's or form's content (None when they cannot be read)."""
    try:
        if isinstance(owner, pikepdf.Stream):
            return bytes(owner.read_raw_bytes())
        contents = owner.get("/Contents")
        streams = contents if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
        return b"\0".join(bytes(c.read_raw_bytes()) for c in streams)
    except (pikepdf.PdfError, AttributeError, TypeError):
        return None


def _operator_problems(owner) -> tuple[str, ...]:
    """RGB colour operators and malformed ``cs``/``CS`` operators in one content stream (memoised by content)."""
    raw = _raw_content(owner)
    key = hashlib.sha1(raw).digest() if raw is not None else None
    if key is not None and key in _OPERATOR_VERDICTS:
        return _OPERATOR_VERDICTS[key]
    out: list[str] = []
    try:
        ops = pikepdf.parse_content_stream(owner, " ".join(_RGB_OPERATORS | _SPACE_OPERATORS))
    except (pikepdf.PdfError, TypeError):
        ops = []
    rgb = [op for op in ops if str(op.operator) in _RGB_OPERATORS]
    if rgb:
        out.append(f"RGB colour operator {rgb[0].operator}")
    bad_cs = [op for op in ops if str(op.operator) in _SPACE_OPERATORS and len(op.operands) != 1]
    if bad_cs:
        out.append(f"colour space operator {bad_cs[0].operator} with {len(bad_cs[0].operands)} operands "
                   f"({' '.join(_unparse(o).decode('latin-1') for o in bad_cs[0].operands)}), expected one name")
    if key is not None:
        _OPERATOR_VERDICTS[key] = tuple(out)
    return tuple(out)


def _check_resources(resources, owner, seen: set) -> list[str]:
    """Check one content stream owner (page or form XObject) and its resources, recursively."""
    out: list[str] = list(_operator_problems(owner))
    if resources is None:
        return out
    for name, space in dict(resources.get("/ColorSpace", {})).items():
        if _SPACE_NAMES.search(_unparse(space)):
            out.append(f"colour space {name} is not CMYK, grey or spot")
        malformed = _malformed_space(space)
        if malformed:
            out.append(f"colour space {name} is malformed: {malformed}")
    for name, gs in dict(resources.get("/ExtGState", {})).items():
        if "/SMask" in gs and gs.SMask != Name("/None"):
            out.append(f"soft mask in {name}")
        if float(gs.get("/CA", 1)) < 1 or float(gs.get("/ca", 1)) < 1:
            out.append(f"transparency (alpha) in {name}")
        if gs.get("/BM", Name.Normal) not in (Name.Normal, Name("/Compatible")):
            out.append(f"blend mode in {name}")
    for name, font in dict(resources.get("/Font", {})).items():
        out += _check_font(name, font)
    for name, xobj in dict(resources.get("/XObject", {})).items():
        key = xobj.objgen
        if key in seen and key != (0, 0):
            continue
        seen.add(key)
        if xobj.get("/Subtype") == Name.Image:
            space = xobj.get("/ColorSpace")
            if space is not None and _SPACE_NAMES.search(_unparse(space)):
                out.append(f"image {name} is in {_unparse(space).decode()}, not CMYK or grey")
            if "/SMask" in xobj:
                out.append(f"image {name} has a soft mask (transparency)")
        elif xobj.get("/Subtype") == Name.Form:
            out += _check_resources(xobj.get("/Resources"), xobj, seen)
    return out


_SPACE_OPERATORS = {"cs", "CS"}
_FAMILIES = {"/DeviceGray", "/DeviceCMYK", "/DeviceRGB", "/Pattern", "/CalGray", "/CalRGB", "/Lab", "/ICCBased",
             "/Indexed", "/Separation", "/DeviceN"}


def _malformed_space(space) -> str:
    """Why a colour space resource is not a colour space (ISO 32000-1 §8.6), or "" when it is well formed.

    A name must be a colour space family; an array must start with one; a Separation
    must be exactly ``[/Separation name alternate tintTransform]`` with a name, an
    alternate space (name or array) and a function (dictionary or stream, ``/FunctionType``).
    """
    if isinstance(space, Name):
        return "" if str(space) in _FAMILIES else f"{space} is not a colour space family"
    if not isinstance(space, Array) or len(space) == 0:
        return f"{_unparse(space).decode('latin-1')[:80]} is not a colour space"
    family = str(space[0])
    if family not in _FAMILIES:
        return f"{family} is not a colour space family"
    if family == "/Separation":
        text = bytes(space.unparse(resolved=True)).decode("latin-1")[:120]
        if len(space) != 4:
            return f"a Separation has 4 entries, this one {len(space)} ({text}); is the colorant name escaped?"
        colorant, alternate, tint = space[1], space[2], space[3]
        if not isinstance(colorant, Name):
            return f"the Separation's colorant is not a name ({text})"
        if not isinstance(alternate, (Name, Array)):
            return f"the Separation's alternate space is not a colour space ({text})"
        if not isinstance(tint, (Dictionary, pikepdf.Stream)) or "/FunctionType" not in tint:
            return f"the Separation's tint transform is not a function ({text})"
    return ""


def _check_font(name, font) -> list[str]:
    subtype = font.get("/Subtype")
    if subtype == Name.Type3:
        return []
    descriptors = []
    if subtype == Name.Type0:
        descriptors = [d.get("/FontDescriptor") for d in font.get("/DescendantFonts", [])]
    else:
        descriptors = [font.get("/FontDescriptor")]
    for d in descriptors:
        if d is None or not any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            return [f"font {name} ({font.get('/BaseFont')}) is not embedded"]
    return []

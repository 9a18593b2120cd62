"""The PDF/X-1a:2003 (and, through :mod:`pipeline.render.pdfx4`, PDF/X-4) departures deckpress can see
in a PDF: :func:`check_pdfx`, which :func:`pipeline.render.pdfx.finish` runs before it saves a file.
"""

from __future__ import annotations

import hashlib
import re

import pikepdf
from pikepdf import Array, Dictionary, Name

from pipeline.render.pdfx4 import PDFX4_VERSION, check_pdfx4, has_optional_content, version_tuple

PDFX_VERSION = "PDF/X-1:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"


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


#: Content-stream verdicts by digest: a card's content is checked once per process although it
#: reaches the fronts, the UV merge and every press sheet. Each verdict is filed under two keys:
#: the streams' filters and still-encoded bytes (:func:`_raw_digest`, a hit needs no decoding), and
#: their decoded bytes (:func:`_decoded_digest`), what the parser reads: a card page imposed on a
#: sheet as a Form XObject keeps its content but not always its encoding (208 of 1,913 forms in a
#: build of the shipped games missed the first key and were parsed again).
_OPERATOR_VERDICTS: dict[bytes, tuple[str, ...]] = {}


def _content_streams(owner) -> list:
    """The content streams of a page (its ``/Contents``, one or an array) or of a form XObject (itself)."""
    if isinstance(owner, pikepdf.Stream):
        return [owner]
    contents = owner.get("/Contents")
    return list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []


def _raw_digest(streams: list) -> bytes | None:
    """A digest of a content's streams, in order: each one's filters (resolved), length and still-encoded
    bytes; None when one cannot be read."""
    digest = hashlib.sha1(b"raw")
    try:
        for stream in streams:
            for key in ("/Filter", "/DecodeParms"):
                value = stream.get(key)
                digest.update(bytes(value.unparse(resolved=True)) if value is not None else b"-")
            data = bytes(stream.read_raw_bytes())
            digest.update(len(data).to_bytes(8, "big") + data)
    except (pikepdf.PdfError, AttributeError, TypeError):
        return None
    return digest.digest()


def _decoded_digest(decoded: list[bytes]) -> bytes:
    """A digest of a content's decoded streams, in order, each with its length."""
    digest = hashlib.sha1(b"decoded")
    for data in decoded:
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.digest()


def _decoded(streams: list) -> list[bytes] | None:
    """The decoded bytes of each content stream (what the parser reads), None when one cannot be decoded."""
    try:
        return [bytes(stream.read_bytes()) for stream in streams]
    except (pikepdf.PdfError, AttributeError, TypeError, NotImplementedError):
        return None


#: PDF white-space and delimiter characters (ISO 32000-1 §7.2.2): what ends a token.
_DELIMITERS = frozenset(b"\x00\t\n\x0c\r ()<>[]{}/%")
_CHECKED_OPERATORS = re.compile(rb"rg|RG|cs|CS")


def _may_hold_checked_operator(data: bytes) -> bool:
    """False only when ``data`` (one decoded content stream) cannot hold an ``rg``/``RG``/``cs``/``CS``
    operator: those bytes never stand as a token of their own (delimited by white space, a delimiter
    or the stream's ends). Bytes that do (in a string or an inline image too) answer True: then parse."""
    for found in _CHECKED_OPERATORS.finditer(data):
        start, end = found.span()
        if (start == 0 or data[start - 1] in _DELIMITERS) and (end == len(data) or data[end] in _DELIMITERS):
            return True
    return False


def _operator_problems(owner) -> tuple[str, ...]:
    """RGB colour operators and malformed ``cs``/``CS`` operators in one content stream (memoised by content).

    A single content stream none of whose tokens is one of those operators has none of those problems
    and is not parsed (most card fronts); any other is parsed with pikepdf.
    """
    streams = _content_streams(owner)
    raw_key = _raw_digest(streams)
    if raw_key is not None and raw_key in _OPERATOR_VERDICTS:
        return _OPERATOR_VERDICTS[raw_key]
    decoded = _decoded(streams)
    decoded_key = _decoded_digest(decoded) if decoded is not None else None
    verdict = _OPERATOR_VERDICTS.get(decoded_key) if decoded_key is not None else None
    if verdict is None:
        plain = decoded is not None and len(decoded) == 1 and not _may_hold_checked_operator(decoded[0])
        verdict = () if plain else _parse_for_problems(owner)
    for key in (raw_key, decoded_key):
        if key is not None:
            _OPERATOR_VERDICTS[key] = verdict
    return verdict


def _parse_for_problems(owner) -> tuple[str, ...]:
    """:func:`_operator_problems` without the memo: parse the content (pikepdf) and judge its operators."""
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
    return tuple(out)


def _entries(resources, key: str):
    """The ``(name, value)`` pairs of one resource category of ``resources`` (none when it has none)."""
    category = resources.get(key)
    return category.items() if category is not None else ()


def _check_resources(resources, owner, seen: set) -> list[str]:
    """Check one content stream owner (page or form XObject) and its resources, recursively."""
    out: list[str] = list(_operator_problems(owner))
    if resources is None:
        return out
    for name, space in _entries(resources, "/ColorSpace"):
        if _SPACE_NAMES.search(_unparse(space)):
            out.append(f"colour space {name} is not CMYK, grey or spot")
        malformed = _malformed_space(space)
        if malformed:
            out.append(f"colour space {name} is malformed: {malformed}")
    for name, gs in _entries(resources, "/ExtGState"):
        if "/SMask" in gs and gs.SMask != Name("/None"):
            out.append(f"soft mask in {name}")
        if float(gs.get("/CA", 1)) < 1 or float(gs.get("/ca", 1)) < 1:
            out.append(f"transparency (alpha) in {name}")
        if gs.get("/BM", Name.Normal) not in (Name.Normal, Name("/Compatible")):
            out.append(f"blend mode in {name}")
    for name, font in _entries(resources, "/Font"):
        out += _check_font(name, font)
    for name, xobj in _entries(resources, "/XObject"):
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

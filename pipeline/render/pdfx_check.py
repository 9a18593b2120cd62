"""The PDF/X-1a:2003 (and, through :mod:`pipeline.render.pdfx4`, PDF/X-4) departures deckpress can see
in a PDF: :func:`check_pdfx`, which :func:`pipeline.render.pdfx.finish` runs before it saves a file.
"""

from __future__ import annotations

import re

import pikepdf
from pikepdf import Array, Dictionary, Name

from pipeline.render.pdfx4 import PDFX4_VERSION, check_pdfx4, has_optional_content, version_tuple
from pipeline.render.pdfx_content import OPERATOR_VERDICTS as _OPERATOR_VERDICTS  # noqa: F401 (tests clear it)
from pipeline.render.pdfx_content import operator_problems, unparse

PDFX_VERSION = "PDF/X-1:2003"
PDFX_CONFORMANCE = "PDF/X-1a:2003"


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
    memo: dict = {}
    for number, page in enumerate(pdf.pages, 1):
        problems += [f"page {number}: {p}" for p in _check_page(page, memo)]
    return problems


def _get(obj, key: str):
    """``obj[key]``, or None when ``obj`` has no ``key``: pikepdf's ``get()`` of a missing key costs ~8 µs
    (an exception inside), a ``key in obj`` test ~1 µs, and most keys checked here are missing."""
    return obj[key] if key in obj else None


def _box(page, key: str) -> list[float] | None:
    raw = _get(page, key)
    return [float(v) for v in raw] if raw is not None else None


def _check_page(page, memo: dict) -> list[str]:
    """The departures of one page: its boxes, annotations, transparency group and resources (``memo``: see :func:`_judged`)."""
    out: list[str] = []
    page = page.obj
    media = _box(page, "/MediaBox")
    for key in ("/TrimBox", "/BleedBox"):
        box = _box(page, key)
        if box is None:
            out.append(f"{key} missing")
        elif media and not (box[0] >= media[0] - 1e-6 and box[1] >= media[1] - 1e-6 and box[2] <= media[2] + 1e-6 and box[3] <= media[3] + 1e-6):
            out.append(f"{key} {box} outside the MediaBox {media}")
    if "/Annots" in page:
        out.append("annotations are not allowed on a PDF/X-1a page")
    if "/Group" in page:
        out.append("transparency group on the page")
    out += _check_resources(_get(page, "/Resources"), page, set(), memo)
    return out


def _judged(memo: dict, judge, obj):
    """``judge(obj, memo)``, remembered in ``memo`` (one :func:`check_pdfx` call's) under the judge and the
    object: its number when indirect, else its syntax (whose references resolve alike within the file).
    A font, colour space, graphics state, image or whole resource category shared by the pages and
    forms of one file is judged once per file (the file does not change during the call), not once
    per resource dictionary naming it (2,930 of 3,086 font checks in a build of the shipped games)."""
    key = getattr(obj, "objgen", None)
    if key is None:  # a number or boolean, which pikepdf gives as a Python value (a malformed resource)
        return judge(obj, memo)
    key = (judge, unparse(obj) if key == (0, 0) else key)
    if key not in memo:
        memo[key] = judge(obj, memo)
    return memo[key]


def _owner_verdict(owner, memo: dict) -> tuple[str, ...]:
    """The content-stream problems of a page or form XObject (:func:`pipeline.render.pdfx_content.operator_problems`)."""
    return operator_problems(owner)


def _spaces_verdict(spaces, memo: dict) -> tuple[str, ...]:
    """The messages on a ``/ColorSpace`` resource category: an RGB, Lab, ICC, indexed or pattern space; a malformed one."""
    out = []
    for name, space in spaces.items():
        not_cmyk, malformed = _judged(memo, _space_verdict, space)
        if not_cmyk:
            out.append(f"colour space {name} is not CMYK, grey or spot")
        if malformed:
            out.append(f"colour space {name} is malformed: {malformed}")
    return tuple(out)


def _space_verdict(space, memo: dict) -> tuple[bool, str]:
    """A colour space resource: (it names RGB, Lab, ICC or an indexed/pattern space; why it is malformed or "")."""
    return bool(_SPACE_NAMES.search(unparse(space))), _malformed_space(space)


_NONE = Name("/None")
_NORMAL_BLENDS = (Name.Normal, Name("/Compatible"))


def _states_verdict(states, memo: dict) -> tuple[str, ...]:
    """The messages on an ``/ExtGState`` category: a soft mask, alpha below 1, a blend mode other than Normal."""
    out = []
    for name, gs in states.items():
        out += [f"{stem} {name}" for stem in _judged(memo, _state_verdict, gs)]
    return tuple(out)


def _state_verdict(gs, memo: dict) -> tuple[str, ...]:
    """The transparency an ExtGState resource sets: message stems for a soft mask, alpha below 1, a blend mode."""
    out = []
    if "/SMask" in gs and gs.SMask != _NONE:
        out.append("soft mask in")
    if ("/CA" in gs and float(gs.CA) < 1) or ("/ca" in gs and float(gs.ca) < 1):
        out.append("transparency (alpha) in")
    if "/BM" in gs and gs.BM not in _NORMAL_BLENDS:
        out.append("blend mode in")
    return tuple(out)


def _fonts_verdict(fonts, memo: dict) -> tuple[str, ...]:
    """The messages on a ``/Font`` category: a font that does not embed its program."""
    out = []
    for name, font in fonts.items():
        base = _judged(memo, _unembedded_font, font)
        if base is not None:
            out.append(f"font {name} ({base}) is not embedded")
    return tuple(out)


def _unembedded_font(font, memo: dict) -> str | None:
    """None when ``font`` embeds its program (a Type3 font needs none; a Type0 font's descendants each
    have FontFile, FontFile2 or FontFile3 in their descriptor), else its BaseFont as the message shows it."""
    subtype = _get(font, "/Subtype")
    if subtype == Name.Type3:
        return None
    if subtype == Name.Type0:
        descriptors = [_get(d, "/FontDescriptor") for d in font.get("/DescendantFonts", [])]
    else:
        descriptors = [_get(font, "/FontDescriptor")]
    for d in descriptors:
        if d is None or not any(k in d for k in ("/FontFile", "/FontFile2", "/FontFile3")):
            return f"{_get(font, '/BaseFont')}"
    return None


def _image_verdict(xobj, memo: dict) -> tuple[str, bool]:
    """An image XObject: (its colour space's syntax when that is not CMYK or grey, else ""; it has a soft mask)."""
    space = _get(xobj, "/ColorSpace")
    bad = unparse(space).decode() if space is not None and _SPACE_NAMES.search(unparse(space)) else ""
    return bad, "/SMask" in xobj


#: Made once: ``Name.Image`` makes a new Name at each use (~0.7 µs, twice an XObject).
_IMAGE, _FORM = Name.Image, Name.Form

#: The resource categories judged as a whole (:func:`_judged`), in the order their messages come.
_CATEGORIES = (("/ColorSpace", _spaces_verdict), ("/ExtGState", _states_verdict), ("/Font", _fonts_verdict))


def _check_resources(resources, owner, seen: set, memo: dict | None = None) -> list[str]:
    """Check one content stream owner (page or form XObject) and its resources, recursively; ``seen``:
    the XObjects already checked on this page; ``memo``: the call's verdicts (:func:`_judged`)."""
    memo = {} if memo is None else memo
    out: list[str] = list(_judged(memo, _owner_verdict, owner))
    if resources is None:
        return out
    for key, judge in _CATEGORIES:
        if key in resources:
            out += _judged(memo, judge, resources[key])
    xobjects = _get(resources, "/XObject")
    for name, xobj in xobjects.items() if xobjects is not None else ():
        key = xobj.objgen
        if key in seen and key != (0, 0):
            continue
        seen.add(key)
        subtype = _get(xobj, "/Subtype")
        if subtype == _IMAGE:
            space, smask = _judged(memo, _image_verdict, xobj)
            if space:
                out.append(f"image {name} is in {space}, not CMYK or grey")
            if smask:
                out.append(f"image {name} has a soft mask (transparency)")
        elif subtype == _FORM:
            out += _check_resources(_get(xobj, "/Resources"), xobj, seen, memo)
    return out


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
        return f"{unparse(space).decode('latin-1')[:80]} is not a colour space"
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

"""Soft proofs of print PDFs: the CMYK pages as the printing target will print them, in sRGB.

:func:`soft_proof_pdf` copies a print PDF and replaces every DeviceCMYK colour with its soft
proof (:func:`pipeline.render.colour.soft_proof_srgb`: the target's ICC profile, relative
colorimetric, paper shown as white): fill and stroke colours (``k``/``K``, and DeviceGray
``g``/``G`` as K-only) become ``rg``/``RG``, and DeviceCMYK images are converted pixel by pixel
through the same profile. Page boxes, paths and text are untouched, so the copy renders with
exactly the geometry of the print PDF. Spot colours (Separation) are left as they are.

:func:`soft_proof_pages` rasterises that copy with :mod:`pipeline.common.raster` (pypdfium2,
whose own CMYK → RGB conversion knows nothing of the printing condition): the proofs and the
archive show these images.
"""

from __future__ import annotations

import bisect
import io
import re
import tempfile
import zlib
from functools import lru_cache
from pathlib import Path
from typing import Iterator, Sequence

import deflate
import pikepdf
from pikepdf import Name
from pikepdf.models.image import PdfImage
from PIL import ImageChops

from pipeline.common.raster import PageRaster, RasterError, render_pages
from pipeline.render.colour import soft_proof_image, soft_proof_srgb
from pipeline.render.targets import DEFAULT_TARGET, PrintTarget, load_target

_RGB_OPS = {"k": "rg", "K": "RG", "g": "rg", "G": "RG"}


@lru_cache(maxsize=4096)
def _rgb(cmyk: tuple[float, float, float, float], target: PrintTarget) -> list[float]:
    srgb = soft_proof_srgb(tuple(v * 100 for v in cmyk), target)  # operands are fractions 0-1
    return [round(int(srgb[i : i + 2], 16) / 255, 4) for i in (1, 3, 5)]


def _instructions(stream_owner, target: PrintTarget) -> list:
    out = pikepdf.parse_content_stream(stream_owner)
    for i, instruction in enumerate(out):
        if isinstance(instruction, pikepdf.ContentStreamInstruction) and (name := str(instruction.operator)) in _RGB_OPS:
            values = [float(v) for v in instruction.operands]
            cmyk = tuple(values) if name in "kK" else (0.0, 0.0, 0.0, 1.0 - values[0])
            out[i] = pikepdf.ContentStreamInstruction(_rgb(cmyk, target), pikepdf.Operator(_RGB_OPS[name]))
    return out


# String literals and comments, skipped whole (a "1 k" inside a string is no operator;
# reportlab escapes every parenthesis inside a string), and the colour operators as tokens.
_SKIPPED = re.compile(rb"\((?:\\.|[^\\()])*\)|%[^\r\n]*")
# Each pattern starts with its character (class) and looks behind after it: re then skips to the
# candidate bytes in C instead of trying a look-behind at every byte (the same matches).
_COLOUR_OP = re.compile(rb"[kKgG](?<=\s[kKgG])(?=\s|\Z)")
_NUM = rb"[-+]?(?:\d+\.?\d*|\.\d+)"
# The operands just before an operator: whole number tokens (a delimiter or the start before them).
_CMYK_OPERANDS = re.compile(rb"(?<![^\s\[\]()<>{}/%])(?:" + _NUM + rb"\s+){4}\Z")
_DELIMITER = re.compile(rb"[\s\[\]()<>{}/%]")
_GRAY_OPERANDS = re.compile(rb"(?<![^\s\[\]()<>{}/%])" + _NUM + rb"\s+\Z")
# Inline images (BI … ID … EI) carry binary data the byte-level rewrite cannot skip: a stream
# with one goes through pikepdf's full parser instead.
_INLINE_IMAGE = re.compile(rb"(?<![^\s])(?:BI|ID)(?![^\s])")
#: How far back the operands are looked for first: "0.843137 0.4 0.2 0.05 " is 24 bytes.
_SHORT_HEAD = 40


def _operands(pattern: re.Pattern, head: bytes) -> tuple[int, bytes] | None:
    """Where in ``head`` the operands ``pattern`` matches at its end start, and their text; or None.

    The numbers before an operator are one run of tokens, so the match is the same in any window
    holding all of it and the byte before it; the last 40 bytes are tried first (a pattern search
    costs about its window's length), the whole head when the match is not inside them."""
    short = head[-_SHORT_HEAD:]
    if len(short) < len(head) and (found := pattern.search(short)) is not None and found.start() > 0:
        return len(head) - len(short) + found.start(), found.group(0)
    found = pattern.search(head)
    return (found.start(), found.group(0)) if found is not None else None


def _number(v: float) -> bytes:
    return (f"{v:.4f}".rstrip("0").rstrip(".") or "0").encode()


def _rewrite_colours(data: bytes, target: PrintTarget, memo: dict | None = None) -> bytes | None:
    """``data`` (a decoded content stream) with every k/K/g/G as its sRGB rg/RG soft proof, or
    None when the stream holds an inline image, a string with an unescaped parenthesis nested
    in it, or a colour operator whose operands are not plain numbers (then the caller parses it
    with pikepdf).

    Same colours as :func:`_instructions` (the same :func:`_rgb`), every other byte untouched:
    several times faster than parsing the stream into Python objects and writing it back.
    ``memo`` keeps each operator's replacement by its operand text, for one target (a deck's
    pages set the same few colours again and again)."""
    if (b"BI" in data or b"ID" in data) and _INLINE_IMAGE.search(data):
        return None
    memo = {} if memo is None else memo
    skipped = [m.span() for m in _SKIPPED.finditer(data)]
    starts = [a for a, _ in skipped]
    # the unescaped "(" (every "(" but those right after a backslash) must each start a string span
    if bytes(map(data.__getitem__, starts)).count(0x28) != data.count(b"(") - data.count(b"\\("):
        return None  # an unescaped parenthesis nested in a string: the spans above are wrong
    out, done = [], 0
    for match in _COLOUR_OP.finditer(data):
        at = match.start()
        i = bisect.bisect_right(starts, at) - 1
        if i >= 0 and at < skipped[i][1]:
            continue  # inside a string or comment
        op = match.group(0)
        head = data[max(done, at - 96):at]
        found = _operands(_CMYK_OPERANDS if op in b"kK" else _GRAY_OPERANDS, head)
        if found is None:
            return None
        begin, operands = at - len(head) + found[0], found[1].split()
        if found[0] == 0 and begin > done and not _DELIMITER.match(data, begin - 1):
            return None  # the 96-byte window cut a token: let pikepdf read it
        key = (op, *operands)
        if (replaced := memo.get(key)) is None:
            values = [float(v) for v in operands]
            cmyk = tuple(values) if op in b"kK" else (0.0, 0.0, 0.0, 1.0 - values[0])
            replaced = memo[key] = b" ".join(_number(v) for v in _rgb(cmyk, target)) + (b" rg" if op in b"kg" else b" RG")
        out += [data[done:begin], replaced]
        done = at + 1
    out.append(data[done:])
    return b"".join(out)


def _proofed_stream(owner, target: PrintTarget, memo: dict | None = None) -> bytes:
    """The soft-proofed bytes of a page's or Form XObject's content (see :func:`_rewrite_colours`)."""
    if isinstance(owner, pikepdf.Page):
        contents = owner.obj.get("/Contents")
        streams = list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []
        data = b"\n".join(c.read_bytes() for c in streams)  # an array is one content stream (ISO 32000-1 §7.8.2)
    else:
        data = owner.read_bytes()
    fast = _rewrite_colours(data, target, memo)
    return fast if fast is not None else pikepdf.unparse_content_stream(_instructions(owner, target))


def _proof_image(xobject: pikepdf.Stream, target: PrintTarget) -> None:
    if xobject.get("/ColorSpace") != Name.DeviceCMYK:
        return
    image = PdfImage(xobject).as_pil_image()
    if [float(v) for v in xobject.get("/Decode", [])][:2] == [1.0, 0.0]:
        image = ImageChops.invert(image)  # an inverted CMYK image (Adobe's JPEG convention)
    rgb = soft_proof_image(image.convert("CMYK"), target)
    xobject.write(zlib.compress(rgb.tobytes()), filter=Name.FlateDecode)
    xobject.ColorSpace = Name.DeviceRGB
    xobject.BitsPerComponent = 8
    for key in ("/Decode", "/DecodeParms"):
        if key in xobject:
            del xobject[key]


def _proof_resources(pdf: pikepdf.Pdf, resources, target: PrintTarget, seen: set, memo: dict | None = None) -> None:
    for xobject in (resources.get("/XObject") or {}).values():
        if xobject.objgen in seen:
            continue
        seen.add(xobject.objgen)
        if xobject.get("/Subtype") == Name.Image:
            _proof_image(xobject, target)
        elif xobject.get("/Subtype") == Name.Form:
            xobject.write(_proofed_stream(xobject, target, memo))
            _proof_resources(pdf, xobject.get("/Resources") or {}, target, seen, memo)


def _soft_proof_to(source: str | Path, dest, target: PrintTarget | str | None) -> None:
    """Write the soft proof of ``source`` to ``dest`` (a path or a binary file object)."""
    target = target if isinstance(target, PrintTarget) else load_target(target or DEFAULT_TARGET)
    try:
        pdf = pikepdf.open(source)
    except (pikepdf.PdfError, OSError) as exc:
        raise RasterError(f"cannot open PDF {source}: {exc}") from None
    with pdf:
        seen: set = set()
        memo: dict = {}  # colour operator replacements, this target's
        for page in pdf.pages:
            # Flate-compressed here, by libdeflate at level 1 (qpdf's save keeps a Flate stream as it is): each
            # page is held compressed until the save, not ~5 kB of text; libdeflate level 1 against zlib's
            # default level 6 (issue 22): 0.34 -> 0.25 ms a page of the soft proof, +5 % bytes
            contents = page.obj.Contents = pdf.make_stream(bytes(deflate.zlib_compress(_proofed_stream(page, target, memo), 1)))
            contents.Filter = Name.FlateDecode
            _proof_resources(pdf, page.obj.get("/Resources") or {}, target, seen, memo)
        pdf.save(dest, deterministic_id=True)


def soft_proof_pdf(source: str | Path, dest: str | Path, target: PrintTarget | str | None = None) -> Path:
    """Write ``dest``: a copy of the print PDF ``source`` with every CMYK colour and image as its sRGB soft proof.

    Raises :class:`RasterError` naming the file when ``source`` is not a readable PDF, and
    :class:`pipeline.render.colour.ColourError` when the target's profile is missing.
    """
    _soft_proof_to(source, dest, target)
    return Path(dest)


def soft_proof_bytes(source: str | Path, target: PrintTarget | str | None = None) -> bytes:
    """The bytes :func:`soft_proof_pdf` writes (the same bytes: the document id is deterministic), kept
    in memory so that several stages render one soft proof (the archive faces and the proofs, issue 22:
    about 1.6 ms a card each time it is made). Raises as :func:`soft_proof_pdf` does."""
    buf = io.BytesIO()
    _soft_proof_to(source, buf, target)
    return buf.getvalue()


def soft_proof_pages(pdf: str | Path, dpi: float = 150, crop_to_trim: bool = False,
                     target: PrintTarget | str | None = None, proofed: bytes | None = None,
                     pages: Sequence[int] | None = None) -> Iterator[PageRaster]:
    """Like :func:`pipeline.common.raster.render_pages` (same pixel sizes and trim origin, only the
    0-based ``pages`` when given), but every page is its soft proof (:func:`soft_proof_pdf`) as the target prints it.

    ``proofed`` is that soft proof already made (:func:`soft_proof_bytes` of ``pdf`` for ``target``):
    it is rendered as it is. Raises :class:`RasterError` for an unreadable PDF.
    """
    if proofed is not None:
        yield from render_pages(proofed, dpi=dpi, crop_to_trim=crop_to_trim, pages=pages)
        return
    with tempfile.TemporaryDirectory(prefix="deckpress-proof-") as tmp:
        proof = soft_proof_pdf(pdf, Path(tmp) / "soft-proof.pdf", target)
        yield from render_pages(proof, dpi=dpi, crop_to_trim=crop_to_trim, pages=pages)

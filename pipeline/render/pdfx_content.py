"""The content-stream part of the PDF/X check (:func:`pipeline.render.pdfx_check.check_pdfx`): RGB colour
operators (``rg``/``RG``) and ``cs``/``CS`` operators without exactly one operand, in a page's or a
form XObject's content, judged once per process per content (:func:`operator_problems`).

Three ways to a verdict, cheapest first, each giving what the pikepdf parse gives:

- the verdict already given to the same content (:data:`OPERATOR_VERDICTS`, by digest): a card's
  content reaches the fronts, the UV merge and every press sheet;
- a byte scan that proves the content free of those problems (:func:`plainly_conforming`): no
  ``rg``/``RG``/``cs``/``CS`` token at all (card fronts), or only ``cs``/``CS`` tokens each standing
  right after one name that itself follows an operator (the UV layer's ``/Braille cs``, the marks'
  ``q /All CS``); 620 of the 1,231 new contents of a build of the shipped games were parsed for
  those two alone;
- pikepdf's parser (:func:`parse_for_problems`), for every content the scan cannot prove.
"""

from __future__ import annotations

import hashlib
import re

import deflate
import pikepdf

RGB_OPERATORS = {"rg", "RG"}
SPACE_OPERATORS = {"cs", "CS"}

#: Content-stream verdicts by digest: a card's content is checked once per process although it
#: reaches the fronts, the UV merge and every press sheet. Each verdict is filed under two keys:
#: the streams' filters and still-encoded bytes (:func:`_raw_digest`, a hit needs no decoding), and
#: their decoded bytes (:func:`_decoded_digest`), what the parser reads: a card page imposed on a
#: sheet as a Form XObject keeps its content but not always its encoding (208 of 1,913 forms in a
#: build of the shipped games missed the first key and were parsed again). A content without
#: filters is filed under the second key alone (its raw bytes are its decoded bytes), and a content
#: the byte scan clears under the first alone (:func:`operator_problems`).
OPERATOR_VERDICTS: dict[bytes, tuple[str, ...]] = {}


def unparse(obj) -> bytes:
    """PDF syntax of an object (a name, array or dictionary), resolving nothing."""
    return bytes(obj.unparse()) if hasattr(obj, "unparse") else str(obj).encode()


def content_streams(owner) -> list:
    """The content streams of a page (its ``/Contents``, one or an array) or of a form XObject (itself)."""
    if isinstance(owner, pikepdf.Stream):
        return [owner]
    contents = owner["/Contents"] if "/Contents" in owner else None
    return list(contents) if isinstance(contents, pikepdf.Array) else [contents] if contents is not None else []


def _raw_digest(streams: list) -> bytes | None:
    """A digest of a content's streams, in order: each one's filters (resolved), length and still-encoded
    bytes; None when one cannot be read."""
    digest = hashlib.sha1(b"raw")
    try:
        for stream in streams:
            for key in ("/Filter", "/DecodeParms"):  # `in` first: pikepdf's get() of a missing key costs ~8 µs
                digest.update(bytes(stream[key].unparse(resolved=True)) if key in stream else b"-")
            data = bytes(stream.read_raw_bytes())
            digest.update(len(data).to_bytes(8, "big") + data)
    except (pikepdf.PdfError, AttributeError, TypeError):
        return None
    return digest.digest()


def _unfiltered(streams: list) -> bool:
    """True when no stream of a content has a ``/Filter`` (its raw bytes are what the parser reads)."""
    try:
        return not any("/Filter" in stream for stream in streams)
    except (pikepdf.PdfError, AttributeError, TypeError):
        return False  # let _raw_digest and _decoded judge it as before


def _decoded_digest(decoded: list[bytes]) -> bytes:
    """A digest of a content's decoded streams, in order, each with its length."""
    digest = hashlib.sha1(b"decoded")
    for data in decoded:
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.digest()


def _decoded(streams: list) -> list[bytes] | None:
    """The decoded bytes of each content stream (what the parser reads), None when one cannot be decoded."""
    try:
        return [decoded_bytes(stream) for stream in streams]
    except (pikepdf.PdfError, AttributeError, TypeError, NotImplementedError):
        return None


_FLATE = pikepdf.Name.FlateDecode
#: The largest raw stream :func:`decoded_bytes` inflates itself (bigger ones: qpdf), so its output buffer stays under 66 MB.
INFLATE_MAX_RAW = 1 << 16


def decoded_bytes(stream) -> bytes:
    """``stream.read_bytes()``: for a stream whose only filter is ``/FlateDecode`` without ``/DecodeParms``,
    inflated by libdeflate (16 µs for a braille page's 10 kB, qpdf's zlib 38 µs), the same bytes (inflate
    has one output for a valid stream); every other stream, and one libdeflate refuses (bad data, a wrong
    checksum, a preset dictionary: qpdf may still read part of it), by qpdf as before. Raises what
    ``read_bytes`` raises (pikepdf.PdfError for a stream qpdf cannot decode)."""
    if "/Filter" in stream and "/DecodeParms" not in stream:
        spec = stream["/Filter"]
        if isinstance(spec, pikepdf.Array) and len(spec) == 1:
            spec = spec[0]
        if spec == _FLATE:
            raw = stream.read_raw_bytes()
            if len(raw) <= INFLATE_MAX_RAW:
                # libdeflate needs room for the output: 8 times the input first (content streams inflate 3-5
                # times), then deflate's largest ratio, about 1032 to 1 (a 258-byte match in 2 bits)
                for room in (8 * len(raw) + 4096, 1032 * len(raw) + 4096):
                    try:
                        return bytes(deflate.zlib_decompress(raw, room))
                    except deflate.DeflateError:
                        continue
    return bytes(stream.read_bytes())


#: PDF white-space and delimiter characters (ISO 32000-1 §7.2.2), with vertical tab, which qpdf's
#: tokenizer also takes for white space: what ends a token for some reader (a superset, for finding).
_DELIMITERS = frozenset(b"\x00\t\n\x0b\x0c\r ()<>[]{}/%")
#: White space every reader agrees on (NUL and vertical tab left out): what separates two tokens
#: for every reader (a subset, for proving).
_WHITE = frozenset(b"\t\n\x0c\r ")
#: ``rg``/``RG``/``cs``/``CS`` followed by a delimiter (:data:`_DELIMITERS`) or the stream's end. The
#: byte before is tested in Python (:func:`checked_tokens`): a look-behind first would keep the regular
#: expression engine from skipping ahead to the letters (3.5 times slower over the shipped games' contents).
_CHECKED_TOKEN = re.compile(rb"(?:rg|RG|cs|CS)(?![^\x00\t\n\x0b\x0c\r ()<>\[\]{}/%])")


#: The pairs :data:`_CHECKED_TOKEN` matches, by their second letter: no two can overlap (none ends with
#: a letter another starts with).
_CHECKED_PAIRS = ((b"g", ord("r")), (b"G", ord("R")), (b"s", ord("c")), (b"S", ord("C")))


def checked_tokens(data: bytes) -> list:
    """The matches of ``rg``/``RG``/``cs``/``CS`` in ``data`` that stand as tokens of their own for some
    reader: delimited (by :data:`_DELIMITERS`) or at the stream's ends on both sides.

    Each pair is found by its second letter (``bytes.find`` of one byte, a ``memchr``) and the expression
    tried there alone: the same matches as ``finditer`` (the pairs cannot overlap), in order, without the
    expression trying every byte (its alternation has no literal prefix to skip by; ``c`` of the ``c``
    operator starts a try at every curve): a braille layer or mask page, ~12 kB of circle operators, took
    ~0.08 ms, and the print fronts' pages half that."""
    starts = []
    for second, first in _CHECKED_PAIRS:
        at = data.find(second, 1)
        while at >= 0:
            if data[at - 1] == first:
                starts.append(at - 1)
            at = data.find(second, at + 1)
    found = (_CHECKED_TOKEN.match(data, start) for start in sorted(starts))
    return [m for m in found if m is not None and (m.start() == 0 or data[m.start() - 1] in _DELIMITERS)]


#: The content-stream operators of ISO 32000-1 Annex A, Table A.1, but ``BI`` and ``ID`` (what follows
#: them is an inline image's dictionary or data): a token that ends the operands of the next operator.
_OPERATORS = frozenset(
    b"b B b* B* BDC BMC BT BX c cm CS cs d d0 d1 Do DP EI EMC ET EX f F f* G g gs h i j J K k l m M MP n q Q "
    b"re RG rg ri s S SC sc SCN scn sh T* Tc Td TD Tf Tj TJ TL Tm Tr Ts Tw Tz v w W W* y ' \"".split())


def _one_name_before(data: bytes, start: int) -> bool:
    """True only when the ``cs``/``CS`` token at ``data[start:]`` has exactly one operand, a name, for
    every reader: the bytes before it are white space, a non-empty ``/Name``, white space, and before
    that the stream's start or (after white space, or at the start) a whole operator of
    :data:`_OPERATORS` (where the operands begin). Any other context answers False: then parse."""
    end = start
    while end > 0 and data[end - 1] in _WHITE:
        end -= 1
    body = end
    while body > 0 and data[body - 1] not in _DELIMITERS:
        body -= 1
    if end == start or body == end or body == 0 or data[body - 1] != 0x2F:  # white space, a name body, its "/"
        return False
    before = body - 1
    while before > 0 and data[before - 1] in _WHITE:
        before -= 1
    if before == 0:
        return True  # the name is the stream's first token
    if before == body - 1:
        return False  # something glued to the "/"
    word = before
    while word > 0 and data[word - 1] not in _DELIMITERS:
        word -= 1
    return (word == 0 or data[word - 1] in _WHITE) and data[word:before] in _OPERATORS


def plainly_conforming(data: bytes) -> bool:
    """True only when ``data`` (one decoded content stream) has none of the problems
    :func:`parse_for_problems` reports, seen without parsing: no ``rg``/``RG`` token, and every
    ``cs``/``CS`` token one with a single name operand (:func:`_one_name_before`). A comment could
    hide an operand (``/A %x``, a new line, ``/B cs``), so a stream holding ``%`` anywhere and holding
    such a token is parsed; so is any stream this cannot prove. Bytes in a string or an inline image
    count as tokens too: they can only send a stream to the parser, never spare it one."""
    found = checked_tokens(data)
    if not found:
        return True
    if b"%" in data:
        return False
    return all(m.group() in (b"cs", b"CS") and _one_name_before(data, m.start()) for m in found)


def operator_problems(owner) -> tuple[str, ...]:
    """RGB colour operators and malformed ``cs``/``CS`` operators in the content of ``owner`` (a page or a
    form XObject), as messages (empty when none), memoised by content (:data:`OPERATOR_VERDICTS`).

    A content (one stream, or an array of streams joined by a new line as qpdf's parser joins them)
    that :func:`plainly_conforming` clears is not parsed; any other is parsed with pikepdf
    (:func:`parse_for_problems`). The decoded bytes' digest is taken only for a content the scan
    does not clear, whose parse it spares: for one it clears, the scan (4-7 µs a card) costs less
    than the digest (8 µs), and gives the verdict the digest would find (the scan is a function of
    the decoded bytes, and the memo files each content's first verdict).
    """
    streams = content_streams(owner)
    raw_key = None if _unfiltered(streams) else _raw_digest(streams)
    if raw_key is not None and raw_key in OPERATOR_VERDICTS:
        return OPERATOR_VERDICTS[raw_key]
    decoded = _decoded(streams)
    decoded_key = verdict = None
    # An array of streams is one content stream (ISO 32000-1 §7.8.2: split only between tokens);
    # joined by a new line as qpdf's parser joins them.
    if decoded is not None and plainly_conforming(b"\n".join(decoded)):
        verdict = ()
    else:
        decoded_key = _decoded_digest(decoded) if decoded is not None else None
        verdict = OPERATOR_VERDICTS.get(decoded_key) if decoded_key is not None else None
        if verdict is None:
            verdict = parse_for_problems(owner)
    for key in (raw_key, decoded_key):
        if key is not None:
            OPERATOR_VERDICTS[key] = verdict
    return verdict


def parse_for_problems(owner) -> tuple[str, ...]:
    """:func:`operator_problems` without the memo: parse the content (pikepdf) and judge its operators."""
    out: list[str] = []
    try:
        ops = pikepdf.parse_content_stream(owner, " ".join(RGB_OPERATORS | SPACE_OPERATORS))
    except (pikepdf.PdfError, TypeError):
        ops = []
    rgb = [op for op in ops if str(op.operator) in RGB_OPERATORS]
    if rgb:
        out.append(f"RGB colour operator {rgb[0].operator}")
    bad_cs = [op for op in ops if str(op.operator) in SPACE_OPERATORS and len(op.operands) != 1]
    if bad_cs:
        out.append(f"colour space operator {bad_cs[0].operator} with {len(bad_cs[0].operands)} operands "
                   f"({' '.join(unparse(o).decode('latin-1') for o in bad_cs[0].operands)}), expected one name")
    return tuple(out)

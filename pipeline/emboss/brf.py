"""BRF: North American Braille ASCII embosser files, written and read back.

A BRF file holds no metadata, only pages of lines (BANA "Braille ASCII"; the
64 six-dot cells map to bytes 0x20–0x5F, see :mod:`pipeline.braille.cells`).
deckpress writes:

- every line as Braille ASCII followed by CR LF (0x0D 0x0A), no trailing padding;
- a form feed (0x0C) after every page, the last one included, as transcription
  software commonly ends each page; so the file ends with ``\\r\\n\\f`` and a reader
  splits on form feeds and drops the empty text after the final one. There is never
  a blank trailing page.

Lines are checked, not padded: no line longer than the page's cells per line, no
page longer than its lines per page (the embosser advances to the next page on the
form feed). Note: ``str.splitlines`` also splits on ``\\f`` (and ``\\x0b``, ``\\x1c``…),
so it must not be used to find pages or lines here.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from pipeline.braille.cells import to_brf

CR_LF = b"\r\n"
FORM_FEED = b"\x0c"
#: Bytes allowed inside a line: Braille ASCII 0x20–0x5F.
ASCII_BRAILLE = frozenset(range(0x20, 0x60))
_ALLOWED = bytes(range(0x20, 0x60)) + b"\r\n\x0c"


class BrfFormatError(ValueError):
    """Bytes that are not a BRF file as deckpress writes it; the message names the byte offset."""


def brf_bytes(pages: Iterable[Sequence[str]]) -> bytes:
    """Pages of rows of Unicode six-dot cells → BRF bytes (CR LF after each line, FF after each page).

    An empty row is an empty line. Raises ValueError (from :func:`to_brf`) naming
    a character that is not a six-dot cell.
    """
    out = bytearray()
    for rows in pages:
        for row in rows:
            out += to_brf(row).encode("ascii")
            out += CR_LF
        out += FORM_FEED
    return bytes(out)


def read_brf(data: bytes) -> list[list[str]]:
    """BRF bytes → pages of lines of Braille ASCII text (no CR LF, no form feeds).

    Pages are split on form feed only; text after the final form feed that is empty
    (or only line ends) is not a page. Raises :class:`BrfFormatError` for a byte
    outside ASCII or a page whose last line lacks its CR LF.
    """
    try:
        text = data.decode("ascii")
    except UnicodeDecodeError as exc:
        raise BrfFormatError(f"byte 0x{data[exc.start]:02X} at offset {exc.start} is not ASCII") from None
    chunks = text.split("\f")
    if chunks and chunks[-1].strip("\r\n") == "":
        chunks.pop()
    pages: list[list[str]] = []
    offset = 0
    for chunk in chunks:
        if chunk and not chunk.endswith("\r\n"):
            raise BrfFormatError(f"page {len(pages) + 1} (offset {offset}) does not end its last line with CR LF")
        pages.append(chunk[:-2].split("\r\n") if chunk else [])
        offset += len(chunk) + 1
    return pages


def check_brf(data: bytes, cells_per_line: int, lines_per_page: int) -> list[str]:
    """Every way ``data`` breaks deckpress's BRF rules (empty list when none), each naming where.

    Checks: only bytes 0x20–0x5F plus CR LF and FF; CR always followed by LF; the
    file ends with a form feed; no page longer than ``lines_per_page``; no line
    longer than ``cells_per_line``; no blank page.
    """
    problems: list[str] = []
    if not data:
        return ["the file is empty"]
    clean = not data.translate(None, _ALLOWED) and data.count(b"\r") == data.count(b"\n") == data.count(CR_LF)
    for i, byte in enumerate(b"" if clean else data):
        if byte in ASCII_BRAILLE or byte == 0x0C:
            continue
        if byte == 0x0D and data[i + 1 : i + 2] == b"\n":
            continue
        if byte == 0x0A and i > 0 and data[i - 1] == 0x0D:
            continue
        problems.append(f"byte 0x{byte:02X} at offset {i} is not Braille ASCII, CR LF or form feed")
        if len(problems) >= 10:
            return problems
    if not data.endswith(FORM_FEED):
        problems.append("the file does not end with a form feed")
    try:
        pages = read_brf(data)
    except BrfFormatError as exc:
        return problems + [str(exc)]
    for p, lines in enumerate(pages, 1):
        if not any(line.strip(" ") for line in lines):
            problems.append(f"page {p} is blank")
        if len(lines) > lines_per_page:
            problems.append(f"page {p} has {len(lines)} lines, more than {lines_per_page}")
        for n, line in enumerate(lines, 1):
            if len(line) > cells_per_line:
                problems.append(f"page {p} line {n} has {len(line)} cells, more than {cells_per_line}")
    return problems

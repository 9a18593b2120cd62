"""8-bit PNG files written straight from the pixels: opaque RGB (the proofs and the
archive's card faces) and grey (the UV height maps).

Pillow's PNG encoder picks a row filter for every row by trying all five (libpng's heuristic);
that search is ~85 % of its time and Pillow cannot switch it off (issue 22, docs/speed.md).
This writer gives every row filter type 0 ("None", PNG spec §9.2: the row's bytes as they are)
and deflates the RGB rows with ISA-L's igzip at level 1 (the ``isal`` package, :data:`RGB_LEVEL`), the
grey ones with zlib (below). The faces and proofs used libdeflate (the ``deflate`` package) before
(issue 22, docs/speed.md "Sixteenth round"): 258 archive faces (288 × 480 px, 60 synthetic, 198 shipped;
CPU a face, best of 5) 0.58–0.94 ms at libdeflate level 1 or 2 against 0.18–0.19 ms at ISA-L level 1,
26.4 against 27.8–28.2 KiB; before that zlib level 1 took 1.80 ms a face and Pillow's encoder 5.18 ms
(its per-row filter search, ~85 % of its time, cannot be switched off). Same pixels, same bytes on
one machine. Across machines: ISA-L picks its match finder by CPU (igzip/igzip_multibinary.asm); the
SSE4.2, AVX and AVX2 ones (AVX-512 hosts run the AVX2 one) hash with crc32c, the plain C one of a CPU
without SSE4.2 multiplicatively (``compute_hash``, igzip/huffman.h), so such a CPU or another
architecture may write other deflate blocks of the same pixels (libdeflate's did not depend on the CPU).
The file is a plain PNG (signature, IHDR, one IDAT, IEND: the chunks Pillow writes for such an image);
it decodes to exactly the pixels given. The box proofs' fronts (with transparency) are written by :func:`rgba_png` (the same
rows, colour type 6); the die previews keep Pillow's encoder (:func:`pipeline.common.raster.png_bytes`).

:func:`grey_png` writes an ``L`` image with Pillow's pHYs and text chunks, for the height maps, whose
rows are ~85 % all zero (card surface): each run of such rows is deflated once per length and reused
(RFC 1951 lets independently deflated pieces follow one another when each ends on a byte boundary, a
zlib "sync flush"), only the other rows are compressed per file.
"""

from __future__ import annotations

import struct
import zlib
from collections import OrderedDict
from functools import lru_cache
from typing import Callable, Mapping

import deflate
import numpy as np
from isal import isal_zlib
from PIL import Image

#: The zlib level of the grey height maps: 1 (fastest). Level 2 saved 2.5 % of the bytes for the same time
#: within noise; level 6 costs three times as long.
LEVEL = 1
#: ISA-L's level for the RGB and RGBA rows (0-3): 1 (level 0's static Huffman codes made the faces 18 % larger
#: for 8 % less time, level 2 was 0.7 % smaller for the same time, level 3 took 3.3 times as long; module docs).
RGB_LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC-32 of type and data (PNG spec §5.3)."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def opaque_png(image: Image.Image, level: int = RGB_LEVEL) -> bytes:
    """``image`` (mode ``RGB``, or ``RGBA`` with every alpha 255) as an 8-bit RGB PNG file (bytes).

    The alpha channel of an opaque RGBA image is not written (the proofs composite their stamps
    and dots onto an RGBA copy of an opaque page): the file decodes, with Pillow or any PNG
    reader, to the image's RGB pixels exactly. Same image, same bytes. Raises ValueError for any
    other mode and for an RGBA image with a pixel that is not opaque.
    """
    if image.mode == "RGBA":
        # the alpha band packed alone (0.1 ms a 488 × 788 proof) and its least value by numpy: 0.15 against
        # 0.46 ms for getchannel("A").getextrema() (a band image made, then scanned); getextrema() copies all four
        if np.frombuffer(image.tobytes("raw", "A"), np.uint8).min(initial=255) != 255:
            raise ValueError("opaque_png: the RGBA image has pixels that are not opaque; its alpha would be lost")
    elif image.mode != "RGB":
        raise ValueError(f"opaque_png: mode {image.mode} is not RGB or RGBA")
    width, height = image.size
    return rgb_png(np.frombuffer(image.tobytes("raw", "RGB"), np.uint8).reshape(height, width, 3), level)


def rgb_png(pixels: np.ndarray, level: int = RGB_LEVEL) -> bytes:
    """An ``(height, width, 3)`` uint8 array of RGB pixels (any strides: a view of a PDFium bitmap)
    as the 8-bit RGB PNG file :func:`opaque_png` writes for the same pixels, byte for byte, without
    a Pillow image in between. Raises ValueError for an array of another shape or type."""
    if pixels.ndim != 3 or pixels.shape[2] != 3 or pixels.dtype != np.uint8:
        raise ValueError(f"rgb_png: a {pixels.shape} {pixels.dtype} array is not (height, width, 3) uint8")
    height, width = pixels.shape[:2]
    rows = np.empty((height, 3 * width + 1), np.uint8)
    rows[:, 0] = 0  # filter type 0 on every row
    rows[:, 1:] = pixels.reshape(height, 3 * width)  # a view when each row's pixels are contiguous (a PDFium bitmap's are)
    return rgb_png_rows(rows, level)


def rgb_png_rows(rows: np.ndarray, level: int = RGB_LEVEL) -> bytes:
    """The file :func:`rgb_png` writes, from its PNG scanlines: a C-contiguous ``(height, 1 + 3 × width)``
    uint8 array, each row the filter type byte 0 then the row's RGB pixels (what
    :class:`pipeline.render.bitmaps.PageBitmaps` renders into with ``png_rows``: no copy of the pixels),
    deflated by ISA-L at ``level`` (0-3, :data:`RGB_LEVEL`). Raises ValueError for another shape, type or
    layout, or a filter byte that is not 0."""
    if rows.ndim != 2 or (rows.shape[1] - 1) % 3 or rows.dtype != np.uint8 or not rows.flags.c_contiguous:
        raise ValueError(f"rgb_png_rows: a {rows.shape} {rows.dtype} array is not C-contiguous (height, 1 + 3 × width) uint8")
    if rows[:, 0].any():
        raise ValueError("rgb_png_rows: a row's filter byte is not 0")
    height, width = rows.shape[0], (rows.shape[1] - 1) // 3
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour, deflate, filter 0, no interlace
    return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", isal_zlib.compress(rows, level)) + _chunk(b"IEND", b"")


def rgba_png(image: Image.Image, level: int = RGB_LEVEL) -> bytes:
    """``image`` (mode ``RGBA``) as an 8-bit truecolour-with-alpha PNG (colour type 6, PNG spec §11.2.2):
    every row filter 0, one IDAT deflated by ISA-L at ``level`` (as :func:`rgb_png` deflates the opaque
    proofs); it decodes to exactly these RGBA pixels. Raises ValueError for another mode."""
    if image.mode != "RGBA":
        raise ValueError(f"rgba_png: mode {image.mode} is not RGBA")
    width, height = image.size
    rows = np.empty((height, 4 * width + 1), np.uint8)
    rows[:, 0] = 0
    rows[:, 1:] = np.frombuffer(image.tobytes(), np.uint8).reshape(height, 4 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", isal_zlib.compress(rows, level)) + _chunk(b"IEND", b"")


#: zlib stream header (RFC 1950 §2.2) per level: what ``zlib.compress`` writes at that level.
_ZLIB_HEADER = {level: zlib.compress(b"", level)[:2] for level in range(10)}
#: The last deflate block (RFC 1951 §3.2.3): an empty fixed-Huffman block with BFINAL set.
_FINAL_BLOCK = b"\x03\x00"


def _deflated(data, level: int) -> bytes:
    """``data`` as raw deflate blocks (no zlib header, not final) ending on a byte boundary (``Z_SYNC_FLUSH``)."""
    compressor = zlib.compressobj(level, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)


@lru_cache(maxsize=512)
def _zeros_deflated(length: int, level: int) -> bytes:
    """:func:`_deflated` of ``length`` zero bytes, remembered: runs of blank rows recur from map to map."""
    return _deflated(bytes(length), level)


#: A run of blank rows shorter than this many bytes is deflated with its neighbours: a piece of its own
#: costs a compressor and a flush (~20 µs), deflating 8 KiB of zeros at level 1 about as much.
MIN_BLANK_RUN = 8192


def _runs(pixels: np.ndarray, blank: np.ndarray | None = None) -> list[tuple[int, int, bool]]:
    """:func:`row_runs` of ``pixels``; ``blank`` (which rows are all zero) found from the pixels when not given."""
    if blank is None:
        blank = pixels.max(axis=1) == 0 if pixels.size else np.ones(len(pixels), bool)
    return row_runs(pixels.shape[1], blank)


def row_runs(width: int, blank: np.ndarray) -> list[tuple[int, int, bool]]:
    """``(start, end, blank)`` row runs covering an image ``width`` pixels wide whose all-zero rows are ``blank``
    (a bool per row): blank runs all zero and at least :data:`MIN_BLANK_RUN` bytes (filter bytes included), the
    others between them (every row of those not blank has a pixel above 0 or lies between such rows)."""
    edges = [0, *(np.flatnonzero(blank[1:] != blank[:-1]) + 1).tolist(), len(blank)]
    shortest = -(-MIN_BLANK_RUN // (width + 1))
    runs: list[tuple[int, int, bool]] = []
    for start, end in zip(edges, edges[1:]):
        if end == start:
            continue  # no rows at all
        empty = bool(blank[start]) and end - start >= shortest
        if runs and not empty and not runs[-1][2]:
            runs[-1] = (runs[-1][0], end, False)
        else:
            runs.append((start, end, empty))
    return runs


#: Deflated runs of rows that are not blank, by ``(bytes, adler-32, level)``: the value is the rows' bytes (compared
#: on a hit, so a checksum collision cannot give another run's blocks) and their :func:`_deflated`. A height map's
#: braille lines recur from card to card (a keyword, a class name: syn2000's 9,333 runs hold 2,015 distinct, the
#: shipped games' 1,156 hold 439). Least recently used first; :data:`RUN_CACHE_BYTES` of rows at most.
_RUN_CACHE: OrderedDict[tuple[int, int, int], tuple[bytes, bytes]] = OrderedDict()
#: The rows' bytes the cache holds at most (~115 runs of a 150 dpi map's braille line, 17.6 kB each). The height
#: maps remember their runs by their dots (:mod:`pipeline.render.uv.heightmap`): this one serves other callers.
RUN_CACHE_BYTES = 2 << 20
_cached_bytes = [0]


def run_deflated(rows: np.ndarray, level: int = LEVEL, remember: bool = True) -> tuple[bytes, int]:
    """:func:`_deflated` of ``rows`` (2-D uint8, each row's filter byte first) and their adler-32 (from 1, RFC 1950 §8.2),
    from :data:`_RUN_CACHE` when seen before (and left there unless ``remember`` is False: a caller keeping
    its own): a run's piece for :func:`grey_png_of_runs`."""
    data = rows.tobytes()
    adler = deflate.adler32(data)  # libdeflate's: the same checksum, 0.3 against zlib's 5.3 µs for 17.6 kB
    key = (len(data), adler, level)
    hit = _RUN_CACHE.get(key)
    if hit is not None and hit[0] == data:
        _RUN_CACHE.move_to_end(key)
        return hit[1], adler
    deflated = _deflated(data, level)
    if remember and hit is None and len(data) <= RUN_CACHE_BYTES:
        _RUN_CACHE[key] = (data, deflated)
        _cached_bytes[0] += len(data)
        while _cached_bytes[0] > RUN_CACHE_BYTES:
            _cached_bytes[0] -= len(_RUN_CACHE.popitem(last=False)[1][0])
    return deflated, adler


def _adler_combine(first: int, second: int, length: int) -> int:
    """The adler-32 of two pieces one after the other from theirs (``second``'s over ``length`` bytes, from 1):
    ``a = a1 + a2 - 1``, ``b = b1 + b2 + length · (a1 - 1)`` modulo 65521 (RFC 1950 §8.2; zlib's adler32_combine)."""
    a1, b1, a2, b2 = first & 0xFFFF, first >> 16, second & 0xFFFF, second >> 16
    return ((b1 + b2 + length * (a1 - 1)) % 65521) << 16 | (a1 + a2 - 1) % 65521


def _zlib_rows(pixels: np.ndarray, level: int, blank: np.ndarray | None = None) -> bytes:
    """The zlib stream (RFC 1950) of ``pixels``' rows (2-D uint8), each prefixed with filter type 0 (:func:`_zlib_runs`)."""
    width = pixels.shape[1] + 1

    def deflated(start: int, end: int) -> tuple[bytes, int]:
        rows = np.zeros((end - start, width), np.uint8)
        rows[:, 1:] = pixels[start:end]
        return run_deflated(rows, level)

    return _zlib_runs(pixels.shape[1], _runs(pixels, blank), deflated, level)


def _zlib_runs(width: int, runs: list[tuple[int, int, bool]], deflated: Callable[[int, int], tuple[bytes, int]],
               level: int) -> bytes:
    """The zlib stream (RFC 1950) of rows ``width`` pixels wide in ``runs`` (:func:`row_runs`): each blank run from
    :func:`_zeros_deflated`, each other from ``deflated(start, end)`` (:func:`run_deflated` of its rows); the adler-32
    (RFC 1950 §8.2) of a blank run worked out (``a`` stays, ``b`` grows by ``n · a``), of the rest combined."""
    width += 1
    pieces, adler = [_ZLIB_HEADER[level]], 1
    for start, end, empty in runs:
        if empty:
            pieces.append(_zeros_deflated((end - start) * width, level))
            a, b = adler & 0xFFFF, adler >> 16
            adler = ((b + (end - start) * width * a) % 65521) << 16 | a
        else:
            blocks, own = deflated(start, end)
            pieces.append(blocks)
            adler = _adler_combine(adler, own, (end - start) * width)
    pieces += [_FINAL_BLOCK, struct.pack(">I", adler)]
    return b"".join(pieces)


def grey_png(image: Image.Image | np.ndarray, dpi: int | None = None, text: Mapping[str, str] | None = None,
             level: int = LEVEL, blank_rows: np.ndarray | None = None) -> bytes:
    """``image`` (a Pillow ``L`` image or a 2-D uint8 array, row 0 at the top) as an 8-bit grey PNG file.

    ``dpi`` gives a pHYs chunk in pixels a metre, ``int(dpi / 0.0254 + 0.5)`` as Pillow writes it
    (Pillow reads it back as ``info["dpi"]``: 150.0124 for 150, as from its own files); each ``text`` entry a tEXt chunk
    (Latin-1), or an iTXt chunk (UTF-8, no language) when the value is not Latin-1, as Pillow's
    ``PngInfo.add_text`` does. Chunks in Pillow's order: IHDR, text, pHYs, IDAT, IEND. Every row has
    filter type 0; the file decodes to exactly the pixels given; same pixels and chunks, same bytes.
    ``blank_rows``: a bool per row, True for a row the caller knows is all zero (and False for every other: the
    height maps know it from where their dots were drawn, :mod:`pipeline.render.uv.heightmap`); without it, found
    from the pixels (a scan of the whole image, ~50 µs a 488 × 788 map). The same bytes either way when it is right.
    Raises ValueError for an image of another mode or an array that is not 2-D uint8, and for a key that is not Latin-1 (1-79 characters).
    """
    if isinstance(image, Image.Image):
        if image.mode != "L":
            raise ValueError(f"grey_png: mode {image.mode} is not L")
        pixels = np.asarray(image)
    else:
        pixels = image
    if pixels.ndim != 2 or pixels.dtype != np.uint8:
        raise ValueError(f"grey_png: a {pixels.ndim}-D {pixels.dtype} array is not an 8-bit grey image")
    height, width = pixels.shape
    return _grey_file(width, height, _zlib_rows(pixels, level, blank_rows), dpi, text)


def grey_png_of_runs(width: int, height: int, blank: np.ndarray, deflated: Callable[[int, int], tuple[bytes, int]],
                     dpi: int | None = None, text: Mapping[str, str] | None = None, level: int = LEVEL) -> bytes:
    """The file :func:`grey_png` writes for a ``width`` × ``height`` image whose all-zero rows are ``blank`` (a bool
    per row, as its ``blank_rows``), from the caller's pieces: ``deflated(start, end)`` gives, for each run of rows
    not blank (:func:`row_runs`), :func:`run_deflated` of those rows (each prefixed with its filter byte 0), e.g.
    remembered by what drew them (:mod:`pipeline.render.uv.heightmap`: the dots). Same pieces, same bytes."""
    return _grey_file(width, height, _zlib_runs(width, row_runs(width, blank), deflated, level), dpi, text)


def _grey_file(width: int, height: int, idat: bytes, dpi: int | None, text: Mapping[str, str] | None) -> bytes:
    """The PNG file of an 8-bit grey image around its zlib stream ``idat`` (chunks as :func:`grey_png` says)."""
    chunks = [_SIGNATURE, _chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))]  # 8 bits, grey
    for key, value in (text or {}).items():
        chunks.append(_text_chunk(key, value))
    if dpi is not None:
        per_metre = int(dpi / 0.0254 + 0.5)
        chunks.append(_chunk(b"pHYs", struct.pack(">IIB", per_metre, per_metre, 1)))  # unit 1: the metre
    chunks += [_chunk(b"IDAT", idat), _chunk(b"IEND", b"")]
    return b"".join(chunks)


def _text_chunk(key: str, value: str) -> bytes:
    """A tEXt chunk (PNG spec §11.3.4.3), or iTXt (§11.3.4.5, uncompressed) for a value that is not Latin-1."""
    try:
        name = key.encode("latin-1")
    except UnicodeEncodeError:
        name = b""
    if not 1 <= len(name) <= 79:
        raise ValueError(f"grey_png: text key {key!r} is not 1-79 Latin-1 characters")
    try:
        return _chunk(b"tEXt", name + b"\0" + value.encode("latin-1"))
    except UnicodeEncodeError:
        return _chunk(b"iTXt", name + b"\0\0\0\0\0" + value.encode("utf-8"))

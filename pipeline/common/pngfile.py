"""Opaque 8-bit RGB PNG files written straight from the pixels with zlib: the encoder of the proofs
and the archive's card faces.

Pillow's PNG encoder picks a row filter for every row by trying all five (libpng's heuristic);
that search is ~85 % of its time and Pillow cannot switch it off (issue 22, docs/speed.md).
This writer gives every row filter type 0 ("None", PNG spec §9.2: the row's bytes as they are)
and deflates the rows with zlib at level 1. Measured on the shipped games' proofs (488 × 788 px,
interleaved, best of 3): 4.8–5.1 ms and 57–63 KiB a file against Pillow's (level 1, ``Z_RLE``)
~15 ms and 68–75 KiB; on a card with photographic art 13 ms and 248 KiB against 21 ms and
195 KiB (filter "None" compresses noise worse than an adaptive filter). The file is a plain
PNG (signature, IHDR, one IDAT, IEND: the chunks Pillow writes for such an image); it decodes
to exactly the pixels given. The archive's faces (288 × 480 px, the shipped games' 198, best of 3):
1.96 ms and 25.6 KiB a file against Pillow's 5.18 ms and 34.3 KiB, pixel-identical. The other
PNGs of the build (box proofs, some with transparency; height maps; die previews) keep Pillow's
encoder (:func:`pipeline.common.raster.png_bytes`).
"""

from __future__ import annotations

import struct
import zlib

import numpy as np
from PIL import Image

#: The zlib level: 1 (fastest). Level 2 saved 2.5 % of the bytes for the same time within noise;
#: level 6 costs three times as long.
LEVEL = 1
_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, type, data, CRC-32 of type and data (PNG spec §5.3)."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def opaque_png(image: Image.Image, level: int = LEVEL) -> bytes:
    """``image`` (mode ``RGB``, or ``RGBA`` with every alpha 255) as an 8-bit RGB PNG file (bytes).

    The alpha channel of an opaque RGBA image is not written (the proofs composite their stamps
    and dots onto an RGBA copy of an opaque page): the file decodes, with Pillow or any PNG
    reader, to the image's RGB pixels exactly. Same image, same bytes. Raises ValueError for any
    other mode and for an RGBA image with a pixel that is not opaque.
    """
    if image.mode == "RGBA":
        if image.getchannel("A").getextrema()[0] != 255:  # one band (getextrema() copies all four)
            raise ValueError("opaque_png: the RGBA image has pixels that are not opaque; its alpha would be lost")
    elif image.mode != "RGB":
        raise ValueError(f"opaque_png: mode {image.mode} is not RGB or RGBA")
    width, height = image.size
    rows = np.empty((height, 3 * width + 1), np.uint8)
    rows[:, 0] = 0  # filter type 0 on every row
    rows[:, 1:] = np.frombuffer(image.tobytes("raw", "RGB"), np.uint8).reshape(height, 3 * width)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits, truecolour, deflate, filter 0, no interlace
    return _SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, level)) + _chunk(b"IEND", b"")

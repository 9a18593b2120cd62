"""The proofs' PNG writer (pipeline/common/pngfile.py): the file decodes to exactly the pixels given,
every row has filter type 0, the same image gives the same bytes, and what it cannot write is refused."""

from __future__ import annotations

import io
import struct
import zlib

import numpy as np
import pytest
from PIL import Image

from pipeline.common.pngfile import opaque_png


def _chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    out, i = [], 8
    while i < len(data):
        (length,) = struct.unpack(">I", data[i:i + 4])
        kind, body = data[i + 4:i + 8], data[i + 8:i + 8 + length]
        assert struct.unpack(">I", data[i + 8 + length:i + 12 + length])[0] == zlib.crc32(kind + body)
        out.append((kind, body))
        i += 12 + length
    return out


def _card_like(seed: int = 0) -> np.ndarray:
    """A 488 × 788 picture with flat grounds, hard edges and a noisy patch (like art on a card)."""
    rng = np.random.default_rng(seed)
    a = np.full((788, 488, 3), (135, 65, 37), np.uint8)
    a[40:750, 40:448] = (250, 246, 240)
    a[200:500, 60:420] = rng.integers(0, 256, (300, 360, 3), dtype=np.uint8)
    return a


@pytest.mark.parametrize("mode", ["RGB", "RGBA"])
def test_decodes_to_the_same_pixels(mode):
    pixels = _card_like()
    image = Image.fromarray(pixels).convert(mode)
    with Image.open(io.BytesIO(opaque_png(image))) as decoded:
        assert decoded.mode == "RGB" and decoded.size == (488, 788)
        assert np.array_equal(np.asarray(decoded), pixels)


def test_chunks_header_and_row_filters():
    data = opaque_png(Image.fromarray(_card_like(1)))
    chunks = _chunks(data)
    assert [k for k, _ in chunks] == [b"IHDR", b"IDAT", b"IEND"]
    # width, height, 8 bits a sample, colour type 2 (truecolour), deflate, filter method 0, no interlace
    assert struct.unpack(">IIBBBBB", chunks[0][1]) == (488, 788, 8, 2, 0, 0, 0)
    rows = np.frombuffer(zlib.decompress(chunks[1][1]), np.uint8).reshape(788, 3 * 488 + 1)
    assert not rows[:, 0].any()  # filter type 0 ("None") on every row
    assert np.array_equal(rows[:, 1:].reshape(788, 488, 3), _card_like(1))


def test_same_image_same_bytes():
    a, b = Image.fromarray(_card_like(2)), Image.fromarray(_card_like(2))
    assert opaque_png(a) == opaque_png(b)
    assert opaque_png(a) != opaque_png(Image.fromarray(_card_like(3)))


def test_translucent_and_other_modes_are_refused():
    rgba = Image.fromarray(_card_like()).convert("RGBA")
    rgba.putpixel((5, 7), (10, 20, 30, 254))
    with pytest.raises(ValueError, match="not opaque"):
        opaque_png(rgba)
    with pytest.raises(ValueError, match="mode L"):
        opaque_png(Image.new("L", (4, 4), 9))

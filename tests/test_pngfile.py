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


def _height_map_like(seed: int = 0) -> np.ndarray:
    """A 488 × 788 grey map: mostly 0, a band of domes, one lone bright row and a speck near the bottom."""
    rng = np.random.default_rng(seed)
    a = np.zeros((788, 488), np.uint8)
    a[300:420:7, 40:440] = rng.integers(0, 256, (18, 400), dtype=np.uint8)
    a[100, 5] = 255
    a[787, 487] = 1
    return a


def test_grey_png_decodes_to_the_same_pixels_with_pillows_chunks():
    from PIL import PngImagePlugin

    from pipeline.common.pngfile import grey_png

    pixels = _height_map_like()
    text = "height map of card c1; grey 255 = 0.48 mm"
    data = grey_png(pixels, 150, {"deckpress": text})
    info = PngImagePlugin.PngInfo()
    info.add_text("deckpress", text)
    buf = io.BytesIO()
    Image.fromarray(pixels, "L").save(buf, "PNG", dpi=(150, 150), pnginfo=info, compress_level=1)
    ours, pillows = _chunks(data), _chunks(buf.getvalue())
    assert [k for k, _ in ours] == [k for k, _ in pillows] == [b"IHDR", b"tEXt", b"pHYs", b"IDAT", b"IEND"]
    assert [b for k, b in ours if k != b"IDAT"] == [b for k, b in pillows if k != b"IDAT"]
    assert struct.unpack(">IIBBBBB", ours[0][1]) == (488, 788, 8, 0, 0, 0, 0)  # 8-bit grey
    assert struct.unpack(">IIB", ours[2][1]) == (5906, 5906, 1)  # 150 dpi in pixels a metre
    rows = np.frombuffer(zlib.decompress(ours[3][1]), np.uint8).reshape(788, 489)  # zlib checks the adler-32
    assert not rows[:, 0].any() and np.array_equal(rows[:, 1:], pixels)
    with Image.open(io.BytesIO(data)) as decoded:
        assert decoded.mode == "L" and np.array_equal(np.asarray(decoded), pixels)
        assert decoded.info == {"deckpress": text, "dpi": pytest.approx((150.0124, 150.0124))}


def test_grey_png_blank_runs_and_odd_shapes():
    from pipeline.common.pngfile import MIN_BLANK_RUN, grey_png

    tall = np.zeros((4 * MIN_BLANK_RUN, 3), np.uint8)  # long blank runs of every length around one lit row
    for lit in (0, 1, 17, 4 * MIN_BLANK_RUN - 1):
        image = tall.copy()
        image[lit] = (9, 0, 200)
        assert np.array_equal(np.asarray(Image.open(io.BytesIO(grey_png(image)))), image)
    for image in (np.zeros((5, 7), np.uint8), np.full((3, 4), 255, np.uint8), _height_map_like(2)[:, :1]):
        assert np.array_equal(np.asarray(Image.open(io.BytesIO(grey_png(Image.fromarray(image, "L"))))), image)
    assert grey_png(_height_map_like(1)) == grey_png(_height_map_like(1)) != grey_png(_height_map_like(2))


def test_grey_png_text_and_refusals():
    from pipeline.common.pngfile import grey_png

    data = grey_png(np.zeros((2, 2), np.uint8), None, {"Comment": "carte n° 1", "Title": "braille ⠃"})
    assert [k for k, _ in _chunks(data)] == [b"IHDR", b"tEXt", b"iTXt", b"IDAT", b"IEND"]  # Latin-1 fits tEXt; no pHYs
    with Image.open(io.BytesIO(data)) as decoded:
        assert decoded.info == {"Comment": "carte n° 1", "Title": "braille ⠃"}
    with pytest.raises(ValueError, match="mode RGB"):
        grey_png(Image.new("RGB", (2, 2)))
    with pytest.raises(ValueError, match="3-D uint8"):
        grey_png(np.zeros((2, 2, 3), np.uint8))
    with pytest.raises(ValueError, match="text key"):
        grey_png(np.zeros((2, 2), np.uint8), text={"": "x"})


def test_rgb_png_of_an_array_is_the_file_opaque_png_writes_for_its_image():
    from pipeline.common.pngfile import rgb_png

    pixels = _card_like(3)
    assert rgb_png(pixels) == opaque_png(Image.fromarray(pixels, "RGB"))
    padded = np.zeros((788, 500, 3), np.uint8)  # rows with bytes past the pixels, like a bitmap's stride
    padded[:, :488] = pixels
    assert rgb_png(padded[:, :488]) == rgb_png(pixels)
    with Image.open(io.BytesIO(rgb_png(padded[:, :488]))) as im:
        assert np.array_equal(np.asarray(im), pixels)
    with pytest.raises(ValueError, match="not \\(height, width, 3\\) uint8"):
        rgb_png(pixels[:, :, 0])


def test_rgb_png_rows_is_rgb_pngs_file_and_refuses_rows_that_are_not_scanlines():
    """rgb_png_rows takes the scanlines rgb_png builds (the reference: rgb_png's file, decoded by Pillow too)."""
    from pipeline.common.pngfile import rgb_png, rgb_png_rows

    pixels = _card_like(3)
    rows = np.zeros((788, 1 + 3 * 488), np.uint8)
    rows[:, 1:] = pixels.reshape(788, -1)
    assert rgb_png_rows(rows) == rgb_png(pixels)
    with Image.open(io.BytesIO(rgb_png_rows(rows))) as im:
        assert im.mode == "RGB" and np.array_equal(np.asarray(im), pixels)
    for bad in (rows[:, :-1], rows[:, ::2], rows.astype(np.uint16)):
        with pytest.raises(ValueError, match="not C-contiguous"):
            rgb_png_rows(bad)
    rows[7, 0] = 1
    with pytest.raises(ValueError, match="filter byte"):
        rgb_png_rows(rows)


def test_rgb_rows_are_isal_level_1_and_every_level_inflates_to_the_rows_given():
    """The RGB rows are deflated by ISA-L (issue 22), level 1: the IDAT is a zlib stream whose header is 78 5e
    (RFC 1950 §2.2, FLEVEL 1, "fast"; ISA-L writes it at levels 1-3 and 78 01 at level 0); the references for the
    pixels are zlib's own inflate of the IDAT and Pillow's decoder, both independent of the writer. The same
    rows at another address (a copy) give the same bytes, so a file depends on the pixels alone."""
    import zlib

    from pipeline.common.pngfile import RGB_LEVEL, rgb_png_rows

    def scanlines(pixels):
        rows = np.zeros((len(pixels), 1 + pixels.shape[1] * 3), np.uint8)
        rows[:, 1:] = pixels.reshape(len(pixels), -1)
        return rows

    def idat(data):
        length = int.from_bytes(data[33:37], "big")  # after the signature (8) and IHDR (25)
        assert data[37:41] == b"IDAT"
        return data[41:41 + length]

    white = np.full((480, 288, 3), 255, np.uint8)
    white[100:140, 20:260] = (40, 40, 40)
    brown = np.empty_like(white)
    brown[...] = (140, 60, 40)
    assert RGB_LEVEL == 1
    for pixels in (white, brown, _card_like(5)):
        rows = scanlines(pixels)
        data = rgb_png_rows(rows)
        assert idat(data)[:2] == b"\x78\x5e" and zlib.decompress(idat(data)) == rows.tobytes()
        assert rgb_png_rows(rows.copy()) == data
        for level in (0, 2, 3):
            other = rgb_png_rows(rows, level)
            assert zlib.decompress(idat(other)) == rows.tobytes()
            with Image.open(io.BytesIO(other)) as im:
                assert im.mode == "RGB" and np.array_equal(np.asarray(im), pixels)
    # the white face with a grey band: 415,200 bytes of rows in a 2,733-byte file at level 1 (5,550 at level 0,
    # whose static Huffman codes cannot shorten the long runs' codes; measured once with ISA-L 1.9.1)
    assert [len(rgb_png_rows(scanlines(white), level)) for level in (0, 1)] == [5550, 2733]

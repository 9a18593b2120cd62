"""The grey PNG writer's remembered runs (pipeline.common.pngfile, issue 22): the bytes a cold encoder
writes, a checksum collision not used, and the adler-32 arithmetic against zlib's (the references)."""

from __future__ import annotations

import io
import zlib

import numpy as np
from PIL import Image

from test_pngfile import _height_map_like


def test_grey_png_remembered_runs_give_the_bytes_of_a_cold_encoder(monkeypatch):
    """The run cache (issue 22) against the same encoder with an empty cache that keeps nothing (the reference):
    the same bytes for maps sharing rows, and a planted entry under a run's key with other rows is not used."""
    from pipeline.common import pngfile

    maps = [_height_map_like(seed % 3) for seed in range(6)]  # each map's band seen twice
    warm = [pngfile.grey_png(m, 150) for m in maps]
    monkeypatch.setattr(pngfile, "_RUN_CACHE", pngfile.OrderedDict())
    monkeypatch.setattr(pngfile, "RUN_CACHE_BYTES", 0)
    cold = [pngfile.grey_png(m, 150) for m in maps]
    assert warm == cold and len(pngfile._RUN_CACHE) == 0
    rows = np.zeros((3, 5), np.uint8)
    rows[:, 1:] = 7
    key = (rows.size, zlib.adler32(rows.tobytes()), 1)
    pngfile._RUN_CACHE[key] = (b"other rows", pngfile._deflated(bytes(rows.size), 1))  # a checksum collision
    data = pngfile.grey_png(np.full((3, 4), 7, np.uint8))
    assert np.array_equal(np.asarray(Image.open(io.BytesIO(data))), np.full((3, 4), 7, np.uint8))


def test_adler_combine_is_the_adler_of_the_joined_bytes():
    """_adler_combine against zlib.adler32 of the concatenation (the reference), over lengths past 65521."""
    from pipeline.common.pngfile import _adler_combine

    rng = np.random.default_rng(5)
    for n1, n2 in ((0, 5), (1, 0), (70000, 3), (9, 200000)):
        first, second = rng.integers(0, 256, n1, dtype=np.uint8).tobytes(), rng.integers(0, 256, n2, dtype=np.uint8).tobytes()
        assert _adler_combine(zlib.adler32(first), zlib.adler32(second), n2) == zlib.adler32(first + second)


def test_libdeflates_adler32_is_zlibs():
    """The run cache's checksum (libdeflate's adler32) against zlib.adler32, the reference, zeros and noise."""
    import deflate

    rng = np.random.default_rng(9)
    for data in (b"", bytes(17604), rng.integers(0, 256, 200003, dtype=np.uint8).tobytes()):
        assert deflate.adler32(data) == zlib.adler32(data)

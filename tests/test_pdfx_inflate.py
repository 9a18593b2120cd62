"""The PDF/X check's content reader (:func:`pipeline.render.pdfx_content.decoded_bytes`, issue 22) gives what
qpdf's ``read_bytes`` gives, the reference here, for every stream: Flate streams it inflates with
libdeflate, and the ones it leaves to qpdf (other filters, DecodeParms, damaged or odd data)."""

from __future__ import annotations

import random
import zlib

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from pipeline.render import pdfx_content
from pipeline.render.pdfx_content import decoded_bytes

CONTENT = b"q 0 0 0 1 k 0 0 50 50 re f BT /F1 12 Tf (Fire Surge) Tj ET Q\n" * 40


_HELD: list[pikepdf.Pdf] = []  # the streams' documents, alive while the tests read them


def _stream(raw: bytes, **keys) -> pikepdf.Stream:
    pdf = pikepdf.new()
    _HELD.append(pdf)
    stream = pikepdf.Stream(pdf, raw)
    for key, value in keys.items():
        stream[f"/{key}"] = value
    return pdf.make_indirect(stream)


def _reference(stream) -> bytes | type:
    """qpdf's decoded bytes, or the exception class it raises."""
    try:
        return bytes(stream.read_bytes())
    except Exception as exc:  # noqa: BLE001 (whatever qpdf raises, the reader must raise it too)
        return type(exc)


def _read(stream) -> bytes | type:
    try:
        return decoded_bytes(stream)
    except Exception as exc:  # noqa: BLE001
        return type(exc)


def _dictionary_zlib(data: bytes) -> bytes:
    """A zlib stream with a preset dictionary (FDICT), which PDF readers cannot inflate."""
    c = zlib.compressobj(zdict=b"0 0 0 1 k")
    return c.compress(data) + c.flush()


GOOD = zlib.compress(CONTENT)
CASES = {
    "flate": (GOOD, dict(Filter=Name.FlateDecode)),
    "flate level 1": (zlib.compress(CONTENT, 1), dict(Filter=Name.FlateDecode)),
    "flate in an array": (GOOD, dict(Filter=Array([Name.FlateDecode]))),
    "empty": (zlib.compress(b""), dict(Filter=Name.FlateDecode)),
    "ratio over 8": (zlib.compress(b" " * 200_000), dict(Filter=Name.FlateDecode)),
    "trailing bytes": (GOOD + b"\r\n\r\n", dict(Filter=Name.FlateDecode)),
    "truncated": (GOOD[:-20], dict(Filter=Name.FlateDecode)),
    "no checksum": (GOOD[:-4], dict(Filter=Name.FlateDecode)),
    "wrong checksum": (GOOD[:-1] + bytes([GOOD[-1] ^ 1]), dict(Filter=Name.FlateDecode)),
    "preset dictionary": (_dictionary_zlib(CONTENT), dict(Filter=Name.FlateDecode)),
    "not zlib": (b"q 0 0 0 1 k Q", dict(Filter=Name.FlateDecode)),
    "predictor": (GOOD, dict(Filter=Name.FlateDecode, DecodeParms=Dictionary(Predictor=1))),
    "two filters": (zlib.compress(CONTENT.hex().encode() + b">"), dict(Filter=Array([Name.FlateDecode, Name.ASCIIHexDecode]))),
    "hex": (CONTENT.hex().encode() + b">", dict(Filter=Name.ASCIIHexDecode)),
    "unfiltered": (CONTENT, {}),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_reader_gives_what_qpdf_gives(case):
    raw, keys = CASES[case]
    stream = _stream(raw, **keys)
    assert _read(stream) == _reference(stream)


def test_flate_streams_are_inflated_without_qpdf(monkeypatch):
    stream = _stream(GOOD, Filter=Name.FlateDecode)
    calls = []
    read = pikepdf.Object.read_bytes
    monkeypatch.setattr(pikepdf.Object, "read_bytes", lambda self, *a, **k: calls.append(1) or read(self, *a, **k))
    assert decoded_bytes(stream) == CONTENT
    assert calls == []
    assert decoded_bytes(_stream(GOOD[:-4], Filter=Name.FlateDecode)) == bytes(read(_stream(GOOD[:-4], Filter=Name.FlateDecode)))
    assert calls == [1]  # refused by libdeflate: read by qpdf


def test_a_large_raw_stream_is_left_to_qpdf(monkeypatch):
    data = random.Random(22).randbytes(pdfx_content.INFLATE_MAX_RAW + 1000)  # incompressible: raw over the limit
    stream = _stream(zlib.compress(data), Filter=Name.FlateDecode)
    monkeypatch.setattr(pdfx_content.deflate, "zlib_decompress", lambda *a: pytest.fail("inflated a large stream"))
    assert decoded_bytes(stream) == data


def test_finished_card_pages_read_the_same(tmp_path):
    """Every content stream of a reportlab card PDF finished by deckpress (compressed by its finish)."""
    from pipeline.render.fonts import face
    from pipeline.render.pdfx import finish
    from reportlab.pdfgen.canvas import Canvas
    import io

    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(100, 100), invariant=1, initialFontName=face("regular").name)
    for n in range(3):
        canvas.setBleedBox((0, 0, 100, 100))
        canvas.setTrimBox((0, 0, 100, 100))
        canvas.setFillColorCMYK(0, 0, 0, n / 3)
        canvas.rect(10 * n, 10, 50, 50, fill=1)
        canvas.showPage()
    canvas.save()
    path = finish(buf.getvalue(), tmp_path / "cards.pdf", "cards", ["a", "b", "c"])
    with pikepdf.open(path) as pdf:
        streams = [page.obj.Contents for page in pdf.pages]
        assert all(s.Filter == Name.FlateDecode for s in streams)
        assert [decoded_bytes(s) for s in streams] == [bytes(s.read_bytes()) for s in streams]

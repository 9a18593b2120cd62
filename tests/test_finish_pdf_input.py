"""finish() takes a pikepdf.Pdf as well as bytes (issue 22): a caller holding the Pdf, e.g. after
register_ocgs, hands it on with no save and re-parse between. Read back with pikepdf."""

from __future__ import annotations

import io

import pikepdf
import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.render.fonts import face
from pipeline.render.pdfx import PdfxError, check_pdfx, finish
from pipeline.render.uv.ocg import mark_pages, mark_pdf_bytes, processing_steps_by_page, register_ocgs_bytes


def _pages(n: int = 2, rgb: bool = False) -> bytes:
    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(234, 378), invariant=1, initialFontName=face("regular").name)
    for i in range(n):
        c.setBleedBox((0, 0, 234, 378))
        c.setTrimBox((9, 9, 225, 369))
        c.setFillColorRGB(1, 0, 0) if rgb else c.setFillColorCMYK(0, 0, 0, 1)
        c.drawString(20, 20, f"card {i}")
        c.showPage()
    c.save()
    return buf.getvalue()


def test_a_pdf_given_open_is_written_as_its_bytes_would_be(tmp_path):
    for name, data in (("x1a", _pages()), ("x4", mark_pdf_bytes(_pages()))):
        from_bytes = finish(data, tmp_path / f"{name}-bytes.pdf", "fronts", ["a", "b"], subject="2 fronts")
        with pikepdf.open(io.BytesIO(data)) as pdf:
            from_pdf = finish(pdf, tmp_path / f"{name}-pdf.pdf", "fronts", ["a", "b"], subject="2 fronts", seed=data)
        assert from_pdf.read_bytes() == from_bytes.read_bytes()


def test_register_then_finish_without_a_round_trip_gives_the_same_file_but_its_document_id(tmp_path):
    data = _pages()
    via_bytes = finish(register_ocgs_bytes(mark_pdf_bytes(data)), tmp_path / "bytes.pdf", "layer", ["a", "b"])
    with pikepdf.open(io.BytesIO(data)) as pdf:
        mark_pages(pdf)  # marks the pages and registers the group (register_ocgs)
        direct = finish(pdf, tmp_path / "pdf.pdf", "layer", ["a", "b"])
    with pikepdf.open(via_bytes) as a, pikepdf.open(direct) as b:
        assert check_pdfx(b) == [] and str(b.docinfo["/GTS_PDFXVersion"]) == "PDF/X-4" and b.pdf_version == "1.6"
        assert processing_steps_by_page(a) == processing_steps_by_page(b) == [["Braille"], ["Braille"]]
        assert {str(k): str(v) for k, v in a.docinfo.items()} == {str(k): str(v) for k, v in b.docinfo.items()}
        assert [p.obj.Contents.read_bytes() for p in a.pages] == [p.obj.Contents.read_bytes() for p in b.pages]
        assert [[float(v) for v in p.obj.TrimBox] for p in a.pages] == [[float(v) for v in p.obj.TrimBox] for p in b.pages]
        xa, xb = a.Root.Metadata.read_bytes(), b.Root.Metadata.read_bytes()
        assert xa != xb and xa.split(b"<xmpMM:DocumentID>")[0] == xb.split(b"<xmpMM:DocumentID>")[0]  # its seed differs


def test_a_pdf_given_open_is_checked_like_bytes(tmp_path):
    with pikepdf.open(io.BytesIO(_pages(rgb=True))) as pdf, pytest.raises(PdfxError, match="RGB colour operator rg"):
        finish(pdf, tmp_path / "rgb.pdf", "rgb", ["a", "b"])
    assert list(tmp_path.iterdir()) == []
    with pikepdf.open(io.BytesIO(_pages())) as pdf, pytest.raises(ValueError, match="1 page labels for 2 pages"):
        finish(pdf, tmp_path / "short.pdf", "short", ["a"])

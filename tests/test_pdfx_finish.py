"""pdfx.finish's own shortcuts give what the library calls they replace give (pipeline/render/pdfx.py)."""

from __future__ import annotations

import io

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from pipeline.render.pdfx import _outline


def _pages(n: int, old_outline: bool = False) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    for _ in range(n):
        pdf.add_blank_page()
    if old_outline:
        with pdf.open_outline() as outline:
            outline.root.extend(pikepdf.OutlineItem(f"old {i}", i) for i in range(n))
        pdf.Root.Outlines.Extra = Name.Kept
    return pdf


def _saved(pdf: pikepdf.Pdf) -> bytes:
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return out.getvalue()


def _by_pikepdf(pdf: pikepdf.Pdf, labels: list[str]) -> None:
    """What finish() did before it built the outline itself."""
    pages = [page.obj for page in pdf.pages]
    with pdf.open_outline() as outline:
        outline.root.clear()
        outline.root.extend(pikepdf.OutlineItem(label, Array([page, Name.Fit])) for page, label in zip(pages, labels))


@pytest.mark.parametrize("labels", [[], ["only"], ["ember-1", "ember-2", "back"], ["é €", "x" * 300, "(paren\\", "b"]])
@pytest.mark.parametrize("old", [False, True])
def test_outline_saves_the_bytes_pikepdf_writes(labels, old):
    mine, theirs = _pages(len(labels), old), _pages(len(labels), old)
    _outline(mine, labels)
    _by_pikepdf(theirs, labels)
    assert _saved(mine) == _saved(theirs)
    with pikepdf.open(io.BytesIO(_saved(mine))) as back:
        items = back.open_outline().root
        assert [str(i.title) for i in items] == labels
        assert [i.destination[0].objgen for i in items] == [p.obj.objgen for p in back.pages]
        assert str(back.Root.Outlines.get("/Extra", "")) == ("/Kept" if old else "")
        assert int(back.Root.Outlines.get("/Count", 0)) == len(labels)


def _x4_saved(info: dict[str, str], fix: bool) -> tuple[bytes, bool]:
    from pipeline.render.pdfx4 import sync_xmp

    pdf = pikepdf.new()
    pdf.add_blank_page()
    for key, value in info.items():
        pdf.docinfo[Name(key)] = pikepdf.String(value)
    settled = sync_xmp(pdf, b"seed")
    out = io.BytesIO()
    pdf.save(out, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable, force_version="1.6",
             fix_metadata_version=fix)
    return out.getvalue(), settled


_TEXTS = ["", "Apprentice ICG: fronts", "a & b < c > d \"q\" 'a'", "é ñ € 漢字 🂡", "tab\there\nnew line", "  spaced  ",
          "]]> --> <!-- &amp;", "DRAFT - not for press (run 1: 3 provisional cards); unspecified"]


@pytest.mark.parametrize("text", _TEXTS)
@pytest.mark.parametrize("keys", [("/Title",), ("/Title", "/Author", "/Subject", "/Creator", "/Producer"), ()])
def test_xmp_packet_is_what_pikepdf_would_save(text, keys):
    """Saved without pikepdf's re-serialising (fix_metadata_version=False), a settled packet gives the
    bytes the re-serialising save gives; the empty text of a key present included (lxml's <a/>)."""
    info = {key: text for key in keys}
    fixed, _ = _x4_saved(info, True)
    kept, settled = _x4_saved(info, False)
    assert settled
    assert kept == fixed


@pytest.mark.parametrize("text", ["carriage\rreturn", "crlf\r\n", "bell\x07", "nul\x00"])
def test_xmp_packet_with_text_xml_reads_otherwise_is_left_to_pikepdf(text):
    from pipeline.render.pdfx4 import settled_packet, xmp_packet

    pdf = pikepdf.new()
    pdf.docinfo[Name.Title] = pikepdf.String(text)
    assert not settled_packet(xmp_packet(pdf.docinfo, "uuid:x"))


def test_finish_saves_x4_as_the_reserialising_save_did(tmp_path, monkeypatch):
    """A PDF/X-4 file finish() writes has the bytes it had when pikepdf re-serialised the XMP at save."""
    from pipeline.render import pdfx
    from pipeline.render.uv.ocg import register_ocgs

    def made(fix: bool) -> bytes:
        pdf = pikepdf.new()
        pdf.add_blank_page()
        pdf.pages[0].TrimBox = pdf.pages[0].BleedBox = pdf.pages[0].MediaBox
        pdf.Root.OCProperties = Dictionary(OCGs=Array(), D=Dictionary())
        real_save = pikepdf.Pdf.save
        monkeypatch.setattr(pikepdf.Pdf, "save", lambda self, *a, **k: real_save(self, *a, **{**k, "fix_metadata_version": fix}))
        path = pdfx.finish(pdf, tmp_path / f"x4-{fix}.pdf", "T & <x>", ["p1"], info={"/Author": "", "/Creator": "Me", "/CreationDate": "D:20261129000000+00'00'", "/ModDate": "D:20261129000000+00'00'"})
        monkeypatch.undo()
        return path.read_bytes()

    assert made(False) == made(True)


def _objects(path) -> dict:
    """Every object of a PDF by number: a stream as (its dictionary but the encoding keys, decoded bytes)."""
    out = {}
    with pikepdf.open(path) as pdf:
        for obj in pdf.objects:
            if isinstance(obj, pikepdf.Stream):
                keys = {k: bytes(v.unparse()) if hasattr(v, "unparse") else v for k, v in obj.stream_dict.items()
                        if k not in ("/Filter", "/Length", "/DecodeParms")}
                out[obj.objgen] = (keys, obj.read_bytes())
            else:
                out[obj.objgen] = bytes(obj.unparse()) if hasattr(obj, "unparse") else obj
    return out


def test_finish_compresses_the_unfiltered_streams_itself_to_the_same_decoded_bytes(tmp_path, monkeypatch):
    """The streams a caller leaves uncompressed are Flate-compressed by libdeflate before the save (qpdf keeps
    them), not by qpdf's zlib: the same objects and decoded bytes as the file qpdf compressed; the XMP stays plain."""
    import deflate
    from pipeline.render import pdfx

    def made(name: str) -> pikepdf.Pdf:
        pdf = pikepdf.new()
        for i in range(3):
            page = pdf.add_blank_page(page_size=(100, 100))
            page.obj.TrimBox = page.obj.BleedBox = Array([0, 0, 100, 100])
            form = pdf.make_stream(b"0 0 0 1 k 0 0 10 10 re f\n" * (i + 1))
            form.Type, form.Subtype, form.BBox, form.Resources = Name.XObject, Name.Form, Array([0, 0, 10, 10]), Dictionary()
            page.obj.Resources = Dictionary(XObject=Dictionary(Fx=pdf.make_indirect(form)))
            page.obj.Contents = pdf.make_stream(b"q /Fx Do Q\n" * 40)
        pdf.Root.OCProperties = Dictionary(OCGs=Array(), D=Dictionary())  # PDF/X-4: an XMP stream too
        dates = {"/CreationDate": "D:20261129000000+00'00'", "/ModDate": "D:20261129000000+00'00'"}
        return pdfx.finish(pdf, tmp_path / name, "t", ["a", "b", "c"], info=dates)

    ours = made("ours.pdf")
    monkeypatch.setattr(pdfx, "_deflate_streams", lambda pdf: None)
    qpdfs = made("qpdf.pdf")
    assert ours.read_bytes() != qpdfs.read_bytes()
    assert _objects(ours) == _objects(qpdfs)
    with pikepdf.open(ours) as pdf:
        assert "/Filter" not in pdf.Root.Metadata
        content = pdf.pages[2].obj.Contents
        assert content.Filter == Name.FlateDecode
        assert content.read_raw_bytes() == deflate.zlib_compress(b"q /Fx Do Q\n" * 40, pdfx.DEFLATE_LEVEL)

"""pipeline.render.pagetree against pikepdf's public ``pdf.pages.append``, the reference: the same
page tree and the same saved bytes, for pages made in the document and pages of another one."""

from __future__ import annotations

import io

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from pipeline.render.pagetree import append_own_page, append_page


def _saved(pdf: pikepdf.Pdf) -> bytes:
    buf = io.BytesIO()
    pdf.save(buf, static_id=True, deterministic_id=False)
    return buf.getvalue()


def _own_pages(route) -> tuple[bytes, list[pikepdf.Page], pikepdf.Pdf]:
    pdf = pikepdf.new()
    pages = []
    for i in range(5):
        page = pdf.make_indirect(Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 100 + i, 200])))
        page.Contents = pdf.make_stream(f"0 0 {i + 1} {i + 1} re f".encode())
        pages.append(route(pdf, page))
    return _saved(pdf), pages, pdf


def _public(pdf, page):
    pdf.pages.append(pikepdf.Page(page))
    return pdf.pages[-1]


def test_own_pages_append_as_the_public_route_does():
    reference, public_pages, _ = _own_pages(_public)
    ours, pages, pdf = _own_pages(append_own_page)
    assert ours == reference
    assert [float(p.mediabox[2]) for p in pdf.pages] == [100, 101, 102, 103, 104]
    # each returned Page is the one the tree holds (what pages[-1] gave)
    assert [p.obj.objgen for p in pages] == [p.obj.objgen for p in pdf.pages]
    assert [p.obj.objgen for p in public_pages] == [p.obj.objgen for p in pages]


@pytest.mark.parametrize("private", [True, False])
def test_another_documents_pages_are_copied_in_as_the_public_route_copies_them(private, monkeypatch):
    source = pikepdf.new()
    for i in range(3):
        source.add_blank_page(page_size=(50 + i, 60))
    if not private:  # a pikepdf without the private call: the public append
        monkeypatch.delattr(pikepdf.Pdf, "_add_page")

    def build(append):
        out = pikepdf.new()
        for page in list(source.pages)[::-1]:
            append(out, page)
        return out

    ours, reference = build(append_page), build(lambda out, page: out.pages.append(page))
    assert _saved(ours) == _saved(reference)
    assert [float(p.mediabox[2]) for p in ours.pages] == [52, 51, 50]
    assert all(p.obj.is_indirect and p.obj.objgen != s.obj.objgen for p, s in zip(ours.pages, source.pages))
    assert len(source.pages) == 3  # the source keeps its pages


def test_a_direct_page_dictionary_is_made_indirect():
    pdf = pikepdf.new()
    page = append_own_page(pdf, Dictionary(Type=Name.Page, MediaBox=Array([0, 0, 10, 10])))
    assert page.obj.is_indirect and len(pdf.pages) == 1 and pdf.pages[0].obj.objgen == page.obj.objgen

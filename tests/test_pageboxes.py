"""A card PDF's page boxes read at once (:func:`pipeline.render.pageboxes.pages_boxes`, issue 22) are what
:func:`~pipeline.render.pageboxes.page_boxes` reads page by page (the reference here), with one object
shared by the pages whose boxes read alike."""

from __future__ import annotations

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

from pipeline.render.pageboxes import page_boxes, pages_boxes
from pipeline.render.sheets import Rect


def _pdf(boxes: list[dict]) -> pikepdf.Pdf:
    """A PDF with one page per entry of ``boxes`` (its box keys set as given; ``None``: key left out)."""
    pdf = pikepdf.new()
    for keys in boxes:
        page = pdf.add_blank_page(page_size=(234, 378))
        for key, value in keys.items():
            if value is None:
                del page.obj["/" + key]
            else:
                page.obj["/" + key] = Array(list(value)) if isinstance(value, Array) else value  # a copy a page
    return pdf


BLEED, TRIM = Array([0, 0, 234, 378]), Array([9, 9, 225, 369])


def test_pages_with_the_same_boxes_share_one_object():
    pdf = _pdf([dict(BleedBox=BLEED, TrimBox=TRIM)] * 5)
    got = pages_boxes(pdf.pages)
    assert got == [page_boxes(p) for p in pdf.pages]
    assert len({id(b) for b in got}) == 1
    assert got[0].bleed == Rect(0, 0, 234, 378) and got[0].trim == Rect(9, 9, 225, 369) and got[0].has_trim


def test_pages_with_other_boxes_read_their_own():
    pdf = _pdf([dict(BleedBox=BLEED, TrimBox=TRIM), dict(BleedBox=Array([0, 0, 252, 396]), TrimBox=TRIM),
                dict(BleedBox=BLEED), dict(BleedBox=BLEED, TrimBox=Array([9.5, 9, 225, 369])),
                dict(BleedBox=Array([0.0, 0, 234, 378]), TrimBox=TRIM), dict(BleedBox=BLEED, TrimBox=TRIM)])
    got = pages_boxes(pdf.pages)
    assert got == [page_boxes(p) for p in pdf.pages]
    assert [b.has_trim for b in got] == [True, True, False, True, True, True]
    assert got[-1] is got[0] and got[2].trim == got[2].bleed


def test_indirect_boxes_and_inherited_media_boxes_read_as_before():
    pdf = _pdf([{}, {}])
    shared = pdf.make_indirect(Array([0, 0, 100, 200]))
    for page in pdf.pages:
        page.obj.BleedBox = shared
    pdf.pages[1].obj.TrimBox = pdf.make_indirect(Array([5, 5, 95, 195]))
    media = _pdf([dict(MediaBox=None), dict(MediaBox=None)])  # no BleedBox: the MediaBox, inherited
    media.Root.Pages.MediaBox = Array([0, 0, 300, 400])
    for doc in (pdf, media):
        assert pages_boxes(doc.pages) == [page_boxes(p) for p in doc.pages]
    assert pages_boxes(media.pages)[1].bleed == Rect(0, 0, 300, 400)


@pytest.mark.parametrize("bad", [Array([0, 0, 234]), Name("/Box"), Array([0, 0, Name("/W"), 378]), 7])
def test_a_malformed_box_raises_what_page_boxes_raises(bad):
    pdf = _pdf([dict(BleedBox=BLEED, TrimBox=TRIM), dict(BleedBox=bad, TrimBox=TRIM)])
    with pytest.raises(Exception) as expected:
        page_boxes(pdf.pages[1])
    with pytest.raises(type(expected.value)) as got:
        pages_boxes(pdf.pages)
    assert str(got.value) == str(expected.value)


def test_a_malformed_trim_box_raises_what_page_boxes_raises():
    pdf = _pdf([dict(BleedBox=BLEED, TrimBox=Dictionary(A=1))])
    with pytest.raises(Exception) as expected:
        page_boxes(pdf.pages[0])
    with pytest.raises(type(expected.value)) as got:
        pages_boxes(pdf.pages)
    assert str(got.value) == str(expected.value)

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

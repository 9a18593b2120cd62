"""Disc pages from reportlab templates (pipeline.render.uv.discpdf) and the remembered circle numbers
(pipeline.render.pdfpaths): the files hold, as a reader resolves them, the pages, boxes, resources,
decoded content, labels, outline and output intent of reportlab drawing every page itself; only the
card pages' compressed content (libdeflate at discpdf.LEVEL, not qpdf's zlib level 6), the PDF/X-4
document IDs derived from it, and where the objects sit differ: every card page refers to one shared
boxes and resources object of its template (issue 22), where reportlab writes them into each page.

The reference below is the code the braille layer and the UV plates used before: one reportlab page
per card, the file parsed by pikepdf and marked (ISO 19593-1 group) page by page, then finished.
"""

from __future__ import annotations

import io
import re
import zlib

import deflate
import pikepdf
import pytest
from reportlab.lib.colors import CMYKColor, CMYKColorSep
from reportlab.pdfgen.canvas import Canvas

from pipeline.common.layout import load_layout
from pipeline.render.fonts import face
from pipeline.render.pdfpaths import circle_operators
from pipeline.render.pdfx import finish
from pipeline.render.uv.discpdf import LEVEL, disc_pages_pdf
from pipeline.render.uv.ocg import BRAILLE, WHITE, marked_pdf

SPOT = CMYKColorSep(0, 1, 0, 0, spotName="Braille")
K100 = CMYKColor(0, 0, 0, 1)


def _reference(pages, layout, group, path, labels):
    b = layout.bleed
    w, h = layout.trim.width + 2 * b, layout.trim.height + 2 * b
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=face("regular").name)
    for discs in pages:
        canvas.setBleedBox((0, 0, w, h))
        canvas.setTrimBox((b, b, b + layout.trim.width, b + layout.trim.height))
        for colour, ops in discs:
            canvas.setFillOverprint(True)
            canvas.setOverprintMask(True)
            canvas.setFillColor(colour)
            canvas._code.append(ops + " f")
        canvas.showPage()
    canvas.save()
    if group is None:
        return finish(buf.getvalue(), path, "t", labels)
    with marked_pdf(buf.getvalue(), group) as pdf:
        return finish(pdf, path, "t", labels)


def _decoded(path) -> tuple[bytes, bytes]:
    """The file with every stream decoded (qpdf's QDF form, a fixed /ID) and its XMP with the IDs blanked."""
    with pikepdf.open(path) as pdf:
        meta = pdf.Root.get("/Metadata")
        xmp = re.sub(rb"(DocumentID|InstanceID)>[^<]*<", rb"\1><", bytes(meta.read_bytes())) if meta is not None else b""
        if meta is not None:
            del pdf.Root.Metadata
        buf = io.BytesIO()
        pdf.save(buf, qdf=True, static_id=True, compress_streams=False, object_stream_mode=pikepdf.ObjectStreamMode.disable,
                 stream_decode_level=pikepdf.StreamDecodeLevel.generalized)
        return buf.getvalue(), xmp


def _resolved(obj, depth=0):
    """``obj`` as a reader sees it: indirect references followed, streams decoded, a page's /Parent left out."""
    assert depth < 40
    if isinstance(obj, pikepdf.Stream):
        return ("stream", _resolved(pikepdf.Dictionary({k: v for k, v in obj.items() if k not in ("/Length", "/Filter", "/DecodeParms")}), depth + 1),
                bytes(obj.read_bytes()))
    if isinstance(obj, pikepdf.Dictionary):
        return {k: _resolved(v, depth + 1) for k, v in obj.items() if k != "/Parent"}
    if isinstance(obj, pikepdf.Array):
        return [_resolved(v, depth + 1) for v in obj]
    return str(obj) if isinstance(obj, (pikepdf.Name, pikepdf.String)) else obj


def _as_read(path) -> dict:
    """What a reader of ``path`` gets: each page resolved, the page labels, the outline's titles, the
    catalog's output intents and optional content, and the XMP with its IDs blanked."""
    with pikepdf.open(path) as pdf:
        meta = pdf.Root.get("/Metadata")
        xmp = re.sub(rb"(DocumentID|InstanceID)>[^<]*<", rb"\1><", bytes(meta.read_bytes())) if meta is not None else b""
        with pdf.open_outline() as outline:
            titles = [item.title for item in outline.root]
        return {"pages": [_resolved(p.obj) for p in pdf.pages], "labels": [str(p.label) for p in pdf.pages], "outline": titles,
                "intents": _resolved(pdf.Root.OutputIntents), "oc": _resolved(pdf.Root.get("/OCProperties")), "xmp": xmp,
                "version": pdf.pdf_version}


def _pages():
    one = circle_operators([(40.0, 300.0), (46.6, 300.0), (40.0, 293.4)], 2.04)
    two = circle_operators([(60.25, 250.125)], 1.5)
    layers = [(CMYKColorSep(0, 1, 0, 0, spotName=f"Braille L{k:02d}"), circle_operators([(50.0, 280.0)], 2.0 - k / 10))
              for k in range(1, 4)]
    return [[(SPOT, one)], [], [(SPOT, two)], layers, [(K100, one), (SPOT, two)], [(SPOT, one)], layers[:2]]


@pytest.mark.parametrize("group", [BRAILLE, WHITE, None])
def test_disc_pages_hold_what_reportlab_wrote_page_by_page(tmp_path, group):
    layout = load_layout()
    pages = _pages()
    labels = [f"card-{i}" for i in range(len(pages))]
    old = _reference(pages, layout, group, tmp_path / "old.pdf", labels)
    with disc_pages_pdf(pages, layout, group) as pdf:
        new = finish(pdf, tmp_path / "new.pdf", "t", labels)
    assert _as_read(new) == _as_read(old)  # the same pages, resources, decoded streams, labels and XMP but for its IDs
    assert _decoded(new) != _decoded(old)  # control: the objects themselves are laid out otherwise (shared below)
    with pikepdf.open(new) as pdf:  # one boxes and resources object a template, not a copy in every page
        for key in ("/MediaBox", "/TrimBox", "/BleedBox", "/Resources"):
            assert all(p.obj[key].is_indirect for p in pdf.pages)
        assert pdf.pages[0].obj.Resources.objgen == pdf.pages[2].obj.Resources.objgen  # two pages of one disc colour
    with pikepdf.open(new) as pdf:
        for page in pdf.pages:  # the card pages' content compressed by libdeflate at discpdf.LEVEL, as the save kept it
            raw = bytes(page.obj.Contents.read_raw_bytes())
            assert page.obj.Contents.Filter == pikepdf.Name.FlateDecode and raw == bytes(deflate.zlib_compress(zlib.decompress(raw), LEVEL))
    with pikepdf.open(new) as pdf:
        assert len(pdf.pages) == 7 and [str(p.label) for p in pdf.pages] == labels
        assert [float(v) for v in pdf.pages[3].obj.TrimBox] == [9, 9, 225, 369]
        assert ("/Properties" in pdf.pages[0].obj.Resources) == (group is not None)
        assert b"/Braille#20L03 " in bytes(pdf.pages[3].obj.Resources.ColorSpace.unparse(resolved=True))


def test_circle_numbers_remembered_give_the_formatted_values():
    first = circle_operators([(10.0, 20.0), (10.0, 26.6)], 1.0)
    assert first.splitlines()[0] == ("11.000 20.000 m 11.000 20.552 10.552 21.000 10.000 21.000 c 9.448 21.000 9.000 20.552 "
                                     "9.000 20.000 c 9.000 19.448 9.448 19.000 10.000 19.000 c 10.552 19.000 11.000 19.448 "
                                     "11.000 20.000 c h")
    assert circle_operators([(10.0, 20.0), (10.0, 26.6)], 1.0) == first
    assert circle_operators([(10.0, 26.6)], 2.0).startswith("12.000 26.600 m")  # another radius, other numbers
    # 0.0 and -0.0 are equal keys but format differently ("0.000", "-0.000"): neither is taken for the other
    assert circle_operators([(0.0, 5.0)], 1.0).split()[7] == "0.000"
    assert circle_operators([(-0.0, 5.0)], 1.0).split()[7] == "-0.000"


def test_without_pikepdfs_private_add_page_the_public_append_gives_the_same_bytes(tmp_path, monkeypatch):
    """disc_pages_pdf uses pikepdf's private ``Pdf._add_page`` (qpdf's addPage) when it exists; a pikepdf
    without it falls back on ``pages.append``: the reference here is the private route's own file."""
    layout = load_layout()
    pages = _pages()
    labels = [f"card-{i}" for i in range(len(pages))]
    with disc_pages_pdf(pages, layout, BRAILLE) as pdf:
        fast = finish(pdf, tmp_path / "fast.pdf", "t", labels)
    monkeypatch.delattr(pikepdf.Pdf, "_add_page")
    with disc_pages_pdf(pages, layout, BRAILLE) as pdf:
        slow = finish(pdf, tmp_path / "slow.pdf", "t", labels)
    assert slow.read_bytes() == fast.read_bytes()


def test_pages_read_once_from_an_iterator_with_their_colours_give_the_same_bytes(tmp_path):
    """Given every page's colours, disc_pages_pdf reads ``pages`` once, in order (each page's operators made
    when it is reached, the braille layer's and plates' route): the file is the listed pages' byte for byte;
    a page whose discs are not its colours, or fewer pages than colours, is refused."""
    layout = load_layout()
    pages = _pages()
    labels = [f"card-{i}" for i in range(len(pages))]
    with disc_pages_pdf(pages, layout, BRAILLE) as pdf:
        listed = finish(pdf, tmp_path / "listed.pdf", "t", labels)
    reached = []

    def lazily():
        for n, discs in enumerate(pages):
            reached.append(n)
            yield discs

    with disc_pages_pdf(lazily(), layout, BRAILLE, [[colour for colour, _ in discs] for discs in pages]) as pdf:
        assert reached == list(range(len(pages)))  # read once, in order
        once = finish(pdf, tmp_path / "once.pdf", "t", labels)
    assert once.read_bytes() == listed.read_bytes()
    colours = [[colour for colour, _ in discs] for discs in pages]
    with pytest.raises(ValueError, match=r"^page 2 has 0 discs, its colours 1$"):
        disc_pages_pdf(iter(pages), layout, BRAILLE, [colours[0], [SPOT], *colours[2:]])
    with pytest.raises(ValueError, match=r"^6 pages for the colours of 7$"):
        disc_pages_pdf(iter(pages[:6]), layout, BRAILLE, colours)

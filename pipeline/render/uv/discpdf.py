"""Card pages of filled circles (the braille layer, the mask, the UV plates) as a :class:`pikepdf.Pdf`.

reportlab wrote every such page itself (a page dictionary formatted in Python and its content
zlib-compressed, ~1 ms a page), pikepdf parsed the file and :func:`pipeline.render.uv.ocg.mark_pages`
decompressed each content again to wrap it in the braille OCG. Every page differs only in its
circles: its dictionary, resources and colour operators are those of any page painting the same
colours in the same order. So reportlab writes one *template* page per distinct colour sequence, with
a marker where each disc's circles go; each card page is that page's dictionary (copied) with its own
content: the template's operators with the card's circles in place of the markers, which are the
bytes reportlab wrote for that page (``"\\n".join`` of its operator list plus ``"\\n"``). Pages in the
ISO 19593-1 group get their content wrapped in ``/OC /DeckpressBraille BDC … EMC`` as
:func:`~pipeline.render.uv.ocg.mark_pages` does. Every content stream is Flate-compressed here by
libdeflate (the ``deflate`` package; the PNG writer's rows use ISA-L, :mod:`pipeline.common.pngfile`) at
:data:`LEVEL` (1), which qpdf's save keeps; qpdf used to compress them at zlib's default level 6, three
times as long, and zlib at level 2 took twice libdeflate's time for larger streams. The saved file holds the objects of the page-by-page reportlab route, with the same
decoded content streams: qpdf numbers the objects by their place in the graph, not by the source file's
numbers, and writes a direct object shared by pages in each page (tests/test_discpdf.py compares the two
routes; every layer, mask, underbase and plate file of the four shipped games under all six UV printer
profiles was compared too). Only the compressed bytes (and so the PDF/X-4 DocumentID, seeded from them)
differ.
"""

from __future__ import annotations

import io
from typing import Iterable, Sequence

import deflate
import pikepdf
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from pipeline.common.layout import CardLayout
from pipeline.render.pagetree import append_page
from pipeline.render.uv.ocg import PROPERTY_NAME, list_ocgs, processing_step_ocg, register_ocgs

#: One disc of a page: its colour and its circle operators (:func:`pipeline.render.pdfpaths.circle_operators`,
#: pt), filled with ``f``.
DiscOps = tuple[Color, str]

#: libdeflate level of the card pages' content streams (a zlib stream, RFC 1950: any Flate reader decodes it). qpdf
#: compressed them at zlib's default, 6, at the save (a layer of 59 shipped cards, 870 kB of operators: 29 ms,
#: 202 kB); zlib at level 2 took 8.8 ms for 225 kB. Over the four shipped games' pages (8.6 kB of circle operators
#: a page, CPU best of 5): zlib level 2 81 µs and 2,224 bytes a page; libdeflate level 1 35 µs and 2,060 bytes
#: (2: 67 µs, 2,007; 4: 90 µs, 2,000). The decoded content is the same bytes; libdeflate's output does not depend
#: on the CPU (its SIMD code only fills and rebases hash tables and computes checksums: libdeflate's lib/x86/matchfinder_impl.h).
LEVEL = 1

#: Stands in a template page's operator list where a disc's circles and ``f`` go (no PDF operator has it).
_MARK = "%deckpress-disc%"


def _colour_key(colour: Color) -> tuple:
    """What reportlab's output for a colour depends on: its class and every attribute."""
    return (type(colour).__qualname__, tuple(sorted((k, repr(v)) for k, v in vars(colour).items())))


def _template(sequences: list[Sequence[Color]], layout: CardLayout) -> bytes:
    """A reportlab PDF with one page per colour sequence, drawn as :func:`disc_pages_pdf`'s callers drew
    every card page, each disc's circles replaced by :data:`_MARK`."""
    from pipeline.render.fonts import face

    b = layout.bleed
    w, h = layout.trim.width + 2 * b, layout.trim.height + 2 * b
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(w, h), invariant=1, initialFontName=face("regular").name)
    for colours in sequences:
        canvas.setBleedBox((0, 0, w, h))
        canvas.setTrimBox((b, b, b + layout.trim.width, b + layout.trim.height))
        for colour in colours:
            canvas.setFillOverprint(True)
            canvas.setOverprintMask(True)
            canvas.setFillColor(colour)
            canvas._code.append(_MARK)  # _code is the page's operator list; a card page has its circles + " f" here
        canvas.showPage()
    canvas.save()
    return buf.getvalue()


#: The template page entries every card page shares as one indirect object (:func:`disc_pages_pdf`).
_SHARED_KEYS = ("/MediaBox", "/TrimBox", "/BleedBox", "/Resources")


def disc_pages_pdf(pages: Iterable[Sequence[DiscOps]], layout: CardLayout, group: str | None,
                   colours: Sequence[Sequence[Color]] | None = None) -> pikepdf.Pdf:
    """The PDF of ``pages`` (each a sequence of discs painted in that order, overprint on; an empty page
    has no operators), every page with the layout's boxes (MediaBox = BleedBox = trim + 2 × bleed, TrimBox
    the trim, pt), the same objects and content as reportlab writing each page (module docs). ``group``:
    the ISO 19593-1 processing step the content is marked as (Braille, White), or None for no OCG.
    ``colours``: every page's disc colours in order, given so that ``pages`` can be an iterator read once,
    each page's operators made when it is reached and dropped once compressed (a deck's braille layer is
    ~12 MB of operators a 1,000 cards, its layered plates ~24 times that); without it ``pages`` is listed.
    For :func:`pipeline.render.pdfx.finish`; the caller closes it. Raises ValueError when a template
    page's content does not hold one marker per disc (a reportlab that writes pages differently) or a
    page has other discs than ``colours`` says.
    """
    if colours is None:
        pages = list(pages)
        colours = [[colour for colour, _ in discs] for discs in pages]
    keys: dict[tuple, int] = {}
    sequences: list[Sequence[Color]] = []
    page_template = []
    for sequence in colours:
        key = tuple(_colour_key(colour) for colour in sequence)
        if key not in keys:
            keys[key] = len(sequences)
            sequences.append(list(sequence))
        page_template.append(keys[key])
    pdf = pikepdf.open(io.BytesIO(_template(sequences, layout)))
    templates = [p.obj for p in pdf.pages]
    parts = [bytes(t.Contents.read_bytes()).split(_MARK.encode()) for t in templates]
    if any(len(p) != len(s) + 1 for p, s in zip(parts, sequences)):
        raise ValueError("reportlab's template page does not hold one marker per disc")
    # Every card page copies its template's dictionary, and qpdf copies a direct value with it: the
    # boxes and the resources (colour space, graphics states, fonts, properties) were ~8 kB of objects a
    # page, 80 MiB of a 10,000-card braille layer (issue 22). As indirect objects every page refers to one.
    for t in templates:
        for key in _SHARED_KEYS:
            if key in t and not t[key].is_indirect:
                t[key] = pdf.make_indirect(t[key])
    ocg = processing_step_ocg(pdf, group) if group else None
    if ocg is not None:
        for t in templates:  # the card pages share their template's resources: one /Properties each
            resources = t.Resources
            if "/Properties" not in resources:
                resources.Properties = pikepdf.Dictionary()
            resources.Properties[PROPERTY_NAME] = ocg
    count = 0
    for discs, index in zip(pages, page_template):
        pieces, count = parts[index], count + 1
        if len(discs) != len(pieces) - 1:
            raise ValueError(f"page {count} has {len(discs)} discs, its colours {len(pieces) - 1}")
        chunks = [pieces[0]]
        for (_, ops), piece in zip(discs, pieces[1:]):
            chunks += [ops.encode(), b" f", piece]
        content = b"".join(chunks)
        page = pikepdf.Dictionary(templates[index])
        if ocg is not None:
            content = f"/OC {PROPERTY_NAME} BDC\n".encode() + content + b"\nEMC\n"
        # Flate-compressed here (libdeflate, LEVEL): qpdf's save keeps a Flate stream as it is (pikepdf recompress_flate=False)
        page.Contents = pdf.make_stream(bytes(deflate.zlib_compress(content, LEVEL)))  # (it gives a bytearray)
        page.Contents.Filter = pikepdf.Name.FlateDecode  # 8 µs a page; make_stream(data, Filter=…) takes 19
        # qpdf's addPage (pipeline.render.pagetree): pdf.pages.append checks the whole list first,
        # 0.1-0.4 ms a page, a second for a 4,752-page layered plate
        append_page(pdf, page)
    if count != len(page_template):
        raise ValueError(f"{count} pages for the colours of {len(page_template)}")
    # Every card page has its template's resources: when these name this one OCG and paint no XObject, that OCG
    # is what register_ocgs' walk of every page finds, so it is listed without the walk (1,000 pages: ~25 ms a file)
    alone = ocg is not None and all("/XObject" not in t.Resources and list(t.Resources.Properties.keys()) == [PROPERTY_NAME] for t in templates)
    del pdf.pages[:len(templates)]
    if ocg is not None and count:
        list_ocgs(pdf, [ocg]) if alone else register_ocgs(pdf)
    return pdf

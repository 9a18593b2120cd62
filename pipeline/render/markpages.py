"""A sheet side's marks as PDF pages, one per slug: the marks drawn once, each slug once (issue 22).

The pages are what a reportlab canvas drawing the crop marks, registration targets and slug of
:mod:`pipeline.render.marks` on every page writes, byte for byte (tests/test_marks_pages.py
compares them with that drawing). Drawing the same marks on every sheet page and parsing the
many-page PDF again was two thirds of the impose stage; now reportlab draws the marks once and
the slugs on a single page, so the font subset and the Separation ``All`` colour space are the
whole document's as before, and the operators it wrote are joined per page as its ``showPage``
joins them (preamble, marks, slug, ``" "``). The pages themselves are made with pikepdf.

A slug set at a place an earlier slug of the document took (same baseline, size and angle) whose
characters all have a code in the font subset already is not drawn again: reportlab's operators
for the earlier one are reused with the other text's codes in the string (:class:`_SlugOps`).
"""

from __future__ import annotations

import io
from typing import Sequence

import pikepdf
from pikepdf import Array, Dictionary
from reportlab.lib.rl_accel import escapePDF
from reportlab.pdfbase.pdfmetrics import getFont, stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.render.marks import SlugPlace, _slug_lanes, draw_segments, draw_target, draw_text, registration_targets
from pipeline.render.marks import side_crop_marks, slug_position
from pipeline.render.pagetree import append_own_page
from pipeline.render.sheets import Grid


def marks_pages(grid: Grid, side: str, slugs: Sequence[str], font: str) -> pikepdf.Pdf:
    """One sheet side's marks (crop marks, registration targets, slug) as an open PDF, one page per slug text.

    Each page is ``grid.width`` × ``grid.height`` pt, its TrimBox and BleedBox the whole sheet,
    in ``slugs``' order (no slugs: no pages); ``font`` is a registered reportlab font name for the
    slug. A slug with no room (:func:`~pipeline.render.marks.slug_position` None) is left out; IM007
    reports it. Every page has its own copy of the first page's direct objects (boxes, resources),
    so what is painted on one stays off the others; fonts and colour space are shared.
    (:func:`marks_document` and :func:`add_pages`, in the PDF reportlab wrote.)
    """
    pdf, contents = marks_document(grid, side, slugs, font)
    add_pages(pdf, contents)
    return pdf


def marks_document(grid: Grid, side: str, slugs: Sequence[str], font: str) -> tuple[pikepdf.Pdf, list[bytes]]:
    """The PDF reportlab wrote for one sheet side's marks, opened: one page (``grid.width`` × ``grid.height`` pt,
    TrimBox and BleedBox the whole sheet, the font subset and the Separation ``All`` colour space in its
    resources, no ``/Contents``), and the content operators of each sheet page, one per slug text in ``slugs``' order
    (the marks every page carries, then its slug; :func:`marks_pages`). :func:`add_pages` makes the pages from them.
    """
    spec = grid.spec
    buf = io.BytesIO()
    canvas = Canvas(buf, pagesize=(grid.width, grid.height), invariant=1, pageCompression=0, initialFontName=font,
                    initialFontSize=spec.slug.size)
    canvas.setTrimBox((0, 0, grid.width, grid.height))
    canvas.setBleedBox((0, 0, grid.width, grid.height))
    draw_segments(canvas, side_crop_marks(grid, side), spec.crop_marks.weight)
    for t in registration_targets(grid, side, spec.registration.radius):
        draw_target(canvas, t, spec.registration.weight)
    code, preamble = canvas._code, canvas._preamble  # the operators so far: the marks every page carries
    head = "\n".join([preamble, *code])
    ops = _SlugOps(canvas, font)
    lanes = _slug_lanes(grid, side, spec.slug.gap)  # the same for every page
    contents = []
    for text in slugs:
        place = slug_position(grid, side, stringWidth(text, font, spec.slug.size), spec.slug.size, spec.slug.gap, font, lanes=lanes)
        contents.append(("\n".join([head, *(ops(text, place) if place is not None else []), " "]) + "\n").encode("latin-1"))
    canvas.showPage()
    canvas.save()
    pdf = pikepdf.open(io.BytesIO(buf.getvalue()))
    del pdf.pages[0].obj.Contents  # every slug on one page: each sheet page gets its own operators
    return pdf, contents


def add_pages(pdf: pikepdf.Pdf, contents: Sequence[bytes], first: int = 0) -> list[pikepdf.Page]:
    """Page ``first`` of ``pdf`` (the page of :func:`marks_document`, wherever it now stands) made into one page per
    entry of ``contents``, each with that content stream: the first is that page, the others fresh copies of its
    direct objects (boxes, resources) sharing its indirect ones (fonts, colour space), appended in order.
    Empty ``contents``: the page is removed. Returns the pages."""
    page0 = pdf.pages[first].obj
    if not contents:
        del pdf.pages[first]
        return []
    template = {k: _plain(v) for k, v in page0.items() if k not in ("/Contents", "/Parent")}
    page0.Contents = pdf.make_stream(contents[0])
    pages = [pdf.pages[first]]
    for content in contents[1:]:
        page = pdf.make_indirect(Dictionary(template))
        page.Contents = pdf.make_stream(content)
        pages.append(append_own_page(pdf, page))  # O(1): pdf.pages.append and pages[-1] each list the tree
    return pages


class _SlugOps:
    """The content operators of slugs drawn on ``canvas`` in ``font`` (reportlab's :func:`~pipeline.render.marks.draw_text`).

    Called with a text and its place, returns the operators reportlab writes for it. The first slug at a
    place is drawn; a later one there reuses those operators with its own string when every character
    already has a one-byte code in the font's first subset (reportlab would write the same with the
    string changed); otherwise it is drawn too.
    """

    def __init__(self, canvas: Canvas, font: str):
        self.canvas, self.font = canvas, getFont(font)
        self.templates: dict[SlugPlace, tuple[int, str, str] | None] = {}
        self.drawn: dict[SlugPlace, list[str]] = {}
        self.table: dict[int, int] = {}  # character → its code, for the assignments reportlab has made so far
        self.known: frozenset[str] = frozenset()
        self.seen = -1

    def _codes(self, text: str) -> bytes | None:
        """``text`` in the font subset's codes, or None when a character has none yet or lies beyond the first subset."""
        state = self.font.state.get(self.canvas._doc)
        assigned = state.assignments if state is not None else {}
        if len(assigned) != self.seen:  # reportlab assigned codes to new characters: read them again
            self.table = {c: n for c, n in assigned.items() if n < 256}
            if 32 in self.table:
                self.table[0xA0] = self.table[32]  # reportlab sets a no-break space as a space
            self.known, self.seen = frozenset(map(chr, self.table)), len(assigned)
        return text.translate(self.table).encode("latin-1") if self.known.issuperset(text) else None

    def __call__(self, text: str, place: SlugPlace) -> list[str]:
        template, codes = self.templates.get(place), self._codes(text)
        if template is not None and codes is not None:
            line, head, tail = template
            ops = list(self.drawn[place])
            ops[line] = f"{head}({escapePDF(codes)}) Tj{tail}"
            return ops
        code = self.canvas._code
        start = len(code)
        draw_text(self.canvas, text, place.x, place.y, place.size, self.font.fontName, place.angle)
        ops = code[start:]
        if place not in self.templates:
            self.drawn[place], self.templates[place] = ops, self._template(ops, text)
        return ops

    def _template(self, ops: list[str], text: str) -> tuple[int, str, str] | None:
        """Where ``text``'s string stands in its operators ``ops``: (line, before, after), or None when it is not there once."""
        codes = self._codes(text)
        if codes is None:
            return None
        literal = f"({escapePDF(codes)}) Tj"
        found = [(i, line) for i, line in enumerate(ops) if literal in line]
        if len(found) != 1 or found[0][1].count(literal) != 1 or " Tj" in found[0][1].replace(literal, ""):
            return None
        i, line = found[0]
        head, tail = line.split(literal)
        return i, head, tail


def _plain(obj):
    """A direct dictionary or array as Python dicts and lists (to build a fresh copy from), indirect objects and
    scalars as they are: each page gets its own resources, so cards painted on one stay off the others."""
    if isinstance(obj, Dictionary) and not obj.is_indirect:
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, Array) and not obj.is_indirect:
        return [_plain(v) for v in obj]
    return obj

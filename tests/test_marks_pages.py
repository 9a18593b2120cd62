"""The marks pages of a sheet side (:func:`pipeline.render.markpages.marks_pages`): the marks drawn once and shared
by every page must give exactly what a reportlab canvas drawing marks and slug on every page writes.

The reference below is that canvas (the code the impose stage ran before issue 22's change): one page per slug,
crop marks, registration targets and the slug drawn on each.
"""

from __future__ import annotations

import io

import pikepdf
import pytest
from pikepdf import Dictionary, Name
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen.canvas import Canvas

from pipeline.render import markpages, marks
from pipeline.render.fonts import face
from pipeline.render.sheets import get_sheet, plan_grid

#: New characters (é, ±, ü) on some slugs, only known ones on others (whose operators are reused from the
#: slug before them at that place), PDF string escapes (parentheses, backslash), and a slug too long for the
#: lane at 6 pt (set smaller, at another place) twice.
SLUGS = ["DRAFT · demo (run 1) · sheet 1/12 · front · x\\y", "demo · sheet 2/12 · front · é",
         "DRAFT · demo (run 1) · sheet 3/12 · front · y\\x", "demo · sheet 12/12 · front · é\u00a0é",
         "demo · sheet 5/12 · front · ± ü", "long " * 60 + "1/12", "long " * 60 + "2/12"]


def reference(grid, side: str, slugs, font: str) -> pikepdf.Pdf:
    """The marks drawn page by page with reportlab, as the impose stage did before."""
    spec, buf = grid.spec, io.BytesIO()
    canvas = Canvas(buf, pagesize=(grid.width, grid.height), invariant=1, pageCompression=0, initialFontName=font,
                    initialFontSize=spec.slug.size)
    for text in slugs:
        canvas.setTrimBox((0, 0, grid.width, grid.height))
        canvas.setBleedBox((0, 0, grid.width, grid.height))
        marks.draw_segments(canvas, marks.side_crop_marks(grid, side), spec.crop_marks.weight)
        for t in marks.registration_targets(grid, side, spec.registration.radius):
            marks.draw_target(canvas, t, spec.registration.weight)
        place = marks.slug_position(grid, side, stringWidth(text, font, spec.slug.size), spec.slug.size, spec.slug.gap, font)
        if place is not None:
            marks.draw_text(canvas, text, place.x, place.y, place.size, font, place.angle)
        canvas.showPage()
    canvas.save()
    return pikepdf.open(io.BytesIO(buf.getvalue()))


def saved(pdf: pikepdf.Pdf) -> bytes:
    buf = io.BytesIO()
    pdf.save(buf, deterministic_id=True, object_stream_mode=pikepdf.ObjectStreamMode.disable)
    return buf.getvalue()


@pytest.mark.parametrize("name,side", [("letter", "front"), ("12x18", "back"), ("a4", "braille"), ("tabloid", "front")])
def test_marks_pages_are_the_per_page_drawing_byte_for_byte(name, side):
    font = face("regular").name
    grid = plan_grid(get_sheet(name).with_back_offset(2.0, -1.5), 234.0, 378.0)
    new, old = markpages.marks_pages(grid, side, SLUGS, font), reference(grid, side, SLUGS, font)
    assert len(new.pages) == len(old.pages) == len(SLUGS)
    for a, b in zip(new.pages, old.pages):
        assert a.obj.Contents.read_bytes() == b.obj.Contents.read_bytes()
    assert saved(new) == saved(old)  # same objects, same boxes, same font subset and colour space


def test_slug_differs_per_page_and_marks_do_not():
    font = face("regular").name
    grid = plan_grid(get_sheet("letter"), 234.0, 378.0)
    pages = [p.obj.Contents.read_bytes() for p in markpages.marks_pages(grid, "front", SLUGS, font).pages]
    assert len(set(pages)) == len(SLUGS)
    marks_only = pages[0].split(b"\nq\n/All cs ")[0]  # the slug starts with its fill colour
    # letter: the 8 row marks and the crosses of the 2 side targets (no room above the grid)
    assert marks_only.count(b" l S") == 8 + 2 * 2 and all(p.startswith(marks_only) for p in pages)


def test_each_page_has_its_own_resources():
    """Cards painted on one sheet (an XObject added to its resources) must not show up on another."""
    font = face("regular").name
    grid = plan_grid(get_sheet("letter"), 234.0, 378.0)
    pdf = markpages.marks_pages(grid, "front", SLUGS, font)
    pdf.pages[1].obj.Resources.XObject = Dictionary(Front0=pdf.make_stream(b""))
    pdf.pages[1].obj.TrimBox[0] = 5
    assert "/XObject" not in pdf.pages[0].obj.Resources and "/XObject" not in pdf.pages[2].obj.Resources
    assert [float(p.obj.TrimBox[0]) for p in pdf.pages] == [0.0, 5.0] + [0.0] * (len(SLUGS) - 2)
    assert pdf.pages[0].obj.Resources.Font.objgen == pdf.pages[2].obj.Resources.Font.objgen  # fonts stay shared
    assert all(p.obj.Type == Name.Page for p in pdf.pages)


def test_no_slugs_no_pages():
    grid = plan_grid(get_sheet("letter"), 234.0, 378.0)
    assert len(markpages.marks_pages(grid, "front", [], face("regular").name).pages) == 0

"""check_pdfx remembers the verdict on a content stream by its content (issue 22): an imposed sheet whose
Form XObjects are already-checked card pages is not parsed again, but nothing goes unchecked: a bad
operator in a form on a sheet, an RGB colour space behind an already-checked content, the same raw
bytes under another filter, an operator at a stream's very end are all still refused."""

from __future__ import annotations

import binascii
import io
import zlib

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name
from reportlab.pdfgen.canvas import Canvas

import pipeline.render.pdfx_check as check
from pipeline.render.fonts import face
from pipeline.render.pdfx import PdfxError, check_pdfx, finish

CARD = b"q 0 0 0 1 k 0 0 50 50 re f BT /F1 12 Tf (Fire Surge) Tj ET Q\n"  # "rg" only inside a word
SPOT = b"/Braille cs 1 scn 0 0 5 5 re f\n"  # a cs operator with its one name: cleared by the byte scan
SPOT_NOTED = b"% spot\n" + SPOT  # the same behind a comment, which could hide an operand: parsed


def _sheet(raw: bytes, filter: str | None = None, resources: Dictionary | None = None) -> pikepdf.Pdf:
    """A one-page PDF painting one Form XObject whose content stream holds ``raw`` (encoded by ``filter``)."""
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(100, 100))
    page.obj.TrimBox = page.obj.BleedBox = Array([0, 0, 100, 100])
    form = pikepdf.Stream(pdf, raw)
    form.Type, form.Subtype, form.BBox = Name.XObject, Name.Form, Array([0, 0, 100, 100])
    if filter:
        form.Filter = Name(filter)
    form.Resources = resources if resources is not None else Dictionary()
    page.obj.Resources = Dictionary(XObject=Dictionary(Fx=pdf.make_indirect(form)))
    page.obj.Contents = pdf.make_stream(b"q /Fx Do Q\n")
    return pdf


def _page_problems(pdf: pikepdf.Pdf) -> list[str]:
    return [p for p in check_pdfx(pdf) if p.startswith("page ")]


@pytest.fixture(autouse=True)
def fresh_memo():
    check._OPERATOR_VERDICTS.clear()
    yield
    check._OPERATOR_VERDICTS.clear()


def test_a_bad_operator_in_a_form_on_a_sheet_is_refused_after_the_good_card_was_checked(tmp_path):
    assert _page_problems(_sheet(CARD)) == []  # the card, remembered
    assert _page_problems(_sheet(zlib.compress(CARD), "/FlateDecode")) == []  # the same card, compressed
    bad = CARD + b"1 0 0 rg 0 0 5 5 re f"  # the RGB operator at the very end, no white space after it
    assert _page_problems(_sheet(bad)) == ["page 1: RGB colour operator rg"]
    assert _page_problems(_sheet(CARD + b"1 0 0 RG(x)Tj\n")) == ["page 1: RGB colour operator RG"]
    assert _page_problems(_sheet(CARD + b"/A /B cs\n")) == [
        "page 1: colour space operator cs with 2 operands (/A /B), expected one name"]
    buf = io.BytesIO()  # and finish() refuses a sheet so made
    c = Canvas(buf, pagesize=(100, 100), invariant=1, initialFontName=face("regular").name)
    c.setBleedBox((0, 0, 100, 100))
    c.setTrimBox((0, 0, 100, 100))
    c.beginForm("card")
    c.setFillColorRGB(1, 0, 0)
    c.rect(0, 0, 5, 5, fill=1)
    c.endForm()
    c.doForm("card")
    c.showPage()
    c.save()
    with pytest.raises(PdfxError, match="RGB colour operator rg"):
        finish(buf.getvalue(), tmp_path / "sheet.pdf", "sheet", ["1"])
    assert not (tmp_path / "sheet.pdf").exists()


def test_a_remembered_content_still_has_its_resources_checked():
    assert _page_problems(_sheet(SPOT)) == []
    rgb = Dictionary(ColorSpace=Dictionary(Braille=Name.DeviceRGB))
    assert _page_problems(_sheet(SPOT, resources=rgb)) == ["page 1: colour space /Braille is not CMYK, grey or spot"]


def test_the_same_raw_bytes_under_another_filter_are_judged_again():
    hexed = binascii.hexlify(b"1 0 0 rg\n")  # unfiltered, these bytes are no operator at all
    assert _page_problems(_sheet(hexed)) == []
    assert _page_problems(_sheet(hexed, "/ASCIIHexDecode")) == ["page 1: RGB colour operator rg"]


def test_a_content_reencoded_is_not_parsed_twice(monkeypatch):
    calls = []
    parse = pikepdf.parse_content_stream
    monkeypatch.setattr(pikepdf, "parse_content_stream", lambda owner, ops="": calls.append(1) or parse(owner, ops))
    assert _page_problems(_sheet(zlib.compress(SPOT_NOTED), "/FlateDecode")) == []
    assert _page_problems(_sheet(SPOT_NOTED)) == []  # the card's content, imposed uncompressed
    assert _page_problems(_sheet(SPOT_NOTED + b"0 0 0 1 k\n")) == []  # new content: parsed
    assert _page_problems(_sheet(CARD)) == []  # no rg/RG/cs/CS token at all: not parsed
    assert _page_problems(_sheet(SPOT)) == []  # only a cs with its one name: not parsed
    assert len(calls) == 2  # SPOT_NOTED once, SPOT_NOTED + k once; the pages' "q /Fx Do Q" holds no such token either


def test_a_content_changed_in_place_is_judged_again():
    sheet = _sheet(CARD)
    assert _page_problems(sheet) == []
    form = sheet.pages[0].obj.Resources.XObject.Fx
    form.write(CARD + b"1 0 0 rg\n")  # the same object, new bytes: not served the old verdict
    assert _page_problems(sheet) == ["page 1: RGB colour operator rg"]
    form.write(zlib.compress(CARD), filter=Name.FlateDecode)
    assert _page_problems(sheet) == []

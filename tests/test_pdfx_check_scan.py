"""The PDF/X check's shortcuts (issue 22) give the verdicts of the full check: the byte scan that spares
the pikepdf parse of a content whose only colour-space operators are ``/Name cs`` (the UV layer, the
sheet marks), and the per-call memo of fonts, colour spaces and graphics states shared by many
resource dictionaries of one file."""

from __future__ import annotations

import random

import pikepdf
import pytest
from pikepdf import Array, Dictionary, Name

import pipeline.render.pdfx_content as content
from pipeline.render.pdfx import check_pdfx

#: Contents the scan must clear without parsing (what the UV layer and the sheet marks write).
CLEARED = [
    b"/Braille cs 1 scn 0 0 5 5 re f\n",
    b"q\n/gRLs0 gs\n/gRLs1 gs\n/Braille cs\n1 scn\nQ\n",
    b"q\n1 0 0 1 0 0 cm \nq\n/All CS\n1 SCN 0 0 m 5 5 l S\nQ\nQ\n",
]

#: Contents with a colour-space operator whose operands the scan cannot prove to be one name: each goes
#: to the parser, whose verdict (a problem or none) the check must give.
PARSED = [
    b"q /A /B cs\n",  # two names
    b"q 1 /B cs\n",  # a number before the name
    b"q true /B cs\n",  # a keyword is an operand, not an operator
    b"q (x) /B cs\n",  # a string
    b"q [/A] /B cs\n",  # an array
    b"q /A %note\n/B cs\n",  # a comment hiding the first operand
    b"q /A % q\n/B cs\n",  # the same, the comment ending in what looks like an operator
    b"q /A\x00/B cs\n",  # NUL delimits for qpdf: two names
    b"q\x0b/A /B cs\n",  # vertical tab is white space for qpdf: two names
    b"q /B/C cs\n",  # two names glued
    b"q cs\n",  # no operand
    b"/B cs cs\n",  # the second cs has none
    b"1 0 R /B cs\n",  # R: qpdf's operator, not in ISO 32000's table
    b"/A\x0bq /B cs\n",  # one name after all, but the scan does not take \v for white space
    b"q /B cs 1 0 0 rg\n",  # an RGB operator
    b"q /B\ncs% note\n",  # a comment after the operator
    b"BT /F1 9 Tf (cs) Tj ET q /All cs 1 scn Q",  # "cs" in a string: a token to the scan, so parsed
]


def _page(data: bytes) -> pikepdf.Pdf:
    pdf = pikepdf.new()
    page = pdf.add_blank_page(page_size=(100, 100))
    page.obj.TrimBox = page.obj.BleedBox = Array([0, 0, 100, 100])
    page.obj.Contents = pdf.make_stream(data)
    return pdf


def _page_problems(pdf: pikepdf.Pdf) -> list[str]:
    return [p for p in check_pdfx(pdf) if p.startswith("page ")]


@pytest.fixture(autouse=True)
def fresh_memo():
    content.OPERATOR_VERDICTS.clear()
    yield
    content.OPERATOR_VERDICTS.clear()


@pytest.mark.parametrize("data", CLEARED)
def test_the_uv_layer_and_the_marks_are_cleared_without_a_parse(data, monkeypatch):
    monkeypatch.setattr(content, "parse_for_problems", lambda owner: pytest.fail("parsed"))
    assert content.plainly_conforming(data)
    assert _page_problems(_page(data)) == []


@pytest.mark.parametrize("data", CLEARED)
def test_what_the_scan_clears_the_parser_clears_too(data):
    pdf = _page(data)  # held: a page object outlives its Pdf only as a dangling handle
    assert content.parse_for_problems(pdf.pages[0].obj) == ()


@pytest.mark.parametrize("data", PARSED)
def test_a_context_the_scan_cannot_prove_gets_the_parsers_verdict(data, monkeypatch):
    assert not content.plainly_conforming(data)
    calls = []
    parse = content.parse_for_problems
    monkeypatch.setattr(content, "parse_for_problems", lambda owner: calls.append(1) or parse(owner))
    pdf = _page(data)
    expected = [f"page 1: {p}" for p in parse(pdf.pages[0].obj)]
    assert _page_problems(_page(data)) == expected
    assert calls == [1]


def test_the_refused_contexts_are_refused_with_the_parsers_message():
    assert _page_problems(_page(b"q /A /B cs\n")) == [
        "page 1: colour space operator cs with 2 operands (/A /B), expected one name"]
    assert _page_problems(_page(b"q /A %note\n/B cs\n")) == [
        "page 1: colour space operator cs with 2 operands (/A /B), expected one name"]
    assert _page_problems(_page(b"q /A % q\n/B cs\n")) == [
        "page 1: colour space operator cs with 2 operands (/A /B), expected one name"]
    assert _page_problems(_page(b"q /A\x00/B cs\n")) == [
        "page 1: colour space operator cs with 2 operands (/A /B), expected one name"]
    assert _page_problems(_page(b"q cs\n")) == ["page 1: colour space operator cs with 0 operands (), expected one name"]
    assert _page_problems(_page(b"q /B cs 1 0 0 rg\n")) == ["page 1: RGB colour operator rg"]


def _two_pages_sharing(font: Dictionary, alpha: float) -> pikepdf.Pdf:
    """Two pages whose resources name one indirect font (as /F1 and /F2) and equal direct ExtGStates."""
    pdf = pikepdf.new()
    font = pdf.make_indirect(font)
    for number in (1, 2):
        page = pdf.add_blank_page(page_size=(100, 100))
        page.obj.TrimBox = page.obj.BleedBox = Array([0, 0, 100, 100])
        page.obj.Contents = pdf.make_stream(b"q /G0 gs Q\n")
        page.obj.Resources = Dictionary(Font=Dictionary({f"/F{number}": font}), ExtGState=Dictionary(G0=Dictionary(CA=alpha)))
    return pdf


def test_a_shared_font_is_reported_under_every_name_that_names_it():
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/ABCDEF+Serif"))
    font = Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/ABCDEF+Serif"), FontDescriptor=descriptor)
    pdf = _two_pages_sharing(font, 0.5)
    assert _page_problems(pdf) == [
        "page 1: transparency (alpha) in /G0", "page 1: font /F1 (/ABCDEF+Serif) is not embedded",
        "page 2: transparency (alpha) in /G0", "page 2: font /F2 (/ABCDEF+Serif) is not embedded"]


def test_a_font_changed_between_two_checks_is_judged_again():
    descriptor = Dictionary(Type=Name.FontDescriptor, FontName=Name("/ABCDEF+Serif"))
    font = Dictionary(Type=Name.Font, Subtype=Name.TrueType, BaseFont=Name("/ABCDEF+Serif"), FontDescriptor=descriptor)
    pdf = _two_pages_sharing(font, 1)
    shared = pdf.pages[0].obj.Resources.Font.F1
    shared.FontDescriptor.FontFile2 = pdf.make_stream(b"\0\1\0\0")
    assert _page_problems(pdf) == []
    del shared.FontDescriptor.FontFile2  # the same object, changed: the next call judges it afresh
    assert _page_problems(pdf) == ["page 1: font /F1 (/ABCDEF+Serif) is not embedded",
                                   "page 2: font /F2 (/ABCDEF+Serif) is not embedded"]
    pdf.pages[1].obj.Resources.ExtGState.G0.CA = 0.5  # a direct state differing from page 1's
    assert _page_problems(pdf)[-1:] == ["page 2: font /F2 (/ABCDEF+Serif) is not embedded"]
    assert "page 2: transparency (alpha) in /G0" in _page_problems(pdf)
    assert "page 1: transparency (alpha) in /G0" not in _page_problems(pdf)


#: Tokens of content-stream syntax and the separators (every kind of white space, NUL, none) the next
#: test glues them with; a third of its pieces are a name or number, a separator and cs/CS.
_TOKENS = [b"q", b"Q", b"/A", b"/B", b"/", b"1", b"-.5", b"true", b"null", b"R", b"(x)", b"(q /A cs)", b"<0A>", b"[",
           b"]", b"<<", b">>", b"%", b"%q", b"cs", b"CS", b"rg", b"scn", b"BT", b"ET", b"Tj", b"gs", b"EMC", b"BDC",
           b"EI", b"ID", b"T*", b"'"]
_SEPARATORS = [b" ", b" ", b"\n", b"\r\n", b"\t", b"\x0c", b"\x0b", b"\x00", b""]


def _random_content(rng: random.Random) -> bytes:
    out = [rng.choice([b"", b" "])]
    for _ in range(rng.randint(1, 8)):
        if rng.random() < 0.4:
            out.append(rng.choice([b"/A", b"/B", b"/", b"/A/B", b"1"]) + rng.choice(_SEPARATORS) + rng.choice([b"cs", b"CS"]))
        else:
            out.append(rng.choice(_TOKENS))
        out.append(rng.choice(_SEPARATORS))
    return b"".join(out)


def test_whatever_the_scan_clears_the_parser_clears():
    rng = random.Random(22)  # fixed: the same 6,000 contents every run (200,000 seeded otherwise agreed too)
    cleared = with_operator = 0
    for _ in range(6000):
        data = _random_content(rng)
        if not content.plainly_conforming(data):
            continue
        cleared += 1
        with_operator += bool(content.checked_tokens(data))
        pdf = _page(data)
        assert content.parse_for_problems(pdf.pages[0].obj) == (), data
    assert cleared > 1000 and with_operator > 200  # cleared contents with a cs/CS among them too


def test_a_number_for_a_colour_space_is_still_reported_as_malformed():
    pdf = _page(b"q Q\n")  # pikepdf gives a number as a Python int: no object number to remember it by
    pdf.pages[0].obj.Resources = Dictionary(ColorSpace=Dictionary(A=5, B=Name("/Foo")))
    assert _page_problems(pdf) == ["page 1: colour space /A is malformed: 5 is not a colour space",
                                   "page 1: colour space /B is malformed: /Foo is not a colour space family"]


def _array_page(parts: list[bytes]) -> pikepdf.Pdf:
    pdf = _page(b"")
    pdf.pages[0].obj.Contents = Array([pdf.make_stream(part) for part in parts])
    return pdf


def test_a_content_split_over_an_array_of_streams_is_judged_as_one_stream(monkeypatch):
    # ISO 32000-1 §7.8.2: the array is one content stream, split only between tokens (the merged
    # fronts + braille are [q] [the front's own stream] [Q, the plate]); qpdf's parser joins the
    # streams by a new line, and so does the scan: a cleared array is not parsed, an RGB operator or a
    # two-name cs in any of its streams is found with the parser's message.
    monkeypatch.setattr(content, "parse_for_problems", lambda owner: pytest.fail("parsed"))
    assert _page_problems(_array_page([b"q\n", b"/Braille cs 1 scn 0 0 5 5 re f", b"\nQ\nq /Braille0 Do Q\n"])) == []
    monkeypatch.undo()
    assert _page_problems(_array_page([b"q\n", b"0 0 1 rg 0 0 5 5 re f", b"\nQ\n"])) == ["page 1: RGB colour operator rg"]
    assert _page_problems(_array_page([b"q /A\n", b"/B cs\n", b"Q\n"])) == [
        "page 1: colour space operator cs with 2 operands (/A /B), expected one name"]

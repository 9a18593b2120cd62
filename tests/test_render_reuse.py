"""The print stage's reused operators (text lines once per PDF, shapes once per process) write
the bytes reportlab's own drawing calls write."""

from __future__ import annotations

import io
from weakref import WeakKeyDictionary

import pytest
from reportlab.pdfgen.canvas import Canvas

from pipeline.render import card, fonts
from pipeline.render.facepaint import draw_lines
from pipeline.render.textfit import Paragraph, fit


def _canvas() -> Canvas:
    regular = fonts.register_all()["regular"]
    return Canvas(io.BytesIO(), pagesize=(234, 378), invariant=1, pageCompression=0, initialFontName=regular.name)


def _fits():
    bold, regular = fonts.face("bold"), fonts.face("regular")
    return [fit([Paragraph("Ember\u00a0Apprentice of the long name", bold, 28, 18)], 180, 120),
            fit([Paragraph("E", bold, 20)], 40, 40),
            fit([Paragraph("Enchant! Rally!", regular, 22), Paragraph("placeholder art", regular, 18)], 150, 90)]


def test_text_lines_drawn_again_are_the_bytes_drawstring_writes():
    places = [(30.0, 300.0), (30.0, 300.0), (12.5, 200.25), (30.0, 300.0)]
    reused, plain = _canvas(), _canvas()
    for page in range(3):
        for result in _fits():
            for x, top in places:
                draw_lines(reused, result, x, top)
                for line in result.lines:
                    plain.setFont(line.font, line.size)
                    plain.drawString(x + line.x, top - line.baseline, line.text.replace("\u00a0", " "))
                assert (reused._fontname, reused._fontsize) == (plain._fontname, plain._fontsize)
        reused.showPage()
        plain.showPage()
    assert len(_fits()[0].lines) > 1
    assert reused.getpdfdata() == plain.getpdfdata()


def test_shapes_are_the_bytes_of_the_canvas_calls():
    reused, plain = _canvas(), _canvas()
    for inset in (19.5, 21.25):
        reused.addLiteral(card._shape("roundRect", (inset, inset, 234 - 2 * inset, 378 - 2 * inset, 9.0), 1, 0))
        plain.roundRect(inset, inset, 234 - 2 * inset, 378 - 2 * inset, 9.0, stroke=1, fill=0)
        for stroke, fill in ((1, 1), (1, 0), (0, 1)):
            card._ellipse(reused, 28.5, 124.26, 205.5, 272.46, stroke, fill)
            plain.ellipse(28.5, 124.26, 205.5, 272.46, stroke=stroke, fill=fill)
        card._ellipse(reused, 119.16 - 14.59, 331.56 - 14.59, 119.16 + 14.59, 331.56 + 14.59, 1, 1)
        plain.circle(119.16, 331.56, 14.59, stroke=1, fill=1)
    reused.showPage()
    plain.showPage()
    data = reused.getpdfdata()
    assert b" c\n" in data and data == plain.getpdfdata()


def test_page_streams_handed_over_compressed_save_the_same_pages():
    import pikepdf

    from pipeline.common.layout import load_layout
    from pipeline.render import deck_pdf
    from pipeline.render.style import design_for

    layout = load_layout()
    sheet = card.Sheet(layout, design_for(layout))
    pdfs = []
    for hook in (True, False):
        buffer = io.BytesIO()
        canvas = deck_pdf._canvas(buffer, sheet, "t")
        if not hook:
            canvas.setPageCallBack(None)
        for text in ("Ember", "Zauberin \u00e9", "\u2212 5 \u2026"):
            canvas.setFont(fonts.face("bold").name, 24)
            canvas.drawString(20, 200, text)
            canvas.addLiteral("% caf\u00e9" if text.startswith("Z") else "% plain")  # a page that is not ASCII stays text
            canvas.showPage()
        kinds = [type(page.stream) for page in canvas._doc.Pages.pages]
        canvas.save()
        pdfs.append(buffer.getvalue())
        assert kinds == ([type(None), str, type(None)] if hook else [str, str, str])  # ASCII pages: held compressed
    with pikepdf.open(io.BytesIO(pdfs[0])) as hooked, pikepdf.open(io.BytesIO(pdfs[1])) as plain:
        filters = [page.obj.Contents.get("/Filter") for page in hooked.pages]
        assert filters == [pikepdf.Name.FlateDecode, None, pikepdf.Name.FlateDecode]
        assert [page.obj.Contents.read_bytes() for page in hooked.pages] == [page.obj.Contents.read_bytes() for page in plain.pages]
        assert b"% caf\xe9" in hooked.pages[1].obj.Contents.read_bytes()


def _broken_tidepool(folder):
    """tidepool with a glyph the font lacks in one class's emblem letter and another's emblem name
    (PR005 on each of their cards, from steps that are then never replayed) and one card with art."""
    from PIL import Image

    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("indicator: C", "indicator: \"\u2605\"").replace("emblem: Frond", "emblem: Fr\u2605nd"))
    Image.new("RGB", (120, 90), (200, 40, 10)).save(folder / "scout.png")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Coral Scout\n", "    name: Coral Scout\n    image: scout.png\n", 1))
    return folder


@pytest.mark.parametrize("name", ["mini-plus", "tidepool", "broken"])
def test_replayed_steps_write_the_bytes_and_findings_of_drawing_every_step(name, game_copy, monkeypatch):
    """Reference: the same decks drawn with every step run afresh on every card (facepaint.replayed
    patched to call its step): the fronts' bytes and the findings, in order, are the same."""
    from engine.load import load_game
    from pipeline.render import deck_pdf, facepaint

    if name == "mini-plus":
        game_copy("mini")  # the base game it extends
    folder = _broken_tidepool(game_copy("tidepool")) if name == "broken" else game_copy(name)
    deck = load_game(folder)

    def fronts(tag):
        result = deck_pdf.render_fronts(deck, folder / f"fronts-{tag}.pdf")
        return result.path.read_bytes(), [(f.code, f.message, str(f.location)) for f in result.findings]

    steps: dict = {}  # by canvas, kept alive here to be looked at
    monkeypatch.setattr(facepaint, "_STEPS", steps)
    replayed_pdf, replayed_findings = fronts("replayed")
    (kept,) = steps.values()
    run_always = [key for key, hit in kept.items() if hit is facepaint._RUN]
    monkeypatch.setattr(facepaint, "_STEPS", WeakKeyDictionary())
    monkeypatch.setattr(card, "replayed", lambda canvas, key, keep, findings, draw: draw())
    plain_pdf, plain_findings = fronts("plain")
    assert replayed_pdf == plain_pdf
    assert replayed_findings == plain_findings
    assert len(kept) - len(run_always) >= 2  # the ground and emblem of a class at least were kept
    if name == "broken":
        assert {key[0] for key in run_always} == {"emblem", "art"}
        glyphs = [f for f in plain_findings if f[0] == "PR005"]
        assert len(glyphs) == 8 and sum("emblem" in f[1] for f in glyphs) == 8  # 4 coral emblem letters, 4 kelp emblem names


def test_only_pages_the_pdfdoc_codec_maps_to_themselves_are_handed_over_compressed():
    """Reference: reportlab's own extpdfdoc codec. A page is compressed at its end exactly when its text
    is ASCII that the codec encodes as str.encode("ascii") does; any other page is left as text for reportlab."""
    from pipeline.common.layout import load_layout
    from pipeline.render import deck_pdf
    from pipeline.render.style import design_for

    layout = load_layout()
    canvas = deck_pdf._canvas(io.BytesIO(), card.Sheet(layout, design_for(layout)), "t")
    texts = [f"% page {chr(code)} end" for code in range(0x01, 0x80)] + ["% caf\u00e9"]
    for text in texts:
        canvas.addLiteral(text)
        canvas.showPage()
    compressed = [page.stream is None for page in canvas._doc.Pages.pages]
    expected = []
    for text in texts:
        try:
            expected.append(text.encode("extpdfdoc") == text.encode("ascii"))
        except UnicodeEncodeError:
            expected.append(False)
    assert compressed == expected
    assert compressed.count(False) == 9  # U+0018-U+001F and the é

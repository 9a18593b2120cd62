"""The print PDFs: page boxes, fonts, colour spaces, text sizes, PDF/X-1a keys, labels, determinism.

Every assertion reads the PDF itself (raw page dictionaries with pikepdf, content
streams parsed with pikepdf.parse_content_stream, text with pypdf), not the renderer's
own idea of what it drew.
"""

from __future__ import annotations

import io

import pikepdf
import pytest
from pypdf import PdfReader

from conftest import GAMES
from engine.load import load_game
from pipeline.render.deck_pdf import render_backs, render_fronts
from pipeline.render.pdfx import PdfxError, check_pdfx, finish

MEDIA = [0, 0, 234, 378]  # 3×5 in + 0.125 in bleed each side, in pt (216 + 18, 360 + 18)
TRIM = [9, 9, 225, 369]


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    """mini-plus (characters, a spell and a Power Crystal with rules text and an A indicator)."""
    out = tmp_path_factory.mktemp("print")
    deck = load_game(GAMES / "mini-plus")
    fronts = render_fronts(deck, out / "fronts.pdf")
    backs = render_backs(deck, out / "backs.pdf")
    return deck, fronts, backs


def _pdfs(rendered):
    _, fronts, backs = rendered
    return [fronts.path, backs.path]


def test_every_page_has_explicit_media_bleed_and_trim_boxes(rendered):
    for path in _pdfs(rendered):
        with pikepdf.open(path) as pdf:
            assert len(pdf.pages) > 0
            for page in pdf.pages:
                raw = page.obj
                assert [float(v) for v in raw["/MediaBox"]] == MEDIA
                assert [float(v) for v in raw["/BleedBox"]] == MEDIA
                assert [float(v) for v in raw["/TrimBox"]] == TRIM


def test_fronts_one_page_per_unique_card_in_deck_order_labelled_by_id(rendered):
    deck, fronts, backs = rendered
    ids = [c.id for c in deck.cards]
    assert list(fronts.pages) == ids == ["ember-apprentice", "forest-apprentice", "fireball", "ember-delver", "crystal-rally"]
    reader = PdfReader(fronts.path)
    assert len(reader.pages) == 5
    assert list(reader.page_labels) == ids
    assert [item.title for item in reader.outline] == ids
    assert list(backs.pages) == ["ember", "forest", "crystal"]
    assert list(PdfReader(backs.path).page_labels) == ["ember", "forest", "crystal"]


def test_every_font_is_embedded_upright_atkinson(rendered):
    for path in _pdfs(rendered):
        with pikepdf.open(path) as pdf:
            for page in pdf.pages:
                fonts = dict(page.obj.Resources.Font)
                assert fonts, "every card face has text"
                for font in fonts.values():
                    name = str(font.BaseFont)
                    assert "AtkinsonHyperlegible" in name and "Italic" not in name
                    assert "/FontFile2" in font.FontDescriptor, f"{name} is not embedded"
                    assert name[7] == "+", f"{name} is not a subset"
            every_font = [o for o in pdf.objects if isinstance(o, pikepdf.Dictionary) and o.get("/Type") == pikepdf.Name.Font]
            assert every_font and all("Helvetica" not in str(o.get("/BaseFont")) for o in every_font)


def _all_object_text(pdf: pikepdf.Pdf) -> bytes:
    chunks = []
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Stream):
            chunks.append(obj.stream_dict.unparse())
            if obj.get("/Subtype") != pikepdf.Name.Image and "/Length1" not in obj:
                chunks.append(obj.read_bytes())
        elif isinstance(obj, (pikepdf.Dictionary, pikepdf.Array)):
            chunks.append(obj.unparse())
    return b"\n".join(chunks)


def test_no_rgb_anywhere(rendered):
    for path in _pdfs(rendered):
        with pikepdf.open(path) as pdf:
            everything = _all_object_text(pdf)
            assert b"DeviceRGB" not in everything and b"CalRGB" not in everything
            colour_ops = set()
            for page in pdf.pages:
                for _, op in pikepdf.parse_content_stream(page, "rg RG k K g G sc scn SC SCN cs CS"):
                    colour_ops.add(str(op))
            assert colour_ops == {"k", "K"}  # CMYK fill and stroke only


def test_no_text_below_18_pt(rendered):
    for path in _pdfs(rendered):
        with pikepdf.open(path) as pdf:
            sizes = []
            for page in pdf.pages:
                for operands, op in pikepdf.parse_content_stream(page, "Tf Tm Tz"):
                    if str(op) == "Tf":
                        sizes.append(float(operands[1]))
                    elif str(op) == "Tm":  # text never scaled down by the text matrix
                        a, b, c, d = (float(v) for v in operands[:4])
                        assert (a, b, c, d) == (1.0, 0.0, 0.0, 1.0)
                    else:
                        pytest.fail("horizontal text scaling used")
            assert len(sizes) >= 2 * len(pdf.pages)
            assert min(sizes) >= 18.0


def test_pdfx_1a_keys_output_intent_and_trailer_id(rendered):
    for path in _pdfs(rendered):
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            assert str(info["/GTS_PDFXVersion"]) == "PDF/X-1:2003"
            assert str(info["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"
            assert info["/Trapped"] == pikepdf.Name("/False")
            assert str(info["/Title"]).startswith("Mini ICG Plus: card ")
            assert "/CreationDate" in info and "/ModDate" in info
            intents = list(pdf.Root.OutputIntents)
            assert len(intents) == 1
            assert intents[0].S == pikepdf.Name.GTS_PDFX
            assert str(intents[0].OutputConditionIdentifier) == "FOGRA39"
            assert str(intents[0].RegistryName) == "http://www.color.org"
            assert pdf.pdf_version == "1.4"
            assert len(pdf.trailer.ID) == 2
            assert check_pdfx(pdf) == []
        assert path.read_bytes().startswith(b"%PDF-1.4")


def test_two_renders_are_byte_identical(rendered, tmp_path):
    deck, fronts, backs = rendered
    again_f = render_fronts(deck, tmp_path / "f.pdf")
    again_b = render_backs(deck, tmp_path / "b.pdf")
    assert again_f.path.read_bytes() == fronts.path.read_bytes()
    assert again_b.path.read_bytes() == backs.path.read_bytes()


def test_front_and_back_text(rendered):
    _, fronts, backs = rendered
    reader = PdfReader(fronts.path)
    text = {cid: reader.pages[i].extract_text() for i, cid in enumerate(fronts.pages)}
    fireball = text["fireball"]
    for piece in ("?", "Fireball", "Rally! Enchant!", "Acorn", "placeholder art", "F"):
        assert piece in fireball
    crystal = text["crystal-rally"]
    for piece in ("Rally Crystal", "Rally!", "Play another card", "into the battle.", "Active", "C"):
        assert piece in crystal
    assert "placeholder art" not in crystal  # rules cards have no art oval
    back = PdfReader(backs.path).pages[2].extract_text()
    for piece in ("Mini ICG Plus", "C\nCrystal", "Power\nCrystal"):  # title, ring (letter, emblem), class name
        assert piece in back


def test_check_pdfx_rejects_rgb_and_finish_writes_nothing(tmp_path):
    from reportlab.pdfgen.canvas import Canvas
    from pipeline.render import fonts

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(234, 378), invariant=1, initialFontName=fonts.face("regular").name)
    c.setTrimBox((9, 9, 225, 369))
    c.setBleedBox((0, 0, 234, 378))
    c.setFillColorRGB(1, 0, 0)
    c.rect(0, 0, 50, 50, fill=1)
    c.showPage()
    c.save()
    target = tmp_path / "rgb.pdf"
    with pytest.raises(PdfxError, match="RGB colour operator"):
        finish(buf.getvalue(), target, "t", ["p1"])
    assert list(tmp_path.iterdir()) == []


def test_check_pdfx_rejects_an_rgb_image_and_a_missing_trim_box():
    from PIL import Image
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen.canvas import Canvas
    from pipeline.render import fonts

    buf = io.BytesIO()
    c = Canvas(buf, pagesize=(234, 378), invariant=1, initialFontName=fonts.face("regular").name)
    c.drawImage(ImageReader(Image.new("RGB", (4, 4), (0, 128, 255))), 10, 10, 40, 40)
    c.showPage()
    c.save()
    problems = check_pdfx(pikepdf.open(io.BytesIO(buf.getvalue())))
    assert "page 1: /TrimBox missing" in problems
    assert any(p.startswith("page 1: image") and "/DeviceRGB" in p for p in problems)
    assert "GTS_PDFXVersion missing or wrong" in problems and "0 GTS_PDFX output intents, expected 1" in problems


def test_art_image_is_converted_to_cmyk(game_copy):
    from PIL import Image

    folder = game_copy("mini")
    Image.new("RGB", (120, 90), (200, 40, 10)).save(folder / "flame.png")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Ember Apprentice\n", "    name: Ember Apprentice\n    image: flame.png\n", 1))
    deck = load_game(folder)
    result = render_fronts(deck, folder / "out.pdf")
    assert not [f for f in result.findings if f.code == "PR003"]
    with pikepdf.open(result.path) as pdf:
        images = [x for x in pdf.pages[0].obj.Resources.XObject.values() if x.Subtype == pikepdf.Name.Image]
        assert len(images) == 1 and images[0].ColorSpace == pikepdf.Name.DeviceCMYK
        # 2.5 × 2.1 in oval box at 300 dpi
        assert (int(images[0].Width), int(images[0].Height)) == (750, 630)
        assert check_pdfx(pdf) == []
    assert "placeholder art" not in PdfReader(result.path).pages[0].extract_text()


def test_missing_art_image_is_a_finding_and_falls_back_to_placeholder(game_copy):
    folder = game_copy("mini")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Ember Ranger\n", "    name: Ember Ranger\n    image: art/missing.png\n", 1))
    result = render_fronts(load_game(folder), folder / "out.pdf")
    found = [f for f in result.findings if f.code == "PR003"]
    assert len(found) == 1 and found[0].location.card == "ember-ranger" and "art/missing.png" in found[0].message
    assert found[0].location.file.endswith("cards.yaml") and found[0].location.line is not None
    assert "placeholder art" in PdfReader(result.path).pages[1].extract_text()
    info = [f for f in result.findings if f.code == "PR004"]
    assert len(info) == 1 and info[0].message.startswith("4 of 4 unique cards")


def test_card_size_that_does_not_match_the_layout_is_refused(game_copy, tmp_path):
    from pipeline.render.style import LayoutError

    folder = game_copy("mini")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("card: {width: 3in, height: 5in", "card: {width: 2.5in, height: 3.5in"))
    with pytest.raises(LayoutError, match="game.yaml:.*card-3x5-portrait"):
        render_fronts(load_game(folder), tmp_path / "x.pdf")
    assert not (tmp_path / "x.pdf").exists()


def _with_crystal_image(game_copy, image_bytes: bytes | None = None):
    """mini-plus with ``image: art/rally.png`` on its rules card (the Power Crystal), the file written when given."""
    game_copy("mini")  # mini-plus extends ../mini
    folder = game_copy("mini-plus")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    indicator: A\n", "    indicator: A\n    image: art/rally.png\n", 1))
    if image_bytes is not None:
        (folder / "art").mkdir()
        (folder / "art" / "rally.png").write_bytes(image_bytes)
    return folder


def test_image_on_a_rules_card_is_reported_not_dropped_silently(game_copy):
    from PIL import Image

    buf = io.BytesIO()
    Image.new("RGB", (120, 90), (200, 40, 10)).save(buf, "PNG")
    folder = _with_crystal_image(game_copy, buf.getvalue())
    deck = load_game(folder)
    result = render_fronts(deck, folder / "out.pdf")
    (finding,) = [f for f in result.findings if f.code == "PR009"]
    assert finding.name == "art-not-shown" and finding.severity.value == "warning"
    assert finding.location.card == "crystal-rally" and finding.location.file.endswith("cards.yaml")
    # cards.yaml of mini-plus: the inserted image: line is line 16, its value at column 12
    assert (finding.location.line, finding.location.column) == (16, 12)
    assert finding.message == ("card 'crystal-rally' names image 'art/rally.png', but layout card-3x5-portrait has no art box "
                               "on its front-rules face (cards with rules text): the image is not printed")
    assert not [f for f in result.findings if f.code in ("PR001", "PR003")]
    page = result.pages.index("crystal-rally")
    with pikepdf.open(result.path) as pdf:
        xobjects = pdf.pages[page].obj.Resources.get("/XObject", {})
        assert [x for x in xobjects.values() if x.Subtype == pikepdf.Name.Image] == []
    (folder / "art" / "rally.png").unlink()  # a missing file is said too (a new user's try saw only "not printed")
    (gone,) = [f for f in render_fronts(load_game(folder), folder / "out2.pdf").findings if f.code == "PR009"]
    assert gone.message.endswith(": the image is not printed (nor is the file there)")


def test_placeholder_count_leaves_out_cards_without_an_art_box(rendered, game_copy):
    # mini-plus: 4 cards without rules text (all placeholder art) and 1 rules card, which prints no art
    _, fronts, _ = rendered
    (info,) = [f for f in fronts.findings if f.code == "PR004"]
    assert info.message == "4 of 4 unique cards with an art box print with placeholder art (1 more prints no art: its face has no art box)"
    # an image named on the rules card (even a missing one) changes neither the count nor PR003
    folder = _with_crystal_image(game_copy)
    result = render_fronts(load_game(folder), folder / "out.pdf")
    assert [f.message for f in result.findings if f.code == "PR004"] == [info.message]
    assert [f.code for f in result.findings if f.code in ("PR003", "PR009")] == ["PR009"]


def test_page_dictionaries_from_a_template_are_the_bytes_reportlab_formats(game_copy, monkeypatch):
    """deck_pdf formats one page dictionary per distinct page and gives the next pages that text with
    their own content stream's reference: the files are the bytes of reportlab formatting every page,
    a card with an image (a page of its own resources, formatted by reportlab) among them."""
    from PIL import Image
    from reportlab.pdfbase.pdfdoc import PDFPage

    import pipeline.render.deck_pdf as deck_pdf

    folder = game_copy("mini")
    Image.new("RGB", (120, 90), (200, 40, 10)).save(folder / "flame.png")
    cards = folder / "cards.yaml"
    text = cards.read_text()
    cards.write_text(text.replace("    name: Ember Apprentice\n", "    name: Ember Apprentice\n    image: flame.png\n", 1))
    deck = load_game(folder)
    calls = []
    real_format = PDFPage.format
    monkeypatch.setattr(PDFPage, "format", lambda page, document: calls.append(page) or real_format(page, document))

    def both(tag):
        calls.clear()
        fronts = render_fronts(deck, folder / f"fronts-{tag}.pdf").path.read_bytes()
        return fronts + render_backs(deck, folder / f"backs-{tag}.pdf").path.read_bytes(), len(calls)

    templated, formatted = both("templated")
    monkeypatch.setattr(deck_pdf, "_page_key", lambda page: None)  # every page formatted by reportlab
    plain, every = both("plain")
    pages = len(deck.cards) + len(PdfReader(folder / "backs-plain.pdf").pages)
    assert every == pages and formatted < pages  # some pages came from a template
    assert templated == plain


def test_pages_are_freed_by_reference_counting_and_the_collector_is_left_as_found(tmp_path):
    """render_fronts/render_backs pause the cyclic collector while they draw (engine.gcpause) and leave no
    page in a cycle: once they return, no reportlab page object is alive even with the collector off
    (before, each page and its format closure formed a cycle only the collector freed: 14 objects a page).
    Reference: the interpreter's own list of live objects (gc.get_objects)."""
    import gc

    from reportlab.pdfbase.pdfdoc import PDFPage

    deck = load_game(GAMES / "mini-plus")
    gc.collect()
    gc.disable()
    try:
        render_fronts(deck, tmp_path / "fronts.pdf")
        render_backs(deck, tmp_path / "backs.pdf")
        assert not gc.isenabled()  # a pause inside a pause keeps it off
        assert [o for o in gc.get_objects() if isinstance(o, PDFPage)] == []
    finally:
        gc.enable()
    render_fronts(deck, tmp_path / "again.pdf")
    assert gc.isenabled()
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "fronts.pdf").read_bytes()

"""QR codes: the matrix (level M, cached), the size rule, and codes that decode from a 300 dpi raster."""

from __future__ import annotations

import pikepdf
import pytest
import zxingcpp

from conftest import CARDDATA, GAMES
from engine.load import load_game
from engine.units import pt_to_mm
from pipeline.common import raster
from pipeline.qr import codes as qr
from pipeline.common.layout import load_layout
from pipeline.common.raster import RasterError, open_document, render_region
from pipeline.render.deck_pdf import render_fronts

URL = "https://cards.example.invalid/mini/cards/ember-apprentice.html"  # 62 characters


def _qr_box_pdf():
    layout = load_layout()
    return layout.qr.to_pdf(layout.trim.height, layout.bleed)


@pytest.fixture(scope="module")
def mini_fronts(tmp_path_factory):
    deck = load_game(GAMES / "mini")
    return deck, render_fronts(deck, tmp_path_factory.mktemp("qr") / "fronts.pdf")


def test_matrix_is_version_4_at_level_m_without_quiet_zone():
    matrix = qr.qr_matrix(URL)
    # 62 bytes at level M need version 4 (capacity 62 bytes; ISO/IEC 18004 table 7): 17 + 4·4 = 33 modules.
    assert len(matrix) == 33 and all(len(row) == 33 for row in matrix)
    # finder pattern in the top-left corner: no quiet zone inside the matrix
    assert matrix[0][:7] == (True,) * 7 and matrix[1][:7] == (True,) + (False,) * 5 + (True,)


def test_matrix_is_cached_by_url():
    qr.qr_matrix.cache_clear()
    first = qr.qr_matrix(URL)
    assert qr.qr_matrix(URL) is first
    assert qr.qr_matrix.cache_info().hits == 1


def test_module_size_in_the_layout_box():
    box = _qr_box_pdf()
    assert box[2] == box[3] == 72.0  # 1 in
    # 72 pt / (33 + 8) modules = 1.756 pt = 0.620 mm
    assert pt_to_mm(qr.module_pt(URL, box)) == pytest.approx(0.6195, abs=1e-4)
    assert qr.check_qr_size(URL, box) == []


def test_a_url_too_long_for_half_millimetre_modules_is_a_finding(game_copy, tmp_path):
    folder = game_copy("mini")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace(
        'base_url: "https://cards.example.invalid/mini/"',
        'base_url: "https://cards.example.invalid/a-very-long-path/that-keeps-going/and-going/further-still/mini/"'))
    result = render_fronts(load_game(folder), tmp_path / "f.pdf")
    found = [f for f in result.findings if f.code == "QR001"]
    assert {f.location.card for f in found} == {"ember-apprentice", "ember-ranger", "forest-apprentice", "fireball"}
    first = found[0]
    assert first.location.card == "ember-apprentice"
    # 120-character URL: version 7 at level M (45 modules) + 8 quiet modules in 72 pt = 1.358 pt = 0.479 mm
    assert "URL of 120 characters needs 45×45 modules" in first.message and "0.48 mm" in first.message


def test_every_card_of_the_fixture_decodes_from_a_full_page_300_dpi_raster(mini_fronts):
    deck, result = mini_fronts
    with open_document(result.path) as pdf:
        for index, card in enumerate(deck.cards):
            image = render_region(pdf, index, None, 300)
            assert image.mode == "L"
            assert abs(image.size[0] - 975) <= 1 and abs(image.size[1] - 1575) <= 1  # 234 × 378 pt at 300 dpi
            codes = zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode, try_invert=False)
            assert [c.text for c in codes] == [deck.game.archive.url_for(card)]
            assert codes[0].ec_level == "M"


def test_the_qr_box_renders_alone_and_decodes(mini_fronts):
    deck, result = mini_fronts
    box = _qr_box_pdf()  # (27, 279, 72, 72) pt: 1 in at 300 dpi is 300 px a side
    image = render_region(result.path, 0, box, 300)
    assert image.mode == "L" and all(abs(side - 300) <= 1 for side in image.size)
    assert qr.decode_qr(result.path, 0, box) == [deck.game.archive.url_for(deck.cards[0])]
    assert render_region(result.path, 0, box, 150, grayscale=False).mode == "RGB"


def test_verify_opens_the_pdf_once_for_every_page(mini_fronts, monkeypatch):
    deck, result = mini_fronts
    opened = []
    real_open = raster._open
    monkeypatch.setattr(raster, "_open", lambda pdf: opened.append(pdf) or real_open(pdf))
    expected = [(c.id, deck.game.archive.url_for(c)) for c in deck.cards]
    assert len(expected) == 4 and qr.verify_qr(result.path, expected, _qr_box_pdf()) == []
    assert opened == [result.path]


def test_an_unreadable_pdf_or_a_missing_page_is_a_raster_error(mini_fronts, tmp_path):
    deck, result = mini_fronts
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"not a pdf\n")
    expected = [(deck.cards[0].id, "https://x.invalid/")]
    with pytest.raises(RasterError, match=r"cannot open PDF .*junk\.pdf"):
        qr.verify_qr(junk, expected, _qr_box_pdf())
    with pytest.raises(RasterError, match=r"cannot open PDF .*missing\.pdf"):
        qr.decode_qr(tmp_path / "missing.pdf", 0, _qr_box_pdf())
    with pytest.raises(RasterError, match=r"fronts\.pdf has 4 page\(s\); 5 card fronts were expected"):
        qr.verify_qr(result.path, expected * 5, _qr_box_pdf())
    with pytest.raises(RasterError, match=r"fronts\.pdf has 4 page\(s\); page 5 was asked for"):
        qr.decode_qr(result.path, 4, _qr_box_pdf())


def test_every_card_of_a_shipped_game_decodes(tmp_path):
    folder = CARDDATA / "apprentice-power-crystal"
    deck = load_game(folder)
    result = render_fronts(deck, tmp_path / "fronts.pdf")
    assert not [f for f in result.findings if f.code.startswith("QR")]
    expected = [(c.id, deck.game.archive.url_for(c)) for c in deck.cards]
    assert len(expected) == len(result.pages) > 60
    assert qr.verify_qr(result.path, expected, _qr_box_pdf()) == []


def test_verify_reports_a_code_that_does_not_match(mini_fronts):
    deck, result = mini_fronts
    expected = [(c.id, deck.game.archive.url_for(c)) for c in deck.cards]
    expected[1] = ("ember-ranger", "https://elsewhere.invalid/")
    (finding,) = qr.verify_qr(result.path, expected, _qr_box_pdf())
    assert finding.code == "QR002" and finding.location.card == "ember-ranger"
    assert "page 2" in finding.message and "ember-ranger.html" in finding.message


def test_quiet_zone_is_white_and_modules_are_vectors(mini_fronts):
    deck, result = mini_fronts
    box = _qr_box_pdf()
    url = deck.game.archive.url_for(deck.cards[0])
    module = qr.module_pt(url, box)
    with pikepdf.open(result.path) as pdf:
        assert "/XObject" not in pdf.pages[0].obj.Resources  # no raster anywhere on a placeholder-art card
    scale = 300 / 72
    image = render_region(result.path, 0, None, 300)
    x0, top = box[0] * scale, (378 - box[1] - box[3]) * scale
    quiet = 4 * module * scale
    inner = 1.0  # stay one pixel clear of anti-aliased edges
    side = (len(qr.qr_matrix(url)) + 8) * module * scale
    pixels = image.load()
    for i in range(int(x0 + inner), int(x0 + side - inner)):
        for j in list(range(int(top + inner), int(top + quiet - inner))) + list(range(int(top + side - quiet + inner), int(top + side - inner))):
            assert pixels[i, j] >= 250, (i, j)
    for j in range(int(top + inner), int(top + side - inner)):
        for i in list(range(int(x0 + inner), int(x0 + quiet - inner))) + list(range(int(x0 + side - quiet + inner), int(x0 + side - inner))):
            assert pixels[i, j] >= 250, (i, j)
    # the first module of the finder pattern is dark (pdfium shows 100 % K as a near-black grey)
    assert pixels[int(x0 + quiet + module * scale / 2), int(top + quiet + module * scale / 2)] <= 64


@pytest.mark.parametrize("url", [URL, "https://x.invalid/", "https://cards.example.invalid/apprentice-power-crystal/cards/glacier-ranger-upgraded.html"])
def test_version_is_the_smallest_that_holds_the_url(url):
    """Cross-check the size against the independent ``qrcode`` package's smallest fit at level M."""
    import qrcode
    from qrcode.constants import ERROR_CORRECT_M

    reference = qrcode.QRCode(error_correction=ERROR_CORRECT_M, border=0)
    reference.add_data(url)
    reference.make(fit=True)
    assert len(qr.qr_matrix(url)) == len(reference.get_matrix()) == 17 + 4 * reference.version


def test_empty_and_oversized_urls_are_refused():
    with pytest.raises(ValueError, match="empty"):
        qr.qr_matrix("")
    with pytest.raises(ValueError, match="3000 characters"):
        qr.qr_matrix("https://x.invalid/" + "a" * 2982)


def _runs_path(matrix) -> str:
    """The module path written out run by run from the tuple matrix (what the numpy formatting must equal)."""
    ops = []
    for r, row in enumerate(matrix):
        c = 0
        while c < len(row):
            if not row[c]:
                c += 1
                continue
            start = c
            while c < len(row) and row[c]:
                c += 1
            ops.append(f"{start} {r} {c - start} 1 re")
    return "\n".join(ops + ["f"])


@pytest.mark.parametrize("length", [1, 20, 62, 150, 400, 1200, 2300])
def test_module_path_is_one_rectangle_per_run_of_dark_modules(length):
    url = ("https://x.invalid/" + "ab9-Z/_" * 400)[:length]
    path = qr._module_path(url)
    assert path == _runs_path(qr.qr_matrix(url))
    assert qr.modules(url) == len(qr.qr_matrix(url))
    if length == 2300:  # version 40: three-digit rows print whole (the bottom-left finder's last row)
        assert qr.modules(url) == 177 and "\n0 176 7 1 re\n" in path


def test_decode_reads_the_pixels_render_region_gives(mini_fronts, monkeypatch):
    import numpy as np

    deck, result = mini_fronts
    box = _qr_box_pdf()
    seen = []
    real_read = zxingcpp.read_barcodes
    monkeypatch.setattr(zxingcpp, "read_barcodes", lambda image, **kw: seen.append(np.array(image)) or real_read(image, **kw))
    for index, card in enumerate(deck.cards):
        assert qr.decode_qr(result.path, index, box) == [deck.game.archive.url_for(card)]
        m = qr.DECODE_MARGIN_PT
        reference = np.asarray(render_region(result.path, index, (box[0] - m, box[1] - m, box[2] + 2 * m, box[3] + 2 * m), 300))
        assert seen[-1].shape == reference.shape == (315, 316) and np.array_equal(seen[-1], reference)

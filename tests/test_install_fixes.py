"""Issue 23's small fixes: signed lengths, the font found through fontpkg's API, transparent
art printed on the card background, templates read with the located YAML loader."""

from __future__ import annotations

import pytest
from PIL import Image

from conftest import GAMES
from engine.load import load_game
from engine.units import PT_PER_MM, parse_length
from pipeline.common.raster import render_page
from pipeline.render.deck_pdf import render_fronts


@pytest.mark.parametrize("text,pt", [("+1.5mm", 1.5 * PT_PER_MM), ("-0.5mm", -0.5 * PT_PER_MM), ("+.5in", 36.0), ("+18pt", 18.0)])
def test_signed_lengths_parse(text, pt):
    # a reading off the duplex calibration sheet (+ right and up, − left and down) is typed with its sign
    assert parse_length(text) == pytest.approx(pt)


@pytest.mark.parametrize("bad", ["++1mm", "+-1mm", "+mm", "1.5 +mm"])
def test_malformed_signs_are_refused(bad):
    with pytest.raises(ValueError):
        parse_length(bad)


def test_font_files_come_from_fontpkg_public_api():
    import fontpkg

    from pipeline.render.fonts import _font_files, face

    files = _font_files()
    assert files["regular"] == str(fontpkg.path("Atkinson Hyperlegible", 400))
    assert files["regular"].endswith("AtkinsonHyperlegible-Regular.ttf")
    assert files["bold"].endswith("AtkinsonHyperlegible-Bold.ttf")
    assert face("bold").name == "AtkinsonHyperlegible-Bold"


def test_transparent_art_prints_as_the_card_background_not_black(game_copy):
    """Reference: pdfium's own rendering of the card's vector background fill next to the art.

    The art is a PNG whose left half is fully transparent and right half opaque red. Before
    the fix the transparent half printed 100/100/100 CMY (rendered near black)."""
    folder = game_copy("mini")
    art = Image.new("RGBA", (200, 100), (0, 0, 0, 0))
    art.paste(Image.new("RGBA", (100, 100), (200, 40, 10, 255)), (100, 0))
    art.save(folder / "half.png")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("    name: Ember Apprentice\n", "    name: Ember Apprentice\n    image: half.png\n", 1))
    game = folder / "game.yaml"  # a light orange Ember (not paper white, which would hide the fault's fix)
    game.write_text(game.read_text().replace('background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}', 'background: {cmyk: [0, 20, 40, 0], srgb: "#ffcc99"}', 1))
    deck = load_game(folder)
    result = render_fronts(deck, folder / "out.pdf")
    raster = render_page(result.path, 0, dpi=150)
    # the art oval's box is 0.25 in, 1.32 in, 2.5 × 2.1 in from the trim's top-left (card-3x5-portrait)
    centre_y = (1.32 + 1.05) * 25.4
    transparent = raster.image.getpixel(tuple(round(v) for v in raster.mm_to_px((0.25 + 0.7) * 25.4, centre_y)))
    opaque = raster.image.getpixel(tuple(round(v) for v in raster.mm_to_px((0.25 + 1.9) * 25.4, centre_y)))
    # the art box's top-left corner lies outside the oval: there the vector background fill shows
    background = raster.image.getpixel(tuple(round(v) for v in raster.mm_to_px((0.25 * 25.4) + 2, (1.32 * 25.4) + 2)))
    assert max(abs(a - b) for a, b in zip(transparent, background)) <= 2, (transparent, background)
    assert sum(transparent) > 150  # not the near-black a dropped alpha gives
    assert opaque[0] > 150 and opaque[2] < 80  # the opaque half stays red


def test_to_cmyk_uses_the_background_inks_exactly():
    from pipeline.render.art import to_cmyk

    image = Image.new("RGBA", (2, 1), (0, 0, 0, 0))
    image.putpixel((1, 0), (255, 255, 255, 255))
    out = to_cmyk(image, (40.0, 0.0, 60.0, 10.0))
    assert out.mode == "CMYK"
    assert out.getpixel((0, 0)) == (102, 0, 153, 26)  # 40/0/60/10 % of 255, rounded
    assert out.getpixel((1, 0)) == (0, 0, 0, 0)  # opaque white stays paper white


def _numbered(text: str, starts: str) -> int:
    """The 1-based number of the first line of ``text`` that starts with ``starts``."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(starts))


def test_a_layout_with_a_repeated_key_is_an_error_at_its_line(tmp_path, monkeypatch):
    from pipeline.common import layout
    from pipeline.common.templatefile import TemplateError

    text = (layout.LAYOUTS / "card-3x5-portrait.yaml").read_text()
    first = _numbered(text, "name:")
    (tmp_path / "twice.yaml").write_text(text.replace("\nname:", "\nname: other\nname:", 1))
    monkeypatch.setattr(layout, "LAYOUTS", tmp_path)
    with pytest.raises(TemplateError, match=rf"twice\.yaml:{first + 1}:1: duplicate key 'name' \(first written at line {first}\)"):
        layout.load_layout("twice")


def test_a_layout_value_the_schema_refuses_names_its_line(tmp_path, monkeypatch):
    from pipeline.common import layout
    from pipeline.common.templatefile import TemplateError

    text = (layout.LAYOUTS / "card-3x5-portrait.yaml").read_text().replace("safe_inset: ", "safe_inset: 9 #", 1)
    (tmp_path / "bare.yaml").write_text(text)
    monkeypatch.setattr(layout, "LAYOUTS", tmp_path)
    with pytest.raises(TemplateError, match=rf"bare\.yaml:{_numbered(text, 'safe_inset:')}:\d+: field safe_inset: .*unit"):
        layout.load_layout("bare")


def test_a_sheets_file_with_a_repeated_key_is_an_error_at_its_line(tmp_path):
    from pipeline.render.sheets import SHEETS_FILE, ImpositionError, load_sheets

    text = SHEETS_FILE.read_text()
    lines = text.splitlines()
    at = _numbered(text, "  letter:")
    lines.insert(at, lines[at])  # the preset's first field written twice
    (tmp_path / "sheets.yaml").write_text("\n".join(lines) + "\n")
    key = lines[at].split(":")[0].strip()
    with pytest.raises(ImpositionError, match=rf"sheets\.yaml:{at + 2}:\d+: duplicate key '{key}'"):
        load_sheets(tmp_path / "sheets.yaml")


def test_an_embosser_profile_with_a_repeated_key_is_an_error_at_its_line(tmp_path):
    from pipeline.emboss.profiles import EMBOSSERS, ProfileError, read_profile

    text = (EMBOSSERS / "card-3x5.yaml").read_text()
    at = _numbered(text, "cell_pitch:")
    (tmp_path / "card-3x5.yaml").write_text(text.replace("\ncell_pitch:", "\ncell_pitch: 6mm\ncell_pitch:", 1))
    with pytest.raises(ProfileError, match=rf"card-3x5\.yaml:{at + 1}:1: duplicate key 'cell_pitch'"):
        read_profile(tmp_path / "card-3x5.yaml")

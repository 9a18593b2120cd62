"""WCAG 2 contrast of the palettes: reference values, the shipped palettes, and the PR002 finding."""

from __future__ import annotations

import pytest

from conftest import CARDDATA
from engine.load import find_games, load_game
from pipeline.render.contrast import contrast_ratio, palette_findings, relative_luminance


def test_reference_values():
    # WebAIM's contrast checker: #767676 on white is 4.54:1, #777777 on white 4.48:1.
    assert contrast_ratio("#767676", "#ffffff") == pytest.approx(4.54, abs=0.005)
    assert contrast_ratio("#777777", "#ffffff") == pytest.approx(4.48, abs=0.005)
    assert contrast_ratio("#000000", "#ffffff") == 21.0
    assert contrast_ratio("#ffffff", "#000000") == 21.0
    assert contrast_ratio("#3a7bd5", "#3a7bd5") == 1.0
    assert relative_luminance("#ffffff") == 1.0 and relative_luminance("#000000") == 0.0


def test_malformed_colour_is_refused():
    with pytest.raises(ValueError, match="rrggbb"):
        contrast_ratio("red", "#ffffff")


# Text on background for the shipped palettes (sRGB from carddata/*/game.yaml).
# Checked by hand once for Ember: #9e2a12 linearises to R 0.34190, G 0.023149, B 0.006052,
# L = 0.2126·R + 0.7152·G + 0.0722·B = 0.089681; (1 + 0.05) / (0.089681 + 0.05) = 7.517.
SHIPPED = {
    ("apprentice", "ember"): ("#ffffff", "#9e2a12", 7.52),
    ("apprentice", "forest"): ("#000000", "#86bd4a", 9.39),
    ("apprentice", "glacier"): ("#0a1f44", "#e6f4fc", 14.48),
    ("apprentice", "spirit"): ("#ffffff", "#24124a", 16.66),
    ("apprentice-power-crystal", "power-crystal"): ("#000000", "#e07ab8", 7.65),
    ("enchant", "phoenix"): ("#ffffff", "#a3260f", 7.39),
    ("enchant", "enchant"): ("#000000", "#4aa8d8", 7.88),
    ("claim-reinforcements-magic", "wizards"): ("#ffffff", "#1b2a6b", 13.21),
    ("claim-reinforcements-magic", "artifacts"): ("#ffffff", "#5a3a00", 10.29),
}


@pytest.mark.parametrize(("game", "cls"), sorted(SHIPPED))
def test_shipped_palette_values(game, cls):
    folder = CARDDATA / game
    palette = load_game(folder).game.class_by_id(cls).palette
    text, background, ratio = SHIPPED[(game, cls)]
    assert (palette.text.srgb, palette.background.srgb) == (text, background)
    assert contrast_ratio(palette.text.srgb, palette.background.srgb) == pytest.approx(ratio, abs=0.005)


def test_every_shipped_palette_reaches_7_to_1():
    games = find_games(CARDDATA)
    assert games, "no shipped games"
    for folder in games:
        game = load_game(folder).game
        assert palette_findings(game) == [], folder.name
        for cls in game.classes:
            assert contrast_ratio(cls.palette.text.srgb, cls.palette.background.srgb) >= 7.0


def test_a_low_contrast_palette_is_a_finding(game_copy):
    folder = game_copy("mini")
    game_file = folder / "game.yaml"
    text = game_file.read_text()
    # the first class (ember): grey #767676 text on white
    text = text.replace('text: {cmyk: [0, 0, 0, 100], srgb: "#000000"}', 'text: {cmyk: [0, 0, 0, 54], srgb: "#767676"}', 1)
    game_file.write_text(text)
    (finding,) = palette_findings(load_game(folder).game)
    assert finding.code == "PR002" and finding.name == "text-contrast-too-low"
    assert "class 'ember'" in finding.message and "4.54:1" in finding.message
    assert finding.location.file.endswith("game.yaml") and finding.location.line == 15  # the text: line of ember's palette


def test_cmyk_to_srgb_and_cielab_reference_values():
    from pipeline.render.contrast import cmyk_to_srgb, delta_e76, srgb_to_lab

    # R = 255·(1−C)(1−K) …: K 54 % → 255 × 0.46 = 117.3 → 0x75; Ember's ground 0/73/89/38 → 158, 42.7, 17.4.
    assert cmyk_to_srgb((0, 0, 0, 54)) == "#757575"
    assert cmyk_to_srgb((0, 73, 89, 38)) == "#9e2b11"
    assert (cmyk_to_srgb((0, 0, 0, 0)), cmyk_to_srgb((0, 0, 0, 100)), cmyk_to_srgb((100, 0, 0, 0))) == ("#ffffff", "#000000", "#00ffff")
    assert srgb_to_lab("#000000") == (0.0, 0.0, 0.0)
    assert srgb_to_lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.02)
    # CIELAB of sRGB red (255, 0, 0), D65: L 53.24, a 80.09, b 67.20 (Bruce Lindbloom's calculator)
    assert srgb_to_lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.05)
    assert delta_e76("#000000", "#ffffff") == pytest.approx(100.0, abs=0.02)
    assert delta_e76("#9e2a12", "#9e2b11") == pytest.approx(0.69, abs=0.01)


def test_every_shipped_palette_colour_agrees_in_cmyk_and_srgb_and_reaches_7_to_1_as_printed():
    from pipeline.render.contrast import cmyk_to_srgb, delta_e76

    for folder in find_games(CARDDATA):
        for cls in load_game(folder).game.classes:
            pal = cls.palette
            assert contrast_ratio(cmyk_to_srgb(pal.text.cmyk), cmyk_to_srgb(pal.background.cmyk)) >= 7.0, (folder.name, cls.id)
            for colour in (pal.background, pal.text, pal.accent):
                if colour is not None:
                    assert delta_e76(colour.srgb, cmyk_to_srgb(colour.cmyk)) < 1.0, (folder.name, cls.id, colour)


def test_a_cmyk_text_colour_lighter_than_its_srgb_is_pr002_and_pr008(game_copy):
    folder = game_copy("mini")
    game_file = folder / "game.yaml"
    # ember's text: sRGB black (21:1 on white) but CMYK 40 % black, which prints #999999 (2.85:1)
    game_file.write_text(game_file.read_text().replace(
        'text: {cmyk: [0, 0, 0, 100], srgb: "#000000"}', 'text: {cmyk: [0, 0, 0, 40], srgb: "#000000"}', 1))
    contrast, mismatch = palette_findings(load_game(folder).game)
    assert (contrast.code, contrast.severity.value) == ("PR002", "error")
    assert contrast.message == ("class 'ember': as printed (CMYK as sRGB) text #999999 on background #ffffff "
                                "has contrast 2.85:1, below 7:1")
    assert contrast.location.line == 15  # ember's text: line
    assert (mismatch.code, mismatch.name, mismatch.severity.value) == ("PR008", "cmyk-srgb-mismatch", "warning")
    assert mismatch.message == ("class 'ember': text cmyk [0, 0, 0, 40] is about #999999 in sRGB, but its srgb is #000000 "
                                "(ΔE*ab 63.2, over 10)")
    assert (mismatch.location.line, mismatch.location.column) == (15, 13)


def test_a_background_whose_srgb_names_another_colour_is_only_pr008(game_copy):
    folder = game_copy("mini")
    game_file = folder / "game.yaml"
    # forest's ground: CMYK white, sRGB a pale yellow #ffee99 (ΔE 44.0); black text keeps 17.9:1 and 21:1
    text = game_file.read_text()
    head, tail = text.split("  - id: forest", 1)
    tail = tail.replace('background: {cmyk: [0, 0, 0, 0], srgb: "#ffffff"}', 'background: {cmyk: [0, 0, 0, 0], srgb: "#ffee99"}', 1)
    game_file.write_text(head + "  - id: forest" + tail)
    (finding,) = palette_findings(load_game(folder).game)
    assert finding.code == "PR008"
    assert finding.message == ("class 'forest': background cmyk [0, 0, 0, 0] is about #ffffff in sRGB, but its srgb is #ffee99 (ΔE*ab 44.0, over 10)")
    assert finding.location.line == 21  # forest's background: line

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

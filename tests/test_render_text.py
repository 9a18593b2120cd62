"""Large-print text: wrap and fit at 18 pt or more, overflow as a PR001 finding, styles under 18 pt refused."""

from __future__ import annotations

import pikepdf
import pytest
import yaml
from pypdf import PdfReader

from engine.load import load_game
from pipeline.common.layout import CardLayout, load_layout
from pipeline.render import fonts
from pipeline.render.deck_pdf import render_fronts
from pipeline.render.style import LayoutError, design_for
from pipeline.render.textfit import Paragraph, fit, wrap

BOLD = fonts.face("bold")
REGULAR = fonts.face("regular")


def test_font_metrics_come_from_the_embedded_ttf():
    # Atkinson Hyperlegible 1.006 hhea/OS2: ascent 950, descent -290 units per 1000.
    assert (BOLD.ascent, BOLD.descent) == (0.95, -0.29)
    # "Ember Apprentice" in the bold face: 8.492 em (sum of advance widths), so 203.808 pt at 24 pt.
    assert BOLD.width("Ember Apprentice", 24) == pytest.approx(203.808)


def test_wrap_breaks_between_words_only():
    lines, too_wide = wrap("Roll the D12 and add it to the power".split(), REGULAR, 18, 100)
    assert too_wide is None
    assert all(REGULAR.width(line, 18) <= 100 for line in lines)
    assert " ".join(lines) == "Roll the D12 and add it to the power"


def test_fit_keeps_the_preferred_size_when_it_fits_and_shrinks_to_fit_otherwise():
    one_line = fit([Paragraph("Fireball", BOLD, 24, 18, 1.2)], 180, 28.8)
    assert one_line.fits and one_line.sizes == (24,) and [l.text for l in one_line.lines] == ["Fireball"]
    # 203.8 pt at 24 pt does not fit 180 pt on one line; at 21 pt it is 178.3 pt wide.
    shrunk = fit([Paragraph("Ember Apprentice", BOLD, 24, 18, 1.2)], 180, 28.8)
    assert shrunk.fits and shrunk.sizes == (21,) and [l.text for l in shrunk.lines] == ["Ember Apprentice"]
    assert shrunk.lines[0].x == pytest.approx((180 - BOLD.width("Ember Apprentice", 21)) / 2)


def test_fit_never_goes_below_18_pt_and_reports_the_overflow():
    text = "Play in Phase Two after each player has played a card. " * 3
    result = fit([Paragraph(text, REGULAR, 20, 18, 1.2)], 180, 90)
    assert not result.fits
    assert result.sizes == (18,)
    assert all(line.size >= 18 for line in result.lines)
    assert len(result.lines) == 4  # 90 pt / (18 pt × 1.2) = 4 lines
    assert result.lines[-1].text.endswith("…")
    assert result.needed_height > result.box_height == 90
    assert result.overflow_chars > 0


def test_styles_under_18_pt_are_not_allowed():
    with pytest.raises(ValueError):
        fit([Paragraph("x", REGULAR, 16, 16)], 100, 100)
    data = load_layout().model_dump()
    data["text"]["rules"]["min_size"] = "12pt"
    bad = CardLayout.model_validate(yaml.safe_load(yaml.safe_dump(_units(data))))
    with pytest.raises(LayoutError, match=r"text\.rules.*18 pt"):
        design_for(bad)


def _units(data):
    """model_dump gives boxes in pt floats; write them back with their unit for re-validation."""
    for key in ("bleed", "safe_inset", "critical_inset"):
        data[key] = f"{data[key]}pt"
    data["trim"] = {k: f"{v}pt" for k, v in data["trim"].items()}
    data["boxes"] = {n: {k: f"{v}pt" for k, v in b.items()} for n, b in data["boxes"].items()}
    return data


def test_a_face_naming_an_unknown_box_is_refused():
    data = _units(load_layout().model_dump())
    data["faces"]["front-art"]["name"] = "nameplate"
    with pytest.raises(LayoutError, match=r"faces\.front-art\.name: no box named 'nameplate'"):
        design_for(CardLayout.model_validate(data))


def test_the_shipped_layout_keeps_text_inside_the_critical_area():
    layout = load_layout()
    design = design_for(layout)
    lo, hi_x, hi_y = layout.critical_inset, layout.trim.width - layout.critical_inset, layout.trim.height - layout.critical_inset
    for face in ("front-art", "front-rules", "back"):
        for element, name in design.face(face).items():
            box = layout.boxes[name]
            assert box.x >= lo - 1e-6 and box.y >= lo - 1e-6, (face, element)
            assert box.x + box.width <= hi_x + 1e-6 and box.y + box.height <= hi_y + 1e-6, (face, element)
    assert min(style.min_size for style in design.text.values()) >= 18


LONG_NAME = "The Exceedingly Long-Winded Archmage of the Northern Glacier Who Never Stops Talking"


def test_an_overlong_name_is_a_finding_not_smaller_text(game_copy):
    folder = game_copy("mini")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Ember Ranger", f"name: {LONG_NAME}", 1))
    result = render_fronts(load_game(folder), folder / "fronts.pdf")
    found = [f for f in result.findings if f.code == "PR001"]
    assert len(found) == 1
    finding = found[0]
    assert finding.name == "text-does-not-fit" and finding.severity.value == "error"
    assert finding.location.card == "ember-ranger"
    assert finding.location.file.endswith("cards.yaml") and finding.location.line == 12  # the name: line
    # 6 lines at 18 pt × 1.2 = 129.6 pt in a 0.78 in (56.2 pt) box: 2 print ("The Exceedingly",
    # "Long-Winded…"); the 4 left out hold "Archmage of the Northern Glacier Who Never Stops
    # Talking", 48 letters without the spaces (8+2+3+8+7+3+5+5+7, counted by hand).
    assert finding.message == ("card 'ember-ranger' name does not fit its box at 18 pt: needs 129.6 pt of height at 18 pt, "
                               "the box has 56.2 pt: 4 lines too many (48 characters do not print)")
    page = PdfReader(result.path).pages[1].extract_text()
    assert "The Exceedingly" in page and "…" in page and "Talking" not in page
    with pikepdf.open(result.path) as pdf:
        sizes = [float(ops[1]) for ops, op in pikepdf.parse_content_stream(pdf.pages[1], "Tf")]
    assert min(sizes) >= 18


def test_a_word_wider_than_its_box_is_named(game_copy):
    folder = game_copy("mini")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Fireball", "name: Supercalifragilisticexpialidocious", 1))
    result = render_fronts(load_game(folder), folder / "fronts.pdf")
    (finding,) = [f for f in result.findings if f.code == "PR001"]
    assert finding.location.card == "fireball"
    # It is broken over the 2 lines the name box holds, so every character prints: no count of
    # characters (it used to say "(0 characters too long)").
    assert finding.message == ("card 'fireball' name does not fit its box at 18 pt: the word "
                               "'Supercalifragilisticexpialidocious' is wider than the 180.0 pt box at 18 pt "
                               "and is broken across lines")
    page = PdfReader(result.path).pages[3].extract_text()
    assert "Supercalifragilistice" in page and "xpialidocious" in page and "…" not in page


# Rules text of 8 lines at 18 pt whose last line is the one-letter word "a": under the
# "Rally!" heading (keywords style, leading 1.24) it needs 18 × 1.24 + 8 × 18 × 1.2 = 195.12 pt
# in the 2.68 in (192.96 pt) rules box.
ONE_LETTER_OVER = "Play another card into the battle. " * 4 + "Then draw a"


def test_one_line_too_many_counts_its_letters_not_zero():
    # The old estimate (characters minus one per kept line) came out as 0 here.
    result = fit([Paragraph("Rally!", BOLD, 22, 18, 1.24), Paragraph(ONE_LETTER_OVER, REGULAR, 20, 18, 1.2)], 180, 192.96, "top")
    assert not result.fits and result.sizes == (18, 18)
    assert (result.overflow_lines, result.overflow_chars) == (1, 1)
    assert [line.text for line in result.lines][-1] == "the battle. Then draw…"  # fits with the ellipsis: nothing displaced
    assert result.shortfall(180) == ("needs 195.1 pt of height at 18 pt, the box has 193.0 pt: "
                                     "1 line too many (1 character does not print)")


def test_overflowing_rules_text_is_reported_in_lines_and_letters(game_copy):
    game_copy("mini")  # mini-plus extends ../mini
    folder = game_copy("mini-plus")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("rules: Play another card into the battle.", f"rules: {ONE_LETTER_OVER}", 1))
    result = render_fronts(load_game(folder), folder / "fronts.pdf")
    (finding,) = [f for f in result.findings if f.code == "PR001"]
    assert finding.location.card == "crystal-rally"
    assert finding.message == ("card 'crystal-rally' rules does not fit its box at 18 pt: needs 195.1 pt of height at 18 pt, "
                               "the box has 193.0 pt: 1 line too many (1 character does not print)")


def test_a_character_without_a_glyph_is_a_finding(game_copy):
    folder = game_copy("mini")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Fireball", "name: Fire ★ Ball", 1))
    result = render_fronts(load_game(folder), folder / "fronts.pdf")
    (finding,) = [f for f in result.findings if f.code == "PR005"]
    assert finding.location.card == "fireball" and "U+2605" in finding.message


def test_a_keyword_is_never_split_across_lines():
    # card.py joins the words of one keyword with a no-break space; keywords break only between each other
    text = "Epic\u00a0Chance! Rally!"
    narrow = BOLD.width("Epic Chance!", 18) + 1  # room for one keyword a line
    result = fit([Paragraph(text, BOLD, 18, 18)], narrow, 200)
    assert result.fits and [line.text for line in result.lines] == ["Epic\u00a0Chance!", "Rally!"]


@pytest.mark.parametrize("text", ["Ember Apprentice", "Fire \u2605 Mage \u2605\u2606", "\u2013 Magic\u00a0\u2212 5 \u2026", "", " \t\n",
                                  "Ic\u00f4ne \u4e2d \u20ac\U0001f600 x\u4e2d"])
def test_missing_glyphs_and_word_splitting_match_a_plain_per_character_reference(text):
    """Reference: the per-character loops the checks were written as (every non-space character without a
    glyph, in order, once; words split on spaces, a word of dashes only bound to the word before it)."""
    from pipeline.render.textfit import _DASHES, _BREAK, _normalise, typeset

    expected: list[str] = []
    for ch in text:
        if not ch.isspace() and ord(ch) not in BOLD.codepoints and ch not in expected:
            expected.append(ch)
    assert BOLD.missing(text) == expected
    words: list[str] = []
    for word in _BREAK.split(typeset(text + " - \u2014\u2013 x").strip()):
        if word and words and all(ch in _DASHES for ch in word):
            words[-1] = f"{words[-1]}\u00a0{word}"
        elif word:
            words.append(word)
    assert _normalise(text + " - \u2014\u2013 x") == words

"""Card braille blocks: field order, word wrap into the layout's box, overflow and other BR findings."""

from __future__ import annotations

import pytest

from engine.load import find_games, load_game
from engine.model import Deck
from pipeline.braille.cells import is_six_dot
from pipeline.braille.geometry import get_profile
from pipeline.braille.layout import BrailleBoxTooSmall, layout_deck, wrap
from pipeline.braille.power import PowerEncoding
from pipeline.braille.translate import translate
from pipeline.common.layout import Box, load_layout

from conftest import CARDDATA


def with_card(deck: Deck, card_id: str, **changes) -> Deck:
    """The deck with one card's fields changed (a copy; the fixture stays intact)."""
    cards = [c.model_copy(update=changes) if c.id == card_id else c for c in deck.cards]
    return deck.model_copy(update={"cards": cards})


@pytest.fixture
def mini(mini_dir) -> Deck:
    return load_game(mini_dir)


# --- wrapping ------------------------------------------------------------------------


def test_name_that_fits_exactly_stays_on_one_line():
    cells = translate("Ember Imp")
    assert cells == "⠠⠑⠍⠃⠻⠀⠠⠊⠍⠏" and len(cells) == 10
    assert wrap([cells], 10) == (["⠠⠑⠍⠃⠻⠀⠠⠊⠍⠏"], [])


def test_name_one_cell_too_long_needs_a_second_line():
    cells = translate("Ember Imps")
    assert len(cells) == 11
    assert wrap([cells], 10) == (["⠠⠑⠍⠃⠻", "⠠⠊⠍⠏⠎"], [])


def test_numeric_indicator_stays_with_its_digits():
    # "Play 1234": 5 + 1 + 5 cells; the break falls at the blank, never between ⠼ and ⠁.
    cells = translate("Play 1234")
    assert cells == "⠠⠏⠇⠁⠽⠀⠼⠁⠃⠉⠙"
    assert wrap([cells], 10)[0] == ["⠠⠏⠇⠁⠽", "⠼⠁⠃⠉⠙"]


def test_keywords_are_kept_whole_when_they_fit():
    epic, rally = translate("Epic Chance!"), translate("Rally!")
    assert wrap([rally, epic], 10)[0] == [rally, "⠠⠑⠏⠊⠉", "⠠⠡⠨⠑⠖"]  # "Epic Chance!" is 11 cells
    assert wrap([translate("Grow!"), rally], 14)[0] == ["⠠⠛⠗⠪⠖⠀⠠⠗⠁⠇⠇⠽⠖"]


def test_over_long_word_is_hyphenated_and_reported():
    lines, divided = wrap([translate("Supercalifragilistic")], 10)
    assert lines == ["⠠⠎⠥⠏⠻⠉⠁⠇⠊⠤", "⠋⠗⠁⠛⠊⠇⠊⠌⠊⠉"]  # 19 cells: 9 + hyphen, then exactly 10
    assert divided == ["⠠⠎⠥⠏⠻⠉⠁⠇⠊⠋⠗⠁⠛⠊⠇⠊⠌⠊⠉"]


def test_hyphenation_never_ends_a_line_with_a_numeric_indicator():
    lines, _ = wrap(["⠁⠃⠉⠙⠑⠋⠛⠓⠼⠁⠃"], 10)
    assert len(lines) == 2 and lines[0].endswith("⠤") and not lines[0].endswith("⠼⠤")
    assert "".join(lines).replace("⠤", "") == "⠁⠃⠉⠙⠑⠋⠛⠓⠼⠁⠃"


def test_wrap_refuses_tiny_widths():
    with pytest.raises(ValueError, match="lines of 2 cells"):
        wrap(["⠁"], 2)


# --- blocks of the fixture game (each line checked by hand: see the translate specs) ---------


def fixed_layout(y: str = "1.2in", height: str = "3.55in"):
    """The shipped layout with the braille box pinned (the print template may move it)."""
    layout = load_layout()
    return layout.model_copy(update={"boxes": {**layout.boxes, "braille": Box(x="0.25in", y=y, width="2.5in", height=height)}})


def test_mini_blocks_in_deck_order_with_box_from_layout(mini):
    blocks, findings = layout_deck(mini, layout=fixed_layout())
    assert findings == []
    assert list(blocks) == ["ember-apprentice", "ember-ranger", "forest-apprentice", "fireball"]
    b = blocks["fireball"]
    assert b.lines == ("⠰⠠⠋", "⠠⠋⠊⠗⠑⠃⠁⠇⠇", "⠠⠗⠁⠇⠇⠽⠖", "⠠⠢⠡⠁⠝⠞⠖", "⠿⠦")
    assert b.line_fields == ("indicator", "name", "keywords", "keywords", "power")
    assert (b.cells_per_line, b.lines_available, b.fits) == (10, 9, True)
    assert b.origin_mm == pytest.approx((6.35, 30.48))  # 0.25 in, 1.2 in from the trim's top-left
    assert b.profile.name == "spec800"
    assert blocks["forest-apprentice"].lines == ("⠰⠠⠋", "⠠⠿⠑⠌", "⠠⠁⠏⠏⠗⠢⠞⠊⠉⠑", "⠠⠢⠡⠁⠝⠞⠖", "⠼⠁")


def test_block_dots_are_in_trim_millimetres(mini):
    b = layout_deck(mini, layout=fixed_layout())[0]["ember-apprentice"]
    first = b.dots()[0]  # ⠰ of ⠰⠠⠑: dots 5 and 6 of the first cell
    assert (first.line, first.cell, first.dot) == (0, 0, 5)
    assert (first.x, first.y) == pytest.approx((6.35 + 0.72 + 2.34, 30.48 + 0.72 + 2.34), abs=0.01)
    assert len(b.dots()) == sum(bin(ord(c) - 0x2800).count("1") for line in b.lines for c in line)


def test_power_crystal_indicator_is_last_in_the_power_position(mini_plus_dir):
    # Print puts A/P in the power position (the "Power Circle", Power Crystal rulebook); braille too.
    deck = load_game(mini_plus_dir)
    b = layout_deck(deck)[0]["crystal-rally"]
    assert b.lines[0] == "⠰⠠⠉"  # class C standing alone (⠠⠉ alone reads "Can")
    assert (b.lines[-1], b.line_fields[-1]) == ("⠠⠁", "power")  # Active: capital a, no indicator needed


def test_braille_rules_replace_rules_and_empty_leaves_them_out(mini):
    deck = with_card(mini, "ember-ranger", rules="A very long paragraph.", braille_rules="Swap.")
    assert layout_deck(deck)[0]["ember-ranger"].lines[3:] == ("⠠⠎⠺⠁⠏⠲", "⠼⠑")
    deck = with_card(mini, "ember-ranger", rules="A very long paragraph.", braille_rules="")
    assert layout_deck(deck)[0]["ember-ranger"].line_fields == ("indicator", "name", "name", "power")


def test_name_grade_applies_to_names_only(mini):
    deck = mini.model_copy(update={"game": mini.game.model_copy(update={"braille": mini.game.braille.model_copy(update={"name_grade": 1})})})
    blocks, findings = layout_deck(deck)
    b = blocks["forest-apprentice"]
    # Uncontracted "Apprentice" is 11 cells: longer than a line, so it is divided (at the
    # hyph_en_US point appren-tice) and reported.
    assert b.lines[1:4] == ("⠠⠋⠕⠗⠑⠎⠞", "⠠⠁⠏⠏⠗⠑⠝⠤", "⠞⠊⠉⠑")
    assert b.lines[4] == "⠠⠢⠡⠁⠝⠞⠖"  # the keyword stays grade 2
    assert [(f.code, f.location.card) for f in findings] == [("BR003", "ember-apprentice"), ("BR003", "forest-apprentice")]


# --- findings ------------------------------------------------------------------------------


def test_overflow_is_reported_with_cells_and_lines_never_truncated(mini):
    # "xyz" is 3 cells; two fit a 10-cell line (7 cells), so 30 of them take 15 lines.
    # braille_rules equal to the print keeps the full text in braille (no card reference).
    text = " ".join(["xyz"] * 30)
    deck = with_card(mini, "ember-ranger", rules=text, braille_rules=text)
    blocks, findings = layout_deck(deck, layout=fixed_layout())
    b = blocks["ember-ranger"]
    assert len(b.lines) == 1 + 2 + 15 + 1 and not b.fits
    assert b.lines[-1] == "⠼⠑"  # nothing dropped: the power is still the last line
    assert b.cells_needed == 3 + 5 + 6 + 15 * 7 + 2
    [f] = findings
    assert (f.code, f.name, f.location.card) == ("BR001", "braille-overflow", "ember-ranger")
    assert f.message == ("braille of card ember-ranger needs 19 lines (121 cells) but the box holds "
                         "9 lines of 10 cells (90 cells); it overflows in the rules")
    assert len(b.dots()) == sum(bin(ord(c) - 0x2800).count("1") for line in b.lines[:9] for c in line)


def test_full_print_rules_are_the_default_braille(mini):
    # No braille_rules: the print rules are the braille, in full (liblouis grade 2 of the print).
    deck = with_card(mini, "ember-ranger", rules="Draw a card.")
    blocks, findings = layout_deck(deck, layout=fixed_layout())
    b = blocks["ember-ranger"]
    assert b.lines == ("⠰⠠⠑", "⠠⠑⠍⠃⠻", "⠠⠗⠁⠝⠛⠻", "⠠⠙⠗⠁⠺⠀⠁", "⠉⠜⠙⠲", "⠼⠑")
    assert b.full_text and b.entry == 2 and findings == []


def test_rules_too_long_for_the_box_become_a_card_reference(mini):
    text = " ".join(["xyz"] * 30)
    blocks, findings = layout_deck(with_card(mini, "ember-ranger", rules=text), layout=fixed_layout())
    b = blocks["ember-ranger"]
    # "See card reference 2." (the card's entry, deck order) in place of the rules; power still last.
    assert b.lines == ("⠰⠠⠑", "⠠⠑⠍⠃⠻", "⠠⠗⠁⠝⠛⠻", "⠠⠎⠑⠑⠀⠉⠜⠙", "⠗⠑⠋⠻⠰⠑⠀⠼⠃⠲", "⠼⠑")
    assert b.fits and not b.full_text
    [f] = findings
    assert (f.code, f.name, f.severity.value, f.location.card) == ("BR009", "braille-abridged", "warning", "ember-ranger")
    assert "full rules text (30 words) does not fit" in f.message and "card reference volume holds the full text as entry 2" in f.message


def test_designers_braille_rules_is_reported_with_the_print_words_left_out(mini):
    deck = with_card(mini, "ember-ranger", rules="In Phase Two, draw one more card.", braille_rules="P2: draw 1 more")
    blocks, findings = layout_deck(deck, layout=fixed_layout())
    assert blocks["ember-ranger"].lines[3:5] == ("⠠⠏⠼⠃⠒⠀⠙⠗⠁⠺", "⠼⠁⠀⠍")  # "more" is the wordsign ⠍
    [f] = findings
    assert f.code == "BR009" and not blocks["ember-ranger"].full_text
    assert "leaving out 5 print words (in, phase, two, one, card); it uses words print does not: p2, 1" in f.message


def test_untranslatable_name_names_card_field_and_code_point(mini):
    blocks, findings = layout_deck(with_card(mini, "fireball", name="Fire \u2603"))
    [f] = findings
    assert (f.code, f.location.card) == ("BR002", "fireball")
    assert "name of card fireball" in f.message and "U+2603" in f.message
    assert f.location.file.endswith("mini/cards.yaml") and f.location.line == 29  # the name: line
    assert blocks["fireball"].line_fields == ("indicator", "keywords", "keywords", "power")


def test_power_outside_scheme_is_reported(mini):
    blocks, findings = layout_deck(with_card(mini, "fireball", power="12"))
    assert [(f.code, f.location.card) for f in findings] == [("BR004", "fireball")]
    assert "power" not in blocks["fireball"].line_fields


def test_unknown_geometry_profile_falls_back_with_a_finding(mini):
    braille = mini.game.braille.model_copy(update={"geometry": "spec-800"})
    deck = mini.model_copy(update={"game": mini.game.model_copy(update={"braille": braille})})
    blocks, findings = layout_deck(deck)
    assert [f.code for f in findings] == ["BR005"]
    assert blocks["fireball"].profile.name == "spec800"


def test_profile_changes_capacity(mini):
    blocks, _ = layout_deck(mini, profile=get_profile("california"))
    assert (blocks["fireball"].cells_per_line, blocks["fireball"].lines_available) == (8, 9)


def test_box_too_small_is_a_typed_error(mini):
    layout = load_layout()
    tiny = layout.model_copy(update={"boxes": {**layout.boxes, "braille": Box(x="0.25in", y="1.2in", width="12mm", height="1in")}})
    with pytest.raises(BrailleBoxTooSmall, match="holds 2 cells"):
        layout_deck(mini, layout=tiny)


# --- the shipped card data ---------------------------------------------------------------


def shipped_games():
    return find_games(CARDDATA)


def test_every_shipped_card_has_its_block():
    games = shipped_games()
    assert len(games) == 4, [g.name for g in games]  # the four seed games ship in carddata/
    for game_dir in games:
        deck = load_game(game_dir)
        blocks, findings = layout_deck(deck)
        power = PowerEncoding(deck.game.power, deck.game.braille.grade)
        assert list(blocks) == [c.id for c in deck.cards], game_dir.name
        assert not [f for f in findings if f.code in ("BR002", "BR006")], [f.render() for f in findings]
        overflowing = {f.location.card for f in findings if f.code == "BR001"}
        powerless = {f.location.card for f in findings if f.code == "BR004"}  # reported, never silent
        for card in deck.cards:
            b = blocks[card.id]
            assert all(is_six_dot(line) and 0 < len(line) <= b.cells_per_line for line in b.lines), card.id
            indicator = translate(deck.game.class_by_id(card.class_id).indicator, 2)
            assert b.lines[0] == indicator, card.id
            assert not [f for f in findings if f.code in ("BR007", "BR008")], [f.render() for f in findings]
            if card.power is not None and card.id not in powerless:
                assert b.lines[-1] == power.encode(card.power), card.id
            assert b.fits or card.id in overflowing, card.id


def test_class_indicator_capital_only_when_the_game_asks_and_the_key_says_so(mini):
    from pipeline.braille.fields import indicator_note

    braille = mini.game.braille.model_copy(update={"class_indicator": "capital-only"})
    deck = mini.model_copy(update={"game": mini.game.model_copy(update={"braille": braille})})
    blocks, findings = layout_deck(deck)
    assert findings == [] and blocks["ember-apprentice"].lines[0] == "⠠⠑"  # as the data asks
    assert "without the grade 1 symbol indicator" in indicator_note(braille)
    assert layout_deck(mini)[0]["ember-apprentice"].lines[0] == "⠰⠠⠑"  # UEB §5.7 by default

"""liblouis faults and the round-trip check of numbers (pipeline.braille.roundtrip, BR007, BR008).

The reference for the round trip is liblouis's own back-translator; the exact cells of each
case are in braille_specs/translate.yaml (checked by hand against the Rules of UEB 2013)."""

from __future__ import annotations

import louis
import pytest

from engine.load import load_game

from pipeline.braille import translate as translate_module
from pipeline.braille.layout import layout_deck
from pipeline.braille.roundtrip import number_mismatch, numeric_tokens
from pipeline.braille.translate import ControlCharacter, caps_digit_bug, liblouis_version, translate


def test_liblouis_version_is_read_and_the_fault_probed():
    version = liblouis_version()
    assert version >= (3, 0, 0)
    raw = louis.translateString(["unicode.dis", "en-ueb-g2.ctb"], "DRAW 4C TILES TODAY")
    # the probe agrees with raw liblouis; the fault is in 3.24 (Debian 12), fixed in 3.28
    assert caps_digit_bug() == ("⠼⠙⠉" in raw)
    if version < (3, 28):
        assert caps_digit_bug()


def test_corrected_cells_read_back_right_and_raw_ones_do_not():
    raw = louis.translateString(["unicode.dis", "en-ueb-g2.ctb"], "DRAW 4C TILES TODAY")
    fixed = translate("DRAW 4C TILES TODAY")
    assert fixed == "⠠⠠⠠⠙⠗⠁⠺⠀⠼⠙⠰⠉⠀⠞⠊⠇⠑⠎⠀⠞⠙⠠⠄"
    assert number_mismatch("DRAW 4C TILES TODAY", fixed, 2) is None
    if caps_digit_bug():
        assert number_mismatch("DRAW 4C TILES TODAY", raw, 2) == "'4c' reads back as '43'"


def test_numeric_tokens():
    assert numeric_tokens("Roll 2D6, then x3 or 1,000!") == ["2d6", "x3", "1", "000"]
    assert numeric_tokens("no numbers") == []


def test_missing_number_is_named():
    assert number_mismatch("draw 2 cards", "⠙⠗⠁⠺⠀⠉⠜⠙⠎", 2) == "'2' reads back as 'nothing'"


def _with_name(folder, old: str, new: str):
    path = folder / "cards.yaml"
    text = path.read_text(encoding="utf-8")
    assert f"name: {old}\n" in text
    path.write_text(text.replace(f"name: {old}\n", f"name: {new}\n", 1), encoding="utf-8")
    line = text[: text.index(f"name: {old}")].count("\n") + 1
    return load_game(folder), line


def test_a_remaining_mistranslation_is_a_br007_error_at_the_field(game_copy, monkeypatch):
    # Simulate a liblouis fault deckpress does not correct: "4C" written as ⠼⠙⠉ (reads 43).
    deck, line = _with_name(game_copy("mini"), "Ember Ranger", '"Ember Ranger 4C"')
    real = translate_module.translate
    monkeypatch.setattr("pipeline.braille.fields.translate",
                        lambda text, grade=2: real(text, grade).replace("⠼⠙⠠⠉", "⠼⠙⠉"))
    blocks, findings = layout_deck(deck)
    [f] = [f for f in findings if f.code == "BR007"]
    assert (f.severity.value, f.location.card, f.location.line) == ("error", "ember-ranger", line)
    assert f.location.file.endswith("cards.yaml")
    assert "'4c' reads back as '43'" in f.message
    assert blocks["ember-ranger"].lines[1:3] == ("⠠⠑⠍⠃⠻", "⠠⠗⠁⠝⠛⠻⠀⠼⠙⠉")  # kept, but never silently


def test_nul_in_card_text_is_a_br008_error_with_file_and_line(game_copy):
    deck, line = _with_name(game_copy("mini"), "Ember Ranger", '"Ember Ran\\0ger"')
    blocks, findings = layout_deck(deck)
    [f] = [f for f in findings if f.code == "BR008"]
    assert (f.severity.value, f.location.card, f.location.line) == ("error", "ember-ranger", line)
    assert f.location.file.endswith("cards.yaml")
    assert "U+0000 at character 10" in f.message
    assert "name" not in blocks["ember-ranger"].line_fields  # left out with a finding, never cut short


def test_control_characters_raise_but_whitespace_does_not():
    for ch in "\x00\x1b\x7f\x07":
        with pytest.raises(ControlCharacter):
            translate(f"a{ch}b")
    assert translate("a\tb\nc", 1) == "⠁⠀⠃⠀⠉"

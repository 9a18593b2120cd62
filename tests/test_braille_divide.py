"""Division of an over-long braille word at a line end (pipeline.braille.divide).

Hyphenation points come from liblouis's hyph_en_US.dic (the reference for syllables); the cells
were checked by hand against UEB: a division never beside an apostrophe ⠄, a divided number
repeats ⠼ on the continuation, a line never ends with an indicator cell."""

from __future__ import annotations

import pytest

from pipeline.braille.divide import divide, numeric_at
from pipeline.braille.layout import wrap
from pipeline.braille.translate import hyphenation_points, translate


def test_liblouis_hyphenation_points_of_a_braille_word():
    assert hyphenation_points("⠠⠍⠁⠛⠊⠉⠊⠁⠝⠄⠎") == {3, 5}  # Ma-gi-cian's
    assert hyphenation_points("⠼⠁⠃⠉") == frozenset()


def test_never_divided_at_an_apostrophe():
    # "Magician's" is 11 cells; cutting at 9 cells would leave "'s" (⠄⠎), which reads "'so".
    cells = translate("Magician's")
    assert cells == "⠠⠍⠁⠛⠊⠉⠊⠁⠝⠄⠎"
    assert divide(cells, 10) == ["⠠⠍⠁⠛⠊⠤", "⠉⠊⠁⠝⠄⠎"]  # Magi- / cian's, a pattern point
    lines, divided = wrap([translate("Magician's Horse")], 10)
    assert lines == ["⠠⠍⠁⠛⠊⠤", "⠉⠊⠁⠝⠄⠎", "⠠⠓⠕⠗⠎⠑"] and divided == [cells]
    assert not any(line.startswith("⠄") or line.endswith("⠄⠤") for line in lines)


def test_a_divided_number_repeats_the_numeric_indicator():
    cells = translate("1234567890123")
    assert divide(cells, 10) == ["⠼⠁⠃⠉⠙⠑⠋⠛⠓⠤", "⠼⠊⠚⠁⠃⠉"]
    assert numeric_at(cells, 9) and not numeric_at("⠼⠁⠃⠉⠀⠁", 5)


def test_a_pattern_point_is_taken_only_when_it_costs_no_line():
    # hyph_en_US allows en-chantres-ses: "en-" would waste the line, so the latest cut is used.
    assert divide(translate("Enchantresses"), 10) == ["⠠⠢⠡⠁⠝⠞⠗⠑⠎⠤", "⠎⠑⠎"]
    assert divide(translate("Transmogrifications"), 10) == ["⠠⠞⠗⠁⠝⠎⠍⠕⠤", "⠛⠗⠊⠋⠊⠉⠁⠰⠝⠎"]


def test_every_piece_fits_and_ends_in_a_hyphen():
    word = translate("Reinforcement's")
    pieces = divide(word, 10)
    assert pieces == ["⠠⠗⠑⠔⠿⠉⠑⠤", "⠰⠞⠄⠎"]  # ment ⠰⠞ stays whole on the next line
    assert all(len(p) <= 10 for p in pieces) and all(p.endswith("⠤") for p in pieces[:-1])
    with pytest.raises(ValueError):
        divide(word, 2)

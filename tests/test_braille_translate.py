"""UEB translation through liblouis: the YAML pairs in braille_specs/translate.yaml, input
normalisation, Braille ASCII, and refusal of characters the table cannot translate."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import yaml

from pipeline.braille.cells import is_six_dot, to_brf
from pipeline.braille.translate import UntranslatableCharacter, normalise, translate, translate_brf

SPECS = yaml.safe_load((Path(__file__).parent / "braille_specs" / "translate.yaml").read_text(encoding="utf-8"))


@pytest.mark.parametrize("spec", SPECS, ids=[f"g{s['grade']}-{s['text']!r}" for s in SPECS])
def test_spec_pair(spec):
    assert translate(spec["text"], spec["grade"]) == spec["braille"], spec["note"]


def test_output_is_six_dot_cells_only():
    for spec in SPECS:
        assert is_six_dot(translate(spec["text"], spec["grade"]))


def test_nbsp_gives_a_plain_blank_cell():
    cells = translate("a\u00a0b", 1)
    assert cells == "⠁⠀⠃"
    assert "\u00a0" not in cells


def test_curly_and_straight_apostrophes_agree():
    assert translate("Wizards\u2019 staff") == translate("Wizards' staff") == "⠠⠺⠊⠵⠜⠙⠎⠄⠀⠌⠁⠋⠋"


def test_normalise_collapses_spaces_and_strips():
    assert normalise("  Don\u2019t\u00a0\t\u2009stop\n") == "Don't stop"


def test_brf_is_north_american_braille_ascii():
    # Hand-checked against the BANA Braille ASCII table: ⠠ ",", ⠿ "=", ⠌ "/", ⠢ "5".
    assert translate_brf("Forest Apprentice") == ",=E/ ,APPR5TICE"
    assert to_brf(translate("Rally! Enchant!")) == ",RALLY6 ,5*ANT6"


def test_untranslatable_character_names_its_code_point():
    with pytest.raises(UntranslatableCharacter) as info:
        translate("Snow \u2603 Sprite")
    assert info.value.char == "\u2603"
    assert info.value.codepoint == 0x2603
    assert "U+2603" in str(info.value)
    assert isinstance(info.value, ValueError)


def test_untranslatable_astral_character():
    with pytest.raises(UntranslatableCharacter) as info:
        translate("ok \U0001f600 ok", 1)
    assert info.value.codepoint == 0x1F600
    assert info.value.position == 3


def test_grade_must_be_1_or_2():
    with pytest.raises(ValueError, match="grade must be 1 or 2"):
        translate("x", 3)


def test_threads_get_the_same_cells_as_one_thread():
    # liblouis is not thread-safe; translate() holds a lock around every liblouis call, so a
    # stray caller on another thread gets the right cells instead of crashing the library.
    import pipeline.braille.translate as module

    texts = [f"Ember Apprentice {n}" for n in range(40)]
    expected = {t: translate(t) for t in texts}
    module._translate_normalised.cache_clear()  # force real liblouis calls from the threads
    got: dict[str, str] = {}

    def work(chunk: list[str]) -> None:
        for t in chunk:
            got[t] = translate(t)

    threads = [threading.Thread(target=work, args=(texts[i::4],)) for i in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert got == expected


def _card_texts() -> list[str]:
    """Every name, keyword and rules line of the shipped games' cards.yaml (the data deckpress translates)."""
    texts: list[str] = []
    for path in sorted((Path(__file__).parents[1] / "carddata").glob("*/cards.yaml")):
        for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            texts += [card["name"], *card.get("keywords", [])]
            texts += [v for v in card.values() if isinstance(v, str) and len(v) > 12]
    return list(dict.fromkeys(texts))


def test_string_route_gives_the_positional_routes_cells():
    """The reference is liblouis's own positional call (lou_translate with input positions, the
    route every text took before): the faster lou_translateString route taken by ASCII text
    without a digit before a letter must give the same cells for every text of the shipped games."""
    from pipeline.braille import translate as module

    texts = _card_texts() + [f"Forest Hero {i}" for i in range(20)] + ["Draw 4C tiles", "DRAW 4C TILES TODAY", "roll 2d6"]
    fast = [t for t in map(normalise, texts) if t.isascii() and not module._DIGIT_BEFORE_LETTER.search(t)]
    assert len(fast) > 100  # the shipped games' names and rules mostly take the string route
    for grade in (1, 2):
        for text in fast:
            module._translate_normalised.cache_clear()
            assert translate(text, grade) == module._translate_with_positions(text, module.TABLES[grade]), text


def test_digit_before_letter_takes_the_positional_route():
    """A letter a-j after digits inside capitals: the grade 1 indicator ⠰ is there (restored on liblouis 3.24-3.27),
    so ⠼⠙⠰⠉ reads 4 then c, not 43 (UEB Rules 2013 §6.5)."""
    assert "\u283c\u2819\u2830\u2809" in translate("DRAW 4C TILES TODAY", 2)

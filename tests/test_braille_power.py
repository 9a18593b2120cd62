"""Power encodings per game scheme: the YAML pairs in braille_specs/power.yaml, collisions, refusals."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from engine.model import PowerScheme
from pipeline.braille.power import PowerEncoding

SPECS = yaml.safe_load((Path(__file__).parent / "braille_specs" / "power.yaml").read_text(encoding="utf-8"))
PAIRS = [(game, value, cells) for game, spec in SPECS.items() for value, cells in spec["pairs"].items()]


@pytest.mark.parametrize("game,value,cells", PAIRS, ids=[f"{g}-{v}" for g, v, _ in PAIRS])
def test_spec_pair(game, value, cells):
    assert PowerEncoding(PowerScheme(**SPECS[game]["scheme"])).encode(value) == cells


def test_prefix_then_value_cell():
    # The rulebooks' shape: one prefix cell then the value (two cells), except Enchant's UEB 10.
    enc = PowerEncoding(PowerScheme(**SPECS["apprentice"]["scheme"]))
    assert all(len(enc.encode(v)) == 2 for v in enc.scheme.allowed())


def test_power_12_is_one_value_cell_in_single_letter_style():
    enc = PowerEncoding(PowerScheme(numbers={"min": 1, "max": 12}, number_style="single-letter"))
    assert enc.encode("12") == "⠼⠇"  # l = 12, never ⠼⠁⠃ or "1 2" as separate cells


def test_power_12_in_ueb_style_is_one_number():
    enc = PowerEncoding(PowerScheme(numbers={"min": 1, "max": 12}))
    assert enc.encode("12") == "⠼⠁⠃"  # one numeric indicator, no numeric space ⠐


def test_shipped_schemes_have_no_collisions():
    for game in ("apprentice", "enchant", "claim"):
        assert PowerEncoding(PowerScheme(**SPECS[game]["scheme"])).collisions() == []


def test_single_letter_zero_collides_with_ten():
    # Standard UEB zero is ⠼⠚, the same cells as Apprentice's single-letter 10.
    enc = PowerEncoding(PowerScheme(numbers={"min": 0, "max": 11}, symbols=["?"], number_style="single-letter"))
    assert enc.collisions() == [("0", "10", "⠼⠚")]


def test_letter_symbol_collides_with_number_when_prefixes_match():
    enc = PowerEncoding(PowerScheme(numbers={"min": 1, "max": 11}, symbols=["J"], number_style="single-letter", symbol_prefix="⠼"))
    assert enc.collisions() == [("10", "J", "⠼⠚")]


def test_letter_case_collision():
    # Letters are written as lowercase cells without the capital sign, so J and j are one encoding.
    enc = PowerEncoding(PowerScheme(symbols=["J", "j"]))
    assert enc.encode("J") == "⠿⠚"
    assert enc.collisions() == [("J", "j", "⠿⠚")]


def test_value_outside_scheme_is_refused():
    enc = PowerEncoding(PowerScheme(**SPECS["apprentice"]["scheme"]))
    with pytest.raises(ValueError, match="'12' is not allowed"):
        enc.encode("12")
    with pytest.raises(ValueError):
        enc.encode("E")


def test_untranslatable_modifier_is_a_value_error_and_skipped_by_collisions():
    enc = PowerEncoding(PowerScheme(modifiers=["x2", "☃"]))
    with pytest.raises(ValueError, match="U\\+2603"):
        enc.encode("☃")
    assert enc.collisions() == []


def test_override_resolves_the_power_crystal_zero_collision():
    """The Power Crystal expansion records 0 as ⠼⠴ (Nemeth zero) so it no longer reads as the core set's 10 (⠼⠚)."""
    from conftest import CARDDATA
    from engine.load import load_game

    scheme = load_game(CARDDATA / "apprentice-power-crystal").game.power
    enc = PowerEncoding(scheme)
    assert (enc.encode("0"), enc.encode("10"), enc.encode("11")) == ("⠼⠴", "⠼⠚", "⠼⠅")
    assert enc.collisions() == []
    without = PowerEncoding(scheme.model_copy(update={"overrides": {}}))
    assert without.collisions() == [("0", "10", "⠼⠚")]


def test_override_must_be_six_dot_cells():
    import pydantic

    from engine.model import PowerScheme

    with pytest.raises(pydantic.ValidationError, match="six-dot"):
        PowerScheme(numbers={"min": 0, "max": 11}, overrides={"0": "0"})

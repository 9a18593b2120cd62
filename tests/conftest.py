"""Shared test fixtures: paths to the seed rulebooks, the shipped card data and the fixture games."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SEEDS = SHARED / "seeds"
PEF_DIR = SHARED / "pef"
CARDDATA = ROOT / "carddata"
FIXTURES = Path(__file__).resolve().parent / "fixtures"
GAMES = FIXTURES / "games"

#: Seed rulebook files by shipped game folder.
SEED_RULEBOOKS = {
    "apprentice": SEEDS / "000_c4e42988fabe8ac0.txt",
    "apprentice-power-crystal": SEEDS / "001_41c7025236229449.txt",
    "enchant": SEEDS / "002_b3267fe8c2d61182.txt",
    "claim-reinforcements-magic": SEEDS / "004_df258f8d5d7afdc1.txt",
}


@pytest.fixture
def mini_dir() -> Path:
    """The tiny two-class fixture game."""
    return GAMES / "mini"


@pytest.fixture
def mini_plus_dir() -> Path:
    """The fixture expansion of mini."""
    return GAMES / "mini-plus"


@pytest.fixture
def game_copy(tmp_path):
    """Copy a fixture game into tmp_path so a test can break it: ``game_copy("mini")``."""
    import shutil

    def make(name: str = "mini") -> Path:
        dest = tmp_path / name
        shutil.copytree(GAMES / name, dest)
        return dest

    return make


@pytest.fixture(scope="session")
def mini():
    """The mini fixture game loaded and braille-laid-out: ``(deck, blocks)``; it lays out with no findings."""
    from engine.load import load_game
    from pipeline.braille.layout import layout_deck

    deck = load_game(GAMES / "mini")
    blocks, findings = layout_deck(deck)
    assert findings == []
    return deck, blocks

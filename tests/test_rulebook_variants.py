"""A second set of invented Tidepool rulebooks (tests/fixtures/rulebook-variants), written after
the first (tests/test_rulebook_styles.py) to probe wordings the checks were not built on: each
kind of slip of issue #24 said again in new words, in plain text (``variants-plain.txt``: a flat
bare "Contents" list), Markdown (``variants.md``: linked contents, numbered list items) and
numbered headings (``variants-numbered.txt``: contents with dot leaders and page numbers), and a
file of the same claims stated rightly (``variants-controls.txt``), which must stay silent.

True values worked by hand from tests/fixtures/games/tidepool: 24 cards, 8 per class, classes
Coral, Kelp, Shell; power 1-8; D4 and D6; Shell's expected power 33 against 37.
"""

from __future__ import annotations

import pytest

from conftest import FIXTURES, GAMES
from engine.checks import run_checks
from engine.load import load_game
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook

VARIANTS = FIXTURES / "rulebook-variants"

#: (code, line, words of the slip on that line), the true value in the comment.
SLIPS = {
    "variants-plain.txt": [
        ("RB011", 4, "- Overview"),                        # bare flat "Contents" list of 4; Card Face, Turn Order, Endgame left out
        ("RB002", 15, "you will find 30 cards:"),         # 8 + 8 + 8 = 24
        ("RB001", 16, "is made up of 9 cards"),           # 8 per class
        ("RB001", 17, "6 cards per class"),
        ("RB014", 18, "Urchin"),                           # no class Urchin
        ("RB009", 19, "runs between 2 and 8"),             # 1-8
        ("RB009", 20, "from 1 up to 10"),
        ("RB017", 24, "one time in three"),                # 1/4
        ("RB017", 25, "6 or higher on the D6 is a 50%"),   # 1/6
        ("RB017", 26, "Three tries"),                      # 1 - (3/4)^3 = 57.81 %
        ("RB007", 28, "use Tide,"),
        ("RB007", 29, "Cards with Surge"),
        ("RB018", 39, "QR (#2)"),                          # QR is item 4
        ("RB020", 43, "the same power"),                   # Shell 33, Coral and Kelp 37
    ],
    "variants.md": [
        ("RB011", 5, "[Setup](#setup)"),                   # Card Face, Balance, Ending left out
        ("RB002", 10, "a deck of 28 cards:"),
        ("RB001", 11, "comprises 7 cards"),
        ("RB019", 13, "Urchin factions"),
        ("RB009", 14, "lies between 1 and 12"),
        ("RB017", 18, "A roll of 2 on the D4 comes up half the time"),  # 1/4
        ("RB017", 19, "Roll the D6 twice"),                # 1 - (5/6)^2 = 30.56 %
        ("RB017", 20, "7 or more 75%"),                    # 21/36 = 58.33 %
        ("RB007", 21, "the keyword Tide"),
        ("RB018", 31, "Card Art (#3)"),                    # Card Art is item 5
        ("RB020", 35, "identical total power"),
    ],
    "variants-numbered.txt": [
        ("RB011", 4, "1. Setup ........ 2"),
        ("RB002", 9, "20 cards in total:"),
        ("RB001", 10, "holds 5 cards"),
        ("RB019", 11, "six factions"),
        ("RB009", 12, "from one through nine"),
        ("RB017", 16, "at least 3 on the D4 succeeds three times in four"),  # 2/4
        ("RB017", 17, "1 in 2 times"),                     # 2/6
        ("RB017", 18, "With two tries"),                   # 7/16 = 43.75 %
        ("RB007", 19, "A Tide card"),
        ("RB018", 29, "(item 3)"),                         # the name is item 1
        ("RB020", 33, "equally strong"),
    ],
    "variants-controls.txt": [],
}


def _findings(name: str):
    rb = Rulebook.read(VARIANTS / name)
    return rb, run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB",)))


@pytest.mark.parametrize("name", sorted(SLIPS))
def test_each_new_wording_is_caught_at_its_line_and_nothing_else(name):
    rb, findings = _findings(name)
    for code, line, words in SLIPS[name]:
        assert words in rb.line(line).raw, (code, line)
    assert sorted((f.code, f.location.line) for f in findings) == sorted((c, ln) for c, ln, _ in SLIPS[name])


def test_the_true_values_are_given():
    _, findings = _findings("variants.md")
    by_line = {f.location.line: f.message for f in findings}
    assert by_line[19].endswith("6 on a D6, 2 tries has a chance of 11/36 = 30.56 %")
    assert by_line[20].endswith("a sum of 7 or more on 2 D6 has a chance of 7/12 = 58.33 %")
    _, findings = _findings("variants-numbered.txt")
    by_line = {f.location.line: f.message for f in findings}
    assert by_line[16].endswith("3 or more on a D4 has a chance of 1/2 = 50 %")
    assert by_line[17].endswith("1 or 2 on a D6 has a chance of 1/3 = 33.33 %")  # "1 in 2 times" is the chance, not 2 tries
    _, findings = _findings("variants-plain.txt")
    [toc] = [f for f in findings if f.code == "RB011"]
    assert "not listed: CARD FACE (line 31), TURN ORDER (line 45), ENDGAME (line 49)" in toc.message


def test_a_bare_contents_list_of_components_is_not_a_table_of_contents():
    # a plain "Contents" list is read as a table of contents only when most items are headings
    text = "RULES\n\nContents\n- 24 cards\n- 1 D4\n- 1 D6\n\nSETUP\n\nShuffle.\n\nPLAY\n\nPlay a card.\n"
    assert Rulebook.from_text(text, "box.txt").toc() == []
    listed = "RULES\n\nContents\n- Setup\n- Play\n\nSETUP\n\nShuffle.\n\nPLAY\n\nPlay a card.\n"
    assert [e.title for e in Rulebook.from_text(listed, "toc.txt").toc()] == ["Setup", "Play"]

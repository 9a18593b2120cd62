"""Long and one-line rulebook findings: one finding per keyword, its other lines counted, never silently cut.

A new user's 5 MB book wrote "Chance" without its "!" on 559 lines; the finding listed 12 of
them and its related places stopped at 20, with nothing saying more were left out. The
expected values below are counted from the text the test writes (every line a variant).
"""

from __future__ import annotations

from conftest import GAMES
from engine.checks import run_checks
from engine.checks.common import MAX_RELATED
from engine.load import load_game
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook


def _rb007(lines: int):
    text = "RULES\n\n" + "\n\n".join(f"Play a Tide card now, as in part {k}." for k in range(1, lines + 1)) + "\n"
    rb = Rulebook.from_text(text, "book.txt")
    return rb, run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB007",)))


def test_one_finding_names_twelve_lines_and_counts_the_rest():
    rb, [finding] = _rb007(20)  # one keyword, 20 sentences: one finding, not 20
    numbers = [3 + 2 * k for k in range(20)]  # "RULES", a blank, then a line every other line
    assert finding.location.line == numbers[0]
    assert f"Tide! is also written Tide (lines {', '.join(map(str, numbers[:12]))} and 8 more)" in finding.message
    book = [r for r in finding.related if r.file == "book.txt"]
    assert [r.line for r in book] == numbers[1:]  # every other variant, in order
    assert finding.related[-1].file.endswith("tidepool/game.yaml")  # where the data defines Tide!


def test_related_places_are_capped_with_the_rest_counted_and_the_data_kept():
    rb, [finding] = _rb007(80)
    assert len(finding.related) == MAX_RELATED
    assert finding.related[-1].file.endswith("tidepool/game.yaml")  # the keyword's place in the data is never cut
    assert finding.message.endswith(f"(and {79 - (MAX_RELATED - 1)} more places)")


def test_a_one_sentence_component_list_is_one_line_and_one_place():
    # 8 + 8 + 8 = 24 (tidepool's three classes of four cards, two copies each), the sentence says 26
    rb = Rulebook.from_text("RULES\n\nThe box holds 26 cards: 8 Coral, 8 Kelp and 8 Shell cards.\n", "box.txt")
    [finding] = run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB002",)))
    assert "its items add up to 24 (8 + 8 + 8, line 3); the data has 24" in finding.message
    assert [(r.file, r.line) for r in finding.related if r.file == "box.txt"] == [("box.txt", 3)]  # once, not once an item

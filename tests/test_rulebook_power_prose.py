"""RB009 reads a power range stated after a clause ("Power is printed on the card and goes from
2 to 10"), in plain, Markdown and numbered layouts, and leaves ranges of other things alone.

A new user's rulebooks wrote the range this way and RB009 missed it. The data is the tidepool
test game (power numbers 1-8, tests/fixtures/games/tidepool/game.yaml); each expected range is
the one the line states, read off the text.
"""

from __future__ import annotations

import pytest

from conftest import GAMES
from engine.checks import run_checks
from engine.load import load_game
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook

STYLES = {
    "book.txt": "HOW TO PLAY\n\nPower is printed on the card and goes from 2 to 10.\n\nThe power number, shown in the corner, runs from one to nine.\n",
    "book.md": "# How to play\n\n**Power** is printed on the card and goes from 2 to 10.\n\nThe power number, shown in the corner, runs from one to nine.\n",
    "numbered.txt": "1. How to play\n\n1) Power is printed on the card and goes from 2 to 10.\n2) The power number, shown in the corner, runs from one to nine.\n",
}
CONTROLS = (
    "RULES\n\nPower is printed on the card and goes from 1 to 8.\n\n"  # the data's range
    "With a Power card in play the die goes from 1 to 6.\n\n"  # the die's faces, not power
    "Power cards and the players' points range from 1 to 40.\n\n"  # a score
    "Power is shown; the turn runs from 1 to 9.\n"  # another clause after a ';'
)


def _rb009(text: str, name: str):
    rb = Rulebook.from_text(text, name)
    return rb, run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB009",)))


@pytest.mark.parametrize("name", sorted(STYLES))
def test_a_range_after_a_clause_is_read_in_every_layout(name):
    rb, findings = _rb009(STYLES[name], name)
    stated = sorted((f.location.line, f.message.split(" (")[0]) for f in findings)
    lines = [n for n, _ in stated]
    assert [rb.line(n).body.split()[0].strip("*") for n in lines] == ["Power", "The"]
    assert [m for _, m in stated] == ["the rulebook states power 2-10", "the rulebook states power 1-9"]


def test_the_data_range_and_ranges_of_other_things_stay_silent():
    _, findings = _rb009(CONTROLS, "controls.txt")
    assert findings == []

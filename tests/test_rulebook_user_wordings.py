"""Wordings a new user's rulebooks used that the checks missed, in plain, Markdown and numbered
layouts, each with controls: RB009 reads a power range stated after a clause ("Power is printed
on the card and goes from 2 to 10") and leaves ranges of other things alone; RB001 reads a
per-class count said of "a class" ("a class deck is 28 cards", "A class has 28 cards"). The data is the tidepool
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


def _check(text: str, name: str, code: str):
    """The rulebook ``text`` (file name ``name``) and ``code``'s findings on the tidepool game."""
    rb = Rulebook.from_text(text, name)
    return rb, run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=(code,)))


def _rb009(text: str, name: str):
    return _check(text, name, "RB009")


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


#: (code, the text in each layout (the slip on line 3), what the finding's message holds, why).
WORDINGS = {
    "per-class count of 'a class'": ("RB001", {
        "book.txt": "SETUP\n\nPick a class; a class deck is 6 cards.\n",
        "book.md": "## Setup\n\nPick a class. *A class* has 6 cards.\n",
        "numbered.txt": "1. Setup\n\n1) Pick a class: a faction deck is 6 cards.\n",
    }, "states 6 cards per class (", "but the data has Coral 8, Kelp 8, Shell 8"),  # four unique cards a class, two copies each
    "component list in brackets": ("RB002", {
        "book.txt": "WHAT IS IN THE BOX\n\nThe game comes with 26 cards (8 Coral, 8 Kelp and 8 Shell) and two dice.\n",
        "book.md": "## In the box\n\nThe game comes with **26 cards** (8 Coral, 8 Kelp and 8 Shell) and two dice.\n",
        "numbered.txt": "1. In the box\n\n1) The game comes with 26 cards (8 Coral, 8 Kelp and 8 Shell) and two dice.\n",
    }, "states 26 cards but its items add up to 24 (8 + 8 + 8, line 3)", ""),
    "class list short of the game": ("RB001", {
        "book.txt": "CHOOSING\n\nPick one of the two factions: Coral or Kelp.\n",
        "book.md": "## Choosing\n\nPick one of the *two factions*: Coral or Kelp.\n",
        "numbered.txt": "1. Choosing\n\n1) Pick one of the two classes: Coral or Kelp.\n",
    }, "states 2 classes (", "but the data's main deck has 3; never named: Shell"),  # Coral, Kelp, Shell; Shell never named
    "bare keyword after a possessive, before 'means'": ("RB007", {
        "book.txt": "PLAYING\n\nYour knight's Surge beats a shark; Tide means one more card.\n",
        "book.md": "## Playing\n\nYour knight’s **Surge** beats a shark; *Tide* means one more card.\n",
        "numbered.txt": "1. Playing\n\n1) Your knight's Surge beats a shark; Tide means one more card.\n",
    }, "Surge! is also written Surge (line 3); Tide! is also written Tide (line 3)", ""),  # Surge! and Tide! without "!"
}
#: (code, correct text in which the wording's reading must find nothing).
CONTROLS_OF = {
    "per-class count of 'a class'": ("RB001", "RULES\n\nA class deck is 8 cards. Each faction is 8 cards.\n\nA class card costs 2 cards from your hand.\n"),
    "component list in brackets": ("RB002", "RULES\n\nDeal 7 cards (5 in a 2-player game, 4 with more players).\n\n"
                                   "The game comes with 24 cards (8 Coral, 8 Kelp and 8 Shell).\n"),
    "class list short of the game": ("RB001", "RULES\n\nPick one of the two classes: Coral or Kelp.\n\nShell is the expansion's class.\n"),
    "bare keyword after a possessive, before 'means'": ("RB007", "RULES\n\nSurge ahead and Tide them over.\n\nThe tide means the sea comes in; a surge of water.\n"),
}


@pytest.mark.parametrize(("wording", "name"), [(w, n) for w in sorted(WORDINGS) for n in ("book.txt", "book.md", "numbered.txt")])
def test_each_wording_is_caught_in_every_layout(wording, name):
    code, texts, holds, ends = WORDINGS[wording]
    _, [finding] = _check(texts[name], name, code)
    assert (finding.code, finding.location.line) == (code, 3)
    assert holds in finding.message and finding.message.endswith(ends)


@pytest.mark.parametrize("wording", sorted(CONTROLS_OF))
def test_each_wording_stays_silent_on_correct_text(wording):
    code, text = CONTROLS_OF[wording]
    assert _check(text, "controls.txt", code)[1] == []

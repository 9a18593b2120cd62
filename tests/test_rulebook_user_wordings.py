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


PER_CLASS = {
    "book.txt": "SETUP\n\nPick a class; a class deck is 6 cards.\n",
    "book.md": "## Setup\n\nPick a class. *A class* has 6 cards.\n",
    "numbered.txt": "1. Setup\n\n1) Pick a class: a faction deck is 6 cards.\n",
}


@pytest.mark.parametrize("name", sorted(PER_CLASS))
def test_a_count_said_of_a_class_is_a_per_class_count(name):
    # tidepool: four unique cards a class, two copies each, so 8 cards in each class
    rb = Rulebook.from_text(PER_CLASS[name], name)
    [finding] = run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB001",)))
    assert finding.location.line == 3
    assert finding.message.startswith("the rulebook states 6 cards per class")
    assert finding.message.endswith("but the data has Coral 8, Kelp 8, Shell 8")


def test_a_true_count_said_of_a_class_and_other_counts_stay_silent():
    text = "RULES\n\nA class deck is 8 cards. Each faction is 8 cards.\n\nA class card costs 2 cards from your hand.\n"
    rb = Rulebook.from_text(text, "controls.txt")
    assert run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB001",))) == []


BRACKETED = {
    "book.txt": "WHAT IS IN THE BOX\n\nThe game comes with 26 cards (8 Coral, 8 Kelp and 8 Shell) and two dice.\n",
    "book.md": "## In the box\n\nThe game comes with **26 cards** (8 Coral, 8 Kelp and 8 Shell) and two dice.\n",
    "numbered.txt": "1. In the box\n\n1) The game comes with 26 cards (8 Coral, 8 Kelp and 8 Shell) and two dice.\n",
}


@pytest.mark.parametrize("name", sorted(BRACKETED))
def test_a_component_list_in_brackets_is_added_up(name):
    # 8 + 8 + 8 = 24, the sentence says 26
    rb = Rulebook.from_text(BRACKETED[name], name)
    [finding] = run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB002",)))
    assert finding.location.line == 3
    assert "states 26 cards but its items add up to 24 (8 + 8 + 8, line 3)" in finding.message


def test_brackets_that_are_not_a_component_list_stay_silent():
    text = ("RULES\n\nDeal 7 cards (5 in a 2-player game, 4 with more players).\n\n"
            "The game comes with 24 cards (8 Coral, 8 Kelp and 8 Shell).\n")
    rb = Rulebook.from_text(text, "controls.txt")
    assert run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB002",))) == []


SHORT_LISTS = {
    "book.txt": "CHOOSING\n\nPick one of the two factions: Coral or Kelp.\n",
    "book.md": "## Choosing\n\nPick one of the *two factions*: Coral or Kelp.\n",
    "numbered.txt": "1. Choosing\n\n1) Pick one of the two classes: Coral or Kelp.\n",
}


@pytest.mark.parametrize("name", sorted(SHORT_LISTS))
def test_a_class_list_that_agrees_with_its_count_but_not_the_game_is_reported(name):
    # tidepool has three main-deck classes: Coral, Kelp, Shell; the book never names Shell
    rb = Rulebook.from_text(SHORT_LISTS[name], name)
    [finding] = run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB001",)))
    assert finding.location.line == 3
    assert finding.message.endswith("but the data's main deck has 3; never named: Shell")


def test_a_short_list_is_silent_when_the_book_names_the_other_class():
    text = "RULES\n\nPick one of the two classes: Coral or Kelp.\n\nShell is the expansion's class.\n"
    rb = Rulebook.from_text(text, "controls.txt")
    assert run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB001",))) == []


BARE_KEYWORDS = {
    "book.txt": "PLAYING\n\nYour knight's Surge beats a shark; Tide means one more card.\n",
    "book.md": "## Playing\n\nYour knight’s **Surge** beats a shark; *Tide* means one more card.\n",
    "numbered.txt": "1. Playing\n\n1) Your knight's Surge beats a shark; Tide means one more card.\n",
}


@pytest.mark.parametrize("name", sorted(BARE_KEYWORDS))
def test_a_keyword_after_a_possessive_or_before_means_is_read_bare(name):
    # tidepool's keywords are Surge! and Tide!; both written here without the "!", on line 3
    rb = Rulebook.from_text(BARE_KEYWORDS[name], name)
    [finding] = run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB007",)))
    assert finding.location.line == 3
    assert finding.message == "Surge! is also written Surge (line 3); Tide! is also written Tide (line 3)"


def test_verbs_and_plain_words_stay_silent():
    text = "RULES\n\nSurge ahead and Tide them over.\n\nThe tide means the sea comes in; a surge of water.\n"
    rb = Rulebook.from_text(text, "controls.txt")
    assert run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB007",))) == []

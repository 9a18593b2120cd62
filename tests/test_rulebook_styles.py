"""Three invented rulebooks for the invented Tidepool game (tests/fixtures/games/tidepool), one
per layout: Markdown (``tidepool.md``: ``## 1. Components`` headings, a flat linked contents
list), plain text with guessed headings (``tidepool.txt``: a nested contents list) and
numbered headings (``tidepool-numbered.txt``: "1. Components", a flat contents list with
dot leaders and page numbers). Each holds the same eleven kinds of planted slip, worded
differently, and correct controls beside them (the same claim stated rightly).

The test is the catch rate: every slip is found at its line by its rule, and no RB finding
is raised anywhere else (the controls stay silent). The slips were planted and their true
values worked out by hand (Tidepool: 3 classes x 4 unique cards x 2 copies = 24 cards;
power 1-8 or "?"; Shell's expected power 33 against Coral's and Kelp's 37).
"""

from __future__ import annotations

import pytest

from conftest import FIXTURES, GAMES
from engine.checks import run_checks
from engine.load import load_game
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook

RULEBOOKS = FIXTURES / "rulebooks"

#: Per rulebook: (code, line) of each planted slip, and the words of the slip on that line.
SLIPS = {
    "tidepool.md": [
        ("RB002", 14, "The box holds 26 cards"),          # the sentence's items add up to 24
        ("RB011", 5, "[1. Components]"),                   # flat contents list without 7. Keywords, 8. Balance
        ("RB001", 20, "10 cards in every class"),          # the data has 8 per class
        ("RB019", 22, "The five factions"),                # the data has 3 classes
        ("RB019", 23, "The Reef faction"),                 # no class Reef
        ("RB009", 32, "goes from 1 to 9"),                 # the scheme is 1-8
        ("RB007", 34, "a Surge card"),                     # Surge! without "!" and without quotes
        ("RB017", 39, "a 50% chance"),                     # 1-(3/4)^2 = 43.75 %
        ("RB017", 40, "wins half the time"),               # 2/6 = 33.3 %
        ("RB018", 55, "QR code (#5)"),                     # item 5 is Card Art; QR is item 4
        ("RB020", 70, "equal power"),                      # Shell 33 against 37
    ],
    "tidepool.txt": [
        ("RB002", 13, "twenty-six cards"),
        ("RB011", 4, "- Components"),                      # nested list without Keywords and Setup
        ("RB001", 19, "ten cards"),
        ("RB019", 21, "All five classes"),
        ("RB019", 22, "Reef class"),
        ("RB009", 37, "run from 1 to 9"),
        ("RB007", 39, "A Surge card"),
        ("RB017", 44, "a 50% chance"),
        ("RB017", 45, "half the time"),
        ("RB018", 59, "(see #5)"),
        ("RB020", 66, "the same power"),
    ],
    "tidepool-numbered.txt": [
        ("RB002", 13, "26 cards in all"),
        ("RB011", 4, "1. Components ...."),                # dot leaders and page numbers; no 7. or 8.
        ("RB001", 19, "12 cards in each class"),
        ("RB019", 21, "the five factions"),
        ("RB019", 22, "The Reef faction"),
        ("RB009", 31, "between 1 and 9"),
        ("RB007", 33, "Play Surge to"),
        ("RB017", 38, "a 50% chance"),
        ("RB017", 39, "half the time"),
        ("RB018", 53, "(item 5)"),
        ("RB020", 66, "equal power"),
    ],
}


def findings_for(name: str):
    """RB findings of the Tidepool data against one of its rulebooks."""
    deck = load_game(GAMES / "tidepool")
    rb = Rulebook.read(RULEBOOKS / name)
    return rb, run_checks(deck, CheckContext(rulebook=rb), Selection(select=("RB",)))


def catch_rate(name: str) -> tuple[int, int, list[tuple[str, int]]]:
    """(slips caught, slips planted, findings at lines with no slip) for one rulebook."""
    _, findings = findings_for(name)
    got = {(f.code, f.location.line) for f in findings}
    slips = {(code, line) for code, line, _ in SLIPS[name]}
    false = sorted(g for g in got if g not in slips)
    return len(slips & got), len(slips), false


@pytest.mark.parametrize("name", sorted(SLIPS))
def test_slips_are_on_the_lines_recorded(name):
    rb = Rulebook.read(RULEBOOKS / name)
    for code, line, words in SLIPS[name]:
        assert words in rb.line(line).raw, (code, line)


@pytest.mark.parametrize("name", sorted(SLIPS))
def test_every_slip_caught_and_controls_silent(name):
    caught, planted, false = catch_rate(name)
    _, findings = findings_for(name)
    missed = sorted({(c, ln) for c, ln, _ in SLIPS[name]} - {(f.code, f.location.line) for f in findings})
    assert (missed, false) == ([], [])
    assert caught == planted == 11
    assert all(f.location.file.endswith(name) for f in findings)

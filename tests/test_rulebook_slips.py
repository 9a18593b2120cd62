"""A rulebook written for the test (tests/fixtures/rulebooks/slips.md) with one known slip of
each kind, checked against the mini fixture game: every slip is found at its line, nothing else."""

from __future__ import annotations

from conftest import FIXTURES, GAMES
from engine.checks.claims import component_lists, count_claims
from engine.load import load_game
from engine.checks import run_checks
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook

SLIPS = FIXTURES / "rulebooks" / "slips.md"

#: (code, rulebook line): the slip planted there.
EXPECTED = {
    ("RB011", 5),   # the contents leave out the sections Set Up, Power and Dice
    ("RB011", 8),   # the contents list "Scoring"; no section has that heading
    ("RB002", 13),  # "7 cards" but the items below add up to 8
    ("RB015", 18),  # a 30mm D12; the data's D12 is 35 mm
    ("RB014", 22),  # class "Forrest" (the data has Forest)
    ("RB001", 23),  # 3 unique cards per class; the data has 2
    ("RB003", 27),  # deal 5 cards each; the data deals 4 to each of 2 players
    ("RB008", 35),  # Trance! defined in the text, missing from the data
    ("RB006", 37),  # Frenzy! used, defined nowhere
    ("RB007", 37),  # “Rally” without its "!"
    ("RB009", 41),  # power ranging from 1 to 12; the scheme is 1-11
    ("RB010", 41),  # letters E or O; the scheme has no letters
    ("RB004", 46),  # a D6 in the D12 section; the game has no D6
    ("RB012", 50),  # "j" equals "10": not UEB (j is 0 after the numeric indicator)
}


def test_each_slip_found_at_its_line():
    deck = load_game(GAMES / "mini")
    findings = run_checks(deck, CheckContext(rulebook=Rulebook.read(SLIPS)), Selection(select=("RB",)))
    assert {(f.code, f.location.line) for f in findings} == EXPECTED
    assert len(findings) == len(EXPECTED)
    assert all(f.location.file.endswith("slips.md") for f in findings)
    # Each finding also names the data it conflicts with (or the rulebook line it contradicts).
    assert all(f.related for f in findings if f.code != "RB011")


def test_per_class_claim_names_every_class_when_the_list_is_misspelt():
    deck = load_game(GAMES / "mini")
    findings = run_checks(deck, CheckContext(rulebook=Rulebook.read(SLIPS)), Selection(select=("RB001",)))
    assert [f.message for f in findings] == [
        "the rulebook states 3 unique cards per class (“2 copies of 3 unique cards”) but the data has Ember 2, Forest 2"
    ]


def test_claims_read_from_the_slips():
    rb = Rulebook.read(SLIPS)
    [lst] = component_lists(rb)
    assert (lst.total, lst.line.number, [(ln.number, n) for ln, n, _ in lst.items]) == (7, 13, [(15, 4), (16, 4)])
    assert [(c.kind, c.number, c.line.number, c.each) for c in count_claims(rb)] == [
        ("cards", 4, 15, False), ("cards", 4, 16, False), ("copies", 2, 23, True), ("unique", 3, 23, True)
    ]

"""RB017's reading of dice and rolls (issue #24): what :func:`odds_claims` takes each sentence
to mean, and the exact chance :mod:`engine.checks.dice_odds` gives it (fractions, worked by
hand: two D12 have 144 outcomes, a sum of 13 comes up 12 ways, 13 or more 78 ways)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.checks.dice_odds import Event, chance
from engine.checks.rulebook_odds import odds_claims
from engine.rulebook import Rulebook

D12 = frozenset({12})


def _read(sentence: str, faces=D12):
    claims = list(odds_claims(Rulebook.from_text(f"Odds\n\n{sentence}\n", "odds.txt"), faces))
    return [(event, stated) for _, _, _, event, stated, _, _ in claims]


@pytest.mark.parametrize(
    ("sentence", "event", "true"),
    [
        ("With 2D12 a roll of 24 has a 1 in 12 chance.", Event(faces=12, count=2, values=frozenset({24})), Fraction(1, 144)),
        ("Roll the D12 twice and add the rolls: 13 or higher comes up 1 in 2 times.", Event(faces=12, count=2, at_least=13), Fraction(78, 144)),
        ("If you roll the D12 twice, a total of 24 comes up 1 in 72 times.", Event(faces=12, count=2, values=frozenset({24})), Fraction(1, 144)),
        ("The chance that two D12 rolls add up to 13 is 1 in 6.", Event(faces=12, count=2, values=frozenset({13})), Fraction(12, 144)),
        ("Rolling the D12 two times, the sum is 2 with probability 1/12.", Event(faces=12, count=2, values=frozenset({2})), Fraction(1, 144)),
        ("Roll the D12 twice: rolling a 12 at least once comes up 1 in 6 times.", Event(faces=12, values=frozenset({12}), tries=2), Fraction(23, 144)),
    ],
)
def test_each_wording_is_read_as_its_event_with_its_exact_chance(sentence, event, true):
    [(read, _)] = _read(sentence)
    assert read == event
    assert chance(read) == true


@pytest.mark.parametrize(
    "sentence",
    [
        "Roll the D12 twice and add 1 to your score for each 12: a roll of 12 shows up 1 in 12 times.",  # an add not the rolls'
        "Roll 2D12 twice and add them: a roll of 40 comes up 1 in 9 times.",  # two dice, twice: four dice or two sums?
        "Roll the D12 twice; the two together make 24 one time in 144.",  # impossible on one die next to "twice": misread
    ],
)
def test_an_uncertain_reading_is_left_alone(sentence):
    assert _read(sentence) == []


def test_a_glued_number_is_read_only_for_a_die_of_the_game():
    sentence = "With 3D20 a roll of 5 or 6 has a 50% chance."
    assert _read(sentence) == []
    [(event, stated)] = _read(sentence, frozenset({20}))
    assert (event, stated) == (Event(faces=20, count=3, values=frozenset({5, 6})), Fraction(1, 2))
    assert chance(event) == Fraction(6 + 10, 8000)  # a sum of 5: 6 ways, of 6: 10 ways


def test_a_number_the_die_cannot_show_is_a_slip_when_nothing_hints_at_more_dice():
    # "A roll of 7 on the D6": no face of a D6 is 7, so the stated half is wrong (chance 0)
    from conftest import GAMES
    from engine.checks import run_checks
    from engine.load import load_game
    from engine.registry import CheckContext, Selection

    [(event, stated)] = _read("A roll of 7 on the D6 wins half the time.", frozenset({6}))
    assert (event, stated, chance(event)) == (Event(faces=6, values=frozenset({7})), Fraction(1, 2), 0)
    rb = Rulebook.from_text("Odds\n\nA roll of 7 on the D6 wins half the time.\n", "odds.txt")
    [finding] = run_checks(load_game(GAMES / "tidepool"), CheckContext(rulebook=rb), Selection(select=("RB017",)))
    assert finding.message.endswith("but 7 on a D6 cannot be rolled (the dice show 1-6)")

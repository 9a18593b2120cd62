"""The exact dice calculator against brute-force enumeration, message caps, and a large rulebook."""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from conftest import CARDDATA, GAMES
from engine.checks import MAX_MESSAGE, MAX_RELATED, capped_problem, run_checks
from engine.checks.balance import class_stats, figure
from engine.checks.dice_odds import Event, chance
from engine.load import load_game
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook


def _enumerate(event: Event) -> Fraction:
    """Independent reference: list every outcome of count dice (tries times) and count the wins."""
    outcomes = list(itertools.product(range(1, event.faces + 1), repeat=event.count * event.tries))
    won = 0
    for rolls in outcomes:
        groups = [rolls[i * event.count : (i + 1) * event.count] for i in range(event.tries)]
        won += any(event.wins(sum(g)) for g in groups)
    return Fraction(won, len(outcomes))


@pytest.mark.parametrize(
    "event, expected",
    [
        (Event(faces=4, values=frozenset({1}), tries=2, chosen=True), Fraction(7, 16)),  # 1 - (3/4)^2 = 43.75 %
        (Event(faces=6, values=frozenset({5, 6})), Fraction(1, 3)),
        (Event(faces=6, at_least=4), Fraction(1, 2)),
        (Event(faces=6, count=2, at_least=7), Fraction(21, 36)),
        (Event(faces=4, count=2, at_least=5), Fraction(10, 16)),
        (Event(faces=12, at_most=3, tries=3), 1 - Fraction(9, 12) ** 3),
    ],
)
def test_dice_calculator_matches_enumeration(event, expected):
    assert chance(event) == expected == _enumerate(event)


def test_finding_messages_and_related_lists_are_capped_with_the_rest_counted():
    message, related = capped_problem("x" * 5000, tuple(range(120)))
    assert len(message) <= MAX_MESSAGE and message.endswith("more characters)") and "(and 70 more places)" not in message[:MAX_MESSAGE - 40]
    assert len(related) == MAX_RELATED
    short, rel = capped_problem("three sections", (1, 2))
    assert (short, rel) == ("three sections", (1, 2))


def test_a_contents_list_missing_thousands_of_sections_gives_one_short_finding():
    text = "Table of Contents\n- Intro\n\nIntro\n\n" + "".join(f"Section {i}\n\nText {i} here.\n\n" for i in range(3000))
    deck = load_game(GAMES / "tidepool")
    [f] = run_checks(deck, CheckContext(rulebook=Rulebook.from_text(text, "big.txt")), Selection(select=("RB011",)))
    assert "not listed: Section 0 (line 6)" in f.message and "and 2988 more" in f.message
    assert len(f.message) < 400 and len(f.related) == MAX_RELATED


def test_class_stats_of_tidepool():
    # Worked by hand from cards.yaml: Coral (2+5+8+3.5)x2, Kelp (3+6+7+2.5)x2, Shell (1+4+8+3.5)x2;
    # a D6-rolled "?" (Surge!) counts 3.5, a D4-rolled one (Tide!) 2.5.
    rows = [(s.name, s.cards, s.unique, figure(s.power), s.rolled) for s in class_stats(load_game(GAMES / "tidepool"))]
    assert rows == [("Coral", 8, 4, "37", 2), ("Kelp", 8, 4, "37", 2), ("Shell", 8, 4, "33", 2)]


def test_check_stats_prints_the_per_class_table():
    from typer.testing import CliRunner

    from pipeline.cli.app import app

    result = CliRunner().invoke(app, ["check", str(GAMES / "tidepool"), "--stats"])
    lines = result.output.splitlines()
    start = next(i for i, ln in enumerate(lines) if ln.startswith("class "))
    assert [ln.split()[:5] for ln in lines[start + 1 : start + 4]] == [
        ["Coral", "8", "4", "37", "2"], ["Kelp", "8", "4", "37", "2"], ["Shell", "8", "4", "33", "2"]
    ]
    assert lines[start + 4] == "keyword effects not counted: Anchor!, Surge!, Tide!"


def _work(copies: int) -> tuple[int, int]:
    """(Python function calls, RB017 findings) of reading and checking ``copies`` copies of the
    three Tidepool rulebooks and slips.md, each copy made distinct as the bench makes its chapters
    (a part heading and a clause in each prose line), against the Tidepool data."""
    import cProfile

    from conftest import FIXTURES
    from engine.checks.common import words
    from engine.checks.textscan import _breaks
    from pipeline.build.bench_rulebook import _varied

    sources = [p.read_text(encoding="utf-8") for p in sorted((FIXTURES / "rulebooks").iterdir())]
    text = "".join(f"PART {k}\n\n{_varied(source, k)}\n\n" for k in range(1, copies + 1) for source in sources)
    deck = load_game(GAMES / "tidepool")
    words.cache_clear()
    _breaks.cache_clear()  # no help from the run before
    profile = cProfile.Profile()
    profile.enable()
    findings = run_checks(deck, CheckContext(rulebook=Rulebook.from_text(text, "many.txt")), Selection(select=("RB",)))
    profile.disable()
    return sum(entry.callcount for entry in profile.getstats()), sum(f.code == "RB017" for f in findings)


def test_rulebook_checks_grow_linearly_with_the_text():
    # A count of work, not a timing: the Python function calls of reading and checking twice the
    # text. A rescan per claim (the quadratic paths of issue #24) makes the ratio about 4. A first,
    # small run pays the one-off work (imports, patterns compiled, caches filled) that would
    # otherwise weigh on the ten copies alone (the ratio about 1.90 without it, 1.98 with it).
    _work(1)
    calls_10, odds_10 = _work(10)
    calls_20, odds_20 = _work(20)
    assert (odds_10, odds_20) == (60, 120)  # the six planted odds slips of every copy (two per Tidepool rulebook)
    assert 1.9 <= calls_20 / calls_10 <= 2.1, (calls_10, calls_20)


def _letter_sets(n: int) -> str:
    """``n`` paragraphs stating Enchant's letters without X (an RB010 slip each), then ``n`` stating all five."""
    wrong = "".join(f"Rule {i}: some cards have letters E, H, L, O.\n\n" for i in range(n))
    return wrong + "".join(f"Note {i}: some cards have letters E, H, L, O, X.\n\n" for i in range(n))


def test_power_value_sets_relate_other_sets_up_to_the_cap_with_the_rest_counted():
    deck = load_game(CARDDATA / "enchant")
    rb = Rulebook.from_text(_letter_sets(60), "sets.txt")
    findings = run_checks(deck, CheckContext(rulebook=rb), Selection(select=("RB010",)))
    assert len(findings) == 60 and {f.location.line for f in findings} == {1 + 2 * i for i in range(60)}
    # each slip relates the 60 sets stated otherwise and the data (61 places): 50 kept, 11 counted
    assert all(f.message.endswith("X not stated (and 11 more places)") for f in findings)
    assert [r.line for r in findings[0].related] == [121 + 2 * i for i in range(50)]


def test_power_value_sets_are_compared_in_linear_work():
    # A count of work, not a timing: every stated set against every other (issue #24's kind of
    # quadratic path, 0.5 million locations for a 5 MB book) makes the ratio about 4.
    import cProfile

    deck = load_game(CARDDATA / "enchant")
    calls = []
    for n in (200, 400):
        profile = cProfile.Profile()
        profile.enable()
        run_checks(deck, CheckContext(rulebook=Rulebook.from_text(_letter_sets(n), "sets.txt")), Selection(select=("RB010",)))
        profile.disable()
        calls.append(sum(entry.callcount for entry in profile.getstats()))
    assert 1.8 <= calls[1] / calls[0] <= 2.2, calls

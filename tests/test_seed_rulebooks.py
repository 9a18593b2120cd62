"""The four shipped games checked with and without their seed rulebooks (../shared/seeds/).

Every rules-text finding expected on the real rulebooks is listed with the reason it is
real (each was read against the rulebook line and the data by hand). The data checks on
the shipped data raise no errors: the only warning is the placeholder archive URL, which
is real until the publisher's host is set, and provisional cards are counted as info.
"""

from __future__ import annotations

import pytest

from conftest import CARDDATA, SEED_RULEBOOKS
from engine.findings import Severity
from engine.load import load_game
from engine.checks import run_checks
from engine.registry import CheckContext, Selection
from engine.rulebook import Rulebook

#: (code, rulebook line) of every RB finding per game, with why it is real.
EXPECTED_RB = {
    "apprentice": [
        ("RB012", 24),  # "j equals 10, k equals 11, l equals 12" for power: UEB reads ⠼⠚ as 0; a private code (the data's single-letter style agrees), and 12 is above the top power 11
        ("RB012", 30),  # D12 faces j, k, l for 10, 11, 12 without the numeric indicator: a private code (the data's die key says so)
        ("RB007", 51),  # “Enchant” written without its "!" (twice on line 51)
        ("RB007", 53),  # “Rally” without "!" on lines 53 and 58
        ("RB007", 63),  # “Smite” and “Chance” without "!" in one sentence: one finding naming both
    ],
    "apprentice-power-crystal": [
        ("RB007", 54),  # “Summon” without "!" (line 54, and in the list on line 84)
        ("RB007", 84),  # "Chance, Destroy, Enchant, Rally, Smite, or Summon": keywords listed without "!", one finding for the sentence
    ],
    "enchant": [
        ("RB010", 32),  # the Cards section lists the letters E, H, L, O; the Letters section (line 48) and the data add X
        ("RB004", 39),  # the D6 section says "Each face of the D12"; Enchant has only a D6
        ("RB018", 36),  # "via the QR as well (#5)": in Enchant's layout list the QR link is item 4 and 5 is the Card Art Oval (Apprentice's numbering, where the QR is 5)
    ],
    "claim-reinforcements-magic": [
        ("RB011", 23),  # the contents list 12 artifacts; the text defines 18 (Divine Hourglass … Night Ring missing)
        ("RB002", 39),  # "58 cards" but the items add up to 60 (18 + 4 x 10 + 2), as the data has
        ("RB019", 66),  # "the five factions of the realms": Reinforcements is an expansion of Claim, whose five factions the data does not have (it has three); the hint says so
    ],
}


def _findings(game: str, rulebook: bool):
    folder = CARDDATA / game
    deck = load_game(folder)
    ctx = CheckContext(rulebook=Rulebook.read(SEED_RULEBOOKS[game]) if rulebook else None)
    return deck, run_checks(deck, ctx, Selection())


@pytest.mark.parametrize("game", sorted(EXPECTED_RB))
def test_seed_rulebook_findings_are_the_known_slips(game):
    _, findings = _findings(game, rulebook=True)
    got = sorted((f.code, f.location.line) for f in findings if f.code.startswith("RB"))
    assert got == sorted(EXPECTED_RB[game])
    assert all(f.location.file.endswith(SEED_RULEBOOKS[game].name) and f.related for f in findings if f.code.startswith("RB"))


@pytest.mark.parametrize("game", sorted(EXPECTED_RB))
def test_shipped_data_has_no_error_findings(game):
    deck, findings = _findings(game, rulebook=False)
    assert [f.render() for f in findings if f.severity is Severity.error] == []
    assert not any(f.code.startswith("RB") for f in findings)
    assert [f.code for f in findings if f.code == "DQ002"] == ["DQ002"]  # cards.example.invalid is a placeholder
    assert len([f for f in findings if f.code == "DQ001"]) == len(deck.provisional())


def test_enchant_letter_finding_names_both_lines():
    _, findings = _findings("enchant", rulebook=True)
    [f] = [f for f in findings if f.code == "RB010"]
    assert f.message.endswith("but the power scheme's letters are E, H, L, O, X: X not stated")
    assert [r.line for r in f.related][0] == 48


def test_claim_contents_finding_lists_the_missing_artifacts():
    _, findings = _findings("claim-reinforcements-magic", rulebook=True)
    [f] = [f for f in findings if f.code == "RB011"]
    assert "lists 12 entries under 'Artifacts' but the text has 18 sections there" in f.message
    assert [r.line for r in f.related] == [184, 188, 192, 196, 200, 204]


def test_the_wrong_rulebook_says_so_once_per_class_name():
    # Apprentice data checked against the Enchant rulebook (a user's likely mix-up): each of
    # Enchant's four class names once, with its later mentions (lines 23 and 92, read by hand),
    # and one finding saying the rulebook may be another game's.
    deck = load_game(CARDDATA / "apprentice")
    findings = run_checks(deck, CheckContext(rulebook=Rulebook.read(SEED_RULEBOOKS["enchant"])), Selection(select=("RB014", "RB016")))
    rb14 = sorted((f for f in findings if f.code == "RB014"), key=lambda f: f.location.column)
    assert [(f.location.line, f.location.column, [r.line for r in f.related[:-1]]) for f in rb14] == [
        (10, 61, [23, 92]), (10, 69, [23, 92]), (10, 76, [23, 92]), (10, 87, [23, 92])
    ]
    assert rb14[0].message == "the rulebook names the class 'Dragon' (lines 10, 23, 92), which the data does not have (classes: Ember, Forest, Glacier, Spirit)"
    [rb16] = [f for f in findings if f.code == "RB016"]
    assert rb16.message == (
        "4 of the 4 class names the rulebook lists (Dragon, Gnome, Phoenix, Unicorn) are not classes of "
        "Apprentice ICG (Ember, Forest, Glacier, Spirit); the rulebook may be for another game"
    )
    assert (rb16.location.line, rb16.location.column) == (10, 61)
    assert rb16.related[0].file.endswith("apprentice/game.yaml")

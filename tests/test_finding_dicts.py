"""engine.findings.finding_from_dict: a finding read back from a manifest is the finding that was written
(reference: the dataclass's own constructor and equality), and a malformed one is refused as the
constructors refuse it."""

from __future__ import annotations

import pytest

from engine.findings import Finding, Location, Severity, finding_from_dict, location_from_dict

MADE = Finding("RB003", "unknown-keyword", Severity.warning, "'Flyng' is not a keyword", "check the spelling",
               Location("rules.md", 12, 4, "card-7"), (Location("cards.yaml", 3, 1), Location()))


def test_a_finding_reads_back_equal_with_the_same_hash_and_order():
    back = finding_from_dict(MADE.to_dict())
    assert back == MADE and hash(back) == hash(MADE) and back.to_dict() == MADE.to_dict()
    assert back.location < Location("rules.md", 13) and back.severity is Severity.warning
    with pytest.raises(AttributeError):  # still frozen
        back.code = "XX000"


def test_rename_maps_every_non_empty_file_and_leaves_empty_ones():
    back = finding_from_dict(MADE.to_dict(), lambda name: "games/" + name)
    assert back.location == Location("games/rules.md", 12, 4, "card-7")
    assert back.related == (Location("games/cards.yaml", 3, 1), Location())


def test_a_malformed_finding_is_refused():
    data = MADE.to_dict()
    with pytest.raises(TypeError):
        finding_from_dict({**data, "colour": "red"})
    with pytest.raises(TypeError):
        location_from_dict({"file": "a", "row": 1})
    with pytest.raises(ValueError):
        finding_from_dict({**data, "severity": "fatal"})
    with pytest.raises(KeyError):
        finding_from_dict({k: v for k, v in data.items() if k != "code"})
    assert location_from_dict({"file": "a", "line": 2}) == Location("a", 2)  # a shorter form goes through __init__

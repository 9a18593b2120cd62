"""Every deck rule against its pass/fail cases: one YAML file per rule code under tests/rules/.

A case file names a ``base`` fixture game (tests/fixtures/games/<base>) and lists cases.
A case (which may name its own ``base``) patches that game and states exactly which findings of the rule it expects:

- ``game:`` a mapping deep-merged into game.yaml (mappings merge, anything else replaces);
- ``cards:`` card id → mapping merged into that card (``null`` removes the card);
- ``add:`` cards appended to cards.yaml;
- ``rulebook:`` rulebook text (written to ``rulebook.md`` unless ``rulebook_name`` says otherwise);
- ``encoder:`` power value → braille cells, a data-backed fake of the braille stage's encoder;
- ``expect:`` the findings, in order of (file, line); each item may give ``message`` (a
  substring), ``at`` (the data field the finding must point at, e.g.
  ``game.composition.classes.ember.cards`` or ``card.ember-ranger.copies``), ``line``
  (a rulebook line), ``related_lines`` (the rulebook lines in ``related``), ``card`` (the
  card id the finding names) and ``hint`` (the whole hint).
  An empty list is a passing case.

Only the rule's own code is selected, so a case tests one rule.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from conftest import GAMES
from engine.findings import Location, sort_key
from engine.load import load_game
import engine.checks  # noqa: F401  (registers the deck rules)
from engine.checks import run_checks
from engine.registry import RULES, CheckContext, Selection
from engine.rulebook import Rulebook

RULES_DIR = Path(__file__).resolve().parent / "rules"
CASE_FILES = sorted(RULES_DIR.glob("*.yaml"))


def _merge(base, patch):
    if isinstance(base, dict) and isinstance(patch, dict):
        out = dict(base)
        for k, v in patch.items():
            out[k] = _merge(base.get(k), v) if k in base else v
        return out
    return patch


class FakeEncoder:
    """Power value → cells from the case data; ValueError for a value it does not know."""

    def __init__(self, table: dict) -> None:
        self.table = {str(k): v for k, v in table.items()}

    def encode(self, value: str) -> str:
        if value not in self.table:
            raise ValueError(f"no cells for {value!r}")
        return self.table[value]


def _cases():
    for path in CASE_FILES:
        doc = yaml.safe_load(path.read_text())
        for case in doc["cases"]:
            yield pytest.param(doc, case, id=f"{doc['rule']}-{case['name']}")


def _build(tmp_path: Path, doc: dict, case: dict) -> Path:
    shutil.copytree(GAMES, tmp_path / "games")
    game_dir = tmp_path / "games" / case.get("base", doc["base"])
    if "game" in case:
        data = yaml.safe_load((game_dir / "game.yaml").read_text())
        (game_dir / "game.yaml").write_text(yaml.safe_dump(_merge(data, case["game"]), sort_keys=False, allow_unicode=True))
    if "cards" in case or "add" in case:
        data = yaml.safe_load((game_dir / "cards.yaml").read_text())
        cards = []
        for card in data["cards"]:
            patch = (case.get("cards") or {}).get(card["id"], {})
            if patch is not None:
                cards.append(_merge(card, patch))
        data["cards"] = cards + list(case.get("add") or [])
        (game_dir / "cards.yaml").write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    return game_dir


def _resolve(deck, path: str) -> Location:
    """The location of a data field named like ``game.composition.classes.ember.cards``,
    ``game.dice.d12`` (a list item by id or name) or ``card.<id>.<field>``."""
    parts = path.split(".")
    if parts[0] == "card":
        obj, parts = deck.card_by_id(parts[1]), parts[2:]
    else:
        obj, parts = deck.game, parts[1:]
    parent, last = None, None
    for part in parts:
        if isinstance(obj, dict):
            nxt = obj.get(part, obj.get(int(part)) if part.isdigit() else None)
        elif isinstance(obj, list):
            nxt = next((x for x in obj if getattr(x, "id", getattr(x, "name", None)) == part), None)
        else:
            nxt = getattr(obj, part, None)
        parent, last, obj = obj, part, nxt
    if hasattr(obj, "where"):
        return obj.where()
    return parent.where(last)


@pytest.mark.parametrize(("doc", "case"), list(_cases()))
def test_rule_case(tmp_path, doc, case):
    code = doc["rule"]
    assert code in RULES.rules, f"{code} is not registered"
    game_dir = _build(tmp_path, doc, case)
    deck = load_game(game_dir)
    rulebook = None
    if "rulebook" in case:
        rb_path = tmp_path / case.get("rulebook_name", "rulebook.md")
        rb_path.write_text(case["rulebook"])
        rulebook = Rulebook.read(rb_path)
    encoder = FakeEncoder(case["encoder"]) if "encoder" in case else None
    findings = sorted(run_checks(deck, CheckContext(power_encoder=encoder, rulebook=rulebook), Selection(select=(code,))), key=sort_key)
    expected = case.get("expect") or []
    shown = "\n".join(f.render() for f in findings)
    assert len(findings) == len(expected), f"expected {len(expected)} finding(s), got:\n{shown}"
    for finding, want in zip(findings, expected):
        assert finding.code == code and finding.name == RULES.rules[code].name
        # The location renders the card as "[id]"; the message must not name it again.
        assert not finding.location.card or f"'{finding.location.card}'" not in finding.message, shown
        if "message" in want:
            assert want["message"] in finding.message, shown
        if "at" in want:  # the finding's own location, or (rulebook findings) a related data location
            loc = _resolve(deck, want["at"])
            places = [(p.file, p.line, p.column) for p in (finding.location, *finding.related)]
            assert loc.line is not None and (loc.file, loc.line, loc.column) in places, shown
        if "line" in want:
            assert finding.location.file.endswith(rulebook.path) and finding.location.line == want["line"], shown
        if "card" in want:
            assert finding.location.card == want["card"], shown
        if "hint" in want:  # the whole hint
            assert finding.hint == want["hint"], shown
        if "related_lines" in want:  # the rulebook lines in related, in order
            assert [r.line for r in finding.related if r.file.endswith(rulebook.path)] == want["related_lines"], shown


def test_every_deck_rule_has_a_case_file():

    have = {p.stem for p in CASE_FILES}
    assert [r.code for r in RULES.checks() if r.code not in have] == []


def test_unknown_selectors_lists_entries_that_match_no_rule():
    from engine.registry import closest_rule, unknown_selectors

    entries = ["DQ", "DQ001", "provisional-card", "dq001", "DQ9", "nope", "nope", "Provisional-card"]
    assert unknown_selectors(entries) == ["dq001", "DQ9", "nope", "Provisional-card"]
    assert unknown_selectors([]) == []
    assert [closest_rule(e) for e in ("dq001", "dq", "provisonal-card", "zzz")] == ["DQ001", "DQ", "provisional-card", None]

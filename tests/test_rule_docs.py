"""Meta-test: every registered rule (deck checks and codes declared by the loader and the
stages) documents itself: a code, a kebab-case name, a summary, a failing and a passing example."""

from __future__ import annotations

import re

import engine.checks  # noqa: F401  (registers the deck checks)
import engine.load  # noqa: F401  (declares DA codes)
from engine.registry import RULES
from pipeline.build.stages import import_stage_modules

import_stage_modules()  # stage modules declare their codes

FAMILIES = {"DA", "CP", "KW", "PW", "DQ", "RB", "BR", "DI", "PR", "QR", "UV", "IM", "EM", "AR", "PF", "BX", "VE"}


def test_every_rule_has_fails_and_passes_examples():
    missing = [r.code for r in RULES if not re.search(r"^Fails:\s*\S", r.doc, re.M) or not re.search(r"^Passes:\s*\S", r.doc, re.M)]
    assert missing == []


def test_every_rule_has_a_summary_and_a_known_family():
    assert [r.code for r in RULES if not r.summary or r.family not in FAMILIES] == []


def test_engine_families_are_registered():
    codes = {r.code for r in RULES}
    for code in ("CP001", "CP008", "KW001", "KW005", "PW002", "DQ002", "RB001", "RB011", "RB015"):
        assert code in codes
    assert RULES.get("power-encoding-collision").code == "PW002"

"""engine/lazypattern.py: the rules-text checks' patterns compiled on first use, matching as ``re`` does."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from engine.lazypattern import lazy_compile


def test_a_lazy_pattern_matches_as_the_compiled_pattern_does():
    # Reference: re.compile of the same source and flags, on text of our own.
    source, text = r"\b(?P<n>\d+)\s+cards?\b", "Deal 7 Cards to each player, then 2 card more."
    lazy, compiled = lazy_compile(source, re.I), re.compile(source, re.I)
    assert "compiled" not in vars(lazy)  # nothing compiled before its first use
    assert [m.group("n") for m in lazy.finditer(text)] == ["7", "2"]
    assert lazy.compiled is vars(lazy)["compiled"] and lazy.compiled.pattern == source
    assert lazy.search(text).re is lazy.compiled  # a match's pattern, for `m.re is p.compiled`
    assert lazy.sub("N", text) == compiled.sub("N", text) == "Deal N to each player, then N more."
    assert (lazy.flags, lazy.groups, dict(lazy.groupindex)) == (compiled.flags, 1, {"n": 1})
    assert lazy.fullmatch("3 cards") and not lazy.match("x 3 cards")


def test_an_invalid_pattern_raises_at_its_first_use():
    broken = lazy_compile(r"(unclosed")
    with pytest.raises(re.error):
        broken.search("text")


def test_importing_the_engine_checks_compiles_none_of_the_rules_text_patterns():
    # The saving itself: a build or check without --rulebook never compiles them (fresh interpreter).
    probe = (
        "import engine.checks, engine.checks.claims as c, engine.checks.rulebook_text as t, "
        "engine.checks.rulebook_terms as r, engine.checks.rulebook_odds as o\n"
        "from engine.lazypattern import LazyPattern\n"
        "lazy = [v for m in (c, t, r, o) for v in vars(m).values() if isinstance(v, LazyPattern)]\n"
        "lazy += [x for m in (c, t, r, o) for v in vars(m).values() if isinstance(v, (list, tuple)) for x in v if isinstance(x, LazyPattern)]\n"
        "print(len(lazy), sum('compiled' in vars(p) for p in lazy))\n"
    )
    total, compiled = map(int, subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout.split())
    assert total >= 60 and compiled == 0

"""The rule registry: every finding code deckpress can report, with its documentation.

Two kinds of rule share one table (yamllint/sqlfluff style):

- *checks*: small functions over a loaded deck, registered with :func:`rule`;
  they yield :class:`Problem` records and the registry stamps code, name and
  severity onto them;
- *declared* rules: findings raised elsewhere (the loader, a pipeline stage such as
  braille overflow), registered with :func:`declare` so that ``deckpress rules``
  lists them and ``--select``/``--ignore`` apply to them too.

A rule's docstring is its user documentation: why it matters, a failing example
and a passing one (``Fails:`` / ``Passes:`` paragraphs; a test enforces this).
"""

from __future__ import annotations

import difflib
import inspect
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Iterator, Protocol

from engine.findings import Finding, Location, Severity

_CODE = re.compile(r"^[A-Z]{2}\d{3}$")
_NAME = re.compile(r"^[a-z]+(?:-[a-z0-9]+)*$")


@dataclass(frozen=True)
class Problem:
    """What a check yields: the message, where, and the hint. The registry adds code and severity."""

    message: str
    location: Location
    hint: str = ""
    related: tuple[Location, ...] = ()


class PowerEncoder(Protocol):
    """What the engine needs from the braille stage: the cells of one power value.

    ``encode(value)`` returns the Unicode braille cells (str) of a power value of
    the game, or raises ``ValueError`` for a value it cannot encode.
    """

    def encode(self, value: str) -> str: ...


@dataclass
class CheckContext:
    """Inputs a check may need besides the deck.

    ``power_encoder`` is supplied by the pipeline (the engine never imports it);
    ``rulebook`` is a parsed rulebook (``engine.rulebook``) when ``--rulebook`` is given.
    """

    power_encoder: PowerEncoder | None = None
    rulebook: object | None = None


@dataclass(frozen=True)
class Rule:
    """A registered rule: code, kebab-case name, default severity, docs and, for checks, the function."""

    code: str
    name: str
    severity: Severity
    doc: str
    check: Callable | None = None

    @property
    def family(self) -> str:
        """The two code letters (``CP`` for composition)."""
        return self.code[:2]

    @property
    def summary(self) -> str:
        """The first line of the docs."""
        return self.doc.strip().splitlines()[0] if self.doc.strip() else ""

    def finding(self, message: str, location: Location, hint: str = "", related: tuple[Location, ...] = ()) -> Finding:
        """A finding of this rule."""
        return Finding(self.code, self.name, self.severity, message, hint, location, tuple(related))


@dataclass
class Registry:
    """All rules by code. Registering a code or name twice is a programming error (ValueError)."""

    rules: dict[str, Rule] = field(default_factory=dict)

    def add(self, new: Rule) -> Rule:
        """Register a rule; raises ValueError on a malformed or reused code or name."""
        if not _CODE.match(new.code):
            raise ValueError(f"rule code {new.code!r} must be two capitals and three digits")
        if not _NAME.match(new.name):
            raise ValueError(f"rule name {new.name!r} must be kebab-case")
        old = self.rules.get(new.code)
        if old is not None and old.name != new.name:
            raise ValueError(f"rule code {new.code} is already {old.name}")
        if any(r.name == new.name and r.code != new.code for r in self.rules.values()):
            raise ValueError(f"rule name {new.name} is already registered")
        self.rules[new.code] = new
        return new

    def get(self, code_or_name: str) -> Rule:
        """The rule by code or name; KeyError if unknown."""
        if code_or_name in self.rules:
            return self.rules[code_or_name]
        for r in self.rules.values():
            if r.name == code_or_name:
                return r
        raise KeyError(code_or_name)

    def checks(self) -> list[Rule]:
        """Rules that run over a deck, in code order."""
        return [r for code, r in sorted(self.rules.items()) if r.check is not None]

    def __iter__(self) -> Iterator[Rule]:
        return iter(sorted(self.rules.values(), key=lambda r: r.code))


#: The one registry of the process. Rules register themselves at import.
RULES = Registry()


def rule(code: str, name: str, severity: Severity) -> Callable:
    """Decorator registering a check ``fn(deck, ctx) -> Iterable[Problem]`` under code and name."""

    def wrap(fn: Callable) -> Callable:
        RULES.add(Rule(code, name, severity, inspect.getdoc(fn) or "", fn))
        return fn

    return wrap


def declare(code: str, name: str, severity: Severity, doc: str) -> Rule:
    """Register a rule whose findings are raised outside the checks (loader, stages); returns it."""
    return RULES.add(Rule(code, name, severity, inspect.cleandoc(doc)))


def selector_matches(entry: str, code: str, name: str) -> bool:
    """True when a selector entry names this rule: its name exactly, or its code or a code
    prefix written in capitals (``BR``, ``BR001``). An empty entry matches nothing (it would
    otherwise be a prefix of every code). The one matching rule of ``--select``/``--ignore``,
    a card's ``ignore:`` and the DQ005 check."""
    return bool(entry) and (entry == name or (entry.isupper() and code.startswith(entry)))


def names_a_rule(entry: str) -> bool:
    """True when the entry matches at least one registered rule (:func:`selector_matches`)."""
    return any(selector_matches(entry, r.code, r.name) for r in RULES)


@dataclass(frozen=True)
class Selection:
    """``--select`` / ``--ignore``: each entry a code, a code prefix (``BR``) or a rule name.

    An empty ``select`` selects everything. ``ignore`` wins over ``select``.
    """

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()

    def allows(self, code: str, name: str) -> bool:
        """True when a finding with this code and name should be reported."""

        if self.select and not any(selector_matches(e, code, name) for e in self.select):
            return False
        return not any(selector_matches(e, code, name) for e in self.ignore)


def only_checks(selection: Selection) -> bool:
    """True when ``selection`` can allow nothing but registered checks (rules with a function
    that :func:`engine.checks.run_checks` runs), so a caller may run the checks alone.

    That is: ``select`` is given and each entry is a check's name, or a code or code prefix of
    two or more capitals whose family (``RB``) only checks have among the registered rules.
    Rules declared later (a pipeline stage's) cannot share a check's name (the registry
    refuses a name twice) and keep families of their own (tests/test_architecture.py checks
    that no stage declares a code in a check family), so the answer holds after they register.
    """
    if not selection.select:
        return False
    checks = RULES.checks()
    names = {r.name for r in checks}
    families = {r.family for r in checks} - {r.family for r in RULES if r.check is None}
    return all(e in names or (e.isupper() and len(e) >= 2 and e[:2] in families) for e in selection.select)


def card_ignores(finding: Finding, ignored: Iterable[str]) -> bool:
    """True when a card's ``ignore:`` list accepts this finding (by code, prefix or name).

    An empty entry accepts nothing (it would otherwise be a prefix of every code)."""
    return any(selector_matches(entry, finding.code, finding.name) for entry in ignored)


def unknown_selectors(entries: Iterable[str]) -> list[str]:
    """The ``--select``/``--ignore`` entries that match no registered rule, in order, each once.

    An entry matches as in :meth:`Selection.allows`: a rule name exactly, or a code or
    code prefix written in capitals (``BR``, ``BR001``). Only registered rules count, so
    the caller registers every rule first (``engine.checks`` and the pipeline's stage modules).
    """
    out: list[str] = []
    for entry in entries:
        if not names_a_rule(entry) and entry not in out:
            out.append(entry)
    return out


def closest_rule(entry: str) -> str | None:
    """A registered code or name the entry was probably meant to be ("did you mean"), or None.

    A code in the wrong case (``dq001``) gives the code; otherwise difflib's closest code
    or name (ratio at least 0.6).
    """
    codes = [r.code for r in RULES]
    families = sorted({c[:2] for c in codes})
    if entry.upper() in codes or entry.upper() in families:
        return entry.upper()
    guess = difflib.get_close_matches(entry, [r.name for r in RULES] + codes, n=1)
    return guess[0] if guess else None


def filter_findings(findings: Iterable[Finding], selection: Selection, deck=None) -> list[Finding]:
    """Apply a selection (and, given the deck, per-card ``ignore:``) to findings from any source."""
    ignores = {c.id: c.ignore for c in deck.cards if c.ignore} if deck is not None else {}
    return [
        f
        for f in findings
        if selection.allows(f.code, f.name)
        and not (f.location.card and card_ignores(f, ignores.get(f.location.card, ())))
    ]

"""Class balance: per-class card counts and expected power, and RB020 (a balance statement the data contradicts).

The *expected power* of a class is the sum over its printed cards (copies counted) of each
card's expected power value: a number counts as itself, a die-rolled "?" as its die's mean
((faces + 1) / 2: 3.5 for a D6, the expectation of a fair die). The die of a "?" card is
the die of a keyword it carries (``keywords: [{die: …}]`` in game.yaml), else the game's
only die. Other values (letters, modifiers such as "x2", text powers) and keyword effects
are not counted; they are listed so the figure's limits are visible.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterator

from engine.checks.claims import class_lists, class_sentences
from engine.checks.common import at, quote, rulebook_of, words
from engine.findings import Severity
from engine.model import Card, Deck
from engine.registry import Problem, rule

_CLAIM = re.compile(r"\b(?:each|every|all|both|the)\s+(?:of\s+the\s+)?(?:(?:two|three|four|five|six|seven|eight|\d{1,2})\s+)?(?:class|classes|faction|factions)\b[^.;]*?\b(?:equal(?:ly)?|same|balanced|even(?:ly)?|identical)\b", re.I)
_CARDS = re.compile(r"\b(?:equal|same)\s+(?:number\s+of\s+)?cards\b|\bcards?\s+(?:are|is)\s+equal\b", re.I)
#: "No class is stronger than another", "no faction is more powerful than the others": power is equal.
_NONE_STRONGER = re.compile(r"\bno\s+(?:class|faction)\s+is\s+(?:any\s+)?(?:stronger|weaker|more\s+powerful|less\s+powerful)\s+than\s+(?:another|any\s+other|the\s+others?)\b", re.I)
#: A word that turns a claim of equality around: "are not equal", "doesn't have the same", "never
#: balanced", "none of the classes" ("no matter which" is no negation).
_NEGATION = re.compile(r"\b(?:not|never|none|neither|nor|no(?!\s+matter))\b|n't\b", re.I)
_POWER = re.compile(r"\b(?:power(?:ful)?|strong|strength)\b", re.I)  # "equally strong" is a power claim


def _may_claim(sentence: str) -> bool:
    """False when ``sentence`` cannot match _CLAIM nor _NONE_STRONGER: it holds none of their closing
    words (tested on the case-folded text, where every letter re.I matches in "equal", "even",
    "balanced", "same", "dent" (of "identical"), "than", "stronger", "weaker" and "powerful" folds
    to itself; several times cheaper than the patterns)."""
    folded = sentence.casefold()
    return "equal" in folded or "even" in folded or "same" in folded or "balanced" in folded or "dent" in folded or ("than" in folded and ("stronger" in folded or "weaker" in folded or "powerful" in folded))


@dataclass
class ClassStats:
    """One class's figures: ``cards`` printed (copies counted), ``unique`` cards, ``power``
    the expected power (a Fraction), ``rolled`` printed "?" cards counted at a die's mean,
    ``uncounted`` values not counted (with how many printed cards carry each), ``keywords``
    the keywords on its cards (effects not counted)."""

    class_id: str
    name: str
    cards: int = 0
    unique: int = 0
    power: Fraction = Fraction(0)
    rolled: int = 0
    uncounted: dict[str, int] = field(default_factory=dict)
    keywords: list[str] = field(default_factory=list)


def _die_mean(deck: Deck, card: Card) -> Fraction | None:
    dice = {k.name: k.die for k in deck.game.keywords if k.die}
    for kw in card.keywords:
        die = deck.game.die_by_id(dice.get(kw, "")) if kw in dice else None
        if die is not None:
            return Fraction(die.faces + 1, 2)
    return Fraction(deck.game.dice[0].faces + 1, 2) if len(deck.game.dice) == 1 else None


def class_stats(deck: Deck) -> list[ClassStats]:
    """Figures for every class of the main deck, in game.yaml order."""
    out = []
    for cls in (c for c in deck.game.classes if c.deck == "main"):
        st = ClassStats(cls.id, cls.name)
        for card in deck.cards_of(cls.id):
            st.cards += card.copies
            st.unique += 1
            st.keywords += [k for k in card.keywords if k not in st.keywords]
            value = card.power
            mean = _die_mean(deck, card) if value == "?" else None
            if value is not None and re.fullmatch(r"-?\d+", value):
                st.power += int(value) * card.copies
            elif mean is not None:
                st.power += mean * card.copies
                st.rolled += card.copies
            else:
                key = value if value is not None else "no power"
                st.uncounted[key] = st.uncounted.get(key, 0) + card.copies
        out.append(st)
    return out


def figure(x: Fraction) -> str:
    """A power figure for people: 37, 36.5, 33.25."""
    return f"{float(x):.2f}".rstrip("0").rstrip(".")


def _unequal(stats: list[ClassStats], what: str) -> str | None:
    values = [(s.name, s.cards if what == "cards" else s.power) for s in stats]
    if len({v for _, v in values}) <= 1:
        return None
    shown = ", ".join(f"{n} {v if what == 'cards' else figure(v)}" for n, v in values)
    return f"{'printed cards' if what == 'cards' else 'expected power'}: {shown}"


def _claim_aspects(sentence: str) -> tuple[list[str], re.Match | None]:
    """What a sentence claims equal ("cards", "power") and the match of the claim, or ``([], None)``
    when it claims no equality: none read, or the claim negated ("the classes are not equal",
    "each class doesn't have the same power", "none of the classes are balanced")."""
    m = _NONE_STRONGER.search(sentence)
    if m is not None:
        return ["power"], m
    m = _CLAIM.search(sentence)
    clause = max(sentence.rfind(",", 0, m.start()), sentence.rfind(";", 0, m.start()), sentence.rfind(":", 0, m.start()), 0) if m else 0
    if m is None or _NEGATION.search(sentence, clause, m.end()):  # in the claim's clause
        return [], None
    rest = re.split(r"[;:]", sentence[m.start():], maxsplit=1)[0]  # the clause of the claim
    aspects = [a for a, rx in (("cards", _CARDS), ("power", _POWER)) if rx.search(rest)]
    if not aspects and re.search(r"\bbalanced\b", rest, re.I):
        aspects = ["cards", "power"]
    return aspects, m


@rule("RB020", "rulebook-balance-claim-wrong", Severity.warning)
def rulebook_balance_claim_wrong(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook says the classes are equal (in cards, in power, or "balanced") and the data's classes are not.

    Power is compared as each class's expected power (a rolled "?" at its die's mean;
    keyword effects not counted, and listed). ``deckpress check --stats`` prints the table.

    A negated statement ("the classes are not equal in power", "each class doesn't have the
    same total", "none of the classes are balanced") claims no equality and is not checked;
    "all four classes are equally strong" and "no class is stronger than another" claim equal power.

    Fails: "Each class has equal cards and equal power" where Shell's expected power is 33
    and Coral's 37.
    Passes: "Each class has the same number of cards" when every class has 8.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    stats = class_stats(deck)
    listed = {tuple(words(n)) for cl in class_lists(rb) for n, _, _ in cl.names}
    scoped = [st for st in stats if tuple(words(st.name)) in listed]
    stats = scoped if len(scoped) >= 2 else stats  # "each class" means the classes the rulebook lists
    if len(stats) < 2:
        return
    for p, s, sentence in class_sentences(rb):
        if not _may_claim(sentence):
            continue
        aspects, m = _claim_aspects(sentence)
        if m is None:
            continue
        wrong = [w for w in (_unequal(stats, a) for a in aspects) if w]
        if not wrong:
            continue
        ignored = sorted({k for st in stats for k in st.keywords})
        note = f" (keyword effects not counted: {', '.join(ignored)})" if ignored and any("power" in w for w in wrong) else ""
        yield Problem(
            f"the rulebook says the classes are equal ({quote(sentence, 80)}) but the data's {'; '.join(wrong)}{note}",
            at(rb, p.line_at(s + m.start()), p.column_at(s + m.start())),
            "balance the classes in cards.yaml, or say in the rulebook how they differ (deckpress check --stats)",
            (deck.game.where("classes"),),
        )

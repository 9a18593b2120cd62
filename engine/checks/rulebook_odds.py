"""RB017: a probability the rulebook states that the game's dice contradict.

A sentence is read as a probability claim when it names a die ("D6", "two D4", "2D6": the
number glued to the die is read only for a die the game has), a
chance ("50%", "58.3 %", "half the time", "one in six", "1/6", "a third of the time") and an
event on that die:

- faces: "a roll of 5 or 6", "a roll of 2", "rolling a 4", "your number" (one face);
- thresholds: "4 or higher" (more, better, above), "2 or lower" (less, below), "at least 3",
  "at most 2";
- sums: two or more dice named together ("two D6", "2D6") are summed, and so are rolls that
  are added ("roll the D12 twice and add the rolls", "if you roll the D12 twice, a total of
  24", "the sum of two rolls", "two D12 rolls add up to 13"); a sum's value: "a total of 24",
  "add up to 13", "the sum is 2";
- tries: "two chances", "3 tries", "two rolls", "roll the D6 twice", "three times" (any one
  succeeding).

Where the reading is uncertain the sentence is left alone rather than risk a false finding:
rolls repeated and an "add" that is not the rolls' ("roll twice and add 1 to your score"),
dice named and rolled again and added ("roll 2D6 twice and add"), or an event the dice as
read cannot show in a sentence that also says "twice", "total", "add"… (the dice were
misread). Without those words an impossible number is a slip: "a roll of 7 on the D6" is
reported as a number the die cannot show.

Chances read: "50%", "half the time", "one in six", "three times in four", "1/6".

The true value comes from :mod:`engine.checks.dice_odds` (exact fractions). A stated
percentage passes when it is the true value rounded to the digits written (58 % for
58.33 %); words ("half") must be within half a percentage point.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Iterator

from engine.checks.textscan import DIE_ANCHORS, sentences_in
from engine.checks.common import at, quote, rulebook_of
from engine.checks.dice_odds import Event, chance
from engine.findings import Severity
from engine.lazypattern import lazy_compile
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import NUMBER, Rulebook, to_int

#: A die: "D6", "two D6", "2 D6", or the number glued to it, "2D6" (``k``: read only when the game
#: has that die, so a code like "3D12" in a product name is not taken for three dice).
_DICE = lazy_compile(rf"(?:\b(?P<n>{NUMBER})\s+|\b(?P<k>\d{{1,2}})|(?<![\w/]))[dD](?P<f>\d{{1,3}})s?\b", re.I)
_PERCENT = lazy_compile(r"(?P<p>\d{1,3}(?:\.(?P<dec>\d+))?)\s*(?:%|per\s*cent\b)", re.I)
_WORDS = {"half": Fraction(1, 2), "a third": Fraction(1, 3), "a quarter": Fraction(1, 4), "one third": Fraction(1, 3), "one quarter": Fraction(1, 4), "two thirds": Fraction(2, 3)}
_WORD_CHANCE = lazy_compile(r"\b(?P<w>half|a\s+third|a\s+quarter|one\s+third|one\s+quarter|two\s+thirds)\s+(?:of\s+)?the\s+time\b", re.I)
_IN = lazy_compile(rf"\b(?P<a>{NUMBER})\s+(?:times?\s+|chances?\s+)?in\s+(?P<b>{NUMBER})\b", re.I)
_SLASH = lazy_compile(r"(?:probability|chance|odds)\s+(?:of\s+|is\s+)?(?P<a>\d+)\s*/\s*(?P<b>\d+)\b", re.I)
_N = r"(?<![dD\w])(\d{1,2})(?![\w%])"
_PAIR = lazy_compile(rf"{_N}\s+or\s+(?:an?\s+)?{_N}(?!\s+or\s+(?:higher|more|better|above|over|lower|less|below|under))")
_AT_LEAST = lazy_compile(rf"{_N}\s+or\s+(?:higher|more|better|above|over)\b|\bat\s+least\s+(?:an?\s+)?{_N}", re.I)
_AT_MOST = lazy_compile(rf"{_N}\s+or\s+(?:lower|less|below|under|fewer)\b|\bat\s+most\s+(?:an?\s+)?{_N}", re.I)
_SINGLE = lazy_compile(rf"\b(?:roll(?:ing|s)?|getting|get|shows?|showing)\s+(?:of\s+(?:an?\s+)?|an?\s+){_N}", re.I)
_YOUR = lazy_compile(r"\b(?:your|a\s+chosen|one\s+chosen|a\s+given|your\s+chosen)\s+number\b", re.I)
_TRIES = lazy_compile(rf"\b(?P<n>{NUMBER})\s+(?P<what>chances|tries|attempts|rolls|goes)\b", re.I)
#: "Roll the D6 twice: a 6 at least once …" is two tries; "three times in four" is a chance.
_TWICE = lazy_compile(r"\b(?:twice|(?P<n>two|three|four|2|3|4)\s+times(?!\s+in\b))\b", re.I)
#: The rolls are added: "roll twice and add the rolls", "add them", "the sum", "a total of",
#: "two D12 rolls add up to 13", "added together".
_SUM = lazy_compile(
    r"\b(?:sum(?:s|med)?|total(?:s|led|ling)?|add(?:s|ed|ing)?\s+(?:up|them|both|together|"
    r"(?:the|your)\s+(?:two\s+|three\s+|four\s+)?(?:rolls?|results?|dice|numbers?|faces?))\b|add(?:s|ed)?(?=\s*(?:[.:;,]|$)))",
    re.I,
)
#: An add that may not be the rolls' ("add 1 to your score"): the reading is uncertain.
_ADD = lazy_compile(r"\b(?:add(?:s|ed|ing)?|together)\b", re.I)
#: A sum's value: "add up to 13", "a total of 24", "the sum is 2", "the sum of two rolls is 2".
_SUM_IS = lazy_compile(
    rf"\b(?:add(?:s|ing)?\s+up\s+to|sums?\s+to|totals?|totall?ing|(?:sum|total)\b[^.,;:]{{0,30}}?\b(?:is|of|comes\s+to))"
    rf"\s+(?:exactly\s+)?(?:an?\s+)?{_N}",
    re.I,
)


def _stated(sentence: str) -> tuple[Fraction, Fraction, str] | None:
    """The stated chance, the tolerance it is read with, and its words; None when there is none."""
    low = sentence.lower()  # each pattern below needs a literal: test for it first (cheap)
    m = _PERCENT.search(sentence) if "%" in low or "cent" in low else None
    if m:
        digits = len(m.group("dec") or "")
        return Fraction(m.group("p")) / 100, Fraction(1, 2 * 100 * 10**digits), m.group(0)
    m = _WORD_CHANCE.search(sentence) if "time" in low else None
    if m:
        return _WORDS[" ".join(m.group("w").lower().split())], Fraction(1, 200), m.group(0)
    for rx, anchor in ((_SLASH, "/"), (_IN, "in")):
        m = rx.search(sentence) if anchor in low else None
        if m and to_int(m.group("a")) and to_int(m.group("b")):
            return Fraction(to_int(m.group("a")), to_int(m.group("b"))), Fraction(1, 200), m.group(0)
    return None


def _event(sentence: str, faces: int, count: int) -> Event | None:
    """The event the sentence describes on ``count`` dice of ``faces`` faces, or None (no event,
    or a reading that is uncertain: "roll 2D6 twice and add", "roll twice and add 1 to your score")."""
    low = sentence.lower()
    tries_m = _TRIES.search(sentence)
    twice = _TWICE.search(sentence) if tries_m is None and ("twice" in low or "times" in low) else None
    again = (to_int(tries_m.group("n")) if tries_m else (to_int(twice.group("n") or "2") if twice else 1)) or 1
    rolled_again = twice is not None or (tries_m is not None and tries_m.group("what").lower() == "rolls")
    summed = ("sum" in low or "total" in low or "add" in low) and _SUM.search(sentence) is not None
    tries = again
    if rolled_again and summed:  # "roll the D12 twice and add the rolls": the sum of two dice
        if count > 1:
            return None
        count, tries = again, 1
    elif rolled_again and ("add" in low or "together" in low) and _ADD.search(sentence):
        return None
    base = {"faces": faces, "count": count, "tries": tries}
    if m := _AT_LEAST.search(sentence):
        return Event(at_least=int(m.group(1) or m.group(2)), **base)
    if m := _AT_MOST.search(sentence):
        return Event(at_most=int(m.group(1) or m.group(2)), **base)
    if m := _PAIR.search(sentence):
        return Event(values=frozenset({int(m.group(1)), int(m.group(2))}), **base)
    if m := _SINGLE.search(sentence):
        return Event(values=frozenset({int(m.group(1))}), **base)
    if _YOUR.search(sentence) and count == 1:
        return Event(values=frozenset({1}), chosen=True, **base)  # one face: which one does not matter
    if count > 1 and (m := _SUM_IS.search(sentence)):
        return Event(values=frozenset({int(m.group(1))}), **base)
    return None


#: Words that make an impossible number a sign of a misread sentence, not a slip ("roll twice and
#: the two make 24"); without them "a roll of 7 on the D6" is a slip and is reported.
_MISREAD_HINTS = lazy_compile(r"\b(?:twice|times|rolls|sum|total|add\w*|together|combined)\b", re.I)


def _possible(event: Event) -> bool:
    """True when some roll of the event's dice is in the event (its numbers lie in count..count*faces)."""
    low, high = event.count, event.count * event.faces
    return any(event.wins(total) for total in range(low, high + 1))


def odds_claims(rb: Rulebook, faces: frozenset[int] | None = None) -> Iterator[tuple[object, int, str, Event, Fraction, Fraction, str]]:
    """Probability claims: (line, column, sentence, event, stated chance, tolerance, stated words).

    ``faces``: the game's dice (their face counts); a die written with its number glued on
    ("2D12") is read only when the game has it (None: any). A claim whose event the dice as
    read cannot show is left out when the sentence also says "twice", "total", "add"… ("roll
    the D12 twice, the two make 24": the dice were misread); "a roll of 7 on the D6" is kept."""
    for p, spans in sentences_in(rb, *DIE_ANCHORS):
        for start, end in spans:  # a claim names its die
            sentence = p.text[start:end]
            stated = _stated(sentence)  # cheaper than the die pattern, and rarer
            die = _DICE.search(sentence) if stated else None
            if die is None or (die.group("k") and faces is not None and int(die.group("f")) not in faces):
                continue
            count = to_int(die.group("n") or die.group("k") or "1") or 1
            # the event is read without the die's name and the stated chance ("1 in 2 times" is no tries)
            rest = sentence[: die.start()] + " " * (die.end() - die.start()) + sentence[die.end():]
            reading = rest.replace(stated[2], " " * len(stated[2]), 1)
            event = _event(reading, int(die.group("f")), count)
            if event is None or (not _possible(event) and _MISREAD_HINTS.search(reading)):
                continue  # an impossible number next to "twice", "total", "add": the dice were misread
            at_ = start + len(sentence) - len(sentence.lstrip())
            yield p.line_at(at_), p.column_at(at_), sentence.strip(), event, *stated


def _percent(x: Fraction) -> str:
    return f"{float(x) * 100:.2f}".rstrip("0").rstrip(".") + " %"


@rule("RB017", "rulebook-probability-wrong", Severity.warning)
def rulebook_probability_wrong(deck: Deck, ctx) -> Iterator[Problem]:
    """A probability the rulebook states is not what the dice give (worked out exactly).

    Players plan by the odds the rules promise; a wrong figure misleads every reader and
    every translation of the rules.

    Fails: "Two chances to roll your number on a D4 gives a 50% chance" (1 − (3/4)² =
    43.75 %); "A roll of 5 or 6 on the D6 wins half the time" (2/6 = 33.33 %); "With 2D12 a
    roll of 24 has a 1 in 12 chance" (1/144); "If you roll the D12 twice, a total of 24 comes
    up 1 in 72 times" (the rolls are added: 1/144).
    Passes: "A roll of 4 or higher on the D6 wins half the time"; "Rolling 7 or more with
    two D6 has a 58% chance" (21/36 = 58.33 %, rounded as written); "Roll the D12 twice and
    add the rolls: 13 or higher comes up 78 in 144 times". Sentences read uncertainly ("roll
    twice and add 1 to your score") are left alone.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    dice = {d.faces: d for d in deck.game.dice}
    for line, column, sentence, event, stated, tolerance, words in odds_claims(rb, frozenset(dice)):
        true = chance(event)
        if abs(true - stated) <= tolerance:
            continue
        die = dice.get(event.faces)
        odds = f"has a chance of {true.numerator}/{true.denominator} = {_percent(true)}" if true else \
            f"cannot be rolled (the dice show {event.count}-{event.count * event.faces})"
        yield Problem(
            f"the rulebook states {words.strip()} ({quote(sentence, 90)}) but {event.describe()} {odds}",
            at(rb, line, column),
            f"correct the figure to {_percent(true)} (or the event it describes)",
            (die.where() if die is not None else deck.game.where("dice"),),
        )

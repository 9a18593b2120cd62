"""RB007: a keyword also written another way in the rulebook (without its "!", quoted, in another case).

Variants read, each located at its line and column:

- quoted without "!": “Rally”, "Rally.";
- another case: "rally!", "RALLY!" (in a line that is not an all-capitals heading);
- bare, without quotes, where the words around it make it a keyword, not a verb: "a Surge
  card", "Play Surge to roll": the word right after is card/keyword/ability/effect, or the
  word right before is a/an/the/play/use/with/each/every/any/your/of/keyword/ability ("the
  keyword Tide rolls"; an imperative
  "Destroy a card." is a verb and is left alone);
- a list of three or more keywords, all without "!": "Chance, Destroy, Enchant".

One finding per sentence: keywords whose first variant is on the same line are one finding
naming them all (a list of five keywords is one warning, not five).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterator

from engine.checks.common import at, capped, rulebook_of
from engine.checks.rulebook_terms import _DEFINITION, _key, _vocabulary
from engine.checks.textscan import lines_with
from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import Line, Rulebook

_NOUN_AFTER = re.compile(r"\s+(?:cards?|keywords?|abilit(?:y|ies)|effects?)\b", re.I)
_WORD_BEFORE = re.compile(r"\b(?:a|an|the|play|plays|use|uses|using|with|each|every|any|your|of|keyword|ability)\s+$", re.I)
_LIST = re.compile(r"(?:\b[A-Z][a-z]+\b(?!!)(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)){2,}\b[A-Z][a-z]+\b(?!!)")

_CAPWORD = re.compile(r"\b[A-Z][a-z]+\b")

Variant = tuple[Line, int, str]


def _bare(body: str, rx: re.Pattern) -> Iterator[re.Match]:
    """Bare uses of a keyword word (no "!", no quotes) whose neighbours make it a keyword."""
    for m in rx.finditer(body):
        after, before = body[m.end():], body[: m.start()]
        if re.match(r"\s+[A-Z]", after):
            continue  # part of a longer name ("Enchant ICG")
        if _NOUN_AFTER.match(after) or _WORD_BEFORE.search(before[-12:]):
            yield m


def _patterns(bare: dict[str, str]) -> list[tuple[str, str, str, re.Pattern, re.Pattern, re.Pattern]]:
    """Per keyword, compiled once: (key, word, its first word lower-cased, quoted, other case, bare)."""
    out = []
    for key, word in bare.items():
        pattern = re.escape(word).replace(r"\ ", r"[ -]")
        # The look-behinds follow the word's first letter ("R(?<![\w-]R)ally" is "(?<![\w-])Rally"):
        # a pattern starting with a letter is found by skipping to it, not tried at every position.
        c, rest = re.escape(word[:1]), re.escape(word[1:]).replace(r"\ ", r"[ -]")
        out.append((
            key,
            word,
            (word.lower().split() or [""])[0],
            re.compile(rf"[“\"‘](?P<w>{pattern})[,.]?[”\"’]"),
            re.compile(rf"(?P<w>{c}(?<![\w-]{c}){rest})!", re.I),
            re.compile(rf"(?P<w>{c}(?<![\w“\"‘'!-]{c}){rest})(?![\w!’'”\"-])"),
        ))
    return out


def _line_variants(ln: Line, patterns, bare: dict[str, str], single: tuple[str, ...]) -> Iterator[tuple[str, Variant]]:
    body = ln.body
    lowered = body.lower()
    quotes, bang = any(q in body for q in "“\"‘"), "!" in body  # what the quoted and the other-case spellings need
    for key, word, first, quoted, cased, plain in patterns:
        if first not in lowered:
            continue  # cheap test first: most lines name no keyword
        for m in quoted.finditer(body) if quotes else ():
            yield key, (ln, ln.start + m.start("w") + 1, f"“{m.group('w')}”")
        for m in cased.finditer(body) if bang else ():
            if m.group("w") != word:
                yield key, (ln, ln.start + m.start("w") + 1, m.group("w") + "!")
        if not _DEFINITION.match(body.strip()):
            for m in _bare(body, plain):
                yield key, (ln, ln.start + m.start("w") + 1, m.group("w"))
    folded = body.casefold()
    if sum(map(folded.count, single)) < 3 or sum(1 for w in _CAPWORD.findall(body) if w.lower() in bare) < 3:
        return  # a list of keywords needs three of them on the line
    for m in _LIST.finditer(body):
        items = re.findall(r"\b[A-Z][a-z]+\b", m.group(0))
        hits = [w for w in items if _key(w) in bare]
        if len(hits) >= 3 and len(hits) == len(items):
            for w in hits:
                yield _key(w), (ln, ln.start + m.start() + m.group(0).find(w) + 1, w)


def variants_of(rb: Rulebook, bare: dict[str, str]) -> dict[str, list[Variant]]:
    """Keyword key → its variants in reading order (one per line, column and spelling)."""
    found: dict[str, list[Variant]] = defaultdict(list)
    seen: set[tuple[str, int, int, str]] = set()
    toc_lines = {e.line.number for e in rb.toc()}
    patterns = _patterns(bare)
    single = tuple(k for k in bare if " " not in k)  # the one-word keys, which a list of keywords is counted by
    anchors = tuple(dict.fromkeys(first for _, _, first, _, _, _ in patterns if first))
    for ln in lines_with(rb, *anchors) if anchors else ():  # lines naming no keyword have no variant
        if ln.number in toc_lines or (ln.heading and ln.body.isupper()):
            continue
        for key, variant in _line_variants(ln, patterns, bare, single):
            mark = (key, variant[0].number, variant[1], variant[2])
            if mark not in seen:
                seen.add(mark)
                found[key].append(variant)
    return found


def _written(name: str, found: list[Variant]) -> str:
    grouped: dict[str, list[int]] = {}
    for ln, _, shown in found:
        grouped.setdefault(shown, [])
        if ln.number not in grouped[shown]:
            grouped[shown].append(ln.number)
    where = capped([f"{shown} (line{'s' if len(n) > 1 else ''} {', '.join(map(str, n[:12]))})" for shown, n in grouped.items()])
    return f"{name} is also written {where}"


@rule("RB007", "keyword-spelling-variant", Severity.warning)
def keyword_spelling_variant(deck: Deck, ctx) -> Iterator[Problem]:
    """A keyword is also written another way in the rulebook: without its "!", or in another case.

    Keywords are read and searched as printed ("Rally!"); “Rally” in quotes, "a Surge card"
    without quotes, a list such as "Chance, Destroy, Enchant", or "rally!" reads as a
    different word. One finding per sentence, naming every keyword written so there.

    Fails: "Rally!: Add another card." and later "You can chain “Rally” cards", or
    "When you play a Surge card, roll the D6" with the keyword Surge!.
    Passes: "You can chain “Rally!” cards"; "Destroy a card." (a verb, not the keyword Destroy!).
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    data, defined, _ = _vocabulary(deck, rb)
    names = {**data, **{k: v[0] for k, v in defined.items() if k not in data}}
    found = variants_of(rb, {k: v.rstrip("!") for k, v in names.items()})
    by_line: dict[int, list[str]] = defaultdict(list)
    for key, variants in found.items():
        if variants:
            by_line[variants[0][0].number].append(key)
    for _, keys in sorted(by_line.items()):
        keys.sort(key=lambda k: found[k][0][1])
        first = found[keys[0]][0]
        data_locs = tuple(next((k.where() for k in deck.game.keywords if _key(k.name) == key), deck.game.where("keywords")) for key in keys)
        later = tuple(at(rb, ln, col) for key in keys for ln, col, _ in found[key][1:])
        yield Problem(
            "; ".join(_written(names[k], found[k]) for k in keys),
            at(rb, first[0], first[1]),
            f"write {', '.join(names[k] for k in keys)} the same way everywhere, with the '!'",
            later[:20] + tuple(dict.fromkeys(data_locs)),
        )

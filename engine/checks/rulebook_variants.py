"""RB007: a keyword also written another way in the rulebook (without its "!", quoted, in another case).

Variants read, each located at its line and column:

- quoted without "!": “Rally”, "Rally.";
- another case: "rally!", "RALLY!" (in a line that is not an all-capitals heading);
- bare, without quotes, where the words around it make it a keyword, not a verb: "a Surge
  card", "Play Surge to roll": the word right after is card/keyword/ability/effect/means, or
  the word right before is a/an/the/play/use/with/each/every/any/your/of/keyword/ability or a
  possessive ("the keyword Tide rolls", "your knight's Smite", "Rally means"; an imperative
  "Destroy a card." is a verb and is left alone);
- a list of three or more keywords, all without "!": "Chance, Destroy, Enchant".

One finding per keyword, at its first variant, naming the lines of the others (up to 12 a
spelling, the rest counted); keywords whose first variant is on the same line share one
finding (a list of five keywords is one warning, not five).
"""

from __future__ import annotations

import re
from collections import defaultdict
from typing import Iterator

from engine.checks.common import MAX_RELATED, at, capped, rulebook_of
from engine.checks.rulebook_terms import _DEFINITION, _key, _vocabulary
from engine.checks.textscan import lines_with
from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import Line, Rulebook

_NOUN_AFTER = re.compile(r"\s+(?:cards?|keywords?|abilit(?:y|ies)|effects?|means)\b", re.I)
# a possessive before makes the word a thing a card has ("your knight's Smite beats a dragon")
_WORD_BEFORE = re.compile(r"(?:\b(?:a|an|the|play|plays|use|uses|using|with|each|every|any|your|of|keyword|ability)|\w['’]s)\s+$", re.I)
_LIST = re.compile(r"(?:\b[A-Z][a-z]+\b(?!!)(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+)){2,}\b[A-Z][a-z]+\b(?!!)")

# "\b[A-Z][a-z]+\b" written to start with its capital (the look-behind after it is the first \b).
_CAPWORD = re.compile(r"[A-Z](?<!\w[A-Z])[a-z]+\b")
_SOLO = re.compile(r"[A-Z][a-z]*")

Variant = tuple[Line, int, str]


_CAP_AFTER = re.compile(r"\s+[A-Z]")


def _bare(body: str, rx: re.Pattern) -> Iterator[re.Match]:
    """Bare uses of a keyword word (no "!", no quotes) whose neighbours make it a keyword."""
    for m in rx.finditer(body):
        end, start = m.end(), m.start()
        if _CAP_AFTER.match(body, end):
            continue  # part of a longer name ("Enchant ICG")
        if _NOUN_AFTER.match(body, end) or _WORD_BEFORE.search(body[max(0, start - 12) : start]):
            yield m


#: :func:`_bare`'s first test, put into the bare pattern of a word written [A-Z][a-z]*: such a
#: word's places cannot overlap, so the pattern finds the same places less the ones the test drops.
_NO_NAME = r"(?!\s+[A-Z])"


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
            re.compile(rf"(?P<w>{c}(?<![\w“\"‘'!-]{c}){rest})(?![\w!’'”\"-]){_NO_NAME if _SOLO.fullmatch(word) else ''}"),
        ))
    return out


#: The only characters other than ASCII letters that ``re.IGNORECASE`` matches to an ASCII letter
#: (found by trying ``re.compile(letter, re.I).fullmatch`` on every code point, CPython 3.11).
_FOLDS_TO_ASCII = "\u0130\u0131\u017f\u212a"

def _held(rb: Rulebook, patterns, single: tuple[str, ...]) -> tuple[dict[int, int], dict[int, Line], dict[int, list[str]]]:
    """The lines holding any keyword's first word: line number → bit mask of the keywords (bit ``i``
    for ``patterns[i]``) whose first word its lower-cased body holds, number → line, and number →
    the one-word keys it holds that are no keyword's first word.

    Each word's lines are found once with ``str.find`` over the whole lower-cased text
    (:func:`lines_with`), so a line is tried only with its own keywords' patterns; a keyword
    whose first word is empty is tried on every such line, as ``"" in text`` always holds.
    The masks are ints, not lists: tens of thousands of small lists kept alive until the end
    would set off full runs of the cyclic garbage collector over the whole rulebook.
    """
    masks: dict[int, int] = {}
    lines: dict[int, Line] = {}
    empty = 0
    for i, (_, _, first, *_) in enumerate(patterns):
        if not first:
            empty |= 1 << i
            continue
        for ln in lines_with(rb, first):
            n = ln.number
            if n in masks:
                masks[n] |= 1 << i
            else:
                masks[n], lines[n] = 1 << i, ln
    for n in masks if empty else ():
        masks[n] |= empty
    firsts = {first for _, _, first, *_ in patterns}
    extra: dict[int, list[str]] = {}
    for k in single:
        for ln in lines_with(rb, k) if k and k not in firsts else ():
            if ln.number in masks:
                extra.setdefault(ln.number, []).append(k)
    return masks, lines, extra


#: Capitalised key words a list of keywords may be made of, each with and without its "!".
Caps = tuple[tuple[str, str], ...]


class _Scan:
    """What the per-line tests need of the keywords, worked out once per rulebook."""

    def __init__(self, patterns, bare: dict[str, str]):
        self.patterns, self.bare = patterns, bare
        self.single = tuple(k for k in bare if " " not in k)  # the one-word keys, which a list of keywords is counted by
        self._masks: dict[int, tuple[tuple[int, ...], Caps]] = {}
        #: Per keyword: its word's part before any space, which a quoted or bare spelling holds as
        #: written; for a word of ASCII letters, the word and its lower-case form with their "!";
        #: the capitalised word of a list of keywords that its first word is the key of, if any.
        self.lead = [word.split(" ")[0] for _, word, *_ in patterns]
        self.quoted = [("“" + lead, '"' + lead, "‘" + lead) for lead in self.lead]  # how a quoted spelling starts
        self.bangs = [(word + "!", word.lower() + "!") if word.isascii() and word.isalpha() else None for _, word, *_ in patterns]
        self.cap = [self.capital(first) for _, _, first, *_ in patterns]
        #: Per keyword written [A-Z][a-z]* (such a word cannot overlap itself, so ``str.count`` counts
        #: every place it is at): the word and the word with its "!".
        self.solo = [(word, word + "!") if _SOLO.fullmatch(word) else None for _, word, *_ in patterns]

    def capital(self, k: str) -> str | None:
        """The one capitalised word ``w`` (``_CAPWORD``, ``[A-Z][a-z]+``) with ``w.lower() == k``,
        if ``k`` is a key: how a list of keywords writes key ``k``."""
        return k.capitalize() if k in self.bare and k.isascii() and k.isalpha() and k.islower() else None

    def of_mask(self, mask: int) -> tuple[tuple[int, ...], Caps]:
        """The keyword indexes of bit mask ``mask`` in order, and their capitalised list words (once per mask)."""
        found = self._masks.get(mask)
        if found is None:
            kinds = tuple(i for i in range(mask.bit_length()) if mask >> i & 1)
            caps = tuple((c, c + "!") for c in dict.fromkeys(self.cap[i] for i in kinds) if c)
            found = self._masks[mask] = kinds, caps
        return found

    def listed(self, body: str, caps: Caps) -> bool:
        """Whether the line may hold a list of three keywords: three hits of the one-word keys in
        its case-folded text and three capitalised words that are keys. A capitalised key word
        ``W`` is on a line only where ``w`` is on the lower-cased line, so counting the line's own
        ``caps`` (``W`` as written, without "!" as :data:`_LIST` reads them) first is exact: fewer
        than three, and no list can be there."""
        if not caps or sum(body.count(c) for c, _ in caps) < 3 or sum(body.count(c) - body.count(bang) for c, bang in caps) < 3:
            return False  # a list's words have no "!" (a capitalised word cannot overlap itself)
        return sum(map(body.casefold().count, self.single)) >= 3 and sum(1 for w in _CAPWORD.findall(body) if w.lower() in self.bare) >= 3


def _line_variants(ln: Line, kinds: tuple[int, ...], caps: Caps, scan: _Scan) -> Iterator[tuple[str, Variant]]:
    body = ln.body
    bang = "!" in body  # what the other-case spelling needs
    lowered = definition = plain = None
    for i in kinds:  # only the keywords whose first word the line holds
        key, word, _, quoted, cased, bare_rx = scan.patterns[i]
        lead = scan.lead[i] in body  # a bare spelling holds the word as written
        q1, q2, q3 = scan.quoted[i]
        for m in quoted.finditer(body) if q1 in body or q2 in body or q3 in body else ():
            yield key, (ln, ln.start + m.start("w") + 1, f"“{m.group('w')}”")
        if bang:
            pair = scan.bangs[i]
            if pair is not None and plain is None:
                plain = body.isascii() or not any(c in body for c in _FOLDS_TO_ASCII)
            if pair is not None and plain:
                # ASCII letters only can match: another case is there only if the lower-cased line
                # holds the word with "!" more often than the line as written.
                lowered = body.lower() if lowered is None else lowered
                recased = pair[1] in lowered and lowered.count(pair[1]) != body.count(pair[0])
            else:
                recased = True
            for m in cased.finditer(body) if recased else ():
                if m.group("w") != word:
                    yield key, (ln, ln.start + m.start("w") + 1, m.group("w") + "!")
        solo = scan.solo[i]
        for m in _bare(body, bare_rx) if lead and (solo is None or body.count(solo[0]) != body.count(solo[1])) else ():
            if definition is None:
                definition = _DEFINITION.match(body.strip()) is not None
            if definition:
                break
            yield key, (ln, ln.start + m.start("w") + 1, m.group("w"))
    if not scan.listed(body, caps):
        return  # a list of keywords needs three of them on the line
    for m in _LIST.finditer(body):
        items = re.findall(r"\b[A-Z][a-z]+\b", m.group(0))
        hits = [w for w in items if _key(w) in scan.bare]
        if len(hits) >= 3 and len(hits) == len(items):
            for w in hits:
                yield _key(w), (ln, ln.start + m.start() + m.group(0).find(w) + 1, w)


def variants_of(rb: Rulebook, bare: dict[str, str]) -> dict[str, list[Variant]]:
    """Keyword key → its variants in reading order (one per line, column and spelling)."""
    found: dict[str, list[Variant]] = defaultdict(list)
    seen: set[tuple[str, int, int, str]] = set()
    toc_lines = {e.line.number for e in rb.toc()}
    scan = _Scan(_patterns(bare), bare)
    masks, lines, extra = _held(rb, scan.patterns, scan.single)
    for number in sorted(masks):  # lines naming no keyword have no variant
        ln = lines[number]
        if number in toc_lines or (ln.heading and ln.body.isupper()):
            continue
        kinds, caps = scan.of_mask(masks[number])
        if number in extra:  # one-word keys that are no keyword's first word
            caps = (*caps, *((c, c + "!") for c in map(scan.capital, extra[number]) if c))
        for key, variant in _line_variants(ln, kinds, caps, scan):
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
    where = capped([f"{shown} (line{'s' if len(n) > 1 else ''} {capped([str(x) for x in n])})" for shown, n in grouped.items()])
    return f"{name} is also written {where}"


@rule("RB007", "keyword-spelling-variant", Severity.warning)
def keyword_spelling_variant(deck: Deck, ctx) -> Iterator[Problem]:
    """A keyword is also written another way in the rulebook: without its "!", or in another case.

    Keywords are read and searched as printed ("Rally!"); “Rally” in quotes, "a Surge card"
    without quotes, a list such as "Chance, Destroy, Enchant", or "rally!" reads as a
    different word. One finding per keyword for the whole book, at its first variant, with
    the lines of the others (keywords first varied on the same line share one finding).

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
        data_locs = tuple(dict.fromkeys(data_locs))
        later = [at(rb, ln, col) for key in keys for ln, col, _ in found[key][1:]]
        room = MAX_RELATED - len(data_locs)  # the data's places always shown, the rest counted
        message = "; ".join(_written(names[k], found[k]) for k in keys)
        if len(later) > room:
            message += f" (and {len(later) - room} more places)"
        yield Problem(
            message,
            at(rb, first[0], first[1]),
            f"write {', '.join(names[k] for k in keys)} the same way everywhere, with the '!'",
            tuple(later[:room]) + data_locs,
        )

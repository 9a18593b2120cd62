"""Rules-text checks on keywords and dice (RB004–RB006, RB008, RB015; RB007 is in rulebook_variants).

Keyword-like terms are capitalised words ending in "!" ("Rally!", "Epic Chance!").
A term counts as a keyword (not an exclamation such as "Hello!") when the data defines
it, when the text defines it, when it is quoted (“Boon!”), or when the sentence runs on
after it ("Smite! still defeats", "(Rally!)"). Definitions:

- a *keyword definition* is a line starting with the term and a colon: ``Burn!: …``;
- a *section* explains a term when a heading contains it (``Option: “Pro Rally!”:``);
  such terms are known to the text but not required in the data.

Dice are named as "D12", "d6" or "12-sided die"; a die's section is the nearest heading
naming a die; a stated size is read from "35mm D12".
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from engine.checks.claims import in_contents
from engine.checks.common import at, rulebook_of
from engine.checks.textscan import DIE_ANCHORS, lines_with
from engine.findings import Severity
from engine.lazypattern import lazy_compile
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import Line, Rulebook, to_int

# "(?<![\w!’'])(?:(?P<first>[A-Z][a-z]+)[ -])?(?P<last>[A-Z][a-z]+)!(?!!)" written to start with its
# capital letter (the look-behind follows it), which re skips to instead of trying every position:
# ``a`` is the first word, ``b`` the second of a two-word term.
_TERM = lazy_compile(r"(?P<a>[A-Z](?<![\w!’'][A-Z])[a-z]+)(?:[ -](?P<b>[A-Z][a-z]+))?!(?!!)")
_DEFINITION = lazy_compile(r"^[“\"']?(?P<term>[A-Z][A-Za-z]+(?:[ -][A-Z][A-Za-z]+)?)![”\"']?\s*:")
# "[dD](?<![\w/][dD])" is "(?<![\w/])[dD]" written to start with its letter, which re finds fast.
_DIE = lazy_compile(r"[dD](?<![\w/][dD])(?P<f>\d{1,3})\b|\b(?P<g>\d{1,3}|four|six|eight|ten|twelve|twenty)[- ]sided\s+(?:die|dice)\b", re.I)
# _DIE's two halves, each run on its own (see _dice_in): "D6" needs no re.I (re.I matches no other
# character to "d"), so re skips to its letter; "six-sided die" is run only on lines that can hold it.
_DIE_NAME = lazy_compile(r"[dD](?<![\w/][dD])(?P<f>\d{1,3})\b")
_DIE_SIDED = lazy_compile(r"\b(?P<g>\d{1,3}|four|six|eight|ten|twelve|twenty)[- ]sided\s+(?:die|dice)\b", re.I)
#: The only characters other than ASCII letters that ``re.IGNORECASE`` matches to an ASCII letter
#: (found by trying ``re.compile(letter, re.I).fullmatch`` on every code point, CPython 3.11).
FOLDS_TO_ASCII = "\u0130\u0131\u017f\u212a"
# "\b(?P<mm>\d+…" written to start with its digit (the look-behind after it is the \b), which re skips to.
_DIE_SIZE = lazy_compile(r"(?P<mm>\d(?<!\w\d)\d*(?:\.\d+)?)\s*mm\s+(?:[\w/-]+\s+){0,4}?[dD](?P<f>\d{1,3})\b")


@dataclass(frozen=True)
class TermUse:
    """One occurrence of a keyword-like term: the term with its "!", where, and how it reads."""

    term: str
    line: Line
    column: int
    keyword_like: bool


@lru_cache(maxsize=4096)  # a 5 MB rulebook asks for the same few terms' keys 76,000 times
def _key(term: str) -> str:
    return " ".join(term.rstrip("!").casefold().replace("-", " ").split())


#: After a "Word!": the sentence runs on (a comma, a colon, a lower-case word), so the word is a term, not an exclamation.
_RUNS_ON = lazy_compile(r"[”\"’']?\s*(?:[,;:)]|[a-z])|[”\"’']?\s+[a-z]")


def term_uses(rb: Rulebook, known: set[str]) -> list[TermUse]:
    """Every "Word!" occurrence; ``known`` holds case-folded keys of terms defined somewhere."""
    return list(_uses(rb, known, frozenset()))


def _uses(rb: Rulebook, known: set[str], skip: frozenset[str] | set[str]) -> Iterator[TermUse]:
    """The "Word!" occurrences (as :func:`term_uses`) of terms whose key is not in ``skip``."""
    for ln in lines_with(rb, "!"):
        body = ln.body
        if "!" not in body or body.isupper():
            continue  # no term, or an all-capitals heading: case says nothing there
        for m in _TERM.finditer(body):
            first, second = m.group("a", "b")
            two = f"{first} {second}" if second else None
            term, start = (two, m.start()) if two and _key(two) in known else (second or first, m.start("b" if second else "a"))
            key = _key(term)
            if key in skip:
                continue
            before = body[start - 1] if start else ""
            runs_on = _RUNS_ON.match(body, m.end()) is not None  # matched in place: no copy of the rest of the line
            quoted = before in "“\"‘'" and before != ""
            like = key in known or quoted or runs_on
            yield TermUse(term + "!", ln, ln.start + start + 1, like)


def _definitions(rb: Rulebook) -> dict[str, tuple[str, Line]]:
    """Keyword definitions in the text: key → (spelling with "!", line); read once per rulebook."""
    return rb.memo("definitions", lambda: _find_definitions(rb))


def _find_definitions(rb: Rulebook) -> dict[str, tuple[str, Line]]:
    out: dict[str, tuple[str, Line]] = {}
    for ln in lines_with(rb, "!"):  # a definition is "Term!: …"
        m = _DEFINITION.match(ln.body.strip()) if ":" in ln.body else None
        if m:
            out.setdefault(_key(m.group("term")), (m.group("term") + "!", ln))
    return out


def _section_terms(rb: Rulebook) -> set[str]:
    """Keys of every capitalised word run found in a heading (terms a section explains); read once per rulebook."""
    return rb.memo("section_terms", lambda: _find_section_terms(rb))


_HEADING_MARKS = lazy_compile(r"[“”\"‘’'!:]")


def _find_section_terms(rb: Rulebook) -> set[str]:
    out: set[str] = set()
    # Each heading's words and pairs of words; a heading's text is read once however often it is
    # there, and the marks are blanked and the text case-folded in one pass over all headings
    # joined by newlines (no line holds one, and neither changes the count of newlines).
    bodies = dict.fromkeys(ln.body for ln in rb.headings())
    for text in _HEADING_MARKS.sub(" ", "\n".join(bodies)).casefold().split("\n"):
        tokens = text.split()
        out.update(tokens)
        out.update(map(" ".join, zip(tokens, tokens[1:])))
    return out


def _vocabulary(deck: Deck, rb: Rulebook) -> tuple[dict[str, str], dict[str, tuple[str, Line]], set[str]]:
    data = {_key(k.name): k.name for k in deck.game.keywords}
    defined = _definitions(rb)
    return data, defined, _section_terms(rb)


@rule("RB006", "rulebook-undefined-keyword", Severity.warning)
def rulebook_undefined_keyword(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook uses a keyword-like term ("Frenzy!") that neither the text nor the data defines.

    A player meeting an unexplained keyword cannot play the card. Reported once per term,
    at its first use, with the other lines in ``related``.

    Fails: "Play a Frenzy! card to double the battle." with no "Frenzy!:" definition and
    no keyword Frenzy! in game.yaml.
    Passes: the same text with a line "Frenzy!: Double the battle." and the keyword in game.yaml.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    data, defined, sections = _vocabulary(deck, rb)
    known = set(data) | set(defined) | sections
    seen: dict[str, list[TermUse]] = defaultdict(list)
    for use in _uses(rb, set(data) | set(defined), known):  # uses of known terms are passed over unbuilt
        if use.keyword_like:
            seen[_key(use.term)].append(use)
    for uses in seen.values():
        first = uses[0]
        lines = ", ".join(str(u.line.number) for u in uses)
        yield Problem(
            f"the rulebook uses the keyword {first.term} (line {lines}) but neither the rulebook nor the data defines it",
            at(rb, first.line, first.column),
            f"add a line '{first.term}: …' to the rulebook and the keyword to game.yaml, or correct the spelling",
            tuple(at(rb, u.line, u.column) for u in uses[1:]) + (deck.game.where("keywords"),),
        )


@rule("RB008", "rulebook-keyword-not-in-data", Severity.warning)
def rulebook_keyword_not_in_data(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook defines a keyword ("Burn!: …") that the game's data does not have, or spells differently.

    A keyword the rulebook explains but the data lacks cannot appear on a card, in braille
    or in the archive.

    Fails: the rulebook has "Trance!: Keep 3 cards in hand." and game.yaml has no keyword Trance!.
    Passes: game.yaml lists ``{name: "Trance!", summary: …}``.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    data, defined, _ = _vocabulary(deck, rb)
    for key, (term, line) in defined.items():
        if key in data and data[key] == term:
            continue
        if key in data:
            message = f"the rulebook defines {term} but the data spells it {data[key]}"
        else:
            message = f"the rulebook defines the keyword {term} but the game's data has no such keyword"
        yield Problem(message, at(rb, line), "add the keyword to game.yaml (keywords:) with the rulebook's spelling", (deck.game.where("keywords"),))


@dataclass(frozen=True)
class DieMention:
    """A die named in the text: its number of faces, where, and the die its section is about."""

    faces: int
    text: str
    line: Line
    column: int
    section: tuple[int, Line] | None
    contents: bool


def die_mentions(rb: Rulebook) -> list[DieMention]:
    """Every die named in the rulebook, in reading order (read once per rulebook)."""
    return rb.memo("die_mentions", lambda: _die_mentions(rb))


def _dice_in(body: str) -> list[re.Match]:
    """``_DIE.finditer(body)`` as a list, from its two halves: no match of one can overlap or start
    with a match of the other ("d" is never a "six-sided die"'s first letter, and inside one a "d"
    follows a letter or is followed by one), so the matches of both, by start, are _DIE's matches.
    The "sided" half can match only where the lower-cased line holds "sided", or where the line
    holds a character that re.I matches to an ASCII letter ("ſided")."""
    found = list(_DIE_NAME.finditer(body))
    if "sided" in body.lower() or (not body.isascii() and any(c in body for c in FOLDS_TO_ASCII)):
        found.extend(_DIE_SIDED.finditer(body))
        found.sort(key=re.Match.start)
    return found


def _die_mentions(rb: Rulebook) -> list[DieMention]:
    out: list[DieMention] = []
    sections: dict[int, tuple[int, Line] | None] = {}  # per heading line: the die it is about
    for ln in lines_with(rb, *DIE_ANCHORS, "sided"):  # "D6", "six-sided die"
        found = _dice_in(ln.body)
        if not found:
            continue
        section = None  # the same for every die of the line
        head = rb.heading_before(ln.number)
        if head is not None and head is not ln:
            if head.number not in sections:
                hm = _DIE.search(head.body)
                sections[head.number] = (int(hm.group("f")) if hm.group("f") else to_int(hm.group("g")) or 0, head) if hm else None
            section = sections[head.number]
        contents = None
        for m in found:
            faces = int(m.group("f")) if m.re is _DIE_NAME.compiled else to_int(m.group("g"))
            if faces is None or faces < 2:
                continue
            contents = in_contents(rb, ln) if contents is None else contents
            out.append(DieMention(faces, m.group(0), ln, ln.start + m.start() + 1, section, contents))
    return out


_COMPARED = lazy_compile(r"\b(?:identical|similar|like|same\s+as|as\s+in|as\s+with|unlike|than)\b")


def _compared(m: DieMention) -> bool:
    """Whether the 40 characters before the die compare it with another ("like the D6")."""
    before = m.line.body[max(0, m.column - m.line.start - 40) : m.column - m.line.start - 1].lower()
    return _COMPARED.search(before) is not None


def _dice_names(deck: Deck) -> str:
    return ", ".join(d.name for d in deck.game.dice) or "none"


@rule("RB004", "rulebook-die-not-in-game", Severity.warning)
def rulebook_die_not_in_game(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook names a die the game does not have, or a different die inside another die's section.

    Fails: in a section headed "D6:", "Each face of the D12 has the print number" while the
    game's only die is a D6.
    Passes: "Each face of the D6 has the print number".
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    faces = {d.faces for d in deck.game.dice}
    done: set[tuple[int, int]] = set()
    for m in die_mentions(rb):
        if (m.line.number, m.faces) in done:
            continue
        in_other = m.section is not None and m.section[0] != m.faces and m.section[0] in faces and not _compared(m)
        if m.faces in faces and not in_other:
            continue
        done.add((m.line.number, m.faces))
        text = f"the rulebook names a {m.text}"
        if in_other:
            text += f" in the section about the D{m.section[0]} (line {m.section[1].number})"
        if m.faces not in faces:
            text += f", but the game has no {m.faces}-sided die (dice: {_dice_names(deck)})"
        related = (at(rb, m.section[1]),) if in_other else ()
        yield Problem(text, at(rb, m.line, m.column), "correct the die's name in the rulebook, or add the die to game.yaml", related + (deck.game.where("dice"),))


@rule("RB005", "rulebook-die-not-explained", Severity.warning)
def rulebook_die_not_explained(deck: Deck, ctx) -> Iterator[Problem]:
    """A die of the game (or of the rulebook's component list) that the rulebook never explains.

    A die that is only listed in the box contents, or only in the data, leaves players
    guessing when to roll it. For an expansion only its own dice count (the base game's
    rulebook explains the others).

    Fails: the data has a D4 and the rulebook never mentions a D4 (or only in "Contents:").
    Passes: the rulebook has a section "MORE ROLLING: THE D4" saying when to roll it.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    mentions = die_mentions(rb)
    folder = deck.folder.rstrip("/").split("/")[-1] if deck.folder else ""
    for die in deck.game.dice:
        file = die.where().file
        if folder and file and f"/{folder}/" not in f"/{file}":
            continue  # a base game's die, explained by the base rulebook
        named = [m for m in mentions if m.faces == die.faces]
        if not named:
            yield Problem(f"the game's die {die.name} is never mentioned in the rulebook", at(rb, rb.lines[0]), f"explain when and how the {die.name} is rolled", (die.where(),))
        elif all(m.contents for m in named):
            yield Problem(
                f"the die {die.name} appears only in the component list (line {named[0].line.number}); the rulebook never says when to roll it",
                at(rb, named[0].line, named[0].column),
                f"explain when and how the {die.name} is rolled",
                (die.where(),),
            )


@rule("RB015", "rulebook-die-size-mismatch", Severity.warning)
def rulebook_die_size_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """The die size the rulebook states ("35mm D12") differs from the die's size in the data.

    The die maker works from the data; the box and rulebook promise the stated size.

    Fails: "Print/Braille 35mm D12" with ``size: 30mm`` for the D12 in game.yaml.
    Passes: ``size: 35mm``.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    for ln in lines_with(rb, "mm"):  # "35mm D12"
        for m in _DIE_SIZE.finditer(ln.body):
            die = next((d for d in deck.game.dice if d.faces == int(m.group("f"))), None)
            if die is None:
                continue
            data_mm = die.size * 25.4 / 72
            if abs(data_mm - float(m.group("mm"))) > 0.05:
                yield Problem(
                    f"the rulebook states a {m.group('mm')} mm {die.name} but the data's {die.name} is {data_mm:.1f} mm",
                    at(rb, ln, ln.start + m.start() + 1),
                    "correct size: of the die in game.yaml or the rulebook",
                    (die.where("size"),),
                )

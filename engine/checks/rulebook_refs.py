"""Rules-text checks on references: numbered cross-references (RB018) and classes or
factions the data does not have (RB019).

- A *numbered list* is a run of two or more numbered items ("1) Name", "2. Power") counting
  up from 1. A *cross-reference* is "(#5)", "(see #5)", "(item 5)", "(no. 5)" or
  "(step 5)"; it points into the nearest numbered list before it (else the first after).
  The words just before the reference ("the QR code (#5)") name what is meant: when they
  match another item better than the one the number points at, the number is wrong.
- A *class reference* is a count of classes or factions ("the five factions", "all 4
  classes") or a capitalised name before "class"/"faction" ("the Reef faction").
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Iterator

from engine.checks.claims import class_lists, class_sentences
from engine.checks.common import at, quote, quote_around, rulebook_of, words
from engine.checks.textscan import paragraphs_with
from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import NUMBER, Line, Rulebook, to_int

_ITEM = re.compile(r"^\s*\(?(?P<n>\d{1,2})[.)]\s+(?P<title>\S.*)$")
_REF = re.compile(r"\((?:see\s+)?(?:#\s?|(?:item|no\.|number|step|point)\s+)(?P<n>\d{1,2})\)", re.I)
_STOP = {"the", "a", "an", "its", "your", "their", "of", "in", "on", "at", "to", "see", "this", "that", "scan", "read", "point", "phone", "picture", "card"}
_CLASS_COUNT = re.compile(rf"\b(?P<n>{NUMBER})\s+(?:(?:playable|different|main|base|rival|other)\s+)?(?P<what>classes|factions)\b", re.I)
#: A part of every _CLASS_COUNT match (same flags), found several times faster than it: sentences without one are skipped.
_PLURAL = re.compile(r"(?:classe|faction)s", re.I)
_CLASS_NAME = re.compile(r"\b(?P<name>[A-Z][a-z]+(?:\s+[A-Z][a-z]+)?)\s+(?P<what>class|faction)(?:es|s)?\b")
_GENERIC = {"the", "each", "every", "any", "this", "that", "your", "their", "one", "a", "an", "which", "same", "other", "all", "new", "first", "last", "next", "main", "playable", "chosen", "choose", "pick", "per", "no", "players", "player", "of"}


def numbered_lists(rb: Rulebook) -> list[list[tuple[int, str, Line]]]:
    """Runs of numbered list items counting up from 1: ``[(number, title, line), …]`` per list.

    A title is the item's words before its first ":" (at most eight words). A note line
    between items ("Note: …") stays inside the list; a heading, or prose after a blank
    line, ends it.
    """
    out: list[list[tuple[int, str, Line]]] = []
    run: list[tuple[int, str, Line]] = []
    gap = False
    for ln in rb.lines:
        m = _ITEM.match(ln.raw) if ln.bullet else None
        if m and int(m.group("n")) == len(run) + 1:
            title = " ".join(m.group("title").split(":")[0].split()[:8])
            run.append((int(m.group("n")), title, ln))
            gap = False
            continue
        if ln.blank:
            gap = bool(run)
            continue
        if m or ln.heading or gap:
            if len(run) >= 2:
                out.append(run)
            run, gap = [], False
            if m and m.group("n") == "1":
                run = [(1, " ".join(m.group("title").split(":")[0].split()[:8]), ln)]
    if len(run) >= 2:
        out.append(run)
    return out


def _score(item: str, phrase: set[str]) -> int:
    return len(set(words(item)) & phrase)


@rule("RB018", "cross-reference-wrong-item", Severity.warning)
def cross_reference_wrong_item(deck: Deck, ctx) -> Iterator[Problem]:
    """A numbered cross-reference ("(#5)") points at an item of its numbered list that is not the thing named.

    Fails: a card layout list "4) QR", "5) Card Art" and "Scan the QR code (#5)".
    Passes: "Scan the QR code (#4)"; "The card art (#5) is described in the archive".
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    lists = numbered_lists(rb)
    if not lists:
        return
    starts = [lst[0][2].number for lst in lists]
    for p in paragraphs_with(rb, "("):
        for m in _REF.finditer(p.text):
            line = p.line_at(m.start())
            k = bisect_left(starts, line.number)  # lists starting before the reference
            items = lists[k - 1] if k else lists[0]
            n = int(m.group("n"))
            phrase = set(words(" ".join(p.text[max(0, m.start() - 80) : m.start()].split()[-4:]))) - _STOP
            loc = at(rb, line, p.column_at(m.start()))
            if n > len(items):
                yield Problem(f"the rulebook refers to {m.group(0)} but the list it points into (line {items[0][2].number}) has {len(items)} items", loc, "correct the number", (at(rb, items[0][2]),))
                continue
            best = max(items, key=lambda it: _score(it[1], phrase))
            target = items[n - 1]
            if _score(best[1], phrase) > _score(target[1], phrase):
                yield Problem(
                    f"{m.group(0)} points at item {n} ‘{target[1]}’ (line {target[2].number}) but the sentence names "
                    f"‘{best[1]}’, item {best[0]} ({quote(p.text[max(0, m.start() - 40): m.end()])})",
                    loc,
                    f"write ({'#' if '#' in m.group(0) else 'item '}{best[0]}) or correct the list",
                    (at(rb, target[2]), at(rb, best[2])),
                )


def _hint(deck: Deck, rb: Rulebook) -> str:
    expansion = any(re.search(r"\b(?:expansions?|base\s+game|core\s+set|reinforcements|add-on)\b", ln.body, re.I) for ln in rb.lines[:200])
    if expansion and deck.game.extends is None:
        return "the rulebook reads as an expansion: give the base game's data (extends: in game.yaml) so its classes count, or correct the rulebook"
    return "correct the rulebook, or add the class to game.yaml"


@rule("RB019", "rulebook-class-reference-unknown", Severity.warning)
def rulebook_class_reference_unknown(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook refers to classes or factions the data does not have: a wrong count ("the
    five factions" in a game of three) or a name ("the Reef faction") no class carries.

    Names in a class list ("classes: A, B, C") are RB014's; this rule reads the prose.
    When the rulebook speaks of an expansion and the data has no ``extends:``, the hint
    says the base game's data may be missing.

    Fails: "The five factions each bring their own deck" with three classes; "The Reef
    faction always plays first" with no class Reef.
    Passes: "Pick one of the three classes"; "the Coral class".
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    classes = deck.game.classes
    counts = {len(classes), len([c for c in classes if c.deck == "main"])} | {len(cl.names) for cl in class_lists(rb)}
    known = {tuple(words(c.name)) for c in classes} | {tuple(words(c.id.replace("-", " "))) for c in classes}
    listed = {tuple(words(n)) for cl in class_lists(rb) for n, _, _ in cl.names}
    names = ", ".join(c.name for c in classes)
    hint = _hint(deck, rb)
    for p, s, sentence in class_sentences(rb):
        for m in _CLASS_COUNT.finditer(sentence) if _PLURAL.search(sentence) else ():
            n = to_int(m.group("n"))
            if n is not None and n >= 2 and n not in counts:
                yield Problem(
                    f"the rulebook speaks of {n} {m.group('what').lower()} ({quote_around(sentence, m.start(), m.end())}) but the data has {len(classes)}: {names}",
                    at(rb, p.line_at(s + m.start()), p.column_at(s + m.start())), hint, (deck.game.where("classes"),))
        for m in _CLASS_NAME.finditer(sentence):
            parts = [w for w in m.group("name").split() if w.lower() not in _GENERIC]
            key = tuple(words(" ".join(parts)))
            if not key or key in known or key in listed or any(key == k[-len(key):] for k in known):
                continue
            at_ = s + m.start() + m.group(0).find(parts[0])
            yield Problem(
                f"the rulebook names the {m.group('what').lower()} '{' '.join(parts)}' ({quote_around(sentence, m.start(), m.end())}), which the data does not have (classes: {names})",
                at(rb, p.line_at(at_), p.column_at(at_)), hint, (deck.game.where("classes"),))

"""Claims a rulebook makes about counts: cards, copies, unique cards, totals, deals, players, classes.

Each extractor reads :meth:`engine.rulebook.Rulebook.paragraphs` with plain regular
expressions (one per phrasing, listed below) and returns located claims; the checks in
:mod:`engine.checks.rulebook_counts` compare them with the data. Phrasings recognised
(N is digits or an English number word; "class" also matches "faction"):

- "N copies of M unique [Name] cards" → copies and unique per class (or of Name);
- "M unique [Name] cards"; "N cards per class"; "each class contains (a total of) N cards"
  (also has, holds, gets, includes, comprises, is made (up) of, consists of);
- "N total [Name] cards", "a total of N cards", "(all N cards)", "consists of N [Name] cards";
- a component list: a bullet under a "Contents"/"Components" heading, "N [Name] cards" or
  "N Names"; a stated total "N cards" followed by bullet items "N Names";
- deals: "deal each player N cards", "each player should have (a total of) N cards",
  "deal N cards to each player"; the player count comes from the nearest heading
  such as "3 PLAYERS" or "2-Player Directions";
- players: "2-4 player(s)", "Players: 2-4";
- class lists: "N [playable] classes: A, B, C and D".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterator

from engine.checks.textscan import built, indexes_with, lines_with, paragraphs_with, scanned, sentence_at, sentence_of, sentence_spans, sentences_in, window_map, windows
from engine.gcpause import collector_paused
from engine.lazypattern import lazy_compile
from engine.rulebook import NUMBER, Line, Rulebook, to_int

__all__ = ["sentence_of", "sentence_spans"]  # re-exported: the checks read sentences through claims

_F = re.I
_SUBJ = r"(?P<subj>(?:[\w’'×”\"-]+\s+){0,3}?)"
_COPIES_OF_UNIQUE = lazy_compile(rf"\b(?P<copies>{NUMBER})x?\s+cop(?:y|ies)\s+(?:each\s+)?of\s+(?P<unique>{NUMBER})\s+unique\s+{_SUBJ}cards?\b", _F)
_UNIQUE = lazy_compile(rf"\b(?P<n>{NUMBER})\s+unique\s+{_SUBJ}cards?\b", _F)
_PER_CLASS = lazy_compile(rf"\b(?P<n>{NUMBER})\s+cards\s+(?:per|(?:in|for|of)\s+(?:each|every))\s+(?:class|faction)\b", _F)
_EACH_CONTAINS = lazy_compile(
    rf"\b(?:each|every|a)\s+(?:class|faction)(?:['’]s)?\s+(?:deck\s+)?(?:should\s+|will\s+|must\s+)?(?:now\s+)?(?:contains?|has|have|holds?|gets?|includes?|comprises?|(?:is|are)\s+made\s+(?:up\s+)?of|consists?\s+of|is|are)\s+(?:now\s+)?(?:a\s+total\s+of\s+)?(?P<n>{NUMBER})\s+cards\b",
    _F,
)
_TOTALS = (
    lazy_compile(rf"\b(?P<n>{NUMBER})\s+total\s+{_SUBJ}cards\b", _F),
    lazy_compile(rf"\btotal\s+of\s+(?P<n>{NUMBER})\s+{_SUBJ}cards\b(?!\s+(?:per|in\s+each|for\s+each)\b)", _F),
    lazy_compile(rf"\(all\s+(?P<n>{NUMBER})\s+{_SUBJ}cards\)", _F),
    lazy_compile(rf"\bconsists?\s+of\s+(?P<n>{NUMBER})\s+{_SUBJ}cards\b", _F),
)
_ITEM_CARDS = lazy_compile(r"^(?P<n>\d+)x?\s+" + _SUBJ + r"cards?\b", _F)
_ITEM_NOUN = lazy_compile(r"^(?P<n>\d+)x?\s+(?P<subj>[A-Za-z][\w’' -]*?)\s*(?:[,(:;]|$)")
_LIST_TOTAL = lazy_compile(r"^(?:[\w ]+:\s*)?\(?(?P<n>\d+)\s+(?:[\w-]+\s+){0,2}?cards?\)?:?\s*$", _F)
#: "The box holds 26 cards: 8 Coral, 8 Kelp and 8 Shell cards." (a component list in one sentence).
#: "26 cards: 8 Coral, 8 Kelp and 8 Shell cards", or the items in brackets: "100 cards (30 Ember, ...)".
_SENTENCE_LIST = lazy_compile(rf"\b(?P<n>{NUMBER})\s+(?:[\w-]+\s+){{0,2}}?cards\b(?:\s+in\s+(?:all|total))?\s*(?:(?P<colon>:)\s*(?P<items>[^.;:]+)|\(\s*(?P<bracketed>[^.;:()]+)\))", _F)
_SENTENCE_ITEM = lazy_compile(rf"^(?:and\s+)?(?P<n>{NUMBER})\s+(?P<what>[A-Za-z][\w’' -]*)$", _F)
_CONTENTS_HEADING = lazy_compile(r"\b(?:contents|components|in\s+the\s+box)\b", _F)
_DEALS = (
    lazy_compile(rf"\bdeal\s+each\s+player\s+(?P<n>{NUMBER})\s+cards\b", _F),
    lazy_compile(rf"\beach\s+player\s+(?:should|will|must|shall)\s+(?:now\s+)?(?:have|get|receive|be\s+dealt|hold)\s+(?:a\s+total\s+of\s+)?(?P<n>{NUMBER})\s+cards\b", _F),
    lazy_compile(rf"\bdeal\s+(?P<n>{NUMBER})\s+cards\s+(?:to\s+)?each\s+player\b", _F),
    lazy_compile(rf"\beach\s+player\s+is\s+dealt\s+(?P<n>{NUMBER})\s+cards\b", _F),
)
_PLAYER_HEADING = lazy_compile(r"(?<![-–]\s)(?<![-–])\b(?P<p>\d)[\s-]*players?\b|\bplayers?\s*:\s*(?P<q>\d)\b(?!\s*[-–])", _F)
#: "\bx" is written "x(?<!\wx)" (a word start, its first character first), which re finds
#: three times faster: it skips to the character instead of trying every position.
_PLAYERS = (
    lazy_compile(r"(?P<a>\d(?<!\w\d)\d?)\s*[-–]\s*(?P<b>\d{1,2})\s*[- ]?players?\b", _F),
    lazy_compile(r"p(?<!\wp)layers?\s*:\s*(?P<a>\d{1,2})\s*[-–]\s*(?P<b>\d{1,2})\b", _F),
    lazy_compile(r"f(?<!\wf)or\s+(?P<a>\d{1,2})\s+to\s+(?P<b>\d{1,2})\s+players\b", _F),
)
_CLASS_LIST = lazy_compile(rf"(?:\b(?P<n>{NUMBER})\s+(?:(?!of\b|{NUMBER}\s)[\w-]+\s+){{0,3}}?)?\b(?:classes|factions|class|faction)\s*:\s*(?P<names>[^.:;]+)", _F)
_NAME_SPLIT = lazy_compile(r"\s*(?:,|&|\band\b|\bor\b)\s*")
_EACH_CLASS = lazy_compile(r"\b(?:each|every|per)\s+(?:class|faction)")
_EACH_PLAYER = lazy_compile(r"\beach\s+player\b", re.I)
_WHOLE_GAME = lazy_compile(r"\b(?:deck|game)\s+total\b|\bin\s+total\b")
_PER_CLASS_OR_COPIES = lazy_compile(r"\b(?:per\s+(?:class|faction)|cop(?:y|ies))\b", re.I)
_PER_CLASS_AFTER = lazy_compile(r"\s*(?:per|in\s+each|for\s+each)\s+(?:class|faction)", re.I)
_ITEM_NUMBER = lazy_compile(r"(\d+)x?\s+(.*)")
#: Fast first tests on the lower-cased text (they start with a literal): "26 cards: …", "classes: …".
_CARDS_COLON = lazy_compile(r"cards\b(?:\s+in\s+(?:all|total))?\s*[:(]")
_CLASSES_COLON = lazy_compile(r"(?:class|faction)(?:es|s)?\s*:")
#: Parts of every match of _PER_CLASS and _CLASS_LIST (same flags), which re finds several times
#: faster than the whole pattern (it starts with a number, tried at every word): windows without one are skipped.
_PER_CLASS_NEEDS = lazy_compile(r"cards\s+(?:per|in|for|of)\s", _F)
_CLASS_LIST_NEEDS = lazy_compile(r"(?:class|faction)(?:es|s)?\s*:", _F)
#: The words every match of each total phrasing holds (its anchor, see engine.checks.textscan).
_TOTAL_ANCHORS = ("total", "total", "(all", "consist")


@dataclass(frozen=True)
class Claim:
    """One stated count, located in the rulebook.

    ``kind``: ``cards`` (printed cards, copies counted), ``unique``, ``copies``,
    ``deal`` (cards per player), ``players`` (``number`` = min, ``upper`` = max).
    ``subject`` the words naming what is counted ("Power Crystal", "Artifacts"; "" when
    none); ``each`` True for per-class claims ("each class", "per class"); ``total``
    True when the claim can only mean the whole game (a component-list total, "deck
    total"); ``players`` the player count a deal is for (None when not stated);
    ``sentence`` the sentence it was read from; ``text`` the matched words.
    """

    kind: str
    number: int
    line: Line
    column: int
    text: str
    sentence: str
    subject: str = ""
    each: bool = False
    total: bool = False
    players: int | None = None
    upper: int | None = None


@dataclass(frozen=True)
class ComponentList:
    """A stated total ("58 cards") and the bullet items listed under it with their numbers."""

    total: int
    line: Line
    items: tuple[tuple[Line, int, str], ...]


@dataclass(frozen=True)
class ClassList:
    """Class names listed after "classes:"; ``stated`` is the number written before it, if any."""

    stated: int | None
    names: tuple[tuple[str, Line, int], ...]
    line: Line
    text: str


def class_sentences(rb) -> Iterator[tuple[object, int, str]]:
    """Every sentence of the rulebook that speaks of classes or factions (holds "class" or
    "faction"), as ``(paragraph, start offset in the paragraph, sentence text)``."""
    for p, spans in sentences_in(rb, "class", "faction"):
        for s, e in spans:
            yield p, s, p.text[s:e]


def in_contents(rb: Rulebook, line: Line) -> bool:
    """True when a bullet line sits in a component list ("Contents:", "Components"),
    directly or under a stated total such as "58 cards" right below that heading."""
    if not line.bullet:
        return False
    head = rb.heading_before(line.number)
    if head is not None and _LIST_TOTAL.match(head.body.strip()):
        head = rb.heading_before(head.number - 1)
    return head is not None and bool(_CONTENTS_HEADING.search(head.body))


def _claim(kind: str, n: int, rb: Rulebook, k: int, m: re.Match, group: str = "n", **extra) -> Claim:
    """A claim read by ``m`` in paragraph ``k``; its sentence from the book's break table."""
    p, at = rb.paragraphs()[k], m.start(group)
    return Claim(kind, n, p.line_at(at), p.column_at(at), m.group(0).strip(), sentence_at(rb, k, at), **extra)


def _free(m: re.Match, taken: list[tuple[int, int]]) -> bool:
    return not any(a < m.end() and m.start() < b for a, b in taken)


def _found(rx: re.Pattern, text: str, spans, need: re.Pattern | None = None) -> Iterator[re.Match]:
    """Matches of ``rx`` in the windows ``spans`` of ``text``; with ``need`` (a cheap pattern a
    part of every match of ``rx`` matches, with the same flags) only in the windows it finds."""
    for start, end in spans or ():  # only the sentences holding the anchor
        if need is None or need.search(text, start, end):
            yield from rx.finditer(text, start, end)


def count_claims(rb: Rulebook) -> list[Claim]:
    """Every stated card count (cards, unique, copies) in reading order."""
    with collector_paused():  # many claims and windows, all kept (engine.gcpause)
        return _count_claims(rb)


def _count_claims(rb: Rulebook) -> list[Claim]:
    out: list[Claim] = []
    paragraphs = rb.paragraphs()
    unique, of_class = window_map(rb, "unique"), window_map(rb, "class", "faction")
    totals = [window_map(rb, anchor) for anchor in _TOTAL_ANCHORS]
    for k in indexes_with(rb, "card"):  # every phrasing read here counts cards
        p, taken = paragraphs[k], []
        text = p.text
        wins = unique.get(k)
        for m in _found(_COPIES_OF_UNIQUE, text, wins) if wins else ():
            subj, e = m.group("subj").strip(), _each(rb, k, m)
            out.append(_claim("copies", to_int(m.group("copies")), rb, k, m, "copies", subject=subj, each=e))
            out.append(_claim("unique", to_int(m.group("unique")), rb, k, m, "unique", subject=subj, each=e))
            taken.append(m.span())
        for m in _found(_UNIQUE, text, wins) if wins else ():
            if _free(m, taken):
                out.append(_claim("unique", to_int(m.group("n")), rb, k, m, subject=m.group("subj").strip(), each=_each(rb, k, m)))
                taken.append(m.span())
        wins = of_class.get(k)
        for rx, need in ((_PER_CLASS, _PER_CLASS_NEEDS), (_EACH_CONTAINS, None)) if wins else ():
            for m in _found(rx, text, wins, need):
                if _free(m, taken):
                    out.append(_claim("cards", to_int(m.group("n")), rb, k, m, each=True))
                    taken.append(m.span())
        for rx, table in zip(_TOTALS, totals):
            for m in _found(rx, text, table.get(k)) if k in table else ():
                sentence = sentence_at(rb, k, m.start())
                if _free(m, taken) and not _EACH_PLAYER.search(sentence):
                    whole = bool(_WHOLE_GAME.search(sentence.lower()))
                    out.append(_claim("cards", to_int(m.group("n")), rb, k, m, subject=m.group("subj").strip(), total=whole))
                    taken.append(m.span())
        if p.first.bullet and in_contents(rb, p.first):
            m = _ITEM_CARDS.match(text) or _ITEM_NOUN.match(text)
            if m and _free(m, taken) and not _PER_CLASS_OR_COPIES.search(m.group(0)):
                if not _PER_CLASS_AFTER.match(text, m.end()):
                    out.append(_claim("cards", int(m.group("n")), rb, k, m, subject=m.group("subj").strip(), total=True))
    return sorted(out, key=lambda c: (c.line.number, c.column))


def _each(rb: Rulebook, k: int, m: re.Match) -> bool:
    """True when the sentence of ``m`` speaks of each class ("each class", "per faction")."""
    return bool(_EACH_CLASS.search(sentence_at(rb, k, m.start()).lower()))


def component_lists(rb: Rulebook) -> list[ComponentList]:
    """Stated totals followed by numbered items: a bullet list under "58 cards", or one
    sentence "The box holds 26 cards: 8 Coral, 8 Kelp and 8 Shell cards". Cached per rulebook."""
    return built(rb, "component_lists", lambda: _bullet_lists(rb) + _sentence_lists(rb))


def _bullet_lists(rb: Rulebook) -> list[ComponentList]:
    out: list[ComponentList] = []
    lines = rb.lines
    for ln in lines_with(rb, "card"):  # a stated total counts cards
        m = _LIST_TOTAL.match(ln.body.strip()) if not ln.bullet else None
        if not m:
            continue
        items: list[tuple[Line, int, str]] = []
        least: int | None = None  # the items' indentation, kept as they are read
        for k in range(ln.number, len(lines)):  # the lines after it (numbers are 1-based)
            nxt = lines[k]
            if nxt.blank:
                if items:
                    break
                continue
            if not nxt.bullet:
                break
            if least is not None and (nxt.indent or 0) > least:
                continue  # a nested note under an item
            num = _ITEM_NUMBER.match(nxt.body.strip())
            if num:
                items.append((nxt, int(num.group(1)), num.group(2)))
                least = min(least if least is not None else nxt.indent or 0, nxt.indent or 0)
        if len(items) >= 2:
            out.append(ComponentList(int(m.group("n")), ln, tuple(items)))
    return out


def _sentence_lists(rb: Rulebook) -> list[ComponentList]:
    out: list[ComponentList] = []
    for p in paragraphs_with(rb, "cards"):
        if (":" not in p.text and "(" not in p.text) or not _CARDS_COLON.search(p.lowered):
            continue  # windows only for the few paragraphs that may hold a list
        for m in _found(_SENTENCE_LIST, p.text, windows(p, "cards")):
            items: list[tuple[Line, int, str]] = []
            group = "items" if m.group("colon") else "bracketed"
            offset = m.start(group)
            for part in re.split(r"\s*,\s*|\s+and\s+", m.group(group)):
                im = _SENTENCE_ITEM.match(part.strip())
                if im is None or (group == "bracketed" and not im.group("what")[:1].isupper()):
                    items = []  # in brackets only named items ("30 Ember"), not "(5 in a 2-player game, ...)"
                    break
                at = p.text.find(part, offset)
                offset = max(at, offset)
                items.append((p.line_at(offset), to_int(im.group("n")), im.group("what").strip()))
            if len(items) >= 2:
                out.append(ComponentList(to_int(m.group("n")), p.line_at(m.start("n")), tuple(items)))
    return out


def _players_for(rb: Rulebook, line: Line) -> int | None:
    """The player count of the section holding ``line``, from the nearest heading naming one."""
    def table() -> list[int | None]:
        out, last = [], None
        for ln in rb.lines:
            m = _PLAYER_HEADING.search(ln.body) if ln.heading else None
            last = int(m.group("p") or m.group("q")) if m else last
            out.append(last)
        return out

    return rb.memo("players_for", table)[line.number - 1]


def deal_claims(rb: Rulebook) -> list[Claim]:
    """Cards each player is dealt or holds, with the player count of the section when stated."""
    out = []
    players = window_map(rb, "player")
    for k in indexes_with(rb, "deal", "each player"):
        wins, text = players.get(k), rb.paragraphs()[k].text
        for rx in _DEALS if wins else ():
            for m in _found(rx, text, wins):
                c = _claim("deal", to_int(m.group("n")), rb, k, m)
                out.append(Claim(**{**c.__dict__, "players": _players_for(rb, c.line)}))
    return sorted(out, key=lambda c: (c.line.number, c.column))


def player_claims(rb: Rulebook) -> list[Claim]:
    """Stated player ranges ("2-4 player", "Total Players: 2-4")."""
    with collector_paused():  # as count_claims
        return _player_claims(rb)


def _player_claims(rb: Rulebook) -> list[Claim]:
    out = []
    for k, wins in window_map(rb, "player").items():
        seen: set[int] = set()
        text = rb.paragraphs()[k].text
        for rx in _PLAYERS:
            for m in _found(rx, text, wins):
                if m.start() in seen:
                    continue
                seen.add(m.start())
                out.append(_claim("players", int(m.group("a")), rb, k, m, "a", upper=int(m.group("b"))))
    return out


def class_lists(rb: Rulebook) -> list[ClassList]:
    """Lists of class (faction) names: "4 playable classes: Ember, Forest, Glacier, Spirit" (cached per rulebook)."""
    return built(rb, "class_lists", lambda: _class_lists(rb))


def _class_lists(rb: Rulebook) -> list[ClassList]:
    out = []
    for p, wins in scanned(rb, "class", "faction"):
        if ":" not in p.text or not _CLASSES_COLON.search(p.lowered):
            continue
        for m in _found(_CLASS_LIST, p.text, wins, _CLASS_LIST_NEEDS):
            names: list[tuple[str, Line, int]] = []
            offset = m.start("names")
            for part in _NAME_SPLIT.split(m.group("names")):
                at = p.text.find(part, offset) if part else -1
                words = part.split()
                if not words:
                    continue
                if len(words) > 3 or not all(w[:1].isupper() for w in words):
                    break
                names.append((part.strip(), p.line_at(at), p.column_at(at)))
                offset = at + len(part)
            if len(names) >= 2:
                stated = to_int(m.group("n")) if m.group("n") else None
                out.append(ClassList(stated, tuple(names), p.line_at(m.start()), m.group(0).strip()))
    return out

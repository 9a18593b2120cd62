"""Rules-text checks on power claims, the table of contents and braille conventions (RB009–RB013).

Phrasings read:

- power ranges: "ranging from (numbers) 1 to 11", "power level(s) (of|between) 0-11",
  "numbered 0-9" (a component item: the range of that class);
- value sets: "letters E, H, L, O", "letters either E, H, L, O, or X", a bracketed list in a component item "10 Potions, (x2, +6, … -5)";
- braille conventions: "a=1", "aj=10", "the braille letter “j” equals “10”",
  "numbers 10, 11, and 12 are represented by the letters j, k, and l". UEB reads the
  letters a–j after the numeric indicator as the digits 1–9, 0 (UEB Rulebook §6.1), so
  "j = 10" is a private code, not UEB. The context is the die of the section's heading
  ("D12:") or, otherwise, the card power.
"""

from __future__ import annotations

import re
from collections import Counter
from itertools import islice
from typing import Iterator

from engine.checks.common import MAX_RELATED, Referent, at, capped, quote, referents_in, rulebook_of
from engine.checks.textscan import indexes_with, lines_with, paragraphs_with, windows_at
from engine.findings import Severity
from engine.lazypattern import lazy_compile
from engine.model import Deck
from engine.registry import Problem, rule
from engine.rulebook import NUMBER, Line, Paragraph, Rulebook, TocEntry, normalise_title, to_int
from engine.rulebook_lines import heading_rank

# "\bx" written "x(?<!\wx)": the pattern starts with its letter, which re skips to.
_RANGES = (
    lazy_compile(r"r(?<!\wr)anging\s+from\s+(?:numbers\s+)?(?P<a>\d+)\s*(?:to|through|[-–])\s*(?P<b>\d+)", re.I),
    lazy_compile(r"p(?<!\wp)ower\s+levels?\s+(?:of\s+|between\s+|from\s+)?(?P<a>\d+)\s*(?:[-–]|to|through)\s*(?P<b>\d+)", re.I),
    # prose: "power goes from 1 to 9", "Power values run from one to eight", "a power between 1 and 9",
    # "Power values range from 1 up to 10"
    lazy_compile(rf"p(?<!\wp)ower\b(?:\s+(?:values?|levels?|numbers?|of\s+a\s+card))?\s+(?:(?:goes|go|runs?|ranges?|is|are|lies|lie)\s+)?(?:from|between)\s+(?P<a>{NUMBER})\s+(?:(?:up\s+)?to|through|and)\s+(?P<b>{NUMBER})\b", re.I),
    # a clause between: "Power is printed on the card and goes from 2 to 10" (no digit, sentence
    # mark in between, and no die/roll/player/score word: _OTHER_THING, so "power ... the die goes from 1 to 6" is not read)
    lazy_compile(rf"p(?<!\wp)ower\b(?P<gap>[^.;:!?\d]{{1,60}}?)\b(?:goes|go|runs?|ranges?|lies|lie)\s+(?:from|between)\s+(?P<a>{NUMBER})\s+(?:(?:up\s+)?to|through|and)\s+(?P<b>{NUMBER})\b", re.I),
)
_OTHER_THING = lazy_compile(r"\b(?:die|dice|rolls?|rolled|players?|points?|scores?|turns?|costs?|decks?|hands?)\b", re.I)
_NUMBERED = lazy_compile(r"\bnumbered\s+(?P<a>\d+)\s*(?:[-–]|to)\s*(?P<b>\d+)", re.I)
_LETTERS = lazy_compile(r"\bletters\s+(?:either\s+)?(?P<set>[A-Z](?:\s*,\s*(?:(?:or|and)\s+)?[A-Z](?!\w)|\s+(?:or|and)\s+[A-Z](?!\w))+)")
_VALUE_LIST = lazy_compile(r"\((?P<vals>[x×+\-−]?\d+(?:\s*,\s*[x×+\-−]?\d+)+)\)")
_EQUALS = lazy_compile(r"(?<![\w’'])(?P<l>[a-z]{1,3})\s*=\s*(?P<n>\d{1,3})\b")
_QUOTED_EQUALS = lazy_compile(r"[“\"‘'](?P<l>[a-z])[”\"’']?\s+equals\s+[“\"‘']?(?P<n>\d{1,3})")
_REPRESENTED = lazy_compile(r"\bnumbers?\s+(?P<ns>\d+(?:\s*,\s*\d+)*,?\s*(?:and\s+)?\d+)\s+are\s+represented\s+by\s+(?:the\s+)?letters\s+(?P<ls>[a-z](?:\s*,\s*[a-z])*,?\s*(?:and\s+)?[a-z])\b", re.I)
_DIE_HEADING = lazy_compile(r"(?<![\w/])[dD](?P<f>\d{1,3})\b|\b(?:die|dice)\b", re.I)
#: A stated count standing as its own line ("58 cards" under "Components"): a label, not a section.
_COUNT_LABEL = lazy_compile(r"^\(?\d+\s+(?:[\w-]+\s+){0,2}?cards?\)?:?$", re.I)
_UEB_DIGITS = dict(zip("abcdefghij", "1234567890"))


def _norm_value(v: str) -> str:
    return v.strip().replace("−", "-").replace("×", "x").replace("–", "-")


def _numeric(cards) -> list[tuple[int, object]]:
    out = []
    for c in cards:
        if c.power is not None and re.fullmatch(r"-?\d+", c.power):
            out.append((int(c.power), c))
    return out


@rule("RB009", "rulebook-power-range-mismatch", Severity.warning)
def rulebook_power_range_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A power range the rulebook states differs from the game's power scheme or from the cards' values.

    Phrasings read: "power ranging from 1 to 11", "power levels 1-10", "power goes from one to
    nine", "a power between 1 and 9", and with a clause between ("Power is printed on the card
    and goes from 2 to 10"; not when the clause names a die, roll, player, score or turn).

    Fails: "power ranging from 1 to 11" with ``power: {numbers: {min: 1, max: 10}}``, or
    "10 Wizards, numbered 0-9" where a Wizard card has power 10.
    Passes: the scheme's numbers are 1-11 and every card's power lies in the stated range.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    scheme = deck.game.power
    paragraphs = rb.paragraphs()
    # a literal each match holds ("level"; "from"/"between"), its paragraphs found book-wide and
    # tested first: most "power" paragraphs state no range
    holding = [set(indexes_with(rb, *needs)) for needs in (("ranging",), ("level",), ("from", "between"))]
    verbs = holding[2] & set(indexes_with(rb, "goes", "go ", "run", "range", "lie"))  # the clause form's verb, a literal first
    for k in indexes_with(rb, "power"):  # every range read is said of power
        p, seen = paragraphs[k], set()
        for rx, anchor, need in zip(_RANGES, ("ranging", "power", "power", "power"), holding + [verbs]):
            if k not in need:
                continue
            for m in (m for start, end in windows_at(rb, k, anchor) for m in rx.finditer(p.text, start, end)):
                if m.start("a") in seen or ("gap" in rx.groupindex and _OTHER_THING.search(m.group("gap"))):
                    continue  # two phrasings reading the same range, or a clause about something else
                seen.add(m.start("a"))
                a, b = to_int(m.group("a")), to_int(m.group("b"))
                loc = at(rb, p.line_at(m.start()), p.column_at(m.start()))
                have = (scheme.numbers or {}).get("min"), (scheme.numbers or {}).get("max")
                if have != (a, b):
                    shown = f"{have[0]}-{have[1]}" if scheme.numbers else "no numbers"
                    yield Problem(f"the rulebook states power {a}-{b} ({quote(m.group(0))}) but the game's power scheme allows {shown}", loc, "correct power.numbers in game.yaml or the rulebook", (scheme.where("numbers"),))
    for ln in lines_with(rb, "numbered"):
        m = _NUMBERED.search(ln.body) if ln.bullet and "numbered" in ln.body else None
        if not m:
            continue
        refs = referents_in(deck, ln.body[: m.start()])
        if not refs:
            continue
        a, b = int(m.group("a")), int(m.group("b"))
        values = _numeric(refs[0].cards)
        outside = sorted({v for v, _ in values if not a <= v <= b})
        missing = [v for v in range(a, b + 1) if v not in {x for x, _ in values}] if len(refs[0].cards) >= b - a + 1 else []
        if outside or missing:
            bits = ([f"values outside it: {', '.join(map(str, outside))}"] if outside else []) + ([f"no card with {', '.join(map(str, missing))}"] if missing else [])
            yield Problem(
                f"the rulebook says {refs[0].label} are numbered {a}-{b} but the data has {'; '.join(bits)}",
                at(rb, ln, ln.start + m.start() + 1),
                "correct the cards' power values or the rulebook",
                (refs[0].location,),
            )


def _stated_sets(rb: Rulebook, deck: Deck) -> Iterator[tuple[Line, int, list[str], Referent | None, str]]:
    for p in paragraphs_with(rb, "letters"):
        for m in _LETTERS.finditer(p.text):
            letters = re.findall(r"[A-Z]", m.group("set"))
            yield p.line_at(m.start()), p.column_at(m.start()), letters, None, m.group(0)
    for ln in lines_with(rb, "("):  # a value list is bracketed
        m = _VALUE_LIST.search(ln.body) if ln.bullet else None
        if m:
            refs = referents_in(deck, ln.body[: m.start()])
            if refs:
                values = [_norm_value(v) for v in m.group("vals").split(",")]
                yield ln, ln.start + m.start() + 1, values, refs[0], m.group(0)


@rule("RB010", "rulebook-power-values-mismatch", Severity.warning)
def rulebook_power_values_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A set of power values the rulebook states (letters, a potion list) differs from the data.

    Stated letter sets ("letters E, H, L, O") are compared with the power scheme's letter
    symbols; a bracketed value list of a component item with the values its cards carry.

    Fails: "Some cards have letters either E, H, L, O, or X" with symbols [E, H, L, O].
    Passes: "Some cards have letters either E, H, L, or O".
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    scheme = deck.game.power
    letters = [s for s in scheme.symbols if re.fullmatch(r"[A-Z]", s)]
    stated_sets = list(_stated_sets(rb, deck))
    groups: dict[int, list[tuple]] = {}  # the sets stated of one referent, each other's related places
    for o in stated_sets:
        groups.setdefault(id(o[3]), []).append(o)
    same = Counter((id(o[3]), tuple(o[2])) for o in stated_sets)
    done: set[tuple[int, tuple[str, ...]]] = set()
    shared: dict[tuple[int, tuple[str, ...]], tuple] = {}  # related places of a (referent, set): the same for each statement of it
    for line, col, stated, ref, text in stated_sets:
        if (line.number, tuple(stated)) in done:
            continue  # the same set twice on one line is one statement
        done.add((line.number, tuple(stated)))
        if ref is None:
            have, what, where = letters, "the power scheme's letters", scheme.where("symbols")
        else:
            have = sorted({_norm_value(c.power) for c in ref.cards if c.power is not None})
            what, where = f"the {ref.label} cards' values", ref.location
        extra = [v for v in stated if v not in have]
        missing = [v for v in have if v not in stated]
        if extra or missing:
            bits = ([f"{', '.join(extra)} not in the data"] if extra else []) + ([f"{', '.join(missing)} not stated"] if missing else [])
            message = f"the rulebook states {', '.join(stated)} ({quote(text)}) but {what} are {', '.join(have) or 'none'}: {'; '.join(bits)}"
            # the other sets stated of this referent, then the data: taken only up to the cap,
            # the rest counted (every set of a 5 MB book against every other was 0.5 million locations)
            total = len(groups[id(ref)]) - same[(id(ref), tuple(stated))] + 1
            related = shared.get((id(ref), tuple(stated)))
            if related is None:
                others = (o for o in groups[id(ref)] if o[2] != stated)
                related = shared[(id(ref), tuple(stated))] = tuple(at(rb, o[0], o[1]) for o in islice(others, min(total - 1, MAX_RELATED))) + (where,)
            if total > MAX_RELATED:
                message, related = message + f" (and {total - MAX_RELATED} more places)", related[:MAX_RELATED]
            yield Problem(message, at(rb, line, col), "correct the values in game.yaml / cards.yaml or the rulebook", related)


def _toc_parent(entries: list[TocEntry], i: int) -> TocEntry | None:
    for j in range(i - 1, -1, -1):
        if entries[j].level < entries[i].level:
            return entries[j]
    return None


@rule("RB011", "table-of-contents-mismatch", Severity.warning)
def table_of_contents_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """The table of contents does not match the sections the text defines.

    An entry with no section, or sections left out of a listed group (the contents list
    12 artifacts, the text defines 18), misleads a reader who navigates by the contents,
    as screen-reader users do.

    Headings of a kind or depth the contents never name are subsections, not left-out
    sections: a flat list of "# " sections is not faulted for the "## " headings under
    them, nor "1. Setup" for "1.1 Deal", nor a list naming only capitals headings for the
    other headings of a plain text (kinds: :func:`engine.rulebook_lines.heading_rank`).

    Fails: the contents list "Artifacts" with 12 entries and the text has 18 artifact headings.
    Passes: the contents list all 18.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    entries = rb.toc()
    if not entries:
        return
    seen, unused, named = _match_headings(rb, entries)
    current: int | None = None
    missing: dict[int, list[Line]] = {}
    top: list[Line] = []
    ranks: dict[str, tuple[str, int]] = {}
    for h, hit in seen:
        if hit is not None:
            current = hit
            continue
        if current is None:
            continue
        rank = ranks.get(h.raw)
        if rank is None:
            rank = ranks[h.raw] = heading_rank(h.raw, h.body, rb.markdown)  # books repeat headings
        if rank[1] > named.get(rank[0], 0):
            continue  # a subsection, of a kind or depth the contents do not list
        has_children = current + 1 < len(entries) and entries[current + 1].level > entries[current].level
        if has_children:
            missing.setdefault(current, []).append(h)
        elif entries[current].level > 0:
            parent = _toc_parent(entries, current)
            missing.setdefault(entries.index(parent) if parent else current, []).append(h)
        elif not _COUNT_LABEL.match(h.body.strip()) and not h.body.rstrip().endswith(":"):
            top.append(h)  # a top-level section the contents leave out (flat or nested lists)
    for parent, heads in missing.items():
        e = entries[parent]
        listed = _children(entries, parent)
        yield Problem(
            f"the table of contents lists {listed} entries under '{e.title}' but the text has {listed + len(heads)} sections there; not listed: {_sections(heads)}",
            at(rb, e.line),
            "add the missing entries to the table of contents",
            tuple(at(rb, h) for h in heads),
        )
    if top:
        listed = sum(1 for e in entries if e.level == 0)
        yield Problem(
            f"the table of contents lists {listed} top-level sections but the text has {listed + len(top)}; not listed: {_sections(top)}",
            at(rb, entries[0].line),
            "add the missing entries to the table of contents",
            tuple(at(rb, h) for h in top),
        )
    for i in unused:
        yield Problem(f"the table of contents lists '{entries[i].title}' but no section has that heading", at(rb, entries[i].line), "add the section or correct the entry", ())


def _match_headings(rb: Rulebook, entries: list[TocEntry]) -> tuple[list[tuple[Line, int | None]], list[int], dict[str, int]]:
    """Each heading after the contents with the entry it matches (None), the entries no heading
    matches, and per heading kind the deepest depth the contents name (:func:`heading_rank`)."""
    end = entries[-1].line.number
    unused = list(range(len(entries)))
    by_title: dict[str, list[int]] = {}
    for i, e in enumerate(entries):
        by_title.setdefault(normalise_title(e.title), []).append(i)
    titles: dict[str, str] = {}  # heading text → its normalised title (books repeat headings: "Example", "Setup")
    seen: list[tuple[Line, int | None]] = []
    named: dict[str, int] = {}
    for h in (h for h in rb.headings() if h.number > end):
        title = titles.get(h.body)
        if title is None:
            title = titles[h.body] = normalise_title(h.body)
        hits = by_title.get(title)
        hit = hits.pop(0) if hits else None
        if hit is not None:
            unused.remove(hit)
            kind, depth = heading_rank(h.raw, h.body, rb.markdown)
            named[kind] = max(named.get(kind, 0), depth)
        seen.append((h, hit))
    return seen, unused, named


def _children(entries: list[TocEntry], parent: int) -> int:
    """How many entries follow ``parent`` nested below it."""
    n = 0
    for e in entries[parent + 1:]:
        if e.level <= entries[parent].level:
            break
        n += 1
    return n


def _sections(heads: list[Line]) -> str:
    """Headings for a message, "Title (line N)", the list capped (the rest counted)."""
    return capped([f"{h.body.strip()} (line {h.number})" for h in heads])


def _mappings(p: Paragraph) -> list[tuple[str, int, int]]:
    """Letter → number statements in a paragraph: ``(letters, number, offset)``."""
    out = []
    for rx in (_EQUALS, _QUOTED_EQUALS):
        out += [(m.group("l"), int(m.group("n")), m.start()) for m in rx.finditer(p.text)]
    for m in _REPRESENTED.finditer(p.text):
        ns, ls = re.findall(r"\d+", m.group("ns")), re.findall(r"\b[a-z]\b", m.group("ls"))
        if len(ns) == len(ls):
            out += [(letter, int(n), m.start()) for letter, n in zip(ls, ns)]
    return sorted(out, key=lambda t: t[2])


def _ueb_reading(letters: str) -> str | None:
    return "".join(_UEB_DIGITS[c] for c in letters) if all(c in _UEB_DIGITS for c in letters) else None


def _private(rb: Rulebook, deck: Deck) -> Iterator[tuple[Paragraph, list[tuple[str, int, int]], list[tuple[str, int, int]], object]]:
    """Per paragraph: (paragraph, all mappings, non-UEB mappings, die of the section or None)."""
    for p in paragraphs_with(rb, "=", "equals", "represented"):
        if "=" not in p.text and "equals" not in p.text and "represented" not in p.text:
            continue  # no letter → number statement can be here
        maps = _mappings(p)
        if not maps:
            continue
        head = rb.heading_before(p.first.number)
        die = None
        hm = _DIE_HEADING.search(head.body) if head is not None else None
        if hm:
            faces = int(hm.group("f")) if hm.group("f") else max((n for _, n, _ in maps), default=0)
            die = next((d for d in deck.game.dice if d.faces == faces), None) or (deck.game.dice[0] if len(deck.game.dice) == 1 else None)
        odd = [(l, n, o) for l, n, o in maps if _ueb_reading(l) != str(n)]
        yield p, maps, odd, die if hm else None


@rule("RB012", "braille-private-code", Severity.info)
def braille_private_code(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook states a braille number convention that is not UEB: a private code readers must be told.

    After the numeric indicator UEB reads a–j as 1–9, 0 (UEB Rulebook §6.1), so "j equals 10"
    means 0 to a UEB reader and "k", "l" are no digits at all. Legitimate when the game says
    so (the data's single-letter power style, a die key), but the key must ship with the game.

    Fails: "The braille letter “j” equals “10,” “k” equals “11”".
    Passes: "Power levels follow UEB numbering (a=1, b=2 … aj=10)".
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    scheme = deck.game.power
    top = (scheme.numbers or {}).get("max")
    for p, _, odd, die in _private(rb, deck):
        if not odd:
            continue
        shown = ", ".join(f"{l}={n}" for l, n, _ in odd)
        readings = ", ".join(f"{l} as {_ueb_reading(l) or 'a letter'}" for l, _, _ in odd)
        what = f"the {die.name} faces" if die is not None else "power values"
        text = f"the rulebook writes {what} as {shown}, which is not UEB (after the numeric indicator UEB reads {readings}): a private code"
        if die is None and top is not None:
            beyond = sorted({n for _, n, _ in odd if n > top})
            if beyond:
                text += f"; {', '.join(map(str, beyond))} is above the highest power {top}"
        where = die.where("encoding") if die is not None else scheme.where("number_style")
        hint = "ship the braille key with the game (a die key in game.yaml, the power key on the rules card)"
        yield Problem(text, at(rb, p.line_at(odd[0][2]), p.column_at(odd[0][2])), hint, (where,))


@rule("RB013", "braille-convention-contradicts-data", Severity.warning)
def braille_convention_contradicts_data(deck: Deck, ctx) -> Iterator[Problem]:
    """The rulebook's braille number convention contradicts how the data encodes power or a die.

    Fails: the rulebook says "j equals 10" (one cell) while ``power.number_style: ueb``
    encodes 10 as ⠼⠁⠚; or it says "aj=10" while the style is ``single-letter``.
    Passes: the rulebook's convention and ``number_style`` (or the die's ``encoding``) agree.
    """
    rb = rulebook_of(ctx)
    if rb is None:
        return
    scheme = deck.game.power
    for p, maps, odd, die in _private(rb, deck):
        if die is not None:
            if odd and die.encoding == "ueb-numbers":
                l, n, o = odd[0]
                yield Problem(
                    f"the rulebook writes the {die.name} face {n} as '{l}' but the data encodes the die in UEB numbers",
                    at(rb, p.line_at(o), p.column_at(o)),
                    "set encoding: letters for the die, or correct the rulebook",
                    (die.where("encoding"),),
                )
            continue
        long = [(l, n, o) for l, n, o in maps if n >= 10 and scheme.numbers and scheme.numbers["min"] <= n <= scheme.numbers["max"]]
        for l, n, o in long:
            single = len(l) == 1
            if single and scheme.number_style == "ueb" or not single and scheme.number_style == "single-letter":
                yield Problem(
                    f"the rulebook writes power {n} as '{l}' but the data's number_style '{scheme.number_style}' writes it otherwise",
                    at(rb, p.line_at(o), p.column_at(o)),
                    "make power.number_style in game.yaml match the rulebook's convention (or correct the rulebook)",
                    (scheme.where("number_style"),),
                )
                break

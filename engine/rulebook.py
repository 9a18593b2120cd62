"""A rulebook as text with its structure: lines, headings, paragraphs, lists and a table of contents.

``Rulebook.read(path)`` takes plain text or Markdown (any game) and keeps every line number,
so a finding can point at ``rulebook.md:12:5``; :mod:`engine.checks.claims` reads claims from it.

- a *bullet* is a line starting with ``-``, ``*``, ``+``, ``•``, ``–``, ``—`` or ``1.`` / ``1)``;
- a *heading* is a Markdown ``#`` line (or a line in bold only), a numbered title standing
  alone ("1. Components"), or a short line (≤ 8 words, ≤ 70 characters) that does not end
  like a sentence and is all capitals, or ends with ":" (not a sentence introducing a list),
  or has a blank line before or after it (before *and* after in hard-wrapped Markdown);
- a *paragraph* is a run of lines joined where a line does not end a sentence, never
  across blank lines, bullets or headings;
- a *table of contents*: see :meth:`Rulebook.toc` (flat or nested, page numbers allowed).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from engine.gcpause import collector_paused
from engine.numberwords import NUMBER, to_int  # noqa: F401  (the claims read numbers through the reader)
from engine.rulebook_lines import LINK, MAX_RULEBOOK_BYTES, MD_HEADING, RulebookError, decode_rulebook, ends_sentence, marked, plain_heading  # noqa: F401


_TOC = re.compile(r"^(?:table of contents|contents|toc)\s*:?$", re.I)
#: Between two sentences: an end mark (and closing quotes), space, and a capital or opening quote.
SENTENCE_BREAK = re.compile(r"[.!?]['\"”’)]*\s+(?=[A-Z“\"‘(])")
#: A section number before a title: "1.", "2)", "3.1", "Chapter 4:", "Section 2 -".
_SECTION_NUMBER = re.compile(r"^\s*(?:(?:chapter|section|part)\s+\d{1,2}[.):]?|\d{1,2}(?:\.\d{1,2})*[.)]|\d{1,2}(?:\.\d{1,2})+)(?:\s*[-–—:])?\s+(?=\S)", re.I)
#: A contents line's page number, after dot leaders or two spaces: "Setup ........ 4", "Setup    4"
#: (one space is part of the title: "Section 1").
_PAGE_NUMBER = re.compile(r"(?:\s*(?:[.·…_]\s*){2,}|\s{2,})\d{1,4}\s*$")
_LEADERS = re.compile(r"(?:[.·…_]\s*){2,}\d{1,4}\s*$")
#: A page number after one space ("Setup 4"), read as one only when most entries end in a number.
_LOOSE_PAGE = re.compile(r"\s+\d{1,4}\s*$")

class _once:
    """A property worked out on first use and then kept in the instance (``functools.cached_property``
    takes a lock on every first use in Python 3.11, which costs more than the value for a line)."""

    def __init__(self, compute) -> None:
        self.compute, self.name, self.__doc__ = compute, compute.__name__, compute.__doc__

    def __get__(self, obj, owner=None):
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.compute(obj)  # read from the instance from now on
        return value




class _LineFields(NamedTuple):
    number: int
    raw: str
    body: str
    start: int
    indent: int | None
    heading: bool
    blank: bool


class Line(_LineFields):
    """One line of the rulebook.

    ``number`` is 1-based; ``raw`` the line as written; ``body`` the text with Markdown
    markers (``#``, emphasis, link targets) and the bullet marker removed; ``start`` the
    column (0-based) in ``raw`` where ``body`` starts; ``indent`` the bullet's indentation
    in spaces (None when the line is not a bullet); ``heading`` True for a heading line;
    ``blank`` True for an empty (or whitespace-only) body, worked out when not given.

    An immutable, hashable tuple (equal lines are equal by their fields): a 5 MB rulebook
    makes some 100,000 lines, and a tuple is built 4-5 times faster than a frozen dataclass,
    whose ``__init__`` sets each field through ``object.__setattr__`` (docs/speed.md).
    """

    __slots__ = ()

    def __new__(cls, number: int, raw: str, body: str, start: int, indent: int | None, heading: bool, blank: bool | None = None) -> Line:
        return tuple.__new__(cls, (number, raw, body, start, indent, heading, not body.strip() if blank is None else blank))

    def __repr__(self) -> str:
        return f"Line(number={self.number!r}, raw={self.raw!r}, body={self.body!r}, start={self.start!r}, indent={self.indent!r}, heading={self.heading!r})"

    @property
    def bullet(self) -> bool:
        """True for a list item."""
        return self.indent is not None


@dataclass(frozen=True)
class Paragraph:
    """Consecutive lines read as one text: ``text`` with ``spans`` ``(offset, line)`` per line."""

    text: str
    spans: tuple[tuple[int, Line], ...]

    def line_at(self, offset: int) -> Line:
        """The line holding character ``offset`` of ``text`` (the first line for an offset before it)."""
        spans = self.spans
        if len(spans) == 1:  # the most paragraphs
            return spans[0][1]
        return spans[max(bisect_right(self.offsets, offset) - 1, 0)][1]

    def column_at(self, offset: int) -> int:
        """The 1-based column in the raw line of character ``offset`` of ``text`` (1 before the text)."""
        spans = self.spans
        k = 0 if len(spans) == 1 else bisect_right(self.offsets, offset) - 1
        if k < 0 or offset < spans[k][0]:
            return 1
        start, line = spans[k]
        return line.start + (offset - start) + 1

    @_once
    def offsets(self) -> tuple[int, ...]:
        """Where each line starts in ``text`` (the spans' offsets, ascending)."""
        return tuple(start for start, _ in self.spans)

    @property
    def first(self) -> Line:
        """The paragraph's first line."""
        return self.spans[0][1]

    @_once
    def lowered(self) -> str:
        """``text`` lower-cased (once: many checks test it for their words)."""
        return self.text.lower()

    @_once
    def scans(self) -> dict[tuple[str, ...], list[tuple[int, int]]]:
        """Sentence windows found in ``text`` per anchor words (see :func:`engine.checks.textscan.windows`)."""
        return {}

    @_once
    def breaks(self) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Where ``text``'s sentences break (found once): the offsets of each break's end mark,
        and of the next sentence's start."""
        core = self.text.rstrip().rstrip(".!?'\"”’)")  # a break's mark has a space and more text after it
        if "." not in core and "!" not in core and "?" not in core:  # most one-sentence paragraphs
            return _NO_BREAKS
        found = [m.span() for m in SENTENCE_BREAK.finditer(self.text)]
        return tuple(zip(*found)) if found else _NO_BREAKS  # type: ignore[return-value]


_NO_BREAKS: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())


@dataclass(frozen=True)
class TocEntry:
    """One entry of a table of contents: its line, nesting level (0 = top) and title."""

    line: Line
    level: int
    title: str


def strip_page_number(text: str) -> str:
    """A contents line without its dot leaders and page number: ``"Setup ...... 4"`` → ``"Setup"``."""
    return _PAGE_NUMBER.sub("", text).strip()


def normalise_title(text: str) -> str:
    """A heading or ToC title for comparison: section number ("1.", "Chapter 2:") dropped,
    case-folded, quotes unified, punctuation and spaces squeezed."""
    text = _SECTION_NUMBER.sub("", text, count=1) or text
    text = text.replace("’", "'").replace("‘", "'").replace("&", " and ").casefold()
    text = re.sub(r"[^\w']+", " ", text)
    return " ".join(text.split())


class Rulebook:
    """A parsed rulebook. Build with :meth:`read` (a file) or :meth:`from_text`.

    ``path`` is the file name as findings show it; ``lines`` every line in order
    (``lines[0].number == 1``); ``markdown`` True for ``.md``/``.markdown`` files or
    text using ``#`` headings.
    """

    def __init__(self, text: str, path: str = "<rulebook>", markdown: bool | None = None) -> None:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ").replace("\t", "    ")
        raw_lines = text.split("\n")
        if markdown is None:  # a "#" heading has its "#" after at most three spaces
            markdown = path.lower().endswith((".md", ".markdown")) or any("#" in r[:4] and MD_HEADING.match(r) for r in raw_lines)
        self.path = path
        self.markdown = markdown
        with collector_paused():  # some 100,000 long-lived lines (engine.gcpause)
            self.lines: tuple[Line, ...] = tuple(self._parse(raw_lines))
        self._paragraphs: tuple[Paragraph, ...] | None = None
        self._nearest_heading: list[Line | None] | None = None
        self._toc: list[TocEntry] | None = None
        self._memo: dict[str, object] = {}

    @classmethod
    def read(cls, path: str | Path) -> Rulebook:
        """Read a rulebook file (UTF-16 when it starts with its byte order mark, else UTF-8,
        else Windows-1252, else Latin-1).

        Raises OSError when the file cannot be read and :class:`RulebookError` (an
        OSError) when it is binary, empty or larger than :data:`MAX_RULEBOOK_BYTES`.
        """
        from engine.load import display_path

        return cls(cls.read_text(path), display_path(Path(path)))

    @staticmethod
    def read_text(path: str | Path) -> str:
        """The text of a rulebook file, decoded as :meth:`read` does, not parsed; raises as :meth:`read`."""
        path = Path(path)
        return decode_rulebook(path.read_bytes(), path)

    @classmethod
    def from_text(cls, text: str, path: str = "<rulebook>") -> Rulebook:
        """A rulebook from a string (tests, other front ends)."""
        return cls(text, path)

    # -- structure ---------------------------------------------------------------------------

    def _parse(self, raw_lines: list[str]) -> list[Line]:
        """The lines: markers read (:func:`~engine.rulebook_lines.marked`), then the plain headings found (:func:`~engine.rulebook_lines.plain_heading`:
        it looks at the blank lines around), each line made once."""
        md = self.markdown
        rows = [marked(raw, md) for raw in raw_lines]
        blank = [not row[1] for row in rows]  # bodies are right-stripped: empty when whitespace only
        last = len(rows) - 1
        out: list[Line] = []
        for i, (raw, body, start, indent, heading) in enumerate(rows):
            # a heading, a blank line and a long prose line (the most) stay as they are
            if not heading and not blank[i] and (indent is not None or len(body) <= 70):
                found = plain_heading(raw, body, start, indent, i == 0 or blank[i - 1], i >= last or blank[i + 1], md)
                if found is not None:
                    body, start, indent, heading = found
            out.append(Line(i + 1, raw, body, start, indent, heading, blank[i]))
        return out

    def memo(self, key: str, compute):
        """``compute()`` once per rulebook and ``key`` (claims read by several checks are read once)."""
        if key not in self._memo:
            self._memo[key] = compute()
        return self._memo[key]

    def line(self, number: int) -> Line:
        """The line with this 1-based number (IndexError outside the file)."""
        return self.lines[number - 1]

    def headings(self) -> list[Line]:
        """Every heading line, in order."""
        return [ln for ln in self.lines if ln.heading]

    def heading_before(self, number: int) -> Line | None:
        """The nearest heading at or above line ``number``, or None (a table built once: O(1) per call)."""
        if self._nearest_heading is None:
            table: list[Line | None] = []
            last: Line | None = None
            for ln in self.lines:
                last = ln if ln.heading else last
                table.append(last)
            self._nearest_heading = table
        return self._nearest_heading[number - 1] if number >= 1 else None

    def paragraphs(self) -> tuple[Paragraph, ...]:
        """Paragraphs in order (cached): each heading and each bullet starts a new one."""
        if self._paragraphs is None:
            with collector_paused():  # a paragraph and a span a line, all long-lived (engine.gcpause)
                self._paragraphs = tuple(self._build_paragraphs())
        return self._paragraphs

    def _build_paragraphs(self) -> list[Paragraph]:
        out: list[Paragraph] = []
        bodies: list[str] = []
        spans: list[tuple[int, Line]] = []
        at, prev = 0, None  # where the next line starts in the text; the paragraph's last line
        for ln in self.lines:
            if prev is not None and (ln.blank or ln.bullet or ln.heading or prev.heading or ends_sentence(prev.body)):
                out.append(Paragraph(" ".join(bodies), tuple(spans)))
                bodies, spans, at, prev = [], [], 0, None
            if ln.blank:
                continue
            spans.append((at, ln))
            bodies.append(ln.body)
            at += len(ln.body) + 1
            prev = ln
        if spans:
            out.append(Paragraph(" ".join(bodies), tuple(spans)))
        return out

    def toc(self) -> list[TocEntry]:
        """The table of contents as entries (empty when the rulebook has none; cached).

        A "Table of Contents" line (repeated lines are one header) followed by its items:
        bullets, numbered lines, lines ending in a page number ("Setup ...... 4"), or a run
        (two or more, up to a blank line) of plain short title lines ("Overview", "Setup").
        For a bare "Contents" line the items must be Markdown links, carry page numbers or
        mostly be headings of the book, because a plain "Contents:" list is usually the box's
        component list. Titles lose their dot leaders and page numbers; a number after one
        space ("Overview 2") is a page number only when most items end in one and the titles
        without it stay distinct ("Round 1", "Round 2" keep theirs). The level comes from
        indentation, or from the section number's depth ("2.1 Deal" is under "2 Setup").
        """
        if self._toc is None:
            self._toc = self._find_toc()
        return self._toc

    def _find_toc(self) -> list[TocEntry]:
        for i, ln in enumerate(self.lines):
            title = ln.body.strip()
            if not _TOC.match(title):
                continue
            explicit = "table" in title.lower() or title.lower().startswith("toc")
            items = self._toc_items(i)
            plain = not any(it.bullet or _LEADERS.search(it.body) for it in items)
            if not items or (plain and (len(items) < 2 or not self._name_sections(items, i, 1))):
                continue  # plain lines are a contents list when two or more and one names a section
            paged = sum(1 for it in items if _PAGE_NUMBER.search(it.body)) * 2 >= len(items)
            loose = not paged and _loose_pages(items)
            if not explicit and not paged and not all(LINK.search(it.raw) for it in items) and not self._name_sections(items, i):
                continue
            return _toc_entries(items, paged, loose)
        return []

    def _name_sections(self, items: list[Line], i: int, least: int = 2) -> bool:
        """True when most items (``least`` or more, at least half; only ``least`` when it is 1) are
        headings after the items (the header on line ``i + 1``): a plain "Contents" list of sections, not the box's
        components ("24 cards", "1 D4")."""
        titles = {normalise_title(ln.body) for ln in self.lines[items[-1].number:] if ln.heading}
        named = sum(1 for it in items if normalise_title(strip_page_number(_LOOSE_PAGE.sub("", it.body))) in titles or normalise_title(it.body) in titles)
        return named >= least and (least == 1 or named * 2 >= len(items))

    def _toc_items(self, i: int) -> list[Line]:
        """The contents lines after the header on line ``i + 1``: bullets (a list may have blank
        lines), lines with dot leaders, or a run of plain short title lines up to a blank line."""
        items: list[Line] = []
        for nxt in self.lines[i + 1:]:
            if nxt.blank or (not items and _TOC.match(nxt.body.strip())):
                if nxt.blank and items and not items[-1].bullet:
                    break  # a run of page-numbered or plain lines ends at a blank line
                continue
            if not nxt.bullet and not _LEADERS.search(nxt.body) and not _plain_entry(nxt, items):
                break
            items.append(nxt)
        return items

    def __repr__(self) -> str:
        return f"Rulebook({self.path!r}, {len(self.lines)} lines)"


def _loose_pages(items: list[Line]) -> bool:
    """True when most items end in a number after one space ("Setup 4") and the titles without
    it stay distinct: page numbers, not part of the titles ("Part 1", "Part 2")."""
    ended = [it for it in items if _LOOSE_PAGE.search(it.body)]
    stripped = [normalise_title(_LOOSE_PAGE.sub("", it.body)) for it in ended]
    return len(ended) * 2 > len(items) and len(set(stripped)) == len(stripped)


def _plain_entry(line: Line, items: list[Line]) -> bool:
    """True for a line without a bullet or leaders that reads as a contents entry: a short
    title (≤ 8 words, ≤ 70 characters, no sentence end) in a run of such lines."""
    text = line.body.strip()
    return (not items or not items[-1].bullet) and (text[:1].isupper() or text[:1].isdigit()) and len(text) <= 70 and len(text.split()) <= 8 and not text.endswith((".", "!", "?", ",", ";", ":"))


def _toc_entries(items: list[Line], paged: bool, loose: bool = False) -> list[TocEntry]:
    """Entries of contents lines: titles without page numbers (after one space too when ``loose``),
    levels from indentation or numbering."""
    indents = [len(it.raw) - len(it.raw.lstrip()) for it in items]
    base = min(indents)
    steps = sorted({d - base for d in indents if d > base})
    unit = steps[0] if steps else 2
    out = []
    for it, indent in zip(items, indents):
        title = strip_page_number(it.body) if paged or _LEADERS.search(it.body) else it.body.strip()
        title = _LOOSE_PAGE.sub("", title).strip() or title if loose else title
        depth = re.match(r"^\s*\d{1,2}((?:\.\d{1,2})+)\s", it.body)
        level = depth.group(1).count(".") if depth and indent == base else (indent - base) // unit
        out.append(TocEntry(it, level, title))
    return out

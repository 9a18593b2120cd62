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
from dataclasses import dataclass, field
from pathlib import Path

from engine.numberwords import NUMBER, to_int  # noqa: F401  (the claims read numbers through the reader)

#: Refuse files larger than this (bytes): a rulebook is text, not an archive.
MAX_RULEBOOK_BYTES = 5_000_000

_BULLET = re.compile(r"^(\s*)(?:[-*+•–—▪◦·]|\(?\d{1,2}[.)])\s+")
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s*(\*\*|__)(.+?)\1:?\s*$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`")
_SENTENCE_END = re.compile(r"[.!?;,]['\"”’)\]]*$")
_TOC = re.compile(r"^(?:table of contents|contents|toc)\s*:?$", re.I)
_ENDS_SENTENCE = re.compile(r"[.!?:]['\"”’)\]]*\s*$")  # a line a paragraph does not run on after
_STARTS_NUMBERED = re.compile(r"^\s*\(?\d")
#: Between two sentences: an end mark (and closing quotes), space, and a capital or opening quote.
SENTENCE_BREAK = re.compile(r"[.!?]['\"”’)]*\s+(?=[A-Z“\"‘(])")
#: A section number before a title: "1.", "2)", "3.1", "Chapter 4:", "Section 2 -".
_SECTION_NUMBER = re.compile(r"^\s*(?:(?:chapter|section|part)\s+\d{1,2}[.):]?|\d{1,2}(?:\.\d{1,2})*[.)]|\d{1,2}(?:\.\d{1,2})+)(?:\s*[-–—:])?\s+(?=\S)", re.I)
#: A contents line's page number, after dot leaders or two spaces: "Setup ........ 4", "Setup    4"
#: (one space is part of the title: "Section 1").
_PAGE_NUMBER = re.compile(r"(?:\s*(?:[.·…_]\s*){2,}|\s{2,})\d{1,4}\s*$")
_LEADERS = re.compile(r"(?:[.·…_]\s*){2,}\d{1,4}\s*$")

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


class RulebookError(OSError):
    """A rulebook file that cannot be used as text (binary, or larger than MAX_RULEBOOK_BYTES)."""


@dataclass(frozen=True)
class Line:
    """One line of the rulebook.

    ``number`` is 1-based; ``raw`` the line as written; ``body`` the text with Markdown
    markers (``#``, emphasis, link targets) and the bullet marker removed; ``start`` the
    column (0-based) in ``raw`` where ``body`` starts; ``indent`` the bullet's indentation
    in spaces (None when the line is not a bullet); ``heading`` True for a heading line.
    """

    number: int
    raw: str
    body: str
    start: int
    indent: int | None
    heading: bool
    #: True for an empty (or whitespace-only) line; set once when the line is made (every loop asks).
    blank: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "blank", not self.body.strip())

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
        """The line holding character ``offset`` of ``text``."""
        found = self.spans[0][1]
        for start, line in self.spans:
            if start > offset:
                break
            found = line
        return found

    def column_at(self, offset: int) -> int:
        """The 1-based column in the raw line of character ``offset`` of ``text``."""
        for start, line in reversed(self.spans):
            if start <= offset:
                return line.start + (offset - start) + 1
        return 1

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
        found = [(m.start(), m.end()) for m in SENTENCE_BREAK.finditer(self.text)]
        return tuple(a for a, _ in found), tuple(b for _, b in found)


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


def _numbered_title(line: Line) -> bool:
    """True for a numbered line that reads as a section title: "1. Components", "2) Set Up"."""
    text = line.body.strip()
    return (
        bool(_STARTS_NUMBERED.match(line.raw))
        and 0 < len(text) <= 60
        and len(text.split()) <= 6
        and not _SENTENCE_END.search(text)
        and text[:1].isupper()
    )


def _list_intro(text: str) -> bool:
    """True for a line ending in ":" that is a sentence introducing a list, not a title:
    it has a comma, or more than three words of which some (beyond short ones) are lower case."""
    words = text.rstrip(":").split()
    lower = [w for w in words if len(w) > 3 and w[:1].islower()]
    return "," in text or (len(words) > 3 and bool(lower))


class Rulebook:
    """A parsed rulebook. Build with :meth:`read` (a file) or :meth:`from_text`.

    ``path`` is the file name as findings show it; ``lines`` every line in order
    (``lines[0].number == 1``); ``markdown`` True for ``.md``/``.markdown`` files or
    text using ``#`` headings.
    """

    def __init__(self, text: str, path: str = "<rulebook>", markdown: bool | None = None) -> None:
        text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ").replace("\t", "    ")
        raw_lines = text.split("\n")
        if markdown is None:
            markdown = path.lower().endswith((".md", ".markdown")) or any(_MD_HEADING.match(r) for r in raw_lines)
        self.path = path
        self.markdown = markdown
        self.lines: tuple[Line, ...] = tuple(self._parse(raw_lines))
        self._paragraphs: tuple[Paragraph, ...] | None = None
        self._nearest_heading: list[Line | None] | None = None
        self._toc: list[TocEntry] | None = None
        self._memo: dict[str, object] = {}

    @classmethod
    def read(cls, path: str | Path) -> Rulebook:
        """Read a rulebook file (UTF-8, else Windows-1252, else Latin-1).

        Raises OSError when the file cannot be read and :class:`RulebookError` (an
        OSError) when it is binary or larger than :data:`MAX_RULEBOOK_BYTES`.
        """
        from engine.load import display_path

        return cls(cls.read_text(path), display_path(Path(path)))

    @staticmethod
    def read_text(path: str | Path) -> str:
        """The text of a rulebook file, decoded as :meth:`read` does, not parsed; raises as :meth:`read`."""
        path = Path(path)
        data = path.read_bytes()
        if len(data) > MAX_RULEBOOK_BYTES:
            raise RulebookError(f"{path} is larger than {MAX_RULEBOOK_BYTES} bytes; a rulebook is a text file")
        if b"\x00" in data[:4096]:
            raise RulebookError(f"{path} is not a text file (give the rulebook as plain text or Markdown)")
        for encoding in ("utf-8-sig", "cp1252", "latin-1"):
            try:
                text = data.decode(encoding)
                break
            except UnicodeDecodeError:
                continue
        return text

    @classmethod
    def from_text(cls, text: str, path: str = "<rulebook>") -> Rulebook:
        """A rulebook from a string (tests, other front ends)."""
        return cls(text, path)

    # -- structure ---------------------------------------------------------------------------

    def _parse(self, raw_lines: list[str]) -> list[Line]:
        out: list[Line] = []
        for i, raw in enumerate(raw_lines):
            body, start, indent, md_heading = raw, 0, None, False
            m = _MD_HEADING.match(raw) if self.markdown else None
            if m:
                body, start, md_heading = m.group(2), m.start(2), True
            elif self.markdown and _BOLD_LINE.match(raw):
                b = _BOLD_LINE.match(raw)
                body, start, md_heading = b.group(2), b.start(2), True
            else:
                bm = _BULLET.match(raw)
                if bm:
                    indent, start, body = len(bm.group(1)), bm.end(), raw[bm.end():]
            if self.markdown and ("](" in body or "*" in body or "_" in body or "`" in body):
                body = _EMPHASIS.sub("", _LINK.sub(r"\1", body))  # markers only where there are some
            out.append(Line(i + 1, raw, body.rstrip(), start, indent, md_heading))
        return [self._plain_heading(out, i, self.markdown) for i in range(len(out))]

    @staticmethod
    def _plain_heading(lines: list[Line], i: int, markdown: bool) -> Line:
        line = lines[i]
        text = line.body.strip()
        before = i == 0 or lines[i - 1].blank
        after = i + 1 >= len(lines) or lines[i + 1].blank
        if line.bullet and before and after and _numbered_title(line):
            # "1. Components" standing alone is a numbered heading, not a one-item list
            return Line(line.number, line.raw, line.raw.strip(), len(line.raw) - len(line.raw.lstrip()), None, True)
        if line.heading or line.bullet or not text or len(text) > 70 or len(text.split()) > 8:
            return line
        if _SENTENCE_END.search(text) and not text.isupper():
            return line
        letters = [c for c in text if c.isalpha()]
        caps = len(letters) >= 3 and all(c.isupper() for c in letters)
        label, _, rest = text.partition(":")
        if rest.strip() and not caps and not all(w[:1].isupper() or not w[:1].isalpha() for w in rest.split()):
            return line  # "Passive Power Crystals: Apply globally …" is a label and its text
        if text.endswith(":") and not caps and _list_intro(text):
            return line  # "The front of a card, from the top:" introduces a list
        alone = (before and after) if markdown else (before or after)  # Markdown prose is hard-wrapped
        if caps or text.endswith(":") or alone:
            return Line(line.number, line.raw, line.body, line.start, None, True)
        return line

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
            self._paragraphs = tuple(self._build_paragraphs())
        return self._paragraphs

    def _build_paragraphs(self) -> list[Paragraph]:
        out: list[Paragraph] = []
        text, spans = "", []
        for ln in self.lines:
            joins = spans and not ln.blank and not ln.bullet and not ln.heading and not spans[-1][1].heading
            joins = joins and not _ENDS_SENTENCE.search(spans[-1][1].body)
            if spans and not joins:
                out.append(Paragraph(text, tuple(spans)))
                text, spans = "", []
            if ln.blank:
                continue
            if spans:
                text += " "
            spans.append((len(text), ln))
            text += ln.body
        if spans:
            out.append(Paragraph(text, tuple(spans)))
        return out

    def toc(self) -> list[TocEntry]:
        """The table of contents as entries (empty when the rulebook has none; cached).

        A "Table of Contents" line (repeated lines are one header) followed by its items:
        bullets, numbered lines, or lines ending in a page number ("Setup ...... 4"). For a
        bare "Contents" line the items must be Markdown links, carry page numbers or mostly
        be headings of the book, because a plain "Contents:" list is usually the box's
        component list. Titles lose
        their dot leaders and page numbers; the level comes from indentation, or from the
        section number's depth ("2.1 Deal" is under "2 Setup").
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
            if not items:
                continue
            paged = sum(1 for it in items if _PAGE_NUMBER.search(it.body)) * 2 >= len(items)
            if not explicit and not paged and not all(_LINK.search(it.raw) for it in items) and not self._name_sections(items, i):
                continue
            return _toc_entries(items, paged)
        return []

    def _name_sections(self, items: list[Line], i: int) -> bool:
        """True when most items (two or more, at least half) are headings after line ``i + 1``:
        a plain "Contents" list of sections, not the box's components ("24 cards", "1 D4")."""
        titles = {normalise_title(ln.body) for ln in self.lines[i + 1:] if ln.heading}
        named = sum(1 for it in items if normalise_title(it.body) in titles)
        return named >= 2 and named * 2 >= len(items)

    def _toc_items(self, i: int) -> list[Line]:
        items: list[Line] = []
        for nxt in self.lines[i + 1:]:
            if nxt.blank or (not items and _TOC.match(nxt.body.strip())):
                if nxt.blank and items and not items[-1].bullet:
                    break  # a run of page-numbered lines ends at a blank line
                continue
            if not nxt.bullet and not _LEADERS.search(nxt.body):
                break
            items.append(nxt)
        return items

    def __repr__(self) -> str:
        return f"Rulebook({self.path!r}, {len(self.lines)} lines)"


def _toc_entries(items: list[Line], paged: bool) -> list[TocEntry]:
    """Entries of contents lines: titles without page numbers, levels from indentation or numbering."""
    indents = [len(it.raw) - len(it.raw.lstrip()) for it in items]
    base = min(indents)
    steps = sorted({d - base for d in indents if d > base})
    unit = steps[0] if steps else 2
    out = []
    for it, indent in zip(items, indents):
        title = strip_page_number(it.body) if paged or _LEADERS.search(it.body) else it.body.strip()
        depth = re.match(r"^\s*\d{1,2}((?:\.\d{1,2})+)\s", it.body)
        level = depth.group(1).count(".") if depth and indent == base else (indent - base) // unit
        out.append(TocEntry(it, level, title))
    return out

"""A rulebook as text with its structure: lines, headings, paragraphs, lists and a table of contents.

``Rulebook.read(path)`` takes plain text or Markdown (any game, not only the seeds) and
keeps every line number, so a rules-text finding can point at ``rulebook.md:12:5``.
The claims a rulebook makes (counts, dice, keywords, power ranges) are extracted from
this structure by :mod:`engine.checks.claims`.

Structure, deliberately simple and explainable:

- a *bullet* is a line starting with ``-``, ``*``, ``+``, ``•``, ``–``, ``—`` or ``1.`` / ``1)``;
- a *heading* is a Markdown ``#`` line (or a line in bold only), or a short line
  (≤ 8 words, ≤ 70 characters) that does not end like a sentence and is all capitals,
  or ends with ":", or has a blank line before or after it (before *and* after in
  Markdown, whose prose is hard-wrapped);
- a *paragraph* is a run of lines joined where a line does not end a sentence
  (Markdown's hard-wrapped prose), never across blank lines, bullets or headings;
- a *table of contents* is the bullet list after a "Table of Contents" line (or after a
  "Contents" heading whose items are Markdown links); nesting comes from indentation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

#: Refuse files larger than this (bytes): a rulebook is text, not an archive.
MAX_RULEBOOK_BYTES = 5_000_000

_BULLET = re.compile(r"^(\s*)(?:[-*+•–—▪◦·]|\(?\d{1,2}[.)])\s+")
_MD_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
_BOLD_LINE = re.compile(r"^\s*(\*\*|__)(.+?)\1:?\s*$")
_LINK = re.compile(r"\[([^\]]+)\]\([^)]*\)")
_EMPHASIS = re.compile(r"\*\*|__|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)|`")
_SENTENCE_END = re.compile(r"[.!?;,]['\"”’)\]]*$")
_TOC = re.compile(r"^(?:table of contents|contents|toc)\s*:?$", re.I)

_NUMBER_WORDS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
    "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18,
    "nineteen": 19, "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60,
}
#: A number written with digits or as an English word (one … twenty, thirty … sixty).
NUMBER = r"(?:\d+|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"


def to_int(token: str) -> int | None:
    """``"12"`` → 12, ``"twelve"`` → 12, ``"2x"`` → 2; None when the token is not a number."""
    token = token.strip().lower().rstrip("x")
    if token.isdigit():
        return int(token)
    return _NUMBER_WORDS.get(token)


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

    @property
    def bullet(self) -> bool:
        """True for a list item."""
        return self.indent is not None

    @property
    def blank(self) -> bool:
        """True for an empty (or whitespace-only) line."""
        return not self.body.strip()


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


@dataclass(frozen=True)
class TocEntry:
    """One entry of a table of contents: its line, nesting level (0 = top) and title."""

    line: Line
    level: int
    title: str


def normalise_title(text: str) -> str:
    """A heading or ToC title for comparison: case-folded, quotes unified, punctuation and spaces squeezed."""
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
        if markdown is None:
            markdown = path.lower().endswith((".md", ".markdown")) or any(_MD_HEADING.match(r) for r in raw_lines)
        self.path = path
        self.markdown = markdown
        self.lines: tuple[Line, ...] = tuple(self._parse(raw_lines))
        self._paragraphs: tuple[Paragraph, ...] | None = None

    @classmethod
    def read(cls, path: str | Path) -> Rulebook:
        """Read a rulebook file (UTF-8, else Windows-1252, else Latin-1).

        Raises OSError when the file cannot be read and :class:`RulebookError` (an
        OSError) when it is binary or larger than :data:`MAX_RULEBOOK_BYTES`.
        """
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
        from engine.load import display_path

        return cls(text, display_path(path))

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
            if self.markdown:
                body = _EMPHASIS.sub("", _LINK.sub(r"\1", body))
            out.append(Line(i + 1, raw, body.rstrip(), start, indent, md_heading))
        return [self._plain_heading(out, i, self.markdown) for i in range(len(out))]

    @staticmethod
    def _plain_heading(lines: list[Line], i: int, markdown: bool) -> Line:
        line = lines[i]
        text = line.body.strip()
        if line.heading or line.bullet or not text or len(text) > 70 or len(text.split()) > 8:
            return line
        if _SENTENCE_END.search(text) and not text.isupper():
            return line
        letters = [c for c in text if c.isalpha()]
        caps = len(letters) >= 3 and all(c.isupper() for c in letters)
        label, _, rest = text.partition(":")
        if rest.strip() and not caps and not all(w[:1].isupper() or not w[:1].isalpha() for w in rest.split()):
            return line  # "Passive Power Crystals: Apply globally …" is a label and its text
        before = i == 0 or lines[i - 1].blank
        after = i + 1 >= len(lines) or lines[i + 1].blank
        alone = (before and after) if markdown else (before or after)  # Markdown prose is hard-wrapped
        if caps or text.endswith(":") or alone:
            return Line(line.number, line.raw, line.body, line.start, None, True)
        return line

    def line(self, number: int) -> Line:
        """The line with this 1-based number (IndexError outside the file)."""
        return self.lines[number - 1]

    def headings(self) -> list[Line]:
        """Every heading line, in order."""
        return [ln for ln in self.lines if ln.heading]

    def heading_before(self, number: int) -> Line | None:
        """The nearest heading at or above line ``number``, or None."""
        for ln in reversed(self.lines[:number]):
            if ln.heading:
                return ln
        return None

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
            joins = joins and not re.search(r"[.!?:]['\"”’)\]]*\s*$", spans[-1][1].body)
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
        """The table of contents as entries (empty when the rulebook has none).

        A "Table of Contents" line (repeated lines are one header) followed by bullet
        items; for a bare "Contents" line the items must be Markdown links, because a
        plain "Contents:" list is usually the box's component list.
        """
        for i, ln in enumerate(self.lines):
            title = ln.body.strip()
            if not _TOC.match(title):
                continue
            explicit = "table" in title.lower() or title.lower().startswith("toc")
            items: list[Line] = []
            for nxt in self.lines[i + 1:]:
                if nxt.blank or (not items and _TOC.match(nxt.body.strip())):
                    continue
                if not nxt.bullet:
                    break
                items.append(nxt)
            if not items:
                continue
            if not explicit and not all(_LINK.search(it.raw) for it in items):
                continue
            base = min(it.indent or 0 for it in items)
            steps = sorted({(it.indent or 0) - base for it in items if (it.indent or 0) > base})
            unit = steps[0] if steps else 2
            return [TocEntry(it, ((it.indent or 0) - base) // unit, it.body.strip()) for it in items]
        return []

    def __repr__(self) -> str:
        return f"Rulebook({self.path!r}, {len(self.lines)} lines)"

"""Braille book pages in the style of BANA "Braille Formats: Principles of Print-to-Braille Transcription" (2016).

The companion volumes (:mod:`pipeline.emboss.volumes`) are written as a list of
:class:`Item` (headings, paragraphs, list items, contents entries, page breaks) of
Unicode six-dot cells, and :func:`paginate_book` lays them out on a page format:

- **Centred heading** (Braille Formats §4.4): centred on the line with at least three blank
  cells on each side, a blank line before it (not at the top of a page), and never the
  last text line of a page: a heading moves to the next page with the line after it.
- **Paragraph** (§2.3, paragraphs "3-1"): the first line starts in cell 3, runover lines in cell 1.
- **List item** (§8, lists "1-3"): the item starts in cell 1 (cell 3, 5 … when nested), runover
  lines two cells further in.
- **Contents entry** (§2.9): the title from cell 1 with runover in cell 3, then a blank cell,
  guide dots (dot 5, ⠐) and a blank cell up to the page number at the right margin.
- **Page numbers** (§1.8): the braille page number on the last line of every page at the right
  margin, on a line of its own; preliminary pages (title, transcriber's notes, contents) are
  numbered ``p1``, ``p2`` … (⠏⠼⠁), body pages ``1``, ``2`` … (⠼⠁), so a contents page can list
  the body's pages before its own number is known.

A word longer than the room on a line is divided by :func:`pipeline.braille.divide.divide`
(liblouis hyphenation points, never at an apostrophe). Lines never end with blank cells.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Sequence

from pipeline.braille.cells import BLANK
from pipeline.braille.divide import divide
from pipeline.braille.translate import translate

Kind = Literal["heading", "paragraph", "item", "contents", "line", "blank", "page"]

#: Blank cells kept on each side of a centred heading (Braille Formats §4.4.1).
HEADING_MARGIN = 3
GUIDE_DOT = "\u2810"  # ⠐ dot 5
LETTER_P = "\u280f"  # ⠏ preliminary page prefix
#: Fewest lines a page format needs for a book page: a text line and the page-number line.
MIN_LINES = 2
#: Fewest cells per line: a centred heading's margins plus a few cells of text.
MIN_CELLS = 2 * HEADING_MARGIN + 4


class BookFormatError(ValueError):
    """The page format is too small for a braille book page (fewer than MIN_CELLS cells or MIN_LINES lines)."""


@dataclass(frozen=True)
class Item:
    """One block of a braille book: ``kind``, its ``cells`` (Unicode six-dot, blanks U+2800 between
    words), ``level`` (nesting of a list item, 0 = top), ``anchor`` (a name whose page
    :func:`paginate_book` reports, e.g. a card reference entry) and ``target`` (for a
    contents entry: the anchor whose page number it shows)."""

    kind: Kind
    cells: str = ""
    level: int = 0
    anchor: str | None = None
    target: str | None = None
    #: On a heading: keep it and the blocks after it, up to the next heading or page break, on one
    #: page when they fit on one (a card reference entry: no line of it alone on the next page).
    keep: bool = False


@dataclass
class Book:
    """Pages of rows of cells (page numbers included), and each anchor's page label ("p1", "3")."""

    pages: list[list[str]] = field(default_factory=list)
    anchors: dict[str, str] = field(default_factory=dict)


def page_number_cells(label: str) -> str:
    """The cells of a page label: ``"3"`` → ⠼⠉, ``"p2"`` → ⠏⠼⠃ (Braille Formats §1.8)."""
    if label.startswith("p"):
        return LETTER_P + translate(label[1:], 1)
    return translate(label, 1)


def wrap_cells(cells: str, width: int, first: int = 0, runover: int = 0) -> list[str]:
    """Cells word-wrapped into lines of at most ``width`` cells, the first line indented ``first``
    blank cells and the others ``runover``. Words break only at blank cells; a word longer
    than its line's room is divided with ⠤ (:func:`pipeline.braille.divide.divide`).
    Raises ValueError when an indent leaves fewer than 3 cells.
    """
    lines: list[str] = []
    current, indent = "", first
    for word in (w for w in cells.split(BLANK) if w):
        room = width - indent
        if room < 3:
            raise ValueError(f"an indent of {indent} cells leaves {room} cells of a {width}-cell line")
        if current and len(current) + 1 + len(word) <= room:
            current += BLANK + word
            continue
        if current:
            lines.append(BLANK * indent + current)
            indent = runover
            room = width - indent
        if len(word) <= room:
            current = word
            continue
        pieces = divide(word, room)
        for piece in pieces[:-1]:
            lines.append(BLANK * indent + piece)
            indent = runover
        current = pieces[-1]
    if current:
        lines.append(BLANK * indent + current)
    return lines


def _heading_lines(cells: str, width: int) -> list[str]:
    lines = wrap_cells(cells, width - 2 * HEADING_MARGIN)
    return [BLANK * ((width - len(line)) // 2) + line for line in lines]


def _contents_lines(cells: str, number: str, width: int) -> list[str]:
    """A contents entry: title lines (runover in cell 3), guide dots to the page number at the right margin."""
    lines = wrap_cells(cells, width - len(number) - 3, 0, 2) or [""]
    last = lines[-1]
    dots = width - len(last) - len(number) - 2
    if dots >= 1:
        lines[-1] = last + BLANK + GUIDE_DOT * dots + BLANK + number
    else:
        lines.append(BLANK * (width - len(number)) + number)
    return lines


class _Pager:
    """Fills pages of ``height - 1`` text lines; the last line of each page carries its number."""

    def __init__(self, width: int, height: int, prefix: str, start: int) -> None:
        self.width, self.text_lines, self.prefix, self.number = width, height - 1, prefix, start
        self.book = Book()
        self.rows: list[str] = []

    def label(self) -> str:
        return f"{self.prefix}{self.number}"

    def break_page(self) -> None:
        if not self.rows:
            return
        number = page_number_cells(self.label())
        rows = self.rows + [""] * (self.text_lines - len(self.rows))
        self.book.pages.append(rows + [BLANK * (self.width - len(number)) + number])
        self.rows = []
        self.number += 1

    def room(self) -> int:
        return self.text_lines - len(self.rows)

    def put(self, lines: Sequence[str], keep_with_next: bool = False, blank_before: bool = False) -> None:
        need = len(lines) + (1 if keep_with_next else 0) + (1 if blank_before and self.rows else 0)
        if need > self.room() and self.rows and len(lines) + (1 if keep_with_next else 0) <= self.text_lines:
            self.break_page()
        if blank_before and self.rows:
            self.rows.append("")
        for line in lines:
            if self.room() == 0:
                self.break_page()
            self.rows.append(line)


def _lines(item: Item, width: int, targets: dict[str, str] | None) -> list[str]:
    """The lines a heading, paragraph, list item, contents entry or line takes (none for a break)."""
    if item.kind == "heading":
        return _heading_lines(item.cells, width)
    if item.kind == "paragraph":
        return wrap_cells(item.cells, width, 2, 0)
    if item.kind == "item":
        return wrap_cells(item.cells, width, 2 * item.level, 2 * item.level + 2)
    if item.kind == "contents":
        label = (targets or {}).get(item.target or "", "")
        return _contents_lines(item.cells, page_number_cells(label), width) if label else wrap_cells(item.cells, width, 0, 2)
    return wrap_cells(item.cells, width) if item.kind == "line" else []


def _group_lines(items: Sequence[Item], first: int, width: int, targets: dict[str, str] | None) -> int:
    """Lines of the heading ``items[first]`` and the blocks after it up to the next heading or page break."""
    end = next((j for j in range(first + 1, len(items)) if items[j].kind in ("heading", "page")), len(items))
    return sum(len(_lines(item, width, targets)) if item.kind != "blank" else 1 for item in items[first:end])


def paginate_book(items: Sequence[Item], width: int, height: int, prefix: str = "", start: int = 1,
                  targets: dict[str, str] | None = None) -> Book:
    """Lay out ``items`` on pages of ``width`` cells × ``height`` lines (see the module docs).

    ``prefix`` ``"p"`` numbers preliminary pages p1, p2 …; ``start`` is the first page's number.
    ``targets`` maps anchors to page labels for contents entries (from an earlier
    :func:`paginate_book` of the body). Returns the :class:`Book` (every page exactly
    ``height`` rows, the last holding its number). Raises :class:`BookFormatError` for a page
    smaller than :data:`MIN_CELLS` × :data:`MIN_LINES`.
    """
    if width < MIN_CELLS or height < MIN_LINES:
        raise BookFormatError(f"a braille book page needs at least {MIN_CELLS} cells × {MIN_LINES} lines, not {width} × {height}")
    pager = _Pager(width, height, prefix, start)
    for i, item in enumerate(items):
        if item.kind == "heading" and item.keep:
            group = _group_lines(items, i, width, targets)
            if group + (1 if pager.rows else 0) > pager.room() and group <= pager.text_lines:
                pager.break_page()
        if item.anchor:
            pager.book.anchors[item.anchor] = pager.label()
        if item.kind == "page":
            pager.break_page()
        elif item.kind == "blank":
            if pager.rows and pager.room() > 0:
                pager.rows.append("")
        elif item.kind == "heading":
            pager.put(_lines(item, width, targets), keep_with_next=True, blank_before=True)
        else:
            pager.put(_lines(item, width, targets))
        if item.anchor and item.kind == "heading":
            # The heading may have moved to the next page: its anchor is where it now stands.
            pager.book.anchors[item.anchor] = pager.label()
    pager.break_page()
    return pager.book

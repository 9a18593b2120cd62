"""Embosser pagination: cards' braille lines placed on embosser pages, one card or several per page.

Two layouts (DESIGN.md §5):

- ``card``: one card per embosser page, for card stock fed one card at a time;
- ``sheet``: cards side by side and top to bottom, so an operator embosses sheets and
  cuts them apart. Cards fill a row of cards left to right, as many columns as fit the
  page's cells per line, :data:`COLUMN_GAP_CELLS` blank cells between columns; rows of
  cards are one blank line apart; a row that does not fit below the last one starts
  the next page, so a card is never split across pages. Reading order is left to
  right, then top to bottom, then page by page.

Every column is as wide as the widest line of any card placed (the same for the whole
file, so the cutting lanes run straight down every page). Inside a line, a card's line
is padded with blank cells (U+2800, a space in BRF) to its column's width and the gap;
after the last card with cells on that line nothing is added, so no line gains
trailing blanks (pipeline/emboss/brf.py writes no trailing padding) and no line is
longer than the page's cells per line.

The lines are the braille stage's laid-out cells, used as they are (the UV layer is
drawn from the same cells): a card whose block is taller or wider than the page, or
holds a cell BRF cannot carry, is left out with an EM finding, never cut short.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Literal, Sequence

from engine.findings import Finding, Location
from pipeline.braille.cells import is_six_dot
from pipeline.emboss import rules
from pipeline.emboss.profiles import PageFormat

Layout = Literal["card", "sheet"]
LAYOUTS: tuple[str, ...] = ("card", "sheet")

#: Blank cells between two columns of cards on a sheet: the cutting lane. Two, so a cut down
#: the lane's middle leaves a whole blank cell (6.2 mm at the cell pitch of NLS Specification
#: 800 (2014) §3.2, which the profiles use) between the cut edge and each card's braille:
#: about the ¼ in (6.35 mm) margin the card-stock profile keeps round a card's braille
#: (templates/embossers/card-3x5.yaml). One blank cell would leave half of that, 3.1 mm, and a
#: hand cut that wanders 1–2 mm would put dots at the card's edge, where they are crushed.
COLUMN_GAP_CELLS = 2
BLANK_CELL = "\u2800"


@dataclass(frozen=True)
class Placement:
    """Where one card sits on its embosser page, all numbers 1-based.

    ``row`` and ``column`` count rows and columns of cards (not lines and cells);
    ``line`` is the page line of the card's first line, ``cell`` the cell (from the
    left margin) of its first cell. In the card layout every card is row 1, column 1,
    at line and cell 1 after the lead blank lines and cells (none on an adjustable-start profile).
    """

    card_id: str
    row: int
    column: int
    line: int
    cell: int


@dataclass(frozen=True)
class EmbosserPage:
    """One embosser page: the card ids on it (reading order), its rows of Unicode six-dot cells
    (one per embosser line) and where each card sits.

    ``rows`` never exceeds the page format's lines, nor a row its cells; a blank
    separator row between rows of cards is the empty string. ``placements`` follow
    ``cards``, one each.
    """

    cards: tuple[str, ...]
    rows: tuple[str, ...]
    placements: tuple[Placement, ...] = ()


@dataclass(frozen=True)
class Pagination:
    """Pages in order, the card ids left out (each has a finding), and the findings."""

    pages: tuple[EmbosserPage, ...]
    omitted: tuple[str, ...]
    findings: tuple[Finding, ...]


def card_problem(card_id: str, lines: Sequence[str], fmt: PageFormat, where: Location) -> Finding | None:
    """The finding that keeps a card off the embosser pages, or None when its lines fit ``fmt``."""
    where = where.with_card(card_id)
    if not lines:
        return rules.BLOCK_MISSING.finding(
            f"card {card_id} has an empty braille block", where, "check the braille stage's findings for this card"
        )
    for n, line in enumerate(lines, 1):
        if not is_six_dot(line):
            bad = next(ch for ch in line if not "\u2800" <= ch <= "\u283f")
            return rules.NOT_SIX_DOT.finding(
                f"card {card_id}: line {n} holds {bad!r} (U+{ord(bad):04X}), not a six-dot braille cell",
                where,
                "translate with a six-dot table (en-ueb-g1.ctb / en-ueb-g2.ctb) and unicode.dis",
            )
    widest = max(len(line) for line in lines)
    if widest > fmt.cells_per_line:
        return rules.LINE_TOO_WIDE.finding(
            f"card {card_id}: a braille line needs {widest} cells, embosser profile {fmt.profile} has {fmt.cells_per_line} per line",
            where,
            "choose a profile with longer lines or shorten the card's braille (braille_rules)",
        )
    if len(lines) > fmt.lines_per_page:
        return rules.BLOCK_TOO_TALL.finding(
            f"card {card_id}: braille block needs {len(lines)} lines, embosser profile {fmt.profile} has {fmt.lines_per_page} per page",
            where,
            "shorten the card's braille (braille_rules) or choose a profile with taller pages",
        )
    return None


def columns_that_fit(cells_per_line: int, column_cells: int, gap: int = COLUMN_GAP_CELLS) -> int:
    """How many columns of cards ``column_cells`` wide fit a line of ``cells_per_line`` cells with
    ``gap`` blank cells between columns: the largest n with n·column_cells + (n−1)·gap ≤ cells_per_line,
    at least 1 (a card as wide as the line still gets a column). E.g. 3 for 10-cell cards on a 40-cell line.
    """
    return max(1, (cells_per_line + gap) // (column_cells + gap))


def _join(band: Sequence[Sequence[str]], k: int, width: int) -> str:
    """Line ``k`` of a row of cards: each card's line ``k`` padded to ``width`` plus the gap, none after the last."""
    pieces = [lines[k] if k < len(lines) else "" for lines in band]
    while pieces and not pieces[-1]:
        pieces.pop()
    if not pieces:
        return ""
    pad = [piece + BLANK_CELL * (width - len(piece) + COLUMN_GAP_CELLS) for piece in pieces[:-1]]
    return "".join(pad) + pieces[-1]


def paginate(
    cards: Sequence[tuple[str, Sequence[str]]],
    fmt: PageFormat,
    layout: Layout,
    locate: Callable[[str], Location] | None = None,
    lead: tuple[int, int] = (0, 0),
) -> Pagination:
    """Place cards' lines on embosser pages (see the module docstring for the two layouts).

    ``cards`` is ``(card_id, lines)`` in embossing order (a card may repeat, for
    copies); ``lines`` are Unicode six-dot cells. ``locate`` gives a card's source
    location for findings. ``lead`` is ``(blank lines, blank cells)`` written before each card in
    the card layout, so its braille lands on the card's braille box on an embosser that
    starts at its margins (pipeline/emboss/cardstock.py); ``fmt`` includes them.
    Raises ValueError for an unknown layout.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown embosser layout {layout!r}; layouts: {', '.join(LAYOUTS)}")
    locate = locate or (lambda card_id: Location())
    omitted: list[str] = []
    findings: list[Finding] = []
    flagged: set[str] = set()
    placeable: list[tuple[str, Sequence[str]]] = []
    lead_lines, lead_cells = lead if layout == "card" else (0, 0)
    inner = PageFormat(fmt.profile, fmt.width_mm, fmt.height_mm, fmt.cells_per_line - lead_cells, fmt.lines_per_page - lead_lines)
    for card_id, lines in cards:
        if card_id in flagged:
            continue
        problem = card_problem(card_id, lines, inner, locate(card_id))
        if problem is None:
            placeable.append((card_id, lines))
            continue
        flagged.add(card_id)
        omitted.append(card_id)
        findings.append(problem)

    width = max((len(line) for _, lines in placeable for line in lines), default=0)
    columns = 1 if layout == "card" else columns_that_fit(fmt.cells_per_line, width)
    pages: list[EmbosserPage] = []
    placed: list[Placement] = []
    rows: list[str] = []
    band_on_page = 0

    def flush() -> None:
        if rows:
            pages.append(EmbosserPage(tuple(p.card_id for p in placed), tuple(rows), tuple(placed)))
        placed.clear()
        rows.clear()

    for start in range(0, len(placeable), columns):
        band = placeable[start : start + columns]
        height = max(len(lines) for _, lines in band)
        if layout == "card" or (rows and len(rows) + 1 + height > fmt.lines_per_page):
            flush()
            band_on_page = 0
        if rows:
            rows.append("")
        rows += [""] * lead_lines
        band_on_page += 1
        placed += [Placement(card_id, band_on_page, c + 1, len(rows) + 1, lead_cells + c * (width + COLUMN_GAP_CELLS) + 1)
                   for c, (card_id, _) in enumerate(band)]
        joined = [_join([lines for _, lines in band], k, width) for k in range(height)]
        rows += [BLANK_CELL * lead_cells + line if line else "" for line in joined]
    flush()
    return Pagination(tuple(pages), tuple(omitted), tuple(findings))

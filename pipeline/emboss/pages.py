"""Embosser pagination: cards' braille lines placed on embosser pages, one card or several per page.

Two layouts (DESIGN.md §5):

- ``card``: one card per embosser page, for card stock fed one card at a time;
- ``sheet``: several cards per page, top to bottom, one blank line between cards, so
  an operator embosses sheets and cuts them apart. A card is never split across pages.

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


@dataclass(frozen=True)
class EmbosserPage:
    """One embosser page: the card ids on it (top to bottom) and its rows of Unicode six-dot cells.

    ``rows`` never exceeds the page format's lines, nor a row its cells; a blank
    separator row between cards is the empty string.
    """

    cards: tuple[str, ...]
    rows: tuple[str, ...]


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


def paginate(
    cards: Sequence[tuple[str, Sequence[str]]],
    fmt: PageFormat,
    layout: Layout,
    locate: Callable[[str], Location] | None = None,
) -> Pagination:
    """Place cards' lines on embosser pages.

    ``cards`` is ``(card_id, lines)`` in embossing order (a card may repeat, for
    copies); ``lines`` are Unicode six-dot cells. ``locate`` gives a card's source
    location for findings. Raises ValueError for an unknown layout.
    """
    if layout not in LAYOUTS:
        raise ValueError(f"unknown embosser layout {layout!r}; layouts: {', '.join(LAYOUTS)}")
    locate = locate or (lambda card_id: Location())
    pages: list[EmbosserPage] = []
    omitted: list[str] = []
    findings: list[Finding] = []
    flagged: set[str] = set()
    ids: list[str] = []
    rows: list[str] = []

    def flush() -> None:
        if rows:
            pages.append(EmbosserPage(tuple(ids), tuple(rows)))
        ids.clear()
        rows.clear()

    for card_id, lines in cards:
        problem = card_problem(card_id, lines, fmt, locate(card_id))
        if problem is not None:
            if card_id not in flagged:
                flagged.add(card_id)
                omitted.append(card_id)
                findings.append(problem)
            continue
        if layout == "card" or (rows and len(rows) + 1 + len(lines) > fmt.lines_per_page):
            flush()
        if rows:
            rows.append("")
        ids.append(card_id)
        rows.extend(lines)
    flush()
    return Pagination(tuple(pages), tuple(omitted), tuple(findings))

"""``deckpress import``: a card table (spreadsheet or CSV) into a game's ``cards.yaml``.

The table's cells become card data with a location per cell (``cards.xlsx:Sheet1!C14``), so
the engine's own schema findings (DA002 missing field, DA003 invalid value, DA004 unknown
key) and every check the build runs first (:func:`pipeline.build.preflight.preflight`) name
the sheet, row and column. The game is loaded with the table's cards in place of its
cards.yaml; only when no error finding stands is cards.yaml written (updated in place by
:mod:`pipeline.exports.cardsyaml`, comments and order kept).
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from pathlib import Path

from ruamel.yaml.error import YAMLError

from engine.findings import Finding, Location, Severity
from engine.load import CARDS_FILE, DataError, display_path, load_game
from engine.validation import INVALID_VALUE, MISSING_FIELD, UNKNOWN_KEY
from engine.yamlsource import Source
from pipeline.exports.cardsyaml import replace_card_data, updated_text
from pipeline.exports.table import COLUMNS, EMPTY_TEXT, LIST_COLUMNS, NUMBER_COLUMNS, REQUIRED, Table, TableError, read_table


@dataclass
class ImportResult:
    """What an import found and did: ``findings`` (cell-located), ``cards`` read, and whether cards.yaml was ``written``."""

    findings: list[Finding] = field(default_factory=list)
    cards: int = 0
    written: bool = False
    target: Path | None = None


def header_columns(table: Table) -> tuple[dict[int, str], list[Finding], int | None]:
    """The header row's columns by index, findings for unknown, repeated and missing columns, and the header's row index."""
    at = table.header_row()
    if at is None:
        return {}, [MISSING_FIELD.finding("the table is empty: no header row naming the card fields",
                                          Location(table.cell(0, 0)), f"put the column names in row 1: {', '.join(COLUMNS)}")], None
    columns: dict[int, str] = {}
    findings: list[Finding] = []
    for index, text in enumerate(table.rows[at]):
        if text is None:
            continue
        name = text.strip()
        where = Location(table.cell(at, index))
        if name not in COLUMNS:
            guess = difflib.get_close_matches(name, COLUMNS, n=1)
            hint = f"did you mean '{guess[0]}'?" if guess else f"the columns are the card fields: {', '.join(COLUMNS)}"
            findings.append(UNKNOWN_KEY.finding(f"unknown column {name!r}", where, hint))
        elif name in columns.values():
            first = next(i for i, n in columns.items() if n == name)
            findings.append(INVALID_VALUE.finding(f"column {name!r} appears twice", where, "keep one of the two columns",
                                                  (Location(table.cell(at, first)),)))
        else:
            columns[index] = name
    for name in REQUIRED:
        if name not in columns.values():
            findings.append(MISSING_FIELD.finding(f"missing required column {name!r}", Location(table.cell(at, 0)),
                                                  f"add a column headed '{name}' (one value per card)"))
    return columns, findings, at


def _value(column: str, text: str) -> object:
    """A cell's text as the field's value: list columns split at commas, copies as a whole number, '""' as empty text."""
    if column in LIST_COLUMNS:
        return [item.strip() for item in text.split(",") if item.strip()]
    if column in NUMBER_COLUMNS:
        digits = text.strip()
        return int(digits) if digits.isdigit() else text
    return "" if text == EMPTY_TEXT else text


def _put(data: dict, src: Source, path: list[str], value: object, where: Location) -> None:
    """Store ``value`` at ``path`` (``["description", "alt"]``) in ``data`` with its cell location in ``src``."""
    for step in path[:-1]:
        data = data.setdefault(step, {})
        src.keys.setdefault(step, where)
        src = src.items.setdefault(step, Source(where))
    data[path[-1]] = value
    src.keys[path[-1]] = where
    item = Source(where)
    if isinstance(value, list):
        item.items = {i: Source(where) for i in range(len(value))}
    src.items[path[-1]] = item


def _mark(src: Source, path: list[str], where: Location) -> None:
    """Record an empty cell's location under ``path`` without a value, so that a required
    field left empty is reported at its own cell, not at the row's id."""
    for step in path:
        src.keys.setdefault(step, where)
        src = src.items.setdefault(step, Source(where))


def table_cards(table: Table, columns: dict[int, str], header: int) -> tuple[list[dict], Source]:
    """The cards of the rows below the header (empty rows skipped) as ``cards.yaml``-shaped data and its cell locations."""
    first_column = min(columns)
    cards: list[dict] = []
    items: dict[int, Source] = {}
    for r in range(header + 1, len(table.rows)):
        row = table.rows[r]
        if all(c is None for c in row):
            continue
        id_column = next((i for i, n in columns.items() if n == "id"), first_column)
        card: dict = {}
        src = Source(Location(table.cell(r, id_column)))
        for index, column in columns.items():
            text = row[index] if index < len(row) else None
            where = Location(table.cell(r, index))
            if text is not None:
                _put(card, src, column.split("."), _value(column, text), where)
            else:
                _mark(src, column.split("."), where)
        items[len(cards)] = src
        cards.append(card)
    at = Location(table.cell(header, first_column))
    return cards, Source(at, {"cards": at}, {"cards": Source(at, {}, items)})


def check_table(table: Table, game_dir: Path) -> tuple[list[Finding], list[dict]]:
    """Every finding for the table's cards in ``game_dir`` (header, schema, then the build's checks), and the cards."""
    from pipeline.build.preflight import preflight

    columns, findings, header = header_columns(table)
    if header is None or any(f.severity is Severity.error for f in findings):
        return findings, []
    cards, source = table_cards(table, columns, header)
    try:
        deck = load_game(game_dir, cards=({"cards": cards}, source))
    except DataError as exc:
        if exc.unreadable:  # game.yaml (or the base game's data) cannot be read: exit 2 with its path
            raise
        return findings + exc.findings, cards
    return findings + preflight(deck), cards


def import_table(path: Path, game_dir: Path) -> ImportResult:
    """Read the card table at ``path``, check it as the game's cards, and write ``game_dir``/cards.yaml when no error stands.

    Raises :class:`~pipeline.exports.table.TableError` (unreadable table), :class:`DataError`
    with ``unreadable`` for a game folder whose game.yaml cannot be read, and OSError when
    cards.yaml cannot be written.
    """
    table = read_table(path, display_path(path))
    findings, cards = check_table(table, game_dir)
    result = ImportResult(findings=findings, cards=len(cards), target=game_dir / CARDS_FILE)
    if not cards or any(f.severity is Severity.error for f in findings):
        return result
    target = game_dir / CARDS_FILE
    try:
        existing = target.read_text(encoding="utf-8") if target.exists() else None
        text = updated_text(existing, cards)
    except (UnicodeDecodeError, YAMLError) as exc:  # never replace a file that cannot be read back
        raise TableError(f"cannot update {display_path(target)}: it is not readable YAML ({type(exc).__name__}); "
                         "fix it or move it away, then import again") from None
    if text != existing:
        replace_card_data(target, text)
        result.written = True
    return result

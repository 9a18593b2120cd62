"""The card table: one row per card, one column per card field, as designers keep it in a spreadsheet.

Columns are named after the fields of ``cards.yaml`` (:class:`engine.cards.Card`):
``id name class kind power keywords indicator copies rules braille_rules image
description.alt description.long provenance ignore``. ``keywords`` and ``ignore`` are list
columns (items separated by commas, in printed order). An empty cell leaves the field out;
a cell holding exactly ``""`` is an empty text (``braille_rules: ""`` keeps the rules text out
of the braille). The header is the first non-empty row of the first sheet.

Reading: ``.xlsx`` and ``.ods`` through python-calamine (MIT; one Rust reader for both
formats, wheels for Linux x86-64 and aarch64), ``.csv`` through the standard library.
Writing: ``.xlsx`` through openpyxl (MIT), ``.csv`` through the standard library. Every cell
has a location ``cards.xlsx:Sheet1!C14`` that the findings name.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass, field
from pathlib import Path

from engine.cards import Card

#: Every column, in the order export writes them (the field order of cards.yaml).
COLUMNS = ("id", "name", "class", "kind", "power", "keywords", "indicator", "copies", "rules", "braille_rules",
           "image", "description.alt", "description.long", "provenance", "ignore")
#: Columns a table must have (the card's required fields).
REQUIRED = ("id", "name", "class", "kind", "description.alt", "description.long", "provenance")
#: Columns holding a list: items separated by commas.
LIST_COLUMNS = ("keywords", "ignore")
#: Columns holding a whole number.
NUMBER_COLUMNS = ("copies",)
#: A cell holding exactly this is an empty text ("" in YAML), not a missing value.
EMPTY_TEXT = '""'
#: File types the table is read from and written to.
READ_SUFFIXES = (".xlsx", ".ods", ".csv")
WRITE_SUFFIXES = (".xlsx", ".csv")
#: The sheet name a CSV file's cells are reported under (a CSV has one unnamed sheet).
CSV_SHEET = "csv"


class TableError(ValueError):
    """A table file that cannot be read or written at all (the CLI exits 2); the message names the path."""


def column_letter(index: int) -> str:
    """Spreadsheet column name of a 0-based index: 0 → A, 25 → Z, 26 → AA."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


@dataclass
class Table:
    """The cells of one sheet, as text, and where they are.

    ``rows`` holds every row from row 1 as cell texts (None for an empty cell); ``shown`` is
    the file name findings use, ``sheet`` the sheet's name.
    """

    shown: str
    sheet: str
    rows: list[list[str | None]] = field(default_factory=list)

    def cell(self, row: int, column: int) -> str:
        """The location text of a cell: 0-based row and column → ``cards.xlsx:Sheet1!C14``."""
        return f"{self.shown}:{self.sheet}!{column_letter(column)}{row + 1}"

    def header_row(self) -> int | None:
        """Index of the first row holding any cell (the header), or None for an empty sheet."""
        return next((i for i, row in enumerate(self.rows) if any(c is not None for c in row)), None)


def _cell_text(value: object) -> str | None:
    """A reader's cell value as the text the designer typed: 7.0 → "7", "" → None (empty cell)."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def read_table(path: Path, shown: str) -> Table:
    """Read the first sheet of an ``.xlsx``/``.ods`` workbook or a ``.csv`` file.

    ``shown`` is the path as findings print it. Raises :class:`TableError` naming the path for
    an unknown file type, a missing file, or one the reader cannot open.
    """
    suffix = path.suffix.lower()
    if suffix not in READ_SUFFIXES:
        raise TableError(f"cannot read {shown}: a card table is {', '.join(READ_SUFFIXES)}")
    if not path.is_file():
        raise TableError(f"cannot read {shown}: no such file")
    if suffix == ".csv":
        try:
            text = path.read_text(encoding="utf-8-sig")
        except UnicodeDecodeError:
            raise TableError(f"cannot read {shown}: {_not_utf8(path)} (save it as UTF-8 CSV)") from None
        except OSError as exc:
            raise TableError(f"cannot read {shown}: {exc.strerror or exc}") from None
        rows = [[_cell_text(c) for c in row] for row in csv.reader(io.StringIO(text, newline=""))]
        return Table(shown, CSV_SHEET, rows)
    from python_calamine import CalamineWorkbook

    try:
        book = CalamineWorkbook.from_path(str(path))
        sheet = book.get_sheet_by_index(0)
        rows = [[_cell_text(c) for c in row] for row in sheet.to_python(skip_empty_area=False)]
    except Exception as exc:  # calamine raises its own error types and ValueError for a damaged file
        raise TableError(f"cannot read {shown}: not a readable {suffix[1:]} workbook ({type(exc).__name__}: {exc})") from None
    return Table(shown, sheet.name, rows)


def card_row(card: Card) -> list[str | int | None]:
    """One card as a row of cells in :data:`COLUMNS` order (None for a field left out).

    Raises :class:`TableError` for a list item holding a comma, which a list cell cannot keep.
    """
    values: dict[str, object] = {
        "id": card.id, "name": card.name, "class": card.class_id, "kind": card.kind, "power": card.power,
        "keywords": card.keywords, "indicator": card.indicator, "copies": card.copies, "rules": card.rules,
        "braille_rules": card.braille_rules, "image": card.image, "description.alt": card.description.alt,
        "description.long": card.description.long, "provenance": card.provenance.value, "ignore": card.ignore,
    }
    row: list[str | int | None] = []
    for column in COLUMNS:
        value = values[column]
        if column in LIST_COLUMNS:
            bad = [item for item in value if "," in item]  # type: ignore[union-attr]
            if bad:
                raise TableError(f"card {card.id!r}: {column} item {bad[0]!r} holds a comma, which a list cell cannot keep")
            row.append(", ".join(value) or None)  # type: ignore[arg-type]
        elif value == "":
            row.append(EMPTY_TEXT)
        else:
            row.append(value)  # type: ignore[arg-type]
    return row


def write_table(cards: list[Card], path: Path, sheet: str = "cards") -> bytes:
    """The card table of ``cards`` as the bytes of an ``.xlsx`` (sheet ``sheet``) or ``.csv`` file, by ``path``'s suffix.

    Every text cell is stored as text (a power "7" stays the text 7, "+6" is not turned into a
    number). Raises :class:`TableError` for another suffix or a list item holding a comma.
    """
    rows = [list(COLUMNS)] + [card_row(c) for c in cards]
    suffix = path.suffix.lower()
    if suffix == ".csv":
        buf = io.StringIO(newline="")
        csv.writer(buf, lineterminator="\r\n").writerows([["" if v is None else v for v in r] for r in rows])
        return buf.getvalue().encode("utf-8")
    if suffix != ".xlsx":
        raise TableError(f"cannot write {path}: a card table is written as {' or '.join(WRITE_SUFFIXES)}")
    from openpyxl import Workbook

    book = Workbook()
    ws = book.active
    ws.title = sheet
    for r, row in enumerate(rows, 1):
        for c, value in enumerate(row, 1):
            if value is None:
                continue
            cell = ws.cell(row=r, column=c, value=value)
            if isinstance(value, str):
                cell.data_type = "s"  # text, never a formula: a rules text may start with "="
                cell.number_format = "@"
    ws.freeze_panes = "A2"
    buf = io.BytesIO()
    book.save(buf)
    return buf.getvalue()


def _not_utf8(path: Path) -> str:
    """Where a CSV file stops being UTF-8: ``"line 3, column 19: byte 0xe9 is not UTF-8 (a Latin-1 é?)"``.
    A spreadsheet saved as "CSV" in a legacy code page (Windows-1252, Latin-1) gives this."""
    from engine.loadhints import first_bad_byte

    place = first_bad_byte(path, path.stat().st_size)
    if place is None:  # the text reader saw what a second read does not: say it plainly
        return "it is not UTF-8 text"
    line, column, byte = place
    guess = bytes([byte]).decode("cp1252", "replace")
    latin = f" (a Windows-1252 or Latin-1 {guess!r}?)" if guess != "\ufffd" else ""
    return f"line {line}, column {column}: byte 0x{byte:02x} is not UTF-8{latin}"

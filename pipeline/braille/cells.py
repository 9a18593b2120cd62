"""Braille cells: Unicode braille → dot numbers, and → North American Braille ASCII (BRF).

Unicode braille patterns (U+2800–U+28FF) encode dots as bits: dot n is bit n−1
(Unicode Standard, ch. 21 "Braille Patterns"). Six-dot cells are U+2800–U+283F.
North American Braille ASCII maps the 64 six-dot cells to the printable bytes
0x20–0x5F (BANA, "Braille ASCII"; the table liblouis ships as en-us-brf.dis).
"""

from __future__ import annotations

BLANK = "\u2800"

#: Braille ASCII characters in order of their six-dot Unicode cell (index = dot bits).
#: Built from the standard table: for each ASCII char 0x20–0x5F, its dot pattern.
_ASCII_DOTS = {
    " ": "", "!": "2346", '"': "5", "#": "3456", "$": "1246", "%": "146", "&": "12346",
    "'": "3", "(": "12356", ")": "23456", "*": "16", "+": "346", ",": "6", "-": "36",
    ".": "46", "/": "34", "0": "356", "1": "2", "2": "23", "3": "25", "4": "256", "5": "26",
    "6": "235", "7": "2356", "8": "236", "9": "35", ":": "156", ";": "56", "<": "126",
    "=": "123456", ">": "345", "?": "1456", "@": "4", "A": "1", "B": "12", "C": "14",
    "D": "145", "E": "15", "F": "124", "G": "1245", "H": "125", "I": "24", "J": "245",
    "K": "13", "L": "123", "M": "134", "N": "1345", "O": "135", "P": "1234", "Q": "12345",
    "R": "1235", "S": "234", "T": "2345", "U": "136", "V": "1236", "W": "2456", "X": "1346",
    "Y": "13456", "Z": "1356", "[": "246", "\\": "1256", "]": "12456", "^": "45", "_": "456",
}


def _cell(dots: str) -> str:
    return chr(0x2800 + sum(1 << (int(d) - 1) for d in dots))


ASCII_TO_CELL: dict[str, str] = {a: _cell(d) for a, d in _ASCII_DOTS.items()}
CELL_TO_ASCII: dict[str, str] = {c: a for a, c in ASCII_TO_CELL.items()}


def is_six_dot(text: str) -> bool:
    """True when every character is a six-dot Unicode braille cell (U+2800–U+283F)."""
    return all("\u2800" <= ch <= "\u283f" for ch in text)


def dots(cell: str) -> tuple[int, ...]:
    """The raised dots of one cell, ascending: ``dots("⠋") == (1, 2, 4)``.

    Raises ValueError for a character outside U+2800–U+28FF.
    """
    code = ord(cell) - 0x2800
    if not 0 <= code <= 0xFF or len(cell) != 1:
        raise ValueError(f"not a braille cell: {cell!r}")
    return _DOTS[code]


#: :func:`dots` of every cell U+2800–U+28FF, by its dot bits.
_DOTS: tuple[tuple[int, ...], ...] = tuple(tuple(n + 1 for n in range(8) if code & (1 << n)) for code in range(256))


def letter_cell(n: int) -> str:
    """The cell of the n-th letter of the alphabet: 1 → ⠁ (a), 10 → ⠚ (j), 12 → ⠇ (l), 26 → ⠵ (z).

    These are also the UEB digit cells 1–9, 0 after a numeric indicator (a–j; UEB Rules 2013 §6).
    Raises ValueError outside 1–26.
    """
    if not 1 <= n <= 26:
        raise ValueError(f"only 1-26 can be written as a single letter cell, got {n}")
    return ASCII_TO_CELL[chr(ord("A") + n - 1)]


def to_brf(cells: str) -> str:
    """Unicode six-dot cells → Braille ASCII (bytes 0x20–0x5F as str).

    Raises ValueError naming the first cell that is not six-dot braille.
    """
    try:
        return "".join(CELL_TO_ASCII[c] for c in cells)
    except KeyError as exc:
        raise ValueError(f"not a six-dot braille cell: {exc.args[0]!r} (U+{ord(exc.args[0]):04X})") from None

"""Braille of a card's power value, per game scheme (DESIGN.md §3, :class:`engine.model.PowerScheme`).

The rulebooks put the power as the final braille of the card: a prefix cell then the
value (Apprentice rulebook, "Cards" item 3; Enchant rulebook, "Cards" item 2):

- numbers: the numeric indicator ⠼ (``number_prefix``) then the value.
  ``number_style: ueb`` writes the value in standard UEB digits (a=1 … i=9, j=0), so
  10 is ⠼⠁⠚ (Enchant: "aj=10"). ``single-letter`` writes 1–26 as ONE letter cell, so
  10 is ⠼⠚ and 11 is ⠼⠅ (Apprentice: "j equals 10, k equals 11"); 0 stays the
  standard UEB zero ⠼⠚, which is the same cells as 10 — :meth:`PowerEncoding.collisions`
  reports that pair when a single-letter game allows both.
- symbols ("?", letters E, H, L, O, X): the full cell ⠿ (``symbol_prefix``) then the
  symbol's uncontracted UEB cell(s) without indicators. Letters are written as the
  lowercase letter cell with no capital sign (the full cell already marks a symbol, and
  the rulebooks call it a single cell): "E" → ⠿⠑, "?" → ⠿⠦.
- ``overrides``: explicit cells the game data records for a value win over all of the
  above (the designer's decision where a convention collides).
- modifiers (Claim's potions "x2", "+6", "-5"): UEB text through liblouis in the game's
  grade; a leading "-" before a digit is the minus sign (UEB ⠐⠤), not a hyphen:
  "x2" → ⠭⠼⠃, "+6" → ⠐⠖⠼⠋, "-5" → ⠐⠤⠼⠑.
"""

from __future__ import annotations

import re

from engine.model import PowerScheme
from pipeline.braille.cells import letter_cell
from pipeline.braille.translate import translate

_GRADE_1_INDICATOR = "\u2830"  # ⠰ (dots 56), UEB Rules 2013 §5 (grade 1 mode)
_CAPITAL_SIGN = "\u2820"  # ⠠ (dot 6), UEB Rules 2013 §8 (capitalisation)
_NUMERIC_INDICATOR = "\u283c"  # ⠼ (dots 3456), UEB Rules 2013 §6 (numeric mode)
_LEADING_MINUS = re.compile(r"^-(?=\d)")
_INTEGER = re.compile(r"^-?\d+$")


class PowerEncoding:
    """The braille cells of every power value of one game's :class:`PowerScheme`.

    ``encode(value)`` gives the Unicode cells (str) of an allowed value and raises
    ValueError for a value outside the scheme (or one the UEB table cannot write);
    ``collisions()`` lists distinct allowed values that encode to the same cells.
    ``grade`` (1 or 2) is the grade modifiers are translated in. Encodings are computed
    on first use and cached on the instance; construction never raises for bad data.
    """

    def __init__(self, scheme: PowerScheme, grade: int = 2) -> None:
        self.scheme = scheme
        self.grade = grade
        self._allowed = scheme.allowed()
        self._cache: dict[str, str] = {}

    def encode(self, value: str) -> str:
        """Unicode braille cells of one power value, prefix included: ``"10"`` → ⠼⠚ (single-letter)."""
        if value not in self._cache:
            self._cache[value] = self._encode(value)
        return self._cache[value]

    def _encode(self, value: str) -> str:
        if value not in self._allowed:
            raise ValueError(f"power {value!r} is not allowed by the game's power scheme (allowed: {', '.join(self._allowed)})")
        s = self.scheme
        if value in s.overrides:
            return s.overrides[value]
        if s.numbers and _INTEGER.match(value) and s.numbers["min"] <= int(value) <= s.numbers["max"]:
            return self._number(int(value))
        if value in s.symbols:
            return s.symbol_prefix + self._symbol(value)
        return translate(_LEADING_MINUS.sub("\u2212", value), self.grade)

    def _number(self, n: int) -> str:
        prefix = self.scheme.number_prefix
        if self.scheme.number_style == "single-letter" and 1 <= n <= 26:
            return prefix + letter_cell(n)
        if n < 0:
            raise ValueError(f"power {n} is negative; write it as a modifier such as '-5'")
        digits = translate(str(n), 1)
        if not digits.startswith(_NUMERIC_INDICATOR):  # pragma: no cover  (UEB always starts a number with ⠼)
            raise ValueError(f"liblouis wrote {n} without a numeric indicator: {digits}")
        return prefix + digits[1:]

    def _symbol(self, value: str) -> str:
        text = value.lower() if value.isalpha() else value
        cells = translate(text, 1).replace(_GRADE_1_INDICATOR, "").replace(_CAPITAL_SIGN, "")
        if not cells:
            raise ValueError(f"power symbol {value!r} has no braille cells")
        return cells

    def collisions(self) -> list[tuple[str, str, str]]:
        """Pairs of distinct allowed values with the same cells: ``[(value_a, value_b, cells)]``.

        In allowed order (numbers, symbols, modifiers); values that cannot be encoded at
        all are skipped here (``encode`` reports them), and so is a value the scheme lists
        twice. The scan is :meth:`engine.model.PowerScheme.cell_clashes`, shared with PW002.
        """
        return [(earlier, value, cells) for value, earlier, cells in self.scheme.cell_clashes(self.encode)
                if earlier is not None and earlier != value]

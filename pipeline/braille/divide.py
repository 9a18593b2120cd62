"""Dividing one braille word that is longer than a line of the braille box.

A word divides with the hyphen ⠤ at the end of the line, at the latest allowed place that
leaves room for the hyphen:

- preferably, when it fills at least half the line and costs no extra line, where liblouis's
  English hyphenation patterns (``hyph_en_US.dic`` from
  liblouis-data, :func:`pipeline.braille.translate.hyphenation_points`) allow a break:
  "Magician's" (⠠⠍⠁⠛⠊⠉⠊⠁⠝⠄⠎) becomes ⠠⠍⠁⠛⠊⠉⠤ / ⠊⠁⠝⠄⠎, never ⠠⠍⠁⠛⠊⠉⠊⠁⠝⠤ / ⠄⠎,
  which reads "'s" as the word "so";
- else at the latest cell boundary, each piece keeping at least :data:`MIN_PIECE` cells;
- never beside an apostrophe ⠄, never after a cell that modifies the next one (⠼ ⠠ ⠰ ⠐ ⠘ ⠨ ⠸ ⠈);
- a number divided across lines repeats its numeric indicator ⠼ on the continuation, since
  the hyphen ends numeric mode (UEB Rules 2013, section 6: numeric mode ends at any cell other
  than a digit, comma, decimal point or numeric space).
"""

from __future__ import annotations

from pipeline.braille.translate import hyphenation_points

HYPHEN = "\u2824"  # ⠤ dots 36
NUMERIC_INDICATOR = "\u283c"  # ⠼ dots 3456
APOSTROPHE = "\u2804"  # ⠄ dots 3
#: Cells that must not end a line: they modify the cell after them (UEB Rules 2013 §3, §5, §6, §8).
PREFIX_CELLS = frozenset("\u283c\u2820\u2830\u2810\u2818\u2828\u2838\u2808")  # ⠼ ⠠ ⠰ ⠐ ⠘ ⠨ ⠸ ⠈
#: Cells that continue a number after ⠼: digits a–j, the comma ⠂, the decimal point ⠲, the numeric space ⠐.
_NUMERIC = frozenset("\u2801\u2803\u2809\u2819\u2811\u280b\u281b\u2813\u280a\u281a\u2802\u2832\u2810")
#: Fewest cells a piece keeps (a lone letter on a line is not a division UEB readers expect).
MIN_PIECE = 2


def numeric_at(word: str, index: int) -> bool:
    """True when cell ``index`` of ``word`` is read in numeric mode (after ⠼ and only digits since)."""
    mode = False
    for cell in word[:index + 1]:
        if cell == NUMERIC_INDICATOR:
            mode = True
        elif cell not in _NUMERIC:
            mode = False
    return mode


def _allowed(word: str, cut: int) -> bool:
    before, after = word[cut - 1], word[cut]
    return before not in PREFIX_CELLS and APOSTROPHE not in (before, after)


def _lines(cells: int, width: int) -> int:
    """Lines a run of ``cells`` cells takes when divided at every line end (``width − 1`` + ⠤ each)."""
    return 1 if cells <= width else 1 + -(-(cells - width) // (width - 1))


def _cut(word: str, width: int, grade: int) -> int | None:
    """The division point of ``word`` for a line of ``width`` cells, or None when none is allowed.

    The latest allowed point, unless a hyphenation point of liblouis's patterns fills at least
    half the line and costs no extra line: then the latest such point.
    """
    latest = min(width - 1, len(word) - MIN_PIECE)
    candidates = [c for c in range(latest, MIN_PIECE - 1, -1) if _allowed(word, c)]
    if not candidates:
        return None
    need = _lines(len(word) - candidates[0], width)
    preferred = hyphenation_points(word, grade)
    for cut in candidates:
        if cut in preferred and cut >= width // 2 and _lines(len(word) - cut, width) == need:
            return cut
    return candidates[0]


def divide(word: str, width: int, grade: int = 2) -> list[str]:
    """Divide one braille word (Unicode cells, no blank) into pieces of at most ``width`` cells,
    each piece but the last ending in ⠤ (see the module docs for where).

    When no allowed place exists (e.g. a word of apostrophes), the cut falls at ``width − 1``
    cells, stepping back over prefix cells. Raises ValueError for ``width < 3``.
    """
    if width < 3:
        raise ValueError(f"cannot divide braille into lines of {width} cells (at least 3 needed)")
    pieces: list[str] = []
    while len(word) > width:
        cut = _cut(word, width, grade)
        if cut is None:
            cut = width - 1
            while cut > 1 and word[cut - 1] in PREFIX_CELLS:
                cut -= 1
        head, word = word[:cut], word[cut:]
        if numeric_at(head + word, cut) and word[0] != NUMERIC_INDICATOR:
            word = NUMERIC_INDICATOR + word
        pieces.append(head + HYPHEN)
    return pieces + [word]

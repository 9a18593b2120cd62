"""Round-trip check of numbers: braille cells back-translated by liblouis must give the same numbers.

A letter a–j straight after digits without the grade 1 indicator ⠰ reads as more digits
("4C" as ⠼⠙⠉ reads 43; UEB Rules 2013 §6.5), and a number whose cells lost their numeric
indicator reads as letters. Both are silent wrong braille, so the braille stage checks every
translated field: the *numeric tokens* (maximal runs of letters and digits holding at least
one digit, case-folded: "2D6", "4c", "1", "000" of "1,000") of the print text must equal,
in order, those of liblouis's back-translation of the cells. The reference is liblouis's
own back-translator (``louis.backTranslateString``), independent of the forward fix-up in
:mod:`pipeline.braille.translate`. Words are not compared: back-translation of contracted
braille does not always give the original spelling back, but numbers and the letters
beside them are written letter by letter.
"""

from __future__ import annotations

import re

from pipeline.braille.translate import back_translate, normalise

_TOKEN = re.compile(r"[^\W_]*\d[^\W_]*")


def numeric_tokens(text: str) -> list[str]:
    """The case-folded runs of letters and digits that hold a digit: ``numeric_tokens("Roll 2D6, x3") == ["2d6", "x3"]``."""
    return [token.casefold() for token in _TOKEN.findall(text)]


def number_mismatch(text: str, cells: str, grade: int) -> str | None:
    """None when ``cells`` (Unicode six-dot braille of ``text`` at ``grade``) reads back with the
    same numeric tokens; else a sentence naming the first token that differs, e.g.
    ``"'4c' reads back as '43'"``. Raises ValueError for a grade other than 1 or 2.
    """
    want = numeric_tokens(normalise(text))
    got = numeric_tokens(back_translate(cells, grade))
    if want == got:
        return None
    for index, token in enumerate(want):
        if index >= len(got) or got[index] != token:
            found = got[index] if index < len(got) else "nothing"
            return f"{token!r} reads back as {found!r}"
    return f"the braille reads back with an extra number {got[len(want)]!r}"

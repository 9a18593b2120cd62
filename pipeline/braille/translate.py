"""Print text → Unicode braille cells through liblouis with the UEB tables (DESIGN.md §3).

- Tables: ``en-ueb-g1.ctb`` (grade 1, uncontracted) and ``en-ueb-g2.ctb`` (grade 2,
  contracted), never ``en-us-g2.ctb`` (EBAE). The display table ``unicode.dis`` is put
  FIRST in the table list, otherwise liblouis emits lowercase ASCII instead of cells.
- Input is normalised before translation (:func:`normalise`): NBSP, tabs, thin and other
  Unicode spaces and line breaks become one plain space (liblouis passes NBSP and tab
  through untranslated); the curly apostrophe U+2019 and the modifier-letter apostrophe
  U+02BC become the straight apostrophe, so both spellings give the same braille.
- A character the table does not define comes out of liblouis as an 8-dot escape
  (``'\\x2603'`` with a dots-7 cell). :func:`translate` never returns that: it raises
  :class:`UntranslatableCharacter` naming the character and its code point.
- liblouis is not thread-safe (DESIGN.md §3). deckpress translates in ONE thread per
  process and uses processes for parallelism; every liblouis call here additionally
  holds a module lock, so a stray caller on another thread waits instead of crashing
  the library. Results are cached per process (``functools.lru_cache``), and liblouis
  keeps its compiled tables per process.
"""

from __future__ import annotations

import re
import threading
from functools import lru_cache

import louis

from pipeline.braille.cells import to_brf

#: liblouis table lists by UEB grade, display table first (DESIGN.md §3).
TABLES: dict[int, list[str]] = {
    1: ["unicode.dis", "en-ueb-g1.ctb"],
    2: ["unicode.dis", "en-ueb-g2.ctb"],
}

# Characters that become a plain space: every Unicode space separator and line break
# (NBSP U+00A0, thin space U+2009, narrow NBSP U+202F, figure space U+2007 …), and tab.
_SPACES = re.compile(r"[\s\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+")
# Apostrophes that must give the same braille as the straight apostrophe U+0027.
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u02bc": "'"})
_SIX_DOT = re.compile(r"^[\u2800-\u283f]*$")

_LOUIS_LOCK = threading.Lock()


class UntranslatableCharacter(ValueError):
    """A character the UEB table cannot translate (liblouis would emit an 8-dot escape).

    ``char`` is the character, ``codepoint`` its code point (int), ``text`` the
    normalised input it occurred in, ``position`` its index in that text.
    """

    def __init__(self, char: str, text: str, position: int) -> None:
        self.char = char
        self.codepoint = ord(char)
        self.text = text
        self.position = position
        super().__init__(
            f"cannot translate {char!r} (U+{self.codepoint:04X}) to UEB braille in {text!r}; "
            "the liblouis UEB table does not define it"
        )


def normalise(text: str) -> str:
    """The text liblouis is given: spaces unified and collapsed, apostrophes unified, ends stripped.

    ``normalise("Don\\u2019t\\u00a0\\tstop ") == "Don't stop"``.
    """
    return _SPACES.sub(" ", text.translate(_APOSTROPHES)).strip()


def _check_grade(grade: int) -> list[str]:
    try:
        return TABLES[grade]
    except KeyError:
        raise ValueError(f"UEB grade must be 1 or 2, got {grade!r}") from None


@lru_cache(maxsize=65536)
def _translate_normalised(text: str, grade: int) -> str:
    tables = _check_grade(grade)
    with _LOUIS_LOCK:
        cells = louis.translateString(tables, text)
    if _SIX_DOT.match(cells):
        return cells
    # Slow path, only for bad input: find the input character behind the first
    # output that is not a six-dot cell (an 8-dot escape or a passed-through char).
    with _LOUIS_LOCK:
        out, in_pos, _out_pos, _cursor = louis.translate(tables, text)
    for index, ch in enumerate(out):
        if not "\u2800" <= ch <= "\u283f":
            position = in_pos[index] if index < len(in_pos) else len(text) - 1
            raise UntranslatableCharacter(text[position], text, position)
    return out  # pragma: no cover  (the two liblouis calls agree)


def translate(text: str, grade: int = 2) -> str:
    """Translate print text to UEB braille: a string of six-dot Unicode cells (U+2800–U+283F).

    ``text`` is normalised first (:func:`normalise`); a space becomes the blank cell
    U+2800. ``grade`` is 1 (``en-ueb-g1.ctb``) or 2 (``en-ueb-g2.ctb``).
    ``translate("Forest Apprentice") == "⠠⠿⠑⠌⠀⠠⠁⠏⠏⠗⠢⠞⠊⠉⠑"``.

    Raises :class:`UntranslatableCharacter` (a ValueError) for a character the table
    does not define, and ValueError for a grade other than 1 or 2. Call it from one
    thread per process (liblouis is not thread-safe; see the module docs).
    """
    return _translate_normalised(normalise(text), grade)


def translate_brf(text: str, grade: int = 2) -> str:
    """The same translation as North American Braille ASCII (bytes 0x20–0x5F as str)."""
    return to_brf(translate(text, grade))

"""Print text → Unicode braille cells through liblouis with the UEB tables (DESIGN.md §3).

- Tables: ``en-ueb-g1.ctb`` (grade 1, uncontracted) and ``en-ueb-g2.ctb`` (grade 2,
  contracted), never ``en-us-g2.ctb`` (EBAE). The display table ``unicode.dis`` is put
  FIRST in the table list, otherwise liblouis emits lowercase ASCII instead of cells.
- Input is normalised before translation (:func:`normalise`): NBSP, tabs, thin and other
  Unicode spaces and line breaks become one plain space (liblouis passes NBSP and tab
  through untranslated); the curly apostrophe U+2019 and the modifier-letter apostrophe
  U+02BC become the straight apostrophe, so both spellings give the same braille.
- Invisible format characters that carry no text (soft hyphen U+00AD, zero-width space
  U+200B, zero-width non-joiner and joiner U+200C/U+200D, word joiner U+2060, BOM U+FEFF,
  the bidi marks U+200E/U+200F) are removed before translation: liblouis would otherwise
  write them as cells (a soft hyphen became ⠤, a word joiner "word").
- An ASCII hyphen-minus directly before a digit and not after a letter, digit or closing
  bracket ("subtract -3", "at -2") is a minus sign in meaning and becomes U+2212, UEB
  minus ⠐⠤ (UEB Rules 2013 §11.4), as power values already are; "2-3" keeps its hyphen.
- U+2019 directly after punctuation (``.!?,;:``) is a closing single quotation mark
  (⠠⠴, UEB §7.6), anywhere else an apostrophe (⠄).
- C0/C1 control characters other than tab and line breaks (NUL, ESC, DEL …) raise
  :class:`ControlCharacter`: liblouis stops at a NUL and would silently lose the rest.
- liblouis 3.24 (Debian 12) to 3.27 drops the grade 1 indicator ⠰ before a letter a–j that
  follows digits inside a capitals passage ("DRAW 4C TILES TODAY" → ⠼⠙⠉, which reads 43;
  fixed upstream in 3.28). :func:`translate` restores it on any liblouis version, from
  liblouis's own input positions: a cell of the shape of a digit (a–j) that comes from a
  letter directly after a cell that comes from a digit gets ⠰ before it (UEB Rules 2013 §6.5).
  :func:`caps_digit_bug` tells whether the running liblouis has the fault.
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
_APOSTROPHES = str.maketrans({"\u02bc": "'"})
_SIX_DOT = re.compile(r"^[\u2800-\u283f]*$")
#: Format characters with no visible text, removed before translation.
_INVISIBLE = re.compile("[\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\ufeff]")
#: A hyphen-minus that is a minus sign: before a digit, not after a word character or ')'/']'.
_MINUS = re.compile(r"(?<![\w)\]])-(?=\d)")
#: U+2019 after punctuation stays a closing quote; every other U+2019 is an apostrophe.
_APOSTROPHE_2019 = re.compile(r"(?<![.!?,;:])\u2019")
#: Control characters (Unicode category Cc) that are not whitespace.
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x84\x86-\x9f]")
#: Cells a–j, which read as digits 1–0 right after a number (UEB Rules 2013 §6).
_DIGIT_SHAPES = frozenset("\u2801\u2803\u2809\u2819\u2811\u280b\u281b\u2813\u280a\u281a")
GRADE_1_INDICATOR = "\u2830"  # ⠰ dots 56

_LOUIS_LOCK = threading.Lock()


class ControlCharacter(ValueError):
    """Text holds a control character (NUL, ESC, DEL, …) that no braille can stand for.

    ``char``, ``codepoint`` (int) and ``position`` (index in the raw text) as in
    :class:`UntranslatableCharacter`.
    """

    def __init__(self, char: str, text: str, position: int) -> None:
        self.char = char
        self.codepoint = ord(char)
        self.text = text
        self.position = position
        super().__init__(f"control character U+{self.codepoint:04X} at character {position + 1} of {text!r}")


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
    """The text liblouis is given: invisible characters removed, spaces unified and collapsed,
    apostrophes unified, minus signs made explicit, ends stripped (see the module docs).

    ``normalise("Don\\u2019t\\u00a0\\tstop -3") == "Don't stop \\u22123"``.
    """
    text = _INVISIBLE.sub("", text).translate(_APOSTROPHES)
    text = _MINUS.sub("\u2212", _APOSTROPHE_2019.sub("'", text))
    return _SPACES.sub(" ", text).strip()


def _check_grade(grade: int) -> list[str]:
    try:
        return TABLES[grade]
    except KeyError:
        raise ValueError(f"UEB grade must be 1 or 2, got {grade!r}") from None


def _restore_grade1_indicators(cells: str, in_pos: list[int], text: str) -> str:
    """Put ⠰ before a letter a–j that liblouis wrote straight after a digit (the 3.24–3.27 fault).

    ``in_pos[i]`` is the index in ``text`` that output cell ``i`` comes from (liblouis's inputPos).
    """
    out: list[str] = []
    for i, cell in enumerate(cells):
        if (i > 0 and cell in _DIGIT_SHAPES and i < len(in_pos) and text[in_pos[i]].isalpha()
                and text[in_pos[i - 1]].isdigit()):
            out.append(GRADE_1_INDICATOR)
        out.append(cell)
    return "".join(out)


#: ASCII text in which a letter follows a digit somewhere: only there can the grade 1 indicator
#: be missing (:func:`_restore_grade1_indicators`), so only there are liblouis's input positions needed.
_DIGIT_BEFORE_LETTER = re.compile(r"[0-9].*[A-Za-z]", re.DOTALL)
#: Any cell that is not one of the 64 six-dot cells (an 8-dot escape, a character passed through).
_NOT_SIX_DOT = re.compile(r"[^\u2800-\u283f]")


@lru_cache(maxsize=65536)
def _translate_normalised(text: str, grade: int) -> str:
    tables = _check_grade(grade)
    if text.isascii() and not _DIGIT_BEFORE_LETTER.search(text):
        # No digit before a letter: nothing to restore, so liblouis's input positions are not
        # needed unless a cell is not six-dot (then the positional call names the character).
        # lou_translateString is lou_translate without the position arrays, the same cells at
        # ~80 % of its instructions (issue 22's translation figure; tests/test_braille_translate.py
        # compares the two routes on every card text of the shipped games).
        with _LOUIS_LOCK:
            cells = louis.translateString(tables, text)
        if not _NOT_SIX_DOT.search(cells):
            return cells
    return _translate_with_positions(text, tables)


def _translate_with_positions(text: str, tables: list[str]) -> str:
    """``text`` (normalised) through lou_translate, whose input positions name an untranslatable
    character and show where the grade 1 indicator is missing (:func:`_restore_grade1_indicators`)."""
    with _LOUIS_LOCK:
        cells, in_pos, _out_pos, _cursor = louis.translate(tables, text)
    bad = _NOT_SIX_DOT.search(cells)
    if bad:
        # An 8-dot escape or a passed-through character: name the input behind it.
        index = bad.start()
        position = in_pos[index] if index < len(in_pos) else len(text) - 1
        raise UntranslatableCharacter(text[position], text, position)
    return _restore_grade1_indicators(cells, list(in_pos), text)


@lru_cache(maxsize=1)
def liblouis_version() -> tuple[int, ...]:
    """The running liblouis version as integers, e.g. ``(3, 24, 0)`` (from ``louis.version()``)."""
    return tuple(int(part) for part in re.findall(r"\d+", louis.version())[:3])


@lru_cache(maxsize=1)
def caps_digit_bug() -> bool:
    """True when the running liblouis drops ⠰ in "DRAW 4C TILES TODAY" (3.24–3.27; fixed in 3.28).

    Probed, not guessed from the version number: the raw liblouis output is checked for
    ⠼⠙⠉ (which reads 43). :func:`translate` corrects the cells either way.
    """
    with _LOUIS_LOCK:
        raw = louis.translateString(TABLES[2], "DRAW 4C TILES TODAY")
    return "\u283c\u2819\u2809" in raw


def translate(text: str, grade: int = 2) -> str:
    """Translate print text to UEB braille: a string of six-dot Unicode cells (U+2800–U+283F).

    ``text`` is normalised first (:func:`normalise`); a space becomes the blank cell
    U+2800. ``grade`` is 1 (``en-ueb-g1.ctb``) or 2 (``en-ueb-g2.ctb``).
    ``translate("Forest Apprentice") == "⠠⠿⠑⠌⠀⠠⠁⠏⠏⠗⠢⠞⠊⠉⠑"``.

    Raises :class:`UntranslatableCharacter` (a ValueError) for a character the table
    does not define, :class:`ControlCharacter` (a ValueError) for NUL or another control character, and ValueError for a grade other than 1 or 2. Call it from one
    thread per process (liblouis is not thread-safe; see the module docs).
    """
    control = _CONTROL.search(text)
    if control:
        raise ControlCharacter(control.group(), text, control.start())
    return _translate_normalised(normalise(text), grade)


def translate_brf(text: str, grade: int = 2) -> str:
    """The same translation as North American Braille ASCII (bytes 0x20–0x5F as str)."""
    return to_brf(translate(text, grade))


@lru_cache(maxsize=65536)
def back_translate(cells: str, grade: int = 2) -> str:
    """Unicode braille cells → print text with liblouis's back-translation (same tables as :func:`translate`).

    Used only to check numbers and letters (:mod:`pipeline.braille.roundtrip`): liblouis
    back-translation of contracted words is not always the original spelling.
    Raises ValueError for a grade other than 1 or 2.
    """
    tables = _check_grade(grade)
    with _LOUIS_LOCK:
        return louis.backTranslateString(tables, cells)


#: liblouis's English hyphenation patterns (liblouis-data ships them as tables).
HYPHENATION_TABLE = "hyph_en_US.dic"


@lru_cache(maxsize=16384)
def hyphenation_points(cells: str, grade: int = 2) -> frozenset[int]:
    """Indexes ``i`` of a braille word (Unicode cells) where liblouis's hyphenation patterns allow a
    division before cell ``i`` (``louis.hyphenate`` in braille mode with :data:`HYPHENATION_TABLE`).

    ``hyphenation_points("⠠⠍⠁⠛⠊⠉⠊⠁⠝⠄⠎") == {3, 5}`` (Ma-gi-cian's). Empty when liblouis has no
    pattern for the word or cannot hyphenate it. Raises ValueError for a grade other than 1 or 2.
    """
    tables = _check_grade(grade) + [HYPHENATION_TABLE]
    try:
        with _LOUIS_LOCK:
            marks = louis.hyphenate(tables, cells, mode=1)
    except RuntimeError:  # no patterns for this word, or the table is missing
        return frozenset()
    return frozenset(i for i, mark in enumerate(marks) if mark == "1" and 0 < i < len(cells))

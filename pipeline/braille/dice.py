"""Braille of die faces, one face at a time (DESIGN.md §3).

Encodings (:class:`engine.model.Die` ``encoding``):

- ``letters``: the face value as ONE letter cell without numeric indicator, a=1 … i=9,
  j=10, k=11, l=12 (Apprentice rulebook, "D12": "the same alphanumeric sequence of UEB
  however without the numerical indicator … 10, 11, and 12 are represented by the
  letters j, k, and l"; Power Crystal rulebook, "The D4": a=1 … d=4). A private code:
  every die sheet ships a key (:func:`key_text`).
- ``ueb-numbers``: standard UEB, numeric indicator then the digit cells (Enchant
  rulebook, "D6": "the same alphanumeric sequence of UEB"): 6 → ⠼⠋, 10 → ⠼⠁⠚.

Every face is encoded on its own. Never translate "1 2 3" in one go: liblouis joins
numbers separated by spaces with the numeric space ⠐ (⠼⠁⠐⠃⠐⠉), which is not three faces.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.findings import Finding, Severity
from engine.model import Die
from engine.registry import declare
from pipeline.braille.cells import letter_cell
from pipeline.braille.translate import translate

UNENCODABLE = declare(
    "DI001",
    "die-face-unencodable",
    Severity.error,
    """A die has more faces than its braille encoding can write (``letters`` stops at z = 26).

    Fails: ``{faces: 30, encoding: letters}``.
    Passes: ``{faces: 12, encoding: letters}`` (a–l) or ``{faces: 30, encoding: ueb-numbers}``.
    """,
)

#: Digits whose print numeral reads as another digit when the die is turned upside down.
_ROTATED = str.maketrans("01689", "01986")


@dataclass(frozen=True)
class DieFace:
    """One face: ``value`` (1-based), its print ``numeral``, its braille ``cells`` (Unicode six-dot),
    and ``underline`` — True when the numeral turned 180° reads as another number (6 ↔ 9,
    and on larger dice e.g. 16 ↔ 91), so print marks which way is up with an underline."""

    value: int
    numeral: str
    cells: str
    underline: bool


def face_cells(die: Die, value: int) -> str:
    """The braille cells of one face value (1 … ``die.faces``).

    ``letters``: one letter cell (12 → ⠇); ``ueb-numbers``: ⠼ + digits (12 → ⠼⠁⠃).
    Raises ValueError for a value outside 1 … faces or beyond z for ``letters``.
    """
    if not 1 <= value <= die.faces:
        raise ValueError(f"{die.name} has faces 1-{die.faces}, not {value}")
    if die.encoding == "letters":
        return letter_cell(value)
    return translate(str(value), 1)


def _rotated_reads_as(numeral: str) -> str | None:
    """The numeral as read after a half turn, or None when some digit does not survive rotation."""
    if any(d not in "01689" for d in numeral):
        return None
    turned = numeral.translate(_ROTATED)[::-1]
    return None if len(turned) > 1 and turned.startswith("0") else turned


def encode_die(die: Die) -> tuple[tuple[DieFace, ...], list[Finding]]:
    """Every face of a die, encoded one at a time, in value order 1 … faces.

    Returns ``(faces, findings)``; a face that cannot be encoded is left out and reported
    as DI001 (located at the die's ``encoding``).
    """
    faces: list[DieFace] = []
    findings: list[Finding] = []
    for value in range(1, die.faces + 1):
        try:
            cells = face_cells(die, value)
        except ValueError as exc:
            findings.append(UNENCODABLE.finding(
                f"{die.name} face {value} cannot be written with encoding {die.encoding!r}: {exc}",
                die.where("encoding"), "use encoding: ueb-numbers for dice with more than 26 faces"))
            continue
        numeral = str(value)
        turned = _rotated_reads_as(numeral)
        faces.append(DieFace(value, numeral, cells, turned is not None and turned != numeral))
    return tuple(faces), findings


def key_text(die: Die) -> str:
    """The key that explains a die's braille, for the die sheet: ``die.key`` when the data gives one.

    Otherwise, for ``letters``: "D12 braille: one letter per face without numeric
    indicator: a = 1, b = 2, … l = 12. Read with the bar below the braille."
    """
    if die.key:
        return die.key
    if die.encoding == "letters":
        last = min(die.faces, 26)
        pairs = ", ".join(f"{chr(96 + n)} = {n}" for n in range(1, last + 1))
        return (f"{die.name} braille: one letter per face, without numeric indicator: {pairs}. "
                "Read each face with its bar below.")
    digits = sorted({d for n in range(1, die.faces + 1) for d in str(n)}, key=lambda d: (d == "0", d))
    letters = ", ".join(f"{'abcdefghij'[int(d) - 1]} = {d}" for d in digits)  # only the digits it has: no 9 on a D6
    return (f"{die.name} braille: standard UEB numbers, numeric indicator then digits "
            f"({letters}). Read each face with its bar below.")

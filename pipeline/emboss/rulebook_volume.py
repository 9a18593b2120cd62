"""The rulebook in braille: a game's rulebook text as a BANA-style UEB volume.

The text is parsed by :class:`engine.rulebook.Rulebook` (headings, paragraphs, list items,
with their line numbers) and each block is translated to UEB in the game's grade by
liblouis (:func:`pipeline.braille.translate.translate`): a heading becomes a centred heading,
a list item an item ("1-3", nested items two cells further in), every other paragraph a
"3-1" paragraph (:mod:`pipeline.emboss.bana`). Preliminary pages: a title page and a
transcriber's note page (title, source file, date, braille code and table, liblouis
version, the formats used).

A character liblouis cannot translate is left out of the braille and reported where it
stands in the rulebook (EM010, ``file:line:column`` and the code point), never dropped silently.
Where the rulebook comes from: ``--rulebook FILE``, else the game's ``rulebook:`` field
(relative to the game folder); a named file that is missing is EM011 (info) and the
volume is skipped.
"""

from __future__ import annotations

import louis

from engine.findings import Finding, Location, Severity
from engine.model import Deck
from engine.registry import declare
from engine.rulebook import Paragraph, Rulebook
from pipeline.braille.translate import ControlCharacter, UntranslatableCharacter, translate
from pipeline.emboss.bana import Item
from pipeline.emboss.volumes import Volume, book, title_page

UNTRANSLATABLE_RULEBOOK = declare(
    "EM010",
    "rulebook-untranslatable-character",
    Severity.warning,
    """A rulebook character that liblouis's UEB table cannot translate, left out of the rulebook volume.

    The finding points at the character (file:line:column) and names its code point, so the
    transcriber can replace it in the text (or accept the gap knowingly).

    Fails: a rulebook line "Roll ☃ twice" (U+2603 has no UEB braille).
    Passes: "Roll twice".
    """,
)
RULEBOOK_MISSING = declare(
    "EM011",
    "rulebook-file-missing",
    Severity.info,
    """The game's ``rulebook:`` names a file that is not in the game folder, so no rulebook volume is made.

    Fails: ``rulebook: rules/apprentice.txt`` with no such file next to game.yaml.
    Passes: the file exists (plain text or Markdown), or ``--rulebook FILE`` is given.
    """,
)


def _block_cells(para: Paragraph, rulebook: Rulebook, grade: int, findings: list[Finding]) -> str:
    """A paragraph's UEB cells; each untranslatable character is one EM010 finding and left out."""
    text = para.text
    for _ in range(len(text) + 1):
        try:
            return translate(text, grade)
        except (UntranslatableCharacter, ControlCharacter) as exc:
            char = exc.char
        for offset, ch in enumerate(para.text):
            if ch == char:
                line = para.line_at(offset)
                column = para.column_at(offset)
                findings.append(UNTRANSLATABLE_RULEBOOK.finding(
                    f"rulebook line {line.number}, column {column}: {char!r} (U+{ord(char):04X}) has no UEB braille; "
                    "left out of the rulebook volume",
                    Location(rulebook.path, line.number, column),
                    f"replace U+{ord(char):04X} in the rulebook with plain text"))
        text = text.replace(char, " ")
    return ""


def rulebook_items(rulebook: Rulebook, grade: int) -> tuple[list[Item], list[Finding]]:
    """The body items of a rulebook volume (headings, list items, paragraphs in order) and EM010 findings."""
    findings: list[Finding] = []
    items: list[Item] = []
    for para in rulebook.paragraphs():
        cells = _block_cells(para, rulebook, grade, findings)
        if not cells:
            continue
        first = para.first
        if first.heading:
            items.append(Item("heading", cells))
        elif first.bullet:
            items.append(Item("item", cells, level=min((first.indent or 0) // 2, 3)))
        else:
            items.append(Item("paragraph", cells))
    return items, findings


def rulebook_volume(deck: Deck, rulebook: Rulebook, source: str, width: int, height: int, date: str) -> tuple[Volume, list[Finding]]:
    """The rulebook volume for pages of ``width`` × ``height``, and its EM010 findings.

    ``source`` is the rulebook's file name as the transcriber's note states it.
    Raises :class:`pipeline.emboss.bana.BookFormatError` for a page too small for a book.
    """
    game = deck.game
    grade = game.braille.grade
    body, findings = rulebook_items(rulebook, grade)
    contracted = "contracted" if grade == 2 else "uncontracted"
    note = [
        f"Title: {game.title}, rulebook.",
        f"Source: the print rulebook text, file {source}.",
        f"Date of transcription: {date}.",
        f"Braille code: Unified English Braille, grade {grade} ({contracted}), translated by liblouis "
        f"{louis.version()} with the table en-ueb-g{grade}.ctb.",
        "Format: headings are centred; paragraphs begin in cell 3; list items begin in cell 1 with runover "
        "lines in cell 3; the braille page number is at the bottom right; p pages come before the text.",
    ]
    prelim = title_page(deck, "Rulebook", [f"Unified English Braille, grade {grade}. Transcribed by deckpress."])
    prelim.append(Item("heading", translate("Transcriber's Note", grade)))
    prelim += [Item("item", translate(line, grade)) for line in note]
    return book("rulebook", f"{game.title}: rulebook", prelim, body, width, height), findings

"""The braille companion volumes of a game: card reference, braille key and rulebook (BANA-style books).

- **Card reference**: every unique card's full print text in deck (print) order, entry N
  being the card's place in the deck, the number a card whose rules do not fit its braille
  box refers to ("See card reference N.", :mod:`pipeline.braille.layout`). Each entry is a
  centred heading "N. <card name>" (the braille name, in the game's name grade), then its
  class with indicator letter, copies, power, keywords and the full rules as a paragraph.
  Preliminary pages: a title page and the contents (entry, guide dots, page).
- **Braille key**: every code a reader of this game's cards and dice cannot know from UEB
  alone, generated from the data: the class indicators, each power value whose card cells
  differ from standard UEB (Apprentice's ⠼⠚ = 10, the expansion's ⠼⠴ = 0, ⠿ symbols), values
  that share cells, the Active/Passive indicators in the power position, each die's face
  cells, the card reference note. A game defines no abbreviations, so the key lists none.
- **Rulebook** (:mod:`pipeline.emboss.rulebook_volume`).

Text is UEB through liblouis (:func:`pipeline.braille.translate.translate`) in the game's
grade; pages are laid out by :mod:`pipeline.emboss.bana`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from engine.model import Card, Deck
from pipeline.braille.cells import BLANK
from pipeline.braille.dice import encode_die, key_text
from pipeline.braille.fields import indicator_note, standalone_letter
from pipeline.braille.layout import REFERENCE_TEXT
from pipeline.braille.power import PowerEncoding
from pipeline.braille.translate import ControlCharacter, UntranslatableCharacter, translate
from pipeline.emboss.bana import Book, Item, paginate_book

#: Meaning of a Power Crystal's mark in the power position (Power Crystal rulebook, "Power Circle").
POWER_MARKS = {"A": "Active: used once from the hand", "P": "Passive: stays in play until destroyed"}


@dataclass(frozen=True)
class Volume:
    """One companion volume laid out for a page format: ``name`` (file stem part, e.g.
    ``card-reference``), print ``title``, ``pages`` (rows of Unicode cells, page numbers
    included), ``preliminary`` (how many of them are p-numbered), and ``anchors`` (anchor →
    page label, e.g. ``"entry-12"`` → ``"7"``)."""

    name: str
    title: str
    pages: tuple[tuple[str, ...], ...]
    preliminary: int
    anchors: dict[str, str]


def safe_cells(text: str, grade: int) -> str:
    """``translate(text, grade)`` with any character liblouis cannot translate left out.

    Card text with such a character is already a located finding of the braille stage
    (BR002, BR008); the volume keeps the rest of the text rather than losing the entry.
    """
    for _ in range(len(text) + 1):
        try:
            return translate(text, grade)
        except (UntranslatableCharacter, ControlCharacter) as exc:
            text = text.replace(exc.char, " ")
    return ""


def book(name: str, title: str, preliminary: list[Item], body: list[Item], width: int, height: int,
         contents: Callable[[dict[str, str]], list[Item]] | None = None) -> Volume:
    """Lay out a volume: ``preliminary`` pages (p1 …) then, if given, ``contents(body_anchors)``
    on further p-pages, then ``body`` from page 1. Raises :class:`pipeline.emboss.bana.BookFormatError`
    for a page format too small for a book."""
    main = paginate_book(body, width, height)
    front = paginate_book(preliminary + (contents(main.anchors) if contents else []), width, height, "p", 1,
                          targets=main.anchors)
    return Volume(name, title, tuple(tuple(p) for p in front.pages + main.pages), len(front.pages),
                  {**front.anchors, **main.anchors})


def title_page(deck: Deck, volume_title: str, lines: list[str]) -> list[Item]:
    """A title page: the game title and volume title as centred headings, then plain lines, then a page break."""
    grade = deck.game.braille.grade
    items = [Item("heading", safe_cells(deck.game.title, grade)), Item("heading", safe_cells(volume_title, grade)),
             Item("blank")]
    items += [Item("line", safe_cells(line, grade)) for line in lines]
    return items + [Item("page")]


def _card_entry(card: Card, entry: int, deck: Deck) -> list[Item]:
    game = deck.game
    grade, name_grade = game.braille.grade, game.braille.name_grade or game.braille.grade
    cls = game.class_by_id(card.class_id)
    cls_text = f"Class: {cls.name} ({cls.indicator})." if cls else f"Class: {card.class_id}."
    facts = [cls_text, f"Copies: {card.copies}."]
    if card.power is not None:
        facts.append(f"Power: {card.power}.")
    if card.indicator:
        facts.append(f"Power position: {card.indicator} ({POWER_MARKS[card.indicator].split(':')[0]}).")
    if card.keywords:
        facts.append(f"Keyword{'s' if len(card.keywords) > 1 else ''}: {', '.join(card.keywords)}")
    heading = translate(f"{entry}.", 1) + BLANK + safe_cells(card.name, name_grade)
    items = [Item("heading", heading, anchor=f"entry-{entry}", keep=True)]  # an entry is not split across pages when it fits on one
    items += [Item("item", safe_cells(text, grade)) for text in facts]
    if card.rules:
        items.append(Item("paragraph", safe_cells(card.rules, grade)))
    return items


def card_reference(deck: Deck, width: int, height: int, date: str) -> Volume:
    """The card reference volume of a deck for pages of ``width`` cells × ``height`` lines.

    Entry N is ``deck.cards[N - 1]``; ``anchors["entry-N"]`` its body page label.
    """
    grade = deck.game.braille.grade
    n = len(deck.cards)
    prelim = title_page(deck, "Card Reference", [
        f"Every one of the {n} unique cards in print order, with its full print text.",
        f"A card whose rules do not fit its braille says \"{REFERENCE_TEXT.format(entry='N')}\": entry N here.",
        f"Unified English Braille, grade {grade}. Transcribed by deckpress, {date}."])
    body: list[Item] = []
    for entry, card in enumerate(deck.cards, 1):
        body += _card_entry(card, entry, deck)

    def contents(anchors: dict[str, str]) -> list[Item]:
        name_grade = deck.game.braille.name_grade or grade
        items = [Item("heading", safe_cells("Contents", grade))]
        return items + [Item("contents", translate(f"{e}.", 1) + BLANK + safe_cells(c.name, name_grade), target=f"entry-{e}")
                        for e, c in enumerate(deck.cards, 1)]

    return book("card-reference", f"{deck.game.title}: card reference", prelim, body, width, height, contents)


def key_entries(deck: Deck) -> list[tuple[str, str, str]]:
    """The braille key's entries as ``(section, cells, meaning in print)``, in key order.

    Sections: "Class indicators", "Power", "Power position", "Dice". Power lists each allowed
    value whose card cells differ from liblouis's standard UEB of the print value, grouped by
    cells (two values sharing cells are one entry naming both).
    """
    game = deck.game
    out: list[tuple[str, str, str]] = []
    for cls in game.classes:
        out.append(("Class indicators", safe_standalone(cls.indicator, deck), f"{cls.name} class"))
    power = PowerEncoding(game.power, game.braille.grade)
    by_cells: dict[str, list[str]] = {}
    for value in game.power.allowed():
        try:
            cells = power.encode(value)
        except ValueError:
            continue  # reported by the braille stage (BR004) and the power checks
        if cells != safe_cells(value.replace("-", "\u2212"), 1) and cells != safe_cells(value, game.braille.grade):
            by_cells.setdefault(cells, []).append(value)
    for cells, values in by_cells.items():
        out.append(("Power", cells, "power " + " or ".join(values)))
    for mark in sorted({c.indicator for c in deck.cards if c.indicator}):
        out.append(("Power position", safe_standalone(mark, deck), f"{mark}, {POWER_MARKS[mark]}"))
    for die in game.dice:
        faces, _ = encode_die(die)
        out += [("Dice", face.cells, f"{die.name} face {face.value}") for face in faces]
    return out


def safe_standalone(letter: str, deck: Deck) -> str:
    """:func:`standalone_letter` of the game, or ``""`` when the letter cannot be translated (BR002 says so)."""
    try:
        return standalone_letter(letter, deck.game.braille)
    except ValueError:
        return ""


def braille_key(deck: Deck, width: int, height: int, date: str) -> Volume:
    """The braille key volume of a deck (see :func:`key_entries`) for pages of ``width`` × ``height``."""
    game = deck.game
    grade = game.braille.grade
    prelim = title_page(deck, "Braille Key", [
        "The codes on the cards and dice that standard Unified English Braille does not explain.",
        f"Unified English Braille, grade {grade}. Transcribed by deckpress, {date}."])
    body: list[Item] = []
    section = None
    notes = {"Class indicators": indicator_note(game.braille),
             "Power": "The power is the last braille on a card. These values are written differently from standard UEB numbers.",
             "Power position": "A Power Crystal has no power; its mark stands in the power position, last on the card.",
             "Dice": ""}
    for name, cells, meaning in key_entries(deck):
        if name != section:
            section = name
            body.append(Item("heading", safe_cells(name, grade)))
            if notes[name]:
                body.append(Item("paragraph", safe_cells(notes[name], grade)))
            if name == "Dice":
                body += [Item("paragraph", safe_cells(key_text(d), grade)) for d in game.dice]
        body.append(Item("item", cells + BLANK + safe_cells(meaning, grade)))
    body.append(Item("heading", safe_cells("Card reference", grade)))
    body.append(Item("paragraph", safe_cells(
        f"\"{REFERENCE_TEXT.format(entry='N')}\" on a card: its rules are too long for the card; entry N of the "
        "card reference volume holds them in full. Print uses no abbreviations, and neither does the braille.", grade)))
    return book("braille-key", f"{game.title}: braille key", prelim, body, width, height)

"""The fields of a card's braille block, translated: indicator, name, keywords, rules, power.

Each field is translated on its own (:func:`pipeline.braille.translate.translate`) and
checked: an untranslatable character (BR002) or a control character (BR008) leaves the
field out; a number that does not read back from the braille (BR007,
:mod:`pipeline.braille.roundtrip`) keeps the field but is an error, so wrong braille
never ships silently. Every finding carries the field's file:line.

The class indicator and a Power Crystal's A/P mark are single capital letters standing
alone. In a grade 2 (contracted) game a capital letter alone reads as a wordsign (⠠⠑
"Every", ⠠⠋ "From", ⠠⠏ "People"), so it takes the grade 1 symbol indicator: ⠰⠠⠑
(UEB Rules 2013 §5.7; liblouis's ``en-ueb-g2.ctb`` writes it). A grade 1 game needs none
(⠠⠑). A game that deliberately wants the bare capital sets ``braille.class_indicator:
capital-only``; the archive's braille key then says so. The A/P mark goes with the power,
last in the block, where print has it (the "Power Circle", Power Crystal rulebook).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.findings import Finding, Location, Severity
from engine.model import BrailleSettings, Card, Game
from engine.registry import declare
from pipeline.braille.cells import BLANK
from pipeline.braille.power import PowerEncoding
from pipeline.braille.roundtrip import number_mismatch
from pipeline.braille.translate import ControlCharacter, UntranslatableCharacter, translate

UNTRANSLATABLE = declare(
    "BR002",
    "untranslatable-character",
    Severity.error,
    """Card text holds a character the UEB table cannot translate (liblouis would emit an 8-dot escape).

    The field is left out of the braille block until the character is replaced.

    Fails: ``name: "Snow ☃ Sprite"`` (U+2603 has no UEB braille).
    Passes: ``name: "Snow Sprite"``.
    """,
)
POWER_MISSING = declare(
    "BR004",
    "power-braille-missing",
    Severity.error,
    """A card's power cannot be written with the game's braille power scheme, so the block lacks its power cells.

    Fails: ``power: 12`` in a game whose scheme allows 1-11 and "?".
    Passes: ``power: 11`` (⠼⠅ in Apprentice's single-letter style).
    """,
)
NO_CLASS = declare(
    "BR006",
    "class-indicator-missing",
    Severity.error,
    """A card's class is not defined by the game, so its braille block has no class indicator.

    Fails: ``class: embr`` when the game defines ``ember``.
    Passes: ``class: ember`` (indicator "E", braille ⠰⠠⠑ in a grade 2 game).
    """,
)
NUMBER_MISREAD = declare(
    "BR007",
    "braille-number-misread",
    Severity.error,
    """A number in card text does not read back from its braille (liblouis back-translation differs).

    Typically a letter a–j after digits without the grade 1 indicator ⠰, which reads as
    more digits. deckpress corrects the known liblouis 3.24–3.27 fault itself; this finding
    catches any mis-translation that remains, instead of shipping wrong braille.

    Fails: braille ⠼⠙⠉ (reads "43") for the print "4C".
    Passes: "DRAW 4C TILES TODAY" as ⠠⠠⠠⠙⠗⠁⠺⠀⠼⠙⠰⠉⠀⠞⠊⠇⠑⠎⠀⠞⠙⠠⠄.
    """,
)
CONTROL_CHARACTER = declare(
    "BR008",
    "control-character",
    Severity.error,
    """Card text holds a control character (NUL, ESC, DEL, …), which has no braille and cut the translation short.

    The field is left out of the braille block until the character is removed.

    Fails: ``rules: "Draw a card.\\x00 Then discard."`` (a NUL, often pasted from a PDF).
    Passes: ``rules: "Draw a card. Then discard."``.
    """,
)


@dataclass(frozen=True)
class Field:
    """One field of the block: its name, its phrases of cells (wrapped together), its source and UEB grade."""

    name: str
    phrases: list[str]
    location: Location
    grade: int = 2


def standalone_letter(letter: str, braille: BrailleSettings) -> str:
    """The cells of a capital letter standing alone (class indicator, A/P mark) in a game.

    ⠰⠠⠑ for "E" in a grade 2 game (the grade 1 symbol indicator, UEB §5.7), ⠠⠑ in a grade 1
    game or with ``braille.class_indicator: capital-only``. ``"A"`` is ⠠⠁ either way (the
    letter a alone is no wordsign). Raises the translator's ValueError for a bad character.
    """
    grade = 1 if braille.class_indicator == "capital-only" else braille.grade
    return translate(letter, grade)


class _Translator:
    """Translates one card's fields, turning problems into located findings."""

    def __init__(self, card: Card, findings: list[Finding]) -> None:
        self.card = card
        self.findings = findings

    def cells(self, field: str, text: str, grade: int, where: Location, letter_of: BrailleSettings | None = None) -> str | None:
        card = self.card.id
        try:
            cells = standalone_letter(text, letter_of) if letter_of else translate(text, grade)
        except ControlCharacter as exc:
            self.findings.append(CONTROL_CHARACTER.finding(
                f"{field} of card {card}: control character U+{exc.codepoint:04X} at character {exc.position + 1}",
                where, f"delete U+{exc.codepoint:04X} from the card's {field} (it is invisible in most editors)"))
            return None
        except UntranslatableCharacter as exc:
            self.findings.append(UNTRANSLATABLE.finding(
                f"{field} of card {card}: cannot translate {exc.char!r} (U+{exc.codepoint:04X}) to UEB braille",
                where, f"replace U+{exc.codepoint:04X} in the card's {field} with plain text"))
            return None
        problem = number_mismatch(text, cells, grade)
        if problem:
            self.findings.append(NUMBER_MISREAD.finding(
                f"{field} of card {card}: the braille {cells} does not read back as the print: {problem}",
                where, "report it with the liblouis version; meanwhile give the card a braille_rules: with the number spelled apart"))
        return cells


def card_fields(card: Card, game: Game, power: PowerEncoding, findings: list[Finding], rules_text: str | None = None) -> list[Field]:
    """The block's fields of ``card`` in order, translated; problems go to ``findings`` (BR002, BR004, BR006–BR008).

    ``rules_text`` replaces the card's rules in braille (the short reference to the card
    reference volume, :mod:`pipeline.braille.layout`); by default it is ``card.braille_rules``
    when the designer set it, else the print ``card.rules``.
    """
    grade = game.braille.grade
    name_grade = game.braille.name_grade or grade
    at = lambda field: card.where(field).with_card(card.id)  # noqa: E731
    tr = _Translator(card, findings)
    out: list[Field] = []
    cls = game.class_by_id(card.class_id)
    if cls is None:
        findings.append(NO_CLASS.finding(f"card {card.id} names class {card.class_id!r}, which the game does not define", at("class_id"), "use one of the class ids in game.yaml"))
    else:
        mark = tr.cells("class indicator", cls.indicator, grade, cls.where("indicator").with_card(card.id), game.braille)
        if mark:
            out.append(Field("indicator", [mark], at("class_id")))
    name = tr.cells("name", card.name, name_grade, at("name"))
    if name:
        out.append(Field("name", [name], at("name"), name_grade))
    keywords = [k for k in (tr.cells("keyword", kw, grade, at("keywords")) for kw in card.keywords) if k]
    if keywords:
        out.append(Field("keywords", keywords, at("keywords"), grade))
    rules_field = "braille_rules" if card.braille_rules is not None and rules_text is None else "rules"
    if rules_text is None:
        rules_text = card.braille_rules if card.braille_rules is not None else card.rules
    if rules_text and rules_text.strip():
        rules = tr.cells("rules text", rules_text, grade, at(rules_field))
        if rules:
            out.append(Field("rules", [rules], at(rules_field), grade))
    last: list[str] = []
    if card.power is not None:
        try:
            last.append(power.encode(card.power))
        except ValueError as exc:
            findings.append(POWER_MISSING.finding(f"card {card.id}: power {card.power!r} has no braille: {exc}", at("power"), "use a power value the game's power scheme allows"))
    if card.indicator:
        mark = tr.cells("power indicator", card.indicator, grade, at("indicator"), game.braille)
        last += [mark] if mark else []
    if last:
        out.append(Field("power", [BLANK.join(last)], at("indicator" if card.indicator else "power")))
    return out


def indicator_note(braille: BrailleSettings) -> str:
    """One sentence for the braille key on how the class indicator is written in this game."""
    if braille.class_indicator == "capital-only":
        return ("This game asks for the class indicator as capital sign and letter only (⠠⠑ for E), "
                "without the grade 1 symbol indicator ⠰ that UEB puts before a letter standing alone.")
    if braille.grade == 1:
        return "The class indicator is capital sign and letter (⠠⠑ for E); the braille is uncontracted."
    return ("The class indicator is a letter standing alone: grade 1 symbol indicator, capital sign, "
            "letter (⠰⠠⠑ for E), so it cannot be read as a contraction (⠠⠑ alone is \"Every\").")

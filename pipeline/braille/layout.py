"""The braille block of every card: UEB cells word-wrapped into the card layout's braille box.

Block content, top to bottom (DESIGN.md §3; Apprentice and Enchant rulebooks, "Cards"):

1. ``indicator`` — the class indicator, the first braille symbol at the top of the card:
   the class's ``indicator`` letter standing alone, ⠰⠠⠑ for "E" in a grade 2 game (grade 1
   symbol indicator, capital sign, letter; :mod:`pipeline.braille.fields`).
2. ``name`` — the card name, in ``braille.name_grade`` when the game sets it, else ``grade``.
3. ``keywords`` — in printed order; a keyword is never broken across lines unless it
   alone is longer than a line; several keywords share a line when they fit.
4. ``rules`` — the print ``card.rules`` in full by default. A designer may set
   ``card.braille_rules`` (``""`` leaves rules out); a braille text that is not the print
   text is an abridged card (BR009, warning) naming the print words it leaves out and
   any words print does not use. When the full print rules do not fit the box, the card
   carries :data:`REFERENCE_TEXT` instead ("See card reference 12.", print words,
   no abbreviation) and the card reference volume (:mod:`pipeline.emboss.volumes`, entry
   12: the card's place in deck order) holds the full text; BR009 says so.
5. ``power`` — the power cells (:mod:`pipeline.braille.power`) on the last line, so they
   are the final cells of the block as the rulebooks ask; a Power Crystal's Active/Passive
   mark (card ``indicator`` A or P) stands there too, as it stands in the print's power
   position ("Power Circle", Power Crystal rulebook): ⠠⠁ or ⠰⠠⠏.

Every field starts on a new line. Lines break only at blank cells, so a word and a
numeric indicator with its digits stay together and a line exactly full stays one line.
A single word longer than a line (rare at 10 cells) is divided with the UEB hyphen ⠤ at
the end of the line (:mod:`pipeline.braille.divide`: at a hyphenation point of liblouis's
patterns, never beside an apostrophe or after an indicator cell, a divided number repeating
⠼) and reported (BR003).
Overflow — more lines than the box holds — is reported (BR001) with the cells and lines
needed and available; the block keeps every line (``fits`` is False), it is never
truncated silently. Renderers draw ``lines[:lines_available]``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from functools import cached_property

from engine.findings import Finding, Location, Severity
from engine.model import Card, Deck, Game
from engine.registry import declare
from pipeline.braille.cells import BLANK
from pipeline.braille.geometry import PROFILES, Dot, GeometryProfile, capacity, dot_centres, get_profile
from pipeline.braille.divide import divide
from pipeline.braille.fields import Field, card_fields
from pipeline.braille.power import PowerEncoding
from pipeline.common.layout import CardLayout, load_layout

OVERFLOW = declare(
    "BR001",
    "braille-overflow",
    Severity.error,
    """A card's braille block needs more lines than the layout's braille box holds.

    The block is class indicator, name, keywords, rules text and power, each field on a
    new line, word-wrapped to the cells per line of the geometry profile. Nothing is cut
    off silently: shorten the text or give the card a shorter ``braille_rules``.

    Fails: a Claim artifact whose paragraph of rules needs 14 lines in a 10 × 9 box.
    Passes: the same card with ``braille_rules: "Swap two cards."`` (5 lines).
    """,
)
WORD_SPLIT = declare(
    "BR003",
    "braille-word-split",
    Severity.warning,
    """A single braille word is longer than a line of the braille box and was divided with a hyphen.

    Fails: "Enchantresses" (12 cells) in a 10-cell line, divided at a hyphenation point as ⠠⠢⠡⠁⠝⠞⠗⠑⠎⠤ / ⠎⠑⠎.
    Passes: every word at most 10 cells, e.g. "Apprentice" (⠠⠁⠏⠏⠗⠢⠞⠊⠉⠑, exactly 10 cells).
    """,
)
UNKNOWN_PROFILE = declare(
    "BR005",
    "unknown-geometry-profile",
    Severity.error,
    """The game's ``braille.geometry`` names no known dot geometry profile; spec800 is used instead.

    The finding sits on the ``geometry:`` line and names the closest known profile.

    Fails: ``braille: {geometry: spec-800}`` (did you mean spec800?).
    Passes: ``braille: {geometry: spec800}`` (or ada-signage, marburg-medium, california).
    """,
)
ABRIDGED = declare(
    "BR009",
    "braille-abridged",
    Severity.warning,
    """A card's braille does not carry its full print rules text.

    Either the designer gave a ``braille_rules`` that differs from the print ``rules``
    (the finding names the print words the braille leaves out, and words the braille uses
    that print does not, such as an invented abbreviation), or the full rules do not fit
    the braille box, so the card carries "See card reference N." and the card
    reference volume holds the full text as entry N. A braille reader must get the same
    information as a sighted player: keep the full text where it fits.

    Fails: ``braille_rules: "P2: 1 more of a faction"`` for a 139-character print rule
    (leaves out "in", "phase", "two", … and adds "p2").
    Passes: no ``braille_rules`` and rules that fit the 10 × 9 box, e.g. Potion
    "Adds 6 to the value of the card you play it with." (5 lines).
    """,
)
#: What a card carries in place of rules that do not fit: print words, no abbreviation.
REFERENCE_TEXT = "See card reference {entry}."
_WORD = re.compile(r"[^\W_]+(?:['\u2019][^\W_]+)*")
#: Minimum cells per line: a hyphenated piece needs at least one cell plus ⠤.
MIN_CELLS_PER_LINE = 3


@dataclass(frozen=True)
class BrailleBlock:
    """The laid-out braille of one card.

    ``lines`` are Unicode six-dot cells (U+2800–U+283F), every needed line, none longer
    than ``cells_per_line``; ``lines_available`` is how many lines the box holds;
    ``origin_mm`` the top-left of the braille box in mm from the TRIM's top-left
    (x right, y down); ``line_fields`` names the field each line comes from
    ("indicator", "name", "keywords", "rules", "power"); ``entry`` the card's entry number in
    the card reference volume (1-based, deck order); ``full_text`` False when the rules in
    braille are not the full print rules (a designer's ``braille_rules``, or the reference
    :data:`REFERENCE_TEXT` because the full text does not fit).
    """

    card_id: str
    lines: tuple[str, ...]
    cells_per_line: int
    lines_available: int
    origin_mm: tuple[float, float]
    profile: GeometryProfile
    line_fields: tuple[str, ...] = ()
    entry: int = 0
    full_text: bool = True

    @property
    def fits(self) -> bool:
        """True when every line fits the box (``len(lines) <= lines_available``)."""
        return len(self.lines) <= self.lines_available

    @property
    def cells_needed(self) -> int:
        """Cells written, blanks between words included."""
        return sum(len(line) for line in self.lines)

    def dots(self) -> list[Dot]:
        """Dot centres (mm from the trim's top-left) of the lines that fit, in reading order (a new list each call)."""
        return list(self._dots)

    @cached_property
    def _dots(self) -> tuple[Dot, ...]:
        # Once per block: the UV layer, dot map, height maps, mask, plates and clearance check
        # each asked again (0.27 ms a card each time, five times in the tactile stage).
        return tuple(dot_centres(self.lines[: self.lines_available], self.profile, self.origin_mm))


class BrailleBoxTooSmall(ValueError):
    """The layout's braille box holds fewer than :data:`MIN_CELLS_PER_LINE` cells per line or no line."""


def wrap(phrases: list[str], width: int, grade: int = 2) -> tuple[list[str], list[str]]:
    """Word-wrap phrases of cells into lines of at most ``width`` cells.

    A phrase (a word, or a keyword of several words) is kept whole on one line when it
    fits a line; longer phrases break at their blank cells; a single word longer than a
    line is divided by :func:`pipeline.braille.divide.divide` (liblouis hyphenation patterns
    at ``grade``, never at an apostrophe, ⠼ repeated in a divided number). Lines never start or end with a blank cell. Returns
    ``(lines, divided_words)``. Raises ValueError when ``width < MIN_CELLS_PER_LINE``.
    """
    if width < MIN_CELLS_PER_LINE:
        raise ValueError(f"cannot wrap braille into lines of {width} cells (at least {MIN_CELLS_PER_LINE} needed)")
    lines: list[str] = []
    divided: list[str] = []
    current = ""
    for phrase in (p.strip(BLANK) for p in phrases):
        if not phrase:
            continue
        if len(phrase) > width:
            words = [w for w in phrase.split(BLANK) if w]
            if len(words) > 1:
                sub, more = wrap(words, width, grade)
            else:
                sub, more = divide(phrase, width, grade), [phrase]
            divided += more
            if current:
                lines.append(current)
            lines += sub[:-1]
            current = sub[-1]
        elif not current:
            current = phrase
        elif len(current) + 1 + len(phrase) <= width:
            current += BLANK + phrase
        else:
            lines.append(current)
            current = phrase
    if current:
        lines.append(current)
    return lines, divided


def words(text: str | None) -> list[str]:
    """The words of a text, case-folded, in order: ``words("Foe's card -3") == ["foe's", "card", "3"]``."""
    return [w.casefold().replace("\u2019", "'") for w in _WORD.findall(text or "")]


def left_out(print_text: str | None, braille_text: str | None) -> tuple[list[str], list[str]]:
    """``(print words the braille text lacks, braille words print lacks)``, each in order, once each.

    Words are compared as :func:`words` (case and punctuation ignored); a word the print
    uses twice counts as present when the braille uses it at least once.
    """
    ours, theirs = words(print_text), words(braille_text)
    missing = list(dict.fromkeys(w for w in ours if w not in set(theirs)))
    added = list(dict.fromkeys(w for w in theirs if w not in set(ours)))
    return missing, added


def _lay(card: Card, game: Game, power: PowerEncoding, cpl: int, lines_available: int,
         findings: list[Finding], rules_text: str | None) -> tuple[list[str], list[str], Field | None]:
    """The wrapped lines of a card, the field of each line and the field where it overflows (None when it fits)."""
    lines: list[str] = []
    line_fields: list[str] = []
    overflow_field: Field | None = None
    for field in card_fields(card, game, power, findings, rules_text):
        wrapped, divided = wrap(field.phrases, cpl, field.grade)
        for word in divided:
            findings.append(WORD_SPLIT.finding(
                f"{field.name} of card {card.id}: the word {word} is {len(word)} cells, longer than a line of {cpl} cells; divided with a hyphen",
                field.location, "use a shorter word or a wider braille box"))
        if overflow_field is None and len(lines) + len(wrapped) > lines_available:
            overflow_field = field
        lines += wrapped
        line_fields += [field.name] * len(wrapped)
    return lines, line_fields, overflow_field


def _block(card: Card, entry: int, game: Game, power: PowerEncoding, cpl: int, lines_available: int,
           origin: tuple[float, float], profile: GeometryProfile, findings: list[Finding]) -> BrailleBlock:
    local: list[Finding] = []
    lines, line_fields, overflow_field = _lay(card, game, power, cpl, lines_available, local, None)
    full_text = card.braille_rules is None or left_out(card.rules, card.braille_rules) == ([], [])
    at = card.where("braille_rules" if card.braille_rules is not None else "rules").with_card(card.id)
    if overflow_field is not None and card.braille_rules is None and (card.rules or "").strip():
        local = []
        lines, line_fields, overflow_field = _lay(card, game, power, cpl, lines_available, local,
                                                  REFERENCE_TEXT.format(entry=entry))
        full_text = False
        local.append(ABRIDGED.finding(
            f"card {card.id}: its full rules text ({len(words(card.rules))} words) does not fit the braille box of "
            f"{lines_available} lines of {cpl} cells; the card carries \"{REFERENCE_TEXT.format(entry=entry)}\" and the "
            f"card reference volume holds the full text as entry {entry}", at,
            "shorten the print rules to fit, or keep the reference (the card reference volume is written by the emboss stage)"))
    elif not full_text:
        missing, added = left_out(card.rules, card.braille_rules)
        extra = f"; it uses words print does not: {', '.join(added)}" if added else ""
        local.append(ABRIDGED.finding(
            f"card {card.id}: braille_rules abridges the print rules, leaving out {len(missing)} print words "
            f"({', '.join(missing) or 'none'}){extra}; the full text is in the card reference volume, entry {entry}", at,
            "delete braille_rules so the braille carries the print rules (or the card reference)"))
    findings += local
    block = BrailleBlock(card.id, tuple(lines), cpl, lines_available, origin, profile, tuple(line_fields), entry, full_text)
    if overflow_field is not None:
        findings.append(OVERFLOW.finding(
            f"braille of card {card.id} needs {len(lines)} lines ({block.cells_needed} cells) but the box holds "
            f"{lines_available} lines of {cpl} cells ({lines_available * cpl} cells); it overflows in the {overflow_field.name}",
            overflow_field.location,
            "shorten the name or keywords; the rules already moved to the card reference" if not full_text
            else "shorten the text, or give the card a shorter braille_rules: for its braille"))
    return block


def profile_for(game: Game, override: str | None = None) -> tuple[GeometryProfile, list[Finding]]:
    """The dot geometry profile a build of ``game`` uses, and the findings about the choice.

    ``override`` is a profile name the user gave on the command line (``--geometry``); it
    wins over the game's ``braille.geometry`` and an unknown one raises ValueError listing
    the known names (a usage error, not card data). Without it, the game's profile is
    used; an unknown name there gives a BR005 finding located at the ``geometry:`` field
    (with the closest known name, if any) and :data:`PROFILES` ``["spec800"]`` instead.
    This is the one place a geometry name becomes a profile for the stages and commands.
    """
    if override is not None:
        return get_profile(override), []
    name = game.braille.geometry
    if name in PROFILES:
        return PROFILES[name], []
    close = difflib.get_close_matches(name, list(PROFILES), n=1, cutoff=0.6)
    hint = f"did you mean {close[0]}? " if close else ""
    finding = UNKNOWN_PROFILE.finding(
        f"unknown braille geometry profile {name!r}; known: {', '.join(PROFILES)}; spec800 is used",
        game.braille.where("geometry"), f"{hint}set braille.geometry to a known profile")
    return PROFILES["spec800"], [finding]


def layout_deck(deck: Deck, layout: CardLayout | None = None, profile: GeometryProfile | None = None) -> tuple[dict[str, BrailleBlock], list[Finding]]:
    """Lay out the braille block of every card of a deck.

    ``layout`` defaults to :func:`pipeline.common.layout.load_layout` (its ``braille`` box, in pt
    from the trim's top-left); ``profile`` to :func:`profile_for` the game (BR005 when unknown).
    Cells per line and lines come from :func:`geometry.capacity` of the box in mm
    (10 × 9 at spec800 on the shipped 3×5 in layout).

    Returns ``({card_id: BrailleBlock}, findings)`` with one block per card id in deck
    order; findings are BR001–BR009. Raises :class:`BrailleBoxTooSmall` when the box
    holds fewer than 3 cells per line or no line at all (a template error, not card data).
    Translation runs in the calling thread (liblouis: one thread per process).
    """
    game = deck.game
    findings: list[Finding] = []
    if profile is None:
        profile, findings = profile_for(game)
    layout = layout or load_layout()
    x, y, width, height = layout.braille.mm()
    cpl, lines_available = capacity(width, height, profile)
    if cpl < MIN_CELLS_PER_LINE or lines_available < 1:
        raise BrailleBoxTooSmall(
            f"the braille box of layout {layout.name} ({width:.1f} × {height:.1f} mm) holds {cpl} cells × {lines_available} lines "
            f"at {profile.name}; at least {MIN_CELLS_PER_LINE} cells and 1 line are needed")
    power = PowerEncoding(game.power, game.braille.grade)
    blocks: dict[str, BrailleBlock] = {}
    for entry, card in enumerate(deck.cards, 1):
        blocks[card.id] = _block(card, entry, game, power, cpl, lines_available, (x, y), profile, findings)
    return blocks, findings

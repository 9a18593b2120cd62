"""Packaging data: the tuck boxes a game ships (``packaging:`` in ``game.yaml``).

A game lists its boxes and the card stock they are sized for::

    packaging:
      caliper: 0.45mm     # one printed card, braille dots included (a stack of 10 measured, / 10)
      clearance: 2mm      # added to the inside width, height and depth
      age: "5+"           # printed on the box when the rulebook states it
      boxes:
        - {class: ember}              # one class deck
        - {deck: power-crystal}       # a separate draw deck (composition.decks, or a class's deck:)
        - {id: enchant, deck: main, colours: enchant}   # every card of the main deck

A box names a class (``class``) or a draw deck (``deck``; ``main`` is every class without
a ``deck:`` of its own); ``colours`` names the class whose palette and emblem it wears
(default: its class, or the first class of its deck). The pipeline's box stage
(:mod:`pipeline.boxes`) sizes each box from the cards it holds: inside width and height
= card trim + clearance, inside depth = printed cards × caliper + clearance.

Errors: a caliper outside 0.1–1.0 mm is a DA003 at its line (pydantic, through
:mod:`engine.validation`); a box naming a class or deck the game does not have is BX001
(:func:`reference_findings`), both located at the YAML line.
"""

from __future__ import annotations

from typing import Iterable

from pydantic import Field, field_validator, model_validator

from engine.fields import Length, Located, Text, slug
from engine.findings import Finding, Severity
from engine.registry import declare
from engine.units import mm_to_pt, pt_to_mm

#: Card stock calipers deckpress accepts, mm: thinner than 0.1 mm is paper, thicker than 1 mm is board.
MIN_CALIPER_MM, MAX_CALIPER_MM = 0.1, 1.0
#: Largest clearance, mm: beyond this the cards rattle in the box.
MAX_CLEARANCE_MM = 10.0
#: The deck of every class without a ``deck:`` of its own (engine.game.CardClass.deck's default).
MAIN_DECK = "main"

UNKNOWN_CONTENTS = declare(
    "BX001",
    "box-unknown-contents",
    Severity.error,
    """A box in ``packaging.boxes`` names a class, deck or colours class the game does not have.

    The box is sized from the cards it holds; a class or deck that does not exist holds none.

    Fails: ``- {class: embr}`` in a game whose classes are ember, forest, glacier, spirit.
    Passes: ``- {class: ember}``; ``- {deck: power-crystal}`` where a class has ``deck: power-crystal``.
    """,
)


class BoxSpec(Located):
    """One tuck box: the class (``class``) or draw deck (``deck``) it holds, and the class it wears (``colours``).

    ``id`` names the box's files (``<game>-box-<id>.pdf``); by default the class or deck id.
    """

    id: str | None = None
    class_id: str | None = Field(default=None, alias="class")
    deck: str | None = None
    colours: str | None = None
    name: Text | None = None

    @field_validator("id", "class_id", "deck", "colours")
    @classmethod
    def _slug(cls, value: str | None) -> str | None:
        return None if value is None else slug(value, "ember")

    @model_validator(mode="after")
    def _one_holding(self) -> "BoxSpec":
        if (self.class_id is None) == (self.deck is None):
            raise ValueError("a box holds one class (class: ember) or one deck (deck: main), not both or neither")
        return self

    @property
    def box_id(self) -> str:
        """The id naming the box's files: ``id``, else the class or deck id."""
        return self.id or self.class_id or self.deck or "box"


class Packaging(Located):
    """The game's boxes and the card stock they are sized for (module docs).

    ``caliper`` and ``clearance`` are lengths (stored in pt); ``age`` is printed as written
    ("5+"), nothing when the rulebook states no age.
    """

    caliper: Length
    clearance: Length = mm_to_pt(2.0)
    age: Text | None = None
    boxes: list[BoxSpec] = Field(min_length=1)

    @field_validator("caliper")
    @classmethod
    def _caliper(cls, value: float) -> float:
        mm = pt_to_mm(value)
        if not MIN_CALIPER_MM - 1e-9 <= mm <= MAX_CALIPER_MM + 1e-9:
            raise ValueError(f"a card's caliper is {MIN_CALIPER_MM:g}-{MAX_CALIPER_MM:g} mm (card stock), got {mm:g} mm")
        return value

    @field_validator("clearance")
    @classmethod
    def _clearance(cls, value: float) -> float:
        mm = pt_to_mm(value)
        if not 0 <= mm <= MAX_CLEARANCE_MM + 1e-9:
            raise ValueError(f"a box's clearance is 0-{MAX_CLEARANCE_MM:g} mm, got {mm:g} mm")
        return value


def deck_names(class_decks: Iterable[str], composition_decks: Iterable[str]) -> set[str]:
    """Every draw deck a box may name: the classes' ``deck`` values (``main`` among them) and ``composition.decks``."""
    return set(class_decks) | set(composition_decks)


def reference_findings(packaging: Packaging | None, class_ids: list[str], decks: set[str]) -> list[Finding]:
    """BX001 at each box field naming a class or deck outside ``class_ids`` / ``decks``, and at
    a second box with one id (both would write one file). ``[]`` without packaging."""
    if packaging is None:
        return []
    out: list[Finding] = []
    known = f"classes: {', '.join(class_ids)}"
    seen: dict[str, BoxSpec] = {}
    for box in packaging.boxes:
        for field, value in (("class_id", box.class_id), ("colours", box.colours)):
            if value is not None and value not in class_ids:
                out.append(UNKNOWN_CONTENTS.finding(f"box {box.box_id!r}: no class {value!r} in this game", box.where(field), known))
        if box.deck is not None and box.deck not in decks:
            out.append(UNKNOWN_CONTENTS.finding(f"box {box.box_id!r}: no deck {box.deck!r} in this game", box.where("deck"),
                                                f"decks: {', '.join(sorted(decks))}"))
        if box.box_id in seen:
            out.append(UNKNOWN_CONTENTS.finding(f"two boxes have the id {box.box_id!r}; both would be written as one file",
                                                box.where(), "give the second box its own id:"))
        seen.setdefault(box.box_id, box)
    return out

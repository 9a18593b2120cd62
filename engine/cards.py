"""The card models: one unique card face (:class:`Card`) and the shape of ``cards.yaml``."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Literal

from pydantic import BeforeValidator, Field, WithJsonSchema, field_validator

from engine.fields import Count, Located, Text, slug
from engine.limits import MAX_COPIES

def _to_text(value: object) -> object:
    """YAML reads ``power: 7`` as an int; power values are kept as text ("7", "?", "x2")."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return str(value)
    return value


class Provenance(str, Enum):
    """Where a card comes from: named by the rulebook, or supplied by us to make the counts hold."""

    rulebook = "rulebook"
    provisional = "provisional"


class ImageDescription(Located):
    """The art's description: ``alt`` (short, ≤ 150 characters) and ``long`` (general to specific)."""

    alt: str
    long: str


class Card(Located):
    """One unique card face (``copies`` says how many are printed).

    ``power`` is text ("7", "?", "E", "x2") or None for cards without one;
    ``keywords`` are in printed order; ``indicator`` is the Power Crystal A/P mark;
    ``rules`` is rules text where the card carries it; ``braille_rules`` a shorter
    form for the braille block when the full text cannot fit the braille box (an
    empty string leaves rules text out of the braille; the keyword carries it);
    ``image`` a path to art
    relative to the game folder; ``ignore`` lists rule codes or names accepted
    for this card.
    """

    id: str
    name: Text
    class_id: str = Field(alias="class")
    kind: str
    power: Annotated[str | None, BeforeValidator(_to_text),
                     WithJsonSchema({"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]})] = None
    keywords: list[str] = Field(default_factory=list)
    indicator: Literal["A", "P"] | None = None
    copies: Count = Field(default=1, ge=1, le=MAX_COPIES)  # engine.limits: one press-sheet face per copy
    rules: str | None = None
    braille_rules: str | None = None
    image: str | None = None
    description: ImageDescription
    provenance: Provenance
    ignore: list[str] = Field(default_factory=list)

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slug(value, "forest-apprentice")

    @field_validator("image")
    @classmethod
    def _inside_game_folder(cls, value: str | None) -> str | None:
        """A relative path without ``..``: the game folder carries its art (a symlink out of it
        is refused when the art is read, PR003)."""
        if value is None:
            return value
        parts = value.replace("\\", "/").split("/")
        if value.startswith(("/", "\\", "~")) or (len(value) > 1 and value[1] == ":") or ".." in parts:
            raise ValueError(f"image is a path inside the game folder such as 'art/{{id}}.png' (no absolute path, no '..'), got {value!r}")
        return value


class CardsFile(Located):
    """The shape of ``cards.yaml``: a list of cards."""

    cards: list[Card]

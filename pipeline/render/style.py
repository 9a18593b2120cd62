"""The print design of a card layout template: text styles, strokes and which box each element uses.

A layout YAML (templates/layouts/*.yaml, read by :mod:`pipeline.common.layout`) carries, beside
its ``boxes``, three print sections, all with units in the data:

- ``text``: one style per text element (``weight`` regular or bold, ``size``, ``min_size``
  (18 pt when omitted), ``leading``, ``align``, ``valign``). A size under 18 pt is refused.
- ``strokes``: line widths of the frame, the art oval and the emblem rings.
- ``faces``: for each face (``front-art`` for cards without rules text, ``front-rules`` for
  cards with it, ``back``) the box each element is drawn in, by box name.

:func:`design_for` validates all of it against the layout's boxes and raises
:class:`LayoutError` naming the template and the field.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from engine.model import Length
from pipeline.common.layout import CardLayout
from pipeline.render.textfit import MIN_TEXT_PT

#: Elements a face may place, and which of them are text (need a style in ``text``).
FRONT_ELEMENTS = {"emblem", "power", "indicator", "art", "name", "keywords", "rules"}
BACK_ELEMENTS = {"emblem", "class_name", "title"}
#: Text styles the drawing code uses (element name → what it styles).
TEXT_STYLES = {
    "power": "the power value, top right",
    "indicator": "the A/P letter of a Power Crystal",
    "indicator_label": "the word under it (Active, Passive)",
    "emblem": "the class indicator letter in the emblem badge",
    "name": "the card name",
    "keywords": "the keywords (also the heading of the rules box)",
    "rules": "rules text",
    "art_emblem": "the emblem's name in placeholder art",
    "placeholder": "the 'placeholder art' mark",
    "back_letter": "the class indicator letter on the back",
    "back_emblem": "the emblem's name on the back",
    "class_name": "the class name on the back",
    "title": "the game title on the back",
}


class LayoutError(ValueError):
    """A layout template's print sections are invalid; the message names the template and field."""


class TextStyle(BaseModel):
    """One text style: sizes in pt (≥ 18 pt), leading as a multiple of the size, alignment in its box."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    weight: Literal["regular", "bold"] = "regular"
    size: Length
    min_size: Length = MIN_TEXT_PT
    leading: float = Field(default=1.24, ge=1.0, le=2.0)
    align: Literal["left", "center", "right"] = "center"
    valign: Literal["top", "middle", "bottom"] = "middle"

    @model_validator(mode="after")
    def _large_print(self) -> TextStyle:
        if self.min_size < MIN_TEXT_PT - 1e-9:
            raise ValueError(f"min_size is {self.min_size:g} pt; large print needs at least 18 pt")
        if self.size < self.min_size:
            raise ValueError(f"size {self.size:g} pt is below min_size {self.min_size:g} pt")
        return self


class Strokes(BaseModel):
    """Line widths in pt: the class-colour frame at the safe inset, the art oval, the emblem rings."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    frame: Length = 3.0
    oval: Length = 3.0
    emblem: Length = 2.5


class Faces(BaseModel):
    """Element → box name for each face."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)

    front_art: dict[str, str] = Field(alias="front-art")
    front_rules: dict[str, str] = Field(alias="front-rules")
    back: dict[str, str]

    @field_validator("front_art", "front_rules")
    @classmethod
    def _front(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = set(value) - FRONT_ELEMENTS
        if unknown:
            raise ValueError(f"unknown front element(s) {sorted(unknown)}; known: {sorted(FRONT_ELEMENTS)}")
        return value

    @field_validator("back")
    @classmethod
    def _back(cls, value: dict[str, str]) -> dict[str, str]:
        unknown = set(value) - BACK_ELEMENTS
        if unknown:
            raise ValueError(f"unknown back element(s) {sorted(unknown)}; known: {sorted(BACK_ELEMENTS)}")
        return value


class Design(BaseModel):
    """The print sections of a layout, validated; boxes resolved by :meth:`box`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: dict[str, TextStyle]
    strokes: Strokes = Strokes()
    faces: Faces

    def face(self, name: Literal["front-art", "front-rules", "back"]) -> dict[str, str]:
        """Element → box name of one face."""
        return {"front-art": self.faces.front_art, "front-rules": self.faces.front_rules, "back": self.faces.back}[name]


def design_for(layout: CardLayout) -> Design:
    """Validate and return the print design of ``layout``.

    Raises :class:`LayoutError` when a section is missing or malformed, a style is under
    18 pt, a text style the renderer needs is missing, or a face names an unknown box.
    """
    extra = layout.model_extra or {}
    raw = {k: extra[k] for k in ("text", "strokes", "faces") if k in extra}
    try:
        design = Design.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise LayoutError(f"layout {layout.name}: {where}: {first['msg']}") from None
    missing = sorted(set(TEXT_STYLES) - set(design.text))
    if missing:
        raise LayoutError(f"layout {layout.name}: text: missing style(s) {missing}")
    for face in ("front-art", "front-rules", "back"):
        for element, box in design.face(face).items():  # type: ignore[arg-type]
            if box not in layout.boxes:
                raise LayoutError(f"layout {layout.name}: faces.{face}.{element}: no box named {box!r} in boxes")
    return design

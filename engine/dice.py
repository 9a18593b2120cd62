"""The dice of ``game.yaml``: a die's solid from a small library of real dice, and its data.

:data:`DIE_SHAPES` says per solid how many faces it has and what its stated size measures;
the geometry itself (vertices, faces, nets, 3D models) is the dice stage's
(:mod:`pipeline.dice.solids`). Bad data is refused with a message that names the fix: an
unknown shape, a face outline written where a die is meant (``pentagon``), a face count the
solid does not have.
"""

from __future__ import annotations

from enum import Enum
from typing import Literal

from pydantic import Field, ValidationInfo, field_validator

from engine.fields import Count, Length, Located, Text, slug
from engine.limits import MAX_DIE_FACES


class DieShape(str, Enum):
    """A real die's solid, from the library of :data:`DIE_SHAPES` (faces, how its size is measured)."""

    d4_tetrahedron = "d4-tetrahedron"
    d4_crystal_shard = "d4-crystal-shard"
    d6_cube = "d6-cube"
    d8 = "d8"
    d10 = "d10"
    d12_dodecahedron = "d12-dodecahedron"
    d20 = "d20"


#: Per shape: (faces, what ``size`` measures, the face outline). Dice makers quote a die with
#: parallel faces by its face-to-face (caliper) distance; a tetrahedron has none, so its edge;
#: a crystal shard by its length, point to point (the Power Crystal rulebook's "30mm crystal
#: shard D4"). The d10 is the pentagonal trapezohedron (kite faces); the shard a square prism
#: with four-sided points, so its four long faces are elongated hexagons and it rests on one,
#: the result on top (the eight small kites at the points never come to rest).
DIE_SHAPES: dict[DieShape, tuple[int, Literal["edge", "face-to-face", "point-to-point"], str]] = {
    DieShape.d4_tetrahedron: (4, "edge", "triangle"),
    DieShape.d4_crystal_shard: (4, "point-to-point", "elongated hexagon"),
    DieShape.d6_cube: (6, "face-to-face", "square"),
    DieShape.d8: (8, "face-to-face", "triangle"),
    DieShape.d10: (10, "face-to-face", "kite"),
    DieShape.d12_dodecahedron: (12, "face-to-face", "pentagon"),
    DieShape.d20: (20, "face-to-face", "triangle"),
}

#: Face outlines people write for ``shape`` (the old field), and the die each means.
_OUTLINE_HINT = {"pentagon": "d12-dodecahedron", "square": "d6-cube", "triangle": "d4-tetrahedron, d8 or d20",
                 "kite": "d10", "hexagon": "d4-crystal-shard"}


class Die(Located):
    """A print/braille die.

    ``shape`` is the solid (:class:`DieShape`); ``faces`` must be that solid's face count.
    ``size`` is the die's stated size (e.g. "35mm" for the Apprentice D12), measured as
    :data:`DIE_SHAPES` says for the shape (face-to-face for a D12, point-to-point for a shard,
    edge for a tetrahedron). ``encoding`` is how a face is written in braille:
    ``letters`` (a–l without numeric indicator, the rulebooks' private code) or
    ``ueb-numbers`` (numeric indicator then the digit letter, standard UEB).
    ``braille_position`` is where the cell sits on the face (Enchant asks for "left").
    ``numbering``: ``opposites-sum`` (opposite faces add up to faces + 1, as on real dice:
    D6 1-6, D12 1-12) or ``in-order`` (the library's face order, the designer's choice).
    """

    id: str
    name: Text
    shape: DieShape
    faces: Count = Field(ge=2, le=MAX_DIE_FACES)
    size: Length
    encoding: Literal["letters", "ueb-numbers"]
    braille_position: Literal["below", "left"] = "below"
    numbering: Literal["opposites-sum", "in-order"] = "opposites-sum"
    key: str | None = None

    @field_validator("id")
    @classmethod
    def _slug(cls, value: str) -> str:
        return slug(value, "d12")

    @field_validator("shape", mode="before")
    @classmethod
    def _known_shape(cls, value: object) -> object:
        known = [s.value for s in DieShape]
        if isinstance(value, str) and value not in known:
            meant = _OUTLINE_HINT.get(value)
            told = f"'{value}' is a face outline, not a die: a die with {value} faces is {meant}; " if meant else ""
            raise ValueError(f"{told}expected one of {', '.join(known)} (got {value!r})")
        return value

    @field_validator("faces")
    @classmethod
    def _faces_match_shape(cls, value: int, info: ValidationInfo) -> int:
        shape = info.data.get("shape")
        if shape is not None and DIE_SHAPES[shape][0] != value:
            raise ValueError(f"a {shape.value} die has {DIE_SHAPES[shape][0]} faces, not {value}")
        return value

    @property
    def measure(self) -> str:
        """What ``size`` measures for this shape: "edge", "face-to-face" or "point-to-point"."""
        return DIE_SHAPES[self.shape][1]

    @property
    def outline(self) -> str:
        """The outline of one face ("pentagon", "kite", "elongated hexagon" …)."""
        return DIE_SHAPES[self.shape][2]

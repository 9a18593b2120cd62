"""The base of every data model (:class:`Located`) and the validated field types it uses.

:class:`Located` remembers where a model came from (file, line, column of the object and of
each field), so a finding can point at the exact YAML line. The field types here are the
ones several models share: lengths with units (stored in pt, :mod:`engine.units`), text a
reader sees, slugs for ids, six-dot braille cells.
"""

from __future__ import annotations

from typing import Annotated

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, PrivateAttr, WithJsonSchema

from engine.findings import Location
from engine.limits import MAX_ID_LENGTH
from engine.paths import SLUG
from engine.units import LENGTH_PATTERN, parse_length

#: A length written with its unit in the data ("3in", "6.2mm"); stored in pt.
#: A length with its unit ("3in", "76.2mm"), held in pt. Its JSON Schema is the text it is written
#: as (``deckpress schema``), not the float it becomes.
Length = Annotated[float, BeforeValidator(parse_length), WithJsonSchema(
    {"type": "string", "pattern": LENGTH_PATTERN, "description": "a length with its unit: pt, in, mm or cm (3in, 76.2mm, 18pt)"})]


def _not_bool(value: object) -> object:
    """ValueError for ``true``/``false``, which pydantic would take as 1 and 0 (YAML reads ``yes``,
    ``on`` as true too: ``copies: true`` printed one copy with no finding), and for text, which
    pydantic would read as a number: ``copies: 08`` (YAML 1.1 reads 08 and 09 as text, not octal)
    printed 8 copies, and ``"2"`` is no integer to the JSON Schema (``deckpress schema``)."""
    if isinstance(value, bool):
        raise ValueError("must be a whole number, not true or false")
    if isinstance(value, str):
        raise ValueError("must be a whole number written as digits, not text")
    return value


#: A whole number in card data (a count, a player number, die faces): ``true``/``false`` refused.
Count = Annotated[int, BeforeValidator(_not_bool)]


def slug(value: str, example: str) -> str:
    """``value`` when it is a lowercase slug (``[a-z0-9]+(-[a-z0-9]+)*``, the whole string) of at
    most :data:`engine.limits.MAX_ID_LENGTH` characters, else ValueError.

    Ids become file and URL names (``output/<game id>/``, ``cards/<card id>.html``), so
    a slug keeps them inside their folder: ``../victim`` is refused, and so is
    ``"hatchling\n"`` (matched as a whole string, not up to a trailing newline).
    """
    if not SLUG.fullmatch(value):
        raise ValueError(f"expected a lowercase slug such as {example!r}, got {value!r}")
    if len(value) > MAX_ID_LENGTH:
        raise ValueError(f"an id names files and URLs: at most {MAX_ID_LENGTH} characters, got {len(value)}")
    return value


def _not_blank(value: str) -> str:
    """``value`` unless it is empty or only spaces (ValueError): a blank name prints as nothing."""
    if not value.strip():
        raise ValueError("must not be empty")
    return value


#: Text a reader sees (a name, a title, a summary): never empty or only spaces.
Text = Annotated[str, AfterValidator(_not_blank)]


def braille_cells(value: str, what: str) -> str:
    """``value`` when it is one or more six-dot Unicode braille cells (U+2800-U+283F), else ValueError.

    The braille stage writes these cells as they are; anything else (``"#"``, an ASCII
    Braille character, eight-dot cells) has no six-dot cell to emboss.
    """
    if not value or not all("\u2800" <= ch <= "\u283f" for ch in value):
        raise ValueError(f"{what} must be six-dot Unicode braille cells (U+2800-U+283F) such as '⠼', got {value!r}")
    return value



class Located(BaseModel):
    """Base of every data model: forbids unknown keys and keeps source locations.

    The loader fills the private location table after validation; models built in
    code (tests, synthetic decks) simply have no locations and report ``file`` only.
    """

    model_config = ConfigDict(extra="forbid", frozen=False, populate_by_name=True)

    _where: dict[str, Location] = PrivateAttr(default_factory=dict)

    def where(self, field: str | None = None) -> Location:
        """Location of this object (``field=None``) or of one of its fields.

        Falls back to the object's own location when the field was not written
        (a default), and to an empty location for objects built in code.
        """
        table = locations(self)
        if field is not None and field in table:
            return table[field]
        return table.get("", Location())


def locations(model: Located) -> dict[str, Location]:
    """The model's location table (field name → :class:`Location`, ``""`` for the model itself), the
    dict itself: a caller may fill it (:func:`engine.validation.attach_locations`).

    Read from pydantic's ``__pydantic_private__`` dict, not as ``model._where``: pydantic 2.14's
    ``BaseModel.__getattr__`` for a private attribute asks ``hasattr(attribute, "__get__")``, which
    raises and catches an AttributeError inside every call (6.6 against 0.36 µs a ``where``; the braille
    of 10,000 cards makes 73,000 of them, issue 22). Falls back to the attribute when the dict lacks it.
    """
    private = model.__pydantic_private__
    table = private.get("_where") if private is not None else None
    return table if table is not None else model._where

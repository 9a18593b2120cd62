"""The JSON Schemas of game.yaml and cards.yaml (``deckpress schema``), as the loader reads the files.

pydantic's schema of the models is what they hold after validation; this module states what a
designer writes: lengths as text with a unit (:data:`engine.fields.Length`), a power as text or a
whole number, and an expansion's game.yaml (one with ``extends:``) without the fields its base
game gives (the loader merges the base's game.yaml under it first, :mod:`engine.load`).
"""

from __future__ import annotations

from engine.model import CardsFile, Game

#: The dialect both schemas are written in (pydantic generates draft 2020-12).
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def game_schema() -> dict:
    """The JSON Schema (draft 2020-12) of game.yaml: a mapping; ``required`` holds only when the
    file has no ``extends:`` (an expansion names only what it adds or changes)."""
    schema = {"$schema": DIALECT, **Game.model_json_schema(by_alias=True)}
    required = schema.pop("required", [])
    if required:
        schema["if"] = {"required": ["extends"]}
        schema["else"] = {"required": required}
    return schema


def cards_schema() -> dict:
    """The JSON Schema (draft 2020-12) of cards.yaml."""
    return {"$schema": DIALECT, **CardsFile.model_json_schema(by_alias=True)}

"""The rows of a cards.yaml as the loader takes them (:mod:`engine.load`): each validated as the
parser reads it, so a large file's raw rows and their locations are never held at once (issue 22)."""

from __future__ import annotations

from pydantic import ValidationError

from engine.cards import Card
from engine.validation import attach_locations
from engine.yamlsource import Source


def card_id(model: object) -> str | None:
    """The id a card's locations name (:func:`engine.validation.attach_locations`), None for other models."""
    return model.id if isinstance(model, Card) else None


def validated_row(value: object, source: Source) -> tuple[object, Source]:
    """A cards.yaml row as the parser reads it (:func:`engine.yamlsource.load_yaml`'s row hook): a
    valid card becomes its :class:`Card`, located, with only its own place kept of its source tree;
    any other row stays as written, for the file's validation (:class:`CardsFile`) to report with
    every other error. Holding one card's raw rows and locations at a time, not the file's, takes a
    10,000-card load from 98 to 51 MiB (issue 22); ``CardsFile`` keeps a Card it is given as it is."""
    if not isinstance(value, dict):
        return value, source
    try:
        card = Card.model_validate(value)
    except ValidationError:
        return value, source
    attach_locations(card, source, card_of=card_id)
    return card, Source(source.at)


#: The "id" of a cards.yaml row that is no mapping: never in an expansion's ``remove`` list.
_NOT_A_CARD = object()


def row_id(row: object) -> object:
    """The id of a cards.yaml row: a validated card's, a mapping's ``id`` as written (None when it has
    none), and :data:`_NOT_A_CARD` for any other row (an expansion cannot remove it)."""
    if isinstance(row, Card):
        return row.id
    return row.get("id") if isinstance(row, dict) else _NOT_A_CARD

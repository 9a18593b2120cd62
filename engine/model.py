"""The card data model: a :class:`Deck` is a :class:`Game` and its :class:`Card` list.

Shapes follow ../shared/DESIGN.md §2. The models live by level, and every name is
importable from here:

- :mod:`engine.fields`: the :class:`Located` base (each model remembers the file, line
  and column of itself and its fields) and shared field types (lengths in pt, slugs);
- :mod:`engine.game`: everything in ``game.yaml``, up to :class:`Game`;
- :mod:`engine.cards`: a card and the shape of ``cards.yaml``;
- :mod:`engine.archive_paths`: the ``archive.card_path`` template rule;
- this module: :class:`Deck`, the loaded game.

Unknown keys are refused (``extra="forbid"``): a typo in a key is an error the
designer sees, never a value silently ignored.
"""

from __future__ import annotations

from pydantic import BaseModel, PrivateAttr

from engine.archive_paths import CARD_PATH_FIELDS, card_path_template
from engine.cards import Card, CardsFile, ImageDescription, Provenance
from engine.fields import Length, Located, Text, braille_cells, slug
from engine.game import (
    Archive, BrailleSettings, CardClass, CardSize, ClassCount, Colour, Composition, DeckCount, Die, DieShape,
    Extends, Game, Keyword, KeywordRules, Palette, Players, PowerScheme,
)

__all__ = [
    "Archive", "BrailleSettings", "CARD_PATH_FIELDS", "Card", "CardClass", "CardSize", "CardsFile", "ClassCount",
    "Colour", "Composition", "Deck", "DeckCount", "Die", "DieShape", "Extends", "Game", "ImageDescription",
    "Keyword", "KeywordRules", "Length", "Located", "Palette", "Players", "PowerScheme", "Provenance", "Text",
    "braille_cells", "card_path_template", "slug",
]


class Deck(BaseModel):
    """A loaded game: the resolved :class:`Game` and its complete card list.

    For an expansion the cards are already resolved (base cards minus removed,
    plus the expansion's). ``folder`` is the game folder it was loaded from. For an
    expansion, ``base`` is its base game loaded on its own and ``own_card_ids`` the ids
    of the cards in the expansion's own cards.yaml (what its box adds).
    """

    game: Game
    cards: list[Card]
    folder: str = ""
    base: "Deck | None" = None
    own_card_ids: tuple[str, ...] = ()

    _by_id: dict[str, Card] | None = PrivateAttr(default=None)

    def cards_of(self, class_id: str) -> list[Card]:
        """The unique cards of one class, in data order."""
        return [c for c in self.cards if c.class_id == class_id]

    def copies_of(self, class_id: str) -> int:
        """Printed cards (copies counted) of one class."""
        return sum(c.copies for c in self.cards_of(class_id))

    @property
    def total_copies(self) -> int:
        """Printed cards in the whole game (copies counted)."""
        return sum(c.copies for c in self.cards)

    def provisional(self) -> list[Card]:
        """Cards we supplied because the rulebook does not name them."""
        return [c for c in self.cards if c.provenance is Provenance.provisional]

    def card_by_id(self, card_id: str) -> Card | None:
        """The card with this id, or None (an index built on first use: decks run to 10,000 cards;
        a deck's card list is not changed after loading)."""
        if self._by_id is None:
            self._by_id = {}
            for c in self.cards:
                self._by_id.setdefault(c.id, c)  # the first of duplicate ids, as before (CP007 reports them)
        return self._by_id.get(card_id)

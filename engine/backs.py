"""The back model: which cards share a card back (``backs:`` in game.yaml), and how decks are shuffled.

A card's back is what every player sees of it face down, so cards that are shuffled into
one deck must carry one back, or the back tells a hidden card. ``backs.share`` says how
a game's cards share backs:

- ``common``: one back for every card (Enchant ICG deals its whole shuffled deck);
- ``per-class``: one back per class (Apprentice ICG: each player shuffles one class deck);
- ``per-deck``: one back per draw deck, ``main`` plus each deck in ``composition.decks``
  (Claim: the main deck's factions share a back; Potions and Artifacts are kept apart).

A back shared by several classes needs a look of its own (``backs.designs.<back id>``: a
name, an emblem, an optional mark letter and the class whose palette it borrows, so every
colour stays under the palette contrast checks). A back of one class looks like the class.

How the main deck is played (:func:`main_deck_by_class`): ``composition.shuffle`` when the
data states it; otherwise from the deals: when every stated deal equals the printed count
of a main-deck class, each player takes one class deck (``by-class``); any other deal
means the main deck is shuffled together and dealt (``together``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from pydantic import Field

from engine.fields import Located, Text
from engine.findings import Location

# engine.game imports this module (Game.backs), so the Game, Card, Deck and Palette named in
# the annotations below are not imported here: that would be an import circle.

MAIN = "main"
COMMON = "common"


class BackDesign(Located):
    """The look of a back shared by several classes.

    ``name`` is printed large (e.g. "Enchant ICG"); ``emblem`` names the emblem in the
    ring; ``mark`` is an optional letter drawn large in the ring; ``colours`` names the
    class whose palette the back is printed in.
    """

    name: Text
    emblem: Text
    mark: str | None = Field(default=None, min_length=1, max_length=1)
    colours: str


class Backs(Located):
    """``backs:`` in game.yaml: how cards share backs (``share``) and the looks of shared backs (``designs``).

    ``designs`` maps a back id (``common``, a deck id, or a class id) to a :class:`BackDesign`.
    Without ``backs:`` every class has its own back (``per-class``).
    """

    share: Literal["common", "per-class", "per-deck"] = "per-class"
    designs: dict[str, BackDesign] = Field(default_factory=dict)


@dataclass(frozen=True)
class BackFace:
    """Everything a back prints, resolved: the back id, the game title on it, the large name,
    the mark letter (or None), the emblem name, the palette, and where it is defined."""

    id: str
    title: str
    name: str
    mark: str | None
    emblem: str
    palette: Palette
    where: Location

    def look(self) -> tuple:
        """What the back looks like (equal looks draw identical pages); the location left out."""
        return (self.id, self.title, self.name, self.mark, self.emblem, self.palette.model_dump_json())


def deck_of(game: Game, card: Card) -> str:
    """The draw deck a card belongs to: its class's ``deck`` (``main`` unless set aside)."""
    cls = game.class_by_id(card.class_id)
    return cls.deck if cls is not None else MAIN


def back_id(game: Game, card: Card) -> str:
    """The id of the back ``card`` carries under the game's ``backs.share``."""
    share = game.backs.share
    if share == "common":
        return COMMON
    if share == "per-deck":
        return deck_of(game, card)
    return card.class_id


def main_deck_by_class(game: Game, class_counts: dict[str, int], base: Game | None = None) -> bool | None:
    """True when each player takes one class deck of the main deck, False when the main deck is
    shuffled together, None when the data says neither (no ``composition.shuffle``, no deals).

    ``class_counts`` maps class id → printed cards; ``base`` is the base game of an
    expansion, whose shuffle and deals hold when the expansion states none.
    """
    for source in (game, base):
        if source is None:
            continue
        comp = source.composition
        if comp.shuffle is not None:
            return comp.shuffle == "by-class"
        if comp.deals:
            sizes = {n for cid, n in class_counts.items() if (c := game.class_by_id(cid)) is not None and c.deck == MAIN}
            return all(each in sizes for each in comp.deals.values())
    return None


def shuffled_deck(game: Game, card: Card, by_class: bool | None) -> str:
    """The id of the pile ``card`` is shuffled in: its deck, or ``main/<class>`` when the main deck is played by class."""
    deck = deck_of(game, card)
    return f"{MAIN}/{card.class_id}" if deck == MAIN and by_class else deck


def back_classes(game: Game, cards: list[Card]) -> dict[str, list[str]]:
    """Back id → the class ids whose cards carry it, in the game's class order."""
    out: dict[str, list[str]] = {}
    for cls in game.classes:
        for card in cards:
            if card.class_id == cls.id:
                out.setdefault(back_id(game, card), [])
                if cls.id not in out[back_id(game, card)]:
                    out[back_id(game, card)].append(cls.id)
    return out


def resolve_face(game: Game, back: str, classes: list[str], title: str | None = None) -> BackFace | None:
    """The :class:`BackFace` of back ``back`` shared by ``classes``; None when it cannot be
    drawn (several classes and no design, or a design whose ``colours`` class is missing).

    ``title`` overrides the game's title (an expansion's inherited backs print the base's).
    """
    design = game.backs.designs.get(back)
    title = title or game.title
    if design is not None:
        colours = game.class_by_id(design.colours)
        if colours is None:
            return None
        return BackFace(back, title, design.name, design.mark, design.emblem, colours.palette, design.where())
    if len(classes) != 1 or game.class_by_id(classes[0]) is None:
        return None
    cls = game.class_by_id(classes[0])
    return BackFace(back, title, cls.name, cls.indicator, cls.emblem, cls.palette, cls.where())


def deck_faces(deck) -> dict[str, BackFace]:
    """Back id → :class:`BackFace` for every back the cards of ``deck`` (an :class:`engine.model.Deck`)
    carry, in the game's class order; backs that cannot be drawn are left out (CP011 reports them).

    An expansion's backs that its base game also has (``deck.base``) print the base game's
    title: they are the base game's backs, so the cards joining a base deck look like it.
    """
    game, base = deck.game, deck.base
    base_ids = set(back_classes(base.game, base.cards)) if base is not None else set()
    out: dict[str, BackFace] = {}
    for back, classes in back_classes(game, deck.cards).items():
        face = resolve_face(game, back, classes, base.game.title if back in base_ids else None)
        if face is not None:
            out[back] = face
    return out

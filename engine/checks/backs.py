"""Back checks (CP): card backs against how the game's decks are shuffled (:mod:`engine.backs`).

A back is what everyone sees of a face-down card. Cards shuffled into one deck must share
one back, or a player reads a hidden card's class from its back; an expansion's cards that
join a base game's deck must carry that deck's back, or they are marked among the base
cards. The deck structure comes from the data (``composition.decks``, ``composition.shuffle``
or the deals, the classes' ``deck:``), never from a game's name.
"""

from __future__ import annotations

from typing import Iterator

from engine.backs import (COMMON, MAIN, BackFace, back_classes, back_id, deck_faces, deck_of, main_deck_by_class,
                          resolve_face, shuffled_deck)
from engine.checks.common import plural
from engine.findings import Severity
from engine.model import Card, Deck
from engine.registry import Problem, rule


def _counts(deck: Deck) -> dict[str, int]:
    return {c.id: deck.copies_of(c.id) for c in deck.game.classes}


def _piles(deck: Deck) -> dict[str, list[Card]]:
    """Shuffled pile id → its cards; the main deck is left out when the data does not say how it is played."""
    base = deck.base.game if deck.base is not None else None
    by_class = main_deck_by_class(deck.game, _counts(deck), base)
    piles: dict[str, list[Card]] = {}
    for card in deck.cards:
        if deck_of(deck.game, card) == MAIN and by_class is None:
            continue
        piles.setdefault(shuffled_deck(deck.game, card, by_class), []).append(card)
    return piles


@rule("CP009", "back-reveals-card", Severity.error)
def back_reveals_card(deck: Deck, ctx) -> Iterator[Problem]:
    """Cards shuffled together into one deck would carry different backs: the back tells a hidden card.

    The main deck is shuffled together when ``composition.shuffle: together``, or when a
    deal is not the size of one class (the deck is dealt out); every deck in
    ``composition.decks`` is shuffled on its own. When the data states neither a shuffle
    nor a deal, how the main deck is played is unknown and only the separate decks are checked.

    Fails: two classes in the main deck, ``shuffle: together`` and no ``backs:`` (one back per class).
    Passes: the same with ``backs: {share: common, designs: {common: {name: Mini, emblem: Star, colours: ember}}}``,
    or ``shuffle: by-class`` (each player shuffles one class deck).
    """
    game = deck.game
    for pile, cards in _piles(deck).items():
        backs: dict[str, list[str]] = {}
        for card in cards:
            backs.setdefault(back_id(game, card), [])
            if card.class_id not in backs[back_id(game, card)]:
                backs[back_id(game, card)].append(card.class_id)
        if len(backs) < 2:
            continue
        shown = "; ".join(f"back '{b}' on {', '.join(cls)}" for b, cls in backs.items())
        related = tuple(c.where() for cid in dict.fromkeys(c.class_id for c in cards) if (c := game.class_by_id(cid)) is not None)
        yield Problem(
            f"deck '{pile}' is shuffled together ({plural(sum(c.copies for c in cards), 'card')}) but its cards carry "
            f"{len(backs)} different backs ({shown}): a face-down card's back tells its class",
            game.where("backs"),
            "give the deck one back (backs: {share: per-deck} or {share: common}, with a design for the shared back), "
            "or state composition.shuffle: by-class if each player shuffles one class deck",
            related)


def _differences(mine: BackFace, theirs: BackFace) -> str:
    fields = [name for name, a, b in (("id", mine.id, theirs.id), ("title", mine.title, theirs.title),
                                      ("name", mine.name, theirs.name), ("mark", mine.mark, theirs.mark),
                                      ("emblem", mine.emblem, theirs.emblem),
                                      ("palette", mine.palette.model_dump_json(), theirs.palette.model_dump_json())) if a != b]
    return ", ".join(fields)


@rule("CP010", "expansion-back-differs", Severity.error)
def expansion_back_differs(deck: Deck, ctx) -> Iterator[Problem]:
    """An expansion's cards join a base game's deck but would carry a back that differs from the base game's back for that deck.

    Mixed into the base deck, the expansion's cards would be told apart face down.
    Compared: the back's id, the title, name, mark and emblem it prints, and its palette.

    Fails: an expansion with ``backs: {share: common, …}`` whose Ember cards join the base
    game's Ember deck (back 'ember'); or one that gives class ember another palette.
    Passes: an expansion that keeps the base game's ``backs:`` and class looks.
    """
    base = deck.base
    if base is None:
        return
    base_faces, faces = deck_faces(base), deck_faces(deck)
    pile_back = {pile: back_id(base.game, cards[0]) for pile, cards in _piles(base).items()}
    by_class = main_deck_by_class(deck.game, _counts(deck), base.game)
    joined: dict[str, list[Card]] = {}
    for card in (c for c in deck.cards if c.id in deck.own_card_ids):
        if base.game.class_by_id(card.class_id) is None:
            continue
        pile = shuffled_deck(deck.game, card, by_class)
        if pile in pile_back:  # a deck the base game shuffles too
            joined.setdefault(pile, []).append(card)
    for pile, cards in joined.items():
        theirs = base_faces.get(pile_back[pile])
        mine = faces.get(back_id(deck.game, cards[0]))
        if theirs is None or mine is None or mine.look() == theirs.look():
            continue
        yield Problem(
            f"{plural(sum(c.copies for c in cards), 'card')} of this expansion join the base game's deck '{pile}' but carry "
            f"back '{mine.id}' ({mine.name}), not the base game's back '{theirs.id}' ({theirs.name}); they differ in: "
            f"{_differences(mine, theirs)}",
            cards[0].where("class_id"),
            "keep the base game's backs: and the look of its classes in the expansion (only add backs for new decks)",
            (theirs.where,))


def _valid_back_ids(deck: Deck) -> set[str]:
    share = deck.game.backs.share
    if share == "common":
        return {COMMON}
    if share == "per-deck":
        return {MAIN} | set(deck.game.composition.decks)
    return {c.id for c in deck.game.classes}


@rule("CP011", "back-design-invalid", Severity.error)
def back_design_invalid(deck: Deck, ctx) -> Iterator[Problem]:
    """The back model names a back, deck or class that does not exist, or a shared back has no design to draw.

    Under ``share: per-deck`` a design is named by a deck (``main`` or one of
    ``composition.decks``), under ``per-class`` by a class, under ``common`` it is ``common``;
    ``colours`` names the class whose palette the back uses. A back several classes share
    needs a design (its name, emblem and colours).

    Fails: ``backs: {share: per-deck, designs: {mian: {…}}}``, ``colours: embr``, or
    ``share: common`` without ``designs: {common: …}`` in a game of two classes.
    Passes: ``backs: {share: common, designs: {common: {name: Mini, emblem: Star, colours: ember}}}``.
    """
    game, backs = deck.game, deck.game.backs
    valid = _valid_back_ids(deck)
    for name, design in backs.designs.items():
        if name not in valid:
            yield Problem(f"backs.designs names back '{name}', which backs.share: {backs.share} does not make",
                          design.where(), f"name one of: {', '.join(sorted(valid))}")
        if game.class_by_id(design.colours) is None:
            yield Problem(f"back '{name}' takes its colours from class '{design.colours}', which the game does not have",
                          design.where("colours"), f"use one of: {', '.join(c.id for c in game.classes)}")
    for back, classes in back_classes(game, deck.cards).items():
        if back not in backs.designs and resolve_face(game, back, classes) is None:
            yield Problem(f"back '{back}' is shared by classes {', '.join(classes)} and has no design to draw",
                          game.where("backs"), f"add backs.designs.{back}: {{name: …, emblem: …, colours: <class id>}}")


@rule("CP012", "card-in-no-deck", Severity.error)
def card_in_no_deck(deck: Deck, ctx) -> Iterator[Problem]:
    """A class's cards are in a deck (``deck:``) that is neither ``main`` nor listed in ``composition.decks``.

    The deck's size, shuffle and back are then stated nowhere.

    Fails: a class with ``deck: overview`` and no ``composition.decks.overview``.
    Passes: ``decks: {overview: {classes: [overview], cards: 2}}``.
    """
    listed = set(deck.game.composition.decks)
    for cls in deck.game.classes:
        printed = deck.copies_of(cls.id)
        if cls.deck != MAIN and cls.deck not in listed and printed:
            yield Problem(f"class '{cls.id}' ({plural(printed, 'card')}) is in deck '{cls.deck}', which composition.decks does not list",
                          cls.where("deck"), f"add composition.decks.{cls.deck}: {{classes: [{cls.id}], cards: {printed}}}, or remove deck:")

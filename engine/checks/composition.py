"""Composition checks (CP): the cards against the game's stated facts (``composition:`` in game.yaml).

Counts are of the resolved deck: for an expansion, the base cards minus ``extends.remove``
plus the expansion's cards, so the per-class totals after substitutions are what is checked.
A mismatch is an error: the print run would not match the box the rulebook describes.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Iterator

from engine.checks.common import plural
from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, rule


@rule("CP001", "class-card-count-mismatch", Severity.error)
def class_card_count_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A class's printed cards (copies counted) differ from ``composition.classes.<id>.cards``.

    Fails: ``ember: {cards: 30}`` with 14 unique Ember cards of 2 copies (28 printed).
    Passes: 15 unique Ember cards of 2 copies (30 printed).
    """
    for class_id, facts in deck.game.composition.classes.items():
        if facts.cards is not None and deck.game.class_by_id(class_id) is not None:
            have = deck.copies_of(class_id)
            if have != facts.cards:
                yield Problem(f"class '{class_id}' has {plural(have, 'printed card')} but the game states {facts.cards}", facts.where("cards"), "add or remove cards (or copies), or correct composition.classes")


@rule("CP002", "class-unique-count-mismatch", Severity.error)
def class_unique_count_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A class's number of unique cards differs from ``composition.classes.<id>.unique``.

    Fails: ``ember: {unique: 15}`` with 16 Ember entries in cards.yaml.
    Passes: 15 Ember entries.
    """
    for class_id, facts in deck.game.composition.classes.items():
        if facts.unique is not None and deck.game.class_by_id(class_id) is not None:
            have = len(deck.cards_of(class_id))
            if have != facts.unique:
                yield Problem(f"class '{class_id}' has {plural(have, 'unique card')} but the game states {facts.unique}", facts.where("unique"), "add or remove unique cards, or correct composition.classes")


@rule("CP003", "card-copies-mismatch", Severity.error)
def card_copies_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A card's ``copies`` differs from its class's stated copies per unique card.

    Fails: ``ember: {copies: 2}`` and a card ``ember-rogue`` with ``copies: 3``.
    Passes: ``copies: 2`` on every Ember card.
    """
    for class_id, facts in deck.game.composition.classes.items():
        if facts.copies is None:
            continue
        for card in deck.cards_of(class_id):
            if card.copies != facts.copies:
                yield Problem(f"'{card.name}' has {plural(card.copies, 'copy', 'copies')} but class '{class_id}' states {facts.copies} per card", card.where("copies"), f"set copies: {facts.copies}, or correct composition.classes")


@rule("CP004", "total-card-count-mismatch", Severity.error)
def total_card_count_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """The game's printed cards (copies counted, every deck) differ from ``composition.total``.

    Fails: ``total: 120`` with 118 printed cards.
    Passes: ``total: 120`` with 120 printed cards.
    """
    total = deck.game.composition.total
    if total is not None and deck.total_copies != total:
        yield Problem(f"the game has {plural(deck.total_copies, 'printed card')} but states a total of {total}", deck.game.composition.where("total"), "add or remove cards, or correct composition.total")


@rule("CP005", "deal-mismatch", Severity.error)
def deal_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A per-player deal is for a player count the game does not support, or needs more cards than the main deck has.

    ``composition.deals`` maps a player count to the cards each player is dealt or holds;
    players × cards must fit in the main draw deck (classes whose ``deck`` is ``main``).

    Fails: ``players: {min: 2, max: 4}`` and ``deals: {2: 30, 5: 12}`` (5 players), or
    ``deals: {4: 20}`` with a 60-card deck (80 needed).
    Passes: ``deals: {2: 30, 4: 15}`` with a 60-card deck.
    """
    comp, players = deck.game.composition, deck.game.players
    main = sum(c.copies for c in deck.cards if (cls := deck.game.class_by_id(c.class_id)) is not None and cls.deck == "main")
    for count, each in sorted(comp.deals.items()):
        where = comp.where("deals")
        if not players.min <= count <= players.max:
            yield Problem(f"a deal is given for {count} players but the game is for {players.min}-{players.max}", where, "remove the deal or correct players:")
        elif count * each > main:
            yield Problem(f"{count} players x {plural(each, 'card')} needs {plural(count * each, 'card')} but the main deck has {main}", where, "correct the deal or the cards")


@rule("CP006", "deck-size-mismatch", Severity.error)
def deck_size_mismatch(deck: Deck, ctx) -> Iterator[Problem]:
    """A separate draw deck (``composition.decks``) has a different size than stated, or names classes wrongly.

    Also flags a listed class that is not in the game or whose ``deck:`` names another deck.

    Fails: ``decks: {power-crystal: {classes: [power-crystal], cards: 20}}`` with 18 crystal cards.
    Passes: 20 crystal cards, and the class has ``deck: power-crystal``.
    """
    for deck_id, facts in deck.game.composition.decks.items():
        for class_id in facts.classes:
            cls = deck.game.class_by_id(class_id)
            if cls is None:
                yield Problem(f"deck '{deck_id}' lists class '{class_id}', which the game does not have", facts.where("classes"), "correct the class id")
            elif cls.deck != deck_id:
                yield Problem(f"deck '{deck_id}' lists class '{class_id}' but that class has deck: {cls.deck}", cls.where("deck") if cls.where("deck").line else cls.where(), f"set deck: {deck_id} on the class")
        have = sum(deck.copies_of(c) for c in facts.classes)
        if have != facts.cards:
            yield Problem(f"deck '{deck_id}' has {plural(have, 'printed card')} but states {facts.cards}", facts.where("cards"), "add or remove cards, or correct composition.decks")


@rule("CP007", "duplicate-card-id", Severity.error)
def duplicate_card_id(deck: Deck, ctx) -> Iterator[Problem]:
    """Two cards share an id (also an expansion card reusing a base card's id without removing it).

    Ids name output files and archive pages; a duplicate silently overwrites one card.

    Fails: two entries ``id: ember-rogue``.
    Passes: ``ember-rogue`` and ``ember-rogue-2``.
    """
    seen: dict[str, list] = defaultdict(list)
    for card in deck.cards:
        seen[card.id].append(card)
    for card_id, cards in seen.items():
        for other in cards[1:]:
            names = ", ".join(repr(c.name) for c in cards)
            yield Problem(f"{len(cards)} cards share this id: {names}", other.where("id"), "give every card its own id", (cards[0].where("id"),))


@rule("CP008", "unknown-class", Severity.error)
def unknown_class(deck: Deck, ctx) -> Iterator[Problem]:
    """A card, or a composition entry, names a class the game does not have.

    Fails: a card with ``class: embr`` (the game has ember and forest).
    Passes: ``class: ember``.
    """
    ids = [c.id for c in deck.game.classes]
    for card in deck.cards:
        if card.class_id not in ids:
            yield Problem(f"'{card.name}' is in class '{card.class_id}', which the game does not have", card.where("class_id"), f"use one of: {', '.join(ids)}")
    for class_id, facts in deck.game.composition.classes.items():
        if class_id not in ids:
            yield Problem(f"composition names class '{class_id}', which the game does not have", facts.where(), f"use one of: {', '.join(ids)}")

"""Keyword checks (KW): keywords on cards against the game's keyword definitions and rules."""

from __future__ import annotations

import difflib
from typing import Iterator

from engine.findings import Severity
from engine.model import Deck
from engine.registry import Problem, rule


def _squash(name: str) -> str:
    """A keyword with case, spacing and the "!" ignored: ``"epic  chance"`` → ``"epicchance"``."""
    return "".join(name.casefold().rstrip("!").split()).replace("-", "")


def suggest(name: str, known: list[str]) -> str | None:
    """The defined keyword a misspelt one most likely means (case, missing "!", spacing, typo), or None."""
    exact = [k for k in known if _squash(k) == _squash(name)]
    if exact:
        return exact[0]
    close = difflib.get_close_matches(_squash(name), [_squash(k) for k in known], n=1, cutoff=0.75)
    return next((k for k in known if close and _squash(k) == close[0]), None)


@rule("KW001", "unknown-keyword", Severity.error)
def unknown_keyword(deck: Deck, ctx) -> Iterator[Problem]:
    """A card carries a keyword the game does not define (with a "did you mean" for near misses).

    Every keyword needs a definition: its summary goes into the archive and the braille key.

    Fails: ``keywords: ["rally"]`` (the game defines "Rally!").
    Passes: ``keywords: ["Rally!"]``.
    """
    known = [k.name for k in deck.game.keywords]
    for card in deck.cards:
        for name in card.keywords:
            if deck.game.keyword(name) is None:
                guess = suggest(name, known)
                hint = f"did you mean '{guess}'?" if guess else f"define it under keywords: in game.yaml (defined: {', '.join(known) or 'none'})"
                yield Problem(f"'{card.name}' carries keyword '{name}', which the game does not define", card.where("keywords"), hint)


@rule("KW002", "unused-keyword", Severity.warning)
def unused_keyword(deck: Deck, ctx) -> Iterator[Problem]:
    """A keyword the game defines that no card carries.

    Usually a card that lost its keyword, or a definition left over from an edit.

    Fails: game.yaml defines "Smite!" and no card lists it.
    Passes: the Knight cards carry ``keywords: ["Smite!"]``.
    """
    used = {k for c in deck.cards for k in c.keywords}
    for kw in deck.game.keywords:
        if kw.name not in used:
            yield Problem(f"keyword '{kw.name}' is defined but no card carries it", kw.where("name"), "add it to the cards that have it, or remove the definition")


@rule("KW003", "keyword-restricted", Severity.error)
def keyword_restricted(deck: Deck, ctx) -> Iterator[Problem]:
    """A card carries a keyword the rules restrict to other cards (``restricted_to`` card-name words).

    Fails: "Chance!" (restricted_to: [Rogue]) on "Ember Knight".
    Passes: "Chance!" on "Ember Rogue".
    """
    for card in deck.cards:
        words = {w.casefold() for w in card.name.replace("-", " ").split()}
        for name in card.keywords:
            kw = deck.game.keyword(name)
            if kw is not None and kw.restricted_to and not any(r.casefold() in words for r in kw.restricted_to):
                yield Problem(f"'{card.name}' carries {name}, which only {', '.join(kw.restricted_to)} cards may carry", card.where("keywords"), "remove the keyword, or widen restricted_to in game.yaml", (kw.where("restricted_to"),))


@rule("KW004", "keyword-order", Severity.error)
def keyword_order(deck: Deck, ctx) -> Iterator[Problem]:
    """A card lists several keywords in an order the rules forbid (``keyword_rules.order``).

    Keywords resolve in printed order, so the order is a rule, not a style.

    Fails: ``keywords: ["Enchant!", "Rally!"]`` with ``order: ["Rally!", "Enchant!"]``.
    Passes: ``keywords: ["Rally!", "Enchant!"]``.
    """
    order = deck.game.keyword_rules.order
    for card in deck.cards:
        ranked = [order.index(k) for k in card.keywords if k in order]
        if ranked != sorted(ranked):
            expected = sorted((k for k in card.keywords if k in order), key=order.index)
            yield Problem(f"'{card.name}' lists {', '.join(card.keywords)}; the rules order them {', '.join(expected)}", card.where("keywords"), "reorder the keywords", (deck.game.keyword_rules.where("order"),))


@rule("KW005", "too-many-keywords", Severity.error)
def too_many_keywords(deck: Deck, ctx) -> Iterator[Problem]:
    """A card carries more keywords than ``keyword_rules.max_per_card`` (or one keyword twice).

    Fails: three keywords with ``max_per_card: 2``; ``["Rally!", "Rally!"]``.
    Passes: ``["Rally!", "Enchant!"]``.
    """
    limit = deck.game.keyword_rules.max_per_card
    for card in deck.cards:
        if len(card.keywords) > limit:
            yield Problem(f"'{card.name}' carries {len(card.keywords)} keywords; at most {limit} are allowed", card.where("keywords"), "remove a keyword, or raise keyword_rules.max_per_card")
        twice = sorted({k for k in card.keywords if card.keywords.count(k) > 1})
        if twice:
            yield Problem(f"'{card.name}' lists {', '.join(twice)} more than once", card.where("keywords"), "list each keyword once")

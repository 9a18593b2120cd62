"""Helpers shared by the check modules: what a rulebook word refers to in the data, and locations.

A *referent* is something a rulebook can count: a class ("Power Crystal", "Wizards"),
a card kind ("Artifacts", "overview cards") or a separate draw deck. Names match
case-insensitively with plural "s" ignored ("Power Crystals cards" → class Power Crystal).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property, lru_cache

from engine.findings import Location
from engine.model import Card, Deck
from engine.rulebook import Line, Rulebook


@dataclass(frozen=True)
class Referent:
    """Cards a rulebook phrase can mean: ``label`` for messages, the ``cards``, and a data ``location``."""

    label: str
    cards: tuple[Card, ...]
    location: Location

    @cached_property
    def printed(self) -> int:
        """Printed cards (copies counted); worked out once (every claim of a class compares it)."""
        return sum(c.copies for c in self.cards)

    @cached_property
    def copy_counts(self) -> list[int]:
        """The distinct copy counts of the cards, ascending (worked out once; do not change the list)."""
        return sorted({c.copies for c in self.cards})


def plural(n: int, singular: str, plural_form: str | None = None) -> str:
    """A count with its noun in the right number: ``plural(1, "copy", "copies")`` → ``"1 copy"``,
    ``plural(2, "card")`` → ``"2 cards"`` (default plural: singular + "s")."""
    return f"{n} {singular if n == 1 else (plural_form or singular + 's')}"


_WORD = re.compile(r"[a-z0-9]+")


@lru_cache(maxsize=65536)
def words(text: str) -> tuple[str, ...]:
    """Lower-case words with a plural "s" dropped: ``"Power Crystals"`` → ``("power", "crystal")``
    (a tuple, remembered: class names are looked up for every claim)."""
    return tuple(w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w for w in _WORD.findall(text.replace("’", "'").lower()))


def _contains(haystack: tuple[str, ...], needle: tuple[str, ...]) -> bool:
    n = len(needle)
    return n > 0 and any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def class_referent(deck: Deck, class_id: str) -> Referent:
    """The cards of one class, located at its composition entry (or its class definition)."""
    cls = deck.game.class_by_id(class_id)
    facts = deck.game.composition.classes.get(class_id)
    where = facts.where() if facts is not None and facts.where().file else (cls.where() if cls else deck.game.where())
    return Referent(cls.name if cls else class_id, tuple(deck.cards_of(class_id)), where)


def game_referent(deck: Deck) -> Referent:
    """Every card of the game, located at ``composition.total`` (or the game)."""
    comp = deck.game.composition
    where = comp.where("total") if comp.where("total").file else deck.game.where()
    return Referent(f"the game ({deck.game.id})", tuple(deck.cards), where)


def referents_in(deck: Deck, text: str) -> list[Referent]:
    """Referents named in ``text``: classes first (by name or id), then card kinds, then decks."""
    hay = words(text)
    found: list[Referent] = []
    for cls in deck.game.classes:
        if _contains(hay, words(cls.name)) or _contains(hay, words(cls.id.replace("-", " "))):
            found.append(class_referent(deck, cls.id))
    kinds = sorted({c.kind for c in deck.cards})
    for kind in kinds:
        if _contains(hay, words(kind)) and not found:
            cards = tuple(c for c in deck.cards if c.kind == kind)
            found.append(Referent(f"kind '{kind}'", cards, cards[0].where("kind")))
    for deck_id, facts in deck.game.composition.decks.items():
        if _contains(hay, words(deck_id)) and not found:
            cards = tuple(c for c in deck.cards if c.class_id in facts.classes)
            found.append(Referent(f"deck '{deck_id}'", cards, facts.where()))
    return found


def rulebook_of(ctx) -> Rulebook | None:
    """The parsed rulebook of a check context, or None when ``--rulebook`` was not given."""
    rb = getattr(ctx, "rulebook", None)
    return rb if isinstance(rb, Rulebook) else None


def at(rb: Rulebook, line: Line, column: int | None = None) -> Location:
    """The location of a rulebook line (and column) for a finding."""
    return Location(rb.path, line.number, column if column is not None else line.start + 1)


def quote(text: str, limit: int = 60) -> str:
    """A short quotation of rulebook text for a message."""
    text = " ".join(text.split())
    return "“" + (text if len(text) <= limit else text[: limit - 1] + "…") + "”"


#: At most this many items are named in one finding's message (the rest are counted).
MAX_LISTED = 12
#: A finding's related list is cut after this many locations, the rest counted
#: (:func:`engine.checks.capped_problem`; here so that a check can stop collecting there).
MAX_RELATED = 50


def capped(items: list[str], limit: int = MAX_LISTED) -> str:
    """Items joined for a message, at most ``limit`` of them: ``"a, b, c and 9 more"``."""
    if len(items) <= limit:
        return ", ".join(items)
    return ", ".join(items[:limit]) + f" and {len(items) - limit} more"


def quote_around(text: str, start: int, end: int, limit: int = 70) -> str:
    """A quotation of ``text`` around ``text[start:end]`` that keeps the matched words in view."""
    if len(text.strip()) <= limit:
        return quote(text, limit)
    room = max(0, limit - (end - start)) // 2
    a, b = max(0, start - room), min(len(text), end + room)
    return "“" + ("…" if a else "") + " ".join(text[a:b].split()) + ("…" if b < len(text) else "") + "”"

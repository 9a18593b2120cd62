"""Print runs: which cards a build prints.

- ``box`` (the default): what the game's own box holds. For a base game, every card; for
  an expansion, only what its box adds: the cards of its own cards.yaml (new cards and the
  replacements for the base cards it removes, its own decks among them) and its own dice.
  The base game's cards are in the base game's box already; reprinting them would double them.
- ``combined``: the game as played, base cards (minus the removed ones) and expansion together.

The engine's checks always see the combined game (the composition counts are of the game
as played); the run only selects what the print, braille, embosser and archive stages make.
"""

from __future__ import annotations

RUNS = ("box", "combined")


def run_deck(deck, run: str = "box"):
    """The :class:`engine.model.Deck` of the cards ``run`` prints (see the module docs).

    ``deck`` is a loaded deck (``deck.base`` set for an expansion). The result keeps the
    game (its classes, keywords and backs), the folder and the base; for an expansion's
    ``box`` run its cards are the expansion's own and its dice those the base game lacks
    (or changes). Raises ValueError for a run not in :data:`RUNS`.
    """
    if run not in RUNS:
        raise ValueError(f"unknown print run {run!r}; runs: {', '.join(RUNS)}")
    if run == "combined" or deck.base is None:
        return deck
    base_dice = {d.id: d.model_dump() for d in deck.base.game.dice}
    dice = [d for d in deck.game.dice if base_dice.get(d.id) != d.model_dump()]
    own = set(deck.own_card_ids)
    # A new Deck, not model_copy: its card index must not be the combined deck's.
    return type(deck)(game=deck.game.model_copy(update={"dice": dice}), cards=[c for c in deck.cards if c.id in own],
                      folder=deck.folder, base=deck.base, own_card_ids=deck.own_card_ids)


def run_counts(deck) -> dict[str, dict[str, int]]:
    """Per run: ``{"box": {"unique": …, "printed": …}, "combined": {…}}`` for a loaded deck
    (unique cards and printed faces, copies counted)."""
    out = {}
    for run in RUNS:
        cards = run_deck(deck, run).cards
        out[run] = {"unique": len(cards), "printed": sum(c.copies for c in cards)}
    return out

"""deckpress engine: the card data model, its loader, the findings and the checks.

The engine never imports ``pipeline``: stages depend on the engine, not the reverse.
"""

"""The ``deckpress`` command line (typer): one module per command group, no logic of its own."""

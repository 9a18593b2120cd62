"""The stage modules, in build order. Importing this module imports them all, which
declares every stage's finding codes in the registry (for ``deckpress rules``)."""

from __future__ import annotations

import importlib

#: Build order (DESIGN.md §1). A module is listed once it exists.
STAGE_MODULES: tuple[str, ...] = (
    "pipeline.braille.layout",
    "pipeline.braille.dice",
    "pipeline.dice_sheet",
    "pipeline.qr",
    "pipeline.render.deck_pdf",
    "pipeline.render.tactile",
    "pipeline.render.impose",
    "pipeline.emboss.write",
    "pipeline.archive",
    "pipeline.proof",
)

for _name in STAGE_MODULES:
    importlib.import_module(_name)

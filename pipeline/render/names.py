"""One card-name size per deck: a deck's names print alike, at the largest size all of them fit.

A name style steps down from its preferred size to its 18 pt floor only where one name
needs it; left to each card, a deck would print most names at 28 pt and a few long ones
smaller. :func:`with_deck_name_sizes` picks the size once per front face for the whole deck.
"""

from __future__ import annotations

import dataclasses
from typing import Sequence

from engine.model import Card
from pipeline.render import fonts
from pipeline.render.card import Sheet, front_face
from pipeline.render.style import TextStyle
from pipeline.render.textfit import Fit, Paragraph, fit


def with_deck_name_sizes(sheet: Sheet, cards: Sequence[Card]) -> Sheet:
    """``sheet`` with one name size for these cards: the largest size (1 pt steps from the
    name style's size down to its floor, never under 18 pt) at which every name fits its
    face's name box, so a deck's names look alike. A name that fits at no size is left out
    of the choice (it is reported as PR001 when drawn).

    The sheet also keeps (``name_fits``) the fit of each name that first fit at the chosen size: the
    fit drawing it would make again, since a name paragraph at that size with the style's floor fits
    at its first try, at that size, with these lines and figures (the valign only places the lines)."""
    style: TextStyle = sheet.design.text["name"]
    font = fonts.face(style.weight)
    chosen: float | None = None
    faces: set[str] = set()
    fits: dict[tuple[str, str], tuple[float, Fit]] = {}
    for card in cards:
        face = front_face(card)
        box = sheet.box(face, "name")
        if box is None:
            continue
        faces.add(face)
        _, _, w, h = sheet.pdf(box)
        for size in _steps(style.size, style.min_size):
            result = fit([Paragraph(card.name, font, size, size, style.leading, style.align)], w, h, style.valign)
            if result.fits:
                fits[face, card.name] = (size, result)
                chosen = size if chosen is None else min(chosen, size)
                break
    if chosen is None:
        return sheet
    return dataclasses.replace(sheet, name_sizes=tuple((face, chosen) for face in sorted(faces)),
                               name_fits={key: result for key, (size, result) in fits.items() if size == chosen})


def _steps(size: float, floor: float) -> list[float]:
    """Sizes from ``size`` down to ``floor`` in 1 pt steps (``floor`` last), pt."""
    out, s = [], size
    while s > floor + 1e-9:
        out.append(s)
        s -= 1.0
    return out + [floor]

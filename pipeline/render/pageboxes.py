"""A card page's BleedBox and TrimBox (:class:`PageBoxes`), read from its raw keys (:func:`page_boxes`, and
:func:`pages_boxes` for a whole card PDF), for the forms of :mod:`pipeline.render.formpages` and the
checks of :mod:`pipeline.render.impose` and :mod:`pipeline.render.tactile`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

import pikepdf
from pikepdf import Array, Dictionary

from pipeline.render.sheets import Rect


@dataclass(frozen=True)
class PageBoxes:
    """A source page's BleedBox and TrimBox (PDF pt) and whether the TrimBox was written."""

    bleed: Rect
    trim: Rect
    has_trim: bool

    @property
    def trim_inset(self) -> tuple[float, float, float, float]:
        """The trim's inset inside the bleed box ``(left, bottom, right, top)`` in pt (9 pt each for 0.125 in bleed)."""
        return (self.trim.x0 - self.bleed.x0, self.trim.y0 - self.bleed.y0, self.bleed.x1 - self.trim.x1, self.bleed.y1 - self.trim.y1)

    def same_as(self, other: PageBoxes, tol: float = 0.01) -> bool:
        """True when both pages have the same bled size and, where both write a TrimBox, the same trim inset (``tol`` pt)."""
        a, b = self.bleed, other.bleed
        same_size = abs(a.width - b.width) <= tol and abs(a.height - b.height) <= tol
        if not (self.has_trim and other.has_trim):
            return same_size
        return same_size and all(abs(x - y) <= tol for x, y in zip(self.trim_inset, other.trim_inset))


def _rect(box) -> Rect:
    x0, y0, x1, y1 = (float(v) for v in box)
    return Rect(x0, y0, x1, y1)


def inherited(page: Dictionary, key: str):
    """``key`` of a page dictionary or of the nearest page tree node above it that has it (ISO 32000-1 §7.7.3.4), else None."""
    node, depth = page, 0
    while node is not None and depth < 64:
        if key in node:
            return node[key]
        node, depth = node.get("/Parent"), depth + 1
    return None


def page_boxes(page: pikepdf.Page | Dictionary) -> PageBoxes:
    """The page's BleedBox (else its MediaBox, inherited) and TrimBox (else the bleed box), read from the raw keys (pt)."""
    obj = page.obj if isinstance(page, pikepdf.Page) else page
    bleed = _rect(obj.BleedBox) if "/BleedBox" in obj else _rect(inherited(obj, "/MediaBox"))
    has_trim = "/TrimBox" in obj
    return PageBoxes(bleed, _rect(obj.TrimBox) if has_trim else bleed, has_trim)


def pages_boxes(pages: Sequence[pikepdf.Page]) -> list[PageBoxes]:
    """:func:`page_boxes` of every page, one :class:`PageBoxes` shared by the pages whose BleedBox and TrimBox
    read alike (issue 22): a card PDF's pages all have the same boxes, and three objects a page the
    collector tracks (40,000 pages of a 10,000-card impose stage: 120,000 objects) made it walk the whole
    heap more often. Pages are told alike by the boxes' PDF syntax (unresolved: the same indirect
    array is the same ``N 0 R``), each read as before the first time; a page without a BleedBox
    (its MediaBox may be inherited) is read on its own. Raises what :func:`page_boxes` raises."""
    known: dict[tuple[bytes, bytes | None], PageBoxes] = {}
    out = []
    for page in pages:
        obj = page.obj
        if "/BleedBox" not in obj:
            out.append(page_boxes(obj))
            continue
        bleed, trim = obj.BleedBox, obj.TrimBox if "/TrimBox" in obj else None
        if not isinstance(bleed, Array) or not (trim is None or isinstance(trim, Array)):
            out.append(page_boxes(obj))  # not arrays: refused as before
            continue
        key = (bytes(bleed.unparse()), bytes(trim.unparse()) if trim is not None else None)
        boxes = known.get(key)
        if boxes is None:
            boxes = known[key] = page_boxes(obj)
        out.append(boxes)
    return out

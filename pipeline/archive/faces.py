"""The archive's card face images: ``images/<card id>.png``, each card's first fronts page as it
will print (the soft proof through the printing target's profile, :mod:`pipeline.render.softproof`),
trim only, rasterised by PDFium and written by :func:`pipeline.common.pngfile.opaque_png`.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from PIL import Image

from engine.model import Deck
from pipeline.common.files import write_bytes
from pipeline.common.pngfile import opaque_png
from pipeline.render.softproof import soft_proof_pages

__all__ = ["Face", "write_faces"]


@dataclass(frozen=True)
class Face:
    """A card face image: its link (relative to the archive root, or to the card page that shows it)
    and its size in px, the ``<img>`` width and height (CSS px, shown 1:1)."""

    href: str
    width: int
    height: int


def write_faces(deck: Deck, fronts_pdf: Path, page_ids: Sequence[str], out_dir: Path, dpi: float,
                target: str | None = None, proofed: bytes | None = None, keep: Callable[[str, object], bool] | None = None) -> dict[str, Face]:
    """Write ``images/<card id>.png`` from each deck card's first page; the faces by card id, in page order.

    A face ``keep`` answers True for (``keep("images/<id>.png", (card, dpi))``) is in place already:
    not rendered, its size read from the PNG header. A card whose page lies past the PDF's last
    page gets no face (the caller reports it: :func:`pipeline.archive.site.write_archive` raises
    ArchiveError). Raises RasterError for an unreadable PDF, OutputError when ``out_dir`` cannot be written.
    """
    cards = {c.id: c for c in deck.cards}
    first: dict[str, int] = {}
    for i, card_id in enumerate(page_ids):
        if card_id in cards:
            first.setdefault(card_id, i)
    faces: dict[str, Face] = {}
    for card_id in first:
        if keep is not None and keep(f"images/{card_id}.png", (cards[card_id], dpi)):
            with Image.open(out_dir / "images" / f"{card_id}.png") as kept:  # the size from the PNG header
                faces[card_id] = Face(f"images/{card_id}.png", kept.width, kept.height)
    pages = [i for card_id, i in first.items() if card_id not in faces]
    for i, raster in zip(pages, soft_proof_pages(fronts_pdf, dpi=dpi, crop_to_trim=True, target=target, proofed=proofed, pages=pages)):
        card_id = page_ids[i]
        write_bytes(out_dir / "images" / f"{card_id}.png", opaque_png(raster.image))
        faces[card_id] = Face(f"images/{card_id}.png", raster.image.width, raster.image.height)
    return {card_id: faces[card_id] for card_id in first if card_id in faces}

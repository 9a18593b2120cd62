"""The archive's card face images: ``images/<card id>.png``, each card's first fronts page as it
will print (the soft proof through the printing target's profile, :mod:`pipeline.render.softproof`),
trim only, rasterised by PDFium and written by :func:`pipeline.common.pngfile.rgb_png_rows`.

:func:`planned_faces` gives every card's face (link and size) from the card layout alone, before the
fronts exist: the build writes the card pages while the print stage runs and the faces after it
(:mod:`pipeline.build.archive_stages`), and checks each face against its plan (:func:`unplanned`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator, Sequence

import numpy as np
from PIL import Image

from engine.model import Deck
from pipeline.common.files import write_bytes
from pipeline.common.layout import CardLayout, load_layout
from pipeline.common.pngfile import rgb_png_rows
from pipeline.common.raster import open_document
from pipeline.render.bitmaps import PageBitmaps
from pipeline.render.softproof import soft_proof_bytes

__all__ = ["Face", "face_size", "planned_faces", "unplanned", "write_faces"]


@dataclass(frozen=True)
class Face:
    """A card face image: its link (relative to the archive root, or to the card page that shows it)
    and its size in px, the ``<img>`` width and height (CSS px, shown 1:1)."""

    href: str
    width: int
    height: int


def face_size(dpi: float, layout: CardLayout | None = None) -> tuple[int, int]:
    """``(width, height)`` in px of a face rendered at ``dpi`` from a fronts page of ``layout`` (default
    :func:`pipeline.common.layout.load_layout`, the layout the fronts are drawn with): the page is the
    trim plus the bleed on every side (:mod:`pipeline.render.deck_pdf`), cropped to the trim. Sizes as
    pypdfium2's ``PdfPage.render`` works them out: each page side ``ceil(pt × dpi / 72)``, less each crop
    ``ceil(pt × dpi / 72)``; 288 × 480 px for 3×5 in with 0.125 in bleed at 96 dpi."""
    layout = layout or load_layout()
    scale, bleed = dpi / 72, layout.bleed
    crop = math.ceil(bleed * scale)
    return tuple(math.ceil((side + 2 * bleed) * scale) - 2 * crop for side in (layout.trim.width, layout.trim.height))


def planned_faces(deck: Deck, dpi: float, layout: CardLayout | None = None) -> dict[str, Face]:
    """The face every deck card gets (``images/<card id>.png``, :func:`face_size`), by card id in deck
    order: the fronts have one page per card in deck order (:func:`pipeline.render.deck_pdf.render_fronts`)."""
    width, height = face_size(dpi, layout)
    return {card.id: Face(f"images/{card.id}.png", width, height) for card in deck.cards}


def unplanned(faces: dict[str, Face], planned: dict[str, Face]) -> list[str]:
    """What differs between the faces written and those planned (the card pages show the plan), one
    line per card (``"ember: 290 × 480 px, planned 288 × 480 px"``, ``"ember: no face"``); [] when they agree."""
    out = []
    for card_id, plan in planned.items():
        face = faces.get(card_id)
        if face is None:
            out.append(f"{card_id}: no face")
        elif face != plan:
            out.append(f"{card_id}: {face.href} {face.width} × {face.height} px, planned {plan.href} {plan.width} × {plan.height} px")
    return out + [f"{card_id}: a face not planned" for card_id in faces if card_id not in planned]


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
    if pages:
        for i, rows in zip(pages, _trim_rows(proofed if proofed is not None else soft_proof_bytes(fronts_pdf, target), dpi, pages)):
            card_id = page_ids[i]
            write_bytes(out_dir / "images" / f"{card_id}.png", rgb_png_rows(rows))
            faces[card_id] = Face(f"images/{card_id}.png", (rows.shape[1] - 1) // 3, rows.shape[0])
    return {card_id: faces[card_id] for card_id in first if card_id in faces}


def _trim_rows(pdf: bytes, dpi: float, pages: Sequence[int]) -> Iterator[np.ndarray]:
    """The ``pages`` (0-based, ascending; those past the last page left out) of the soft-proofed fronts
    ``pdf`` rendered at ``dpi``, trim only, as PNG scanlines: ``(height, 1 + 3 × width)`` arrays, each row
    the filter byte 0 and the row's RGB pixels, the pixels :func:`pipeline.render.softproof.soft_proof_pages`
    gives (PDFium's RGB render of each page cut to its TrimBox, by the same calls:
    :class:`pipeline.render.bitmaps.PageBitmaps`), rendered in place in the rows
    :func:`pipeline.common.pngfile.rgb_png_rows` deflates (issue 22: no Pillow image, no copy into PNG
    rows). Each array is overwritten by the next (one bitmap for every face). Raises RasterError for an unreadable PDF."""
    with open_document(pdf) as doc, PageBitmaps(grey=False, png_rows=True) as bitmaps:
        for i in (i for i in pages if 0 <= i < len(doc)):
            bitmaps.trim(doc, i, dpi)
            yield bitmaps.rows

"""The card PDFs an imposition reads (:func:`read_sources`), checked against each other and the copies to print."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from pipeline.render.formpages import CardPages, check_page_ids
from pipeline.render.sheets import ImpositionError


def read_sources(fronts_pdf: str | Path | CardPages, backs_pdf: str | Path | CardPages | None,
                 braille_pdf: str | Path | CardPages | None, copies: Sequence[tuple[int, int, int]],
                 front_ids: Sequence[str] | None, back_ids: Sequence[str] | None) -> tuple[CardPages, CardPages | None, CardPages | None]:
    """The card PDFs of :func:`pipeline.render.impose.impose` read (fronts, backs, braille layer: each a path or a
    :class:`CardPages` already read) and checked against each other and ``copies`` (``(front, back, copies)`` per card).

    Raises :class:`ImpositionError` (no fronts page, a braille layer whose page count differs from the fronts',
    a page index out of range, negative copies) or :class:`StaleCardPdfError` (:func:`check_page_ids`).
    """
    fronts = _source(fronts_pdf, "front")
    backs = _source(backs_pdf, "back") if backs_pdf is not None else None
    braille = _source(braille_pdf, "braille") if braille_pdf is not None else None
    if not fronts.pages:
        raise ImpositionError(f"the fronts PDF {fronts.path} has no pages")
    if front_ids is not None:
        check_page_ids(fronts, front_ids)
        if braille is not None:
            check_page_ids(braille, front_ids)
    if back_ids is not None and backs is not None:
        check_page_ids(backs, back_ids)
    if braille is not None and len(braille.pages) != len(fronts.pages):
        raise ImpositionError(
            f"the braille layer {braille.path} has {len(braille.pages)} pages, the fronts {fronts.path} "
            f"{len(fronts.pages)}: they must match page for page")
    for f, b, n in copies:
        if not 0 <= f < len(fronts.pages):
            raise ImpositionError(f"front page index {f} outside the {len(fronts.pages)} pages of {fronts.path}")
        if backs is not None and not 0 <= b < len(backs.pages):
            raise ImpositionError(f"back page index {b} outside the {len(backs.pages)} pages of {backs.path}")
        if n < 0:
            raise ImpositionError(f"negative copies ({n}) for front page {f}")
    return fronts, backs, braille


def _source(source: str | Path | CardPages, role: str) -> CardPages:
    return source if isinstance(source, CardPages) else CardPages(source, role)

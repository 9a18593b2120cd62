"""The print floor of ``make bench``: what a bare reportlab loop needs to draw a card.

Draws, per card, what the like-for-like print figure draws (the card's name and power in
Atkinson Hyperlegible, embedded as deckpress embeds it, and its QR code as one filled path
of a unit square per dark module under one matrix, CMYK, as deckpress draws it) on a 3×5 in page plus 0.125 in bleed, and saves the PDF:
no layout, no text fitting, no PDF/X finishing, no checks. The QR matrices come from
:func:`pipeline.qr.codes.qr_matrix` before the clock starts, so the floor is reportlab's
drawing and writing alone (DESIGN.md §7 compares deckpress's per-card time with it).
"""

from __future__ import annotations

import io
import time

#: The bled page: 3 × 5 in plus 0.125 in bleed each side, in pt.
PAGE_PT = (3 * 72 + 18, 5 * 72 + 18)
#: QR box: 1 in square, 0.5 in from the trim's bottom-left (the layout's own box is similar).
QR_BOX_PT = (45.0, 45.0, 72.0)


def reportlab_floor(names: list[str], powers: list[str], urls: list[str]) -> float:
    """Seconds for a bare reportlab loop to draw and save ``len(names)`` cards (see the module docs).

    ``names``, ``powers`` and ``urls`` are parallel lists (one entry per card).
    """
    from reportlab.pdfgen.canvas import Canvas

    from pipeline.qr.codes import qr_matrix
    from pipeline.render.fonts import face

    font = face("bold").name
    matrices = [qr_matrix(u) for u in urls]
    start = time.perf_counter()
    canvas = Canvas(io.BytesIO(), pagesize=PAGE_PT, pageCompression=1)
    x0, y0, side = QR_BOX_PT
    for name, power, matrix in zip(names, powers, matrices):
        canvas.setFillColorCMYK(0, 0, 0, 1)
        canvas.setFont(font, 24)
        canvas.drawString(27, PAGE_PT[1] - 60, name)
        canvas.setFont(font, 36)
        canvas.drawRightString(PAGE_PT[0] - 27, PAGE_PT[1] - 60, power)
        # One path of unit squares under one matrix, as deckpress draws its codes (no seams).
        module = side / len(matrix)
        canvas.saveState()
        canvas.transform(module, 0, 0, -module, x0, y0 + side)
        path = canvas.beginPath()
        for r, row in enumerate(matrix):
            for c, dark in enumerate(row):
                if dark:
                    path.rect(c, r, 1, 1)
        canvas.drawPath(path, stroke=0, fill=1)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return time.perf_counter() - start

"""Print rendering: the card fronts and backs a print shop prints (DESIGN.md §4).

- :mod:`pipeline.render.fonts`: Atkinson Hyperlegible registered for embedding and subsetting.
- :mod:`pipeline.render.style`: the text styles and faces of a card layout template.
- :mod:`pipeline.render.textfit`: word wrap and fit of text into a box, never below 18 pt.
- :mod:`pipeline.render.contrast`: WCAG 2 contrast of the palettes' text/background pairs.
- :mod:`pipeline.render.card`: one card front or back drawn on a reportlab canvas.
- :mod:`pipeline.render.deck_pdf`: the fronts and backs PDFs of a deck (:func:`render_fronts`).
- :mod:`pipeline.render.pdfx`: PDF/X-1a:2003 post-processing with pikepdf.
"""

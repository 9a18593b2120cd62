"""Print rendering: the card fronts and backs a print shop prints (DESIGN.md §4).

- :mod:`pipeline.render.fonts`: Atkinson Hyperlegible registered for embedding and subsetting.
- :mod:`pipeline.render.style`: the text styles and faces of a card layout template.
- :mod:`pipeline.render.textfit`: word wrap and fit of text into a box, never below 18 pt.
- :mod:`pipeline.render.targets`: printing targets as data (templates/targets/*.yaml).
- :mod:`pipeline.render.colour`: CMYK through the target's ICC profile (LittleCMS): measured CIELAB, luminance, soft proof.
- :mod:`pipeline.render.contrast`: the palettes' printed WCAG 2 contrast (PR002) and sRGB vs soft proof (PR008).
- :mod:`pipeline.render.inklimit`: total ink coverage against the target's limit (PR010).
- :mod:`pipeline.render.softproof`: print PDFs as sRGB soft proofs, for the proofs and the archive.
- :mod:`pipeline.render.bitmaps`: page renders into one reused PDFium bitmap (the QR check, the archive faces).
- :mod:`pipeline.render.card`: one card front or back drawn on a reportlab canvas.
- :mod:`pipeline.render.deck_pdf`: the fronts and backs PDFs of a deck (:func:`render_fronts`).
- :mod:`pipeline.render.pdfx`: PDF/X-1a:2003 post-processing with pikepdf.
"""

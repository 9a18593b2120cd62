"""Braille: liblouis UEB translation, cells, power and die-face encodings, geometry and card layout.

Cells (Unicode braille U+2800–U+283F) are the unit of truth: BRF, PEF, the UV dot
layer and the proofs are all drawn from the same laid-out cells.
"""

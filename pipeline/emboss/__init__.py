"""Embosser files (DESIGN.md §5): BRF and PEF from the braille stage's laid-out cells.

Modules, one job each: :mod:`~pipeline.emboss.profiles` (embosser profiles as data,
page formats), :mod:`~pipeline.emboss.pages` (cards onto embosser pages, card or
sheet layout), :mod:`~pipeline.emboss.brf` (Braille ASCII files), :mod:`~pipeline.emboss.pef`
(PEF 1.0 documents), :mod:`~pipeline.emboss.validate` (RELAX NG + Schematron rules),
:mod:`~pipeline.emboss.write` (the stage: check and write the files) and
:mod:`~pipeline.emboss.rules` (the EM finding codes).
"""

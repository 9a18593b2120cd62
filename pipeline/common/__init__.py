"""Shared low-level helpers of every stage: safe file writes, rasterising PDFs, card layout templates."""

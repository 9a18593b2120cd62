"""Tuck boxes: dieline geometry, face design, PDF writer, imposition and proofs (issue #21; README "Tuck boxes")."""

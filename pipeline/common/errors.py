"""The error of an output that cannot or must not be written (shared by safe writes and the output folder)."""

from __future__ import annotations


class OutputError(OSError):
    """An output path that cannot be written (unwritable folder, full disk, a file deckpress did
    not write in the way); the message names the path."""

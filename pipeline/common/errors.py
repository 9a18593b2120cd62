"""The error of an output that cannot or must not be written (shared by safe writes and the output folder)."""

from __future__ import annotations


class OutputError(OSError):
    """An output path that cannot be written (unwritable folder, full disk, a file deckpress did
    not write in the way); the message names the path."""

    def __str__(self) -> str:
        # The message as a user reads it: "cannot write to out: Permission denied", not OSError's
        # "[Errno 13] cannot write to out: Permission denied: 'out'".
        if self.strerror is None:
            return super().__str__()
        named = self.filename is None or str(self.filename) in self.strerror
        return self.strerror if named else f"{self.strerror}: {self.filename}"

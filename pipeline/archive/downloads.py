"""The braille volumes offered for download on the archive, and each card's place in the card reference.

The archive is a static site served on its own (the QR codes open it), so it carries its
own copies of the companion volumes (:func:`pipeline.emboss.volume_files.write_volumes`) in
``braille/``: the card reference and braille key, and the rulebook when the game's data
names its rulebook file, laid out for :data:`DOWNLOAD_PROFILE` (the build's default sheet
embosser, 43 cells × 25 lines). The emboss stage writes the same volumes for every sheet
profile of the build.
"""

from __future__ import annotations

from pathlib import Path

from engine.model import Deck
from pipeline.emboss.profiles import load_profile
from pipeline.emboss.volume_files import write_volumes
from pipeline.emboss.write import pef_date

#: The embosser profile of the downloadable volumes (the build's default sheet job).
DOWNLOAD_PROFILE = "index-everest-d"
#: Folder of the downloads inside the archive.
DOWNLOADS = "braille"


def write_downloads(deck: Deck, out_dir: str | Path) -> tuple[list[Path], dict]:
    """Write the volumes into ``out_dir/braille/``; returns ``(paths, view)``.

    ``view`` is ``{"profile", "cells", "lines", "volumes": [{"title", "pages", "brf", "pef"}],
    "entries": {card_id: {"entry", "page"}}, "reference": {"brf", "pef"}}`` with file paths
    relative to the archive root. Raises :class:`pipeline.common.files.OutputError` when the
    folder cannot be written.
    """
    prof = load_profile(DOWNLOAD_PROFILE)
    result = write_volumes(deck, prof, Path(out_dir) / DOWNLOADS, pef_date(deck))
    volumes, entries, reference = [], {}, {}
    for vol in result.sidecar.get("volumes", []):
        files = {name.rsplit(".", 1)[1]: f"{DOWNLOADS}/{name}" for name in vol["files"]}
        volumes.append({"title": vol["title"], "pages": vol["pages"], **files})
        if vol["volume"] == "card-reference":
            entries, reference = vol["entries"], files
    view = {"profile": prof.model, "cells": result.sidecar.get("cells_per_line"), "lines": result.sidecar.get("lines_per_page"),
            "volumes": volumes, "entries": entries, "reference": reference}
    return list(result.paths), view

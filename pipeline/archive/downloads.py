"""The braille volumes offered for download on the archive, and each card's place in the card reference.

The archive is a static site served on its own (the QR codes open it), so it carries its
own copies of the companion volumes (:func:`pipeline.emboss.volume_files.write_volumes`) in
``braille/``: the card reference and braille key, and the rulebook when the game's data
names its rulebook file, laid out for :data:`DOWNLOAD_PROFILE` (the build's default sheet
embosser, 43 cells × 25 lines). The emboss stage writes the same volumes for every sheet
profile of the build.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.model import Deck
from pipeline.common.files import write_bytes
from pipeline.emboss.profiles import load_profile
from pipeline.emboss.volume_files import sidecar_name, write_volumes
from pipeline.emboss.write import pef_date

#: The embosser profile of the downloadable volumes (the build's default sheet job).
DOWNLOAD_PROFILE = "index-everest-d"
#: Folder of the downloads inside the archive.
DOWNLOADS = "braille"


def write_downloads(deck: Deck, out_dir: str | Path, made: str | Path | None = None) -> tuple[list[Path], dict]:
    """Write the volumes into ``out_dir/braille/``; returns ``(paths, view)``.

    ``made`` is a folder where :func:`pipeline.emboss.volume_files.write_volumes` has just written
    the same volumes (the emboss stage, for :data:`DOWNLOAD_PROFILE`, the deck's PEF date and no
    ``--rulebook``): their files are copied from there, as listed in its sidecar, instead of being
    laid out, checked and written a second time (the same bytes); a folder without that sidecar
    (another profile, or a rulebook) is not used.
    ``view`` is ``{"profile", "cells", "lines", "volumes": [{"title", "pages", "brf", "pef"}],
    "entries": {card_id: {"entry", "page"}}, "reference": {"brf", "pef"}}`` with file paths
    relative to the archive root. Raises :class:`pipeline.common.files.OutputError` when the
    folder cannot be written.
    """
    prof = load_profile(DOWNLOAD_PROFILE)
    copied = _copy_volumes(deck, Path(made), Path(out_dir) / DOWNLOADS) if made is not None else None
    if copied is None:
        result = write_volumes(deck, prof, Path(out_dir) / DOWNLOADS, pef_date(deck))
        copied = list(result.paths), result.sidecar
    paths, sidecar = copied
    volumes, entries, reference = [], {}, {}
    for vol in sidecar.get("volumes", []):
        files = {name.rsplit(".", 1)[1]: f"{DOWNLOADS}/{name}" for name in vol["files"]}
        volumes.append({"title": vol["title"], "pages": vol["pages"], **files})
        if vol["volume"] == "card-reference":
            entries, reference = vol["entries"], files
    view = {"profile": prof.model, "cells": sidecar.get("cells_per_line"), "lines": sidecar.get("lines_per_page"),
            "volumes": volumes, "entries": entries, "reference": reference}
    return paths, view


def _copy_volumes(deck: Deck, made: Path, dest: Path) -> tuple[list[Path], dict] | None:
    """Copy the volumes and sidecar ``write_volumes`` wrote into ``made`` for :data:`DOWNLOAD_PROFILE`
    to ``dest``; ``(paths, sidecar)`` in ``write_volumes``' order, or None when ``made`` has no such sidecar
    or it lists no volumes (the profile's paper took none: laid out again, which reports nothing either)."""
    name = sidecar_name(deck.game.id, DOWNLOAD_PROFILE)
    try:
        data = (made / name).read_bytes()
    except OSError:
        return None
    sidecar = json.loads(data)
    if not sidecar.get("volumes"):
        return None
    paths = [write_bytes(dest / f, (made / f).read_bytes()) for vol in sidecar["volumes"] for f in vol["files"]]
    return paths + [write_bytes(dest / name, data)], sidecar

"""A partial build (``build --only``): what the stages not run keep from the previous build.

The stages not run keep their files (hard-linked into the staging folder, so the swap
replaces only what this build makes) and their findings (read back from the previous
manifest), so the new manifest and report describe the whole output folder.
"""

from __future__ import annotations

import dataclasses
import os
import shutil
from pathlib import Path

from engine.findings import Finding, Location
from pipeline.build.manifest import MANIFEST, read_manifest
from engine.findings import finding_from_dict
from pipeline.build.stages import FAMILIES, FOLDERS


def findings_of_other_stages(final: Path, running: list[str], game_dir: str | Path | None = None) -> list[Finding]:
    """The previous build's findings (in ``final``) of the stages not in ``running``, whose files are kept.

    The manifest names files portably (:func:`pipeline.build.report.portable_findings`): an output
    file relative to the game's output folder (``sheets/mini-letter-fronts.pdf``), a data file
    relative to the game folder's parent (``mini/cards.yaml``). With ``game_dir`` given, each is
    anchored back where it lies, so the new manifest names it as the previous one did (read as
    they stand, the output files were named relative to the working directory: ``../x/sheets/…``).
    """
    previous = read_manifest(final) or {}
    kept = tuple(fam for stage, fams in FAMILIES.items() if stage not in running for fam in fams)
    found = [finding_from_dict(d) for d in previous.get("findings", []) if d["code"].startswith(kept)] if kept else []
    if game_dir is None:
        return found
    outputs, data_root = set(FOLDERS.values()), Path(game_dir).resolve().parent

    def anchor(loc: Location) -> Location:
        if not loc.file or Path(loc.file).is_absolute():
            return loc
        base = final if Path(loc.file).parts[0] in outputs else data_root
        return dataclasses.replace(loc, file=str(base / loc.file))

    return [dataclasses.replace(f, location=anchor(f.location), related=tuple(anchor(r) for r in f.related)) for f in found]


def keep_other_outputs(final: Path, staging: Path, running: list[str]) -> None:
    """Hard-link (else copy) the previous output in ``final`` of the stages not in ``running``
    into the staging folder; the manifest is not kept (the build writes a new one)."""
    if not final.is_dir():
        return
    remade = {FOLDERS[name] for name in running if name in FOLDERS}
    for src in final.rglob("*"):
        rel = src.relative_to(final)
        if not src.is_file() or rel.parts[0] in remade or rel.name == MANIFEST:
            continue
        dest = staging / rel
        dest.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(src, dest)
        except OSError:
            shutil.copy2(src, dest)

"""The build manifest and the build key that lets an unchanged rebuild skip all work.

``manifest.json`` (one per game) lists every output file with its size and sha256,
the card and copy counts, the provisional-card count, tool and library versions,
the settings used and the findings. It holds no timestamps, so two builds of the
same input give byte-identical manifests.

The build key is a sha256 over everything an output depends on: the game's data
files (and its base game's, for an expansion), the templates, the deckpress code,
the library versions and the settings. Computing it reads files only; nothing
heavy is imported, so an unchanged rebuild stays well under half a second.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import re
import stat
import sys
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from engine.findings import counts, exit_code, sort_key
from engine.paths import SLUG
from pipeline.build import yamlfacts
from pipeline.build.report import portable_findings
from pipeline.common.files import staging_writes, write_text
from pipeline.common.jsontext import document_text
from pipeline.common.ownership import STAGING_MARK

if TYPE_CHECKING:
    from pipeline.build.job import Job

ROOT = Path(__file__).resolve().parents[2]
CODE_DIRS = (ROOT / "engine", ROOT / "pipeline", ROOT / "templates")
MANIFEST = "manifest.json"


def sha256_file(path: Path) -> str:
    """Hex sha256 of a file's bytes, read in 1 MiB blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def liblouis_version() -> str:
    """liblouis's version via Debian's python3-louis, or "unavailable"."""
    try:
        import louis

        return louis.version()
    except Exception:  # louis missing or the shared library not loadable
        return "unavailable"


@lru_cache(maxsize=1)
def versions() -> dict[str, str]:
    """deckpress, Python, liblouis and library versions, for the manifest and the build key."""
    installed = _installed()
    out = {"deckpress": _version("deckpress", installed), "python": platform.python_version(), "liblouis": liblouis_version()}
    out.update({name: _version(name, installed) for name in libraries(installed)})
    return out


def _normal(name: str) -> str:
    """A distribution name normalised as PEP 503 says (``Pillow`` and ``pillow``, ``pydantic_core`` and ``pydantic-core`` are one)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _installed() -> dict[str, Path]:
    """``{normalised name: its .dist-info folder}`` of the distributions on ``sys.path``, first one wins.

    The folder names follow the wheel format's ``{name}-{version}.dist-info`` (PEP 427, "The
    .dist-info directory"): one directory listing per path entry, then only the METADATA headers
    deckpress needs are read, instead of importlib.metadata's scan of every distribution (an
    unchanged rebuild's key costs ~0.1 s less). Names not found here fall back to importlib.metadata.
    """
    found: dict[str, Path] = {}
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            if name.endswith(".dist-info") and "-" in name:
                found.setdefault(_normal(name[: -len(".dist-info")].rsplit("-", 1)[0]), Path(entry or ".", name))
    return found


def libraries(installed: dict[str, Path] | None = None) -> list[str]:
    """The distributions deckpress runs on: its declared dependencies (not the test extras),
    from the ``Requires-Dist`` lines of its installed METADATA (core metadata 2.1 §Requires-Dist)."""
    folder = (installed if installed is not None else _installed()).get("deckpress")
    try:
        lines = (folder / "METADATA").read_text(encoding="utf-8").splitlines() if folder else None
    except OSError:
        lines = None
    if lines is None:
        import importlib.metadata  # the fallback only: importing it (email, zipfile, csv …) cost an unchanged rebuild ~50 ms

        try:
            requires = importlib.metadata.requires("deckpress") or []
        except importlib.metadata.PackageNotFoundError:
            return []
    else:
        requires = [line.split(":", 1)[1].strip() for line in lines if line.startswith("Requires-Dist:")]
    return sorted({re.match(r"[A-Za-z0-9_.-]+", r).group(0) for r in requires if "extra ==" not in r})


def _version(dist: str, installed: dict[str, Path] | None = None) -> str:
    folder = (installed or {}).get(_normal(dist))
    if folder is not None:
        try:
            with open(folder / "METADATA", encoding="utf-8") as fh:
                for line in fh:  # the header's Version field (core metadata §Version), as importlib.metadata reads it
                    if line.startswith("Version:"):
                        return line.split(":", 1)[1].strip()
                    if not line.strip():
                        break  # the header ended without a Version: ask importlib.metadata below
        except OSError:
            pass  # an unreadable METADATA: importlib.metadata below reports the version or "not installed"
    import importlib.metadata  # the fallback only (see libraries)

    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "not installed"


def game_id_of(game_dir: Path) -> str | None:
    """The ``id`` in a game folder's game.yaml (safe YAML, no data model), or None if unreadable."""
    found = yamlfacts.facts(game_dir / "game.yaml")  # remembered by the file's sha256 (no YAML parser when known)
    game_id = found[0] if found else None
    # Only a slug may become a folder name under --out (``../victim`` must not); the loader
    # reports any other id properly.
    return game_id if isinstance(game_id, str) and SLUG.fullmatch(game_id) else None


def game_sources(game_dir: Path) -> list[Path]:
    """The data files a game depends on: its folder's files and, for an expansion, its base game's.

    Reads only ``extends.game`` from game.yaml (safe YAML); raises nothing for a
    malformed file (the loader reports that properly).
    """
    seen: list[Path] = []
    folder: Path | None = game_dir.resolve()
    while folder is not None and folder not in seen:
        seen.append(folder)
        found = yamlfacts.facts(folder / "game.yaml")  # None for an unreadable game.yaml: the loader reports it; hash what is there
        folder = (folder / found[1]).resolve() if found and found[1] is not None else None
    return sorted(p for d in seen if d.is_dir() for p in d.rglob("*") if p.is_file())


@lru_cache(maxsize=1)
def code_digest() -> bytes:
    """sha256 over the names (relative to the repository) and bytes of deckpress's code and templates.

    Hashed once per process: a build of four games hashed the same files four times. Listed with
    os.walk, not Path.rglob and is_file (half of the 7 ms the ~230 files took), in the order sorted()
    gives their Paths (by parts); a symlinked folder is not entered, as rglob does not.
    """
    found = []
    for folder in CODE_DIRS:
        for dirpath, dirs, names in os.walk(folder):
            dirs[:] = [d for d in dirs if d != "__pycache__"]
            found += [(rel.split(os.sep), rel, path) for name in names
                      if os.path.isfile(path := os.path.join(dirpath, name)) for rel in (os.path.relpath(path, ROOT),)]
    digest = hashlib.sha256()
    for _, rel, path in sorted(found):
        digest.update(rel.encode())
        with open(path, "rb") as fh:
            digest.update(fh.read())
    return digest.digest()


def build_key(game_dir: Path, settings: dict) -> str:
    """sha256 over data, templates, code, versions and settings (see module docs)."""
    digest = hashlib.sha256()
    # Names relative to the game's parent folder and to the repository, so the same data
    # and code give the same key (and manifest) in any clone.
    game_parent = game_dir.resolve().parent
    for path in game_sources(game_dir):
        digest.update(os.path.relpath(path, game_parent).encode())
        digest.update(path.read_bytes())
    digest.update(code_digest())
    digest.update(json.dumps(settings, sort_keys=True).encode())
    rulebook = Path(str(settings.get("rulebook") or ""))
    if settings.get("rulebook") and rulebook.is_file():  # --rulebook's text becomes the rulebook volume
        digest.update(rulebook.read_bytes())
    digest.update(json.dumps(versions(), sort_keys=True).encode())
    return digest.hexdigest()


def file_entries(folder: Path, verified: dict[str, tuple[int, str]] | None = None) -> list[dict]:
    """Every file under ``folder`` (except the manifest) as ``{path, bytes, sha256}``, sorted by path.

    ``verified`` gives ``(bytes, sha256)`` of files hashed already this build (the per-card files, kept
    from the previous build or hashed by the stage that rendered them, :mod:`pipeline.build.cardkeys`):
    used when the size still matches.
    """
    known = verified or {}
    root = os.fspath(folder)
    found: list[tuple[list[str], str, os.stat_result]] = []
    # os.walk and one stat a file, not Path.rglob, is_file, relative_to and stat (four syscalls and Path
    # objects each; 0.58 of a 2,000-card manifest's 1.55 s); a symlinked folder is not entered, as rglob does not
    for dirpath, _, names in os.walk(root):
        prefix = os.path.relpath(dirpath, root).replace(os.sep, "/") + "/"
        prefix = "" if prefix == "./" else prefix
        for name in names:
            rel = prefix + name
            if name == MANIFEST or rel == STAGING_MARK:
                continue
            try:
                st = os.stat(os.path.join(dirpath, name))  # follows a symlink, as is_file does
            except OSError:
                continue  # a dangling symlink: not a file
            if stat.S_ISREG(st.st_mode):
                found.append((rel.split("/"), rel, st))
    out = []
    for _, rel, st in sorted(found, key=lambda item: item[0]):  # by path parts: the order sorted() gives Paths
        size = st.st_size
        sha = known[rel][1] if rel in known and known[rel][0] == size else sha256_file(folder / rel)
        out.append({"path": rel, "bytes": size, "sha256": sha})
    return out


def read_manifest(folder: Path) -> dict | None:
    """The manifest of a previous build in ``folder``, or None when absent or unreadable."""
    try:
        return json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def standing_files(folder: Path) -> list[str]:
    """The files a previous build left in ``folder`` (its manifest's paths), [] when there is none:
    what a game stopped by findings or unreadable data still has on disk, since nothing replaces it."""
    manifest = read_manifest(folder) if folder.is_dir() else None
    return [e["path"] for e in manifest.get("files", [])] if isinstance(manifest, dict) else []


def volume_entries(folder: Path) -> list[dict]:
    """The companion volumes the emboss stage wrote (its ``emboss/*-volumes.json`` sidecars): one
    ``{"profile", "volume", "pages", "files"}`` per volume, in file-name order."""
    out = []
    for sidecar in sorted((folder / "emboss").glob("*-volumes.json")):
        data = json.loads(sidecar.read_text(encoding="utf-8"))
        out += [{"profile": data["profile"], "volume": v["volume"], "pages": v["pages"], "files": v["files"]} for v in data["volumes"]]
    return out


def write_manifest(job: Job, key: str, deck_counts: dict[str, int], card_keys: dict[str, str] | None = None,
                   verified: dict[str, tuple[int, str]] | None = None) -> tuple[dict, str]:
    """Write ``manifest.json`` into the job's staging folder; return it and the hex sha256 of its bytes.

    ``card_keys`` gives the per-card files their card key (``{path: sha256 hex}``,
    :mod:`pipeline.build.cardkeys`), written beside their size and sha256 as ``card_key``;
    ``verified`` the files hashed already (:func:`file_entries`).

    ``deck_counts`` holds ``cards`` (unique cards), ``copies`` (printed cards),
    ``provisional`` (provisional cards) and ``placeholder_faces`` (printed faces with
    placeholder art) of the print run, ``run`` and ``release``; ``key`` is the
    :func:`build_key`. ``runs`` gives the unique and printed cards of every print run
    (:func:`engine.runs.run_counts`). The files listed are those in the staging folder
    now, so every stage must have run.
    """
    from engine.runs import run_counts

    final = Path(job.settings.out_dir) / job.game_id
    findings = sorted(portable_findings(job.findings, job.deck.folder, (job.staging, final)), key=sort_key)
    manifest = {
        "game": job.game_id,
        "title": job.deck.game.title,
        "build_key": key,
        # --force recorded only where it wrote past findings that would have stopped the game.
        "forced": job.settings.force and exit_code(job.findings, job.settings.strict) != 0,
        "unique_cards": deck_counts["cards"],
        "printed_cards": deck_counts["copies"],
        "provisional_cards": deck_counts["provisional"],
        "placeholder_art_faces": deck_counts.get("placeholder_faces", 0),
        "run": deck_counts.get("run", "box"),
        "release": deck_counts.get("release", False),
        "runs": run_counts(job.game_deck),
        "cards_per_class": {c.id: job.deck.copies_of(c.id) for c in job.deck.game.classes},
        "settings": job.settings.key_dict(),
        "versions": versions(),
        "findings_summary": counts(findings),
        "findings": [f.to_dict() for f in findings],
        "volumes": volume_entries(job.staging),
        "files": [{**e, "card_key": card_keys[e["path"]]} if e["path"] in (card_keys or {}) else e for e in file_entries(job.staging, verified)],
    }
    text = document_text(manifest)
    with staging_writes():  # the manifest belongs to the staging folder like every stage's file
        write_text(job.staging / MANIFEST, text)
    return manifest, hashlib.sha256(text.encode("utf-8")).hexdigest()

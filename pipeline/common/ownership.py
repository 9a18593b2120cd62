"""Which files deckpress wrote, so that it never deletes or overwrites one it did not.

deckpress recognises its own output by two records it writes itself:

- a build's game folder (``<out>/<game>/``) holds ``manifest.json``, which lists every
  file of that build (path, size, sha256) beside the build key and the versions;
- a stand-alone command (``render``, ``emboss``, ``proof``, ``export`` …) writes, beside the
  files it writes, a ledger ``.deckpress-files`` naming them with the sha256 of the bytes it
  wrote (per folder, a JSON object ``{name: sha256}`` followed by one ``["name", "sha256"]`` line
  for each file recorded since; an older ledger, a JSON list of names, is still read, its files
  trusted by name).

A stand-alone command's file is deckpress's only while it holds the bytes deckpress wrote: the
spreadsheet ``deckpress export`` writes is made to be filled in, and once edited it is the
user's. A build's own files (its manifest's) stay the build's: one changed since is rendered
again, as a build folder is deckpress's output through and through. The rules built on them:

- a file may be overwritten only when it is deckpress's: listed in the manifest of a build
  folder above it, or in its folder's ledger with the bytes recorded there (:func:`check_overwrite`);
- a game folder may be replaced whole only when every file in it is deckpress's
  (:func:`foreign_files` is empty: nothing unlisted, no ledger file edited);
- no output goes into a game folder or a folder holding card data (:func:`card_data_near`).

Errors are :class:`ForeignOutput` (an :class:`OutputError`), whose message names the
folder and what in it deckpress did not write.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from pipeline.common.errors import OutputError

MANIFEST = "manifest.json"
LEDGER = ".deckpress-files"
#: Marks a staging folder as deckpress's, so that cleaning up never deletes a folder of the
#: same name that someone else made; removed just before the folder is swapped in.
STAGING_MARK = ".deckpress-staging"
#: The files that make a folder card data (engine/paths.py: GAME_FILE, CARDS_FILE).
CARD_DATA_FILES = ("game.yaml", "cards.yaml")
#: The output folder's lock file (:class:`pipeline.build.outputdir.OutputLock`), taken by name.
LOCK_NAME = ".deckpress.lock"
_SHOWN = 5  # foreign files named in a message; the rest are counted


class ForeignOutput(OutputError):
    """An output path or folder holds files deckpress did not write, or card data; nothing was written."""

    def __init__(self, message: str) -> None:
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0])


def is_build_manifest(data: object) -> bool:
    """True for the manifest.json a deckpress build writes (its own keys, not any JSON file)."""
    return isinstance(data, dict) and isinstance(data.get("files"), list) and "build_key" in data and "game" in data


def _read_json(path: Path) -> object:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def read_build_manifest(folder: Path) -> dict | None:
    """The deckpress build manifest in ``folder``, or None (absent, unreadable, or someone else's)."""
    data = _read_json(folder / MANIFEST)
    return data if is_build_manifest(data) else None


def ledger(folder: Path) -> dict[str, str | None]:
    """``{file name: sha256 hex}`` of the ledger of ``folder`` (empty when there is none or it is
    unreadable); a name from an older ledger (a list of names) maps to None: trusted by its name.

    The file is a JSON object (or an older ledger's list), then one ``["name", "sha256"]`` line per
    file recorded since (:func:`record_written` appends); a later line wins, and a line a crash cut
    short is skipped."""
    try:
        text = (folder / LEDGER).read_text(encoding="utf-8")
        data, end = json.JSONDecoder().raw_decode(text.lstrip())
    except (OSError, ValueError):
        return {}
    entries: dict[str, str | None] = {}
    if isinstance(data, list):
        entries = {n: None for n in data if isinstance(n, str)}
    elif isinstance(data, dict):
        entries = {n: d if isinstance(d, str) else None for n, d in data.items() if isinstance(n, str)}
    for line in text.lstrip()[end:].splitlines():
        try:
            name, digest = json.loads(line)
        except (ValueError, TypeError):
            continue
        if isinstance(name, str):
            entries[name] = digest if isinstance(digest, str) else None
    return entries


def ledger_names(folder: Path) -> set[str]:
    """The file names the ledger of ``folder`` lists (empty when there is none or it is unreadable)."""
    return set(ledger(folder))


def file_sha256(path: Path) -> str | None:
    """The sha256 hex of ``path``'s bytes, or None when it cannot be read."""
    try:
        with open(path, "rb") as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except OSError:
        return None


#: What this process last left in each folder's ledger: ``{(pid, folder): (the file's stat, its entries)}``.
_WRITTEN: dict[tuple[int, str], tuple[tuple[int, int, int] | None, dict[str, str | None]]] = {}


def record_written(path: Path, written: Path | None = None) -> None:
    """Record ``path``'s name in its folder's ledger, with the sha256 of ``written`` (the file about
    to be renamed onto ``path``; default ``path`` itself), before that rename.

    The first record a process makes in a folder rewrites the ledger whole (atomically, merged);
    each later one appends one line while the ledger is as this process left it (its inode, size
    and mtime), else it is read and rewritten again. Rewriting the whole ledger for every file made
    a stand-alone command of n files write O(n²) bytes: 6 of the 24 s of ``deckpress proof`` for
    2,000 cards. Raises OSError when the folder cannot be written (the caller turns it into an OutputError).
    """
    folder = path.parent
    file = folder / LEDGER
    digest = file_sha256(written or path)
    key = (os.getpid(), str(folder))
    held = _WRITTEN.get(key)
    if held is not None and held[0] == _stat_of(file):
        entries = held[1]
        if entries.get(path.name, "") == digest:
            return
        entries[path.name] = digest
        with open(file, "a", encoding="utf-8") as fh:
            fh.write(json.dumps([path.name, digest]) + "\n")
    else:
        entries = ledger(folder)
        entries[path.name] = digest
        tmp = folder / f"{LEDGER}.{os.getpid()}.part"
        tmp.write_text(json.dumps(dict(sorted(entries.items())), indent=1) + "\n", encoding="utf-8")
        os.replace(tmp, file)
    _WRITTEN[key] = (_stat_of(file), entries)


def _stat_of(path: Path) -> tuple[int, int, int] | None:
    """``(inode, size, mtime ns)`` of ``path``, None when it is not there: enough to tell whether
    anyone else rewrote, appended to or removed the ledger since this process wrote it."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def holds_written_bytes(path: Path, sha256: str | None) -> bool:
    """True when ``path`` still holds the bytes deckpress recorded for it (``sha256`` hex); a record
    without a digest (an older ledger's) is trusted."""
    return sha256 is None or file_sha256(path) == sha256


def _listed_in_build(path: Path) -> bool:
    """True when a build manifest in one of ``path``'s ancestor folders lists it."""
    for folder in path.parents:
        manifest = read_build_manifest(folder)
        if manifest is not None:
            rel = path.relative_to(folder).as_posix()
            return any(isinstance(e, dict) and e.get("path") == rel for e in manifest["files"])
    return False


def _is_own_report(path: Path) -> bool:
    """A build's report.json written before ledgers existed: exactly its two keys, ``games`` (each game's
    entry an object with its ``counts`` of whole numbers) and ``counts``, not any JSON file with those keys."""
    data = _read_json(path) if path.name == "report.json" else None
    if not (isinstance(data, dict) and set(data) == {"games", "counts"} and isinstance(data["games"], dict)
            and isinstance(data["counts"], dict)):
        return False
    return all(isinstance(g, dict) and isinstance(g.get("counts"), dict)
               and all(type(n) is int for n in g["counts"].values()) for g in data["games"].values())


def card_data_near(folder: Path, children: bool = True) -> Path | None:
    """A card data file that makes ``folder`` unfit for output, or None.

    Looks in ``folder`` itself, in every folder above it (an output inside a game folder would
    change the game's build key and mix outputs with the data) and, with ``children``, in its
    sub-folders one level down (``--out carddata``: a build's game folders would go beside the
    data). A single named file (``export --out cards.xlsx``) touches no sub-folder: ``children``
    False lets it go beside game folders.
    """
    folder = Path(os.path.abspath(folder))
    for candidate in (folder, *folder.parents):
        for name in CARD_DATA_FILES:
            if (candidate / name).is_file():
                return candidate / name
    if not children:
        return None
    try:
        children = sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
    except OSError:
        children = []
    for child in children:
        for name in CARD_DATA_FILES:
            if (child / name).is_file():
                return child / name
    return None


def refuse_card_data(folder: Path, children: bool = True) -> None:
    """Raise :class:`ForeignOutput` when ``folder`` holds card data or lies inside a game folder
    (and, with ``children``, when a folder in it holds card data: :func:`card_data_near`)."""
    found = card_data_near(folder, children)
    if found is not None:
        raise ForeignOutput(
            f"refusing to write into {folder}: {found} is card data; outputs go into a folder of their own (default: output)"
        )


def check_overwrite(path: Path) -> None:
    """Allow writing ``path`` only when it does not exist or deckpress wrote it.

    Raises :class:`ForeignOutput` naming the file otherwise. (Whether a whole output folder
    is fit for output is :func:`refuse_card_data`'s question, asked once per command.)
    """
    if not os.path.lexists(path):
        return
    if path.is_symlink():  # deckpress writes none (foreign_files); replacing it would drop the user's link
        raise ForeignOutput(f"refusing to overwrite {path}: it is a symbolic link, which deckpress does not write; "
                            "move it away or choose another --out")
    if path.is_dir():
        raise ForeignOutput(f"refusing to overwrite {path}: it is a folder")
    entries = ledger(path.parent)
    if path.name in entries:
        # The lock is taken by name; report.json, like every ledger file, is deckpress's while it holds
        # the bytes recorded: edited (even as a report) it holds the user's words, and is left to them.
        if path.name == LOCK_NAME or holds_written_bytes(path, entries[path.name]):
            return
        raise ForeignOutput(
            f"refusing to overwrite {path}: it was changed after deckpress wrote it (its bytes are not the ones "
            "deckpress recorded); move it away to keep the edit, or delete it"
        )
    if _listed_in_build(path) or _is_own_report(path):
        return
    raise ForeignOutput(
        f"refusing to overwrite {path}: deckpress did not write it; move it away or choose another --out"
    )


def foreign_files(folder: Path) -> list[Path]:
    """Files under ``folder`` that are not deckpress's, sorted: in neither the build manifest nor a
    ledger, or in a ledger but holding other bytes than it records (edited since). A symbolic link
    counts as foreign: deckpress writes none."""
    unlisted, changed = _not_ours(folder)
    return sorted(unlisted + changed)


def _not_ours(folder: Path) -> tuple[list[Path], list[Path]]:
    """:func:`foreign_files` in two lists: the files deckpress did not write, and those it wrote that were changed since."""
    manifest = read_build_manifest(folder)
    listed = {e.get("path") for e in manifest["files"] if isinstance(e, dict)} if manifest else set()
    unlisted: list[Path] = []
    changed: list[Path] = []
    for dirpath, dirnames, filenames in os.walk(folder):
        here = Path(dirpath)
        entries = ledger(here)
        for name in filenames + [d for d in dirnames if (here / d).is_symlink()]:
            path = here / name
            rel = path.relative_to(folder).as_posix()
            if path.is_symlink():
                unlisted.append(path)
            elif rel in listed:
                continue
            elif name in entries:
                if not holds_written_bytes(path, entries[name]):
                    changed.append(path)
            elif not (name == LEDGER or (here == folder and manifest is not None and name == MANIFEST)):
                unlisted.append(path)
    return sorted(unlisted), sorted(changed)


def _named(folder: Path, paths: list[Path]) -> str:
    shown = ", ".join(p.relative_to(folder).as_posix() for p in paths[:_SHOWN])
    return shown + (f" and {len(paths) - _SHOWN} more" if len(paths) > _SHOWN else "")


def refuse_foreign(folder: Path) -> None:
    """Raise :class:`ForeignOutput` when ``folder`` exists and holds anything deckpress did not
    write, or a stand-alone command's file that was edited since (:func:`foreign_files`)."""
    if not folder.exists():
        return
    if not folder.is_dir() or folder.is_symlink():
        raise ForeignOutput(f"refusing to replace {folder}: it is not a folder deckpress wrote")
    unlisted, changed = _not_ours(folder)
    what = ([f"files deckpress did not write ({_named(folder, unlisted)})"] if unlisted else []) + \
        ([f"files deckpress wrote that were changed since ({_named(folder, changed)})"] if changed else [])
    if what:
        raise ForeignOutput(
            f"refusing to replace {folder}: it holds {' and '.join(what)}; "
            + ("move them away to keep them, or choose another --out" if changed else "move them away or choose another --out")
        )


def stand_alone_files(folder: Path) -> list[str]:
    """The files under ``folder`` that stand-alone commands wrote (their ledgers list them; not the
    ledgers themselves), as sorted paths relative to ``folder``: what replacing a build folder drops."""
    found: list[str] = []
    for dirpath, _dirs, filenames in os.walk(folder):
        here = Path(dirpath)
        entries = ledger(here)
        found += [(here / n).relative_to(folder).as_posix() for n in filenames if n in entries]
    return sorted(found)


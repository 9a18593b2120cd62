"""The stat cache: which output files an unchanged rebuild may take as hashed already.

A build's ``manifest.json`` lists every output file with its size and sha256, and an
unchanged rebuild must find every one of them as listed (:func:`pipeline.build.current.is_current`).
Hashing them all again (~25 MB for the four shipped games, more for a large deck) was most
of such a rebuild after start-up. Like git's index and make, deckpress keeps, per game, each
file's ``stat`` beside the sha256 it was found with, in
``<out>/.deckpress-stat/<game>.json`` (outside the game folder: a print shop gets the game
folder, and the manifest stays free of timestamps), and rehashes only a file whose
size, mtime, ctime, inode or device differs from the record.

What this trusts: a file whose size, mtime, ctime, inode and device are all as recorded has
the bytes it had. An edit changes the ctime (the kernel sets it; ``touch`` cannot set it back),
so an edit is missed only if the system clock is set back to the same nanosecond tick, or the
disk is written behind the file system's back. A file changed within :data:`RACY_NS` of the
moment its record was taken could share its timestamps with the edit (the "racy git" problem):
it is not recorded, so the next build hashes it. ``deckpress build --verify`` ignores the
cache and hashes every file, as every rebuild did before.

Beside it, ``<game>.digest.json`` holds one sha256 over the stats of manifest.json and of every
listed file, in the manifest's order, and the stat of the record it was made with: while all of
those are as recorded, an unchanged rebuild stats the files and hashes their stats once, without
reading the per-file record (4.8 MB of JSON for a 10,000-card game, ~30 ms to parse). Any
difference sends it to the per-file record, which finds the files to hash. The digest also keeps the
manifest's file paths, in order, and its brief (:func:`pipeline.build.current.brief_of`: build key,
counts, findings' summary): while the digest holds, manifest.json is the file they were taken from,
so an unchanged rebuild need not read it (10.5 MB of JSON for 10,000 cards, ~0.1 s). The digest's
sha256 covers those paths and that brief too, so an edited digest no longer holds. A manifest.json
written within :data:`RACY_NS` of the record (a small game's cold build: its tail takes less) gets a
digest that also keeps the sha256 of its bytes; the next rebuild hashes them (not parses them) and
writes the digest again without it (:func:`settle_digest`).

The cache is an optimisation only: an absent, unreadable or stale cache means hashing, never
a wrong answer. It is written under the output folder's lock, one file per game, atomically.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from array import array

#: Folder (under the output folder) of the per-game stat caches.
STAT_DIR = ".deckpress-stat"
#: A file whose mtime or ctime is within this many ns of the recording time is not recorded.
#: File timestamps come from the kernel's coarse clock, up to one tick (1-10 ms, HZ 1000-100)
#: behind the real time; 100 ms leaves a margin of ten ticks.
RACY_NS = 100_000_000


def signature(st: os.stat_result) -> list[int]:
    """What must stay equal for a file to be taken as unchanged: ``[size, mtime_ns, ctime_ns, inode, device]``."""
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev]


def cache_path(folder: str) -> str:
    """The stat cache of the game folder ``folder`` (``<out>/<game>``): ``<out>/.deckpress-stat/<game>.json``."""
    parent, name = os.path.split(os.path.normpath(folder))
    return os.path.join(parent, STAT_DIR, name + ".json")


def digest_path(folder: str) -> str:
    """The stat digest of the game folder ``folder``: ``<out>/.deckpress-stat/<game>.digest.json``."""
    return cache_path(folder)[: -len(".json")] + ".digest.json"


def stats_digest(manifest_stat: os.stat_result, stats: list[os.stat_result], kept: dict | None = None) -> str:
    """Hex sha256 over the :func:`signature` of manifest.json and of each listed file, in the given
    order, and over what the digest keeps of the manifest (``kept``: its ``paths`` and ``brief``), so
    a digest edited by hand no longer holds."""
    every = [manifest_stat, *stats]
    try:  # packed as 64-bit integers: a quarter of the time of hashing their repr (~10 ms for 30,000 files)
        packed = array("q", [n for st in every for n in (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)]).tobytes()
    except OverflowError:  # an inode or device number past 2**63 (some network file systems)
        packed = repr([signature(st) for st in every]).encode()
    digest = hashlib.sha256(packed)
    if kept:
        paths = kept.get("paths")
        digest.update(b"\0paths\0" + ("\0".join(paths) if isinstance(paths, list) and all(type(p) is str for p in paths) else repr(paths)).encode("utf-8", "surrogatepass"))
        digest.update(b"\0brief\0" + json.dumps(kept.get("brief"), sort_keys=True, separators=(",", ":")).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def read_digest(folder: str) -> dict | None:
    """``folder``'s stat digest (``{"record", "digest"}``, and ``"paths"`` and ``"brief"`` when it was
    written with a brief) when it was made with the per-file record as it is now; None when there is
    none, it does not read, or the record changed since."""
    try:
        with open(digest_path(folder), encoding="utf-8") as fh:
            data = json.load(fh)
        record = signature(os.stat(cache_path(folder)))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("record") == record else None


def digest_holds(folder: str, manifest_stat: os.stat_result, stats: list[os.stat_result], data: dict | None = None) -> bool:
    """Whether ``folder``'s stat digest (``data`` when read already by :func:`read_digest`) was recorded
    for exactly these stats (manifest.json's, then each listed file's in manifest order) and for the
    per-file record as it is now; False when it was not, or when there is no digest (or it does not read)."""
    data = data if data is not None else read_digest(folder)
    kept = {"paths": data.get("paths"), "brief": data.get("brief")} if data is not None and "brief" in data else None
    return data is not None and data.get("digest") == stats_digest(manifest_stat, stats, kept)


def read(folder: str) -> dict[str, list]:
    """``{relative path: signature + [sha256]}`` recorded for ``folder``; {} when there is none or it does not read."""
    try:
        with open(cache_path(folder), encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write(folder: str, entries: list[dict], stats: dict[str, os.stat_result] | None = None, brief: dict | None = None,
          manifest_sha256: str | None = None) -> None:
    """Record the stat of every manifest entry (``{"path", "sha256", ...}``) of ``folder`` whose
    file is there with the entry's size; a file changed in the last :data:`RACY_NS` is left out.
    ``stats`` gives the stat already taken of some entries (by relative path; the rest are stat'ed
    here): :func:`pipeline.build.current.is_current` has just stat'ed every file. When every entry
    and manifest.json itself are recorded, the stat digest is written too (module docs), with the
    entries' paths and ``brief`` (JSON-ready) when given: both must come from that manifest.json.
    A manifest.json changed within :data:`RACY_NS` gets a digest only with ``manifest_sha256``, the
    sha256 of the bytes the brief was made from: the next rebuild then checks its bytes, not its stat
    alone (:func:`pipeline.build.current.is_current`), as a racy git index entry is checked.

    Best effort: a cache that cannot be written is skipped (the next build hashes instead).
    """
    now = time.time_ns()
    record: dict[str, list] = {}
    stats = stats or {}
    taken: list[os.stat_result] = []
    prefix = os.path.join(folder, "")
    for entry in entries:
        try:
            st = stats.get(entry["path"]) or os.stat(prefix + entry["path"])
        except OSError:
            continue
        if st.st_size == entry["bytes"] and max(st.st_mtime_ns, st.st_ctime_ns) < now - RACY_NS:
            record[entry["path"]] = signature(st) + [entry["sha256"]]
            taken.append(st)
    drop_digest(folder)  # a digest of the record about to be replaced must not outlive it
    path = cache_path(folder)
    # dumps, not dump: json.dump runs the pure-Python encoder (CPython's C one only makes whole
    # strings); same text, 1.2 → 0.1 s for 30,000 records
    if not replace_text(path, json.dumps(record, separators=(",", ":"))) or len(taken) < len(entries):
        return  # some file is missing or racy: no digest, the next build reads the per-file record
    try:
        manifest_stat = os.stat(prefix + "manifest.json")
        record_stat = os.stat(path)
    except OSError:
        return
    racy = max(manifest_stat.st_mtime_ns, manifest_stat.st_ctime_ns) >= now - RACY_NS
    if not racy or (manifest_sha256 is not None and brief is not None):
        kept = {"paths": [entry["path"] for entry in entries], "brief": brief} if brief is not None else None
        digest = {"record": signature(record_stat), "digest": stats_digest(manifest_stat, taken, kept), **(kept or {})}
        if racy:
            digest["manifest_sha256"] = manifest_sha256  # outside the digest's sha: dropped once checked (settle_digest)
        replace_text(digest_path(folder), json.dumps(digest, separators=(",", ":")))


def settle_digest(folder: str, data: dict, manifest_stat: os.stat_result) -> None:
    """Write the digest ``data`` again without its ``manifest_sha256`` once manifest.json is older than
    :data:`RACY_NS` and its bytes have been checked against it: the next rebuild trusts the stat alone."""
    if "manifest_sha256" in data and max(manifest_stat.st_mtime_ns, manifest_stat.st_ctime_ns) < time.time_ns() - RACY_NS:
        replace_text(digest_path(folder), json.dumps({k: v for k, v in data.items() if k != "manifest_sha256"}, separators=(",", ":")))


def replace_text(path: str, text: str) -> bool:
    """Write ``text`` to ``path`` (a file of the stat folder, made if missing) by a temporary file renamed
    over it; False (nothing left behind) when that fails: every file there is an optimisation only."""
    tmp = f"{path}.{os.getpid()}.part"
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.replace(tmp, path)
        return True
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        return False


def drop(folder: str) -> None:
    """Remove ``folder``'s stat cache and digest (a file was found changed: nothing recorded about it is trusted any more)."""
    drop_digest(folder)
    try:
        os.unlink(cache_path(folder))
    except OSError:
        pass


def drop_digest(folder: str) -> None:
    """Remove ``folder``'s stat digest (none there is fine)."""
    try:
        os.unlink(digest_path(folder))
    except OSError:
        pass  # none there, or the folder cannot be written: a digest left there no longer matches the new record

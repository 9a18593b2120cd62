"""Whether a game's previous build is current: :func:`is_current`, the check every rebuild starts with.

A build is current when its manifest's build key equals the new one and every file the manifest
lists is there as listed. The stat cache (:mod:`pipeline.build.statcache`) lets the check take a
file whose stat is unchanged as hashed already; its digest, while it holds, also stands for
manifest.json itself, whose paths and brief (:func:`brief_of`) it keeps, so the check then reads
neither the per-file record nor the manifest: at 10,000 cards the manifest is 10.5 MB of JSON and
its 10,000 findings (0.1 s to parse, 0.05 s to make findings of, issue 22). The findings are then
read from the manifest only when something needs them one by one (``--verbose``, a report whose
entry changes), through the file opened for the check (:class:`OpenManifest`).
"""

from __future__ import annotations

import hashlib
import json
import os
import weakref
from pathlib import Path

from engine.findings import finding_summary
from pipeline.build import manifest as manifests, statcache
from pipeline.build.manifest import MANIFEST
from pipeline.common.jsontext import items_sha256, items_texts_sha256, top_level_items

#: The manifest's values a cached game's outcome shows (:func:`pipeline.build.report.cached_outcome`).
BRIEF_KEYS = ("build_key", "unique_cards", "printed_cards", "provisional_cards", "forced", "placeholder_art_faces", "run", "release")


def brief_of(manifest: dict) -> dict:
    """What an unchanged rebuild shows of a build without reading its manifest: the values of
    :data:`BRIEF_KEYS` it has, ``summary``, its findings' :func:`engine.findings.finding_summary`, and
    ``findings_sha256``, the :func:`pipeline.common.jsontext.items_sha256` of its findings (what their
    texts in manifest.json must hash to before a report copies them: :meth:`OpenManifest.finding_texts`).
    ~0.04 s for 10,000 findings."""
    findings = manifest.get("findings", [])
    return {**{k: manifest[k] for k in BRIEF_KEYS if k in manifest}, "summary": finding_summary(findings),
            "findings_sha256": items_sha256(findings)}


class OpenManifest:
    """A game's manifest.json, opened once: :meth:`stat` is the file's, and :meth:`read` and
    :meth:`findings` read that very file later, even if a build has since replaced it by name.
    The descriptor is closed after the read, or when the object goes. Raises OSError from
    ``os.open`` (no such file, not readable)."""

    def __init__(self, path: str) -> None:
        self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        self._closer = weakref.finalize(self, os.close, self._fd)
        self._bytes: bytes | None = None
        #: What the findings' texts must hash to (the brief's ``findings_sha256``); None: never copied.
        self.findings_sha256: str | None = None
        #: The hex sha256 of the bytes :meth:`read` parsed (None before).
        self.sha256: str | None = None

    def stat(self) -> os.stat_result:
        """The file's stat (``os.fstat``)."""
        return os.fstat(self._fd)

    def read_bytes(self) -> bytes:
        """The file's bytes, read once (the file is then closed). Raises OSError."""
        if self._bytes is None:
            try:
                with os.fdopen(os.dup(self._fd), "rb") as fh:
                    os.lseek(fh.fileno(), 0, os.SEEK_SET)
                    self._bytes = fh.read()
            finally:
                self._closer()
        return self._bytes

    def read(self) -> dict | None:
        """The manifest (once; the file is then closed), None when it is not a JSON object or cannot be
        read; :attr:`sha256` is then its bytes' hex sha256."""
        try:
            raw = self.read_bytes()
            self.sha256 = hashlib.sha256(raw).hexdigest()
            data = json.loads(raw)
        except (OSError, ValueError):
            data = None
        self._bytes = None  # parsed: the bytes are not needed again
        return data if isinstance(data, dict) else None

    def finding_texts(self) -> list[str] | None:
        """The findings' one-line JSON texts as the manifest holds them
        (:func:`pipeline.common.jsontext.top_level_items`) when they hash to :attr:`findings_sha256`:
        exactly the texts ``document_text`` writes for the findings the brief was made from. None
        otherwise (another layout, an edit, no hash to check, the file no longer reads)."""
        if self.findings_sha256 is None:
            return None
        try:
            texts = top_level_items(self.read_bytes(), "findings")
        except OSError:
            return None
        return texts if texts is not None and items_texts_sha256(texts) == self.findings_sha256 else None

    def findings(self) -> list[dict]:
        """The manifest's findings, in its ``to_dict()`` form: parsed from their own texts (a third
        of the manifest at 10,000 cards) when they check (:meth:`finding_texts`), else from the whole manifest. Raises
        OSError when it no longer reads (it read when it was checked: an I/O error), naming the problem."""
        texts = self.finding_texts()
        if texts is not None:
            try:
                found = json.loads("[" + ",".join(texts) + "]")
            except ValueError:
                found = None
            if isinstance(found, list):
                return found
        data = self.read()
        if data is None:
            raise OSError("the build manifest checked as current no longer reads")
        return data.get("findings", [])


def is_current(folder: Path, key: str, verify: bool = False) -> dict | None:
    """The previous manifest when its build key equals ``key`` and every listed file is there
    with its recorded size and sha256 (a stand-alone command may have rewritten one in place);
    otherwise None (the game must be rebuilt).

    When the stat digest holds (manifest.json and every file stat as recorded) no file is read, not
    even the manifest: the answer is then its brief (:func:`brief_of`) with ``paths`` (the listed
    files' paths), ``findings``, a callable reading them from the manifest, and ``finding_texts``,
    one giving their JSON texts (:class:`OpenManifest`); :func:`pipeline.build.report.cached_outcome` takes either form. Else a
    file whose stat matches the stat cache's record for its sha256 (size, mtime, ctime, inode,
    device) is not read. ``verify`` hashes every file regardless. Unless the digest held, the cache
    and its digest are rewritten for the next build.
    """
    try:
        opened = OpenManifest(os.path.join(folder, MANIFEST))
        manifest_stat = opened.stat()
    except OSError:
        return None
    prefix = os.path.join(folder, "")  # joined by concatenation: os.path.join was a third of a 30,000-file check
    digest = None if verify else statcache.read_digest(str(folder))
    brief = digest.get("brief") if digest is not None else None
    if isinstance(brief, dict) and brief.get("build_key") == key and isinstance(digest.get("paths"), list):
        try:
            held = statcache.digest_holds(str(folder), manifest_stat, [os.stat(prefix + p) for p in digest["paths"]], digest)
        except (OSError, TypeError):
            held = False  # a listed file is gone (or a path is not text): the full check says what
        racy = digest.get("manifest_sha256")
        if held and racy is not None:  # recorded as new as the build: its bytes decide, not its stat
            try:
                held = isinstance(racy, str) and hashlib.sha256(opened.read_bytes()).hexdigest() == racy
            except OSError:
                held = False
            if held:
                statcache.settle_digest(str(folder), digest, manifest_stat)
        if held:
            opened.findings_sha256 = brief.get("findings_sha256") if isinstance(brief.get("findings_sha256"), str) else None
            return {**brief, "paths": digest["paths"], "findings": opened.findings, "finding_texts": opened.finding_texts}
    manifest = opened.read()
    if not manifest or manifest.get("build_key") != key:
        return None
    entries = manifest.get("files", [])
    try:
        stats = [os.stat(prefix + entry["path"]) for entry in entries]
    except OSError:
        return None  # a listed file is gone
    if any(st.st_size != entry["bytes"] for st, entry in zip(stats, entries)):
        return None
    if not verify and statcache.digest_holds(str(folder), manifest_stat, stats, digest):
        return manifest
    known = {} if verify else statcache.read(str(folder))
    for entry, st in zip(entries, stats):
        if known.get(entry["path"]) == statcache.signature(st) + [entry["sha256"]]:
            continue
        try:
            same = manifests.sha256_file(prefix + entry["path"]) == entry["sha256"]
        except OSError:
            return None
        if not same:
            statcache.drop(str(folder))
            return None
    statcache.write(str(folder), entries, dict(zip((e["path"] for e in entries), stats)), brief_of(manifest), opened.sha256)  # and its digest
    return manifest

"""manifest.file_entries and Finding.to_dict against the straightforward code they replaced (issue 22):
Path.rglob + sorted Paths for the file list, dataclasses.asdict for a finding. Same output."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from pathlib import Path

from engine.findings import Finding, Location, Severity
from pipeline.build.manifest import MANIFEST, file_entries
from pipeline.common.ownership import STAGING_MARK


def _reference(folder: Path) -> list[dict]:
    # The pre-issue-22 file_entries, verbatim but for the verified files.
    out = []
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder).as_posix()
        if not p.is_file() or p.name == MANIFEST or rel == STAGING_MARK:
            continue
        out.append({"path": rel, "bytes": p.stat().st_size, "sha256": hashlib.sha256(p.read_bytes()).hexdigest()})
    return out


def test_file_entries_lists_and_orders_files_as_sorted_paths_do(tmp_path):
    root = tmp_path / "game"
    # "a-c" sorts before "a/b" as a string ('-' < '/') but after it as path parts ("a" < "a-c").
    for rel, data in {"a/b": b"1", "a-c": b"22", "a/z/deep.pdf": b"333", ".hidden": b"4", "Z": b"5",
                      "print/x.pdf": b"%PDF", "vendor/" + MANIFEST: b"{}", MANIFEST: b"{}", STAGING_MARK: b"",
                      "sp ace/é.png": b"\x89PNG"}.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)
    (root / "link-to-file").symlink_to(root / "a-c")  # a symlinked file counts, as is_file() says
    (root / "dangling").symlink_to(root / "nowhere")
    (root / "linked-dir").symlink_to(root / "a", target_is_directory=True)  # not entered, as rglob does not
    os.mkfifo(root / "fifo")
    entries = file_entries(root)
    assert entries == _reference(root)
    assert [e["path"] for e in entries] == [".hidden", "Z", "a/b", "a/z/deep.pdf", "a-c", "link-to-file", "print/x.pdf", "sp ace/é.png"]
    assert entries[2] == {"path": "a/b", "bytes": 1, "sha256": hashlib.sha256(b"1").hexdigest()}


def test_file_entries_takes_a_verified_hash_only_at_its_size(tmp_path):
    (tmp_path / "f").write_bytes(b"abc")
    assert file_entries(tmp_path, {"f": (3, "cafe")}) == [{"path": "f", "bytes": 3, "sha256": "cafe"}]
    assert file_entries(tmp_path, {"f": (4, "cafe")})[0]["sha256"] == hashlib.sha256(b"abc").hexdigest()


def test_finding_to_dict_is_asdict_with_the_severity_value():
    for finding in (Finding("CP001", "x", Severity.error, "m"),
                    Finding("QR002", "qr-mismatch", Severity.warning, "msg", "hint", Location("a.yaml", 3, None, "ember"),
                            (Location("b.md", 1, 2), Location()))):
        expected = dataclasses.asdict(finding)
        expected["severity"] = finding.severity.value
        assert finding.to_dict() == expected
        assert list(finding.to_dict()) == list(expected) and list(finding.to_dict()["location"]) == list(expected["location"])
        assert type(finding.to_dict()["related"]) is tuple

"""The stat cache (pipeline/build/statcache.py): an unchanged rebuild reads no output whose stat is
as recorded, and still rebuilds a game whose output was edited, deleted or copied over."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest

from pipeline.build import manifest, statcache
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings


@pytest.fixture
def hashed(monkeypatch) -> list[str]:
    """Every output file :func:`manifest.sha256_file` reads, by path; the racy margin off, so every file is recorded."""
    calls: list[str] = []
    real = manifest.sha256_file
    monkeypatch.setattr(manifest, "sha256_file", lambda path: (calls.append(str(path)), real(path))[1])
    monkeypatch.setattr(statcache, "RACY_NS", 0)
    return calls


def _build(game: Path, out: Path, verify: bool = False) -> str:
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)), verify=verify)
    return outcome.status


def _files(out: Path) -> list[dict]:
    return json.loads((out / "mini" / "manifest.json").read_text())["files"]


def test_a_build_records_every_output_and_an_unchanged_rebuild_reads_none(game_copy, tmp_path, hashed):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    record = json.loads((out / ".deckpress-stat" / "mini.json").read_text())
    files = _files(out)
    assert len(files) > 5 and sorted(record) == sorted(e["path"] for e in files)
    for e in files:
        st = os.stat(out / "mini" / e["path"])
        assert record[e["path"]] == [e["bytes"], st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, e["sha256"]]
    hashed.clear()
    assert _build(game, out) == "cached"
    assert hashed == []
    assert _build(game, out, verify=True) == "cached"
    assert sorted(hashed) == sorted(str(out / "mini" / e["path"]) for e in files)


def test_an_edit_that_keeps_the_size_and_the_mtime_is_rebuilt(game_copy, tmp_path, hashed):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    target = out / "mini" / _files(out)[0]["path"]
    data, st = target.read_bytes(), target.stat()
    target.write_bytes(bytes([data[0] ^ 1]) + data[1:])
    os.utime(target, ns=(st.st_atime_ns, st.st_mtime_ns))  # the mtime put back: the ctime still moved
    assert target.stat().st_size == st.st_size and target.stat().st_mtime_ns == st.st_mtime_ns
    assert _build(game, out) == "built"
    assert target.read_bytes() == data


def test_a_deleted_output_is_rebuilt(game_copy, tmp_path, hashed):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    target = out / "mini" / _files(out)[-1]["path"]
    data = target.read_bytes()
    target.unlink()
    assert _build(game, out) == "built"
    assert target.read_bytes() == data


def test_a_copied_output_is_hashed_once_then_trusted(game_copy, tmp_path, hashed):
    import shutil

    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    shutil.copytree(out, tmp_path / "copy")  # new inodes and times: nothing recorded holds
    hashed.clear()
    assert _build(game, tmp_path / "copy") == "cached"
    assert len(hashed) == len(_files(out))
    hashed.clear()
    assert _build(game, tmp_path / "copy") == "cached"
    assert hashed == []


def test_a_record_for_other_bytes_or_a_broken_cache_is_not_trusted(game_copy, tmp_path, hashed):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    cache = out / ".deckpress-stat" / "mini.json"
    record = json.loads(cache.read_text())
    first = _files(out)[0]["path"]
    record[first][-1] = "0" * 64  # a record of another sha256 than the manifest's
    cache.write_text(json.dumps(record))
    hashed.clear()
    assert _build(game, out) == "cached"
    assert hashed == [str(out / "mini" / first)]
    cache.write_text("{not json")
    hashed.clear()
    assert _build(game, out) == "cached"
    assert len(hashed) == len(_files(out))


def test_a_file_changed_just_before_the_record_is_left_out(tmp_path, monkeypatch):
    from types import SimpleNamespace

    folder = tmp_path / "out" / "mini"
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text("a")
    changed = max(os.stat(folder / "a.txt").st_mtime_ns, os.stat(folder / "a.txt").st_ctime_ns)
    entries = [{"path": "a.txt", "bytes": 1, "sha256": "x"}]
    monkeypatch.setattr(statcache, "time", SimpleNamespace(time_ns=lambda: changed + statcache.RACY_NS))
    statcache.write(str(folder), entries)  # recorded RACY_NS after the change: an edit could still share its times
    assert statcache.read(str(folder)) == {}
    monkeypatch.setattr(statcache, "time", SimpleNamespace(time_ns=lambda: changed + statcache.RACY_NS + 1))
    statcache.write(str(folder), entries)
    assert statcache.read(str(folder)) == {"a.txt": statcache.signature(os.stat(folder / "a.txt")) + ["x"]}


def test_an_unchanged_builds_report_takes_the_manifests_findings_as_they_are(game_copy, tmp_path, hashed):
    """report.json of an unchanged build: the same bytes as from the findings turned back into dicts one by one."""
    import dataclasses

    from pipeline.build.report import report_dict, write_report

    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)))
    assert outcome.status == "cached" and outcome.findings and len(outcome.findings.dicts()) == len(outcome.findings)
    fast = (out / "report.json").read_bytes()
    slow = dataclasses.replace(outcome, findings=list(outcome.findings))  # plain findings: the report turns each into a dict
    assert json.dumps(report_dict([slow], out)) == json.dumps(report_dict([outcome], out))
    write_report(out, [slow])
    assert (out / "report.json").read_bytes() == fast


def test_a_report_with_the_same_bytes_is_not_written_again(game_copy, tmp_path):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    assert _build(game, out) == "cached"  # "built" becomes "cached": written
    before = os.stat(out / "report.json")
    data = (out / "report.json").read_bytes()
    assert json.loads(data)["games"]["mini"]["status"] == "cached"
    assert _build(game, out) == "cached"
    after = os.stat(out / "report.json")
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    (out / "report.json").unlink()  # gone (an edited one is the user's: tests/test_output_safety.py): written again
    assert _build(game, out) == "cached"
    assert (out / "report.json").read_bytes() == data


def test_a_rebuild_that_hashed_records_each_file_by_the_stat_it_took_once(game_copy, tmp_path, hashed, monkeypatch):
    # The cache dropped: the rebuild hashes every file and rewrites the cache from the stats its check
    # took (no second stat of each file); the record is what os.stat gives each file afterwards.
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    (out / ".deckpress-stat" / "mini.json").unlink()
    stats: list[str] = []
    real = os.stat
    monkeypatch.setattr(os, "stat", lambda path, *a, **k: (stats.append(str(path)), real(path, *a, **k))[1])
    hashed.clear()
    assert _build(game, out) == "cached"
    files = _files(out)
    assert sorted(hashed) == sorted(str(out / "mini" / e["path"]) for e in files)
    counted = Counter(stats)
    assert all(counted[str(out / "mini" / e["path"])] == 1 for e in files)  # each once
    record = json.loads((out / ".deckpress-stat" / "mini.json").read_text())
    for e in files:
        st = real(out / "mini" / e["path"])
        assert record[e["path"]] == [e["bytes"], st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, e["sha256"]]


def test_an_unchanged_rebuild_takes_the_digest_and_reads_no_per_file_record(game_copy, tmp_path, hashed, monkeypatch):
    """With every stat as recorded, one sha256 over the stats answers: the per-file record is not read.
    A touched file (same bytes, new mtime) fails the digest; the per-file record then names the one
    file to hash, and the record and digest are written again for the next rebuild."""
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    digest = json.loads((out / ".deckpress-stat" / "mini.digest.json").read_text())
    stats = [os.stat(out / "mini" / e["path"]) for e in _files(out)]
    kept = {"paths": digest["paths"], "brief": digest["brief"]}
    assert digest["digest"] == statcache.stats_digest(os.stat(out / "mini" / "manifest.json"), stats, kept)
    assert digest["digest"] != statcache.stats_digest(os.stat(out / "mini" / "manifest.json"), stats)  # the brief is covered
    assert digest["record"] == statcache.signature(os.stat(out / ".deckpress-stat" / "mini.json"))
    read = statcache.read
    reads: list[str] = []
    monkeypatch.setattr(statcache, "read", lambda folder: (reads.append(folder), read(folder))[1])
    hashed.clear()
    assert _build(game, out) == "cached"
    assert reads == [] and hashed == []
    target = out / "mini" / _files(out)[0]["path"]
    os.utime(target, ns=(target.stat().st_atime_ns, target.stat().st_mtime_ns + 1_000_000))
    assert _build(game, out) == "cached"
    assert reads == [str(out / "mini")] and hashed == [str(target)]
    reads.clear()
    hashed.clear()
    assert _build(game, out) == "cached"
    assert reads == [] and hashed == []


def test_no_digest_while_a_file_or_the_manifest_is_racy(tmp_path, monkeypatch):
    """A digest is written only when every entry and manifest.json are older than RACY_NS."""
    from types import SimpleNamespace

    folder = tmp_path / "out" / "mini"
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text("a")
    (folder / "manifest.json").write_text("{}")
    newest = max(max(os.stat(p).st_mtime_ns, os.stat(p).st_ctime_ns) for p in folder.iterdir())
    entries = [{"path": "a.txt", "bytes": 1, "sha256": "x"}]
    monkeypatch.setattr(statcache, "time", SimpleNamespace(time_ns=lambda: newest + statcache.RACY_NS))
    statcache.write(str(folder), entries)
    assert not os.path.exists(statcache.digest_path(str(folder)))
    monkeypatch.setattr(statcache, "time", SimpleNamespace(time_ns=lambda: newest + statcache.RACY_NS + 1))
    statcache.write(str(folder), entries)
    assert os.path.exists(statcache.digest_path(str(folder)))
    statcache.write(str(folder), entries + [{"path": "gone.txt", "bytes": 1, "sha256": "y"}])  # a listed file missing
    assert not os.path.exists(statcache.digest_path(str(folder)))

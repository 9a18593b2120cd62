"""The current-build check (pipeline/build/current.py) and the lazily made findings of a cached game
(engine.findings.FindingList).

The reference for every fast answer is the full check: the same rebuild with ``--verify``, which
hashes every output file and reads manifest.json, must give the same outcome, the same summary text
and the same report.json bytes. The brief kept beside the stat digest must never outlive the
manifest it was taken from: an edited manifest.json is read again.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import time
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from engine.findings import FindingList, Location, Severity, counts, exit_code, finding_from_dict, finding_summary
from pipeline.build import current, statcache
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.cli.plain import print_summary


@pytest.fixture
def manifest_reads(monkeypatch) -> list[str]:
    """Each time a manifest.json is parsed ("read") or its findings' texts are taken ("texts", by
    :class:`current.OpenManifest`); the racy margin off, so every file is recorded."""
    calls: list[str] = []
    real, texts, parsed = current.OpenManifest.read, current.OpenManifest.finding_texts, current.OpenManifest.findings
    monkeypatch.setattr(current.OpenManifest, "read", lambda self: (calls.append("read"), real(self))[1])
    monkeypatch.setattr(current.OpenManifest, "finding_texts", lambda self: (calls.append("texts"), texts(self))[1])
    monkeypatch.setattr(current.OpenManifest, "findings", lambda self: (calls.append("findings"), parsed(self))[1])
    monkeypatch.setattr(statcache, "RACY_NS", 0)
    return calls


def _build(game: Path, out: Path, verify: bool = False):
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)), verify=verify)
    return outcome


def _summary(outcome, verbose: bool = False) -> str:
    text = io.StringIO()
    with redirect_stdout(text):
        print_summary(outcome.findings, verbose)
    return text.getvalue()


def test_an_unchanged_rebuild_reads_no_manifest_and_answers_as_the_full_check(game_copy, tmp_path, manifest_reads):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    digest = json.loads((out / ".deckpress-stat" / "mini.digest.json").read_text())
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    assert digest["paths"] == [e["path"] for e in manifest["files"]]
    assert digest["brief"]["build_key"] == manifest["build_key"] and digest["brief"]["unique_cards"] == manifest["unique_cards"]
    assert digest["brief"]["summary"]["counts"] == manifest["findings_summary"]
    manifest_reads.clear()
    assert _build(game, out).status == "cached"
    # The report's entry went from built to cached: written with the manifest's findings' own texts,
    # neither parsed ("findings") nor encoded again (the report's bytes are checked against --verify's below).
    assert manifest_reads == ["texts"]
    manifest_reads.clear()
    fast = _build(game, out)
    assert fast.status == "cached" and manifest_reads == []  # answered from the digest's brief alone
    fast_summary, fast_report = _summary(fast), (out / "report.json").read_bytes()
    assert manifest_reads == []  # a summary line needs no finding one by one
    (out / "report.json").unlink()
    slow = _build(game, out, verify=True)
    assert manifest_reads == ["read"]
    assert (out / "report.json").read_bytes() == fast_report
    assert (fast.files, fast.cards, fast.copies, fast.provisional, fast.run, fast.release, fast.forced) == \
           (slow.files, slow.cards, slow.copies, slow.provisional, slow.run, slow.release, slow.forced)
    assert fast.findings == slow.findings and len(fast.findings) == len(manifest["findings"]) > 0
    assert fast_summary == _summary(slow) == _summary(_build(game, out, verify=True))
    assert _summary(fast, verbose=True) == _summary(slow, verbose=True)


def test_a_manifest_edited_after_the_digest_is_read_again_not_taken_from_the_brief(game_copy, tmp_path, manifest_reads):
    # The brief stands for manifest.json only while its stat is as the digest recorded it.
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    path = out / "mini" / "manifest.json"
    data = json.loads(path.read_text())
    data["printed_cards"] += 5  # same build key: the full check takes the manifest as it now is
    path.write_text(json.dumps(data))
    manifest_reads.clear()
    outcome = _build(game, out)
    assert outcome.status == "cached" and manifest_reads == ["read"] and outcome.copies == data["printed_cards"]


def test_a_digest_without_a_brief_is_still_taken_and_the_manifest_read(game_copy, tmp_path, manifest_reads):
    # A digest written without the paths and brief (by an earlier deckpress) holds as before.
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    path = out / ".deckpress-stat" / "mini.digest.json"
    digest = json.loads(path.read_text())
    path.write_text(json.dumps({"record": digest["record"], "digest": digest["digest"]}))
    manifest_reads.clear()
    assert _build(game, out).status == "cached" and manifest_reads == ["read"]


def test_a_file_gone_from_the_brief_sends_the_check_to_the_manifest_and_rebuilds(game_copy, tmp_path, manifest_reads):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    gone = json.loads((out / ".deckpress-stat" / "mini.digest.json").read_text())["paths"][-1]
    (out / "mini" / gone).unlink()
    manifest_reads.clear()
    assert _build(game, out).status == "built" and (out / "mini" / gone).is_file()
    assert manifest_reads[:1] == ["read"]


def _dicts() -> list[dict]:
    """Findings in the manifest's form, in its order: two errors and warnings among three info codes."""
    made = [("DQ001", "provisional-card", "info", 7), ("DA003", "invalid-value", "error", 3), ("DQ001", "provisional-card", "info", 9),
            ("QR002", "quiet-zone", "warning", 12), ("BR010", "long-name", "info", 2), ("XX001", "made-up", "info", 1)]
    return [{"code": c, "name": n, "severity": s, "message": f"m{line}", "hint": "h" if s != "info" else "",
             "location": {"file": "g/cards.yaml", "line": line, "column": 1, "card": f"c{line}"}, "related": ()} for c, n, s, line in made]


def test_a_finding_list_answers_counts_exit_codes_and_summaries_without_making_findings():
    reads: list[int] = []
    lazy = FindingList(lambda: (reads.append(1), _dicts())[1], summary=finding_summary(_dicts()))
    plain = [finding_from_dict(d) for d in _dicts()]
    assert counts(lazy) == counts(plain) == {"error": 1, "warning": 1, "info": 4}
    assert (exit_code(lazy), exit_code(lazy, strict=True)) == (exit_code(plain), exit_code(plain, True)) == (1, 1)
    assert len(lazy) == 6 and [f.code for f in lazy.shown()] == ["DA003", "QR002"]
    assert lazy.info_counts() == {("BR010", "long-name"): 1, ("DQ001", "provisional-card"): 2, ("XX001", "made-up"): 1}
    text = io.StringIO()
    with redirect_stdout(text):
        print_summary(lazy, verbose=False)
    assert reads == []  # nothing made: the summary gave it all
    expected = io.StringIO()
    with redirect_stdout(expected):
        print_summary(plain, verbose=False)
    assert text.getvalue() == expected.getvalue()
    assert text.getvalue().splitlines()[-1] == "   info: BR010 long-name ×1, DQ001 provisional-card ×2, XX001 made-up ×1 (--verbose lists them)"
    assert lazy == plain and list(lazy) == plain and lazy[1].severity is Severity.error and reads == [1]


def test_a_finding_list_renames_files_and_makes_its_own_summary_when_none_is_given():
    lazy = FindingList(_dicts, rename=lambda f: "shown/" + f)
    assert counts(lazy) == {"error": 1, "warning": 1, "info": 4}
    assert lazy[0].location == Location("shown/g/cards.yaml", 7, 1, "c7")
    assert lazy.dicts()[0]["location"]["file"] == "g/cards.yaml"  # the portable form, for the report
    only_infos = FindingList(lambda: [d for d in _dicts() if d["severity"] == "info"])
    assert exit_code(only_infos, strict=True) == 0 and only_infos.shown() == []


def test_an_open_manifest_reads_the_file_it_opened_even_once_replaced(tmp_path):
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"findings": [1]}))
    opened = current.OpenManifest(str(path))
    first = opened.stat()
    (tmp_path / "new.json").write_text(json.dumps({"findings": [2]}))
    os.replace(tmp_path / "new.json", path)  # a later build's swap
    assert opened.findings() == [1] and first.st_ino != os.stat(path).st_ino
    with pytest.raises(OSError):
        current.OpenManifest(str(tmp_path / "missing.json"))


def _normalised(text: str, out: Path) -> str:
    return text.replace(str(out), "OUT")


def test_verbose_lists_what_a_cold_build_lists(game_copy, tmp_path, manifest_reads):
    """Reference: a cold build into another folder, whose findings are plain findings, not a
    FindingList: --verbose of the cached game lists the same lines (output paths aside)."""
    game, out, cold = game_copy("mini"), tmp_path / "out", tmp_path / "cold"
    assert _build(game, out).status == "built"
    assert _build(game, out).status == "cached"
    fast = _build(game, out)
    assert fast.status == "cached" and isinstance(fast.findings, FindingList)
    fresh = _build(game, cold)
    assert fresh.status == "built" and not isinstance(fresh.findings, FindingList)
    assert _normalised(_summary(fast, verbose=True), out) == _normalised(_summary(fresh, verbose=True), cold)
    assert _normalised(_summary(fast), out) == _normalised(_summary(fresh), cold)


def test_an_edited_game_is_built_not_answered_from_the_brief(game_copy, tmp_path, manifest_reads):
    # The brief holds only for its build key: changed data changes the key, and the game is built.
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    assert _build(game, out).status == "cached"
    cards = game / "cards.yaml"
    cards.write_text(cards.read_text(encoding="utf-8") + "\n# an edit\n", encoding="utf-8")
    assert _build(game, out).status == "built"


def test_an_edited_brief_no_longer_holds(game_copy, tmp_path, manifest_reads):
    """The digest's sha256 covers its brief: a brief edited by hand (the helper-found case: more
    printed cards, the warnings gone) sends the check to the manifest, which gives the true values."""
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    true = _build(game, out)
    path = out / ".deckpress-stat" / "mini.digest.json"
    digest = json.loads(path.read_text())
    digest["brief"]["printed_cards"] += 999
    digest["brief"]["summary"]["shown"] = []
    path.write_text(json.dumps(digest))
    manifest_reads.clear()
    edited = _build(game, out)
    assert manifest_reads == ["read"] and edited.copies == true.copies and _summary(edited, True) == _summary(true, True)


def test_a_manifest_with_findings_twice_is_reported_as_json_reads_it(game_copy, tmp_path, manifest_reads):
    """A hand-edited manifest.json with a second, empty "findings" list: json.loads (and --verify)
    take the last; the report written from the manifest's texts must not copy the first."""
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    path = out / "mini" / "manifest.json"
    text = path.read_text(encoding="utf-8")
    assert '  ],\n  "volumes": [' in text and json.loads(text)["findings"]
    path.write_text(text.replace('  ],\n  "volumes": [', '  ],\n  "findings": [],\n  "volumes": [', 1), encoding="utf-8")
    assert _build(game, out).status == "cached"  # the full check, which records the edited manifest
    (out / "report.json").unlink()
    manifest_reads.clear()
    assert _build(game, out).status == "cached"
    assert manifest_reads[0] == "texts" and "read" in manifest_reads  # from the brief; the texts refused, the manifest parsed
    fast_report = json.loads((out / "report.json").read_text())
    (out / "report.json").unlink()
    assert _build(game, out, verify=True).status == "cached"
    assert fast_report == json.loads((out / "report.json").read_text())
    assert fast_report["games"]["mini"]["findings"] == [] and fast_report["games"]["mini"]["counts"] == {"error": 0, "warning": 0, "info": 0}


def test_a_reformatted_manifest_line_is_not_copied_into_the_report(game_copy, tmp_path, manifest_reads):
    """A finding's line in manifest.json rewritten by hand with the same data in other bytes: the report
    is written as --verify writes it (the texts must hash to the brief's findings_sha256 to be copied)."""
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    path = out / "mini" / "manifest.json"
    text = path.read_text(encoding="utf-8")
    start = text.index('  "findings": [\n    {') + len('  "findings": [\n')
    line = text[start:text.index("\n", start)]
    path.write_text(text.replace(line, line.replace('"message": ', '"message":', 1), 1), encoding="utf-8")
    assert json.loads(path.read_text())["findings"] == json.loads(text)["findings"]  # the same data
    assert _build(game, out).status == "cached"
    (out / "report.json").unlink()
    assert _build(game, out).status == "cached"
    fast = (out / "report.json").read_bytes()
    (out / "report.json").unlink()
    assert _build(game, out, verify=True).status == "cached"
    assert fast == (out / "report.json").read_bytes() and b'"message":"' not in fast


def test_a_manifest_as_new_as_its_record_gets_a_digest_checked_by_its_bytes(game_copy, tmp_path, monkeypatch):
    """The cold build's manifest is written moments before the stat cache (racy: its stat could equal a
    same-tick edit's), so its digest carries the sha256 of the manifest's bytes: the next rebuild reads
    and hashes them (not parses) and then drops that sha256. Control: bytes changed behind a stat that
    cannot tell (OpenManifest.stat faked to the recorded one) send the check to the manifest."""
    calls: list[str] = []
    real = current.OpenManifest.read
    monkeypatch.setattr(current.OpenManifest, "read", lambda self: (calls.append("read"), real(self))[1])
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out).status == "built"
    path, manifest = out / ".deckpress-stat" / "mini.digest.json", out / "mini" / "manifest.json"
    # The cold build's tail as it is on a fast disk: the files older than RACY_NS, manifest.json not.
    data = json.loads(manifest.read_text())
    time.sleep(0.15)
    os.utime(manifest)
    statcache.write(str(out / "mini"), data["files"], brief=current.brief_of(data),
                    manifest_sha256=hashlib.sha256(manifest.read_bytes()).hexdigest())
    digest = json.loads(path.read_text())
    monkeypatch.setattr(statcache, "RACY_NS", 10**12)  # the rebuild below is as new as the record
    assert digest["manifest_sha256"] == hashlib.sha256(manifest.read_bytes()).hexdigest()
    assert _build(game, out).status == "cached" and calls == []  # the bytes checked, not parsed
    assert "manifest_sha256" in json.loads(path.read_text())  # still as new as the record: kept
    monkeypatch.setattr(statcache, "RACY_NS", 0)
    assert _build(game, out).status == "cached" and calls == []
    assert "manifest_sha256" not in json.loads(path.read_text())  # settled: the stat alone from now on
    # Control: a racy digest again, and the manifest's bytes changed while its stat seems the same.
    path.write_text(json.dumps(digest))
    recorded = os.stat(manifest)
    manifest.write_bytes(manifest.read_bytes().replace(b'"release": false', b'"release": true '))
    monkeypatch.setattr(current.OpenManifest, "stat", lambda self: recorded)
    monkeypatch.setattr(statcache, "RACY_NS", 10**12)
    outcome = _build(game, out)
    assert calls == ["read"] and outcome.release is True  # the manifest as it now is, not the brief

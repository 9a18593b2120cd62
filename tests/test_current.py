"""The current-build check (pipeline/build/current.py) and the lazily made findings of a cached game
(engine.findings.FindingList).

The reference for every fast answer is the full check: the same rebuild with ``--verify``, which
hashes every output file and reads manifest.json, must give the same outcome, the same summary text
and the same report.json bytes. The brief kept beside the stat digest must never outlive the
manifest it was taken from: an edited manifest.json is read again.
"""

from __future__ import annotations

import io
import json
import os
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
    real, texts = current.OpenManifest.read, current.OpenManifest.finding_texts
    monkeypatch.setattr(current.OpenManifest, "read", lambda self: (calls.append("read"), real(self))[1])
    monkeypatch.setattr(current.OpenManifest, "finding_texts", lambda self: (calls.append("texts"), texts(self))[1])
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
    # neither parsed nor encoded again (the report's bytes are checked against --verify's below).
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

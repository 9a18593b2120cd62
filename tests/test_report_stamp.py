"""pipeline/build/reportstamp.py: report.json is read only when something of it could be kept, and an
unchanged rebuild whose report is as stamped neither reads nor writes it. Reference: the bytes and the
inode of report.json on disk, and the reads report.py makes (a spy on its json.loads)."""

from __future__ import annotations

import hashlib
import json
import os
from types import SimpleNamespace

import pytest

from pipeline.build import report, statcache
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.common.ownership import ForeignOutput


@pytest.fixture
def reads(monkeypatch) -> list[int]:
    """The sizes of the report texts report.py parses; the racy margin off (every stamp may hold)."""
    seen: list[int] = []
    monkeypatch.setattr(report, "json", SimpleNamespace(loads=lambda data: (seen.append(len(data)), json.loads(data))[1]))
    monkeypatch.setattr(statcache, "RACY_NS", 0)
    return seen


def _build(game, out) -> str:
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)))
    return outcome.status


def test_an_unchanged_rebuild_leaves_a_stamped_report_unread_and_unwritten(game_copy, tmp_path, reads):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    assert _build(game, out) == "cached"  # "built" becomes "cached": written, and nothing to keep from the old one
    assert reads == []
    data, before = (out / "report.json").read_bytes(), os.stat(out / "report.json")
    assert json.loads(data)["games"]["mini"]["status"] == "cached"
    assert _build(game, out) == "cached"
    after = os.stat(out / "report.json")
    assert reads == [] and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    edited = data.replace(b'"cached"', b'"built" ')  # same size, edited in place: the stamp must not hide it
    (out / "report.json").write_bytes(edited)
    with pytest.raises(ForeignOutput, match="it was changed after deckpress wrote it"):
        _build(game, out)  # an edited report is the user's (ledger rule): refused, not rewritten
    assert (out / "report.json").read_bytes() == edited
    (out / "report.json").unlink()
    assert _build(game, out) == "cached" and (out / "report.json").read_bytes() == data


def test_a_racy_stamp_holds_only_by_the_reports_bytes(game_copy, tmp_path, reads, monkeypatch):
    """A report as new as its stamp: its stat cannot tell it from an edit of the same clock tick, so the
    sha256 of its bytes decides (not a parse of it and of the manifest's findings). Control: the same
    racy stamp with one byte of the report changed, and a stat that cannot tell (a same-tick edit)."""
    from pipeline.build import reportstamp

    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    assert _build(game, out) == "cached"
    monkeypatch.setattr(statcache, "RACY_NS", 10**18)  # every report is as new as its stamp
    before, data = os.stat(out / "report.json"), (out / "report.json").read_bytes()
    stamp = json.loads((out / ".deckpress-stat" / "report.json").read_text())
    assert stamp["sha256"] == hashlib.sha256(data).hexdigest()
    assert _build(game, out) == "cached"
    after = os.stat(out / "report.json")
    assert reads == [] and (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)  # not parsed, left
    key = reportstamp.inputs_key(out, [("mini", "cached", os.path.relpath(game, out))])
    assert reportstamp.holds(out, key, ["mini"])
    monkeypatch.setattr(reportstamp, "signature", lambda st: stamp["report"])  # the stat cannot tell what follows
    edited = data.replace(b'"cached"', b'"CACHED"')
    assert edited != data and len(edited) == len(data)
    (out / "report.json").write_bytes(edited)
    assert not reportstamp.holds(out, key, ["mini"])
    (out / "report.json").write_bytes(data)
    assert reportstamp.holds(out, key, ["mini"])


def test_another_games_folder_makes_the_report_read_and_its_entry_kept(game_copy, tmp_path, reads):
    import shutil

    mini, out = game_copy("mini"), tmp_path / "out"
    plus = tmp_path / "second" / "mini"
    shutil.copytree(mini, plus)
    yaml = plus / "game.yaml"
    yaml.write_text(yaml.read_text().replace("id: mini\n", "id: mini-plus\n", 1))
    assert _build(plus, out) == "built"
    assert _build(mini, out) == "built"
    assert len(reads) == 1  # mini-plus's folder is there: its entry is kept
    games = json.loads((out / "report.json").read_text())["games"]
    assert sorted(games) == ["mini", "mini-plus"] and games["mini-plus"]["status"] == "built"


def test_a_broken_stamp_means_the_report_is_written_again(game_copy, tmp_path, reads):
    game, out = game_copy("mini"), tmp_path / "out"
    assert _build(game, out) == "built"
    assert _build(game, out) == "cached"
    data, before = (out / "report.json").read_bytes(), os.stat(out / "report.json")
    (out / ".deckpress-stat" / "report.json").write_text("{not json")
    assert _build(game, out) == "cached"
    after = os.stat(out / "report.json")
    assert reads == [] and after.st_ino != before.st_ino  # a broken stamp: written anew, unread (nothing in it is kept)
    assert (out / "report.json").read_bytes() == data
    assert _build(game, out) == "cached"
    assert reads == [] and os.stat(out / "report.json").st_ino == after.st_ino  # stamped again: left as it is


def test_another_games_entry_goes_with_its_folder_though_the_stamp_held(game_copy, tmp_path, reads):
    """A report listing a game this build does not name is merged again every time (new-user try:
    the entry of a deleted game's folder stayed while the stamp of the other game held)."""
    import shutil

    mini, out = game_copy("mini"), tmp_path / "out"
    plus = tmp_path / "second" / "mini"
    shutil.copytree(mini, plus)
    yaml = plus / "game.yaml"
    yaml.write_text(yaml.read_text().replace("id: mini\n", "id: mini-plus\n", 1))
    (first, second) = run_build([str(mini), str(plus)], BuildSettings(out_dir=str(out), only=("emboss",)))
    assert (first.status, second.status) == ("built", "built")
    assert _build(mini, out) == "cached"
    assert _build(mini, out) == "cached"
    shutil.rmtree(out / "mini-plus")
    assert _build(mini, out) == "cached"
    report_data = json.loads((out / "report.json").read_text())
    assert list(report_data["games"]) == ["mini"]
    assert report_data["counts"] == report_data["games"]["mini"]["counts"]
    reads.clear()
    assert _build(mini, out) == "cached"
    assert reads == []  # now it lists this build's game alone: the stamp holds again

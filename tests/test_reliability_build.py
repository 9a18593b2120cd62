"""A build that cannot finish says so in one line and keeps what was there (issue 14): a full disk
while a PDF is written (a real 3 MB tmpfs), Ctrl-C sent to a real ``deckpress build`` process
group, and one failing game in a multi-game build (report.json still lists every game)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.build import runner
from pipeline.cli.plain import summary_line
from pipeline.build.settings import BuildSettings
from tests.conftest import CARDDATA, GAMES

DECKPRESS = str(Path(sys.executable).with_name("deckpress"))


@pytest.fixture
def small_disk(tmp_path):
    """A 3 MB tmpfs at tmp_path/disk (needs root and mount); skipped where it cannot be mounted."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=3m", "tmpfs", str(disk)], capture_output=True).returncode != 0:
        pytest.skip("cannot mount a tmpfs here (needs root)")
    yield disk
    subprocess.run(["umount", "-l", str(disk)], check=False)


def _tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, but the stat cache (pipeline/build/statcache.py:
    this machine's file times and inodes, never an output)."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*"))
            if p.is_file() and ".deckpress-stat" not in p.relative_to(folder).parts}


def test_a_disk_that_fills_during_a_build_is_one_line_exit_2_and_keeps_the_previous_output(small_disk, game_copy):
    game = game_copy("mini")
    out = small_disk / "out"
    first = subprocess.run([DECKPRESS, "build", str(game), "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=300)
    assert first.returncode == 0, first.stderr
    before = _tree(out / "mini")
    free = os.statvfs(small_disk).f_bavail * os.statvfs(small_disk).f_frsize
    (small_disk / "filler").write_bytes(b"\0" * (free - 150_000))  # leave 150 kB: the staging build runs out mid-PDF
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("title: Mini ICG", "title: Mini ICG 2"))
    proc = subprocess.run([DECKPRESS, "build", str(game), "--out", str(out), "--quiet"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2
    [line] = proc.stderr.splitlines()
    assert line.startswith("deckpress: mini: cannot write ") and line.endswith(": No space left on device"), proc.stderr
    assert "terminate called" not in proc.stderr and "Traceback" not in proc.stderr
    assert _tree(out / "mini") == before  # the previous build, byte for byte
    assert not list(out.glob(".staging-*"))
    assert json.loads((out / "report.json").read_text())["games"]["mini"]["status"] == "failed"


@pytest.mark.parametrize("signum, group, line", [
    (signal.SIGINT, True, "deckpress: interrupted\n"),  # Ctrl-C: a terminal signals the whole foreground group, workers too
    (signal.SIGTERM, False, "deckpress: terminated (SIGTERM)\n"),  # `kill PID`: the build alone
    (signal.SIGTERM, True, "deckpress: terminated (SIGTERM)\n"),  # `kill -- -PGID`
    (signal.SIGHUP, True, "deckpress: hung up (SIGHUP: the terminal closed)\n"),
], ids=["ctrl-c", "kill", "kill-group", "hangup"])
def test_a_signalled_build_exits_128_plus_the_signal_with_one_line_and_no_worker_or_staging_left(tmp_path, signum, group, line):
    out = tmp_path / "out"
    proc = subprocess.Popen([DECKPRESS, "build", str(CARDDATA / "apprentice"), str(CARDDATA / "enchant"), "--out", str(out), "--quiet"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    deadline = time.monotonic() + 60
    while not list(out.glob(".staging-*/*/*")) and time.monotonic() < deadline:  # wait until stages are writing
        time.sleep(0.1)
    (os.killpg if group else os.kill)(proc.pid, signum)
    _, stderr = proc.communicate(timeout=60)
    assert (proc.returncode, stderr) == (128 + signum, line)
    # Workers die with the build; a dead worker may stay a zombie (state Z) for a moment until
    # init reaps it, which is not a process left running.
    for _ in range(50):
        ps = subprocess.run(["ps", "-o", "pid=,stat=", "-g", str(proc.pid)], capture_output=True, text=True).stdout
        left = [row.split()[0] for row in ps.splitlines() if not row.split()[1].startswith("Z")]
        if not left:
            break
        time.sleep(0.1)
    assert left == []
    assert not list(out.glob(".staging-*")) and not (out / "apprentice").exists()


def test_one_failing_game_of_a_multi_game_build_still_writes_every_outcome_to_the_report(tmp_path, monkeypatch):
    real = runner.build_game

    def failing(game_dir, settings, progress=None):
        if Path(game_dir).name == "mini-plus":
            raise OSError(28, "No space left on device")
        return real(game_dir, settings, progress)

    monkeypatch.setattr(runner, "build_game", failing)  # the forked workers inherit it
    out = tmp_path / "out"
    outcomes = runner.run_build([str(GAMES / "mini"), str(GAMES / "mini-plus")], BuildSettings(out_dir=str(out)))
    assert [(o.game_id, o.status) for o in outcomes] == [("mini", "built"), ("mini-plus", "failed")]
    report = json.loads((out / "report.json").read_text())["games"]
    assert {k: v["status"] for k, v in report.items()} == {"mini": "built", "mini-plus": "failed"}
    assert report["mini-plus"]["error"] == "No space left on device"
    assert (out / "mini" / "manifest.json").is_file() and not (out / "mini-plus").exists()


def test_the_same_build_from_two_working_directories_writes_the_same_bytes(tmp_path, game_copy):
    # manifest.json, report.json and contact-sheet.html name files relative to the game's
    # parent or the output folder, never to the working directory
    game = game_copy("mini")
    elsewhere = tmp_path / "deep" / "er"
    elsewhere.mkdir(parents=True)
    for cwd, target, out in ((game.parent, "mini", "out1"), (elsewhere, str(game), str(tmp_path / "out2"))):
        proc = subprocess.run([DECKPRESS, "build", target, "--out", out, "--quiet"], capture_output=True, text=True, cwd=cwd, timeout=300)
        assert proc.returncode == 0, proc.stderr
    one, two = _tree(tmp_path / "out1"), _tree(tmp_path / "out2")
    assert sorted(one) == sorted(two) and "mini/proofs/contact-sheet.html" in one
    assert [name for name in one if one[name] != two[name]] == []
    manifest = json.loads(one["mini/manifest.json"])
    # (letter's crop marks above and below the grid have no room inside its 0.25 in margin: IM001 at the sheets,
    # named relative to the game's output folder)
    assert {f["location"]["file"] for f in manifest["findings"]} <= {"mini/game.yaml", "mini/cards.yaml",
                                                                     "sheets/mini-letter-fronts.pdf", "sheets/mini-letter-backs.pdf"}
    assert json.loads(one["report.json"])["games"]["mini"]["folder"] == "../mini"  # relative to the output folder


def test_a_build_interrupted_after_one_game_was_swapped_in_reports_that_games_new_output(tmp_path, monkeypatch, game_copy):
    # Ctrl-C after mini's new folder replaced its old one but before the report was written: the
    # report must describe mini's new output (its files now include the dice stage's), and keep
    # other's previous entry, whose previous output the interruption left as it was.
    other = game_copy("mini").rename(tmp_path / "other")
    (other / "game.yaml").write_text((other / "game.yaml").read_text().replace("id: mini\n", "id: other\n", 1))
    out, games = tmp_path / "out", [str(GAMES / "mini"), str(other)]
    runner.run_build(games, BuildSettings(out_dir=str(out), only=("emboss",)))
    before = json.loads((out / "report.json").read_text())["games"]
    assert {k: v["status"] for k, v in before.items()} == {"mini": "built", "other": "built"}
    real = runner.build_or_fail

    def interrupted(game_dir, settings, progress=None):
        if Path(game_dir).name == "other":
            raise KeyboardInterrupt
        return real(game_dir, settings, progress)

    monkeypatch.setattr(runner, "build_or_fail", interrupted)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # one game after the other, in this process
    with pytest.raises(KeyboardInterrupt):
        runner.run_build(games, BuildSettings(out_dir=str(out), only=("emboss", "dice")))
    after = json.loads((out / "report.json").read_text())["games"]
    manifest = json.loads((out / "mini" / "manifest.json").read_text())
    assert any(f.startswith("dice/") for f in after["mini"]["files"])
    assert after["mini"]["files"] == [e["path"] for e in manifest["files"]] != before["mini"]["files"]
    assert after["other"] == before["other"] and not list(out.glob(".staging-*"))


def test_a_previous_build_whose_deletion_is_cut_short_is_still_known_and_finished(tmp_path, monkeypatch):
    # commit() deletes the previous build after the swap; a Ctrl-C inside that deletion left a
    # `.old-<game>-<pid>` folder that the next build ignored once its manifest was gone (rmtree reaches
    # manifest.json third). remove_build deletes the manifest last, and recover() finishes the job
    # (found by a new-user try: `.old-enchant2-3847` with 281 of 282 files left after Ctrl-C).
    import shutil

    from pipeline.build import outputdir

    out = tmp_path / "out"
    runner.run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(out), only=("emboss",)))
    old = out / ".old-mini-4242"
    shutil.copytree(out / "mini", old)
    real, calls = os.unlink, []

    def cut_short(path, *args, **kwargs):
        calls.append(path)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(path, *args, **kwargs)

    monkeypatch.setattr(os, "unlink", cut_short)
    with pytest.raises(KeyboardInterrupt):
        outputdir.remove_build(old)
    monkeypatch.undo()
    assert (old / "manifest.json").is_file() and not any(str(c).endswith("manifest.json") for c in calls)
    husk, theirs = out / ".old-mini-77", out / ".old-notes"
    husk.mkdir()
    theirs.mkdir()
    (theirs / "mine.txt").write_text("not deckpress's")
    outputdir.recover(out)
    assert not old.exists() and not husk.exists()
    assert (theirs / "mine.txt").read_text() == "not deckpress's" and (out / "mini" / "manifest.json").is_file()


def test_a_game_whose_cards_do_not_read_is_reported_under_its_id_not_its_folders_name(tmp_path, game_copy):
    # A folder named like another game ("mini") holding a game with id "other" and a broken
    # cards.yaml: its entry is "other" (game.yaml gave the id), and mini's entry and output stay.
    out = tmp_path / "out"
    runner.run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(out), only=("emboss",)))
    broken = game_copy("mini").rename(tmp_path / "elsewhere")
    (broken / "game.yaml").write_text((broken / "game.yaml").read_text().replace("id: mini\n", "id: other\n", 1))
    (broken / "cards.yaml").write_text("cards: [\n")
    (tmp_path / "x").mkdir()
    moved = broken.rename(tmp_path / "x" / "mini")
    (outcome,) = runner.run_build([str(moved)], BuildSettings(out_dir=str(out), only=("emboss",)))
    assert (outcome.game_id, outcome.status) == ("other", "unreadable")
    report = json.loads((out / "report.json").read_text())["games"]
    assert report["mini"]["status"] == "built" and report["other"]["status"] == "unreadable"
    assert (out / "mini" / "manifest.json").is_file()
    # No deck was loaded, so nothing is counted: null card counts and a line without counts
    # (0 unique cards would read as an empty game); mini's counts are its deck's.
    assert [report["other"][k] for k in ("unique_cards", "printed_cards", "provisional_cards", "placeholder_art_faces")] == [None] * 4
    assert report["other"]["counts"] == {"error": 1, "warning": 0, "info": 0} and report["mini"]["unique_cards"] == 4
    assert summary_line(outcome) == "== other: could not read, nothing written" and report["other"]["files"] == []


def test_a_failed_rebuild_reports_the_previous_output_that_stands(tmp_path, monkeypatch):
    # A full disk on a rebuild: the previous output stays, so report.json keeps its counts, files and
    # findings under status failed with the error, which names the file where it would have been (the
    # staging folder is gone); with no previous output the line says nothing was written.
    out = tmp_path / "out"
    runner.run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(out), only=("emboss",)))
    before = json.loads((out / "report.json").read_text())["games"]["mini"]

    def full(game_dir, settings, progress=None):
        raise OSError(28, "No space left on device", str(out / ".staging-mini-4242" / "print" / "mini-fronts.pdf"))

    monkeypatch.setattr(runner, "build_game", full)
    (outcome,) = runner.run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(out), only=("emboss", "dice")))
    after = json.loads((out / "report.json").read_text())["games"]["mini"]
    assert after["status"] == "failed" and after["error"] == f"No space left on device: {out / 'mini' / 'print' / 'mini-fronts.pdf'}"
    assert {k: after[k] for k in ("files", "unique_cards", "findings")} == {k: before[k] for k in ("files", "unique_cards", "findings")}
    from pipeline.cli.plain import summary_line

    assert summary_line(outcome).startswith("== mini: FAILED, previous output kept; run box: 4 unique cards, 8 printed")
    (first,) = runner.run_build([str(GAMES / "mini")], BuildSettings(out_dir=str(tmp_path / "new")))
    assert summary_line(first).startswith("== mini: FAILED, nothing written; run box: 0 unique cards")


def test_a_game_the_loader_refuses_a_value_of_counts_no_cards(tmp_path):
    # An expansion whose base game folder is missing: a value the loader refuses (DA003, exit 1),
    # so no deck was loaded either; "0 unique cards, 0 printed" would read as an empty game.
    expansion = tmp_path / "alone" / "apprentice-power-crystal"
    shutil.copytree(CARDDATA / "apprentice-power-crystal", expansion)
    out = tmp_path / "out"
    (outcome,) = runner.run_build([str(expansion)], BuildSettings(out_dir=str(out), only=("emboss",)))
    assert (outcome.status, [f.code for f in outcome.findings]) == ("stopped", ["DA003"])
    assert summary_line(outcome) == "== apprentice-power-crystal: STOPPED by findings, nothing written"
    entry = json.loads((out / "report.json").read_text())["games"]["apprentice-power-crystal"]
    assert [entry[k] for k in ("unique_cards", "printed_cards", "provisional_cards", "placeholder_art_faces")] == [None] * 4


def test_a_game_that_stops_or_does_not_read_keeps_and_reports_its_previous_output(tmp_path, game_copy):
    # Nothing replaces the output folder of a game stopped by findings or whose data does not
    # read, so report.json lists the files still there (from its manifest) and the line says the
    # previous output is kept; the reference is the previous build's own manifest.
    game = game_copy("mini")
    out = tmp_path / "out"
    runner.run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)))
    before = [e["path"] for e in json.loads((out / "mini" / "manifest.json").read_text())["files"]]
    cards = (game / "cards.yaml").read_text()
    (game / "cards.yaml").write_text(cards.replace("class: ", "class: no-such-class-", 1))  # an unknown class: CP error, stopped
    (stopped,) = runner.run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)))
    (game / "cards.yaml").write_text("cards: [\n")
    (unreadable,) = runner.run_build([str(game)], BuildSettings(out_dir=str(out), only=("emboss",)))
    assert (stopped.status, unreadable.status) == ("stopped", "unreadable") and before
    assert stopped.files == unreadable.files == before
    assert summary_line(stopped).startswith("== mini: STOPPED by findings, previous output kept; run box: 4 unique cards")
    assert summary_line(unreadable) == "== mini: could not read, previous output kept"
    entry = json.loads((out / "report.json").read_text())["games"]["mini"]
    assert (entry["status"], entry["files"]) == ("unreadable", before)

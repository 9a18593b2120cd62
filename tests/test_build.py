"""The build runner end to end on the fixture game: files, manifest, safety, determinism."""

from __future__ import annotations

import hashlib
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pikepdf
import pytest
from typer.testing import CliRunner

from conftest import ROOT
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.build.outputdir import LOCK_NAME
from pipeline.cli.app import app

runner = CliRunner()
DECKPRESS = str(Path(sys.executable).with_name("deckpress"))


def _tree(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """One full build of the mini fixture game (shared by the read-only tests below)."""
    out = tmp_path_factory.mktemp("build") / "output"
    (outcome,) = run_build([str(ROOT / "tests/fixtures/games/mini")], BuildSettings(out_dir=str(out), papers=("letter",)))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    return out / "mini"


def test_every_expected_file(built):
    """The whole output tree of the mini game (letter only), as the README describes it."""
    cards = ["ember-apprentice", "ember-ranger", "forest-apprentice", "fireball"]
    expected = {
        "manifest.json",
        "print/mini-fronts.pdf", "print/mini-backs.pdf",
        "uv/mini-braille.pdf", "uv/mini-dots.json", "uv/mini-fronts+braille.pdf",
        "uv/mini-mask-k100.pdf", "uv/mini-uv-ticket.json", "uv/mini-uv-ticket.pdf",
        "dice/die-d12.pdf", "dice/die-d12.3mf", "dice/die-d12.stl", "dice/die-d12.png",
        "emboss/mini-card-3x5-card.brf", "emboss/mini-card-3x5-card.brf.json", "emboss/mini-card-3x5-card.pef",
        "emboss/mini-index-everest-d-sheet.brf", "emboss/mini-index-everest-d-sheet.brf.json", "emboss/mini-index-everest-d-sheet.pef",
        "emboss/mini-index-everest-d-card-reference.brf", "emboss/mini-index-everest-d-card-reference.pef",
        "emboss/mini-index-everest-d-braille-key.brf", "emboss/mini-index-everest-d-braille-key.pef",
        "emboss/mini-index-everest-d-volumes.json",
        "archive/index.html", "archive/quickstart.html", "archive/archive.css",
        "archive/braille/mini-index-everest-d-card-reference.brf", "archive/braille/mini-index-everest-d-card-reference.pef",
        "archive/braille/mini-index-everest-d-braille-key.brf", "archive/braille/mini-index-everest-d-braille-key.pef",
        "archive/braille/mini-index-everest-d-volumes.json",
        "proofs/contact-sheet.html", "proofs/backs/ember.png", "proofs/backs/forest.png",
    }
    expected |= {f"sheets/mini-letter-{side}.pdf" for side in ("fronts", "backs", "braille", "composite", "duplex-calibration")}
    expected |= {"sheets/mini-letter-imposition.json"}
    expected |= {f"archive/cards/{c}.html" for c in cards} | {f"archive/images/{c}.png" for c in cards}
    expected |= {f"proofs/fronts/{c}.png" for c in cards} | {f"uv/heightmap/{c}.png" for c in cards}
    assert set(_tree(built)) == expected


def test_manifest_lists_the_volumes_with_their_page_counts(built):
    manifest = json.loads((built / "manifest.json").read_text())
    sidecar = json.loads((built / "emboss" / "mini-index-everest-d-volumes.json").read_text())
    assert [(v["volume"], v["pages"]) for v in manifest["volumes"]] == [(v["volume"], v["pages"]) for v in sidecar["volumes"]]
    assert [v["volume"] for v in manifest["volumes"]] == ["card-reference", "braille-key"]
    assert all(v["profile"] == "index-everest-d" and v["pages"] >= 2 for v in manifest["volumes"])


def test_manifest_hashes_match(built):
    manifest = json.loads((built / "manifest.json").read_text())
    assert manifest["unique_cards"] == 4 and manifest["printed_cards"] == 8 and manifest["provisional_cards"] == 1
    assert manifest["cards_per_class"] == {"ember": 4, "forest": 4}
    assert manifest["versions"]["liblouis"].count(".") >= 1
    listed = {e["path"]: e for e in manifest["files"]}
    on_disk = {k: v for k, v in _tree(built).items() if k != "manifest.json"}
    assert set(listed) == set(on_disk)
    for path, data in on_disk.items():
        assert listed[path]["bytes"] == len(data)
        assert listed[path]["sha256"] == hashlib.sha256(data).hexdigest()


def test_two_builds_byte_identical(built, tmp_path):
    (outcome,) = run_build([str(ROOT / "tests/fixtures/games/mini")], BuildSettings(out_dir=str(tmp_path), papers=("letter",)))
    assert outcome.status == "built"
    assert _tree(tmp_path / "mini") == _tree(built)


def test_unchanged_rebuild_is_reused(tmp_path):
    settings = BuildSettings(out_dir=str(tmp_path), papers=("letter",), only=("print",))
    game = str(ROOT / "tests/fixtures/games/mini")
    (first,) = run_build([game], settings)
    before = _tree(tmp_path / "mini")
    (second,) = run_build([game], settings)
    assert (first.status, second.status) == ("built", "cached")
    assert _tree(tmp_path / "mini") == before
    assert [f.code for f in second.findings] == [f.code for f in first.findings]


def test_errors_stop_before_anything_is_written(tmp_path, game_copy):
    game = game_copy("mini")
    text = (game / "cards.yaml").read_text().replace("power: 5", "power: 12")  # outside 1-11
    (game / "cards.yaml").write_text(text)
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(game), "--out", str(out), "--quiet"])
    assert result.exit_code == 1, result.output
    assert "STOPPED" in result.output
    assert not (out / "mini").exists()
    forced = runner.invoke(app, ["build", str(game), "--out", str(out), "--quiet", "--force", "--only", "print"])
    assert forced.exit_code == 1
    assert json.loads((out / "mini" / "manifest.json").read_text())["forced"] is True
    assert "(forced)" in forced.output


def test_force_on_a_clean_game_is_not_recorded_as_forced(tmp_path, mini_dir):
    """--force that overrides nothing: no "(forced)" and "forced": false (a new user's try saw both)."""
    out = tmp_path / "out"
    result = runner.invoke(app, ["build", str(mini_dir), "--out", str(out), "--quiet", "--force", "--only", "print"])
    assert result.exit_code == 0, result.output
    assert "(forced)" not in result.output
    assert json.loads((out / "mini" / "manifest.json").read_text())["forced"] is False


def test_unwritable_output_exits_2_naming_the_path(tmp_path, mini_dir):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    result = runner.invoke(app, ["build", str(mini_dir), "--out", str(blocker / "out"), "--quiet"])
    assert result.exit_code == 2
    assert str(blocker) in result.output


def test_second_build_refused_while_locked(tmp_path, mini_dir):
    # Another process holds the output folder's lock (POSIX locks do not conflict within one process).
    holder = subprocess.Popen(
        [sys.executable, "-c", "import fcntl, sys, time; f = open(sys.argv[1], 'a+'); fcntl.lockf(f, fcntl.LOCK_EX); print('held', flush=True); time.sleep(30)", str(tmp_path / LOCK_NAME)],
        stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        result = runner.invoke(app, ["build", str(mini_dir), "--out", str(tmp_path), "--quiet"])
    finally:
        holder.kill()
        holder.wait()
    assert result.exit_code == 2
    assert "another deckpress build is writing" in result.output


def test_unknown_stage_is_refused(tmp_path, mini_dir):
    result = runner.invoke(app, ["build", str(mini_dir), "--out", str(tmp_path), "--only", "printt"])
    assert result.exit_code == 2 and "unknown stage printt" in result.output


def _consistent(folder: Path) -> bool:
    """Every file of a game's output matches its manifest (a whole build, not a mix of two)."""
    manifest = json.loads((folder / "manifest.json").read_text())
    listed = {e["path"]: e["sha256"] for e in manifest["files"]}
    on_disk = {k: hashlib.sha256(v).hexdigest() for k, v in _tree(folder).items() if k != "manifest.json"}
    return listed == on_disk


def test_killed_build_leaves_previous_output_intact(tmp_path):
    """SIGKILL a build at several moments: the output folder always holds one whole build
    (the previous one until the new one is complete), and every PDF in it opens."""
    game = str(ROOT / "tests/fixtures/games/mini")
    out = tmp_path / "out"
    (first,) = run_build([game], BuildSettings(out_dir=str(out), papers=("letter",)))
    assert first.status == "built"
    before = _tree(out / "mini")
    outcomes = []
    for delay in (0.2, 0.5, 0.8, 1.2):
        # A different spot name changes the build key, so each build really writes.
        proc = subprocess.Popen([DECKPRESS, "build", game, "--out", str(out), "--quiet", "--spot", f"Spot{delay}", "--paper", "letter"], cwd=ROOT)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        after = _tree(out / "mini")
        assert _consistent(out / "mini")
        outcomes.append(after == before)
        for rel in after:
            if rel.endswith(".pdf"):
                pikepdf.open(out / "mini" / rel).close()
    assert outcomes[0], "a build killed early must leave the previous output untouched"
    # The next build clears the stale staging folder and completes.
    (again,) = run_build([game], BuildSettings(out_dir=str(out), papers=("letter",), spot="Other"))
    assert again.status == "built"
    assert not list(out.glob(".staging-*")) and not list(out.glob(".old-*"))


def test_recover_restores_a_build_caught_mid_swap(tmp_path):
    from pipeline.build.outputdir import OutputLock

    manifest = '{"game": "mini", "build_key": "k", "files": []}'
    (tmp_path / ".old-mini-123").mkdir()
    (tmp_path / ".old-mini-123" / "manifest.json").write_text(manifest)
    (tmp_path / ".staging-mini-456").mkdir()
    (tmp_path / ".staging-mini-456" / ".deckpress-staging").write_bytes(b"")
    # Controls: folders of those names that deckpress did not make are left alone.
    (tmp_path / ".old-notes-1").mkdir()
    (tmp_path / ".old-notes-1" / "notes.txt").write_text("keep me")
    (tmp_path / ".staging-mine-2").mkdir()
    (tmp_path / ".staging-mine-2" / "draft.txt").write_text("keep me too")
    with OutputLock(tmp_path):
        pass  # taking the lock is what recovers
    assert (tmp_path / "mini" / "manifest.json").read_text() == manifest
    assert not (tmp_path / ".staging-mini-456").exists()
    assert (tmp_path / ".old-notes-1" / "notes.txt").read_text() == "keep me"
    assert (tmp_path / ".staging-mine-2" / "draft.txt").read_text() == "keep me too"


def test_stages_after_print_run_as_parallel_chains():
    from pipeline.build.stages import branches, stages_to_run

    assert branches(stages_to_run(None)) == [["dice"], ["qr"], ["tactile", "impose"], ["emboss"], ["archive"], ["faces"], ["proof"], ["boxes"], ["vendor"]]
    # --only adds what a stage needs: impose brings print and tactile.
    assert stages_to_run(("impose",)) == ["checks", "braille", "print", "tactile", "impose"]
    assert branches(stages_to_run(("impose",))) == [["tactile", "impose"]]


def test_print_makes_the_soft_proofs_once_only_when_both_stages_that_show_them_run(tmp_path, mini_dir):
    # Both readers (the archive's faces and the proofs): made once in the print stage for both.
    # One reader: it soft-proofs in its own chain (soft_proof_pages(proofed=None)), off the serial
    # print stage, so the print product carries none.
    from engine.load import load_game
    from pipeline.build.job import Job
    from pipeline.build.stages import stage_braille, stage_print
    from pipeline.render.softproof import soft_proof_bytes

    made = {}
    for only in (("qr",), ("archive",), ("proof",), ("archive", "proof")):
        job = Job(load_game(mini_dir), BuildSettings(only=only), tmp_path / "-".join(only))
        stage_braille(job)
        stage_print(job)
        made[only] = job.printed
    for only in (("qr",), ("archive",), ("proof",)):
        assert (made[only].soft_fronts, made[only].soft_backs) == (None, None)
    both = made[("archive", "proof")]
    assert (both.soft_fronts, both.soft_backs) == (soft_proof_bytes(both.fronts.path), soft_proof_bytes(both.backs.path))


def test_a_stage_run_before_the_stage_it_reads_names_both(tmp_path, mini_dir):
    from engine.load import load_game
    from pipeline.build.job import Job, StageOrderError
    from pipeline.build.stages import stage_braille, stage_dice, stage_impose, stage_print, stage_tactile

    job = Job(load_game(mini_dir), BuildSettings(), tmp_path)
    with pytest.raises(StageOrderError, match=r"^stage 'dice' needs the products of 'braille', which has not run$"):
        stage_dice(job)
    stage_braille(job)
    with pytest.raises(StageOrderError) as caught:
        stage_tactile(job)
    assert str(caught.value) == "stage 'tactile' needs the products of 'print', which has not run"
    assert (caught.value.stage, caught.value.needed) == ("tactile", "print")
    assert not (tmp_path / "uv").exists()  # it failed before writing anything
    stage_print(job)
    with pytest.raises(StageOrderError, match=r"^stage 'impose' needs the products of 'tactile', which has not run$"):
        stage_impose(job)
    assert not (tmp_path / "sheets").exists()


def test_only_remakes_its_stage_and_keeps_the_rest(tmp_path):
    game = str(ROOT / "tests/fixtures/games/mini")
    (full,) = run_build([game], BuildSettings(out_dir=str(tmp_path), papers=("letter",)))
    before = _tree(tmp_path / "mini")
    (partial,) = run_build([game], BuildSettings(out_dir=str(tmp_path), papers=("letter",), only=("emboss",)))
    after = _tree(tmp_path / "mini")
    assert (full.status, partial.status) == ("built", "built")
    assert set(after) == set(before)  # print, uv, sheets, archive, proofs … are all still there
    assert {k: v for k, v in after.items() if k != "manifest.json"} == {k: v for k, v in before.items() if k != "manifest.json"}
    assert _consistent(tmp_path / "mini")


def test_two_folders_with_one_game_id_are_refused(tmp_path, game_copy):
    copy = game_copy("mini")  # same id "mini" as the fixture
    result = runner.invoke(app, ["build", str(ROOT / "tests/fixtures/games/mini"), str(copy), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 2
    assert "both have the game id 'mini'" in result.output
    assert not (tmp_path / "out" / "mini").exists()


def test_report_keeps_games_built_earlier(tmp_path, game_copy):
    other = game_copy("mini")
    (other / "game.yaml").write_text((other / "game.yaml").read_text().replace("id: mini", "id: mini-two"))
    run_build([str(ROOT / "tests/fixtures/games/mini")], BuildSettings(out_dir=str(tmp_path / "out"), only=("emboss",)))
    run_build([str(other)], BuildSettings(out_dir=str(tmp_path / "out"), only=("emboss",)))
    report = json.loads((tmp_path / "out" / "report.json").read_text())
    assert sorted(report["games"]) == ["mini", "mini-two"]
    assert report["counts"]["warning"] == sum(g["counts"]["warning"] for g in report["games"].values())


@pytest.mark.parametrize("only", ["", " , "])
def test_an_only_that_names_no_stage_is_refused_not_a_full_build(mini_dir, tmp_path, only):
    # An empty shell variable (--only "$STAGES") built every stage; it names none, so it is refused.
    result = runner.invoke(app, ["build", str(mini_dir), "--out", str(tmp_path / "out"), "--only", only])
    assert result.exit_code == 2 and "--only names no stage" in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("out", ["", ".", "./"])
def test_out_must_name_a_folder(mini_dir, out):
    result = runner.invoke(app, ["build", str(mini_dir), "--out", out])
    assert result.exit_code == 2 and "--out must name an output folder of its own, not the working directory" in result.output


def test_an_out_that_is_a_file_is_one_line_without_an_errno(mini_dir, tmp_path):
    (tmp_path / "cold.txt").write_text("mine")
    result = runner.invoke(app, ["build", str(mini_dir), "--out", str(tmp_path / "cold.txt")])
    assert result.exit_code == 2 and (tmp_path / "cold.txt").read_text() == "mine"
    assert result.output.strip() == f"deckpress: cannot write to {tmp_path / 'cold.txt'}: it is a file, not a folder"


def test_a_game_id_that_is_no_slug_never_names_an_output_folder(tmp_path, game_copy):
    game = game_copy("mini")
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace("id: mini", 'id: "../victim"'))
    (tmp_path / "victim").mkdir()
    (tmp_path / "victim" / "notes.txt").write_text("keep me")
    result = runner.invoke(app, ["build", str(game), "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 1 and "expected a lowercase slug" in result.output
    assert (tmp_path / "victim" / "notes.txt").read_text() == "keep me"
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [".deckpress-files", ".deckpress.lock", "report.json"]


def test_build_reports_every_preflight_error_at_once(tmp_path, game_copy):
    """Like deckpress check: a power outside the scheme (PW001, BR004) and a name too long for
    its box at 18 pt (PR001) are reported together, and nothing is written."""
    game = game_copy("mini")
    text = (game / "cards.yaml").read_text().replace("power: 5", "power: 12")
    text = text.replace("name: Ember Ranger", "name: Ember Ranger of the Far Northern Volcanic Wastes")
    (game / "cards.yaml").write_text(text)
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(tmp_path / "out")))
    assert outcome.status == "stopped"
    assert {"PW001", "BR004", "PR001"} <= {f.code for f in outcome.findings}
    assert not (tmp_path / "out" / "mini").exists()


def test_build_key_is_the_same_in_any_folder(tmp_path):
    import shutil

    from pipeline.build.manifest import build_key

    for name in ("a", "b"):
        shutil.copytree(ROOT / "tests/fixtures/games", tmp_path / name)
    assert build_key(tmp_path / "a" / "mini-plus", {}) == build_key(tmp_path / "b" / "mini-plus", {})


def test_a_file_rewritten_in_place_is_noticed(tmp_path):
    """Same size, other bytes (as a stand-alone command can leave it): the next build rebuilds."""
    game = str(ROOT / "tests/fixtures/games/mini")
    settings = BuildSettings(out_dir=str(tmp_path), only=("emboss",))
    run_build([game], settings)
    brf = next((tmp_path / "mini" / "emboss").glob("*.brf"))
    data = bytearray(brf.read_bytes())
    data[0] = ord("A") if data[0] != ord("A") else ord("B")
    brf.write_bytes(bytes(data))
    (again,) = run_build([game], settings)
    assert again.status == "built"


def test_back_offset_from_the_calibration_sheet_reaches_the_sheets(tmp_path, mini_dir):
    result = runner.invoke(app, ["build", str(mini_dir), "--out", str(tmp_path), "--quiet", "--only", "impose", "--paper", "letter", "--back-offset", "1.5mm,-0.5mm"])
    assert result.exit_code == 0, result.output
    plan = json.loads((tmp_path / "mini" / "sheets" / "mini-letter-imposition.json").read_text())
    assert plan["back_offset_mm"] == [1.5, -0.5]
    assert json.loads((tmp_path / "mini" / "manifest.json").read_text())["settings"]["back_offset"] == ["1.5mm", "-0.5mm"]
    bad = runner.invoke(app, ["build", str(mini_dir), "--out", str(tmp_path), "--back-offset", "1.5"])
    assert bad.exit_code == 2 and "--back-offset expects" in bad.output


def test_force_cannot_build_a_card_size_without_a_layout(tmp_path, game_copy):
    game = game_copy("mini")
    (game / "game.yaml").write_text((game / "game.yaml").read_text().replace(
        "card: {width: 3in, height: 5in, orientation: portrait, bleed: 0.125in}",
        "card: {width: 5in, height: 3in, orientation: landscape, bleed: 0.125in}"))
    (outcome,) = run_build([str(game)], BuildSettings(out_dir=str(tmp_path / "out"), force=True))
    assert outcome.status == "stopped"
    assert "PR007" in {f.code for f in outcome.findings}
    assert not (tmp_path / "out" / "mini").exists()


def test_findings_name_files_where_they_live_after_the_build(tmp_path, mini_dir):
    (outcome,) = run_build([str(mini_dir)], BuildSettings(out_dir=str(tmp_path), papers=("letter",), back_offset=("9mm", "0mm"), only=("impose",)))
    (large,) = [f for f in outcome.findings if f.code == "IM005"]
    assert large.location.file == str(tmp_path / "mini" / "sheets" / "mini-letter-backs.pdf")
    assert Path(large.location.file).is_file()


def test_a_folder_named_twice_builds_once(tmp_path, mini_dir):
    outcomes = run_build([str(mini_dir), str(mini_dir) + "/"], BuildSettings(out_dir=str(tmp_path), only=("emboss",)))
    assert [o.game_id for o in outcomes] == ["mini"]


def test_only_keeps_the_findings_of_the_stages_it_does_not_run(tmp_path, mini_dir):
    (full,) = run_build([str(mini_dir)], BuildSettings(out_dir=str(tmp_path), papers=("letter",)))
    (partial,) = run_build([str(mini_dir)], BuildSettings(out_dir=str(tmp_path), papers=("letter",), only=("emboss",)))
    assert "PR004" in {f.code for f in full.findings}
    assert sorted(f.code for f in partial.findings) == sorted(f.code for f in full.findings)


def test_unchanged_rebuild_loads_no_pdf_library_and_a_bad_option_still_exits_2(tmp_path, mini_dir):
    """Issue 22: an unchanged rebuild only hashes (no pikepdf, reportlab, pypdf or the stage modules);
    the options it skips reading are still checked, with one line and exit 2, whenever something is built."""
    out = tmp_path / "out"
    args = ["build", str(mini_dir), "--out", str(out), "--quiet", "--paper", "letter", "--only", "print"]
    assert runner.invoke(app, args).exit_code == 0
    probe = ("import sys; from pipeline.cli.app import app\n"
             "try:\n    app(sys.argv[1:])\nexcept SystemExit as e:\n    code = e.code\n"
             "heavy = sorted(m for m in ('pikepdf', 'reportlab', 'pypdf', 'pypdfium2', 'pipeline.render.targets', 'pipeline.build.workers') if m in sys.modules)\n"
             "print(code, heavy)")
    again = subprocess.run([sys.executable, "-c", probe, *args], capture_output=True, text=True, cwd=ROOT)
    assert "unchanged, reused" in again.stdout
    assert again.stdout.strip().splitlines()[-1] == "0 []"
    # Changed settings are not current, so the options are read: a paper size that does not exist …
    typo = runner.invoke(app, [*args[:-4], "--paper", "leter", "--only", "print"])
    assert typo.exit_code == 2 and "leter" in typo.output
    # … and an unknown target name is refused while the options are read.
    unknown = runner.invoke(app, [*args, "--target", "fogra-39"])
    assert unknown.exit_code == 2 and "unknown printing target 'fogra-39'" in unknown.output


def test_manifest_versions_are_importlib_metadata_s():
    """The build key's library versions, read off the .dist-info folders, equal importlib.metadata's (the reference)."""
    import importlib.metadata
    import re

    from pipeline.build.manifest import libraries, versions

    declared = sorted({re.match(r"[A-Za-z0-9_.-]+", r).group(0) for r in importlib.metadata.requires("deckpress") if "extra ==" not in r})
    assert libraries() == declared and "reportlab" in declared
    found = versions()
    assert {name: found[name] for name in ["deckpress", *declared]} == {name: importlib.metadata.version(name) for name in ["deckpress", *declared]}

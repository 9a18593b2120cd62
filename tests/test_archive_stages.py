"""The archive as two stages (pipeline.build.archive_stages): the pages, written before the fronts exist
with the faces planned from the card layout, and the faces rendered after the print stage; together
they write what write_archive writes, byte for byte, and a face that is not the planned one is an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.load import load_game
from pipeline.archive import faces as faces_module
from pipeline.archive.faces import Face, face_size, planned_faces, unplanned, write_faces
from pipeline.archive.site import FACE_DPI, ArchiveError, write_archive
from pipeline.build.settings import BuildSettings


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def _printed_job(game_dir: Path, staging: Path):
    from pipeline.build.job import Job
    from pipeline.build.stages import stage_braille, stage_print

    job = Job(load_game(game_dir), BuildSettings(only=("archive",)), staging)
    stage_braille(job)
    stage_print(job)
    return job


@pytest.mark.parametrize("dpi", [FACE_DPI, 72, 100, 150])
def test_the_planned_faces_are_the_faces_pdfium_renders(mini_dir, tmp_path, dpi):
    from pipeline.render.deck_pdf import render_fronts

    deck = load_game(mini_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    made = write_faces(deck, fronts.path, list(fronts.pages), tmp_path / "site", dpi)
    assert made == planned_faces(deck, dpi) and unplanned(made, planned_faces(deck, dpi)) == []
    assert face_size(96) == (288, 480) and face_size(150) == (450, 750)  # 3×5 in trim, 0.125 in bleed cut off


def test_unplanned_names_each_face_that_differs_and_each_missing_one():
    planned = {"a": Face("images/a.png", 288, 480), "b": Face("images/b.png", 288, 480)}
    assert unplanned({"a": Face("images/a.png", 290, 480)}, planned) == [
        "a: images/a.png 290 × 480 px, planned images/a.png 288 × 480 px", "b: no face"]


def test_only_archive_or_faces_runs_both_in_chains_of_their_own():
    from pipeline.build.stages import branches, needs_print, stages_to_run

    for only in (("archive",), ("faces",)):
        assert stages_to_run(only) == ["checks", "braille", "print", "archive", "faces"]
    assert branches(stages_to_run(("archive",))) == [["archive"], ["faces"]]
    assert not needs_print(["archive"]) and needs_print(["faces"])


def test_the_two_stages_write_what_write_archive_writes(mini_dir, tmp_path):
    from pipeline.build.archive_stages import stage_archive, stage_faces

    job = _printed_job(mini_dir, tmp_path / "staging")
    printed, blocks = job.printed, job.braille.blocks
    job.printed = None  # the pages are written before the print stage's product exists
    assert stage_archive(job) == []
    job.printed = printed
    assert stage_faces(job) == []
    write_archive(job.deck, blocks, printed.fronts.path, tmp_path / "one", page_ids=printed.fronts.pages, proofed=printed.soft_fronts)
    staged = _tree(tmp_path / "staging" / "archive")
    assert staged == _tree(tmp_path / "one")
    assert len([p for p in staged if p.startswith("images/") and p.endswith(".png")]) == len(job.deck.cards)


def test_a_face_that_is_not_the_planned_one_stops_the_faces_stage(mini_dir, tmp_path, monkeypatch):
    from pipeline.build.archive_stages import stage_faces

    job = _printed_job(mini_dir, tmp_path / "staging")
    monkeypatch.setattr(faces_module, "face_size", lambda dpi, layout=None: (290, 480))  # pages planned for another size
    with pytest.raises(ArchiveError, match="not those its card pages show: .*288 × 480 px, planned images/.*290 × 480 px"):
        stage_faces(job)


def test_the_downloads_are_copied_from_volumes_the_emboss_stage_wrote(mini, tmp_path, monkeypatch):
    from pipeline.archive import downloads
    from pipeline.emboss.profiles import load_profile
    from pipeline.emboss.volume_files import write_volumes
    from pipeline.emboss.write import pef_date

    deck, _ = mini
    laid_out = downloads.write_downloads(deck, tmp_path / "laid-out")
    write_volumes(deck, load_profile(downloads.DOWNLOAD_PROFILE), tmp_path / "emboss", pef_date(deck))
    write_volumes(deck, load_profile("card-3x5"), tmp_path / "cards", pef_date(deck))  # loose cards: no volumes, no sidecar

    def refuse(*args, **kwargs):
        raise AssertionError("laid out again")

    monkeypatch.setattr(downloads, "write_volumes", refuse)
    paths, view = downloads.write_downloads(deck, tmp_path / "copied", made=tmp_path / "emboss")
    assert view == laid_out[1] and view["entries"] and len(paths) == len(laid_out[0]) == 5  # 2 volumes × BRF, PEF + sidecar
    assert _tree(tmp_path / "copied") == _tree(tmp_path / "laid-out")
    with pytest.raises(AssertionError, match="laid out again"):  # a folder without the profile's sidecar is not used
        downloads.write_downloads(deck, tmp_path / "other", made=tmp_path / "cards")


def test_the_emboss_stage_hands_its_volumes_to_the_archive_only_without_a_rulebook_option(mini_dir, tmp_path):
    from pipeline.build.archive_stages import VOLUMES
    from pipeline.build.job import Job
    from pipeline.build.stages import stage_braille, stage_emboss

    job = Job(load_game(mini_dir), BuildSettings(), tmp_path / "staging")
    stage_braille(job)
    stage_emboss(job)
    assert job.prepared[VOLUMES] == tmp_path / "staging" / "emboss"
    rulebook = tmp_path / "rules.txt"
    rulebook.write_text("Rules\n\nPlay the cards.\n", encoding="utf-8")
    other = Job(load_game(mini_dir), BuildSettings(rulebook=str(rulebook)), tmp_path / "other")
    stage_braille(other)
    stage_emboss(other)
    assert VOLUMES not in other.prepared  # its volumes carry that rulebook; the archive's do not


def test_each_face_decodes_to_the_soft_proofs_trim_render(mini_dir, tmp_path):
    """The faces (rendered into their PNG rows; the mini deck's are neutral, deflated at level 2: issue 22)
    decode to exactly the pixels of the reference: soft_proof_pages' trim render (pypdfium2's PdfPage.render)."""
    import numpy as np
    from PIL import Image

    from pipeline.render.deck_pdf import render_fronts
    from pipeline.render.softproof import soft_proof_pages

    deck = load_game(mini_dir)
    fronts = render_fronts(deck, tmp_path / "fronts.pdf")
    made = write_faces(deck, fronts.path, list(fronts.pages), tmp_path / "site", FACE_DPI)
    reference = [np.asarray(r.image.convert("RGB")) for r in soft_proof_pages(fronts.path, dpi=FACE_DPI, crop_to_trim=True)]
    assert len(made) == len(reference) == len(deck.cards)
    for card_id, expected in zip(made, reference):
        with Image.open(tmp_path / "site" / "images" / f"{card_id}.png") as face:
            assert face.mode == "RGB" and np.array_equal(np.asarray(face), expected)

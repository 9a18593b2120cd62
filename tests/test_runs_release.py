"""Print runs (an expansion prints what its box adds unless --run combined), the release gate
(--release refuses press files while anything is not final) and the draft marks of every other build.

PDF text and metadata are read back with pypdf (the sheets) and pikepdf (Info), parsers independent
of reportlab, which drew them."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pikepdf
import pytest
import yaml
from PIL import Image
from pypdf import PdfReader
from typer.testing import CliRunner

from conftest import CARDDATA, GAMES
from engine.load import load_game
from engine.runs import run_counts, run_deck
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.cli.app import app

runner = CliRunner()


def test_expansion_box_run_is_what_the_box_adds():
    deck = load_game(CARDDATA / "apprentice-power-crystal")
    # 20 Power Crystals + 8 Delvers + 8 Rangers + 8 Sages (rulebook Contents) = 44 faces, 10 + 4 + 4 + 4 = 22 unique.
    assert run_counts(deck) == {"box": {"unique": 22, "printed": 44}, "combined": {"unique": 74, "printed": 148}}
    box = run_deck(deck)
    assert sorted({c.class_id for c in box.cards}) == ["ember", "forest", "glacier", "power-crystal", "spirit"]
    assert sum(c.copies for c in box.cards if c.class_id == "power-crystal") == 20
    assert [d.id for d in box.game.dice] == ["d4"]  # the D12 is in the core box
    core = load_game(CARDDATA / "apprentice")
    assert run_counts(core)["box"] == run_counts(core)["combined"] == {"unique": 60, "printed": 120}
    with pytest.raises(ValueError, match="unknown print run 'all'"):
        run_deck(deck, "all")


@pytest.fixture(scope="module")
def expansion_build(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs")
    (outcome,) = run_build([str(CARDDATA / "apprentice-power-crystal")], BuildSettings(out_dir=str(out), papers=("letter",), only=("impose",)))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    return out / "apprentice-power-crystal"


def test_default_run_prints_44_faces_and_the_manifest_says_so(expansion_build):
    manifest = json.loads((expansion_build / "manifest.json").read_text())
    assert manifest["run"] == "box" and manifest["release"] is False
    assert (manifest["unique_cards"], manifest["printed_cards"]) == (22, 44)
    assert manifest["runs"] == {"box": {"unique": 22, "printed": 44}, "combined": {"unique": 74, "printed": 148}}
    assert len(PdfReader(expansion_build / "print/apprentice-power-crystal-fronts.pdf").pages) == 22
    imposition = json.loads((expansion_build / "sheets/apprentice-power-crystal-letter-imposition.json").read_text())
    assert imposition["faces"] == 44


def test_draft_sheets_carry_the_slug_and_metadata_note(expansion_build):
    sheets = PdfReader(expansion_build / "sheets/apprentice-power-crystal-letter-fronts.pdf")
    for page in sheets.pages:
        assert "DRAFT - not for press · run box · apprentice-power-crystal · sheet" in page.extract_text()
    for pdf_path in sorted(expansion_build.glob("[pus]*/*.pdf")):
        with pikepdf.open(pdf_path) as pdf:
            info = pdf.docinfo
            assert str(info.Title).startswith("DRAFT - not for press: "), pdf_path
            assert str(info.Subject).startswith("DRAFT - not for press (run box: 10 provisional cards, 24 faces with placeholder art, a placeholder archive URL)"), pdf_path
            assert str(info.CreationDate) == str(info.ModDate) == "D:20261129000000+00'00'"  # game.yaml date: 2026-11-29
            assert "/Author" not in info and str(info.Creator) == "deckpress"  # no publisher: in the data


def test_the_draft_calibration_sheet_says_so_on_both_sides(expansion_build):
    calibration = PdfReader(expansion_build / "sheets/apprentice-power-crystal-letter-duplex-calibration.pdf")
    for page in calibration.pages:
        assert "DRAFT - not for press · run box · duplex calibration" in page.extract_text()


def test_stand_alone_press_files_are_drafts_too(tmp_path):
    """Only `deckpress build --release` makes press files: render, uv and impose mark theirs."""
    game = GAMES / "mini"
    runner = CliRunner()
    out = tmp_path / "out"
    assert runner.invoke(app, ["render", str(game), "--out", str(out / "print")]).exit_code == 0
    assert runner.invoke(app, ["uv", str(game), "--out", str(out / "uv")]).exit_code == 0
    args = ["impose", str(game), "--fronts", str(out / "print/mini-fronts.pdf"), "--backs", str(out / "print/mini-backs.pdf"),
            "--braille", str(out / "uv/mini-braille.pdf"), "--out", str(out / "sheets")]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    pdfs = sorted(out.glob("*/*.pdf"))
    assert len(pdfs) >= 8
    for pdf_path in pdfs:
        with pikepdf.open(pdf_path) as pdf:
            assert str(pdf.docinfo.Title).startswith("DRAFT - not for press: "), pdf_path
    assert "DRAFT - not for press · run box · mini · sheet 1/" in PdfReader(out / "sheets/mini-letter-fronts.pdf").pages[0].extract_text()


def test_release_refuses_the_shipped_data_listing_every_cause(tmp_path):
    result = runner.invoke(app, ["build", str(CARDDATA / "apprentice-power-crystal"), "--release", "--out", str(tmp_path), "-q"])
    assert result.exit_code == 1, result.output
    text = result.output
    assert "STOPPED by findings, nothing written" in text
    assert text.count("error PF001 release-provisional-card") == 10  # provisional cards of the box run
    assert text.count("error PF002 release-placeholder-art") == 12  # every unique card with an art box
    assert "error PF003 release-placeholder-url: the archive base URL https://cards.example.invalid/apprentice-power-crystal/ is a placeholder" in text
    assert not (tmp_path / "apprentice-power-crystal").exists()
    forced = runner.invoke(app, ["build", str(CARDDATA / "enchant"), "--release", "--force", "--out", str(tmp_path)])
    assert forced.exit_code == 2 and "--release cannot be forced" in forced.output


def _final_mini(tmp_path: Path) -> Path:
    """mini made ready for press: every card from the rulebook with real art, a real host, a publisher."""
    game = tmp_path / "mini"
    shutil.copytree(GAMES / "mini", game)
    data = yaml.safe_load((game / "game.yaml").read_text())
    data.update(publisher="Mini Games Co-op", date="2026-05-04", archive={"base_url": "https://cards.deckpress.org/mini/"})
    (game / "game.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    cards = yaml.safe_load((game / "cards.yaml").read_text())
    Image.new("RGB", (300, 300), (200, 120, 40)).save(game / "art.png")
    for card in cards["cards"]:
        card.update(provenance="rulebook", image="art.png")
    (game / "cards.yaml").write_text(yaml.safe_dump(cards, sort_keys=False))
    return game


def test_release_of_final_data_writes_press_files_without_the_draft_mark(tmp_path):
    game = _final_mini(tmp_path)
    result = runner.invoke(app, ["build", str(game), "--release", "--out", str(tmp_path / "out"), "--only", "impose", "--paper", "letter", "-q"])
    assert result.exit_code == 0, result.output
    assert "run box: 4 unique cards, 8 printed, 0 provisional, 0 faces print placeholder art; release press files" in result.output
    sheet = PdfReader(tmp_path / "out/mini/sheets/mini-letter-backs.pdf")
    assert "DRAFT" not in sheet.pages[0].extract_text() and "run box · mini · sheet 1/2 · back" in sheet.pages[0].extract_text()
    with pikepdf.open(tmp_path / "out/mini/print/mini-fronts.pdf") as pdf:
        assert str(pdf.docinfo.Title) == "Mini ICG: card fronts"
        assert str(pdf.docinfo.Author) == "Mini Games Co-op" and str(pdf.docinfo.Creator) == "Mini Games Co-op (deckpress)"
        assert str(pdf.docinfo.CreationDate) == "D:20260504000000+00'00'"
        assert str(pdf.docinfo.Subject).startswith("release, run box; 4 card fronts")
    manifest = json.loads((tmp_path / "out/mini/manifest.json").read_text())
    assert manifest["release"] is True and manifest["placeholder_art_faces"] == 0


def test_expansion_fixture_combined_run(tmp_path):
    shutil.copytree(GAMES, tmp_path / "games")
    plus = tmp_path / "games/mini-plus/game.yaml"
    data = yaml.safe_load(plus.read_text())
    data["power"]["overrides"] = {"0": "⠼⠴"}  # the fixture's power 0 otherwise collides with 10 (PW002), an error
    plus.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True))
    settings = dict(papers=("letter",), only=("print",))
    (box,) = run_build([str(tmp_path / "games/mini-plus")], BuildSettings(out_dir=str(tmp_path / "box"), **settings))
    (combined,) = run_build([str(tmp_path / "games/mini-plus")], BuildSettings(out_dir=str(tmp_path / "all"), run="combined", **settings))
    assert (box.status, combined.status) == ("built", "built"), [f.render() for f in box.findings]
    assert (box.cards, box.copies, box.run) == (2, 4, "box")
    assert (combined.cards, combined.copies, combined.run) == (5, 10, "combined")
    backs = PdfReader(tmp_path / "box/mini-plus/print/mini-plus-backs.pdf")
    assert [str(backs.page_labels[i]) for i in range(len(backs.pages))] == ["ember", "crystal"]  # only the backs the box's cards carry

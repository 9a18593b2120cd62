"""``deckpress emboss``: writes the files, exit 2 with a clear message for a profile or paper it cannot use."""

from __future__ import annotations

from typer.testing import CliRunner

from pipeline.cli.app import app
from pipeline.emboss.brf import read_brf
from pipeline.emboss.validate import validate_pef

runner = CliRunner()


def test_emboss_card_layout_writes_brf_sidecar_and_pef(mini_dir, tmp_path):
    result = runner.invoke(app, ["emboss", str(mini_dir), "--profile", "card-3x5", "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [".deckpress-files", "mini-card-3x5-card.brf", "mini-card-3x5-card.brf.json", "mini-card-3x5-card.pef"]
    assert len(read_brf((tmp_path / "mini-card-3x5-card.brf").read_bytes())) == 8  # one page per physical card
    assert validate_pef(tmp_path / "mini-card-3x5-card.pef") == []
    assert "0 error(s)" in result.output
    unique = runner.invoke(app, ["emboss", str(mini_dir), "--profile", "card-3x5", "--unique", "--out", str(tmp_path)])
    assert unique.exit_code == 0, unique.output
    assert len(read_brf((tmp_path / "mini-card-3x5-card.brf").read_bytes())) == 4  # one per unique card


def test_emboss_sheet_brf_only(mini_dir, tmp_path):
    args = ["emboss", str(mini_dir), "--profile", "index-everest-d", "--layout", "sheet", "--format", "brf", "--out", str(tmp_path)]
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == [".deckpress-files", "mini-index-everest-d-sheet.brf", "mini-index-everest-d-sheet.brf.json"]


def test_everest_cannot_take_loose_cards_exit_2(mini_dir, tmp_path):
    result = runner.invoke(app, ["emboss", str(mini_dir), "--profile", "index-everest-d", "--layout", "card", "--out", str(tmp_path)])
    assert result.exit_code == 2
    assert "cannot take a 76.2 × 127 mm card" in result.output and "sheet layout" in result.output
    assert "Traceback" not in result.output
    assert list(tmp_path.iterdir()) == []


def test_unknown_profile_and_interpoint_refusals_exit_2(mini_dir, tmp_path):
    result = runner.invoke(app, ["emboss", str(mini_dir), "--profile", "braillo-9000", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "known: card-3x5" in result.output
    result = runner.invoke(app, ["emboss", str(mini_dir), "--profile", "viewplus-tiger-max", "--layout", "sheet", "--interpoint", "--out", str(tmp_path)])
    assert result.exit_code == 2 and "interpoint is not available" in result.output

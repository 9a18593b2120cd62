"""``deckpress render``: writes both print PDFs, prints the findings, exit codes 0 / 1 / 2."""

from __future__ import annotations

from pypdf import PdfReader
from typer.testing import CliRunner

from engine.registry import RULES
from pipeline.cli.app import app

runner = CliRunner()


def test_render_writes_fronts_and_backs_and_verifies_qr(mini_dir, tmp_path):
    result = runner.invoke(app, ["render", str(mini_dir), "--out", str(tmp_path), "--verify-qr"])
    assert result.exit_code == 0, result.output
    assert len(PdfReader(tmp_path / "mini-fronts.pdf").pages) == 4
    assert len(PdfReader(tmp_path / "mini-backs.pdf").pages) == 2
    assert "PR004 placeholder-art" in result.output and "0 error(s)" in result.output
    assert "QR002" not in result.output


def test_render_decodes_qr_only_with_verify_qr(mini_dir, tmp_path, monkeypatch):
    # Until the CLI split, the qr import shadowed the --verify-qr flag, so every render decoded every QR.
    import pipeline.qr.codes as codes

    decoded = []
    monkeypatch.setattr(codes, "verify_qr", lambda pdf, expected, box: decoded.append(len(expected)) or [])
    assert runner.invoke(app, ["render", str(mini_dir), "--out", str(tmp_path)]).exit_code == 0
    assert decoded == []
    assert runner.invoke(app, ["render", str(mini_dir), "--out", str(tmp_path), "--verify-qr"]).exit_code == 0
    assert decoded == [4]  # the mini game's 4 unique cards, one QR each


def test_render_exits_1_on_text_that_does_not_fit(game_copy, tmp_path):
    folder = game_copy("mini")
    cards = folder / "cards.yaml"
    cards.write_text(cards.read_text().replace("name: Fireball", "name: " + "Fireball " * 12, 1))
    result = runner.invoke(app, ["render", str(folder), "--out", str(tmp_path / "out")])  # not beside the card data
    assert result.exit_code == 1
    assert "PR001 text-does-not-fit: [fireball]" in result.output


def test_render_exits_2_on_a_card_size_the_layout_does_not_fit(game_copy, tmp_path):
    folder = game_copy("mini")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("card: {width: 3in, height: 5in", "card: {width: 5in, height: 3in"))
    out = tmp_path / "print"
    result = runner.invoke(app, ["render", str(folder), "--out", str(out)])
    assert result.exit_code == 2
    assert "layout card-3x5-portrait" in result.output
    assert not out.exists()


def test_print_and_qr_rules_are_documented_with_examples():
    from pipeline.build.stages import import_stage_modules

    import_stage_modules()

    mine = [r for r in RULES if r.family in ("PR", "QR")]
    assert [r.code for r in mine] == ["PR001", "PR002", "PR003", "PR004", "PR005", "PR006", "PR007", "PR008", "PR009", "PR010", "QR001", "QR002"]
    for r in mine:
        assert "Fails:" in r.doc and "Passes:" in r.doc, r.code
        assert "\n" not in r.summary and r.summary.endswith("."), r.code

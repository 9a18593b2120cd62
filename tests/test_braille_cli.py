"""`deckpress braille` and `deckpress dice` through typer's runner."""

from __future__ import annotations

from typer.testing import CliRunner

from pipeline.cli.app import app

runner = CliRunner()


def test_braille_prints_unicode_then_braille_ascii():
    result = runner.invoke(app, ["braille", "Forest Apprentice"])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines() == ["⠠⠿⠑⠌⠀⠠⠁⠏⠏⠗⠢⠞⠊⠉⠑", ",=E/ ,APPR5TICE"]


def test_braille_grade_1():
    result = runner.invoke(app, ["braille", "Rally! Enchant!", "--grade", "1"])
    assert result.output.splitlines() == ["⠠⠗⠁⠇⠇⠽⠖⠀⠠⠑⠝⠉⠓⠁⠝⠞⠖", ",RALLY6 ,ENCHANT6"]


def test_braille_uses_the_games_grade(game_copy):
    game = game_copy("mini")
    text = (game / "game.yaml").read_text()
    (game / "game.yaml").write_text(text + "braille: {grade: 2, name_grade: 1}\n")
    assert runner.invoke(app, ["braille", "Forest", "--game", str(game)]).output.splitlines()[0] == "⠠⠿⠑⠌"
    assert runner.invoke(app, ["braille", "Forest", "--game", str(game), "--name"]).output.splitlines()[0] == "⠠⠋⠕⠗⠑⠎⠞"


def test_braille_untranslatable_exits_2_naming_the_code_point():
    result = runner.invoke(app, ["braille", "Snow \u2603"])
    assert result.exit_code == 2
    assert "U+2603" in result.output + (result.stderr or "")
    assert "Traceback" not in result.output


def test_dice_writes_sheets(mini_dir, tmp_path):
    result = runner.invoke(app, ["dice", str(mini_dir), "--out", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"wrote {tmp_path / 'die-d12.pdf'}" in result.output
    assert (tmp_path / "die-d12.pdf").read_bytes().startswith(b"%PDF-")

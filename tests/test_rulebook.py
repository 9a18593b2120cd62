"""The rulebook reader: line numbers, headings, paragraphs, table of contents, encodings, bad files."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from conftest import GAMES, SEEDS
from engine.rulebook import Rulebook, RulebookError
from pipeline.cli.app import app


def test_plain_text_headings_and_toc_of_the_claim_seed():
    rb = Rulebook.read(SEEDS / "004_df258f8d5d7afdc1.txt")
    toc = rb.toc()
    assert len(toc) == 29 and (toc[0].line.number, toc[0].level, toc[0].title) == (7, 0, "Components")
    assert (toc[2].title, toc[2].level) == ("Artifact Rules", 1)
    heads = [h.number for h in rb.headings()]
    assert {37, 48, 134, 184, 204} <= set(heads) and 50 not in heads  # "Shuffle all cards …" is prose


def test_markdown_wrapped_paragraph_keeps_line_and_column():
    rb = Rulebook.from_text("# Set up\n\nShuffle, then deal\neach player 13 cards.\n", "r.md")
    [_, p] = rb.paragraphs()
    offset = p.text.index("13")
    assert p.text == "Shuffle, then deal each player 13 cards." and p.line_at(offset).number == 4 and p.column_at(offset) == 13


def test_cp1252_file_is_read(tmp_path):
    path = tmp_path / "rules.txt"
    path.write_bytes(b"Rally!: add a card \x96 now.\n")  # 0x96 is an en dash in Windows-1252
    assert Rulebook.read(path).line(1).body == "Rally!: add a card – now."


def test_binary_file_is_refused(tmp_path):
    path = tmp_path / "rules.pdf"
    path.write_bytes(b"%PDF-1.7\x00\x01")
    with pytest.raises(RulebookError, match="not a text file"):
        Rulebook.read(path)


def test_cli_check_with_rulebook_json_and_exit_codes(tmp_path):
    runner = CliRunner()
    rb = tmp_path / "rules.txt"
    rb.write_text("Deal each player 5 cards.\n")
    result = runner.invoke(app, ["check", str(GAMES / "mini"), "--rulebook", str(rb), "--select", "RB003", "--format", "json"])
    assert result.exit_code == 0, result.output  # a warning only
    import json

    doc = json.loads(result.output)
    assert doc["counts"] == {"error": 0, "warning": 1, "info": 0}
    assert doc["findings"][0]["location"]["line"] == 1 and doc["findings"][0]["code"] == "RB003"
    strict = runner.invoke(app, ["check", str(GAMES / "mini"), "--rulebook", str(rb), "--select", "RB003", "--strict"])
    assert strict.exit_code == 1
    missing = runner.invoke(app, ["check", str(GAMES / "mini"), "--rulebook", str(tmp_path / "nope.txt")])
    assert missing.exit_code == 2 and "cannot read rulebook" in missing.output

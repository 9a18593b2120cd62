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


def test_utf16_file_with_its_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "rules.txt"
    path.write_bytes("RULES\r\n\r\nDeal each player 5 cards – Surge!\r\n".encode("utf-16"))  # Notepad's "Unicode": BOM + UTF-16 LE
    rb = Rulebook.read(path)
    assert rb.line(3).body == "Deal each player 5 cards – Surge!" and rb.line(1).heading


def test_empty_and_oversized_files_are_refused_with_what_was_expected(tmp_path):
    empty = tmp_path / "empty.txt"
    empty.write_text("  \n\n")
    with pytest.raises(RulebookError, match="is empty: there is no rules text to check"):
        Rulebook.read(empty)
    big = tmp_path / "big.txt"
    big.write_bytes(b"Play a card.\n" * 400_000)  # 5,200,000 bytes
    with pytest.raises(RulebookError, match="is 5,200,000 bytes, over the 5,000,000 bytes deckpress reads as a rulebook"):
        Rulebook.read(big)


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


def test_numbered_headings_and_a_dot_leader_contents_list():
    from conftest import FIXTURES

    rb = Rulebook.read(FIXTURES / "rulebooks" / "tidepool-numbered.txt")
    assert [(e.line.number, e.level, e.title) for e in rb.toc()][:2] == [(4, 0, "Components"), (5, 0, "Classes")]
    heads = {h.number: h.body for h in rb.headings()}
    assert heads[11] == "1. Components" and heads[63] == "8. Balance"
    assert 47 not in heads and rb.line(47).bullet  # "1. Name" in a run of numbered items is a list item
    assert rb.heading_before(13).number == 11


def test_markdown_numbered_headings_match_their_linked_contents_and_list_intros_are_prose():
    from conftest import FIXTURES

    rb = Rulebook.read(FIXTURES / "rulebooks" / "tidepool.md")
    assert [e.title for e in rb.toc()][0] == "1. Components"
    assert 47 not in {h.number for h in rb.headings()}  # "Each card shows, from top to bottom:"


def test_nested_contents_levels_from_indentation_and_section_numbers():
    rb = Rulebook.from_text("Table of Contents\n2 Setup .... 3\n2.1 Deal .... 4\n- x\n\n2 Setup\n")
    assert [(e.title, e.level) for e in rb.toc()] == [("2 Setup", 0), ("2.1 Deal", 1), ("x", 0)]
    from engine.rulebook import normalise_title, to_int

    assert normalise_title("2.1 Deal") == normalise_title("Deal") == "deal" and normalise_title("3 PLAYERS") == "3 players"
    assert [to_int(w) for w in ("twenty-six", "forty two", "one hundred", "eight", "7x", "many")] == [26, 42, 100, 8, 7, None]

"""PEF 1.0: golden document for the mini fixture, validation against the official RELAX NG schema
and the two Schematron rules (checked in Python), for our files and the specification's samples."""

from __future__ import annotations

import dataclasses

import pytest
from lxml import etree

from conftest import FIXTURES, PEF_DIR
from engine.load import load_game
from pipeline.emboss.pef import DC_NS, PEF_NS, PefMeta, content_identifier, pef_bytes, read_pef
from pipeline.emboss.validate import SCHEMA, schematron_problems, validate_pef
from pipeline.emboss.write import emboss_outputs, pef_date, write_embosser_files

# Golden PEF of the mini fixture (card layout, card-3x5, date fixed). Checked by hand once:
# its rows are the same cells as the golden BRF in test_emboss_brf.py (checked there against
# the UEB chart), one page per card, and its head read against PEF 1.0 §§ "head", "volume".
GOLDEN = FIXTURES / "emboss" / "mini-card-3x5-card.pef"


def test_golden_card_layout_pef(mini, tmp_path):
    deck, blocks = mini
    result = write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", formats=("pef",), date="2026-01-01", copies=False)
    assert result.findings == ()
    assert (tmp_path / "mini-card-3x5-card.pef").read_bytes() == GOLDEN.read_bytes()


def test_golden_structure(mini):
    root = etree.parse(str(GOLDEN)).getroot()
    assert root.tag == f"{{{PEF_NS}}}pef" and root.get("version") == "2008-1"
    dc = {el.tag.split("}")[1]: el.text for el in root.iter(f"{{{DC_NS}}}*")}
    assert dc["format"] == "application/x-pef+xml"
    assert dc["identifier"].startswith("deckpress:mini:") and len(dc["identifier"]) == len("deckpress:mini:") + 16
    assert (dc["title"], dc["language"], dc["date"]) == ("Mini ICG: braille cards", "en", "2026-01-01")
    volume = root.find(f".//{{{PEF_NS}}}volume")
    assert dict(volume.attrib) == {"cols": "10", "rows": "9", "rowgap": "0", "duplex": "false"}
    pages = read_pef(GOLDEN)
    assert len(pages) == 4
    assert pages[3] == ["⠰⠠⠋", "⠠⠋⠊⠗⠑⠃⠁⠇⠇", "⠠⠗⠁⠇⠇⠽⠖", "⠠⠢⠡⠁⠝⠞⠖", "⠿⠦"]
    assert all("\u2800" <= ch <= "\u283f" for page in pages for row in page for ch in row)


def test_vendored_schema_is_the_official_one():
    assert SCHEMA.read_bytes() == (PEF_DIR / "pef-2008-1.rng").read_bytes()


@pytest.mark.parametrize("name", ["poem.pef", "6-dot-chart.pef"])
def test_specification_samples_validate(name):
    assert validate_pef(PEF_DIR / name) == []
    assert validate_pef(str(PEF_DIR / name), schema=PEF_DIR / "pef-2008-1.rng") == []


def test_every_pef_we_write_validates(mini, tmp_path):
    deck, blocks = mini
    made = []
    for profile in ("card-3x5", "generic-40x25", "index-everest-d", "index-basic-d", "enabling-technologies-romeo-60", "viewplus-tiger-max"):
        result = write_embosser_files(deck, blocks, tmp_path, profile, "sheet", formats=("pef",), copies=True, date="2026-01-01")
        made += result.paths
    made += write_embosser_files(deck, blocks, tmp_path, "index-everest-d", "sheet", formats=("pef",), interpoint=True, date="2026-01-01").paths
    made += write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", formats=("pef",), date="2026-01-01").paths
    assert len(made) == 8
    for path in made:
        assert validate_pef(path) == [], path
    assert 'duplex="true"' in (tmp_path / "mini-index-everest-d-sheet.pef").read_text()


def test_sheet_pef_puts_cards_side_by_side_with_a_blank_line_between_rows(mini, tmp_path):
    deck, blocks = mini
    write_embosser_files(deck, blocks, tmp_path, "generic-40x25", "sheet", formats=("pef",), date="2026-01-01")
    path = tmp_path / "mini-generic-40x25-sheet.pef"
    text = path.read_text()
    # 3 cards in row 1, fireball alone in row 2: one blank row between them (the BRF golden in
    # test_emboss_brf.py, MINI_SHEET_BRF, holds the same cells, a space there being U+2800 here)
    assert text.count("<row/>") == 1 and text.count("<page>") == 1
    assert 'cols="40" rows="25"' in text
    [page] = read_pef(path)
    assert page[0] == "⠰⠠⠑" + "⠀" * 9 + "⠰⠠⠑" + "⠀" * 9 + "⠰⠠⠋"  # cards at cells 1, 13, 25
    assert page[4] == "⠼⠁" + "⠀" * 22 + "⠼⠁"  # ember-ranger (4 lines) leaves its column blank
    assert page[5:7] == ["", "⠰⠠⠋"] and len(page) == 11
    assert not any(row.endswith("⠀") for row in page) and validate_pef(path) == []


def _doc(pages, cols=10, rows=11):
    return pef_bytes(pages, cols, rows, PefMeta("t", "id-1", "2026-01-01"))


def test_rule_1_rows_per_page():
    problems = validate_pef(_doc([["⠁"] * 12]))
    assert len(problems) == 1 and problems[0].startswith("[Rule 1]") and "needs 12 rows, rows=11" in problems[0]


def test_rule_1_counts_rowgap_in_quarter_rows():
    # rows=3: 2 rows with rowgap 4 (one extra row-height each, as the rule divides by 4) need 2 + 2 = 4 > 3
    doc = etree.fromstring(_doc([["⠁", "⠃"]], rows=3))
    for row in doc.iter(f"{{{PEF_NS}}}row"):
        row.set("rowgap", "4")
    assert [p[:8] for p in schematron_problems(doc)] == ["[Rule 1]"]
    doc.find(f".//{{{PEF_NS}}}volume").set("rows", "4")
    assert schematron_problems(doc) == []


def test_rule_2_cells_per_row_uses_the_nearest_cols():
    assert validate_pef(_doc([["⠁" * 11]]))[0].startswith("[Rule 2] Too many characters on row: page 1 row 1")
    doc = etree.fromstring(_doc([["⠁" * 11]]))
    doc.find(f".//{{{PEF_NS}}}section").set("cols", "12")  # a section may override the volume
    assert schematron_problems(doc) == []


def test_relax_ng_catches_a_missing_format_and_non_braille_rows():
    doc = etree.fromstring(_doc([["⠁"]]))
    fmt = doc.find(f".//{{{DC_NS}}}format")
    fmt.getparent().remove(fmt)
    assert any("RELAX NG" in p for p in validate_pef(etree.tostring(doc)))
    bad_row = _doc([["A"]])
    assert any("RELAX NG" in p for p in validate_pef(bad_row))
    assert validate_pef(b"<pef") [0].startswith("not well-formed XML")


def test_invalid_pef_is_not_written(mini, tmp_path, monkeypatch):
    deck, blocks = mini
    import pipeline.emboss.write as write

    monkeypatch.setattr(write, "pef_bytes", lambda rows, cols, nrows, meta, duplex=False: _doc(rows, cols, 1))
    result = write.write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", formats=("pef",), date="2026-01-01")
    assert result.paths == () and [f.code for f in result.findings] == ["EM004"]
    assert list(tmp_path.iterdir()) == []


def test_identifier_is_stable_and_content_bound():
    a = content_identifier("mini", ["card-3x5", "card", [["⠁"]]])
    assert a == content_identifier("mini", ["card-3x5", "card", [["⠁"]]])
    assert a != content_identifier("mini", ["card-3x5", "card", [["⠃"]]])


def test_date_comes_from_source_date_epoch_else_the_data_files(game_copy, monkeypatch):
    import os

    folder = game_copy("mini")
    deck = load_game(folder)
    os.utime(folder / "game.yaml", (1600000000, 1600000000))  # 2020-09-13T12:26:40Z
    os.utime(folder / "cards.yaml", (1650000000, 1650000000))  # 2022-04-15T05:20:00Z, the newest
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # 2023-11-14T22:13:20Z
    assert pef_date(deck) == "2023-11-14"
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    assert pef_date(deck) == "2022-04-15"


def test_date_of_the_data_wins(game_copy, monkeypatch):
    """A game's edition ``date:`` makes the PEF the same bytes on every machine (no file times)."""
    folder = game_copy("mini")
    (folder / "game.yaml").write_text((folder / "game.yaml").read_text().replace("title: Mini ICG\n", "title: Mini ICG\ndate: 2025-03-01\n"))
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert pef_date(load_game(folder)) == "2025-03-01"


def test_build_outputs_card_and_sheet_files_and_rebuild_is_byte_identical(mini, tmp_path):
    deck, blocks = mini
    first = emboss_outputs(deck, blocks, tmp_path / "a", date="2026-01-01")
    again = emboss_outputs(deck, blocks, tmp_path / "b", date="2026-01-01")
    names = sorted(p.name for p in first.paths)
    # Card stock gets the card file; the sheet profile also gets the companion volumes (no rulebook named).
    assert names == ["mini-card-3x5-card.brf", "mini-card-3x5-card.brf.json", "mini-card-3x5-card.pef",
                     "mini-index-everest-d-braille-key.brf", "mini-index-everest-d-braille-key.pef",
                     "mini-index-everest-d-card-reference.brf", "mini-index-everest-d-card-reference.pef",
                     "mini-index-everest-d-sheet.brf", "mini-index-everest-d-sheet.brf.json", "mini-index-everest-d-sheet.pef",
                     "mini-index-everest-d-volumes.json"]
    assert first.findings == ()
    for p, q in zip(first.paths, again.paths):
        assert p.read_bytes() == q.read_bytes()


def test_build_reports_a_profile_that_cannot_take_the_card(mini, tmp_path):
    deck, blocks = mini
    result = emboss_outputs(deck, blocks, tmp_path, jobs=[("index-everest-d", "card")], date="2026-01-01")
    assert result.paths == () and [f.code for f in result.findings] == ["EM008"]
    assert "130–297.6 mm wide" in result.findings[0].message


def test_wider_lines_than_a_block_are_refused_in_pef_too(mini, tmp_path):
    deck, blocks = mini
    wide = dict(blocks, fireball=dataclasses.replace(blocks["fireball"], lines=("⠁" * 11,)))
    result = write_embosser_files(deck, wide, tmp_path, "card-3x5", "card", formats=("pef",), date="2026-01-01", copies=False)
    assert [f.code for f in result.findings] == ["EM002"]
    assert len(read_pef(result.paths[0])) == 3 and validate_pef(result.paths[0]) == []

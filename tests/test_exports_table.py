"""``deckpress import`` / ``export``: the card table round trip on every shipped game, and bad tables
reported at sheet!cell with nothing written."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import openpyxl
import pytest
from typer.testing import CliRunner

from conftest import CARDDATA
from engine.load import load_game
from engine.model import CardsFile
from engine.yamlsource import load_yaml
from pipeline.cli.app import app
from pipeline.exports.cardsyaml import updated_text
from pipeline.exports.sheetimport import import_table, table_cards, header_columns
from pipeline.exports.table import COLUMNS, card_row, column_letter, read_table, write_table

SHIPPED = sorted(p.name for p in CARDDATA.iterdir() if (p / "cards.yaml").is_file())
runner = CliRunner()


def _own_cards(folder: Path):
    """The cards of ``folder``'s own cards.yaml (an expansion's: only what it adds), as models."""
    data, _ = load_yaml((folder / "cards.yaml").read_text(encoding="utf-8"), "cards.yaml")
    return CardsFile.model_validate(data).cards


def _dump(cards) -> list[dict]:
    return [c.model_dump() for c in cards]


@pytest.fixture
def carddata_copy(tmp_path) -> Path:
    """Every shipped game copied (expansions find their base game at ../)."""
    shutil.copytree(CARDDATA, tmp_path / "carddata")
    return tmp_path / "carddata"


def test_column_letters():
    assert [column_letter(i) for i in (0, 2, 25, 26, 27, 701, 702)] == ["A", "C", "Z", "AA", "AB", "ZZ", "AAA"]


@pytest.mark.parametrize("game", SHIPPED)
def test_table_of_every_shipped_game_imports_to_equal_card_data(game, carddata_copy, tmp_path):
    folder = carddata_copy / game
    original = _own_cards(folder)
    table = tmp_path / f"{game}.xlsx"
    table.write_bytes(write_table(original, table))
    (folder / "cards.yaml").unlink()  # written afresh from the table alone
    result = import_table(table, folder)
    assert [f.render() for f in result.findings if f.severity.value == "error"] == []
    assert result.written and result.cards == len(original)
    assert _dump(_own_cards(folder)) == _dump(original)
    assert _dump(load_game(folder).cards) == _dump(load_game(CARDDATA / game).cards)


@pytest.mark.parametrize("game", SHIPPED)
def test_an_unchanged_table_leaves_cards_yaml_byte_for_byte(game, tmp_path):
    text = (CARDDATA / game / "cards.yaml").read_text(encoding="utf-8")
    path = tmp_path / "cards.csv"
    path.write_bytes(write_table(_own_cards(CARDDATA / game), path))
    table = read_table(path, "cards.csv")
    columns, findings, header = header_columns(table)
    assert findings == []
    cards, _ = table_cards(table, columns, header)
    assert updated_text(text, cards) == text  # every comment, quote and blank line kept


def _ods(path: Path, rows: list[list[object]]) -> None:
    """A minimal OpenDocument spreadsheet (ODF 1.2: mimetype first and stored, manifest, content)."""
    def cell(value: object) -> str:
        if value is None:
            return "<table:table-cell/>"
        if isinstance(value, int):
            return f'<table:table-cell office:value-type="float" office:value="{value}"><text:p>{value}</text:p></table:table-cell>'
        return f'<table:table-cell office:value-type="string"><text:p>{escape(str(value))}</text:p></table:table-cell>'

    body = "".join("<table:table-row>" + "".join(cell(v) for v in row) + "</table:table-row>" for row in rows)
    content = ('<?xml version="1.0" encoding="UTF-8"?><office:document-content '
               'xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
               'xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" '
               'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" office:version="1.2">'
               f'<office:body><office:spreadsheet><table:table table:name="Cards">{body}</table:table>'
               '</office:spreadsheet></office:body></office:document-content>')
    manifest = ('<?xml version="1.0" encoding="UTF-8"?><manifest:manifest '
                'xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.2">'
                '<manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.spreadsheet"/>'
                '<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>')
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("mimetype", "application/vnd.oasis.opendocument.spreadsheet", compress_type=zipfile.ZIP_STORED)
        z.writestr("META-INF/manifest.xml", manifest, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr("content.xml", content, compress_type=zipfile.ZIP_DEFLATED)


def test_an_ods_table_of_the_expansion_imports_to_equal_card_data(carddata_copy, tmp_path):
    # the expansion: only its own cards in the table, one braille_rules "" (written as the cell "")
    folder = carddata_copy / "apprentice-power-crystal"
    # The shipped cards no longer abridge their braille; one card does here, so the "" cell is exercised.
    original = _own_cards(folder)
    original[0] = original[0].model_copy(update={"braille_rules": ""})
    _ods(tmp_path / "cards.ods", [list(COLUMNS)] + [card_row(c) for c in original])
    (folder / "cards.yaml").unlink()
    result = import_table(tmp_path / "cards.ods", folder)
    assert result.written
    assert _dump(_own_cards(folder)) == _dump(original)
    assert any(c.braille_rules == "" for c in _own_cards(folder))


def _apprentice_table(carddata_copy: Path, tmp_path: Path):
    """The Apprentice table as an openpyxl workbook, saved by the caller after a change."""
    path = tmp_path / "cards.xlsx"
    path.write_bytes(write_table(_own_cards(carddata_copy / "apprentice"), path))
    return openpyxl.load_workbook(path), path


def _import(path: Path, game: Path):
    return runner.invoke(app, ["import", str(path), "--game", str(game)])


def test_a_bad_cell_is_reported_at_sheet_and_cell_and_nothing_is_written(carddata_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    book, path = _apprentice_table(carddata_copy, tmp_path)
    sheet = book.active
    assert sheet["H5"].value == 2 and sheet["A5"].value == "ember-sage"  # copies of the 4th card
    sheet["H5"] = "two"
    book.save(path)
    before = (carddata_copy / "apprentice" / "cards.yaml").read_bytes()
    result = _import(path, carddata_copy / "apprentice")
    assert result.exit_code == 1
    assert "cards.xlsx:cards!H5: error DA003 invalid-value: [ember-sage] cards.3.copies:" in result.output
    assert "nothing written" in result.output
    assert (carddata_copy / "apprentice" / "cards.yaml").read_bytes() == before


def test_a_check_finding_names_the_cell_too(carddata_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    book, path = _apprentice_table(carddata_copy, tmp_path)
    book.active["F2"] = "Enchant!, Smite"  # keywords of ember-apprentice: an unknown one
    book.save(path)
    result = _import(path, carddata_copy / "apprentice")
    assert result.exit_code == 1
    assert "cards.xlsx:cards!F2: error KW001 unknown-keyword: [ember-apprentice]" in result.output


def test_missing_and_unknown_columns_are_reported_at_the_header(carddata_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    book, path = _apprentice_table(carddata_copy, tmp_path)
    sheet = book.active
    assert sheet["N1"].value == "provenance" and sheet["E1"].value == "power"
    sheet["N1"] = None
    sheet["E1"] = "powr"
    book.save(path)
    before = (carddata_copy / "apprentice" / "cards.yaml").read_bytes()
    result = _import(path, carddata_copy / "apprentice")
    assert result.exit_code == 1
    assert "cards.xlsx:cards!E1: error DA004 unknown-key: unknown column 'powr'\n    hint: did you mean 'power'?" in result.output
    assert "cards.xlsx:cards!A1: error DA002 missing-field: missing required column 'provenance'" in result.output
    assert (carddata_copy / "apprentice" / "cards.yaml").read_bytes() == before


def test_an_unreadable_table_exits_2_naming_the_path(carddata_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "broken.xlsx").write_bytes(b"not a zip file at all")
    result = _import(tmp_path / "broken.xlsx", carddata_copy / "apprentice")
    assert result.exit_code == 2 and "cannot read broken.xlsx: not a readable xlsx workbook" in result.output
    result = _import(tmp_path / "cards.txt", carddata_copy / "apprentice")
    assert result.exit_code == 2 and "cannot read cards.txt: a card table is .xlsx, .ods, .csv" in result.output
    result = _import(tmp_path / "missing.csv", carddata_copy / "apprentice")
    assert result.exit_code == 2 and "cannot read missing.csv: no such file" in result.output


def test_a_change_keeps_the_comments_and_the_other_cards(carddata_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    book, path = _apprentice_table(carddata_copy, tmp_path)
    assert book.active["A4"].value == "ember-rogue"
    book.active["E4"] = "4"
    book.save(path)
    target = carddata_copy / "apprentice" / "cards.yaml"
    before = target.read_text().splitlines()
    assert _import(path, carddata_copy / "apprentice").exit_code == 0
    after = target.read_text().splitlines()
    changed = [(a, b) for a, b in zip(before, after) if a != b]
    assert len(before) == len(after)
    assert changed == [("    power: 3  # power not stated by the rulebook; chosen low, as Chance! can win outright",
                        "    power: 4  # power not stated by the rulebook; chosen low, as Chance! can win outright")]


def test_export_writes_the_table_and_refuses_a_foreign_file(carddata_copy, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["export", str(carddata_copy / "enchant"), "--out", "enchant.csv"])
    assert result.exit_code == 0, result.output
    lines = (tmp_path / "enchant.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == ",".join(COLUMNS) and len(lines) == 1 + len(_own_cards(carddata_copy / "enchant"))
    (tmp_path / "mine.xlsx").write_bytes(b"the designer's own workbook")
    result = runner.invoke(app, ["export", str(carddata_copy / "enchant"), "--out", "mine.xlsx"])
    assert result.exit_code == 2 and "refusing to overwrite mine.xlsx" in result.output
    assert (tmp_path / "mine.xlsx").read_bytes() == b"the designer's own workbook"


def test_a_table_may_go_beside_game_folders_but_never_into_one(tmp_path, monkeypatch):
    """From a folder holding a game folder, `export marea --out cards.csv` was refused ("…/game.yaml
    is card data"): one named file touches no sub-folder. Into the game folder it stays refused."""
    import shutil

    from conftest import GAMES
    from pipeline.cli.app import app
    from typer.testing import CliRunner

    shutil.copytree(GAMES / "mini", tmp_path / "mini")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    beside = runner.invoke(app, ["export", "mini", "--out", "cards.csv"])
    assert beside.exit_code == 0, beside.output
    assert (tmp_path / "cards.csv").read_text(encoding="utf-8").startswith("id,")
    inside = runner.invoke(app, ["export", "mini", "--out", "mini/cards.csv"])
    assert inside.exit_code == 2 and "mini/game.yaml is card data" in inside.output
    assert not (tmp_path / "mini" / "cards.csv").exists()


def test_import_into_a_mistyped_game_folder_gets_did_you_mean(tmp_path, monkeypatch):
    """`import cards.csv --game carddata/enchan` said only "give one with --game, e.g.
    carddata/apprentice"; export and check already offered the closest game folder. Control: the
    right folder imports (exit 0), and nothing is written into the mistyped one."""
    import shutil

    from conftest import GAMES
    from pipeline.cli.app import app
    from typer.testing import CliRunner

    shutil.copytree(GAMES / "mini", tmp_path / "mini")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(app, ["export", "mini", "--out", "cards.csv"]).exit_code == 0
    typo = runner.invoke(app, ["import", "cards.csv", "--game", "mnii"])
    assert typo.exit_code == 2
    assert " ".join(typo.output.split()) == ("deckpress: mnii is not a game folder (no game.yaml); did you mean mini? "
                                             "(game folders there: mini)")
    assert not (tmp_path / "mnii").exists()
    assert runner.invoke(app, ["import", "cards.csv", "--game", "mini"]).exit_code == 0


def test_a_csv_that_is_not_utf8_is_located_at_its_first_bad_byte(tmp_path, monkeypatch):
    """A table saved as "CSV" in Windows-1252 (Excel's default on many machines) was refused with
    Python's "codec can't decode byte 0xe9 in position 298". It now gives the line and column of
    the first byte that is not UTF-8, and what it would be in Windows-1252. Reference: the byte
    offset worked out here from the row written; control: the same table in UTF-8 imports."""
    import shutil

    from conftest import GAMES
    from pipeline.cli.app import app
    from typer.testing import CliRunner

    shutil.copytree(GAMES / "mini", tmp_path / "mini")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    assert runner.invoke(app, ["export", "mini", "--out", "cards.csv"]).exit_code == 0
    lines = (tmp_path / "cards.csv").read_text(encoding="utf-8").split("\n")
    row = 2  # the second card's row (line 3)
    at = lines[row].index(",") + 4  # inside the name: "Emb|er ..." -> "Embér ..."
    lines[row] = lines[row][:at] + "é" + lines[row][at:]
    (tmp_path / "utf8.csv").write_text("\n".join(lines), encoding="utf-8")
    (tmp_path / "cp1252.csv").write_bytes("\n".join(lines).encode("cp1252"))
    bad = runner.invoke(app, ["import", "cp1252.csv", "--game", "mini"])
    assert bad.exit_code == 2
    assert " ".join(bad.output.split()) == (f"deckpress: cannot read cp1252.csv: line {row + 1}, column {at + 1}: byte 0xe9 is not UTF-8 "
                                            "(a Windows-1252 or Latin-1 'é'?) (save it as UTF-8 CSV)")
    assert runner.invoke(app, ["import", "utf8.csv", "--game", "mini"]).exit_code == 0

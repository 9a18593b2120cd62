"""BRF files: golden bytes for the mini fixture, bytes in range, iconv's BRF charset agrees,
pages split on form feed, sheets place cards side by side and keep them whole, and an oversize
block is a finding."""

from __future__ import annotations

import dataclasses
import json
import shutil
import subprocess

import pytest

from conftest import CARDDATA
from pipeline.emboss.brf import BrfFormatError, brf_bytes, check_brf, read_brf
from pipeline.emboss.pages import COLUMN_GAP_CELLS, columns_that_fit, paginate
from pipeline.emboss.profiles import PageFormat
from pipeline.emboss.write import write_embosser_files

# Golden BRF of the mini fixture, card layout on card-3x5: one card per page, CR LF after
# every line, a form feed after every page. Checked by hand once against the UEB chart
# (Braille ASCII letter = dots): ";,E" grade 1 symbol indicator (56) + capital sign (6) + e =
# class indicator E (Ember) standing alone (UEB §5.7: ",E" alone reads "Every");
# ",EMB]" Ember with the er groupsign "]" (12456); ",APPR5TICE" Apprentice with the en
# groupsign "5" (26); ",5*ANT6" Enchant! = en "5", ch "*" (16), a n t, "!" "6" (235);
# "#A" numeric indicator + a = power 1; ",RANG]" Ranger; "#E" = 5; ",=E/" Forest = for
# "=" (123456), e, st "/" (34); ",RALLY6" Rally!; "=8" full cell + "?" (236) = power "?".
MINI_CARD_BRF = (
    b";,E\r\n,EMB]\r\n,APPR5TICE\r\n,5*ANT6\r\n#A\r\n\x0c"
    b";,E\r\n,EMB]\r\n,RANG]\r\n#E\r\n\x0c"
    b";,F\r\n,=E/\r\n,APPR5TICE\r\n,5*ANT6\r\n#A\r\n\x0c"
    b";,F\r\n,FIREBALL\r\n,RALLY6\r\n,5*ANT6\r\n=8\r\n\x0c"
)


def test_golden_card_layout_brf(mini, tmp_path):
    deck, blocks = mini
    result = write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", formats=("brf",), copies=False)
    assert result.findings == ()
    assert [p.name for p in result.paths] == ["mini-card-3x5-card.brf", "mini-card-3x5-card.brf.json"]
    assert (tmp_path / "mini-card-3x5-card.brf").read_bytes() == MINI_CARD_BRF


def test_sidecar_records_table_grade_format_and_card_order(mini, tmp_path):
    deck, blocks = mini
    write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", formats=("brf",), copies=False)
    side = json.loads((tmp_path / "mini-card-3x5-card.brf.json").read_text())
    assert side["table"] == "en-ueb-g2.ctb" and side["grade"] == 2
    assert (side["cells_per_line"], side["lines_per_page"]) == (10, 9)  # the card layout's braille box at spec800
    assert side["profile"] == "card-3x5" and side["layout"] == "card"
    assert side["card_order"] == ["ember-apprentice", "ember-ranger", "forest-apprentice", "fireball"]
    assert side["pages"] == [["ember-apprentice"], ["ember-ranger"], ["forest-apprentice"], ["fireball"]]
    assert side["omitted"] == [] and side["copies"]["fireball"] == 2


# Golden BRF of the mini fixture, sheet layout on generic-40x25 (40 cells × 25 lines). Checked by
# hand once: the widest card line is 10 cells (",APPR5TICE"), so columns are 10 cells plus the
# 2-cell cutting lane: cards start at cells 1, 13 and 25, and 3 fit (3·10 + 2·2 = 34 ≤ 40; a 4th
# would need 46). Row 1 holds ember-apprentice, ember-ranger, forest-apprentice (5, 4, 5 lines,
# so 5 lines tall); ember-ranger's empty 5th line is 12 spaces; a line stops after its last card's
# last cell (no trailing spaces). A blank line, then row 2: fireball alone, at cell 1. Every card's
# cells are those of MINI_CARD_BRF above (the test below cuts the columns apart and compares).
MINI_SHEET_BRF = (
    b";,E         ;,E         ;,F\r\n"
    b",EMB]       ,EMB]       ,=E/\r\n"
    b",APPR5TICE  ,RANG]      ,APPR5TICE\r\n"
    b",5*ANT6     #E          ,5*ANT6\r\n"
    b"#A                      #A\r\n"
    b"\r\n"
    b";,F\r\n,FIREBALL\r\n,RALLY6\r\n,5*ANT6\r\n=8\r\n\x0c"
)


def test_golden_sheet_layout_brf_puts_three_cards_side_by_side(mini, tmp_path):
    deck, blocks = mini
    result = write_embosser_files(deck, blocks, tmp_path, "generic-40x25", "sheet", formats=("brf",))
    assert result.findings == ()
    data = (tmp_path / "mini-generic-40x25-sheet.brf").read_bytes()
    assert data == MINI_SHEET_BRF
    assert check_brf(data, 40, 25) == []
    [page] = read_brf(data)
    assert all(line == line.rstrip(" ") for line in page)
    # cut the sheet at the lanes (cells 11–12 and 23–24): each piece is one card of the card-layout golden
    cards = [page[0:5], page[6:11]]
    pieces = [[line[c * 12 : c * 12 + 12].rstrip(" ") for line in rows] for rows in cards for c in range(3)]
    assert all(line[10:12].strip(" ") == line[22:24].strip(" ") == "" for line in page)  # the cutting lanes are blank
    card_pages = read_brf(MINI_CARD_BRF)
    assert [p for p in pieces if any(p)] == [card_pages[0], card_pages[1] + [""], card_pages[2], card_pages[3]]
    assert result.pages[0].cards == ("ember-apprentice", "ember-ranger", "forest-apprentice", "fireball")


def test_sidecar_records_each_cards_page_row_column_line_and_cell(mini, tmp_path):
    deck, blocks = mini
    write_embosser_files(deck, blocks, tmp_path, "generic-40x25", "sheet", formats=("brf",))
    side = json.loads((tmp_path / "mini-generic-40x25-sheet.brf.json").read_text())
    assert side["column_gap_cells"] == 2 and side["pages"] == [["ember-apprentice", "ember-ranger", "forest-apprentice", "fireball"]]
    assert [(p["card"], p["page"], p["row"], p["column"], p["line"], p["cell"]) for p in side["placements"]] == [
        ("ember-apprentice", 1, 1, 1, 1, 1),
        ("ember-ranger", 1, 1, 2, 1, 13),
        ("forest-apprentice", 1, 1, 3, 1, 25),
        ("fireball", 1, 2, 1, 7, 1),  # row 1 is lines 1–5, line 6 is blank
    ]
    write_embosser_files(deck, blocks, tmp_path, "card-3x5", "card", formats=("brf",), copies=False)
    card = json.loads((tmp_path / "mini-card-3x5-card.brf.json").read_text())
    assert card["column_gap_cells"] is None
    assert [(p["page"], p["row"], p["column"], p["line"], p["cell"]) for p in card["placements"]] == [(n, 1, 1, 1, 1) for n in (1, 2, 3, 4)]


def test_columns_that_fit_keep_a_two_cell_lane():
    # n columns of w cells need n·w + (n−1)·2 cells
    assert COLUMN_GAP_CELLS == 2
    assert [columns_that_fit(cells, 10) for cells in (9, 10, 21, 22, 33, 34, 40, 43, 45, 46)] == [1, 1, 1, 2, 2, 3, 3, 3, 3, 4]


def test_sheet_fills_rows_left_to_right_and_never_splits_a_card():
    fmt = PageFormat("test", 250.0, 130.0, 40, 12)
    a = "\u2801" * 10  # ten cells: the widest line, so columns are 10 cells wide and 3 fit in 40
    heights = {"c1": 3, "c2": 5, "c3": 2, "c4": 4, "c5": 4, "c6": 1, "c7": 6}
    result = paginate([(cid, [a] * h) for cid, h in heights.items()], fmt, "sheet")
    # row 1 (c1 c2 c3) is 5 lines tall, a blank, row 2 (c4 c5 c6) 4 lines: 10 ≤ 12. Row 3 (c7, 6 lines)
    # would need 10 + 1 + 6 = 17 > 12 lines, so it starts page 2 rather than being split.
    assert [p.cards for p in result.pages] == [("c1", "c2", "c3", "c4", "c5", "c6"), ("c7",)]
    assert [len(p.rows) for p in result.pages] == [10, 6]
    assert [(q.row, q.column, q.line, q.cell) for q in result.pages[0].placements] == [
        (1, 1, 1, 1), (1, 2, 1, 13), (1, 3, 1, 25), (2, 1, 7, 1), (2, 2, 7, 13), (2, 3, 7, 25)]
    rows = result.pages[0].rows
    blank = "\u2800"
    assert rows[0] == rows[1] == a + blank * 2 + a + blank * 2 + a  # 34 cells, all three cards
    assert rows[2] == a + blank * 2 + a  # c3 (2 lines) has ended: nothing after c2, no trailing blanks
    assert rows[3] == rows[4] == blank * 12 + a  # only c2 goes on, still in column 2 (cell 13)
    assert rows[5] == "" and rows[6] == a + blank * 2 + a + blank * 2 + a
    assert rows[7] == rows[8] == rows[9] == a + blank * 2 + a  # c6 is one line
    assert all(len(row) <= 40 and not row.endswith(blank) for page in result.pages for row in page.rows)
    assert result.pages[1].rows == (a,) * 6


def test_sheet_copies_sit_side_by_side(mini, tmp_path):
    deck, blocks = mini
    result = write_embosser_files(deck, blocks, tmp_path, "index-everest-d", "sheet", formats=("brf",), copies=True)
    # 8 printed cards, each copy in turn (5, 5, 4, 4, 5, 5, 5, 5 lines), 3 to a row on the Everest's
    # 43-cell line: rows of 5, 5 and 5 lines with a blank between = 17 ≤ 25 lines, one page.
    assert [p.cards for p in result.pages] == [
        ("ember-apprentice", "ember-apprentice", "ember-ranger", "ember-ranger",
         "forest-apprentice", "forest-apprentice", "fireball", "fireball"),
    ]
    page = result.pages[0]
    assert len(page.rows) == 17 and [i for i, row in enumerate(page.rows) if row == ""] == [5, 11]
    assert [(q.row, q.column) for q in page.placements] == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 2), (2, 3), (3, 1), (3, 2)]
    assert page.rows[0] != "" and page.rows[-1] != ""  # no blank line opening or closing a page


def test_apprentice_sheets_take_5_pages_not_14(tmp_path):
    from engine.load import load_game
    from pipeline.braille.layout import layout_deck

    deck = load_game(CARDDATA / "apprentice")
    blocks, _ = layout_deck(deck)
    result = write_embosser_files(deck, blocks, tmp_path, "index-everest-d", "sheet", formats=("brf",))
    # 60 cards, 3 per row (10-cell cards on a 43-cell line) = 20 rows of cards, 4 per page: the
    # rows' heights (tallest card in each) are 5 4 5 5 | 6 5 4 5 | 5 6 5 4 | 5 5 5 5 | 4 4 5 5, and
    # 4 rows take 19–23 lines with their 3 blanks, while a 5th would take at least 4 + 1 more > 25.
    # One card per line (the old stacked sheet) needed 14 pages.
    assert result.findings == ()
    assert [len(p.rows) for p in result.pages] == [22, 23, 23, 23, 21]
    assert [len(p.cards) for p in result.pages] == [12] * 5
    assert check_brf((tmp_path / "apprentice-index-everest-d-sheet.brf").read_bytes(), 43, 25) == []


def test_every_byte_in_range_for_every_profile_and_layout(mini, tmp_path):
    deck, blocks = mini
    made = []
    for profile, layout in [("card-3x5", "card"), ("card-3x5", "sheet"), ("generic-40x25", "sheet"),
                            ("index-everest-d", "sheet"), ("index-basic-d", "sheet"),
                            ("enabling-technologies-romeo-60", "sheet"), ("viewplus-tiger-max", "sheet")]:
        result = write_embosser_files(deck, blocks, tmp_path, profile, layout, formats=("brf",))
        made += [p for p in result.paths if p.suffix == ".brf"]
    assert len(made) == 7
    for path in made:
        data = path.read_bytes()
        assert set(data) - set(range(0x20, 0x60)) <= {0x0D, 0x0A, 0x0C}, path
        assert data.endswith(b"\r\n\x0c") and b"\x0c\x0c" not in data  # no blank trailing page
        side = json.loads(path.with_name(path.name + ".json").read_text())
        assert check_brf(data, side["cells_per_line"], side["lines_per_page"]) == []


def _iconv_knows_brf() -> bool:
    if not shutil.which("iconv"):
        return False
    listing = subprocess.run(["iconv", "-l"], capture_output=True, text=True).stdout
    return any(name.strip().rstrip("/,").upper() == "BRF" for name in listing.replace(",", " ").split())


@pytest.mark.skipif(not _iconv_knows_brf(), reason="the system iconv has no BRF charset (glibc provides one)")
def test_iconv_brf_charset_accepts_and_maps_to_the_same_cells(mini):
    deck, blocks = mini
    run = subprocess.run(["iconv", "-f", "BRF", "-t", "UTF-8"], input=MINI_CARD_BRF, capture_output=True)
    assert run.returncode == 0, run.stderr
    # glibc's BRF charset maps Braille ASCII to Unicode braille: an independent check of cells.to_brf
    expected = "".join("".join(line + "\r\n" for line in block.lines) + "\f" for block in blocks.values())
    assert run.stdout.decode("utf-8") == expected
    bad = subprocess.run(["iconv", "-f", "BRF", "-t", "UTF-8"], input=b",e\r\n\x0c", capture_output=True)
    assert bad.returncode != 0  # lowercase is outside 0x20–0x5F and refused too


def test_read_back_splits_pages_on_form_feed_only():
    pages = [["\u2801", "", "\u2803"], ["\u2809\u2819"]]
    data = brf_bytes(pages)
    assert data == b"A\r\n\r\nB\r\n\x0cCD\r\n\x0c"
    assert read_brf(data) == [["A", "", "B"], ["CD"]]
    # str.splitlines treats \f as a line break too and loses the page structure:
    assert data.decode().splitlines() == ["A", "", "B", "", "CD", ""]


def test_read_brf_tolerates_a_missing_final_form_feed_but_not_a_broken_line():
    assert read_brf(b"A\r\n\x0cB\r\n") == [["A"], ["B"]]
    with pytest.raises(BrfFormatError, match="page 2"):
        read_brf(b"A\r\n\x0cB")
    with pytest.raises(BrfFormatError, match="offset 0"):
        read_brf("é\r\n".encode())


def test_check_brf_names_each_problem():
    assert check_brf(b"ab\r\n\x0c", 10, 11) == ["byte 0x61 at offset 0 is not Braille ASCII, CR LF or form feed",
                                                "byte 0x62 at offset 1 is not Braille ASCII, CR LF or form feed"]
    assert check_brf(b"AAAAAAAAAAA\r\n\x0c", 10, 11) == ["page 1 line 1 has 11 cells, more than 10"]
    assert check_brf(b"A\r\n" * 12 + b"\x0c", 10, 11) == ["page 1 has 12 lines, more than 11"]
    assert check_brf(b"A\r\n\x0c\r\n\x0c", 10, 11) == ["page 2 is blank"]
    assert check_brf(b"A\r\n", 10, 11) == ["the file does not end with a form feed"]
    assert check_brf(b"A\n\x0c", 10, 11)[0] == "byte 0x0A at offset 1 is not Braille ASCII, CR LF or form feed"


def test_block_taller_than_the_profile_is_a_finding_not_a_corrupt_page(mini, tmp_path):
    deck, blocks = mini
    tall = dict(blocks)
    tall["ember-ranger"] = dataclasses.replace(blocks["ember-ranger"], lines=("\u2801",) * 12)  # 12 lines > 11
    result = write_embosser_files(deck, tall, tmp_path, "card-3x5", "card", copies=False)
    assert [(f.code, f.location.card) for f in result.findings] == [("EM001", "ember-ranger")]
    assert "needs 12 lines" in result.findings[0].message and "has 9 per page" in result.findings[0].message
    data = (tmp_path / "mini-card-3x5-card.brf").read_bytes()
    assert data == MINI_CARD_BRF.replace(b";,E\r\n,EMB]\r\n,RANG]\r\n#E\r\n\x0c", b"")
    assert check_brf(data, 10, 9) == []
    side = json.loads((tmp_path / "mini-card-3x5-card.brf.json").read_text())
    assert side["omitted"] == ["ember-ranger"] and "ember-ranger" not in side["card_order"]


def test_line_wider_than_the_profile_and_non_six_dot_cells_are_findings():
    fmt = PageFormat("card-3x5", 76.2, 127.0, 10, 11)
    cards = [("wide", ["\u2801" * 11]), ("eight", ["\u2841"]), ("ok", ["\u2801" * 10]), ("empty", [])]
    result = paginate(cards, fmt, "card")
    assert [f.code for f in result.findings] == ["EM002", "EM003", "EM007"]
    assert "needs 11 cells" in result.findings[0].message and "U+2841" in result.findings[1].message
    assert result.omitted == ("wide", "eight", "empty")
    assert [p.cards for p in result.pages] == [("ok",)]


def test_missing_block_is_a_finding(mini, tmp_path):
    deck, blocks = mini
    partial = {k: v for k, v in blocks.items() if k != "fireball"}
    result = write_embosser_files(deck, partial, tmp_path, "card-3x5", "card", formats=("brf",), copies=False)
    assert [(f.code, f.location.card) for f in result.findings] == [("EM007", "fireball")]
    assert len(read_brf((tmp_path / "mini-card-3x5-card.brf").read_bytes())) == 3


def test_nothing_fits_writes_nothing(mini, tmp_path):
    deck, blocks = mini
    tall = {k: dataclasses.replace(b, lines=("\u2801",) * 12) for k, b in blocks.items()}
    result = write_embosser_files(deck, tall, tmp_path, "card-3x5", "card")
    assert result.paths == () and list(tmp_path.iterdir()) == []
    assert [f.code for f in result.findings] == ["EM001"] * 4 + ["EM006"]

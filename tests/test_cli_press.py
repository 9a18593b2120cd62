"""`deckpress uv` and `deckpress impose` through typer's runner: files written, counts, exit codes."""

from __future__ import annotations

import json

import pytest

from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from pipeline.cli.app import app

runner = CliRunner()


def _cards(path, pages):
    from pipeline.render.fonts import face

    c = Canvas(str(path), pagesize=(234, 378), invariant=1, initialFontName=face("regular").name)
    for _ in range(pages):
        c.setBleedBox((0, 0, 234, 378))
        c.setTrimBox((9, 9, 225, 369))
        c.rect(0, 0, 234, 378, stroke=0, fill=1)
        c.showPage()
    c.save()
    return path


def test_uv_then_impose_the_mini_game(mini_dir, tmp_path):
    fronts = _cards(tmp_path / "fronts.pdf", 4)  # mini: 4 unique cards, 2 copies each
    backs = _cards(tmp_path / "backs.pdf", 2)  # 2 classes
    uv = runner.invoke(app, ["uv", str(mini_dir), "--out", str(tmp_path / "uv"), "--spot", "RDG_GLOSS", "--fronts", str(fronts)])
    assert uv.exit_code == 0, uv.output
    braille = tmp_path / "uv" / "mini-braille.pdf"
    assert len(PdfReader(braille).pages) == 4
    assert len(PdfReader(tmp_path / "uv" / "mini-fronts+braille.pdf").pages) == 4
    assert json.loads((tmp_path / "uv" / "mini-dots.json").read_text())["spot_name"] == "RDG_GLOSS"

    result = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(fronts), "--backs", str(backs), "--braille", str(braille),
                                 "--sheet", "letter", "--sheet", "12x18", "--out", str(tmp_path / "sheets")])
    assert result.exit_code == 0, result.output
    assert "letter: 2×2 portrait, 8 cards on 2 sheet(s)" in result.output
    assert "12x18: 5×2 landscape, 8 cards on 1 sheet(s)" in result.output
    for name, sheets in (("letter", 2), ("12x18", 1)):
        for side in ("fronts", "backs", "braille"):
            assert len(PdfReader(tmp_path / "sheets" / f"mini-{name}-{side}.pdf").pages) == sheets


def test_uv_and_impose_write_the_profiles_plate_sheets_and_the_composite(mini_dir, tmp_path):
    fronts, backs = _cards(tmp_path / "fronts.pdf", 4), _cards(tmp_path / "backs.pdf", 2)
    uv = runner.invoke(app, ["uv", str(mini_dir), "--out", str(tmp_path / "uv"), "--uv-printer", "arizona",
                             "--layer-thickness", "0.12mm", "--fronts", str(fronts)])
    assert uv.exit_code == 0, uv.output
    assert len(PdfReader(tmp_path / "uv" / "mini-fronts+layers.pdf").pages) == 4  # fronts + Spot 1 L01-L04
    result = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(fronts), "--backs", str(backs), "--uv-printer", "arizona",
                                 "--braille", str(tmp_path / "uv" / "mini-braille.pdf"), "--out", str(tmp_path / "sheets")])
    assert result.exit_code == 0, result.output
    plates = PdfReader(tmp_path / "sheets" / "mini-letter-plates-arizona.pdf")
    assert list(plates.page_labels) == [f"sheet {n} L0{k}" for n in (1, 2) for k in range(1, 5)]  # 2 sheets × 4 layers
    assert len(PdfReader(tmp_path / "sheets" / "mini-letter-composite.pdf").pages) == 2
    assert f"wrote {tmp_path / 'sheets' / 'mini-letter-composite.pdf'}" in result.output
    unknown = runner.invoke(app, ["impose", str(mini_dir), "--uv-printer", "roland", "--fronts", str(fronts)])
    assert unknown.exit_code == 2 and "unknown UV printer profile 'roland'; known: arizona" in unknown.output


def test_impose_refuses_a_bad_back_offset_and_a_missing_pdf(mini_dir, tmp_path):
    bad = runner.invoke(app, ["impose", str(mini_dir), "--back-offset", "2", "--fronts", str(tmp_path / "none.pdf")])
    assert bad.exit_code == 2 and "--back-offset expects 'dx,dy'" in bad.output
    missing = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(tmp_path / "none.pdf"), "--out", str(tmp_path)])
    assert missing.exit_code == 2 and "cannot read the front PDF" in missing.output
    unknown = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(_cards(tmp_path / "f.pdf", 4)), "--sheet", "b5", "--out", str(tmp_path)])
    assert unknown.exit_code == 2 and "unknown press sheet 'b5'" in unknown.output


def _without_card(folder, card_id):
    text = (folder / "cards.yaml").read_text()
    start = text.index(f"  - id: {card_id}\n")
    end = text.index("  - id: ", start + 1)
    (folder / "cards.yaml").write_text(text[:start] + text[end:])


def test_impose_refuses_print_pdfs_older_than_the_data(game_copy, tmp_path):
    folder = game_copy("mini")
    rendered = runner.invoke(app, ["render", str(folder), "--out", str(tmp_path / "print")])
    assert rendered.exit_code == 0, rendered.output
    fronts, backs = tmp_path / "print" / "mini-fronts.pdf", tmp_path / "print" / "mini-backs.pdf"
    _without_card(folder, "ember-ranger")  # the tester's case: a card removed after rendering
    result = runner.invoke(app, ["impose", str(folder), "--fronts", str(fronts), "--backs", str(backs), "--out", str(tmp_path / "sheets")])
    assert result.exit_code == 2
    assert (f"deckpress: the fronts PDF {fronts} is out of date: it has 4 pages, the data 3 cards (pages for cards no longer "
            "in the data: ember-ranger); run deckpress build or deckpress render first") in result.output
    assert "internal error" not in result.output and not (tmp_path / "sheets").exists()
    # rendered again, the same command works
    assert runner.invoke(app, ["render", str(folder), "--out", str(tmp_path / "print")]).exit_code == 0
    again = runner.invoke(app, ["impose", str(folder), "--fronts", str(fronts), "--backs", str(backs), "--out", str(tmp_path / "sheets")])
    assert again.exit_code == 0, again.output
    assert "letter: 2×2 portrait, 6 cards on 2 sheet(s)" in again.output


@pytest.mark.parametrize("command", ["render", "proof", "uv", "impose"])
def test_a_card_in_an_unknown_class_is_a_data_error_not_an_internal_error(command, game_copy, tmp_path):
    folder = game_copy("mini")
    text = (folder / "cards.yaml").read_text()
    (folder / "cards.yaml").write_text(text.replace("class: ember\n", "class: embers\n", 1))
    extra = ["--fronts", str(_cards(tmp_path / "f.pdf", 4))] if command == "impose" else []
    result = runner.invoke(app, [command, str(folder), "--out", str(tmp_path / "out"), *extra])
    assert result.exit_code == 1, result.output
    assert (f"{folder / 'cards.yaml'}:4:12: error CP008 unknown-class: [ember-apprentice] 'Ember Apprentice' is in class "
            "'embers', which the game does not have") in result.output
    assert "hint: use one of: ember, forest" in result.output
    assert "internal error" not in result.output and not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["render", "proof", "impose"])
def test_an_ignored_cp008_still_ends_in_one_clear_line(command, game_copy, tmp_path):
    folder = game_copy("mini")
    text = (folder / "cards.yaml").read_text()
    (folder / "cards.yaml").write_text(text.replace("class: ember\n", "class: embers\n    ignore: [CP008]\n", 1))
    extra = ["--fronts", str(_cards(tmp_path / "f.pdf", 4))] if command == "impose" else []
    result = runner.invoke(app, [command, str(folder), "--out", str(tmp_path / "out"), *extra])
    assert result.exit_code == 1, result.output
    assert (f"deckpress: {folder / 'cards.yaml'}:4:12: card 'ember-apprentice' names class 'embers', not in the game "
            "(classes: ember, forest)") in result.output
    assert "internal error" not in result.output


def test_uv_refuses_a_spot_name_with_pdf_delimiters(mini_dir, tmp_path):
    result = runner.invoke(app, ["uv", str(mini_dir), "--out", str(tmp_path / "uv"), "--spot", "A/B(x)"])
    assert result.exit_code == 2
    assert ("deckpress: spot colour name 'A/B(x)' is not usable: it contains '(' ')' '/'; a spot colour name may hold "
            "letters A-Z a-z, digits 0-9, space, '_', '-' and '.' (1-127 characters), e.g. 'Braille', 'RDG_GLOSS' or 'Spot 1'") in result.output
    assert not (tmp_path / "uv" / "mini-braille.pdf").exists()


def test_impose_warns_about_a_back_offset_that_looks_like_a_typo(mini_dir, tmp_path):
    fronts, backs = _cards(tmp_path / "f.pdf", 4), _cards(tmp_path / "b.pdf", 2)
    result = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(fronts), "--backs", str(backs),
                                 "--back-offset", "15mm,0mm", "--out", str(tmp_path / "sheets")])
    assert result.exit_code == 0, result.output  # a warning: the sheets are written
    assert ("warning IM005 large-back-offset: the back offset +15.00, +0.00 mm is larger than 5 mm: probably a typo "
            "(the calibration scale reads ±5 mm)") in result.output
    assert (tmp_path / "sheets" / "mini-letter-backs.pdf").exists()


def test_impose_refuses_a_back_offset_off_the_card_before_writing_a_sheet(mini_dir, tmp_path):
    """`deckpress impose --back-offset 500mm,0mm` reported IM006 but wrote the sheets, over the
    previous good ones (a new user's try). The reference: the sha256 of every file before."""
    import hashlib

    fronts, backs = _cards(tmp_path / "f.pdf", 4), _cards(tmp_path / "b.pdf", 2)
    args = ["impose", str(mini_dir), "--fronts", str(fronts), "--backs", str(backs), "--out", str(tmp_path / "sheets")]
    assert runner.invoke(app, args).exit_code == 0
    before = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (tmp_path / "sheets").iterdir()}
    result = runner.invoke(app, args + ["--back-offset", "500mm,0mm"])
    assert result.exit_code == 1, result.output
    assert "error IM006 back-offset-off-card: the back offset +500.00, +0.00 mm is half the card's trim (76.2 × 127.0 mm) or more" in result.output
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in (tmp_path / "sheets").iterdir()} == before


def test_build_refuses_an_unknown_paper_in_one_line_before_building(mini_dir, tmp_path):
    result = runner.invoke(app, ["build", str(mini_dir), "--paper", "letter,letterr", "--out", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.strip() == "deckpress: unknown press sheet 'letterr'; known: letter, a4, tabloid, 12x18, sra3"
    assert not (tmp_path / "out").exists()


def test_only_vendor_with_a_press_target_is_one_line_not_a_silent_build_without_vendor_files(mini_dir, tmp_path):
    result = runner.invoke(app, ["build", str(mini_dir), "--only", "vendor", "--out", str(tmp_path / "out")])  # fogra39
    assert result.exit_code == 2
    assert result.output.strip() == ("deckpress: --only vendor writes a vendor preset's upload files, and 'fogra39' is a press "
                                     "target; use --target thegamecrafter, makeplayingcards or drivethrucards")
    assert not (tmp_path / "out").exists()

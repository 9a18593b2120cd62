"""`deckpress uv` and `deckpress impose` through typer's runner: files written, counts, exit codes."""

from __future__ import annotations

import json

from pypdf import PdfReader
from reportlab.pdfgen.canvas import Canvas
from typer.testing import CliRunner

from pipeline.cli import app

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


def test_impose_refuses_a_bad_back_offset_and_a_missing_pdf(mini_dir, tmp_path):
    bad = runner.invoke(app, ["impose", str(mini_dir), "--back-offset", "2", "--fronts", str(tmp_path / "none.pdf")])
    assert bad.exit_code == 2 and "--back-offset expects 'dx,dy'" in bad.output
    missing = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(tmp_path / "none.pdf"), "--out", str(tmp_path)])
    assert missing.exit_code == 2 and "cannot read the front PDF" in missing.output
    unknown = runner.invoke(app, ["impose", str(mini_dir), "--fronts", str(_cards(tmp_path / "f.pdf", 4)), "--sheet", "b5", "--out", str(tmp_path)])
    assert unknown.exit_code == 2 and "unknown press sheet 'b5'" in unknown.output

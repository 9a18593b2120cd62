"""The calibration sheet is drawn once per grid, font and note (:func:`pipeline.render.calibration.calibration_pdf`)
and finished per game: what each game's file says must still be that game's title and that grid's offset."""

from __future__ import annotations

from pypdf import PdfReader

from pipeline.render import calibration
from pipeline.render.fonts import face
from pipeline.render.sheets import get_sheet, plan_grid


def _text(path) -> str:
    return " ".join(page.extract_text() for page in PdfReader(path).pages)


def test_same_grid_drawn_once_finished_with_each_title(tmp_path):
    font = face("regular").name
    calibration.calibration_pdf.cache_clear()
    grid = plan_grid(get_sheet("letter").with_back_offset(0.0, 0.0), 234.0, 378.0)
    again = plan_grid(get_sheet("letter").with_back_offset(0.0, 0.0), 234.0, 378.0)  # the next game's, equal
    a = calibration.write_calibration(grid, tmp_path / "a.pdf", font, "alpha duplex calibration (letter)", "DRAFT")
    b = calibration.write_calibration(again, tmp_path / "b.pdf", font, "beta duplex calibration (letter)", "DRAFT")
    info = calibration.calibration_pdf.cache_info()
    assert (info.misses, info.hits) == (1, 1)
    assert PdfReader(a).metadata.title == "alpha duplex calibration (letter)"
    assert PdfReader(b).metadata.title == "beta duplex calibration (letter)"
    assert _text(a) == _text(b)


def test_another_back_offset_or_note_is_drawn_anew(tmp_path):
    font = face("regular").name
    sheet = get_sheet("letter")
    plain = calibration.write_calibration(plan_grid(sheet.with_back_offset(0.0, 0.0), 234.0, 378.0), tmp_path / "a.pdf", font)
    moved = calibration.write_calibration(plan_grid(sheet.with_back_offset(2.834646, 0.0), 234.0, 378.0), tmp_path / "b.pdf", font)
    noted = calibration.write_calibration(plan_grid(sheet.with_back_offset(0.0, 0.0), 234.0, 378.0), tmp_path / "c.pdf", font,
                                          note="run 7")
    assert "back offset +0.00, +0.00 mm" in _text(plain) and "+1.00, +0.00 mm" not in _text(plain)
    assert "back offset +1.00, +0.00 mm" in _text(moved)
    assert "run 7" in _text(noted) and "run 7" not in _text(plain)

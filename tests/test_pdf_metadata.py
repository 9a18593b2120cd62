"""Every PDF deckpress writes names its game, its publisher and its edition date, keeps page boxes
and tags each font subset after its own glyphs (issue #25).

Info, boxes and fonts are read back with pikepdf (qpdf), a parser independent of reportlab,
which drew the pages. The fixture game gets ``publisher:`` and ``date:`` written into its
game.yaml, so every expected value comes from the data, not from deckpress.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pikepdf
import pytest
from typer.testing import CliRunner

from conftest import GAMES
from engine.load import load_game
from pipeline.build.runner import run_build
from pipeline.build.settings import BuildSettings
from pipeline.cli.app import app
from pipeline.dice.sheet import render_dice
from pipeline.render.pdfx import check_pdfx, subset_tag

PUBLISHER = "Tidewater Accessible Games"
DATE = "D:20261015000000+00'00'"  # game.yaml date: 2026-10-15, midnight UTC (ISO 32000-1 §7.9.4)


def _add_publisher(folder: Path) -> Path:
    path = folder / "game.yaml"
    path.write_text(path.read_text().replace("title: Mini ICG\n", f"title: Mini ICG\npublisher: {PUBLISHER}\ndate: 2026-10-15\n")
                    + "packaging: {caliper: 1mm, clearance: 2mm, boxes: [{class: ember}]}\n")  # 4 cards: 6 mm deep
    return folder


def _fonts(pdf: pikepdf.Pdf) -> dict[str, bytes]:
    """BaseFont → embedded font program of every simple TrueType font in the file."""
    out = {}
    for obj in pdf.objects:
        if isinstance(obj, pikepdf.Dictionary) and obj.get("/Type") == "/Font" and "/FontDescriptor" in obj:
            out[str(obj.BaseFont)] = obj.FontDescriptor.FontFile2.read_bytes()
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("meta")
    shutil.copytree(GAMES / "mini", root / "mini")
    _add_publisher(root / "mini")
    (outcome,) = run_build([str(root / "mini")], BuildSettings(out_dir=str(root / "out"), papers=("letter",)))
    assert outcome.status == "built", [f.render() for f in outcome.findings]
    return root / "out" / "mini"


def test_every_pdf_of_a_build_names_the_game_publisher_and_date(built):
    paths = sorted(built.rglob("*.pdf"))
    folders = {p.parent.name for p in paths}
    assert {"print", "uv", "sheets", "dice", "boxes"} <= folders, folders
    for path in paths:
        with pikepdf.open(path) as pdf:
            info = pdf.docinfo
            title = str(info.Title).removeprefix("DRAFT - not for press: ")
            assert title.startswith("Mini ICG: "), (path.name, title)
            assert not title.startswith("Mini ICG: mini "), title  # the game id gave way to the title
            assert str(info.Author) == PUBLISHER, path.name
            assert str(info.Creator) == f"{PUBLISHER} (deckpress)"
            assert str(info.CreationDate) == str(info.ModDate) == DATE, path.name
            assert not str(info.Subject).endswith("unspecified"), (path.name, str(info.Subject))  # reportlab's placeholder
            for name, program in _fonts(pdf).items():  # each subset named after its own glyphs
                assert name[1:7] == subset_tag(program), (path.name, name)


def test_die_sheet_is_pdfx_with_trim_box_and_two_differently_tagged_subsets(built):
    with pikepdf.open(built / "dice" / "die-d12.pdf") as pdf:
        assert str(pdf.docinfo.Title) == "DRAFT - not for press: Mini ICG: D12 face sheet"
        assert check_pdfx(pdf) == []
        for page in pdf.pages:  # printed untrimmed: the trim is the letter page, 612 × 792 pt
            assert [float(v) for v in page.obj.TrimBox] == [float(v) for v in page.obj.MediaBox] == [0, 0, 612, 792]
        fonts = _fonts(pdf)
    assert sorted(name[8:] for name in fonts) == ["AtkinsonHyperlegible-Bold", "AtkinsonHyperlegible-Regular"]
    tags = {name[1:7] for name in fonts}
    assert len(tags) == 2 and "AAAAAA" not in tags  # reportlab tags both first subsets AAAAAA+


def test_die_sheet_written_alone_names_the_game(mini_dir, tmp_path):
    [sheet] = render_dice(load_game(mini_dir), tmp_path)
    with pikepdf.open(sheet.path) as pdf:
        assert str(pdf.docinfo.Title) == "Mini ICG: D12 face sheet"
        assert str(pdf.docinfo["/GTS_PDFXConformance"]) == "PDF/X-1a:2003"


def test_the_dice_command_stamps_its_sheets_like_a_build(game_copy, tmp_path, monkeypatch):
    folder = _add_publisher(game_copy("mini"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(app, ["dice", str(folder), "--out", str(tmp_path / "dice")])
    assert result.exit_code == 0, result.output
    with pikepdf.open(tmp_path / "dice" / "die-d12.pdf") as pdf:
        info = pdf.docinfo
        assert str(info.Title) == "DRAFT - not for press: Mini ICG: D12 face sheet"
        assert (str(info.Author), str(info.CreationDate)) == (PUBLISHER, DATE)
